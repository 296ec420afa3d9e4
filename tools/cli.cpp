#include "tools/cli.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "io/doublemove/table.hpp"
#include "io/input_set.hpp"
#include "io/problem.hpp"
#include "pipeline/cache_session.hpp"
#include "pipeline/solve_run.hpp"
#include "tools/cache_commands.hpp"

namespace gamebatch::cli {
namespace {

constexpr const char* kVersion = "0.1.0";

void set_up_logging() {
  auto logger = spdlog::stderr_logger_mt("gamebatch");  // the cache checkpoints log from a thread
  logger->set_pattern("gamebatch: %l: %v");
  spdlog::set_default_logger(logger);
}

std::string problem_list() {
  std::string list;
  for (const io::Problem* problem : io::all_problems()) {
    list += "\n  " + std::string(problem->name()) + "  " + std::string(problem->summary());
  }
  return list;
}

struct SolveArguments {
  std::string problem;
  int jobs = 0;
  std::string out_dir;
  std::vector<std::string> paths;
  std::string cache_file;
  bool no_cache = false;
  bool strict_cache = false;
  double checkpoint_seconds = 30;
};

void add_solve_command(CLI::App& app, SolveArguments& arguments) {
  CLI::App* solve = app.add_subcommand("solve", "Solve input files and write their answer files");
  solve->footer(
      "For X.in the answers go to X.ans (other names get .ans appended), beside the input or\n"
      "under --out DIR at the input's path relative to its PATH argument. An answer file holds\n"
      "the official output of all the file's cases in order; it is written whole (temporary\n"
      "file, then rename) or, for a rejected input, not at all (a stale one is removed).\n"
      "Each rejected input is reported on stderr as FILE:LINE: what was expected there.\n"
      "Answers are cached by content (game, solver version, the case in canonical form), so a\n"
      "rerun solves only new or changed cases. The cache is saved atomically at the end and\n"
      "every --checkpoint seconds; runs sharing a cache take turns (file lock) and merge.\n"
      "The run ends with one line: files: F cases: C solved: S cached: H rejected: R time: T s\n"
      "Exit status: 0 all inputs solved, 1 some input rejected (the others were still solved),\n"
      "2 usage error.");
  std::vector<std::string> names;
  for (const io::Problem* problem : io::all_problems())
    names.emplace_back(problem->name());
  solve->add_option("--problem,-p", arguments.problem, "The game of the inputs:" + problem_list())
      ->required()
      ->type_name("GAME")
      ->check(CLI::IsMember(names));
  solve
      ->add_option("--jobs,-j", arguments.jobs,
                   "Threads to use at most (default: all cores). Answers are the same for every N.")
      ->type_name("N")
      ->check(CLI::Range(1, 1 << 16));
  solve
      ->add_option("--out,-o", arguments.out_dir,
                   "Write answer files under DIR instead of beside the inputs.")
      ->type_name("DIR");
  const std::optional<std::filesystem::path> default_cache = pipeline::default_cache_path();
  CLI::Option* cache_option =
      solve
          ->add_option("--cache", arguments.cache_file,
                       "The answer cache file (default: " +
                           (default_cache ? default_cache->string()
                                          : std::string("none: neither XDG_CACHE_HOME nor HOME "
                                                        "is set")) +
                           ")")
          ->type_name("FILE")
          ->check([](const std::string& path) {
            return path.empty() ? std::string("the cache file name must not be empty") : "";
          });
  solve->add_flag("--no-cache", arguments.no_cache, "Solve every case; read and write no cache")
      ->excludes(cache_option);
  solve->add_flag("--strict-cache", arguments.strict_cache,
                  "A cache file that cannot be trusted is an error (exit 2) instead of being set\n"
                  "aside as FILE.bad with a warning");
  solve
      ->add_option("--checkpoint", arguments.checkpoint_seconds,
                   "Save the cache every SECONDS during the run (0: at the end only)")
      ->type_name("SECONDS")
      ->default_val(30)
      ->check(CLI::Range(0.0, 1e9));
  solve
      ->add_option("PATH", arguments.paths,
                   "Input files (any name) and directories (walked recursively for *.in files).\n"
                   "Use -- before paths that start with a dash.")
      ->type_name("")
      ->required();
}

int run_solve(const SolveArguments& arguments) {
  const auto started = std::chrono::steady_clock::now();
  pipeline::SolveOptions options;
  options.problem = io::find_problem(arguments.problem);
  std::optional<std::filesystem::path> out_dir;
  if (!arguments.out_dir.empty())
    out_dir = arguments.out_dir;
  try {
    options.inputs = io::collect_inputs(arguments.paths, out_dir);
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  }
  std::unique_ptr<pipeline::CacheSession> cache;
  if (!arguments.no_cache) {
    pipeline::CacheOptions cache_options;
    if (!arguments.cache_file.empty()) {
      cache_options.path = arguments.cache_file;
    } else if (const auto default_path = pipeline::default_cache_path()) {
      cache_options.path = *default_path;
    } else {
      spdlog::warn("no answer cache: neither XDG_CACHE_HOME nor HOME is set (use --cache FILE)");
    }
    cache_options.strict = arguments.strict_cache;
    cache_options.checkpoint_interval = std::chrono::duration<double>(arguments.checkpoint_seconds);
    if (!cache_options.path.empty()) {
      try {
        cache = std::make_unique<pipeline::CacheSession>(cache_options, *options.problem);
      } catch (const pipeline::CacheUnusable& error) {
        spdlog::error("{}", error.what());
        return kExitUsage;
      } catch (const std::exception& error) {
        if (!arguments.cache_file.empty() || arguments.strict_cache) {
          spdlog::error("cannot use the answer cache {}: {}", cache_options.path.string(),
                        error.what());
          return kExitUsage;
        }
        // The default location is not the user's choice: its trouble must not stop the run.
        spdlog::warn("cannot use the default answer cache {} ({}); going on without a cache",
                     cache_options.path.string(), error.what());
      }
    }
    if (cache != nullptr) {
      options.cache = &cache->cache();
      cache->start_checkpoints();
    }
  }
  const int threads = arguments.jobs > 0 ? arguments.jobs : tbb::info::default_concurrency();
  tbb::global_control thread_limit(tbb::global_control::max_allowed_parallelism,
                                   static_cast<std::size_t>(threads));
  const pipeline::RunSummary summary = pipeline::run_solve(options);
  if (cache != nullptr) {
    cache->finish();
    // Freeing a map of a million entries one by one takes longer than the process exit does.
    // Volatile, so that the pointer stays in memory where leak checkers see it reachable.
    [[maybe_unused]] static pipeline::CacheSession* volatile kept_until_exit = nullptr;
    kept_until_exit = cache.release();
  }
  // The whole command's time, finding inputs and loading and saving the cache included.
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::fprintf(stderr, "files: %zu cases: %zu solved: %zu cached: %zu rejected: %zu time: %.3f s\n",
               summary.files, summary.cases, summary.solved, summary.cached, summary.rejected,
               seconds);
  return summary.rejected == 0 ? kExitSolved : kExitRejected;
}

struct TableArguments {
  std::string game;
  int max_n = 0;
  std::string format = "cpp";
};

void add_table_command(CLI::App& app, TableArguments& arguments) {
  CLI::App* table = app.add_subcommand(
      "table", "Print a game's hardcoded answer table (for a reference solution) on stdout");
  table->footer(
      "doublemove: the k = 0 answers for n = 1..N (no declaration given), as a C++17 header\n"
      "with a constexpr array indexed by n, as JSON, or as CSV.");
  table->add_option("GAME", arguments.game, "The game: doublemove")
      ->required()
      ->type_name("")
      ->check(CLI::IsMember({"doublemove"}));
  table
      ->add_option("--max-n", arguments.max_n,
                   "The largest n in the table (at most " +
                       std::to_string(gamebatch::doublemove::kMaxN) + ")")
      ->required()
      ->type_name("N")
      ->check(CLI::Range(1, gamebatch::doublemove::kMaxN));
  table->add_option("--format", arguments.format, "cpp, json or csv")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"cpp", "json", "csv"}))
      ->capture_default_str();
}

int run_table(const TableArguments& arguments) {
  const auto format = io::doublemove::parse_table_format(arguments.format);
  try {
    std::fputs(io::doublemove::k0_table(arguments.max_n, *format, kVersion).c_str(), stdout);
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  }
  return std::fflush(stdout) == 0 ? kExitSolved : kExitRejected;
}

}  // namespace

int run_cli(int argc, char** argv) {
  set_up_logging();
  CLI::App app(
      "gamebatch: exact answers for large test sets of two-player game problems.\n"
      "Games:" +
          problem_list(),
      "gamebatch");
  app.set_version_flag("--version", std::string("gamebatch ") + kVersion);
  app.require_subcommand(1);
  SolveArguments solve_arguments;
  add_solve_command(app, solve_arguments);
  CacheArguments cache_arguments;
  add_cache_commands(app, cache_arguments);
  TableArguments table_arguments;
  add_table_command(app, table_arguments);
  app.footer(
      "Exit status: 0 all inputs solved, 1 some input rejected (the others were still\n"
      "solved), 2 usage error. Run 'gamebatch solve --help' for the options of solve.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int status = app.exit(error);  // prints help, version, or the error
    return status == 0 ? kExitSolved : kExitUsage;
  }
  if (app.got_subcommand("solve"))
    return run_solve(solve_arguments);
  if (app.got_subcommand("cache"))
    return run_cache_command(app, cache_arguments);
  if (app.got_subcommand("table"))
    return run_table(table_arguments);
  return kExitUsage;
}

}  // namespace gamebatch::cli
