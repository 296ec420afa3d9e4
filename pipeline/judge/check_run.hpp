// `gamebatch check`: every solution on every input file, in parallel, judged against the exact
// answers (from the answer cache, or solved by the flow graph of pipeline/answers/solve_run.hpp).
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/files/input_set.hpp"
#include "io/files/problem_package.hpp"
#include "io/problem.hpp"
#include "pipeline/answers/cache_session.hpp"
#include "pipeline/judge/judge.hpp"

namespace gamebatch::pipeline {

// One solution of a check: a shell command as the user gave it, or the command that runs a
// source compiled for the check (io/run/solution_build.hpp).
struct CheckSolution {
  std::string name;     // what tables and reports call it: the command, or "accepted/sol.cpp"
  std::string command;  // run by /bin/sh -c, input on stdin; empty when it did not compile
  // The compiler's first lines when it did not compile (verdict CE: nothing of it is run).
  std::optional<std::string> compile_error;
  // What it must get: a package's submission by its directory; a --solution: AC everywhere.
  io::Expectation expected = io::Expectation::accepted;
  // And what its package's submissions.yaml or @check- lines say (pipeline/judge/expectation.hpp).
  std::vector<io::ExpectationRule> rules;
};

// How the time limit of the check's runs was chosen.
struct TimeLimitRule {
  // Set: the limit is derived from the runs of the solutions expected to be accepted, which run
  // first under JudgeLimits::time_limit_seconds as a ceiling: their slowest run times this
  // multiplier, rounded up to whole seconds, at least one second (verifyproblem's default rule for
  // a Kattis package without a time limit). Unset: JudgeLimits::time_limit_seconds for all.
  std::optional<double> derive_with_multiplier;
  std::string source = "--time-limit";  // where the limit came from, for the report
};

struct CheckOptions {
  const io::Problem* problem = nullptr;
  io::InputList inputs;
  std::vector<CheckSolution> solutions;
  JudgeLimits limits;
  TimeLimitRule time_limit_rule;
  // Expected answers found here are not solved again; new ones are added. nullptr: no cache.
  CacheSession* cache = nullptr;
  // Solutions run at once (and threads solving the expected answers); at least 1.
  std::size_t jobs = 1;
  // Where the solutions run (io/run/sandbox.hpp); nullptr: as the user, uncontained (--no-sandbox).
  io::SandboxPool* sandbox = nullptr;
  // The package's test groups (their tests absolute and lexically normal); empty: none, and the
  // inputs are judged as one pass-fail set.
  std::vector<io::TestGroup> groups;
  // Run every solution on every input (--all-runs): no early decision skips a run.
  bool all_runs = false;
};

// What one solution got on one test group.
struct GroupOutcome {
  // The verdict of its first failing judged test in input order, AC when every judged test is AC;
  // nullopt ("-") when none was judged.
  std::optional<Verdict> verdict;
  double score = 0;  // its points (io::ScoreAggregation)
  double max_score = 0;
  std::string expected;  // the rules that apply to it, as text ("" when none)
  bool meets = true;     // those rules are met on it
};

// One solution's verdicts, one per input file, in input order; nullopt for an input that was
// rejected (it has no expected answers, so nothing was run on it).
struct SolutionVerdicts {
  std::string name;     // CheckSolution::name
  std::string command;  // CheckSolution::command
  std::vector<std::optional<RunVerdict>> files;
  std::optional<std::string> compile_error;
  io::Expectation expected = io::Expectation::accepted;
  // Whether the verdicts meet `expected` (pipeline/judge/expectation.hpp), and why not (one line).
  bool meets = false;
  std::string why_not;
  bool too_weak = false;  // not expected AC, yet AC on every file: the tests do not catch it
  std::vector<io::ExpectationRule> rules;  // CheckSolution::rules
  // One per CheckResult::groups; the total over the groups but "sample", and its maximum (nullopt
  // when the package has no groups).
  std::vector<GroupOutcome> groups;
  std::optional<double> score;
  std::optional<double> max_score;
  // Per file: its run was skipped by an early decision (a failure earlier in each of its groups).
  std::vector<char> skipped;
  std::size_t skipped_runs = 0;
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
  std::vector<io::TestGroup> groups;        // CheckOptions::groups
  bool all_runs = false;                    // CheckOptions::all_runs
  std::size_t reruns_alone = 0;             // runs judged again alone (see needs_rerun_alone)
  // A stop was requested (core/stop_request.hpp): the runs in progress were ended unjudged and no
  // other was started; runs_not_judged counts the (solution, file) pairs left without a verdict.
  bool interrupted = false;
  std::size_t runs_not_judged = 0;
  // The time limit the runs were judged by (derived ones: those after the accepted solutions'),
  // and where it came from: "--time-limit", "problem.yaml limits.time_limit", or "slowest accepted
  // run 0.41 s x 5, rounded up".
  double time_limit_seconds = 0;
  std::string time_limit_source;
  double seconds = 0;
  // Each input's expected answers (Case::solve's texts, in case order) as the runs were judged
  // against them; nullopt for a rejected input.
  std::vector<std::optional<std::vector<std::string>>> expected;
};

// Solves the expected answers, runs every solution on every accepted input (`jobs` at a time)
// but those an early decision skips (a failure earlier in each group holding the input; none with
// all_runs), and confirms alone each TLE of a shared run that decides something. Verdicts do not
// depend on `jobs` except through timing.
CheckResult run_check(const CheckOptions& options);

// The line check ends with: "check: S solutions, F files (R rejected), A runs again alone, " and
// `time` (programs/run_setup.hpp's time_text: the whole command's), with ", N runs not judged"
// before it and " (interrupted)" after it when a stop ended it.
std::string check_summary_line(const CheckResult& result, std::size_t files,
                               const std::string& time);

// True when every solution meets its expectation (a --solution: AC on every file), no input was
// rejected and no run was left unjudged.
bool all_expectations_met(const CheckResult& result);

// "AC", "WA", "TLE", "RE", "rules" (stated): what a solution must get, in the table's "expected"
// column.
std::string_view expected_short_name(io::Expectation expected);

// The verdict table for stdout: one row per solution with what it must get, its count of each
// verdict, its slowest file and whether it met its expectation, then up to `details_per_solution`
// lines per solution naming its failed files (a compile error: the compiler's first lines), and a
// line per solution expected to fail (WA, TLE, RE) that missed its expectation, saying why.
std::string verdict_table(const CheckResult& result, const io::InputList& inputs,
                          std::size_t details_per_solution);

// Writes the --report file (schema gamebatch-check/1, documented in check_run.cpp) whole: a
// temporary file renamed into place. Throws std::system_error when it cannot.
// `header` holds the members before "solutions" (version, options).
void write_check_report(const std::filesystem::path& path, const nlohmann::json& header,
                        const CheckResult& result, const io::InputList& inputs);

}  // namespace gamebatch::pipeline
