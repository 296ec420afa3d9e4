#include "tools/setter_commands.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <spdlog/spdlog.h>

#include "io/atomic_file.hpp"
#include "io/input_error.hpp"
#include "io/input_set.hpp"
#include "io/problem.hpp"
#include "pipeline/check_run.hpp"
#include "pipeline/html_report.hpp"
#include "pipeline/stress_run.hpp"
#include "tools/cli.hpp"
#include "tools/solve_command.hpp"
#include "tools/version.hpp"

namespace gamebatch::cli {
namespace {

constexpr int kExitCounterexample = 1;
// Failed runs listed under check's table per solution; the report has them all.
constexpr std::size_t kDetailsPerSolution = 5;

void add_judge_options(CLI::App& command, JudgeArguments& judge) {
  command
      .add_option("--time-limit", judge.time_limit,
                  "CPU time limit of one run, in seconds (user + system time of the solution's\n"
                  "processes). Runs that go over it while others run are run again alone.")
      ->type_name("SECONDS")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 1e6));
  command
      .add_option("--memory-limit", judge.memory_limit,
                  "Peak resident memory limit of one run, in MB (2^20 bytes), summed over its\n"
                  "processes and watched while it runs (default: none)")
      ->type_name("MB")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 30));
  command
      .add_option(
          "--output-limit", judge.output_limit,
          "Standard output kept from one run, in MB; a run that writes more is stopped and\n"
          "judged WA")
      ->type_name("MB")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20));
  command
      .add_option("--jobs,-j", judge.jobs,
                  "Runs at once (0, the default: one per core). Parallel runs share caches and\n"
                  "memory bandwidth, so their times can be longer than alone")
      ->type_name("N")
      ->check(CLI::Range(0, 1 << 16));
}

pipeline::JudgeLimits judge_limits(const JudgeArguments& judge) {
  pipeline::JudgeLimits limits;
  limits.time_limit_seconds = judge.time_limit;
  limits.memory_limit_bytes = judge.memory_limit << 20;
  limits.output_limit_bytes = judge.output_limit << 20;
  return limits;
}

nlohmann::json limits_json(const JudgeArguments& judge) {
  return {{"time_limit_seconds", judge.time_limit},
          {"memory_limit_mb",
           judge.memory_limit == 0 ? nlohmann::json(nullptr) : nlohmann::json(judge.memory_limit)},
          {"output_limit_mb", judge.output_limit},
          {"jobs", judge.jobs}};
}

// ---- validate ----

void add_validate_command(CLI::App& app, ValidateArguments& arguments) {
  CLI::App* validate = app.add_subcommand(
      "validate", "Check that input files are valid official inputs of the game's statement");
  validate->footer(
      "Reads every input as solve does and checks it against the statement's own limits,\n"
      "which are narrower than what gamebatch solves (willow: T <= 50, 2 <= N <= 4000, coins\n"
      "<= 10000; wallgame: 2 <= h <= 50, 1 <= w <= 50; doublemove: n <= 35; boigame: t <= 10,\n"
      "n <= 300). Prints one line per violation on stdout, FILE:LINE: what the statement\n"
      "requires (the first 100 of a file, then how many more); a file that is no valid input\n"
      "at all gets its parse error instead. A summary line goes to stderr.\n"
      "Exit status: 0 every file is a valid official input, 1 some file is not, 2 usage error.");
  add_problem_option(*validate, arguments.problem, "The game:");
  add_paths_option(*validate, arguments.paths);
}

// What validate says of one file: its lines, empty when it is valid.
std::string validate_file(const io::Problem& problem, const std::filesystem::path& path) {
  const std::string name = path.string();
  try {
    const io::OfficialLimitReport report = problem.check_official_limits(io::read_file(path));
    std::string lines;
    for (const io::LimitViolation& violation : report.violations)
      lines += name + ":" + std::to_string(violation.line) + ": " + violation.message + "\n";
    if (report.count > report.violations.size()) {
      lines += name + ": and " + std::to_string(report.count - report.violations.size()) +
               " more violations of the statement's limits\n";
    }
    return lines;
  } catch (const io::InputError& error) {
    return name + ":" + std::to_string(error.line()) + ": " + error.what() + "\n";
  } catch (const std::exception& error) {
    return name + ": " + error.what() + "\n";
  }
}

int run_validate(const ValidateArguments& arguments) {
  const io::Problem& problem = *io::find_problem(arguments.problem);
  io::InputList inputs;
  try {
    inputs = io::collect_input_list(arguments.paths, std::nullopt);
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  }
  // Files are checked in parallel, a block at a time, and reported in input order.
  constexpr std::size_t kBlock = 1024;
  std::size_t invalid = 0;
  std::vector<std::string> said;
  for (std::size_t first = 0; first < inputs.size(); first += kBlock) {
    const std::size_t count = std::min(kBlock, inputs.size() - first);
    said.assign(count, std::string());
    tbb::parallel_for(std::size_t{0}, count, [&](std::size_t k) {
      said[k] = validate_file(problem, inputs[first + k].input);
    });
    for (const std::string& lines : said) {
      invalid += lines.empty() ? 0 : 1;
      std::fputs(lines.c_str(), stdout);
    }
  }
  std::fflush(stdout);
  std::fprintf(stderr, "validate: %zu files: %zu valid, %zu not\n", inputs.size(),
               inputs.size() - invalid, invalid);
  return invalid == 0 ? kExitSolved : kExitRejected;
}

// ---- check ----

void add_check_command(CLI::App& app, CheckArguments& arguments) {
  CLI::App* check =
      app.add_subcommand("check", "Run other solutions on every input and judge their answers");
  check->footer(
      "Each --solution CMD is run by /bin/sh -c with an input file on stdin, once per input, in\n"
      "its own process group (killed whole on a limit, no core dumps, nothing left running).\n"
      "Its stdout is compared with the exact answers (from the answer cache, or solved) token\n"
      "by token, case by case. Verdicts: AC, WA (the first wrong case, expected and got), TLE,\n"
      "MLE (the peak passed --memory-limit, however the run ended), RE (a signal or a non-zero\n"
      "exit status). A run is stopped at 1.5 times the time limit, or by the wall clock at\n"
      "three times it plus a second; one that ended over the limit but within 1.25 times it,\n"
      "or that the wall clock stopped after half its limit of CPU time, is run again alone\n"
      "after the others, and that run's verdict stands.\n"
      "Prints a table on stdout, one row per solution: the count of each verdict and its\n"
      "slowest file, then the first failed runs of each solution. --report FILE.json lists\n"
      "every run (schema gamebatch-check/1).\n"
      "Example: gamebatch check -p willow --solution ./good --solution 'python3 slow.py'\n"
      "           --time-limit 2 --memory-limit 256 sets/willow\n"
      "Exit status: 0 every solution AC on every input, 1 otherwise (or an input rejected),\n"
      "2 usage error.");
  add_problem_option(*check, arguments.problem, "The game:");
  check
      ->add_option("--solution,-s", arguments.solutions,
                   "A solution's shell command; give it once per solution")
      ->required()
      ->type_name("CMD")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  add_judge_options(*check, arguments.judge);
  CLI::Option* cache_option =
      check->add_option("--cache", arguments.cache_file, "The answer cache file, as solve's")
          ->type_name("FILE");
  check->add_flag("--no-cache", arguments.no_cache, "Solve every expected answer; no cache")
      ->excludes(cache_option);
  check->add_option("--report", arguments.report_file, "Write every run's verdict to FILE.json")
      ->type_name("FILE");
  add_html_option(*check, arguments.html_file,
                  "Write a self-contained HTML page to FILE: the verdict matrix (files x\n"
                  "solutions, coloured by verdict, with time, peak memory and WA details) and\n"
                  "each solution's times against the time limit");
  add_paths_option(*check, arguments.paths);
}

int run_check(const CheckArguments& arguments) {
  const std::size_t threads = thread_count(arguments.judge.jobs);
  tbb::global_control thread_limit(tbb::global_control::max_allowed_parallelism, threads);
  apply_memory_budget(std::nullopt);  // the expected answers are solved here
  pipeline::CheckOptions options;
  options.problem = io::find_problem(arguments.problem);
  options.solutions = arguments.solutions;
  options.limits = judge_limits(arguments.judge);
  options.jobs = threads;
  try {
    options.inputs = io::collect_input_list(arguments.paths, std::nullopt);
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  }
  if (!arguments.html_file.empty() && !html_page_writable(arguments.html_file))
    return kExitUsage;
  RunSettings settings;
  settings.cache_file = arguments.cache_file;
  settings.no_cache = arguments.no_cache;
  std::unique_ptr<pipeline::CacheSession> cache;
  if (!open_cache(settings, std::nullopt, *options.problem, cache))
    return kExitUsage;
  options.cache = cache.get();

  const pipeline::CheckResult result = pipeline::run_check(options);
  if (cache != nullptr) {
    cache->finish();
    cache.reset();
  }
  std::fputs(pipeline::verdict_table(result, options.inputs, kDetailsPerSolution).c_str(), stdout);
  std::fflush(stdout);
  int status = pipeline::all_accepted(result) ? kExitSolved : kExitRejected;
  const nlohmann::json header = {
      {"gamebatch_version", kVersion},
      {"problem", arguments.problem},
      {"limits", limits_json(arguments.judge)},
  };
  if (!arguments.report_file.empty()) {
    try {
      pipeline::write_check_report(arguments.report_file, header, result, options.inputs);
    } catch (const std::exception& error) {
      spdlog::error("cannot write the report {}: {}", arguments.report_file, error.what());
      status = kExitRejected;
    }
  }
  if (!arguments.html_file.empty() &&
      !write_html_page(arguments.html_file, pipeline::check_page(header, options, result)))
    status = kExitRejected;
  std::fprintf(stderr,
               "check: %zu solutions, %zu files (%zu rejected), %zu runs again alone, "
               "time: %.3f s\n",
               result.solutions.size(), options.inputs.size(), result.rejected.size(),
               result.reruns_alone, result.seconds);
  return status;
}

// ---- stress ----

void add_stress_command(CLI::App& app, StressArguments& arguments) {
  CLI::App* stress = app.add_subcommand(
      "stress", "Run a solution on random cases until it fails, then shrink the failing case");
  stress->footer(
      "Case k is what `gamebatch gen GAME --seed S --cases-per-file 1` writes as file k, with\n"
      "the same game options; each is solved exactly and given alone to the solution (stdin),\n"
      "--jobs at a time, until one fails (any verdict but AC; the first in case order, so the\n"
      "result is the same for every --jobs). The failing case is then shrunk: the game\n"
      "proposes smaller variants (willow: fewer cities, lower coins; wallgame: fewer rows and\n"
      "columns, lower digits; doublemove: smaller n, fewer declarations, smaller values;\n"
      "boigame: smaller boards, fewer black squares), and the first that still fails with the\n"
      "same verdict replaces it, until none does. Variants leave the statement's limits only\n"
      "if the failing case did. The result goes to DIR/counterexample.in with its exact answer\n"
      "in DIR/counterexample.ans, and is printed with the solution's output.\n"
      "Example: gamebatch stress -p willow --solution ./wrong --cities 20..40 --count 500\n"
      "Exit status: 1 a counterexample was found, 0 none in N cases, 2 usage error.");
  add_problem_option(*stress, arguments.problem, "The game:");
  stress->add_option("--solution,-s", arguments.solution, "The solution's shell command")
      ->required()
      ->type_name("CMD");
  stress->add_option("--count", arguments.count, "Cases to try at most")
      ->type_name("N")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, io::kMaxGeneratedFiles));
  stress->add_option("--seed", arguments.seed, "Seed of the random cases (0 to 2^64 - 1)")
      ->type_name("S")
      ->capture_default_str()
      ->check(CLI::Validator(seed_problem, "S"));
  stress
      ->add_option("--out,-o", arguments.out_dir,
                   "Directory for counterexample.in and counterexample.ans (created if missing)")
      ->type_name("DIR")
      ->capture_default_str();
  add_html_option(*stress, arguments.html_file,
                  "Write a self-contained HTML page to FILE: the seed, the cases tried, the\n"
                  "counterexample before and after shrinking with the solution's output");
  add_judge_options(*stress, arguments.judge);
  add_game_options(*stress, arguments.game_options);
  stress->callback([&arguments] {
    io::GenerateOptions options;  // case k is file k of this set, one case each
    options.seed = arguments.seed;
    options.file_count = arguments.count;
    options.out_dir = arguments.out_dir;
    arguments.game =
        checked_generate_options(arguments.problem, arguments.game_options, std::move(options))
            .game;
  });
}

std::string with_final_newline(std::string text) {
  if (!text.empty() && text.back() != '\n')
    text += '\n';
  return text;
}

int run_stress(const StressArguments& arguments) {
  const std::size_t threads = thread_count(arguments.judge.jobs);
  tbb::global_control thread_limit(tbb::global_control::max_allowed_parallelism, threads);
  apply_memory_budget(std::nullopt);  // the expected answers are solved here
  pipeline::StressOptions options;
  options.problem = io::find_problem(arguments.problem);
  options.game = arguments.game;
  options.seed = arguments.seed;
  options.count = arguments.count;
  options.solution = arguments.solution;
  options.limits = judge_limits(arguments.judge);
  options.jobs = threads;
  if (!arguments.html_file.empty() && !html_page_writable(arguments.html_file))
    return kExitUsage;
  const pipeline::StressResult result = pipeline::run_stress(options);
  // Exit status 1 says a counterexample was found, so a page that cannot be written is a 2.
  bool page_written = true;
  if (!arguments.html_file.empty()) {
    nlohmann::json game_options = nlohmann::json::object();
    for (const GameOption& option : arguments.game_options.registered) {
      if (option.option != nullptr && option.option->count() > 0)
        game_options[option.name.substr(option.name.find_first_not_of('-'))] =
            option.option->as<std::string>();
    }
    const nlohmann::json header = {{"gamebatch_version", kVersion},
                                   {"problem", arguments.problem},
                                   {"solution", arguments.solution},
                                   {"seed", std::to_string(arguments.seed)},
                                   {"count", arguments.count},
                                   {"out", arguments.out_dir},
                                   {"limits", limits_json(arguments.judge)},
                                   {"game_options", game_options}};
    page_written =
        write_html_page(arguments.html_file, pipeline::stress_page(header, options, result));
  }
  if (!result.shrunk) {
    std::printf("stress: the solution passed all %lld cases (seed %llu)\n",
                static_cast<long long>(result.cases_run),
                static_cast<unsigned long long>(arguments.seed));
    std::fprintf(stderr, "stress: time: %.3f s\n", result.seconds);
    if (!page_written)
      return kExitUsage;
    return std::fflush(stdout) == 0 ? kExitSolved : kExitRejected;
  }
  const io::Problem& problem = *options.problem;
  const pipeline::FailingCase& shrunk = *result.shrunk;
  std::string answers;
  for (std::size_t k = 0; k < shrunk.expected.size(); ++k)
    answers += problem.answer_line(k + 1, shrunk.expected[k]);
  const std::filesystem::path input_path =
      std::filesystem::path(arguments.out_dir) / "counterexample.in";
  const std::filesystem::path answer_path =
      std::filesystem::path(arguments.out_dir) / "counterexample.ans";
  bool written = true;
  try {
    io::write_file_atomically(input_path, shrunk.input);
    io::write_file_atomically(answer_path, answers);
  } catch (const std::exception& error) {
    spdlog::error("cannot write the counterexample: {}", error.what());
    written = false;
  }
  const pipeline::RunVerdict& first = result.first_failure->verdict;
  std::printf("stress: case %lld of seed %llu fails: %s\n",
              static_cast<long long>(*result.failing_case_number),
              static_cast<unsigned long long>(arguments.seed), pipeline::describe(first).c_str());
  std::printf("shrunk in %zu steps (%zu smaller cases run) to a case that fails: %s\n",
              result.shrink_steps, result.shrink_candidates_run,
              pipeline::describe(shrunk.verdict).c_str());
  std::printf("== input%s\n%s", written ? (" (" + input_path.string() + ")").c_str() : "",
              with_final_newline(shrunk.input).c_str());
  std::printf("== expected%s\n%s", written ? (" (" + answer_path.string() + ")").c_str() : "",
              answers.c_str());
  std::printf("== the solution's output\n%s", with_final_newline(shrunk.output).c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "stress: %lld cases run, time: %.3f s\n",
               static_cast<long long>(result.cases_run), result.seconds);
  return page_written ? kExitCounterexample : kExitUsage;
}

}  // namespace

void add_setter_commands(CLI::App& app, SetterArguments& arguments) {
  add_validate_command(app, arguments.validate);
  add_check_command(app, arguments.check);
  add_stress_command(app, arguments.stress);
}

int run_setter_command(const CLI::App& app, const SetterArguments& arguments) {
  if (app.got_subcommand("validate"))
    return run_validate(arguments.validate);
  if (app.got_subcommand("check"))
    return run_check(arguments.check);
  if (app.got_subcommand("stress"))
    return run_stress(arguments.stress);
  return -1;
}

}  // namespace gamebatch::cli
