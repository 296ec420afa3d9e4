// `gamebatch table GAME --max-n N`: a game's hardcoded answer table, for a reference solution
// (io/doublemove/table.hpp makes it).
#include <cstdio>
#include <memory>
#include <string>

#include <oneapi/tbb/global_control.h>
#include <spdlog/spdlog.h>

#include "core/stop_request.hpp"
#include "io/doublemove/table.hpp"
#include "pipeline/machine.hpp"
#include "pipeline/version.hpp"
#include "tools/support/command.hpp"

namespace gamebatch::cli {
namespace {

struct TableArguments {
  std::string game;
  int max_n = 0;
  std::string format = "cpp";
  int jobs = 0;
};

CLI::App* add_table_command(CLI::App& app, TableArguments& arguments) {
  CLI::App* table = app.add_subcommand(
      "table", "Print a game's hardcoded answer table (for a reference solution) on stdout");
  table->footer(
      "doublemove: the k = 0 answers for n = 1..N (no declaration given), as a C++17 header\n"
      "with a constexpr array indexed by n, as JSON, or as CSV. The table is printed whole or\n"
      "not at all.\n"
      "Exit status: 0 printed, 1 stdout could not be written, 2 usage error, 130 (143)\n"
      "interrupted by SIGINT (SIGTERM).");
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
  table
      ->add_option("--jobs,-j", arguments.jobs,
                   "Threads to use at most (0, the default: all cores). The table is the same for\n"
                   "every N.")
      ->type_name("N")
      ->check(CLI::Range(0, 1 << 16));
  table->add_option("--format", arguments.format, "cpp, json or csv")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"cpp", "json", "csv"}))
      ->capture_default_str();
  return table;
}

int run_table(const TableArguments& arguments) {
  const auto format = io::doublemove::parse_table_format(arguments.format);
  tbb::global_control thread_limit(tbb::global_control::max_allowed_parallelism,
                                   pipeline::thread_count(arguments.jobs));
  try {
    std::fputs(io::doublemove::k0_table(arguments.max_n, *format, pipeline::kVersion).c_str(),
               stdout);
  } catch (const StopRequested&) {
    spdlog::error("table: interrupted before the table was whole; nothing written");
    return kExitRejected;  // the caller reports 128 + the signal
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  }
  return std::fflush(stdout) == 0 ? kExitSolved : kExitRejected;
}

}  // namespace

std::unique_ptr<Command> make_table_command() {
  return std::make_unique<CommandOf<TableArguments, add_table_command, run_table>>();
}

}  // namespace gamebatch::cli
