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

namespace gamebatch::pipeline {

enum class Verdict { accepted, wrong_answer, time_limit, memory_limit, runtime_error };

// "AC", "WA", "TLE", "MLE", "RE".
std::string_view short_name(Verdict verdict);

struct JudgeLimits {
  double time_limit_seconds = 10;        // CPU time (user + system) of the solution's process tree
  std::uint64_t memory_limit_bytes = 0;  // peak resident memory; 0: none
  std::uint64_t output_limit_bytes = std::uint64_t{64} << 20;
};

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

// A run is stopped at kStopFactor times its CPU time limit, so that one slowed by its neighbours
// can still finish (sharing caches, memory bandwidth and turbo costs runs some 5-20 %, and more
// on a loaded machine).
inline constexpr double kStopFactor = 1.5;

// The limits a run is started with: kStopFactor times the time limit of CPU, the wall clock cut
// at three times the time limit plus a second, memory and output as given.
io::ProcessLimits process_limits(const JudgeLimits& limits);

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

// Calls run(0) .. run(count - 1), at most `jobs` (at least 1) at a time, and returns when all
// are done. After a stop request no run is started, and a run that throws StopRequested is left
// as it is: the caller tells the calls made from those never made or abandoned. Plain threads, not
// oneTBB's: runs wait on the programs they start, they do not compute, and must not hold the
// threads that solve.
void run_at_once(std::size_t count, std::size_t jobs, const std::function<void(std::size_t)>& run);

}  // namespace gamebatch::pipeline
