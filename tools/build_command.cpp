// `gamebatch build PACKAGE`: a problem package's test data made from its plan (the engine:
// pipeline/build_job.hpp).
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include <spdlog/spdlog.h>

#include "io/files/problem_package.hpp"
#include "pipeline/package/build_job.hpp"
#include "pipeline/report/terminal_text.hpp"
#include "tools/support/command.hpp"
#include "tools/support/options.hpp"

namespace gamebatch::cli {
namespace {

// The build's settings as the options set them.
struct BuildArguments {
  pipeline::BuildJobSettings settings;
  JudgeOptions judge;
};

CLI::App* add_build_command(CLI::App& app, BuildArguments& arguments) {
  CLI::App* build = app.add_subcommand(
      "build", "Make a problem package's test data from its plan, PACKAGE/gamebatch.toml");
  build->footer(
      "Makes every test of the plan (gen's generators, copies of the package's files, generator\n"
      "programs run in the sandbox with the test's seed as their last argument), checks each\n"
      "against the statement's limits and those of its groups, solves it exactly (through the\n"
      "answer cache, as solve) and writes it in the layout: kattis data/sample/, data/secret/\n"
      "GROUP/NAME.in and .ans with the group files of problem.yaml's problem_format_version\n"
      "(legacy testdata.yaml, 2023-07-draft and 2025-09 test_group.yaml) and the keys it lacks;\n"
      "cms input/, output/ and task.yaml's groups.\n"
      "A rebuild makes only what changed (PACKAGE/gamebatch-build.json records what the\n"
      "build wrote) and removes what the plan no longer names; files it did not write are\n"
      "never touched. Then runs the package's own input validators on every test, as\n"
      "validate does. Ends with one line per group (tests, largest value of each parameter,\n"
      "points), the validators' line and each group's bounds, and a summary line on stderr.\n"
      "Exit status: 0 built, 1 some test broke a limit or could not be made (it is not\n"
      "written) or a package validator disagreed with gamebatch, 2 usage error (a plan error\n"
      "names file, line and key; a problem.yaml that contradicts its layout, its line), 130\n"
      "(143) interrupted by SIGINT (SIGTERM).");
  build
      ->add_option("PACKAGE", arguments.settings.package,
                   "The package directory (holding gamebatch.toml)")
      ->required()
      ->check(CLI::ExistingDirectory);
  build
      ->add_option_function<std::string>(
          "--layout",
          [&arguments](const std::string& name) {
            arguments.settings.layout = io::parse_layout(name);
          },
          "kattis or cms (default: the plan's layout, else kattis)")
      ->type_name("LAYOUT")
      ->check(CLI::IsMember({"kattis", "cms"}));
  add_judge_options(*build, arguments.judge);
  // The judge options' text speaks of solutions; here the programs run are the plan's generators.
  build->get_option("--time-limit")
      ->description(
          "CPU time limit of one run of a plan's generator program, in seconds\n"
          "(user + system time); a generator that goes over it is an error naming it");
  build->add_option("--cache", arguments.settings.cache_file, "The answer cache file, as solve's")
      ->type_name("FILE");
  build->add_flag("--no-cache", arguments.settings.no_cache, "Solve every answer; no cache");
  build->add_option("--report", arguments.settings.report_file, "Write what was built to FILE.json")
      ->type_name("FILE");
  add_html_option(*build, arguments.settings.html_file,
                  "Write a self-contained HTML page to FILE: the groups, their tests and limits");
  return build;
}

// The package's validators and bounds: problems as errors, the summary and bounds on stdout.
void tell_package_checks(const pipeline::PackageCheckResult& checks) {
  for (const std::string& problem : checks.problems)
    spdlog::error("{}", pipeline::terminal_safe(problem));
  for (const std::string& warning : checks.warnings)
    spdlog::warn("{}", pipeline::terminal_safe(warning));
  for (const std::string& line : checks.summary_lines())
    std::printf("%s\n", pipeline::terminal_safe(line).c_str());
  for (const std::string& line : pipeline::bounds_lines(checks.bounds))
    std::printf("%s\n", pipeline::terminal_safe(line).c_str());
}

int run_build(const BuildArguments& arguments) {
  pipeline::BuildJobSettings settings = arguments.settings;
  settings.judge = arguments.judge.parsed();
  pipeline::BuildJob build(std::move(settings));
  if (const pipeline::Outcome prepared = build.prepare(); prepared != pipeline::Outcome::done)
    return exit_status(prepared);
  pipeline::Outcome outcome = build.run();
  if (!build.built())
    return exit_status(outcome);
  const pipeline::BuildResult& result = build.result();
  for (const std::string& warning : result.warnings)
    spdlog::warn("{}", warning);
  for (const std::string& failure : result.failures)
    spdlog::error("{}", failure);
  for (const std::string& line : pipeline::group_summary_lines(result))
    std::printf("%s\n", pipeline::terminal_safe(line).c_str());
  if (const auto& checks = build.package_checks())
    tell_package_checks(*checks);
  std::fflush(stdout);
  outcome = pipeline::graver(outcome, build.write_outputs());
  std::fprintf(stderr, "%s\n", build.summary_line().c_str());
  return exit_status(outcome);
}

}  // namespace

std::unique_ptr<Command> make_build_command() {
  return std::make_unique<CommandOf<BuildArguments, add_build_command, run_build>>();
}

}  // namespace gamebatch::cli
