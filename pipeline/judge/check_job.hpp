// The engine of `gamebatch check`: from the command line's settings to the judged runs and their
// reports. It finds the problem package and the inputs among the paths, the solutions (given, or
// the package's submissions) and their limits (given, the package's own, or derived from the
// accepted submissions), makes the sandbox, compiles the sources once (solutions.hpp), opens
// the answer cache, runs the check (check_run.hpp) and writes the JSON report and the HTML page.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/files/problem_package.hpp"
#include "pipeline/answers/cache_session.hpp"
#include "pipeline/engines.hpp"
#include "pipeline/judge/check_run.hpp"
#include "pipeline/judge/solutions.hpp"
#include "pipeline/machine.hpp"
#include "pipeline/programs/run_setup.hpp"

namespace gamebatch::pipeline {

struct CheckJobSettings {
  std::string problem;                 // the game's name
  std::vector<std::string> solutions;  // sources or commands; empty: a package's submissions
  JudgeSettings judge;
  std::string cache_file;  // empty: the default location
  bool no_cache = false;
  std::string report_file;       // empty: no JSON report
  std::string html_file;         // empty: no HTML page
  bool all_runs = false;         // no early decision skips a run
  bool keep_cache_open = false;  // run() leaves the cache open (test strength solves more)
  std::optional<io::Layout> layout;
  std::vector<std::string> paths;  // input files and directories, or one problem package
};

class CheckJob {
 public:
  explicit CheckJob(CheckJobSettings settings);
  ~CheckJob();
  CheckJob(const CheckJob&) = delete;
  CheckJob& operator=(const CheckJob&) = delete;

  // Everything before the first run: on the threads of --jobs and the default memory budget
  // (the expected answers are solved here). Outcome::done when the check can run; otherwise what
  // it stops with, after saying why (failed: interrupted while compiling).
  Outcome prepare();
  // Runs and judges every solution on every input; then closes the cache.
  void run();
  // The table of verdicts, one row per solution and the first failed runs of each (stdout).
  std::string verdict_table() const;
  // Writes the --report and --html files. done when every solution got what it must and every
  // file was written.
  Outcome write_outputs();
  // "check: N files, M solutions: ..." (stderr).
  std::string summary_line() const;

  // What test strength (pipeline/strength) builds on after run(): the check's options (problem,
  // inputs, solutions, limits, groups, sandbox, threads) and result, the package, the languages,
  // the compiled-program store (null when no source was compiled), the report's header, and the
  // cache, open when settings.keep_cache_open (closed by the destructor then).
  const CheckOptions& options() const { return options_; }
  const CheckResult& result() const { return result_; }
  const io::ProblemPackage* package() const { return package_ ? &*package_ : nullptr; }
  const io::LanguageTable& languages() const { return languages_; }
  const CompiledStore* store() const { return store_ ? &*store_ : nullptr; }
  CacheSession* cache() const { return cache_.get(); }
  nlohmann::json header() const { return report_header(); }

 private:
  Outcome find_package_and_inputs();
  bool find_solutions();
  void choose_limits();
  Outcome compile_solutions();
  nlohmann::json report_header() const;

  CommandClock clock_;  // from the job's making: the summary line's time
  CheckJobSettings settings_;
  std::optional<WorkResources> resources_;
  CheckOptions options_;
  std::optional<io::ProblemPackage> package_;
  io::LanguageTable languages_;
  std::vector<SolutionToBuild> solutions_;
  std::string memory_limit_source_ = "--memory-limit";
  std::unique_ptr<io::SandboxPool> sandbox_;
  std::optional<CompiledStore> store_;
  nlohmann::json compile_report_;
  std::unique_ptr<CacheSession> cache_;
  CheckResult result_;
};

}  // namespace gamebatch::pipeline
