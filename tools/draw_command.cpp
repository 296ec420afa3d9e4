// `gamebatch draw -p GAME FILE [--case K] -o FILE.svg`: a case and its optimal play as an SVG
// picture, for statements and editorials (the engine: pipeline/solve/explain_job.hpp).
#include <memory>
#include <string>

#include "pipeline/solve/explain_job.hpp"
#include "tools/support/command.hpp"
#include "tools/support/options.hpp"

namespace gamebatch::cli {
namespace {

CLI::App* add_draw_command(CLI::App& app, pipeline::ExplainSettings& arguments) {
  CLI::App* draw = app.add_subcommand("draw", "Draw a case and its optimal play as an SVG picture");
  draw->footer(
      "willow: the tree in a tidy layout with the coins, A's route red and B's blue, walks\n"
      "numbered in turn order; doublemove: the declaration graph after the optimal play,\n"
      "components coloured by kind; wallgame: the board, Eel's walls and Rabbit's path;\n"
      "boigame: the board, both paths and the jumps. Large cases are drawn around their play:\n"
      "at most 3,000 willow cities (under 1 MiB), 5,000 wallgame cells and 5,000 moves, 10,000\n"
      "boigame black squares next to the paths and 20,000 moves (under 1.5 MiB).\n"
      "Exit status: 0 drawn, 1 the case could not be (too large to reconstruct), 2 usage error\n"
      "(an unreadable file, not an input of the game, --case out of range, -o not writable;\n"
      "nothing is written).");
  add_problem_option(*draw, arguments.problem, "The game:");
  draw->add_option("FILE", arguments.path, "An input file of the game (-: stdin)")
      ->required()
      ->type_name("FILE");
  draw->add_option("--case", arguments.case_number, "The case to draw (1-based; default 1)")
      ->type_name("K")
      ->check(CLI::PositiveNumber);
  draw->add_option("--out,-o", arguments.svg_file, "The picture to write")
      ->required()
      ->type_name("FILE.svg");
  draw->add_option("--jobs,-j", arguments.jobs,
                   "Threads to use at most (0, the default: all cores)")
      ->type_name("N")
      ->check(CLI::Range(0, 1 << 16));
  return draw;
}

int run_draw(const pipeline::ExplainSettings& arguments) {
  return exit_status(pipeline::draw_case(arguments));
}

class DrawCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override { return add_draw_command(app, arguments_); }
  int run() override { return run_draw(arguments_); }
  // Safe to kill at any point: its one file is written whole or not at all.
  bool stops_cleanly() const override { return false; }

 private:
  pipeline::ExplainSettings arguments_;
};

}  // namespace

std::unique_ptr<Command> make_draw_command() {
  return std::make_unique<DrawCommand>();
}

}  // namespace gamebatch::cli
