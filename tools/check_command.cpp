#include "tools/setter_commands.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <system_error>
#include <utility>

#include <stdlib.h>
#include <unistd.h>

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <spdlog/spdlog.h>

#include "io/files/atomic_file.hpp"
#include "io/files/content_hash.hpp"
#include "io/files/input_set.hpp"
#include "io/files/package_plan.hpp"
#include "io/files/problem_package.hpp"
#include "io/input_error.hpp"
#include "io/problem.hpp"
#include "io/run/compiled_store.hpp"
#include "io/run/sandbox.hpp"
#include "io/run/solution_build.hpp"
#include "pipeline/cache_session.hpp"
#include "pipeline/check_run.hpp"
#include "pipeline/html_report.hpp"
#include "pipeline/package_build.hpp"
#include "pipeline/stress_run.hpp"
#include "pipeline/terminal_text.hpp"
#include "tools/cli.hpp"
#include "tools/solve_command.hpp"
#include "tools/version.hpp"

namespace gamebatch::cli {
namespace {

constexpr int kExitCounterexample = 1;
// Failed runs listed under check's table per solution; the report has them all.
constexpr std::size_t kDetailsPerSolution = 5;

// Files of scratch a run may make (the tmpfs's inodes): a bound that no solution meets and that
// keeps a run from filling the box's memory with empty files.
constexpr std::uint64_t kSandboxFiles = 4096;

io::SandboxSettings sandbox_settings(const JudgeArguments& judge) {
  io::SandboxSettings settings;
  for (const std::string& bind : judge.sandbox_binds)
    settings.binds.push_back(std::filesystem::absolute(bind).lexically_normal());
  settings.disk_bytes = judge.sandbox_disk << 20;
  settings.disk_files = kSandboxFiles;
  settings.max_processes = judge.max_processes;
  return settings;
}

// What `--sandbox-info` prints: what this machine allows, and why not where it does not.
[[noreturn]] void print_sandbox_info(const JudgeArguments& judge) {
  io::SandboxPool pool(sandbox_settings(judge), std::filesystem::current_path());
  const std::string problem = pool.probe();
  std::string text;
  std::string namespaces_allowed = "?";
  if (std::FILE* const file = std::fopen("/proc/sys/user/max_user_namespaces", "r")) {
    char line[32] = {};
    if (std::fgets(line, sizeof line, file) != nullptr)
      namespaces_allowed = std::string(line).substr(0, std::string(line).find('\n'));
    std::fclose(file);
  }
  const std::filesystem::path helper = io::sandbox_helper();
  text += "sandbox: " +
          (problem.empty() ? std::string("available: check and stress run every "
                                         "program in one (--no-sandbox: not)")
                           : "NOT available: " + problem) +
          "\n";
  text +=
      "  helper: " + (helper.empty() ? std::string("gamebatch-box not found") : helper.string()) +
      "\n";
  text += "  user namespaces allowed (/proc/sys/user/max_user_namespaces): " + namespaces_allowed +
          "\n";
  text +=
      std::string("  identity: nobody (uid 65534) inside; outside: ") +
      (::geteuid() == 0 ? "nobody (gamebatch runs as root)"
                        : "uid " + std::to_string(::geteuid()) + " (the user; no root needed)") +
      "\n";
  text +=
      "  namespaces: user, mount, PID, network (no interface up: no route anywhere), IPC, UTS\n";
  text +=
      "  file system: read-only /usr /bin /lib* and parts of /etc, /dev/{null,zero,random,"
      "urandom},\n    its own /proc, the files the command names and --sandbox-bind paths\n";
  text += "  scratch (working directory and /tmp): " + std::to_string(judge.sandbox_disk) +
          " MiB, " + std::to_string(kSandboxFiles) + " files, new for every run that changed it\n";
  text += "  processes and threads: at most " + std::to_string(judge.max_processes) +
          " per run; all of a run's end with it (also when gamebatch is killed)\n";
  if (problem.empty())
    text += "  memory (--memory-limit): " + pool.memory_guard() + "\n";
  if (problem.empty())
    text += std::string("  SysV IPC: ") +
            (pool.sysv_ipc_cleared_per_run() ? "what a run made is removed after it"
                                             : "switched off in the box") +
            "\n";
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  if (problem.empty())
    throw CLI::Success();
  throw CLI::RuntimeError(2);
}

void add_sandbox_options(CLI::App& command, JudgeArguments& judge) {
  CLI::Option* off = command.add_flag(
      "--no-sandbox", judge.no_sandbox,
      "Run the programs as today's user would, uncontained: they can read and write whatever\n"
      "that user can. Without it each run is in a sandbox: its own user (nobody, without\n"
      "privileges), mount, PID, network, IPC and UTS namespaces; a read-only view of the\n"
      "system (/usr, /bin, /lib*, parts of /etc), of the files its command names and of\n"
      "--sandbox-bind; a private working directory and /tmp; no network; nothing of it left\n"
      "running after it");
  command
      .add_option("--sandbox-bind", judge.sandbox_binds,
                  "Show PATH (a file or directory) to the programs too, read-only, at the same\n"
                  "path; give it once per path")
      ->type_name("PATH")
      ->check(CLI::ExistingPath)
      ->excludes(off);
  command
      .add_option("--sandbox-disk", judge.sandbox_disk,
                  "Scratch space of one run (its working directory and /tmp together), in MB;\n"
                  "a run that fills it is stopped and judged RE (disk limit)")
      ->type_name("MB")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20))
      ->excludes(off);
  command
      .add_option("--max-processes", judge.max_processes,
                  "Processes and threads one run may have at once; a run that reaches it is\n"
                  "stopped and judged RE (process limit)")
      ->type_name("N")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20))
      ->excludes(off);
  command
      .add_flag_callback(
          "--sandbox-info", [&judge] { print_sandbox_info(judge); },
          "Print what the sandbox can do on this machine (exit 0), or why it cannot (exit 2)")
      ->trigger_on_parse();
}

// The sandbox of a check or stress, made and tried before any run: nullptr with --no-sandbox.
// False (after one error message) when it cannot work here.
bool make_sandbox(const JudgeArguments& judge, std::unique_ptr<io::SandboxPool>& pool) {
  if (judge.no_sandbox)
    return true;
  io::SandboxSettings settings = sandbox_settings(judge);
  for (const std::filesystem::path& bind : settings.binds) {
    if (bind == "/" || bind == "/tmp") {
      spdlog::error(
          "--sandbox-bind {}: the box cannot show it whole (it has its own {}); name "
          "what below it the programs need",
          bind.string(), bind == "/" ? "root" : "/tmp");
      return false;
    }
  }
  pool = std::make_unique<io::SandboxPool>(std::move(settings), std::filesystem::current_path());
  if (const std::string problem = pool->probe(); !problem.empty()) {
    spdlog::error(
        "{}; the programs cannot be contained here (are user namespaces switched off? "
        "gamebatch check --sandbox-info tells more). --no-sandbox runs them uncontained, with "
        "all the rights of the user running gamebatch",
        problem);
    return false;
  }
  return true;
}

// The report's and the HTML page's "sandbox": which guards were in force.
nlohmann::json sandbox_json(const JudgeArguments& judge, const io::SandboxPool* pool) {
  if (pool == nullptr)
    return {{"enabled", false},
            {"guards",
             "none but limits: the programs ran as the user running gamebatch, each in a process "
             "group killed whole at its end and on a limit"}};
  nlohmann::json binds = nlohmann::json::array();
  for (const std::filesystem::path& bind : pool->settings().binds)
    binds.push_back(bind.string());
  return {{"enabled", true},
          {"namespaces", {"user", "mount", "pid", "network", "ipc", "uts"}},
          {"identity",
           ::geteuid() == 0 ? "nobody inside and outside" : "nobody inside, the user outside"},
          {"network", "none (an empty network namespace)"},
          {"file_system", "read-only system view, the files the commands name, sandbox_binds"},
          {"sandbox_binds", binds},
          {"disk_limit_mb", judge.sandbox_disk},
          {"disk_files", kSandboxFiles},
          {"max_processes", judge.max_processes},
          {"memory", pool->memory_guard()},
          {"sysv_ipc", pool->sysv_ipc_cleared_per_run() ? "removed after each run" : "off"},
          {"leftovers", "none: a run's processes end with its PID namespace"}};
}

void add_judge_options(CLI::App& command, JudgeArguments& judge) {
  judge.time_limit_option =
      command
          .add_option(
              "--time-limit", judge.time_limit,
              "CPU time limit of one run, in seconds (user + system time of the solution's\n"
              "processes). Runs that go over it while others run are run again alone.\n"
              "A problem package's own limit (problem.yaml limits: time_limit) is used\n"
              "when this is not given")
          ->type_name("SECONDS")
          ->capture_default_str()
          ->check(CLI::Range(0.001, 1e6));
  command
      .add_option(
          "--languages", judge.languages_file,
          "A TOML file whose [languages] table changes how sources are compiled and run\n"
          "(a run config holding one will do): [languages.cpp] compile = \"g++ ... -o\n"
          "{binary} {files}\", run = \"{binary}\", extensions = [\".cpp\"]; a new name adds\n"
          "a language. Placeholders: {files} {mainfile} {mainclass} {binary}")
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
  judge.memory_limit_option =
      command
          .add_option("--memory-limit", judge.memory_limit,
                      "Peak resident memory limit of one run, in MB (2^20 bytes), summed over its\n"
                      "processes and watched while it runs (default: a problem package's own\n"
                      "limit, else none)")
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
  add_sandbox_options(command, judge);
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
  add_layout_option(*validate, arguments.layout);
  add_paths_option(*validate, arguments.paths);
}

// What validate says of one file: its lines, empty when it is valid. `group_limits`: those of the
// groups holding it, checked beside the statement's.
std::string validate_file(const io::Problem& problem, const std::filesystem::path& path,
                          const std::vector<io::NarrowLimit>& group_limits) {
  const std::string name = path.string();
  try {
    io::OfficialLimitCheck check(group_limits);
    problem.check_limits(io::read_file(path), check);
    const io::OfficialLimitReport report = io::OfficialLimitReport::of(check);
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
    inputs = io::collect_input_list(arguments.paths, std::nullopt, arguments.layout);
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  }
  // A built package with a plan: each test meets the limits of the groups holding it, too, and
  // build's copy of an included group H's test (H-EE-III.in in the including group's folder)
  // those of H.
  std::map<std::filesystem::path, std::vector<io::NarrowLimit>> group_limits;
  const auto add_limits = [&group_limits](const std::filesystem::path& test,
                                          const std::vector<io::NarrowLimit>& limits) {
    std::vector<io::NarrowLimit>& of_test = group_limits[test];
    for (const io::NarrowLimit& limit : limits) {
      if (std::none_of(of_test.begin(), of_test.end(), [&](const io::NarrowLimit& known) {
            return known.owner == limit.owner && known.parameter == limit.parameter;
          }))
        of_test.push_back(limit);
    }
  };
  const std::regex copy_of_other("([a-z0-9_-]+)-[0-9]+-[0-9]+\\.in");
  try {
    for (const std::string& path : arguments.paths) {
      if (!std::filesystem::is_directory(path))
        continue;
      const std::optional<io::ProblemPackage> package =
          io::recognise_package(path, arguments.layout);
      if (!package || package->plan_game.empty())
        continue;
      if (package->plan_game != arguments.problem) {
        spdlog::error("{} is a package of {}, not of {}", path, package->plan_game,
                      arguments.problem);
        return kExitUsage;
      }
      for (const io::TestGroup& group : package->groups) {
        for (const std::filesystem::path& test : group.tests) {
          add_limits(test, group.limits);
          std::smatch match;
          const std::string name = test.filename().string();
          if (!std::regex_match(name, match, copy_of_other))
            continue;
          for (const io::TestGroup& other : package->groups) {
            if (other.name == match[1].str() && &other != &group)
              add_limits(test, other.limits);
          }
        }
      }
    }
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  }
  const auto limits_of = [&](const std::filesystem::path& input) -> std::vector<io::NarrowLimit> {
    if (group_limits.empty())
      return {};
    const auto found = group_limits.find(std::filesystem::absolute(input).lexically_normal());
    return found == group_limits.end() ? std::vector<io::NarrowLimit>{} : found->second;
  };
  // Files are checked in parallel, a block at a time, and reported in input order.
  constexpr std::size_t kBlock = 1024;
  std::size_t invalid = 0;
  std::vector<std::string> said;
  for (std::size_t first = 0; first < inputs.size(); first += kBlock) {
    const std::size_t count = std::min(kBlock, inputs.size() - first);
    said.assign(count, std::string());
    tbb::parallel_for(std::size_t{0}, count, [&](std::size_t k) {
      said[k] = validate_file(problem, inputs[first + k].input, limits_of(inputs[first + k].input));
    });
    for (const std::string& lines : said) {
      invalid += lines.empty() ? 0 : 1;
      std::fputs(pipeline::terminal_safe(lines).c_str(), stdout);
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
      "Each --solution is a source file (.cpp .cc .cxx .c++ .c .py .java), a directory of one\n"
      "language's sources, or a shell command (run by /bin/sh -c). A source is compiled once\n"
      "as a judge compiles it (g++ -std=gnu++20 -O2, gcc -std=gnu17 -O2, python3, javac)\n"
      "and kept beside the answer cache by the hash of its sources and its compiler, so a\n"
      "second check compiles nothing; a compile error is the verdict CE. Each runs with an\n"
      "input file on stdin, once per input, in the sandbox (--no-sandbox: in its own\n"
      "process group only). Its stdout is compared with the exact answers (from the answer\n"
      "cache, or solved) token by token, case by case. Verdicts: AC, WA (the first wrong\n"
      "case, expected and got), TLE, MLE (the peak passed --memory-limit, however the run\n"
      "ended), RE (a signal or a non-zero exit status). A run is stopped at 1.5 times the time\n"
      "limit, or by the wall clock at three times it plus a second; a TLE of a run made while\n"
      "others ran (but one the wall clock stopped before half its limit of CPU time) counts\n"
      "only once a run alone confirms it, and that run's verdict stands.\n"
      "Early decisions (Kattis' on_reject: break): once a solution fails a test of a min or\n"
      "pass-fail group, its runs on the group's later tests are skipped (a run is skipped\n"
      "when every group holding its file is decided; a package without groups is one\n"
      "pass-fail group); --all-runs runs everything. Per group: the first failure's verdict\n"
      "and the group's points (min, pass-fail: all or nothing; sum: by the share of AC).\n"
      "A problem package as the one PATH (Kattis: problem.yaml or data/sample, data/secret;\n"
      "Polygon: problem.xml or tests/NN; CMS: task.yaml or input/inputN.txt) gives the\n"
      "inputs and, without --solution, the solutions: Kattis' submissions/accepted (AC on\n"
      "every file), wrong_answer (WA somewhere, nothing worse), time_limit_exceeded (TLE\n"
      "somewhere, else AC or WA), run_time_error (RE somewhere), and the rules of\n"
      "submissions.yaml (permitted, required verdicts and score, per group). The time limit is\n"
      "--time-limit, else the package's own, else the accepted submissions' slowest run\n"
      "times 5 (problem.yaml limits: time_multiplier), rounded up to whole seconds.\n"
      "Prints a table on stdout, one row per solution: what it must get, whether it did, the\n"
      "count of each verdict and its slowest file, then the first failed runs of each\n"
      "solution. --report FILE.json lists every run (schema gamebatch-check/1).\n"
      "Examples: gamebatch check -p willow --solution good.cpp --solution 'python3 slow.py'\n"
      "           --time-limit 2 --memory-limit 256 sets/willow\n"
      "          gamebatch check -p willow problems/willow   (a Kattis package)\n"
      "Ctrl-C (or SIGTERM) ends the runs in progress and judges no more; the table and report\n"
      "give the verdicts so far (report: \"interrupted\", \"runs_not_judged\").\n"
      "Exit status: 0 every solution gets what it must (a --solution: AC on every input),\n"
      "1 otherwise (or an input rejected), 2 usage error, 130 (143) interrupted by SIGINT\n"
      "(SIGTERM).");
  add_problem_option(*check, arguments.problem, "The game:");
  check
      ->add_option("--solution,-s", arguments.solutions,
                   "A solution: a source file, a directory of sources, or a shell command; give\n"
                   "it once per solution (required unless PATH is a problem package)")
      ->type_name("SOURCE|CMD")
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
  check->add_flag("--all-runs", arguments.all_runs,
                  "Run every solution on every input: no early decision after a failure");
  add_layout_option(*check, arguments.layout);
  add_paths_option(*check, arguments.paths);
}

// Where compiled solutions are kept: "compiled" beside the answer cache file (explicit or the
// default); a temporary directory, removed at the end, with --no-cache or without a location.
class CompiledStore {
 public:
  explicit CompiledStore(const RunSettings& settings) {
    std::optional<std::filesystem::path> cache_file;
    if (!settings.no_cache)
      cache_file = settings.cache_file.empty()
                       ? pipeline::default_cache_path()
                       : std::optional(std::filesystem::path(settings.cache_file));
    if (cache_file) {
      path_ = io::compiled_store_beside(*cache_file);
      in_use_.emplace(path_);  // `cache trim` leaves the store alone while its programs may run
      return;
    }
    std::string pattern =
        (std::filesystem::temp_directory_path() / "gamebatch-compiled-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw std::system_error(errno, std::generic_category(), "cannot make " + pattern);
    path_ = pattern;
    temporary_ = true;
  }
  CompiledStore(const CompiledStore&) = delete;
  CompiledStore& operator=(const CompiledStore&) = delete;
  ~CompiledStore() {
    if (temporary_) {
      std::error_code ignored;
      std::filesystem::remove_all(path_, ignored);
    }
  }
  const std::filesystem::path& path() const { return path_; }
  bool temporary() const { return temporary_; }

 private:
  std::filesystem::path path_;
  bool temporary_ = false;
  std::optional<io::StoreUse> in_use_;
};

// A solution as the user named it: a source (a file or a directory that a language claims) to
// build, or else a shell command run as it is.
struct SolutionToBuild {
  pipeline::CheckSolution solution;
  std::optional<std::filesystem::path> source;
};

// Compiles the sources among `solutions` (`jobs` at once), each once; the commands of the others
// are left as they are. Says on stderr what was compiled and what came from the store. False
// (after an error message) when the store cannot be used: a usage problem.
bool build_solutions(std::vector<SolutionToBuild>& solutions, const io::LanguageTable& languages,
                     const std::filesystem::path& store, io::SandboxPool* sandbox, std::size_t jobs,
                     nlohmann::json& report) {
  std::vector<std::size_t> sources;
  for (std::size_t k = 0; k < solutions.size(); ++k) {
    if (solutions[k].source)
      sources.push_back(k);
  }
  io::BuildSettings settings;
  settings.store = store;
  settings.sandbox = sandbox;
  std::vector<std::optional<io::BuiltSolution>> built(sources.size());
  std::vector<std::string> failures(sources.size());
  const auto started = std::chrono::steady_clock::now();
  pipeline::run_at_once(sources.size(), jobs, [&](std::size_t k) {
    try {
      built[k] = io::build_solution(*solutions[sources[k]].source, languages, settings);
    } catch (const std::exception& error) {
      failures[k] = error.what();
    }
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  // A stop (Ctrl-C) ended the compiles in progress: the caller stops too, and nothing is judged.
  if (stop_requested())
    return true;
  std::size_t compiled = 0, from_store = 0, errors = 0;
  for (std::size_t k = 0; k < sources.size(); ++k) {
    if (!failures[k].empty()) {
      spdlog::error("cannot build {}: {}", solutions[sources[k]].solution.name, failures[k]);
      return false;
    }
    pipeline::CheckSolution& solution = solutions[sources[k]].solution;
    solution.command = built[k]->command;
    solution.compile_error = built[k]->compile_error;
    (built[k]->compiled_now ? compiled : from_store) += 1;
    if (built[k]->compile_error)
      ++errors;
  }
  std::string line = "compile: " + std::to_string(sources.size()) + " sources: ";
  line += compiled == 0 ? std::string("nothing compiled")
                        : std::to_string(compiled) + " compiled (" +
                              std::to_string(static_cast<int>(seconds * 1000 + 0.5)) + " ms)";
  line += ", " + std::to_string(from_store) + " from the store";
  if (errors != 0)
    line += ", " + std::to_string(errors) + " compile " + (errors == 1 ? "error" : "errors");
  std::fprintf(stderr, "%s (%s)\n", line.c_str(), store.string().c_str());
  report = {{"store", store.string()},
            {"compiled", compiled},
            {"from_store", from_store},
            {"errors", errors},
            {"seconds", seconds}};
  return true;
}

// The solutions of a check: the --solution arguments, else a package's submissions.
std::vector<SolutionToBuild> solutions_to_build(const std::vector<std::string>& arguments,
                                                const io::ProblemPackage* package,
                                                const io::LanguageTable& languages) {
  std::vector<SolutionToBuild> solutions;
  if (!arguments.empty() || package == nullptr) {
    for (const std::string& argument : arguments) {
      SolutionToBuild solution;
      solution.solution.name = argument;
      solution.solution.command = argument;
      if (io::language_of(languages, argument) != nullptr)
        solution.source = std::filesystem::absolute(argument).lexically_normal();
      solutions.push_back(std::move(solution));
    }
    return solutions;
  }
  for (const io::PackageSubmission& submission : package->submissions) {
    SolutionToBuild solution;
    solution.solution.name = submission.name;
    solution.solution.expected = submission.expected;
    solution.solution.rules = submission.rules;
    if (io::language_of(languages, submission.path) != nullptr) {
      solution.source = submission.path;
    } else {
      // An executable the package ships: run as it is.
      solution.solution.command = "'" + submission.path.string() + "'";
    }
    solutions.push_back(std::move(solution));
  }
  return solutions;
}

bool load_languages(const JudgeArguments& judge, io::LanguageTable& languages) {
  languages = io::default_languages();
  if (judge.languages_file.empty())
    return true;
  try {
    io::load_languages_file(languages, judge.languages_file);
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return false;
  }
  return true;
}

int run_check(const CheckArguments& arguments) {
  const std::size_t threads = thread_count(arguments.judge.jobs);
  tbb::global_control thread_limit(tbb::global_control::max_allowed_parallelism, threads);
  apply_memory_budget(std::nullopt);  // the expected answers are solved here
  pipeline::CheckOptions options;
  options.problem = io::find_problem(arguments.problem);
  options.limits = judge_limits(arguments.judge);
  options.jobs = threads;
  options.all_runs = arguments.all_runs;
  io::LanguageTable languages;
  if (!load_languages(arguments.judge, languages))
    return kExitUsage;

  // A problem package among the paths gives the solutions (without --solution) and may give the
  // time limit.
  std::optional<io::ProblemPackage> package;
  try {
    for (const std::string& path : arguments.paths) {
      if (!std::filesystem::is_directory(path))
        continue;
      // A layout forced on a directory without its marks makes no package of it here.
      std::optional<io::ProblemPackage> found = io::recognise_package(path, arguments.layout);
      if (!found || found->recognised_by.empty())
        continue;
      if (package) {
        spdlog::error("check takes one problem package at a time: {} and {} are both packages",
                      package->root.string(), found->root.string());
        return kExitUsage;
      }
      package = std::move(found);
    }
    options.inputs = io::collect_input_list(arguments.paths, std::nullopt, arguments.layout);
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  }
  if (package) {
    for (const std::string& warning : package->warnings)
      spdlog::warn("{}", warning);
    options.groups = package->groups;
  }
  if (arguments.solutions.empty() && (!package || package->submissions.empty())) {
    if (package)
      spdlog::error("the package {} holds no submissions: name the solutions with --solution",
                    package->root.string());
    else
      spdlog::error(
          "no solution to check: give --solution SOURCE|CMD, or a problem package as PATH");
    return kExitUsage;
  }
  std::vector<SolutionToBuild> solutions =
      solutions_to_build(arguments.solutions, package ? &*package : nullptr, languages);

  // The time limit: --time-limit, else the package's own, else derived from its accepted
  // submissions (their slowest run, under --time-limit's default as a ceiling).
  const bool limit_given = arguments.judge.time_limit_option != nullptr &&
                           arguments.judge.time_limit_option->count() > 0;
  if (limit_given) {
    options.time_limit_rule.source = "--time-limit";
  } else if (package && package->time_limit_seconds) {
    options.limits.time_limit_seconds = *package->time_limit_seconds;
    options.time_limit_rule.source = package->time_limit_source;
  } else if (package && arguments.solutions.empty() &&
             std::any_of(solutions.begin(), solutions.end(), [](const SolutionToBuild& solution) {
               return solution.solution.expected == io::Expectation::accepted;
             })) {
    options.time_limit_rule.derive_with_multiplier = package->time_multiplier;
  } else {
    options.time_limit_rule.source = "--time-limit (default)";
  }

  // The memory limit: --memory-limit, else the package's own.
  std::string memory_limit_source = "--memory-limit";
  const bool memory_given = arguments.judge.memory_limit_option != nullptr &&
                            arguments.judge.memory_limit_option->count() > 0;
  if (!memory_given && package && package->memory_limit_mb) {
    options.limits.memory_limit_bytes =
        static_cast<std::uint64_t>(*package->memory_limit_mb * (1 << 20));
    memory_limit_source = package->memory_limit_source;
  }

  std::unique_ptr<io::SandboxPool> sandbox;
  if (!make_sandbox(arguments.judge, sandbox))
    return kExitUsage;
  options.sandbox = sandbox.get();
  if (!arguments.html_file.empty() && !html_page_writable(arguments.html_file))
    return kExitUsage;
  RunSettings settings;
  settings.cache_file = arguments.cache_file;
  settings.no_cache = arguments.no_cache;
  std::optional<CompiledStore> store;
  nlohmann::json compile_report;
  if (std::any_of(solutions.begin(), solutions.end(),
                  [](const SolutionToBuild& solution) { return solution.source.has_value(); })) {
    try {
      store.emplace(settings);
    } catch (const std::exception& error) {
      spdlog::error("{}", error.what());
      return kExitUsage;
    }
    if (!build_solutions(solutions, languages, store->path(), sandbox.get(), threads,
                         compile_report))
      return kExitUsage;
    if (stop_requested()) {
      std::fprintf(stderr, "check: interrupted while compiling the solutions\n");
      return kExitRejected;  // run_cli makes it 128 + the signal
    }
    if (store->temporary())
      compile_report["store"] = nullptr;
  }
  for (SolutionToBuild& solution : solutions)
    options.solutions.push_back(std::move(solution.solution));
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
  int status = pipeline::all_expectations_met(result) ? kExitSolved : kExitRejected;
  nlohmann::json header = {
      {"gamebatch_version", kVersion},
      {"problem", arguments.problem},
      {"limits", limits_json(arguments.judge)},
      {"sandbox", sandbox_json(arguments.judge, sandbox.get())},
  };
  header["limits"]["time_limit_seconds"] = result.time_limit_seconds;
  header["limits"]["time_limit_source"] = result.time_limit_source;
  if (options.limits.memory_limit_bytes != 0) {
    header["limits"]["memory_limit_mb"] =
        static_cast<double>(options.limits.memory_limit_bytes) / (1 << 20);
    header["limits"]["memory_limit_source"] = memory_limit_source;
  }
  if (package) {
    header["package"] = {{"path", package->root.string()},
                         {"layout", io::layout_name(package->layout)},
                         {"recognised_by", package->recognised_by}};
  }
  if (!compile_report.is_null())
    header["compile"] = compile_report;
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
  std::fprintf(stderr, "%s\n", pipeline::check_summary_line(result, options.inputs.size()).c_str());
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
      "Ctrl-C (or SIGTERM) ends the runs in progress: it reports the cases judged in order, or\n"
      "the smallest failing case found when it was shrinking.\n"
      "Exit status: 1 a counterexample was found (or the source does not compile), 0 none in\n"
      "N cases, 2 usage error, 130 (143) interrupted by SIGINT (SIGTERM).");
  add_problem_option(*stress, arguments.problem, "The game:");
  stress
      ->add_option("--solution,-s", arguments.solution,
                   "The solution: a source file or directory (compiled once, as check does), or\n"
                   "a shell command")
      ->required()
      ->type_name("SOURCE|CMD");
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
  CLI::Option* package =
      stress
          ->add_option("--package", arguments.package,
                       "A problem package whose plan (gamebatch.toml) holds --group")
          ->type_name("PACKAGE")
          ->check(CLI::ExistingDirectory);
  stress
      ->add_option("--group", arguments.group,
                   "Draw the cases within this group's limits (and the groups including it),\n"
                   "and shrink within them: where a partial solution fails its subtask")
      ->type_name("NAME")
      ->needs(package);
  package->needs("--group");
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
  if (!arguments.group.empty()) {
    // The group's limits, from the package's plan: the draws are narrowed to them.
    io::PackagePlan plan;
    try {
      plan = io::read_package_plan(std::filesystem::path(arguments.package) / io::kPlanFileName);
    } catch (const io::UsageError& error) {
      spdlog::error("{}", error.what());
      return kExitUsage;
    }
    if (plan.game != arguments.problem) {
      spdlog::error("{} is a package of {}, not of {}", arguments.package, plan.game,
                    arguments.problem);
      return kExitUsage;
    }
    const auto group =
        std::find_if(plan.groups.begin(), plan.groups.end(),
                     [&](const io::PlanGroup& g) { return g.name == arguments.group; });
    if (group == plan.groups.end()) {
      std::string names;
      for (const io::PlanGroup& g : plan.groups)
        names += (names.empty() ? "" : ", ") + g.name;
      spdlog::error("--group {}: the plan of {} has no such group (its groups: {})",
                    arguments.group, arguments.package, names);
      return kExitUsage;
    }
    options.group_limits =
        io::test_limits(plan, static_cast<std::size_t>(group - plan.groups.begin()));
    if (const std::string problem = io::narrow_to_limits(options.game, options.group_limits);
        !problem.empty()) {
      spdlog::error("--group {}: {}", arguments.group, problem);
      return kExitUsage;
    }
  }
  if (!arguments.html_file.empty() && !html_page_writable(arguments.html_file))
    return kExitUsage;
  std::unique_ptr<io::SandboxPool> sandbox;
  if (!make_sandbox(arguments.judge, sandbox))
    return kExitUsage;
  options.sandbox = sandbox.get();
  // A source is compiled (or taken from the store beside the default answer cache) first.
  io::LanguageTable languages;
  if (!load_languages(arguments.judge, languages))
    return kExitUsage;
  std::vector<SolutionToBuild> solution =
      solutions_to_build({arguments.solution}, nullptr, languages);
  std::optional<CompiledStore> store;
  if (solution.front().source) {
    nlohmann::json compile_report;
    try {
      store.emplace(RunSettings{});
    } catch (const std::exception& error) {
      spdlog::error("{}", error.what());
      return kExitUsage;
    }
    if (!build_solutions(solution, languages, store->path(), sandbox.get(), 1, compile_report))
      return kExitUsage;
    if (stop_requested()) {
      std::fprintf(stderr, "stress: interrupted while compiling the solution\n");
      return kExitRejected;  // run_cli makes it 128 + the signal
    }
    if (const std::optional<std::string>& error = solution.front().solution.compile_error) {
      std::printf("stress: %s does not compile (CE):\n%s",
                  pipeline::terminal_safe(arguments.solution).c_str(),
                  pipeline::terminal_safe(with_final_newline(*error)).c_str());
      std::fflush(stdout);
      return kExitCounterexample;
    }
    options.solution = solution.front().solution.command;
  }
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
                                   {"sandbox", sandbox_json(arguments.judge, sandbox.get())},
                                   {"game_options", game_options}};
    page_written =
        write_html_page(arguments.html_file, pipeline::stress_page(header, options, result));
  }
  if (!result.shrunk) {
    std::printf(
        result.interrupted ? "stress: interrupted after %lld cases, all passed (seed %llu)\n"
                           : "stress: the solution passed all %lld cases (seed %llu)\n",
        static_cast<long long>(result.cases_run), static_cast<unsigned long long>(arguments.seed));
    std::fprintf(stderr, "stress: time: %.3f s%s\n", result.seconds,
                 result.interrupted ? " (interrupted)" : "");
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
              static_cast<unsigned long long>(arguments.seed),
              pipeline::terminal_safe(pipeline::describe(first)).c_str());
  std::printf("%s in %zu steps (%zu smaller cases run) to a case that fails: %s\n",
              result.interrupted ? "shrinking interrupted: shrunk" : "shrunk", result.shrink_steps,
              result.shrink_candidates_run,
              pipeline::terminal_safe(pipeline::describe(shrunk.verdict)).c_str());
  std::printf("== input%s\n%s", written ? (" (" + input_path.string() + ")").c_str() : "",
              pipeline::terminal_safe(with_final_newline(shrunk.input)).c_str());
  std::printf("== expected%s\n%s", written ? (" (" + answer_path.string() + ")").c_str() : "",
              pipeline::terminal_safe(answers).c_str());
  std::printf("== the solution's output\n%s",
              pipeline::terminal_safe(with_final_newline(shrunk.output)).c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "stress: %lld cases run, time: %.3f s%s\n",
               static_cast<long long>(result.cases_run), result.seconds,
               result.interrupted ? " (interrupted)" : "");
  return page_written ? kExitCounterexample : kExitUsage;
}

// ---- build ----

void add_build_command(CLI::App& app, BuildArguments& arguments) {
  CLI::App* build = app.add_subcommand(
      "build", "Make a problem package's test data from its plan, PACKAGE/gamebatch.toml");
  build->footer(
      "Makes every test of the plan (gen's generators, copies of the package's files, generator\n"
      "programs run in the sandbox with the test's seed as their last argument), checks each\n"
      "against the statement's limits and those of its groups, solves it exactly (through the\n"
      "answer cache, as solve) and writes it in the layout: kattis data/sample/, data/secret/\n"
      "GROUP/NAME.in and .ans with test_group.yaml; cms input/, output/ and task.yaml's groups.\n"
      "A rebuild makes only what changed (PACKAGE/.gamebatch-build.json records what the\n"
      "build wrote) and removes what the plan no longer names; files it did not write are\n"
      "never touched. Ends with one line per group (tests, largest value of each parameter,\n"
      "points) and a summary line on stderr.\n"
      "Exit status: 0 built, 1 some test broke a limit or could not be made (it is not\n"
      "written), 2 usage error (a plan error names file, line and key), 130 (143)\n"
      "interrupted by SIGINT (SIGTERM).");
  build->add_option("PACKAGE", arguments.package, "The package directory (holding gamebatch.toml)")
      ->required()
      ->check(CLI::ExistingDirectory);
  build
      ->add_option_function<std::string>(
          "--layout",
          [&arguments](const std::string& name) { arguments.layout = io::parse_layout(name); },
          "kattis or cms (default: the plan's layout, else kattis)")
      ->type_name("LAYOUT")
      ->check(CLI::IsMember({"kattis", "cms"}));
  add_judge_options(*build, arguments.judge);
  build->add_option("--cache", arguments.cache_file, "The answer cache file, as solve's")
      ->type_name("FILE");
  build->add_flag("--no-cache", arguments.no_cache, "Solve every answer; no cache");
  build->add_option("--report", arguments.report_file, "Write what was built to FILE.json")
      ->type_name("FILE");
  add_html_option(*build, arguments.html_file,
                  "Write a self-contained HTML page to FILE: the groups, their tests and limits");
}

// CLI11 of gen's game options, for a plan's `gen = "..."` entries.
struct GenEntryParser {
  CLI::App app{"gen"};
  GameOptionArguments game;
  std::int64_t cases_per_file = 1;
  GenEntryParser() {
    app.allow_windows_style_options(false);
    add_game_options(app, game);
    app.add_option("--cases-per-file", cases_per_file);
  }
};

// The maker of one `gen` entry; throws io::UsageError naming the plan's line.
pipeline::EntryMaker gen_entry_maker(const io::PackagePlan& plan, const io::PlanEntry& entry) {
  GenEntryParser parser;
  io::GenerateOptions options;
  try {
    parser.app.parse(entry.text, false);
    options.cases_per_file = parser.cases_per_file;
    options.file_count = 1;
    options.out_dir = ".";
    options = checked_generate_options(plan.game, parser.game, std::move(options));
  } catch (const CLI::Error& error) {
    throw io::UsageError(plan.file.string() + ":" + std::to_string(entry.line) + ": gen = \"" +
                         entry.text + "\": " + error.what());
  }
  pipeline::EntryMaker maker;
  maker.recipe = std::string("gen ") + kVersion + " " + entry.text;
  maker.make = [game = options.game, cases = options.cases_per_file](std::uint64_t seed,
                                                                     std::int64_t) {
    return io::generate_file_text(game, seed, 1, cases);
  };
  return maker;
}

int run_build(const BuildArguments& arguments) {
  const std::size_t threads = thread_count(arguments.judge.jobs);
  tbb::global_control thread_limit(tbb::global_control::max_allowed_parallelism, threads);
  apply_memory_budget(std::nullopt);
  const std::filesystem::path root =
      std::filesystem::absolute(arguments.package).lexically_normal();
  pipeline::BuildOptions options;
  try {
    options.plan = io::read_package_plan(root / io::kPlanFileName);
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  }
  options.problem = io::find_problem(options.plan.game);
  options.root = root;
  options.layout = arguments.layout.value_or(options.plan.layout);
  options.jobs = threads;

  // Generator programs: sources compiled once (as check's solutions), run in the sandbox.
  io::LanguageTable languages;
  if (!load_languages(arguments.judge, languages))
    return kExitUsage;
  std::unique_ptr<io::SandboxPool> sandbox;
  RunSettings settings;
  settings.cache_file = arguments.cache_file;
  settings.no_cache = arguments.no_cache;
  std::optional<CompiledStore> store;
  const pipeline::JudgeLimits limits = judge_limits(arguments.judge);
  try {
    for (std::size_t group = 0; group < options.plan.groups.size(); ++group) {
      std::vector<pipeline::EntryMaker> makers;
      for (const io::PlanEntry& entry : options.plan.groups[group].tests) {
        pipeline::EntryMaker maker;
        if (entry.kind == io::PlanEntry::Kind::gen) {
          maker = gen_entry_maker(options.plan, entry);
        } else if (entry.kind == io::PlanEntry::Kind::copy) {
          const std::filesystem::path file = root / entry.text;
          std::string content;
          try {
            content = io::read_file(file);
          } catch (const std::exception& error) {
            throw io::UsageError(options.plan.file.string() + ":" + std::to_string(entry.line) +
                                 ": copy = \"" + entry.text + "\": " + error.what());
          }
          maker.recipe = "copy " + io::hex(io::content_hash128({}, {content}));
          maker.make = [content](std::uint64_t, std::int64_t) { return content; };
        } else {
          // "PROGRAM ARGS...": a source of the package is compiled; else a command as it is.
          const std::string program = entry.text.substr(0, entry.text.find(' '));
          const std::string rest =
              entry.text.size() > program.size() ? entry.text.substr(program.size()) : "";
          std::string command = entry.text;
          std::string recipe = "run " + entry.text;
          const std::filesystem::path source = root / program;
          std::error_code error;
          if (!sandbox) {
            if (!make_sandbox(arguments.judge, sandbox))
              return kExitUsage;
          }
          if (std::filesystem::exists(source, error) &&
              io::language_of(languages, source) != nullptr) {
            if (!store)
              store.emplace(settings);
            io::BuildSettings build;
            build.store = store->path();
            build.sandbox = sandbox.get();
            const io::BuiltSolution built = io::build_solution(source, languages, build);
            if (built.compile_error) {
              spdlog::error("{}:{}: cannot compile {}:\n{}", options.plan.file.string(), entry.line,
                            program, *built.compile_error);
              return kExitUsage;
            }
            command = built.command + rest;
            recipe = "run " + built.key + rest;
          }
          maker.recipe = recipe;
          io::SandboxPool* pool = sandbox.get();
          maker.make = [command, limits, pool](std::uint64_t seed, std::int64_t) {
            const io::ProcessResult result =
                io::run_limited(command + " " + std::to_string(seed), io::StdinText{""},
                                pipeline::process_limits(limits), pool);
            if (result.end == io::ProcessEnd::interrupted)
              throw StopRequested{};
            if (result.end != io::ProcessEnd::exited || result.exit_status != 0 ||
                result.cpu_seconds > limits.time_limit_seconds) {
              std::string why = "the generator '" + command + "' failed";
              if (result.end == io::ProcessEnd::exited)
                why += " (exit status " + std::to_string(result.exit_status) + ")";
              else if (result.cpu_seconds > limits.time_limit_seconds)
                why += " (over the time limit)";
              if (!result.stderr_tail.empty())
                why += ": " + result.stderr_tail.substr(0, result.stderr_tail.find('\n'));
              throw std::runtime_error(why);
            }
            return result.output;
          };
        }
        makers.push_back(std::move(maker));
      }
      options.makers.push_back(std::move(makers));
    }
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  }
  if (!arguments.html_file.empty() && !html_page_writable(arguments.html_file))
    return kExitUsage;
  std::unique_ptr<pipeline::CacheSession> cache;
  if (!open_cache(settings, std::nullopt, *options.problem, cache))
    return kExitUsage;
  options.cache = cache.get();

  pipeline::BuildResult result;
  try {
    result = pipeline::build_package(options);
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return kExitRejected;
  }
  if (cache != nullptr) {
    cache->finish();
    cache.reset();
  }
  for (const std::string& warning : result.warnings)
    spdlog::warn("{}", warning);
  for (const std::string& failure : result.failures)
    spdlog::error("{}", failure);
  for (const std::string& line : pipeline::group_summary_lines(result))
    std::printf("%s\n", pipeline::terminal_safe(line).c_str());
  std::fflush(stdout);
  // An interrupted build exits 1, which run_cli makes 128 + the signal.
  int status = result.failures.empty() && !result.interrupted ? kExitSolved : kExitRejected;
  nlohmann::ordered_json report = {{"schema", "gamebatch-build/1"},
                                   {"gamebatch_version", kVersion},
                                   {"package", root.string()},
                                   {"game", options.plan.game},
                                   {"layout", io::layout_name(options.layout)}};
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  for (const pipeline::GroupSummary& group : result.groups) {
    nlohmann::ordered_json largest = nlohmann::ordered_json::object();
    for (const auto& [parameter, value] : group.largest) {
      if (value >= 0)
        largest[parameter] = value;
    }
    groups.push_back({{"name", group.name},
                      {"tests", group.tests},
                      {"score", group.score},
                      {"largest", largest}});
  }
  report["groups"] = groups;
  report["tests"] = result.tests;
  report["made"] = result.made;
  report["unchanged"] = result.unchanged;
  report["files_written"] = result.written;
  report["files_removed"] = result.removed;
  report["failures"] = result.failures;
  report["warnings"] = result.warnings;
  report["interrupted"] = result.interrupted;
  report["seconds"] = result.seconds;
  if (!arguments.report_file.empty()) {
    try {
      io::write_file_atomically(arguments.report_file, report.dump(2) + "\n");
    } catch (const std::exception& error) {
      spdlog::error("cannot write the report {}: {}", arguments.report_file, error.what());
      status = kExitRejected;
    }
  }
  if (!arguments.html_file.empty() &&
      !write_html_page(arguments.html_file,
                       pipeline::build_page(nlohmann::json::parse(report.dump()))))
    status = kExitRejected;
  std::fprintf(stderr, "%s\n", pipeline::build_summary_line(result).c_str());
  return status;
}

}  // namespace

void add_setter_commands(CLI::App& app, SetterArguments& arguments) {
  add_validate_command(app, arguments.validate);
  add_check_command(app, arguments.check);
  add_stress_command(app, arguments.stress);
  add_build_command(app, arguments.build);
}

int run_setter_command(const CLI::App& app, const SetterArguments& arguments) {
  if (app.got_subcommand("validate"))
    return run_validate(arguments.validate);
  if (app.got_subcommand("check"))
    return run_check(arguments.check);
  if (app.got_subcommand("stress"))
    return run_stress(arguments.stress);
  if (app.got_subcommand("build"))
    return run_build(arguments.build);
  return -1;
}

}  // namespace gamebatch::cli
