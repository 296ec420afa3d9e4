// What check, stress and build set up before they run other people's programs: the limits of a
// run, the sandbox around it (io/run/sandbox.hpp), the languages sources are compiled in, and the
// store of compiled programs beside the answer cache (io/run/compiled_store.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/files/problem_package.hpp"
#include "io/run/compiled_store.hpp"
#include "io/run/sandbox.hpp"
#include "io/run/solution_build.hpp"
#include "pipeline/judge/check_run.hpp"
#include "pipeline/judge/judge.hpp"

namespace gamebatch::pipeline {

// The limits and the sandbox of the programs under test (check, stress) or run to make tests
// (build), as the command line gives them.
struct JudgeSettings {
  double time_limit = 10;           // seconds of CPU time
  bool time_limit_given = false;    // --time-limit was given (else a package's own may apply)
  std::uint64_t memory_limit = 0;   // MiB of peak resident memory; 0: none
  bool memory_limit_given = false;  // --memory-limit was given
  std::uint64_t output_limit = 64;  // MiB of standard output
  int jobs = 0;                     // runs at once; 0: one per core
  // The sandbox (io/run/sandbox.hpp).
  bool no_sandbox = false;
  std::vector<std::string> sandbox_binds;  // --sandbox-bind PATH
  std::uint64_t sandbox_disk = 64;         // MiB of scratch
  std::uint64_t max_processes = 256;       // processes and threads of one run
  // Solutions given as sources (io/run/solution_build.hpp): --languages FILE's [languages] over the
  // defaults; empty: the defaults.
  std::string languages_file;
};

// Files of scratch a run may make (the tmpfs's inodes): a bound that no solution meets and that
// keeps a run from filling the box's memory with empty files.
inline constexpr std::uint64_t kSandboxFiles = 4096;

// What `--sandbox-info` prints: what this machine allows, and why not where it does not;
// `available` tells which.
std::string sandbox_info_text(const JudgeSettings& judge, bool& available);

// The sandbox of a check, stress or build, made and tried before any run: nullptr with
// --no-sandbox. False (after one error message) when it cannot work here.
bool make_sandbox(const JudgeSettings& judge, std::unique_ptr<io::SandboxPool>& pool);

// The report's and the HTML page's "sandbox": which guards were in force.
nlohmann::json sandbox_json(const JudgeSettings& judge, const io::SandboxPool* pool);

// The judge's limits of one run, in bytes and seconds.
JudgeLimits judge_limits(const JudgeSettings& judge);

// The report's "limits", as the command line gave them.
nlohmann::json limits_json(const JudgeSettings& judge);

// The languages of the defaults, changed by --languages FILE. False (after saying why) when the
// file cannot be read.
bool load_languages(const JudgeSettings& judge, io::LanguageTable& languages);

// Where compiled programs are kept: "compiled" beside the answer cache file (`cache_file`, or the
// default when empty); a temporary directory, removed at the end, with `no_cache` or without a
// location. Throws std::system_error when the temporary directory cannot be made.
class CompiledStore {
 public:
  CompiledStore(const std::string& cache_file, bool no_cache);
  CompiledStore(const CompiledStore&) = delete;
  CompiledStore& operator=(const CompiledStore&) = delete;
  ~CompiledStore();
  const std::filesystem::path& path() const { return path_; }
  bool temporary() const { return temporary_; }

 private:
  std::filesystem::path path_;
  bool temporary_ = false;
  std::optional<io::StoreUse> in_use_;  // `cache trim` leaves the store alone meanwhile
};

// A solution as the user named it: a source (a file or a directory that a language claims) to
// build, or else a shell command run as it is.
struct SolutionToBuild {
  CheckSolution solution;
  std::optional<std::filesystem::path> source;
};

// Compiles the sources among `solutions` (`jobs` at once), each once; the commands of the others
// are left as they are. Says on stderr what was compiled and what came from the store, and puts
// the same in `report`. False (after an error message) when the store cannot be used: a usage
// problem.
bool build_solutions(std::vector<SolutionToBuild>& solutions, const io::LanguageTable& languages,
                     const std::filesystem::path& store, io::SandboxPool* sandbox, std::size_t jobs,
                     nlohmann::json& report);

// The solutions of a check: the --solution arguments, else a package's submissions.
std::vector<SolutionToBuild> solutions_to_build(const std::vector<std::string>& arguments,
                                                const io::ProblemPackage* package,
                                                const io::LanguageTable& languages);

}  // namespace gamebatch::pipeline
