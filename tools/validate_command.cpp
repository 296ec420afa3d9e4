// `gamebatch validate -p GAME PATH...`: are the inputs valid official inputs of the statement?
// (the engine: pipeline/validate_job.hpp).
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>

#include "pipeline/package/package_pages.hpp"
#include "pipeline/package/validate_job.hpp"
#include "pipeline/programs/run_setup.hpp"
#include "pipeline/report/output_files.hpp"
#include "pipeline/report/terminal_text.hpp"
#include "tools/support/command.hpp"
#include "tools/support/options.hpp"

namespace gamebatch::cli {
namespace {

struct ReportFiles {
  std::string report_file;  // empty: none
  std::string html_file;
};

// A package's own validators, invalid inputs and mutants: their options (the judge's options
// bound the validators' runs, as check's solutions').
void add_package_check_options(CLI::App& validate, pipeline::PackageCheckSettings& checks,
                               ReportFiles& outputs, JudgeOptions& judge) {
  validate.add_flag("--invalid", checks.invalid,
                    "Also give every validator of the package its data/invalid_input/ files and\n"
                    "mutants of each group's tests (one per format rule and limit); a validator\n"
                    "that accepts one has a blind spot");
  validate.add_option("--out,-o", checks.out, "Keep the mutants in DIR (with --invalid)")
      ->type_name("DIR");
  validate
      .add_option("--cache", checks.cache_file,
                  "The answer cache file; compiled validators are kept beside it")
      ->type_name("FILE");
  validate.add_flag("--no-cache", checks.no_cache, "Compile the validators afresh; keep nothing");
  validate.add_option("--report", outputs.report_file, "Write what was checked to FILE.json")
      ->type_name("FILE");
  add_html_option(validate, outputs.html_file,
                  "Write a self-contained HTML page to FILE: each package's validators and bounds");
  add_judge_options(validate, judge);
}

// What the checks of a package said: its problems on stdout, the rest on stderr.
void tell_package(const std::string& path, const pipeline::PackageCheckResult& result) {
  for (const std::string& line : result.problems)
    std::printf("%s\n", pipeline::terminal_safe(line).c_str());
  std::fflush(stdout);
  std::string said;
  for (const std::string& line : result.summary_lines())
    said += path + ": " + line + "\n";
  for (const std::string& line : pipeline::bounds_lines(result.bounds))
    said += path + ": " + line + "\n";
  std::fputs(pipeline::terminal_safe(said).c_str(), stderr);
  for (const std::string& warning : result.warnings)
    spdlog::warn("{}: {}", pipeline::terminal_safe(path), pipeline::terminal_safe(warning));
}

CLI::App* add_validate_command(CLI::App& app, pipeline::ValidateSettings& arguments,
                               ReportFiles& outputs, JudgeOptions& judge) {
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
      "On a problem package it also runs the package's own validators (input_validators/,\n"
      "Polygon's, task-maker's) in the sandbox on every test with its group's flags, prints\n"
      "each test where one of them and gamebatch disagree (or where one failed), and the\n"
      "bounds each group's tests reach; --invalid adds data/invalid_input/ and mutants.\n"
      "Exit status: 0 every file is a valid official input, 1 some file is not, 2 usage error.");
  add_problem_option(*validate, arguments.problem, "The game:");
  add_layout_option(*validate, arguments.layout);
  add_paths_option(*validate, arguments.paths);
  validate->add_flag("--lenient", arguments.lenient,
                     "Check the limits alone, on solve's parser (not the exact format)");
  add_package_check_options(*validate, arguments.packages, outputs, judge);
  return validate;
}

class ValidateCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    return add_validate_command(app, settings_, outputs_, judge_);
  }

  int run() override {
    const pipeline::CommandClock clock;  // the last line's time: compiling validators included
    settings_.packages.judge = judge_.parsed();
    if (!outputs_.html_file.empty() && !pipeline::html_page_writable(outputs_.html_file))
      return kExitUsage;
    std::vector<std::pair<std::string, pipeline::PackageCheckResult>> packages;
    const pipeline::ValidateResult result = pipeline::validate_inputs(
        settings_,
        [](const std::string& lines) {
          std::fputs(pipeline::terminal_safe(lines).c_str(), stdout);
        },
        [&packages](const std::string& path, const pipeline::PackageCheckResult& checks) {
          tell_package(path, checks);
          packages.emplace_back(path, checks);
        });
    if (result.outcome == pipeline::Outcome::usage_error)
      return kExitUsage;
    std::fflush(stdout);
    std::fprintf(stderr, "validate: %zu files: %zu valid, %zu not; %s\n", result.files,
                 result.files - result.invalid, result.invalid,
                 pipeline::time_text(clock.elapsed()).c_str());
    return exit_status(pipeline::graver(result.outcome, write_outputs(result, packages)));
  }

  // Safe to kill at any point: what it writes (the report, the page, mutants) is written whole.
  bool stops_cleanly() const override { return false; }

 private:
  // The --report and --html files; failed when one cannot be written.
  pipeline::Outcome write_outputs(
      const pipeline::ValidateResult& result,
      const std::vector<std::pair<std::string, pipeline::PackageCheckResult>>& packages) const {
    if (outputs_.report_file.empty() && outputs_.html_file.empty())
      return pipeline::Outcome::done;
    const nlohmann::json report =
        pipeline::validate_report(settings_.problem, result.files, result.invalid, packages);
    bool written = true;
    if (!outputs_.report_file.empty())
      written = pipeline::write_report_file(outputs_.report_file, report.dump(2) + "\n");
    if (!outputs_.html_file.empty())
      written =
          pipeline::write_html_page(outputs_.html_file, pipeline::validate_page(report)) && written;
    return written ? pipeline::Outcome::done : pipeline::Outcome::failed;
  }

  pipeline::ValidateSettings settings_;
  ReportFiles outputs_;
  JudgeOptions judge_;
};

}  // namespace

std::unique_ptr<Command> make_validate_command() {
  return std::make_unique<ValidateCommand>();
}

}  // namespace gamebatch::cli
