// pipeline/judge/: the room of judging other people's programs. Its theory of operation.
//
// What it is for. `gamebatch check` (every solution on every input, judged against the exact
// answers, decided per group, checked against what the package expects of each) and `gamebatch
// stress` (random cases until a solution fails, then the failing case shrunk).
//
// Its parts.
// - check_job.hpp: the engine of check: package, inputs, solutions, limits, sandbox, cache, then
//   the check and its report and page. Public.
// - check_run.hpp: the check itself: every run, its verdict, early decisions per group. Public.
// - judge.hpp (this file): one run's verdict (AC, WA, TLE, MLE, RE) and how it is judged. Public.
// - expectation.hpp: whether a solution's verdicts are what its package says. Public.
// - solutions.hpp: the solutions judged, their sources compiled once. Private.
// - stress_job.hpp: the engine of stress. Public. stress_run.hpp: the search and the shrinking
//   (also of an in-process wrong idea, for strength). Public.
// - judge_pages.hpp: the --html pages of check and stress. Public.
//
// How check flows. check_job reads the settings, finds the package and the inputs (io/files),
// sets up the limits, the sandbox and the compiled store (programs/), builds the solutions
// (solutions.hpp), opens the cache (answers/); check_run gets the expected answers from the flow
// graph (answers/solve_run.hpp, kept in memory), runs every solution on every input
// (programs/run_at_once, io/run) and judges each run here (judge.hpp), decides each group
// (expectation.hpp); check_job writes the report and the page (judge_pages.hpp, report/) and
// returns the Outcome.
//
// What it must never depend on: solve/, package/, tools/. It uses answers/, programs/, report/,
// pipeline/'s top, io/ and core/.
//
// Judging a solution's run on one input against the exact answers: the verdicts of `gamebatch
// check` and `gamebatch stress`, and how a run's timing is made honest when many run at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/stop_request.hpp"
#include "io/problem.hpp"
#include "io/run/limited_process.hpp"
#include "io/run/sandbox.hpp"
#include "pipeline/programs/run_setup.hpp"

namespace gamebatch::pipeline {

enum class Verdict { accepted, wrong_answer, time_limit, memory_limit, runtime_error };

// "AC", "WA", "TLE", "MLE", "RE".
std::string_view short_name(Verdict verdict);

// What one run of a solution on one input came to.
struct RunVerdict {
  Verdict verdict = Verdict::accepted;
  double seconds = 0;  // CPU time of the run judged
  double peak_mb = 0;  // its peak resident memory, in MiB
  // WA: the first wrong case (1-based) and its expected and received text (each at most
  // kShownCharacters). nullopt where they do not apply (output past the last case: no case).
  std::optional<std::size_t> case_number;
  std::optional<std::string> expected;
  std::optional<std::string> got;
  std::string detail;        // one line: why (exit status, signal, the limit), empty for AC
  bool rerun_alone = false;  // the verdict is that of a rerun with nothing else running
};

inline constexpr std::size_t kShownCharacters = 200;

// Compares `output` with the expected answers (Case::solve's texts) of a file, case by case, token
// by token (any whitespace between tokens): the first case whose tokens differ, or output left
// over after the last case, makes a WA; else AC. Only the fields of WA and AC are set.
RunVerdict compare_answers(const io::Problem& problem, const std::vector<std::string>& expected,
                           std::string_view output);

// One line for messages: "AC", "WA on case 2: expected 'Case #2: 5', got 'Case #2: 4'",
// "RE: killed by signal 11 (SIGSEGV)", "TLE: CPU time 1.51 s over the limit of 1.00 s (rerun
// alone)".
std::string describe(const RunVerdict& verdict);

// The verdict of a finished run, in this order: MLE (the peak passed the memory limit, however the
// run ended), TLE (a time limit stopped it, or its CPU time passed the time limit), RE (a signal,
// a non-zero exit status, or the sandbox's bound on processes or on its scratch), WA (output
// beyond its cap, or wrong), AC.
RunVerdict judge_run(const io::Problem& problem, const std::vector<std::string>& expected,
                     const io::ProcessResult& result, const JudgeLimits& limits);

// Whether a TLE of a run made while others ran may be an effect of sharing the machine: any TLE
// by CPU time (how much sharing costs is not known in advance), or the wall clock cut it after it
// had used half its time limit of CPU (one cut with less was waiting, not computing). Such a run
// is rerun alone before TLE is reported.
bool needs_rerun_alone(const RunVerdict& verdict, const io::ProcessResult& result,
                       const JudgeLimits& limits);

struct JudgedRun {
  RunVerdict verdict;
  io::ProcessResult result;
};

// Runs `command` on one input (a file, or text for stress) and judges it, in one of `sandbox`'s
// boxes unless it is null (--no-sandbox). Thread-safe. Throws StopRequested when a stop request
// (core/stop_request.hpp) ended the run: it has no verdict.
JudgedRun run_and_judge(const io::Problem& problem, const std::string& command,
                        const io::ProcessInput& input, const std::vector<std::string>& expected,
                        const JudgeLimits& limits, io::SandboxPool* sandbox);

}  // namespace gamebatch::pipeline
