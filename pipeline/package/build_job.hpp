// pipeline/package/: the room of making problem packages. Its theory of operation.
//
// What it is for. `gamebatch build` (a package's tests made from its plan, validated, solved and
// written in its layout), `gamebatch validate` (inputs in the statement's exact format and limits,
// a package's own validators compared, their blind spots found) and `gamebatch validator` (the
// standalone validator program).
//
// Its parts.
// - build_job.hpp (this file): the engine of build. Public.
// - test_makers.hpp: a plan's entries as makers of tests (copies, gen's generators, generator
//   programs in the sandbox). Public. game_options.hpp: gen's game options, as a plan's gen
//   entries spell them. Public.
// - package_build.hpp: make, validate, solve and write each test in the layout, incrementally.
//   Private.
// - package_checks.hpp, package_validators.hpp, invalid_inputs.hpp: the package's own validators
//   on every test and on inputs that must be rejected. Private. data_bounds.hpp: the bounds its
//   data reaches per group. Public.
// - validate_job.hpp, validator_job.hpp: the engines of validate and validator. Public.
// - package_pages.hpp: the --html pages of build and validate. Public.
//
// How build flows. build_job reads the plan (io/files/package_plan.hpp), sets up the limits, the
// sandbox and the compiled store for the plan's programs (programs/), turns the entries into
// makers (test_makers.hpp), opens the cache (answers/); package_build makes each test, checks it
// against its group's limits (io/format/), solves it through the flow graph (answers/solve_run.hpp)
// and writes it in the layout; package_checks runs the package's validators; build_job writes the
// report and the page (package_pages.hpp, report/) and returns the Outcome.
//
// What it must never depend on: solve/, judge/, tools/. It uses answers/, programs/, report/,
// pipeline/'s top, io/ and core/.
//
// The engine of `gamebatch build PACKAGE`: from the command line's settings to a built package
// and its report. It reads the plan (io/files/package_plan.hpp), turns its entries into test
// makers (test_makers.hpp, with the sandbox and the compiled-program store their programs need),
// opens the answer cache, builds the package (package_build.hpp) and assembles the JSON report
// and the HTML page of what was built.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "io/files/problem_package.hpp"
#include "pipeline/answers/cache_session.hpp"
#include "pipeline/engines.hpp"
#include "pipeline/machine.hpp"
#include "pipeline/package/package_build.hpp"
#include "pipeline/package/package_checks.hpp"
#include "pipeline/package/test_makers.hpp"
#include "pipeline/programs/run_setup.hpp"

namespace gamebatch::pipeline {

struct BuildJobSettings {
  std::string package;               // the package directory (holding gamebatch.toml)
  std::optional<io::Layout> layout;  // unset: the plan's
  JudgeSettings judge;               // --jobs, and the sandbox of generator programs
  std::string cache_file;            // empty: the default location
  bool no_cache = false;
  std::string report_file;  // empty: no JSON report
  std::string html_file;    // empty: no HTML page
};

class BuildJob {
 public:
  explicit BuildJob(BuildJobSettings settings);
  ~BuildJob();
  BuildJob(const BuildJob&) = delete;
  BuildJob& operator=(const BuildJob&) = delete;

  // Reads the plan and makes every entry's maker (compiling generator sources), on the threads of
  // --jobs: done when the build can run; otherwise a usage error, after saying why.
  Outcome prepare();
  // Builds the package: done when every test was made and written, failed when a test broke a
  // limit or could not be made, or the build was interrupted or could not write (said).
  Outcome run();
  // Whether build_package ran to its end (it did not throw): only then is there a result to tell.
  bool built() const { return built_; }
  const BuildResult& result() const { return result_; }
  // What the package's own validators made of the built tests, and the bounds its data reaches
  // (package_checks.hpp); unset until a whole build ran.
  const std::optional<PackageCheckResult>& package_checks() const { return checks_; }
  // The report of what was built (schema gamebatch-build/1), as --report writes it.
  nlohmann::ordered_json report() const;
  // Writes the --report and --html files; failed when one cannot be written.
  Outcome write_outputs() const;
  // The line build ends with (build_summary_line), its time the whole command's so far.
  std::string summary_line() const;

 private:
  Outcome read_problem_yaml();
  Outcome make_entry_makers();
  Outcome check_built_package();

  CommandClock clock_;  // from the job's making: the summary line's time
  BuildJobSettings settings_;
  std::filesystem::path root_;
  std::optional<WorkResources> resources_;
  BuildOptions options_;
  std::unique_ptr<io::SandboxPool> sandbox_;
  std::optional<GeneratorPrograms> programs_;
  std::unique_ptr<CacheSession> cache_;
  BuildResult result_;
  bool built_ = false;
  std::optional<PackageCheckResult> checks_;
};

}  // namespace gamebatch::pipeline
