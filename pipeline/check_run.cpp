// The check run, in three passes (each parallel inside, one after another):
//   1. expected answers: the solve flow graph over every input, answers kept in memory (cache
//      hits are not solved again);
//   2. every (solution, file) run, `jobs` processes at a time (run_at_once);
//   3. the runs whose TLE may be an effect of sharing the machine, again, one at a time.
//
// The --report file, schema "gamebatch-check/1":
//   {"schema": "gamebatch-check/1", ...header (gamebatch_version, problem, limits, sandbox, and for
//    a problem package "package": {"path", "layout", "recognised_by"})...,
//    "solutions": [{"name": NAME (the command as given, or a package's "accepted/sol.cpp"),
//                   "command": the shell command run ("" when it did not compile),
//                   "expected": "accepted" | "wrong_answer" | "time_limit_exceeded" |
//                               "run_time_error" (a --solution: "accepted"),
//                   "meets": bool, "why_not": one line, "" when it meets it,
//                   "too_weak": bool (expected to fail, AC on every file),
//                   "compile_error": the compiler's first lines, or null,
//                   "counts": {"AC": n, "WA": n, "TLE": n, "MLE": n, "RE": n},
//                   "verdicts": [{"path": input file, "verdict": "AC" | "WA" | "TLE" | "MLE" |
//                                 "RE", "seconds": CPU time, "peak_mb": peak resident MiB,
//                                 "case": first wrong case (1-based) or null,
//                                 "expected": text or null, "got": text or null,
//                                 "detail": why, "" for AC, "rerun_alone": bool}, ...]}, ...],
//    "rejected_inputs": [{"path", "line": L or null, "message"}, ...],
//    "interrupted": bool, "runs_not_judged": n,
//    "time_limit": {"seconds": the limit runs were judged by, "source": "--time-limit" |
//                   "problem.yaml limits.time_limit" | "slowest accepted run 0.412 s x 5, ..."},
//    "all_met": bool (every solution meets its expectation: check's exit status 0)}
// Expectations are Kattis' (pipeline/expectation.hpp); "expected" here, per solution, is not the
// per-verdict "expected" text of a WA.
// "interrupted": a stop (Ctrl-C, SIGTERM) ended the check early; the runs without a verdict (never
// started, or ended by the stop) are not listed and are counted by "runs_not_judged".
// The header's "sandbox" (tools/setter_commands.cpp, sandbox_json) says which guards were in
// force: {"enabled": true, "namespaces": [...], "identity", "network", "file_system",
// "sandbox_binds": [...], "disk_limit_mb", "disk_files", "max_processes", "memory": "cgroup v1"
// | "cgroup v2" | the resident-memory watch and why no cgroup, "sysv_ipc", "leftovers"}, or
// {"enabled": false, "guards": text} with --no-sandbox.
// Verdicts are listed in input order; rejected inputs have none. "expected" and "got" are set for
// WA only: the case's expected tokens and the tokens received in their place ("(end of output)"
// when none came), or, for output after the last case, "(end of output)" and that output.
#include "pipeline/check_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>

#include <spdlog/spdlog.h>

#include "io/files/atomic_file.hpp"
#include "pipeline/expectation.hpp"
#include "pipeline/solve_run.hpp"

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

// Passes 2 and 3 for the solutions `which`, under `limits`.
void run_solutions(const CheckOptions& options, const std::vector<std::size_t>& which,
                   const JudgeLimits& limits,
                   const std::vector<std::optional<std::vector<std::string>>>& expected,
                   CheckResult& result) {
  // Pass 2. Runs go file by file, every solution on a file before the next file, so that a slow
  // solution does not leave the others' files for the end.
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // (solution, file)
  for (std::size_t file = 0; file < options.inputs.size(); ++file) {
    if (!expected[file])
      continue;
    for (const std::size_t solution : which) {
      if (!options.solutions[solution].compile_error)
        runs.emplace_back(solution, file);
    }
  }
  std::vector<char> rerun(runs.size(), 0);
  run_at_once(runs.size(), options.jobs, [&](std::size_t k) {
    const auto [solution, file] = runs[k];
    JudgedRun run = run_and_judge(*options.problem, options.solutions[solution].command,
                                  io::StdinFile{options.inputs[file].input}, *expected[file],
                                  limits, options.sandbox);
    rerun[k] = needs_rerun_alone(run.verdict, run.result, limits) ? 1 : 0;
    result.solutions[solution].files[file] = std::move(run.verdict);
  });

  // Pass 3: alone, one at a time; the rerun's verdict stands.
  if (const auto count = static_cast<std::size_t>(std::count(rerun.begin(), rerun.end(), 1));
      count != 0) {
    spdlog::info(
        "running {} runs again, one at a time: they went just over the time limit "
        "while others ran",
        count);
  }
  for (std::size_t k = 0; k < runs.size(); ++k) {
    if (!rerun[k])
      continue;
    const auto [solution, file] = runs[k];
    try {
      throw_if_stop_requested();
      JudgedRun run = run_and_judge(*options.problem, options.solutions[solution].command,
                                    io::StdinFile{options.inputs[file].input}, *expected[file],
                                    limits, options.sandbox);
      run.verdict.rerun_alone = true;
      result.solutions[solution].files[file] = std::move(run.verdict);
      ++result.reruns_alone;
    } catch (const StopRequested&) {
      result.solutions[solution].files[file].reset();  // its first verdict was not final
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

CheckResult run_check(const CheckOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  CheckResult result;
  const auto expected = expected_answers(options, result);
  const std::size_t files = options.inputs.size();
  for (const CheckSolution& solution : options.solutions) {
    SolutionVerdicts verdicts;
    verdicts.name = solution.name;
    verdicts.command = solution.command;
    verdicts.files.resize(files);
    verdicts.compile_error = solution.compile_error;
    verdicts.expected = solution.expected;
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
    run_solutions(options, accepted, limits, expected, result);
    limits.time_limit_seconds = derived_time_limit(
        result, accepted, *multiplier, limits.time_limit_seconds, result.time_limit_source);
    spdlog::info("time limit {} s: {}", limits.time_limit_seconds, result.time_limit_source);
    if (!stop_requested())
      run_solutions(options, others, limits, expected, result);
  } else {
    std::vector<std::size_t> all(options.solutions.size());
    for (std::size_t solution = 0; solution < all.size(); ++solution)
      all[solution] = solution;
    run_solutions(options, all, limits, expected, result);
  }
  result.time_limit_seconds = limits.time_limit_seconds;
  result.interrupted = stop_requested();

  // Every (solution, file) pair of a compiled solution and a file not rejected is a run to judge.
  const std::size_t accepted_files = files - result.rejected.size();
  for (SolutionVerdicts& solution : result.solutions) {
    std::size_t unjudged = 0;
    if (!solution.compile_error) {
      const auto judged = static_cast<std::size_t>(std::count_if(
          solution.files.begin(), solution.files.end(),
          [](const std::optional<RunVerdict>& verdict) { return verdict.has_value(); }));
      unjudged = accepted_files - judged;
    }
    result.runs_not_judged += unjudged;
    const ExpectationOutcome outcome =
        judge_expectation(solution.expected, solution.compile_error, solution.files, unjudged);
    solution.meets = outcome.meets;
    solution.why_not = outcome.why_not;
    solution.too_weak = outcome.too_weak;
  }
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

std::string check_summary_line(const CheckResult& result, std::size_t files) {
  char line[256];
  std::snprintf(line, sizeof line,
                "check: %zu solutions, %zu files (%zu rejected), %zu runs again alone, ",
                result.solutions.size(), files, result.rejected.size(), result.reruns_alone);
  std::string text = line;
  if (result.interrupted)
    text += std::to_string(result.runs_not_judged) + " runs not judged, ";
  std::snprintf(line, sizeof line, "time: %.3f s", result.seconds);
  text += line;
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

std::string verdict_table(const CheckResult& result, const io::InputList& inputs,
                          std::size_t details_per_solution) {
  std::size_t name_width = 8;
  for (const SolutionVerdicts& solution : result.solutions)
    name_width = std::max(name_width, std::min<std::size_t>(solution.name.size(), 40));
  const int width = static_cast<int>(name_width);
  std::string table = format("%-*s %8s %4s %6s %6s %6s %6s %6s  %s\n", width, "solution",
                             "expected", "met", "AC", "WA", "TLE", "MLE", "RE", "slowest file");
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
    // A failure of a solution expected to be AC is in its rows above already.
    if (!solution.meets && solution.expected != io::Expectation::accepted) {
      missed += solution.name + ": does not get what it must: " + solution.why_not +
                (solution.too_weak ? ": the tests are too weak to catch it" : "") + "\n";
    }
    std::string name = solution.name;
    if (name.size() > name_width)
      name = name.substr(0, name_width - 3) + "...";
    table += format("%-*s %8s %4s %6zu %6zu %6zu %6zu %6zu  ", width, name.c_str(),
                    std::string(expected_short_name(solution.expected)).c_str(),
                    solution.meets ? "yes" : "NO", counts[Verdict::accepted],
                    counts[Verdict::wrong_answer], counts[Verdict::time_limit],
                    counts[Verdict::memory_limit], counts[Verdict::runtime_error]);
    table += solution.compile_error ? std::string("CE: not compiled")
             : slowest              ? inputs[*slowest].input.string() +
                             format(" %.2f s", solution.files[*slowest]->seconds)
                       : std::string("-");
    table += '\n';
  }
  return table + details + missed;
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
    for (std::size_t file = 0; file < solution.files.size(); ++file) {
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
    solutions.push_back({{"name", solution.name},
                         {"command", solution.command},
                         {"expected", io::expectation_name(solution.expected)},
                         {"meets", solution.meets},
                         {"why_not", solution.why_not},
                         {"too_weak", solution.too_weak},
                         {"compile_error", or_null(solution.compile_error)},
                         {"counts", counts},
                         {"verdicts", std::move(verdicts)}});
  }
  report["solutions"] = std::move(solutions);
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
