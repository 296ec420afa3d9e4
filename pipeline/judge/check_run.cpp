// The check run:
//   1. expected answers: the solve flow graph over every input, answers kept in memory (cache
//      hits are not solved again);
//   2. the (solution, file) runs, in rounds: a parallel pass, `jobs` processes at a time
//      (run_at_once), over the runs still needed, then the TLEs of shared runs that decide
//      something confirmed by a rerun alone, one at a time; until every needed run has a verdict.
// Early decisions (Kattis' on_reject: break): a failure of a solution on a test of a min or
// pass-fail group decides the group; a run is skipped when every group holding its file is
// decided at an earlier file (an input in no group is always run; sum groups decide nothing; a
// package without groups is one pass-fail group here). A run made before the decision was known
// loses its verdict, so that the verdicts do not depend on timing. --all-runs skips nothing.
//
// The --report file, schema "gamebatch-check/1":
//   {"schema": "gamebatch-check/1", ...header (gamebatch_version, problem, limits, sandbox, and for
//    a problem package "package": {"path", "layout", "recognised_by"}, and "time": {"seconds":
//    the whole command until the report, "compiling_seconds": of it, compiling the solutions})...,
//    "solutions": [{"name": NAME (the command as given, or a package's "accepted/sol.cpp"),
//                   "command": the shell command run ("" when it did not compile),
//                   "expected": "accepted" | "wrong_answer" | "time_limit_exceeded" |
//                               "run_time_error" | "stated" (its rules say) (a --solution:
//                               "accepted"),
//                   "meets": bool (its directory's expectation and every rule),
//                   "why_not": one line, "" when it meets it (an unmet rule: "SOURCE: GROUP:
//                              permitted AC, got WA on 2 files"),
//                   "too_weak": bool (expected to fail, AC on every file),
//                   "compile_error": the compiler's first lines, or null,
//                   "score": the points of its groups but "sample", "max_score": their most
//                            (both null when the package has no groups),
//                   "groups": [{"name", "path", "verdict": its first failing judged test's, "AC",
//                               or "-" (none judged), "score", "max_score",
//                               "expected": the rules that apply, as text ("" none),
//                               "meets": bool}, ...] (one per top-level group),
//                   "counts": {"AC": n, "WA": n, "TLE": n, "MLE": n, "RE": n},
//                   "skipped": n, "skipped_paths": [input files whose run an early decision
//                                                    skipped, not in "verdicts"],
//                   "verdicts": [{"path": input file, "verdict": "AC" | "WA" | "TLE" | "MLE" |
//                                 "RE", "seconds": CPU time, "peak_mb": peak resident MiB,
//                                 "case": first wrong case (1-based) or null,
//                                 "expected": text or null, "got": text or null,
//                                 "detail": why, "" for AC, "rerun_alone": bool}, ...]}, ...],
//    "rejected_inputs": [{"path", "line": L or null, "message"}, ...],
//    "interrupted": bool, "runs_not_judged": n,
//    "time_limit": {"seconds": the limit runs were judged by, "source": "--time-limit" |
//                   "problem.yaml limits.time_limit" | "slowest accepted run 0.412 s x 5, ..."},
//    "groups": [{"name", "path", "max_score", "aggregation": "min" | "pass-fail" | "sum",
//                "tests": [input files]}, ...] ([] when the package has none),
//    "all_runs": bool (--all-runs: no run skipped),
//    "all_met": bool (every solution meets its expectation: check's exit status 0)}
// Expectations are Kattis' (pipeline/judge/expectation.hpp); "expected" here, per solution, is not
// the per-verdict "expected" text of a WA. "interrupted": a stop (Ctrl-C, SIGTERM) ended the check
// early; the runs without a verdict (never started, or ended by the stop) are not listed and are
// counted by "runs_not_judged". The header's "sandbox" (programs/run_setup.hpp's sandbox_json) says
// which guards were in force: {"enabled": true, "namespaces": [...], "identity", "network",
// "file_system", "sandbox_binds": [...], "disk_limit_mb", "disk_files", "max_processes", "memory":
// "cgroup v1" | "cgroup v2" | the resident-memory watch and why no cgroup, "sysv_ipc",
// "leftovers"}, or
// {"enabled": false, "guards": text} with --no-sandbox.
// Verdicts are listed in input order; rejected inputs have none. "expected" and "got" are set for
// WA only: the case's expected tokens and the tokens received in their place ("(end of output)"
// when none came), or, for output after the last case, "(end of output)" and that output.
#include "pipeline/judge/check_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>

#include <spdlog/spdlog.h>

#include "io/files/atomic_file.hpp"
#include "pipeline/answers/solve_run.hpp"
#include "pipeline/judge/expectation.hpp"
#include "pipeline/report/terminal_text.hpp"

namespace gamebatch::pipeline {
namespace {

constexpr Verdict kAllVerdicts[] = {Verdict::accepted, Verdict::wrong_answer, Verdict::time_limit,
                                    Verdict::memory_limit, Verdict::runtime_error};

// Pass 1: each accepted file's expected answers; nullopt for a rejected one.
std::vector<std::optional<std::vector<std::string>>> expected_answers(const CheckOptions& options,
                                                                      CheckResult& result) {
  std::vector<std::optional<std::vector<std::string>>> expected(options.inputs.size());
  SolveOptions solve;
  solve.problem = options.problem;
  solve.inputs = options.inputs;
  solve.cache = options.cache;
  solve.answers_to = [&expected](std::size_t index, const std::vector<std::string>& answers) {
    expected[index] = answers;
  };
  std::size_t next_index = 0;  // on_file_done comes in input order, for every file
  solve.on_file_done = [&](const FileReport& file) {
    const std::size_t index = next_index++;
    if (file.status == FileStatus::rejected)
      result.rejected.push_back({index, file.error_line, std::string(file.error)});
  };
  const RunSummary summary = run_solve(solve);
  spdlog::info("expected answers of {} files: {} cases, {} solved, {} from the cache",
               summary.files - summary.rejected, summary.cases, summary.solved, summary.cached);
  return expected;
}

}  // namespace

namespace {

constexpr std::size_t kNoFile = static_cast<std::size_t>(-1);

// The groups early decisions go by: the package's, or (it has none) every input as one pass-fail
// group.
struct GroupPlan {
  std::vector<std::vector<std::size_t>> files;    // per group: its inputs' indices, in input order
  std::vector<char> decides;                      // min or pass-fail: a failure decides it
  std::vector<std::vector<std::size_t>> of_file;  // per input: the groups holding it
};

GroupPlan plan_groups(const CheckOptions& options) {
  GroupPlan plan;
  const std::size_t files = options.inputs.size();
  plan.of_file.resize(files);
  if (options.groups.empty()) {
    plan.files.emplace_back();
    for (std::size_t file = 0; file < files; ++file)
      plan.files[0].push_back(file);
    plan.decides.push_back(1);
  } else {
    // Inputs by their absolute lexically normal path and by their canonical one (a package found
    // through a symbolic link names its tests by either).
    std::map<std::filesystem::path, std::size_t> by_path;
    for (std::size_t file = 0; file < files; ++file) {
      const std::filesystem::path& input = options.inputs[file].input;
      by_path.emplace(std::filesystem::absolute(input).lexically_normal(), file);
      std::error_code error;
      const std::filesystem::path canonical = std::filesystem::weakly_canonical(input, error);
      if (!error)
        by_path.emplace(canonical, file);
    }
    for (const io::TestGroup& group : options.groups) {
      std::vector<std::size_t> indices;
      std::size_t missing = 0;
      for (const std::filesystem::path& test : group.tests) {
        auto found = by_path.find(test.lexically_normal());
        if (found == by_path.end()) {
          std::error_code error;
          const std::filesystem::path canonical = std::filesystem::weakly_canonical(test, error);
          if (!error)
            found = by_path.find(canonical);
        }
        if (found == by_path.end())
          ++missing;
        else
          indices.push_back(found->second);
      }
      if (missing != 0)
        spdlog::warn("group {}: {} of its tests are no input of the check; left out", group.name,
                     missing);
      std::sort(indices.begin(), indices.end());
      indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
      plan.files.push_back(std::move(indices));
      plan.decides.push_back(group.aggregation == io::ScoreAggregation::sum ? 0 : 1);
    }
  }
  for (std::size_t group = 0; group < plan.files.size(); ++group) {
    for (const std::size_t file : plan.files[group])
      plan.of_file[file].push_back(group);
  }
  return plan;
}

// Per solution and group: the input at which a failure decided the group (kNoFile: undecided).
using Decisions = std::vector<std::vector<std::size_t>>;

// The early decisions the verdicts so far make: each deciding group's first failure.
Decisions decisions_of(const CheckOptions& options, const GroupPlan& plan,
                       const CheckResult& result) {
  Decisions decided(options.solutions.size(), std::vector<std::size_t>(plan.files.size(), kNoFile));
  if (options.all_runs)
    return decided;
  for (std::size_t solution = 0; solution < options.solutions.size(); ++solution) {
    const auto& files = result.solutions[solution].files;
    for (std::size_t group = 0; group < plan.files.size(); ++group) {
      if (!plan.decides[group])
        continue;
      for (const std::size_t file : plan.files[group]) {
        if (files[file] && files[file]->verdict != Verdict::accepted) {
          decided[solution][group] = file;
          break;
        }
      }
    }
  }
  return decided;
}

// Whether the run of `solution` on `file` counts: not every group holding the file is decided at
// an earlier file. An input in no group always counts.
bool needed(const GroupPlan& plan, const Decisions& decided, std::size_t solution,
            std::size_t file) {
  const std::vector<std::size_t>& groups = plan.of_file[file];
  if (groups.empty())
    return true;
  return std::any_of(groups.begin(), groups.end(), [&](std::size_t group) {
    const std::size_t at = decided[solution][group];
    return at == kNoFile || at >= file;
  });
}

// What run_solutions' rounds look at to choose their runs.
struct Rounds {
  const CheckOptions& options;
  const GroupPlan& plan;
  const std::vector<std::size_t>& which;
  const std::vector<std::optional<std::vector<std::string>>>& expected;
  const CheckResult& result;
};

// The runs a round makes, (solution, file): those still needed with no verdict yet. They go file
// by file, every solution on a file before the next file, so that a slow solution does not leave
// the others' files for the end.
std::vector<std::pair<std::size_t, std::size_t>> runs_of_round(const Rounds& rounds,
                                                               const Decisions& decided) {
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  for (std::size_t file = 0; file < rounds.options.inputs.size(); ++file) {
    if (!rounds.expected[file])
      continue;
    for (const std::size_t solution : rounds.which) {
      if (!rounds.options.solutions[solution].compile_error &&
          !rounds.result.solutions[solution].files[file] &&
          needed(rounds.plan, decided, solution, file))
        runs.emplace_back(solution, file);
    }
  }
  return runs;
}

// The earliest unconfirmed TLE that counts, once every run before it that counts has its verdict
// (else the next round runs those first); none when there is no such TLE.
std::optional<std::pair<std::size_t, std::size_t>> next_to_confirm(
    const Rounds& rounds, const Decisions& decided,
    const std::vector<std::vector<char>>& tentative) {
  std::optional<std::pair<std::size_t, std::size_t>> next;
  for (const std::size_t solution : rounds.which) {
    const auto& verdicts = rounds.result.solutions[solution].files;
    for (std::size_t file = 0; file < rounds.options.inputs.size(); ++file) {
      if (!rounds.expected[file] || rounds.options.solutions[solution].compile_error ||
          !needed(rounds.plan, decided, solution, file))
        continue;
      if (!verdicts[file])
        break;  // a needed run before it has no verdict yet
      if (tentative[solution][file]) {
        if (!next || file < next->second)
          next.emplace(solution, file);
        break;
      }
    }
  }
  return next;
}

// The runs of the solutions `which`, under `limits`, in rounds: a parallel pass over the runs
// still needed (skipping those the failures found meanwhile decide), then the TLEs of shared runs
// that decide something confirmed alone, one at a time; until every needed run has a final
// verdict. `tentative` marks, per solution and file, a TLE not confirmed yet.
void run_solutions(const CheckOptions& options, const GroupPlan& plan,
                   const std::vector<std::size_t>& which, const JudgeLimits& limits,
                   const std::vector<std::optional<std::vector<std::string>>>& expected,
                   CheckResult& result) {
  const std::size_t files = options.inputs.size();
  std::vector<std::vector<char>> tentative(options.solutions.size(), std::vector<char>(files, 0));
  auto judge_one = [&](std::size_t solution, std::size_t file) {
    return run_and_judge(*options.problem, options.solutions[solution].command,
                         io::StdinFile{options.inputs[file].input}, *expected[file], limits,
                         options.sandbox);
  };
  const Rounds rounds{options, plan, which, expected, result};
  for (std::size_t round = 1; !stop_requested(); ++round) {
    Decisions decided = decisions_of(options, plan, result);
    const std::vector<std::pair<std::size_t, std::size_t>> runs = runs_of_round(rounds, decided);
    // With no run left, the last confirmation pass left no TLE that counts unconfirmed: done.
    if (runs.empty())
      break;
    const bool shared = options.jobs > 1 && runs.size() > 1;
    std::mutex mutex;
    run_at_once(runs.size(), options.jobs, [&](std::size_t k) {
      const auto [solution, file] = runs[k];
      {
        const std::lock_guard lock(mutex);
        if (!needed(plan, decided, solution, file))
          return;  // a failure found meanwhile decides every group holding it
      }
      JudgedRun run = judge_one(solution, file);
      const bool failed = run.verdict.verdict != Verdict::accepted;
      const bool unsure = shared && needs_rerun_alone(run.verdict, run.result, limits);
      const std::lock_guard lock(mutex);
      result.solutions[solution].files[file] = std::move(run.verdict);
      tentative[solution][file] = unsure ? 1 : 0;
      if (failed && !options.all_runs) {
        for (const std::size_t group : plan.of_file[file]) {
          if (plan.decides[group])
            decided[solution][group] = std::min(decided[solution][group], file);
        }
      }
    });
    if (stop_requested())
      break;

    // Confirmation, one TLE at a time: its rerun's verdict stands.
    std::size_t confirmed = 0;
    for (;;) {
      decided = decisions_of(options, plan, result);
      const auto next = next_to_confirm(rounds, decided, tentative);
      if (!next)
        break;
      const auto [solution, file] = *next;
      if (confirmed++ == 0)
        spdlog::info("round {}: confirming alone the time limits of shared runs that decide",
                     round);
      tentative[solution][file] = 0;
      try {
        throw_if_stop_requested();
        JudgedRun run = judge_one(solution, file);
        run.verdict.rerun_alone = true;
        result.solutions[solution].files[file] = std::move(run.verdict);
        ++result.reruns_alone;
      } catch (const StopRequested&) {
        result.solutions[solution].files[file].reset();  // its first verdict was not final
        break;
      }
    }
  }
  // A stop leaves unconfirmed TLEs: their verdicts were not final.
  for (const std::size_t solution : which) {
    for (std::size_t file = 0; file < files; ++file) {
      if (tentative[solution][file])
        result.solutions[solution].files[file].reset();
    }
  }
}

// The derived time limit: the slowest AC run of the accepted solutions times `multiplier`, rounded
// up to whole seconds, at least 1 s; `ceiling` (the limit they ran under) when none was AC.
double derived_time_limit(const CheckResult& result, const std::vector<std::size_t>& accepted,
                          double multiplier, double ceiling, std::string& source) {
  double slowest = -1;
  for (const std::size_t solution : accepted) {
    for (const std::optional<RunVerdict>& verdict : result.solutions[solution].files) {
      if (verdict && verdict->verdict == Verdict::accepted)
        slowest = std::max(slowest, verdict->seconds);
    }
  }
  char text[160];
  if (slowest < 0) {
    std::snprintf(text, sizeof text,
                  "no accepted run to derive it from: the ceiling of %g s the accepted solutions "
                  "ran under",
                  ceiling);
    source = text;
    return ceiling;
  }
  const double limit = std::max(1.0, std::ceil(slowest * multiplier - 1e-9));
  std::snprintf(text, sizeof text, "slowest accepted run %.3f s x %g, rounded up to whole seconds",
                slowest, multiplier);
  source = text;
  return limit;
}

}  // namespace

namespace {

// A group's points from its tests' verdicts (a skipped or unjudged test is not AC).
double group_points(const io::TestGroup& group, std::size_t tests, std::size_t accepted) {
  if (tests == 0)
    return 0;
  if (group.aggregation == io::ScoreAggregation::sum)
    return group.max_score * static_cast<double>(accepted) / static_cast<double>(tests);
  return accepted == tests ? group.max_score : 0;
}

// Per group: its verdict, points and rules; then the solution's total and whether it meets its
// directory's expectation and every rule.
void judge_solution(const GroupPlan& plan, const CheckResult& result, std::size_t unjudged,
                    SolutionVerdicts& solution) {
  const ExpectationOutcome outcome =
      judge_expectation(solution.expected, solution.compile_error, solution.files, unjudged);
  solution.meets = outcome.meets;
  solution.why_not = outcome.why_not;
  solution.too_weak = outcome.too_weak;
  std::vector<GroupVerdicts> judged_groups;
  if (!result.groups.empty()) {
    solution.score = 0;
    solution.max_score = 0;
  }
  for (std::size_t g = 0; g < result.groups.size(); ++g) {
    const io::TestGroup& group = result.groups[g];
    GroupVerdicts judged{&group, {}, 0};
    std::size_t accepted = 0;
    GroupOutcome out;
    for (const std::size_t file : plan.files[g]) {
      const std::optional<RunVerdict>& verdict = solution.files[file];
      if (!verdict)
        continue;
      judged.judged.push_back(verdict->verdict);
      accepted += verdict->verdict == Verdict::accepted ? 1 : 0;
      if (!out.verdict || *out.verdict == Verdict::accepted)
        out.verdict = verdict->verdict;
    }
    out.score = group_points(group, plan.files[g].size(), accepted);
    out.max_score = group.max_score;
    judged.score = out.score;
    for (const io::ExpectationRule& rule : solution.rules) {
      if (!rule_applies_to(rule, group))
        continue;
      out.expected += (out.expected.empty() ? "" : " | ") + rule_text(rule);
      out.meets = out.meets && unmet_rule(rule, judged.judged, out.score).empty();
    }
    if (group.name != "sample") {
      *solution.score += out.score;
      *solution.max_score += out.max_score;
    }
    solution.groups.push_back(std::move(out));
    judged_groups.push_back(std::move(judged));
  }
  if (solution.compile_error)
    return;  // its why_not says so already
  std::vector<Verdict> all_judged;
  for (const std::optional<RunVerdict>& verdict : solution.files) {
    if (verdict)
      all_judged.push_back(verdict->verdict);
  }
  const std::vector<std::string> unmet =
      unmet_rules(solution.rules, all_judged, solution.score.value_or(0), judged_groups);
  for (const std::string& line : unmet)
    solution.why_not += (solution.why_not.empty() ? "" : "; ") + line;
  solution.meets = solution.meets && unmet.empty();
}

}  // namespace

CheckResult run_check(const CheckOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  CheckResult result;
  result.groups = options.groups;
  result.all_runs = options.all_runs;
  auto expected = expected_answers(options, result);
  const std::size_t files = options.inputs.size();
  const GroupPlan plan = plan_groups(options);
  for (const CheckSolution& solution : options.solutions) {
    SolutionVerdicts verdicts;
    verdicts.name = solution.name;
    verdicts.command = solution.command;
    verdicts.files.resize(files);
    verdicts.skipped.assign(files, 0);
    verdicts.compile_error = solution.compile_error;
    verdicts.expected = solution.expected;
    verdicts.rules = solution.rules;
    result.solutions.push_back(std::move(verdicts));
  }

  JudgeLimits limits = options.limits;
  result.time_limit_source = options.time_limit_rule.source;
  if (const std::optional<double> multiplier = options.time_limit_rule.derive_with_multiplier) {
    // The accepted solutions first, under the given limit as a ceiling; the others under the limit
    // their slowest AC run gives.
    std::vector<std::size_t> accepted, others;
    for (std::size_t solution = 0; solution < options.solutions.size(); ++solution) {
      (options.solutions[solution].expected == io::Expectation::accepted ? accepted : others)
          .push_back(solution);
    }
    run_solutions(options, plan, accepted, limits, expected, result);
    limits.time_limit_seconds = derived_time_limit(
        result, accepted, *multiplier, limits.time_limit_seconds, result.time_limit_source);
    spdlog::info("time limit {} s: {}", limits.time_limit_seconds, result.time_limit_source);
    if (!stop_requested())
      run_solutions(options, plan, others, limits, expected, result);
  } else {
    std::vector<std::size_t> all(options.solutions.size());
    for (std::size_t solution = 0; solution < all.size(); ++solution)
      all[solution] = solution;
    run_solutions(options, plan, all, limits, expected, result);
  }
  result.time_limit_seconds = limits.time_limit_seconds;
  result.interrupted = stop_requested();

  // The final decisions: a run they skip has no verdict, even one that ran before the failure
  // deciding it was known, so that the verdicts kept do not depend on timing.
  const Decisions decided = decisions_of(options, plan, result);
  for (std::size_t s = 0; s < result.solutions.size(); ++s) {
    SolutionVerdicts& solution = result.solutions[s];
    std::size_t unjudged = 0;
    if (!solution.compile_error) {
      for (std::size_t file = 0; file < files; ++file) {
        if (!expected[file])
          continue;
        if (!needed(plan, decided, s, file)) {
          solution.files[file].reset();
          solution.skipped[file] = 1;
          ++solution.skipped_runs;
        } else if (!solution.files[file]) {
          ++unjudged;
        }
      }
    }
    result.runs_not_judged += unjudged;
    judge_solution(plan, result, unjudged, solution);
  }
  result.expected = std::move(expected);
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

std::string check_summary_line(const CheckResult& result, std::size_t files,
                               const std::string& time) {
  char line[256];
  std::snprintf(line, sizeof line,
                "check: %zu solutions, %zu files (%zu rejected), %zu runs again alone, ",
                result.solutions.size(), files, result.rejected.size(), result.reruns_alone);
  std::string text = line;
  if (result.interrupted)
    text += std::to_string(result.runs_not_judged) + " runs not judged, ";
  text += time;
  if (result.interrupted)
    text += " (interrupted)";
  return text;
}

bool all_expectations_met(const CheckResult& result) {
  if (!result.rejected.empty() || result.runs_not_judged != 0)
    return false;
  return std::all_of(result.solutions.begin(), result.solutions.end(),
                     [](const SolutionVerdicts& solution) { return solution.meets; });
}

namespace {

std::string format(const char* pattern, auto... values) {
  char text[512];
  std::snprintf(text, sizeof text, pattern, values...);
  return text;
}

}  // namespace

std::string_view expected_short_name(io::Expectation expected) {
  switch (expected) {
    case io::Expectation::accepted:
      return "AC";
    case io::Expectation::wrong_answer:
      return "WA";
    case io::Expectation::time_limit_exceeded:
      return "TLE";
    case io::Expectation::run_time_error:
      return "RE";
    case io::Expectation::stated:
      return "rules";
  }
  return "?";
}

namespace {

// The compiler's message (its first lines, io::BuiltSolution::compile_error), each line indented.
std::string indented(const std::string& text) {
  std::string out;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    out += "    " + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

}  // namespace

namespace {

// "AC 20", "WA 0", "-": a solution's verdict and points on a group.
std::string group_cell(const GroupOutcome& group) {
  if (!group.verdict)
    return "-";
  return std::string(short_name(*group.verdict)) + " " + score_text(group.score);
}

// The solutions x groups block of the table (nothing when the package has no groups).
std::string group_table(const CheckResult& result, int width) {
  if (result.groups.empty())
    return "";
  std::vector<int> widths;
  std::string table = format("\n%-*s", width, "solution");
  for (std::size_t g = 0; g < result.groups.size(); ++g) {
    std::size_t cell = std::max<std::size_t>(result.groups[g].name.size(), 6);
    for (const SolutionVerdicts& solution : result.solutions)
      cell = std::max(cell, group_cell(solution.groups[g]).size());
    widths.push_back(static_cast<int>(cell));
    table += format(" %*s", widths.back(), result.groups[g].name.c_str());
  }
  table += format(" %10s %8s %4s\n", "total", "expected", "met");
  for (const SolutionVerdicts& solution : result.solutions) {
    std::string name = solution.name;
    if (name.size() > static_cast<std::size_t>(width))
      name = name.substr(0, static_cast<std::size_t>(width) - 3) + "...";
    table += format("%-*s", width, name.c_str());
    for (std::size_t g = 0; g < result.groups.size(); ++g)
      table += format(" %*s", widths[g], group_cell(solution.groups[g]).c_str());
    const std::string total =
        score_text(solution.score.value_or(0)) + "/" + score_text(solution.max_score.value_or(0));
    table += format(" %10s %8s %4s\n", total.c_str(),
                    std::string(expected_short_name(solution.expected)).c_str(),
                    solution.meets ? "yes" : "NO");
  }
  return table;
}

}  // namespace

std::string verdict_table(const CheckResult& result, const io::InputList& inputs,
                          std::size_t details_per_solution) {
  std::size_t name_width = 8;
  for (const SolutionVerdicts& solution : result.solutions)
    name_width = std::max(name_width, std::min<std::size_t>(solution.name.size(), 40));
  const int width = static_cast<int>(name_width);
  std::string table =
      format("%-*s %8s %4s %6s %6s %6s %6s %6s %6s  %s\n", width, "solution", "expected", "met",
             "AC", "WA", "TLE", "MLE", "RE", "skip", "slowest file");
  std::string details;
  std::string missed;
  for (const SolutionVerdicts& solution : result.solutions) {
    std::map<Verdict, std::size_t> counts;
    std::optional<std::size_t> slowest;
    std::size_t failures = 0;
    for (std::size_t file = 0; file < solution.files.size(); ++file) {
      const std::optional<RunVerdict>& verdict = solution.files[file];
      if (!verdict)
        continue;
      ++counts[verdict->verdict];
      if (!slowest || verdict->seconds > solution.files[*slowest]->seconds)
        slowest = file;
      if (verdict->verdict == Verdict::accepted)
        continue;
      if (failures++ < details_per_solution) {
        details +=
            solution.name + ": " + inputs[file].input.string() + ": " + describe(*verdict) + "\n";
      }
    }
    if (failures > details_per_solution) {
      details += solution.name + ": ... and " + std::to_string(failures - details_per_solution) +
                 " more (--report lists every run)\n";
    }
    if (solution.compile_error) {
      details += solution.name + ": CE (compile error):\n" + indented(*solution.compile_error);
    }
    // A failure of a solution expected to be AC is in its rows above already (not so a rule's).
    if (!solution.meets &&
        (solution.expected != io::Expectation::accepted || !solution.rules.empty())) {
      missed += solution.name + ": does not get what it must: " + solution.why_not +
                (solution.too_weak ? ": the tests are too weak to catch it" : "") + "\n";
    }
    std::string name = solution.name;
    if (name.size() > name_width)
      name = name.substr(0, name_width - 3) + "...";
    table += format(
        "%-*s %8s %4s %6zu %6zu %6zu %6zu %6zu %6zu  ", width, name.c_str(),
        std::string(expected_short_name(solution.expected)).c_str(), solution.meets ? "yes" : "NO",
        counts[Verdict::accepted], counts[Verdict::wrong_answer], counts[Verdict::time_limit],
        counts[Verdict::memory_limit], counts[Verdict::runtime_error], solution.skipped_runs);
    table += solution.compile_error ? std::string("CE: not compiled")
             : slowest              ? inputs[*slowest].input.string() +
                             format(" %.2f s", solution.files[*slowest]->seconds)
                       : std::string("-");
    table += '\n';
  }
  // Program output (a WA's received tokens, a compiler's messages) is shown, not acted on.
  return terminal_safe(table + group_table(result, width) + details + missed);
}

void write_check_report(const std::filesystem::path& path, const nlohmann::json& header,
                        const CheckResult& result, const io::InputList& inputs) {
  // In the documented order: schema first, then the header, solutions, rejected inputs.
  nlohmann::ordered_json report = {{"schema", "gamebatch-check/1"}};
  for (const auto& [key, value] : header.items())
    report[key] = value;
  nlohmann::ordered_json solutions = nlohmann::ordered_json::array();
  auto or_null = [](const auto& value) {
    return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
  };
  for (const SolutionVerdicts& solution : result.solutions) {
    nlohmann::ordered_json counts = nlohmann::ordered_json::object();
    for (const Verdict verdict : kAllVerdicts)
      counts[std::string(short_name(verdict))] = 0;
    nlohmann::ordered_json verdicts = nlohmann::ordered_json::array();
    nlohmann::ordered_json skipped_paths = nlohmann::ordered_json::array();
    for (std::size_t file = 0; file < solution.files.size(); ++file) {
      if (file < solution.skipped.size() && solution.skipped[file])
        skipped_paths.push_back(inputs[file].input.string());
      const std::optional<RunVerdict>& verdict = solution.files[file];
      if (!verdict)
        continue;
      counts[std::string(short_name(verdict->verdict))] =
          counts[std::string(short_name(verdict->verdict))].get<std::size_t>() + 1;
      verdicts.push_back({
          {"path", inputs[file].input.string()},
          {"verdict", short_name(verdict->verdict)},
          {"seconds", verdict->seconds},
          {"peak_mb", verdict->peak_mb},
          {"case", or_null(verdict->case_number)},
          {"expected", or_null(verdict->expected)},
          {"got", or_null(verdict->got)},
          {"detail", verdict->detail},
          {"rerun_alone", verdict->rerun_alone},
      });
    }
    nlohmann::ordered_json groups = nlohmann::ordered_json::array();
    for (std::size_t g = 0; g < solution.groups.size(); ++g) {
      const GroupOutcome& group = solution.groups[g];
      groups.push_back({{"name", result.groups[g].name},
                        {"path", result.groups[g].path},
                        {"verdict", group.verdict ? std::string(short_name(*group.verdict)) : "-"},
                        {"score", group.score},
                        {"max_score", group.max_score},
                        {"expected", group.expected},
                        {"meets", group.meets}});
    }
    solutions.push_back({{"name", solution.name},
                         {"command", solution.command},
                         {"expected", io::expectation_name(solution.expected)},
                         {"meets", solution.meets},
                         {"why_not", solution.why_not},
                         {"too_weak", solution.too_weak},
                         {"compile_error", or_null(solution.compile_error)},
                         {"score", or_null(solution.score)},
                         {"max_score", or_null(solution.max_score)},
                         {"groups", std::move(groups)},
                         {"counts", counts},
                         {"skipped", solution.skipped_runs},
                         {"skipped_paths", std::move(skipped_paths)},
                         {"verdicts", std::move(verdicts)}});
  }
  report["solutions"] = std::move(solutions);
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  for (const io::TestGroup& group : result.groups) {
    nlohmann::ordered_json tests = nlohmann::ordered_json::array();
    for (const std::filesystem::path& test : group.tests)
      tests.push_back(test.string());
    groups.push_back({{"name", group.name},
                      {"path", group.path},
                      {"max_score", group.max_score},
                      {"aggregation", io::aggregation_name(group.aggregation)},
                      {"tests", std::move(tests)}});
  }
  report["groups"] = std::move(groups);
  report["all_runs"] = result.all_runs;
  nlohmann::ordered_json rejected = nlohmann::ordered_json::array();
  for (const RejectedInput& input : result.rejected) {
    rejected.push_back({{"path", inputs[input.file_index].input.string()},
                        {"line", input.line == 0 ? nlohmann::ordered_json(nullptr)
                                                 : nlohmann::ordered_json(input.line)},
                        {"message", input.message}});
  }
  report["rejected_inputs"] = std::move(rejected);
  report["interrupted"] = result.interrupted;
  report["runs_not_judged"] = result.runs_not_judged;
  report["time_limit"] = {{"seconds", result.time_limit_seconds},
                          {"source", result.time_limit_source}};
  report["all_met"] = all_expectations_met(result);
  io::write_file_atomically(path, report.dump(2) + "\n");
}

}  // namespace gamebatch::pipeline
