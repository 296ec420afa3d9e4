#include "tools/cli.hpp"

#include <memory>
#include <string>
#include <vector>

#include "io/run/stop_signals.hpp"
#include "pipeline/report/logging.hpp"
#include "pipeline/version.hpp"
#include "tools/support/command.hpp"
#include "tools/support/options.hpp"

namespace gamebatch::cli {

int run_cli(int argc, char** argv) {
  pipeline::set_up_logging();
  CLI::App app(
      "gamebatch: exact answers for large test sets of two-player game problems.\n"
      "Games:" +
          game_list_help(),
      "gamebatch");
  app.set_version_flag("--version", std::string("gamebatch ") + pipeline::kVersion);
  app.require_subcommand(1);
  std::vector<std::unique_ptr<Command>> commands;
  for (auto* make : {make_solve_command, make_run_command, make_gen_command, make_cache_command,
                     make_table_command, make_validate_command, make_validator_command,
                     make_check_command, make_stress_command, make_build_command,
                     make_strength_command, make_explain_command, make_draw_command})
    commands.push_back(make());
  std::vector<CLI::App*> subcommands;
  for (const std::unique_ptr<Command>& command : commands)
    subcommands.push_back(command->add_to(app));
  app.footer(
      "Exit status: 0 done; 1 what each command names (solve, run: some input rejected, the\n"
      "others still solved; validate: some file is not valid; check: some solution does not\n"
      "get what it must; stress: a counterexample found; build: some test not made; explain,\n"
      "draw: a case too large to reconstruct); 2 usage or configuration error; 130 (143) a long\n"
      "command interrupted by SIGINT (SIGTERM). 'gamebatch SUBCOMMAND --help' tells more.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int status = app.exit(error);  // prints help, version, or the error
    return status == 0 ? kExitSolved : kExitUsage;
  }
  for (std::size_t k = 0; k < commands.size(); ++k) {
    if (!subcommands[k]->parsed())
      continue;
    if (!commands[k]->stops_cleanly())
      return commands[k]->run();
    // The long commands stop cleanly on the first SIGINT or SIGTERM and then exit with 128 + the
    // signal, whatever they would have said otherwise.
    io::stop_on_signals();
    const int status = commands[k]->run();
    if (const int stopped = io::stop_exit_status(); stopped != 0)
      return stopped;
    return status;
  }
  return kExitUsage;
}

}  // namespace gamebatch::cli
