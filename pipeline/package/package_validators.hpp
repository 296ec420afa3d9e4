// A problem package's own input validators (io/files/validator_settings.hpp finds them and their
// arguments), made ready and run as check's solutions are: sources compiled once into the store of
// compiled programs, a directory's `build` script run in the sandbox, every run in the sandbox
// under limits of time, memory and output. A validator that crashes, hangs, prints megabytes or
// exits with a status its convention does not know has "failed" on that input, and is named so.
//
// `validate` and `build` run every validator on every test with its group's flags and compare
// with gamebatch's own verdict: a test that one side accepts and the other rejects is named with
// both messages.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/files/problem_package.hpp"
#include "io/files/validator_settings.hpp"
#include "io/run/sandbox.hpp"
#include "io/run/solution_build.hpp"
#include "pipeline/programs/run_setup.hpp"

namespace gamebatch::pipeline {

enum class ValidatorVerdict { accepted, rejected, failed };

// What one validator said of one input: its verdict, and why (its standard error's last lines, or
// how it failed: "killed by signal 11 (SIGSEGV)", "output limit (1 MiB kept)").
struct ValidatorRun {
  ValidatorVerdict verdict = ValidatorVerdict::failed;
  std::string message;
};

// What validators may print on standard output before they are stopped: they print nothing.
inline constexpr std::uint64_t kValidatorOutputBytes = std::uint64_t{1} << 20;

// The validators of one package, made ready to run.
class PackageValidators {
 public:
  // Finds the validators of `package` and builds them: sources compiled into the store beside
  // `cache_file` (a temporary one with `no_cache`), `build` scripts run in `sandbox` (nullptr:
  // --no-sandbox). A validator that cannot be built is kept with its problem (problems()).
  // Throws std::runtime_error when the store cannot be used.
  PackageValidators(const io::ProblemPackage& package, const JudgeSettings& judge,
                    const std::string& cache_file, bool no_cache, io::SandboxPool* sandbox);
  ~PackageValidators();
  PackageValidators(const PackageValidators&) = delete;
  PackageValidators& operator=(const PackageValidators&) = delete;

  std::size_t size() const { return validators_.size(); }
  const io::PackageValidator& validator(std::size_t k) const { return validators_[k].found; }
  // Whether validator k can run (it was built).
  bool runnable(std::size_t k) const { return !validators_[k].command.empty(); }
  // One line per validator that cannot run, and per warning of the package's settings.
  const std::vector<std::string>& problems() const { return problems_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

  // The arguments validator k gets on a test of the directory and group of `test`.
  std::vector<std::string> arguments(std::size_t k, const std::filesystem::path& test) const;
  // Runs validator k on the file `input` with the arguments of `flags_of` (a test whose group's
  // flags apply: the input itself, or the test a mutant was made from).
  ValidatorRun run(std::size_t k, const std::filesystem::path& input,
                   const std::filesystem::path& flags_of) const;

 private:
  struct Prepared {
    io::PackageValidator found;
    std::string command;  // empty: cannot run
  };
  void prepare(const io::LanguageTable& languages, const std::filesystem::path& store);
  std::string build_directory(const io::PackageValidator& validator);
  std::filesystem::path source_with_headers(const io::PackageValidator& validator);

  std::vector<Prepared> validators_;
  std::unique_ptr<io::ValidatorArguments> arguments_;
  std::optional<CompiledStore> store_;
  std::filesystem::path scratch_;  // built directories, copies of Polygon sources; removed at end
  io::SandboxPool* sandbox_ = nullptr;
  JudgeSettings judge_;
  std::vector<std::string> problems_;
  std::vector<std::string> warnings_;
};

// "accepts", "rejects", "failed on".
std::string_view verdict_words(ValidatorVerdict verdict);

// What the validators of a package made of its tests.
struct ValidatorComparison {
  std::size_t tests = 0;
  std::size_t runs = 0;
  // One line per test where a validator and gamebatch disagree, or a validator failed: "TEST:
  // input_validators/v.cpp rejects it (line 2: n too large) and gamebatch accepts it".
  std::vector<std::string> disagreements;
};

// Runs every runnable validator on every test in `tests` (each with its own group's flags),
// `jobs` at once, and compares each verdict with gamebatch's: `gamebatch_rejection(test)` is
// empty when gamebatch accepts the test, else why not. `shown` names a test in messages (the
// package's relative path).
ValidatorComparison compare_with_validators(
    const PackageValidators& validators, const std::vector<std::filesystem::path>& tests,
    const std::function<std::string(const std::filesystem::path&)>& gamebatch_rejection,
    const std::function<std::string(const std::filesystem::path&)>& shown, std::size_t jobs);

// The tests of a package: every input of its groups, else every input under its input roots;
// never those of data/invalid_input(s)/ (inputs that must be rejected).
std::vector<std::filesystem::path> package_tests(const io::ProblemPackage& package);

}  // namespace gamebatch::pipeline
