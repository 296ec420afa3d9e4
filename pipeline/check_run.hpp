// `gamebatch check`: every solution on every input file, in parallel, judged against the exact
// answers (from the answer cache, or solved by the flow graph of pipeline/solve_run.hpp).
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/input_set.hpp"
#include "io/problem.hpp"
#include "pipeline/cache_session.hpp"
#include "pipeline/judge.hpp"

namespace gamebatch::pipeline {

struct CheckOptions {
  const io::Problem* problem = nullptr;
  io::InputList inputs;
  std::vector<std::string> solutions;  // shell commands, each run by /bin/sh -c, input on stdin
  JudgeLimits limits;
  // Expected answers found here are not solved again; new ones are added. nullptr: no cache.
  CacheSession* cache = nullptr;
  // Solutions run at once (and threads solving the expected answers); at least 1.
  std::size_t jobs = 1;
  // Where the solutions run (io/sandbox.hpp); nullptr: as the user, uncontained (--no-sandbox).
  io::SandboxPool* sandbox = nullptr;
};

// One solution's verdicts, one per input file, in input order; nullopt for an input that was
// rejected (it has no expected answers, so nothing was run on it).
struct SolutionVerdicts {
  std::string command;
  std::vector<std::optional<RunVerdict>> files;
};

// An input file that is no valid input of the game (or could not be read).
struct RejectedInput {
  std::size_t file_index = 0;
  std::size_t line = 0;  // 0 when the error is not about one line
  std::string message;
};

struct CheckResult {
  std::vector<SolutionVerdicts> solutions;  // in the order given
  std::vector<RejectedInput> rejected;      // also reported through spdlog, as solve does
  std::size_t reruns_alone = 0;             // runs judged again alone (see needs_rerun_alone)
  // A stop was requested (core/stop_request.hpp): the runs in progress were ended unjudged and no
  // other was started; runs_not_judged counts the (solution, file) pairs left without a verdict.
  bool interrupted = false;
  std::size_t runs_not_judged = 0;
  double seconds = 0;
};

// Solves the expected answers, runs every solution on every accepted input (`jobs` at a time),
// then reruns alone, one at a time, each run whose TLE may come from sharing the machine.
// Verdicts do not depend on `jobs` except through timing.
CheckResult run_check(const CheckOptions& options);

// The line check ends with: "check: S solutions, F files (R rejected), A runs again alone, time: T
// s", with ", N runs not judged" and " (interrupted)" when a stop ended it.
std::string check_summary_line(const CheckResult& result, std::size_t files);

// True when every solution is AC on every file, no input was rejected and no run left unjudged.
bool all_accepted(const CheckResult& result);

// The verdict table for stdout: one row per solution with its count of each verdict and its
// slowest file, then up to `details_per_solution` lines per solution naming its failed files.
std::string verdict_table(const CheckResult& result, const io::InputList& inputs,
                          std::size_t details_per_solution);

// Writes the --report file (schema gamebatch-check/1, documented in check_run.cpp) whole: a
// temporary file renamed into place. Throws std::system_error when it cannot.
// `header` holds the members before "solutions" (version, options).
void write_check_report(const std::filesystem::path& path, const nlohmann::json& header,
                        const CheckResult& result, const io::InputList& inputs);

}  // namespace gamebatch::pipeline
