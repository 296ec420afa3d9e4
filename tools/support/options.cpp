#include "tools/support/options.hpp"

#include <cstdio>
#include <filesystem>

#include "io/files/input_set.hpp"
#include "io/files/shard.hpp"
#include "io/problem.hpp"
#include "pipeline/answers/cache_session.hpp"
#include "pipeline/machine.hpp"

namespace gamebatch::cli {
namespace {

// What `--sandbox-info` prints: what this machine allows (exit 0), or why not (exit 2).
[[noreturn]] void print_sandbox_info(const pipeline::JudgeSettings& judge) {
  bool available = false;
  const std::string text = pipeline::sandbox_info_text(judge, available);
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  if (available)
    throw CLI::Success();
  throw CLI::RuntimeError(2);
}

void add_sandbox_options(CLI::App& command, JudgeOptions& judge) {
  CLI::Option* off = command.add_flag(
      "--no-sandbox", judge.settings.no_sandbox,
      "Run the programs as today's user would, uncontained: they can read and write whatever\n"
      "that user can. Without it each run is in a sandbox: its own user (nobody, without\n"
      "privileges), mount, PID, network, IPC and UTS namespaces; a read-only view of the\n"
      "system (/usr, /bin, /lib*, parts of /etc), of the files its command names and of\n"
      "--sandbox-bind; a private working directory and /tmp; no network; nothing of it left\n"
      "running after it");
  command
      .add_option("--sandbox-bind", judge.settings.sandbox_binds,
                  "Show PATH (a file or directory) to the programs too, read-only, at the same\n"
                  "path; give it once per path")
      ->type_name("PATH")
      ->check(CLI::ExistingPath)
      ->excludes(off);
  command
      .add_option("--sandbox-disk", judge.settings.sandbox_disk,
                  "Scratch space of one run (its working directory and /tmp together), in MB;\n"
                  "a run that fills it is stopped and judged RE (disk limit)")
      ->type_name("MB")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20))
      ->excludes(off);
  command
      .add_option("--max-processes", judge.settings.max_processes,
                  "Processes and threads one run may have at once; a run that reaches it is\n"
                  "stopped and judged RE (process limit)")
      ->type_name("N")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20))
      ->excludes(off);
  command
      .add_flag_callback(
          "--sandbox-info", [&judge] { print_sandbox_info(judge.settings); },
          "Print what the sandbox can do on this machine (exit 0), or why it cannot (exit 2)")
      ->trigger_on_parse();
}

}  // namespace

std::string game_list_help() {
  // One column of names, the summaries beside them, wrapped within 100 columns.
  constexpr std::size_t kWidth = 100;
  std::size_t name_width = 0;
  for (const io::Problem* problem : io::all_problems())
    name_width = std::max(name_width, problem->name().size());
  const std::size_t indent = 2 + name_width + 2;
  std::string list;
  for (const io::Problem* problem : io::all_problems()) {
    std::string line = "  " + std::string(problem->name());
    line.resize(indent, ' ');
    std::size_t column = indent;
    std::string_view rest = problem->summary();
    while (!rest.empty()) {
      const std::size_t space = rest.find(' ');
      const std::string_view word = rest.substr(0, space);
      if (column > indent && column + 1 + word.size() > kWidth) {
        line += "\n" + std::string(indent, ' ');
        column = indent;
      } else if (column > indent) {
        line += ' ';
        ++column;
      }
      line += word;
      column += word.size();
      rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
    }
    list += "\n" + line;
  }
  return list;
}

void add_problem_option(CLI::App& command, std::string& problem, const std::string& help,
                        bool required) {
  std::vector<std::string> names;
  for (const io::Problem* game : io::all_problems())
    names.emplace_back(game->name());
  command.add_option("--problem,-p", problem, help + game_list_help())
      ->required(required)
      ->type_name("GAME")
      ->check(CLI::IsMember(names));
}

void add_paths_option(CLI::App& command, std::vector<std::string>& paths) {
  command
      .add_option("PATH", paths,
                  "Input files (any name) and directories (walked recursively for *.in files, or\n"
                  "for a problem package's inputs: see --layout); - is one input read from stdin\n"
                  "(solve writes its answers to stdout). Use -- before paths that start with a\n"
                  "dash.")
      ->type_name("")
      ->required();
}

void add_layout_option(CLI::App& command, std::optional<io::Layout>& layout) {
  command
      .add_option_function<std::string>(
          "--layout", [&layout](const std::string& name) { layout = io::parse_layout(name); },
          "Read directories as problem packages of this layout, which says where the inputs\n"
          "are and how their answer files are named:\n"
          "  kattis   data/.../X.in -> X.ans (problem.yaml, data/sample/, data/secret/)\n"
          "  polygon  tests/NN -> tests/NN.a (problem.xml)\n"
          "  cms      input/inputN.txt -> output/outputN.txt (task.yaml)\n"
          "A file argument's answer is named by the layout too. Without --layout a directory\n"
          "holding a package's marks (in parentheses) is read as that package, and a plain\n"
          "directory as ever (every *.in file, X.in -> X.ans); a directory with the marks of\n"
          "two layouts is an error that --layout settles")
      ->type_name("LAYOUT")
      ->check(CLI::IsMember({"kattis", "polygon", "cms"}));
}

void add_html_option(CLI::App& command, std::string& file, const std::string& help) {
  command.add_option("--html", file, help)->type_name("FILE")->check([](const std::string& path) {
    return path.empty() ? std::string("the HTML file name must not be empty") : "";
  });
}

std::string check_size(const std::string& text) {
  return pipeline::parse_size(text)
             ? std::string()
             : "'" + text + "' is not a size (such as 3G, 3Gi, 512M or 0 for none)";
}

namespace {

// --cache, --no-cache, --strict-cache, --checkpoint and --cache-min-solve-us.
void add_cache_options(CLI::App& command, pipeline::RunSettings& settings) {
  const std::optional<std::filesystem::path> default_cache = pipeline::default_cache_path();
  CLI::Option* cache_option =
      command
          .add_option("--cache", settings.cache_file,
                      "The answer cache file (default: " +
                          (default_cache ? default_cache->string()
                                         : std::string("none: neither XDG_CACHE_HOME nor HOME "
                                                       "is set")) +
                          ")")
          ->type_name("FILE")
          ->check([](const std::string& path) {
            return path.empty() ? std::string("the cache file name must not be empty") : "";
          });
  command.add_flag("--no-cache", settings.no_cache, "Solve every case; read and write no cache")
      ->excludes(cache_option);
  command.add_flag("--strict-cache", settings.strict_cache,
                   "A cache file that cannot be trusted is an error (exit 2) instead of being set\n"
                   "aside as FILE.bad with a warning");
  command
      .add_option("--checkpoint", settings.checkpoint_seconds,
                  "Commit new answers to the cache every SECONDS during the run (0: at the end\n"
                  "only); a killed run keeps what it committed")
      ->type_name("SECONDS")
      ->default_val(5)
      ->check(CLI::Range(0.0, 1e9));
  command
      .add_option(
          "--cache-min-solve-us", settings.cache_min_solve_us,
          "Cases the game expects to solve in less than N microseconds (estimated from the\n"
          "case's size) are neither looked up in the cache nor stored: solving them again is\n"
          "cheaper. 0 caches every case. The default, 70, is four times what hashing, a\n"
          "look-up and a store cost in a cache of a million entries (measured by\n"
          "tools/bench/cache_bench.sh), so a cold run costs at most 25% more than without a cache")
      ->type_name("N")
      ->default_val(pipeline::kDefaultCacheMinSolveMicroseconds)
      ->check(CLI::Range(0.0, 1e9));
}

// --report, --html and --quiet.
void add_report_options(CLI::App& command, pipeline::RunSettings& settings) {
  command
      .add_option(
          "--report", settings.report_file,
          "Write a JSON report of the run to FILE: per file its status, cases, cache hits,\n"
          "solve time and error; totals; the version and options")
      ->type_name("FILE")
      ->check([](const std::string& path) {
        return path.empty() ? std::string("the report file name must not be empty") : "";
      });
  add_html_option(command, settings.html_file,
                  "Write a self-contained HTML page of the run to FILE: the summary, a histogram\n"
                  "of per-file solve time per game, the slowest files, cached vs solved, rejected\n"
                  "files, the options (no network or scripts needed to view it)");
  command.add_flag("--quiet,-q", settings.quiet,
                   "No progress line (it is only drawn when stderr is a terminal)");
}

// --shard and --mpi: a share of the inputs, or one rank of an MPI job.
void add_cluster_options(CLI::App& command, pipeline::RunSettings& settings) {
  command
      .add_option_function<std::string>(
          "--shard",
          [&settings](const std::string& text) {
            settings.shard = io::parse_shard(text);
            if (!settings.shard)
              throw CLI::ValidationError("--shard", "expected I/N with 1 <= I <= N, found " + text);
          },
          "Solve only shard I of N of the inputs (by a stable hash of each input's path\n"
          "relative to its PATH argument); the cache file gets the suffix .shard-I-of-N.\n"
          "Default inside a Slurm job array: I = SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN + 1,\n"
          "N = SLURM_ARRAY_TASK_COUNT")
      ->type_name("I/N");
  command.add_flag(
      "--mpi", settings.mpi,
      "Run as one rank of an MPI job: `mpirun -np R gamebatch solve --mpi ...` (or\n"
      "`srun --mpi=pmix` inside a Slurm allocation) solves the inputs over R ranks on any\n"
      "number of machines, each rank on --jobs threads, handing out cases on demand. Rank 0\n"
      "reads the inputs, owns the cache, writes every answer file and prints the summary;\n"
      "the other ranks only solve. Not with --shard");
}

}  // namespace

void add_run_settings_options(CLI::App& command, pipeline::RunSettings& settings) {
  command
      .add_option("--jobs,-j", settings.jobs,
                  "Threads to use at most (0, the default: all cores). Answers are the same for\n"
                  "every N.")
      ->type_name("N")
      ->check(CLI::Range(0, 1 << 16));
  add_cache_options(command, settings);
  command
      .add_option_function<std::string>(
          "--memory-budget",
          [&settings](const std::string& text) {
            settings.memory_budget = pipeline::parse_size(text);
          },
          "Bytes the games may keep between cases, such as 3G or 3Gi (0: no bound; default:\n"
          "half of the machine's memory, or of its cgroup's limit). Beyond it doublemove drops\n"
          "the state tables used least recently and makes them again when needed; a case whose\n"
          "table alone is larger fails, naming the budget. Not --memory-limit of check, which\n"
          "limits the programs under test")
      ->type_name("SIZE")
      ->check(check_size);
  add_report_options(command, settings);
  add_cluster_options(command, settings);
}

void add_judge_options(CLI::App& command, JudgeOptions& judge) {
  judge.time_limit_option =
      command
          .add_option(
              "--time-limit", judge.settings.time_limit,
              "CPU time limit of one run, in seconds (user + system time of the solution's\n"
              "processes). Runs that go over it while others run are run again alone.\n"
              "A problem package's own limit (problem.yaml limits: time_limit) is used\n"
              "when this is not given")
          ->type_name("SECONDS")
          ->capture_default_str()
          ->check(CLI::Range(0.001, 1e6));
  command
      .add_option(
          "--languages", judge.settings.languages_file,
          "A TOML file whose [languages] table changes how sources are compiled and run\n"
          "(a run config holding one will do): [languages.cpp] compile = \"g++ ... -o\n"
          "{binary} {files}\", run = \"{binary}\", extensions = [\".cpp\"]; a new name adds\n"
          "a language. Placeholders: {files} {mainfile} {mainclass} {binary}")
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
  judge.memory_limit_option =
      command
          .add_option("--memory-limit", judge.settings.memory_limit,
                      "Peak resident memory limit of one run, in MB (2^20 bytes), summed over its\n"
                      "processes and watched while it runs (default: a problem package's own\n"
                      "limit, else none)")
          ->type_name("MB")
          ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 30));
  command
      .add_option(
          "--output-limit", judge.settings.output_limit,
          "Standard output kept from one run, in MB; a run that writes more is stopped and\n"
          "judged WA")
      ->type_name("MB")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20));
  command
      .add_option("--jobs,-j", judge.settings.jobs,
                  "Runs at once (0, the default: one per core). Parallel runs share caches and\n"
                  "memory bandwidth, so their times can be longer than alone")
      ->type_name("N")
      ->check(CLI::Range(0, 1 << 16));
  add_sandbox_options(command, judge);
}

pipeline::JudgeSettings JudgeOptions::parsed() const {
  pipeline::JudgeSettings parsed_settings = settings;
  parsed_settings.time_limit_given = time_limit_option != nullptr && time_limit_option->count() > 0;
  parsed_settings.memory_limit_given =
      memory_limit_option != nullptr && memory_limit_option->count() > 0;
  return parsed_settings;
}

}  // namespace gamebatch::cli
