// `gamebatch validator GAME [--limits "N=1..80 ..."]`: prints the game's standalone input
// validator, a C++17 program (the engine: pipeline/validator_job.hpp).
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <spdlog/spdlog.h>

#include "io/format/strict_format.hpp"
#include "io/problem.hpp"
#include "pipeline/package/validator_job.hpp"
#include "tools/support/command.hpp"

namespace gamebatch::cli {
namespace {

// "willow: --T 1..50 --N 2..4000 --C 0..10000": each game's limited parameters, in the statement's
// order, with the statement's ranges.
std::string parameters_text() {
  std::string text;
  for (const io::Problem* problem : io::all_problems()) {
    const std::map<std::string, gamebatch_strict::Range> ranges =
        io::statement_ranges(problem->name());
    if (ranges.empty())
      continue;
    text += "  " + std::string(problem->name()) + ":";
    for (const std::string_view parameter : problem->parameters()) {
      if (const auto found = ranges.find(std::string(parameter)); found != ranges.end())
        text += " --" + found->first + " " + gamebatch_strict::show(found->second);
    }
    text += "\n";
  }
  return text;
}

CLI::App* add_validator_command(CLI::App& app, pipeline::ValidatorSettings& arguments) {
  CLI::App* validator = app.add_subcommand(
      "validator", "Print a game's input validator: one C++17 file for a problem package");
  validator->footer(
      "The program accepts exactly what `gamebatch validate` accepts: the statement's format\n"
      "byte for byte (one space between tokens, '\\n' line ends, a final newline, no blank\n"
      "line, integers without '+' or leading zeros) and its limits. It reads the input on\n"
      "stdin and exits 42 when it is valid, 43 when not (line, column, rule and message on\n"
      "stderr), 2 for arguments it does not know. `--PARAM MIN..MAX` arguments narrow a limit\n"
      "(a group's flags); --limits makes them the defaults; its --help lists them. The\n"
      "parameters, with the statement's ranges:\n" +
      parameters_text() +
      "Build: g++ -std=c++17 -O2 -o validate validate.cpp\n"
      "Exit status: 0 printed, 2 usage error (an unknown game or parameter, a bad range).");
  validator->add_option("GAME", arguments.problem, "The game")->required()->type_name("");
  validator
      ->add_option("--limits", arguments.limits,
                   "A group's limits as the program's defaults: \"N=1..80 C=0..100\"")
      ->type_name("LIMITS");
  return validator;
}

int run_validator_command(const pipeline::ValidatorSettings& arguments) {
  const pipeline::ValidatorResult result = pipeline::write_validator(arguments);
  if (result.outcome != pipeline::Outcome::done) {
    spdlog::error("{}", result.error);
    return exit_status(result.outcome);
  }
  std::fputs(result.source.c_str(), stdout);
  return std::fflush(stdout) == 0 ? kExitSolved : kExitRejected;
}

}  // namespace

std::unique_ptr<Command> make_validator_command() {
  return std::make_unique<
      CommandOf<pipeline::ValidatorSettings, add_validator_command, run_validator_command>>();
}

}  // namespace gamebatch::cli
