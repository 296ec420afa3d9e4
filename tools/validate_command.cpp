// `gamebatch validate -p GAME PATH...`: are the inputs valid official inputs of the statement?
// (the engine: pipeline/validate_job.hpp).
#include <cstdio>
#include <memory>
#include <string>

#include "pipeline/terminal_text.hpp"
#include "pipeline/validate_job.hpp"
#include "tools/support/command.hpp"
#include "tools/support/options.hpp"

namespace gamebatch::cli {
namespace {

CLI::App* add_validate_command(CLI::App& app, pipeline::ValidateSettings& arguments) {
  CLI::App* validate = app.add_subcommand(
      "validate", "Check that input files are valid official inputs of the game's statement");
  validate->footer(
      "Checks every input in the exact format of the game's statement, as a judge's validator\n"
      "reads it: one space between the tokens of a line and each token on the line the\n"
      "statement puts it, '\\n' line ends (no CR), a final newline, no blank line and no\n"
      "space at a line's start or end, integers without '+' or leading zeros; and within the\n"
      "statement's own limits, narrower than what gamebatch solves (willow: T <= 50,\n"
      "2 <= N <= 4000, coins <= 10000; wallgame: 2 <= h <= 50, 1 <= w <= 50; doublemove:\n"
      "n <= 35; boigame: t <= 10, n <= 300), and a built package's group limits. Prints each\n"
      "invalid file's first fault on stdout, FILE:LINE:COLUMN: RULE: what was expected and\n"
      "found. `gamebatch validator GAME` prints a program that accepts exactly the same files.\n"
      "--lenient: the limits alone, on the parser solve uses (any whitespace, CRLF and leading\n"
      "zeros pass), every violation told as FILE:LINE: what the statement requires (the first\n"
      "100 of a file). A summary line goes to stderr.\n"
      "Exit status: 0 every file is a valid official input, 1 some file is not, 2 usage error.");
  add_problem_option(*validate, arguments.problem, "The game:");
  add_layout_option(*validate, arguments.layout);
  add_paths_option(*validate, arguments.paths);
  validate->add_flag("--lenient", arguments.lenient,
                     "Check the limits alone, on solve's parser (not the exact format)");
  return validate;
}

class ValidateCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override { return add_validate_command(app, settings_); }

  int run() override {
    const pipeline::ValidateResult result =
        pipeline::validate_inputs(settings_, [](const std::string& lines) {
          std::fputs(pipeline::terminal_safe(lines).c_str(), stdout);
        });
    if (result.outcome == pipeline::Outcome::usage_error)
      return kExitUsage;
    std::fflush(stdout);
    std::fprintf(stderr, "validate: %zu files: %zu valid, %zu not\n", result.files,
                 result.files - result.invalid, result.invalid);
    return exit_status(result.outcome);
  }

  // Safe to kill at any point: it writes nothing.
  bool stops_cleanly() const override { return false; }

 private:
  pipeline::ValidateSettings settings_;
};

}  // namespace

std::unique_ptr<Command> make_validate_command() {
  return std::make_unique<ValidateCommand>();
}

}  // namespace gamebatch::cli
