#include "tools/cli.hpp"

#include <cstdio>
#include <string>

#include <oneapi/tbb/info.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "io/doublemove/table.hpp"
#include "io/problem.hpp"
#include "tools/cache_commands.hpp"
#include "tools/gen_command.hpp"
#include "tools/run_config.hpp"
#include "tools/setter_commands.hpp"
#include "tools/solve_command.hpp"
#include "tools/version.hpp"

namespace gamebatch::cli {
namespace {

void set_up_logging() {
  auto logger = spdlog::stderr_logger_mt("gamebatch");  // the cache checkpoints log from a thread
  logger->set_pattern(kLogPattern);
  spdlog::set_default_logger(logger);
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

std::size_t thread_count(int jobs) {
  return static_cast<std::size_t>(jobs > 0 ? jobs : tbb::info::default_concurrency());
}

int run_cli(int argc, char** argv) {
  set_up_logging();
  CLI::App app(
      "gamebatch: exact answers for large test sets of two-player game problems.\n"
      "Games:" +
          game_list_help(),
      "gamebatch");
  app.set_version_flag("--version", std::string("gamebatch ") + kVersion);
  app.require_subcommand(1);
  SolveJob solve_job;
  RunSettings solve_settings;
  add_solve_command(app, solve_job, solve_settings);
  RunArguments run_arguments;
  add_run_command(app, run_arguments);
  GenArguments gen_arguments;
  add_gen_command(app, gen_arguments);
  CacheArguments cache_arguments;
  add_cache_commands(app, cache_arguments);
  TableArguments table_arguments;
  add_table_command(app, table_arguments);
  SetterArguments setter_arguments;
  add_setter_commands(app, setter_arguments);
  app.footer(
      "Exit status: 0 all inputs solved, 1 some input rejected (the others were still\n"
      "solved), 2 usage or configuration error. 'gamebatch SUBCOMMAND --help' tells more.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int status = app.exit(error);  // prints help, version, or the error
    return status == 0 ? kExitSolved : kExitUsage;
  }
  if (app.got_subcommand("solve"))
    return run_solve_command(solve_job, solve_settings);
  if (app.got_subcommand("run"))
    return run_run_command(run_arguments);
  if (app.got_subcommand("gen"))
    return run_gen_command(gen_arguments);
  if (app.got_subcommand("cache"))
    return run_cache_command(app, cache_arguments);
  if (app.got_subcommand("table"))
    return run_table(table_arguments);
  if (const int status = run_setter_command(app, setter_arguments); status >= 0)
    return status;
  return kExitUsage;
}

}  // namespace gamebatch::cli
