// `gamebatch explain -p GAME FILE [--case K]`: the optimal play of a case, turn by turn (the
// engine: pipeline/solve/explain_job.hpp).
#include <cstdio>
#include <memory>
#include <string>

#include "pipeline/report/terminal_text.hpp"
#include "pipeline/solve/explain_job.hpp"
#include "tools/support/command.hpp"
#include "tools/support/options.hpp"

namespace gamebatch::cli {
namespace {

CLI::App* add_explain_command(CLI::App& app, pipeline::ExplainSettings& arguments) {
  CLI::App* explain = app.add_subcommand(
      "explain", "Print the optimal play of a case, turn by turn, ending with its answer");
  explain->footer(
      "Reconstructs the play from the game's solver; ties go to the lowest-numbered move, so\n"
      "the line is the same at every --jobs. willow: A's start and B's reply, each move with\n"
      "the coins taken and the score; doublemove: each declaration still to come, the\n"
      "components it makes and Alice's winning sequences after it; wallgame: Rabbit's moves\n"
      "and Eel's walls with the running total; boigame: both players' moves and jumps until\n"
      "one wins. willow's starts come from the solver's search; in the rare tree where the\n"
      "solver answers by its slower exhaustive method instead, a case whose starts would take\n"
      "more than 4 x 10^8 steps to find pair by pair is refused; boigame refuses a board whose\n"
      "layer tables pass 1 GiB.\n"
      "Exit status: 0 explained, 1 some case could not be explained, 2 usage error (a file\n"
      "that cannot be read or is no input of the game, --case out of range).");
  add_problem_option(*explain, arguments.problem, "The game:");
  explain->add_option("FILE", arguments.path, "An input file of the game (-: stdin)")
      ->required()
      ->type_name("FILE");
  explain
      ->add_option("--case", arguments.case_number,
                   "Explain case K alone (1-based; default: every case)")
      ->type_name("K")
      ->check(CLI::PositiveNumber);
  explain
      ->add_option("--svg", arguments.svg_file,
                   "Also draw the case (--case K, default 1) as gamebatch draw does, into FILE.svg")
      ->type_name("FILE.svg");
  explain
      ->add_option("--jobs,-j", arguments.jobs,
                   "Threads to use at most (0, the default: all cores). The line is the same\n"
                   "for every N.")
      ->type_name("N")
      ->check(CLI::Range(0, 1 << 16));
  return explain;
}

int run_explain(const pipeline::ExplainSettings& arguments) {
  return exit_status(pipeline::explain_cases(arguments, [](const std::string& text) {
    pipeline::write_terminal_safe(stdout, text);
    std::fflush(stdout);
  }));
}

class ExplainCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override { return add_explain_command(app, arguments_); }
  int run() override { return run_explain(arguments_); }
  // Safe to kill at any point: it writes nothing but its output.
  bool stops_cleanly() const override { return false; }

 private:
  pipeline::ExplainSettings arguments_;
};

}  // namespace

std::unique_ptr<Command> make_explain_command() {
  return std::make_unique<ExplainCommand>();
}

}  // namespace gamebatch::cli
