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
