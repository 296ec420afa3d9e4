// The check run, in three passes (each parallel inside, one after another):
//   1. expected answers: the solve flow graph over every input, answers kept in memory (cache
//      hits are not solved again);
//   2. every (solution, file) run, `jobs` processes at a time (run_at_once);
//   3. the runs whose TLE may be an effect of sharing the machine, again, one at a time.
//
// The --report file, schema "gamebatch-check/1":
//   {"schema": "gamebatch-check/1", ...header (gamebatch_version, problem, limits)...,
//    "solutions": [{"command": CMD,
//                   "counts": {"AC": n, "WA": n, "TLE": n, "MLE": n, "RE": n},
//                   "verdicts": [{"path": input file, "verdict": "AC" | "WA" | "TLE" | "MLE" |
//                                 "RE", "seconds": CPU time, "peak_mb": peak resident MiB,
//                                 "case": first wrong case (1-based) or null,
//                                 "expected": text or null, "got": text or null,
//                                 "detail": why, "" for AC, "rerun_alone": bool}, ...]}, ...],
//    "rejected_inputs": [{"path", "line": L or null, "message"}, ...],
//    "interrupted": bool, "runs_not_judged": n}
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
#include <cstdio>
#include <map>

#include <spdlog/spdlog.h>

#include "io/atomic_file.hpp"
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

CheckResult run_check(const CheckOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  CheckResult result;
  const auto expected = expected_answers(options, result);
  const std::size_t files = options.inputs.size();
  const std::size_t solutions = options.solutions.size();
  for (const std::string& command : options.solutions)
    result.solutions.push_back({command, std::vector<std::optional<RunVerdict>>(files)});

  // Pass 2. Runs go file by file, every solution on a file before the next file, so that a slow
  // solution does not leave the others' files for the end.
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // (solution, file)
  for (std::size_t file = 0; file < files; ++file) {
    if (!expected[file])
      continue;
    for (std::size_t solution = 0; solution < solutions; ++solution)
      runs.emplace_back(solution, file);
  }
  std::vector<char> rerun(runs.size(), 0);
  run_at_once(runs.size(), options.jobs, [&](std::size_t k) {
    const auto [solution, file] = runs[k];
    JudgedRun run = run_and_judge(*options.problem, options.solutions[solution],
                                  io::StdinFile{options.inputs[file].input}, *expected[file],
                                  options.limits, options.sandbox);
    rerun[k] = needs_rerun_alone(run.verdict, run.result, options.limits) ? 1 : 0;
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
      JudgedRun run = run_and_judge(*options.problem, options.solutions[solution],
                                    io::StdinFile{options.inputs[file].input}, *expected[file],
                                    options.limits, options.sandbox);
      run.verdict.rerun_alone = true;
      result.solutions[solution].files[file] = std::move(run.verdict);
      ++result.reruns_alone;
    } catch (const StopRequested&) {
      result.solutions[solution].files[file].reset();  // its first verdict was not final
    }
  }
  result.interrupted = stop_requested();
  // Every (solution, file) pair of a file not rejected is a run to judge.
  std::size_t judged = 0;
  for (const SolutionVerdicts& solution : result.solutions)
    judged += static_cast<std::size_t>(std::count_if(
        solution.files.begin(), solution.files.end(),
        [](const std::optional<RunVerdict>& verdict) { return verdict.has_value(); }));
  result.runs_not_judged = (files - result.rejected.size()) * solutions - judged;
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

bool all_accepted(const CheckResult& result) {
  if (!result.rejected.empty() || result.runs_not_judged != 0)
    return false;
  for (const SolutionVerdicts& solution : result.solutions) {
    for (const std::optional<RunVerdict>& verdict : solution.files) {
      if (verdict && verdict->verdict != Verdict::accepted)
        return false;
    }
  }
  return true;
}

namespace {

std::string format(const char* pattern, auto... values) {
  char text[512];
  std::snprintf(text, sizeof text, pattern, values...);
  return text;
}

}  // namespace

std::string verdict_table(const CheckResult& result, const io::InputList& inputs,
                          std::size_t details_per_solution) {
  std::size_t command_width = 8;
  for (const SolutionVerdicts& solution : result.solutions)
    command_width = std::max(command_width, std::min<std::size_t>(solution.command.size(), 40));
  const int width = static_cast<int>(command_width);
  std::string table = format("%-*s %6s %6s %6s %6s %6s  %s\n", width, "solution", "AC", "WA", "TLE",
                             "MLE", "RE", "slowest file");
  std::string details;
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
        details += solution.command + ": " + inputs[file].input.string() + ": " +
                   describe(*verdict) + "\n";
      }
    }
    if (failures > details_per_solution) {
      details += solution.command + ": ... and " + std::to_string(failures - details_per_solution) +
                 " more (--report lists every run)\n";
    }
    std::string command = solution.command;
    if (command.size() > command_width)
      command = command.substr(0, command_width - 3) + "...";
    table +=
        format("%-*s %6zu %6zu %6zu %6zu %6zu  ", width, command.c_str(), counts[Verdict::accepted],
               counts[Verdict::wrong_answer], counts[Verdict::time_limit],
               counts[Verdict::memory_limit], counts[Verdict::runtime_error]);
    table += slowest ? inputs[*slowest].input.string() +
                           format(" %.2f s", solution.files[*slowest]->seconds)
                     : std::string("-");
    table += '\n';
  }
  return table + details;
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
    solutions.push_back(
        {{"command", solution.command}, {"counts", counts}, {"verdicts", std::move(verdicts)}});
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
  io::write_file_atomically(path, report.dump(2) + "\n");
}

}  // namespace gamebatch::pipeline
