// `gamebatch run CONFIG.toml`: the jobs of a configuration file (pipeline/run_config.hpp), run by
// solve's engine (pipeline/solve/solve_jobs.hpp) with the command line's settings over the
// config's.
#include <memory>
#include <string>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "pipeline/solve/run_config.hpp"
#include "pipeline/solve/solve_jobs.hpp"
#include "tools/run_command.hpp"
#include "tools/support/command.hpp"
#include "tools/support/options.hpp"
#include "tools/support/solve_lines.hpp"

namespace gamebatch::cli {
namespace {

// What the report records under "options": the config, its settings and its jobs.
nlohmann::json run_options_json(const std::string& config_file, const pipeline::RunConfig& config) {
  nlohmann::json jobs = nlohmann::json::array();
  for (const pipeline::SolveJob& job : config.jobs) {
    nlohmann::json entry = {
        {"game", job.problem}, {"inputs", job.paths}, {"out", pipeline::text_or_null(job.out_dir)}};
    if (job.layout)  // only when set: a report of a run without packages reads as before
      entry["layout"] = pipeline::layout_json(job.layout);
    jobs.push_back(std::move(entry));
  }
  return {{"config", config_file},
          {"settings", pipeline::settings_json(config.settings)},
          {"jobs", jobs}};
}

}  // namespace

void override_settings(pipeline::RunSettings& settings, const RunArguments& arguments) {
  const pipeline::RunSettings& command_line = arguments.settings;
  // count() tells which options were given: the others hold defaults, not the user's choice.
  const auto given = [&arguments](const char* option) {
    return arguments.command != nullptr && arguments.command->count(option) > 0;
  };
  if (given("--jobs"))
    settings.jobs = command_line.jobs;
  if (given("--cache")) {
    settings.cache_file = command_line.cache_file;
    settings.no_cache = false;  // over the config's `cache = false`
  }
  if (given("--no-cache")) {
    settings.no_cache = command_line.no_cache;
    if (settings.no_cache)
      settings.cache_file.clear();
  }
  if (given("--strict-cache"))
    settings.strict_cache = command_line.strict_cache;
  if (given("--checkpoint"))
    settings.checkpoint_seconds = command_line.checkpoint_seconds;
  if (given("--cache-min-solve-us"))
    settings.cache_min_solve_us = command_line.cache_min_solve_us;
  if (given("--memory-budget"))
    settings.memory_budget = command_line.memory_budget;
  if (given("--report"))
    settings.report_file = command_line.report_file;
  if (given("--html"))
    settings.html_file = command_line.html_file;
  if (given("--quiet"))
    settings.quiet = command_line.quiet;
  if (given("--shard"))
    settings.shard = command_line.shard;
  if (given("--mpi"))  // how the run was launched: the command line's alone
    settings.mpi = command_line.mpi;
}

CLI::App* add_run_command(CLI::App& app, RunArguments& arguments) {
  CLI::App* run = app.add_subcommand("run", "Run the jobs of a configuration file (TOML)");
  run->footer(
      "A config holds settings (jobs, cache, strict_cache, checkpoint, cache_min_solve_us,\n"
      "memory_budget, report, html, quiet, shard; "
      "the options above override them), layout (kattis, polygon or cms, as solve --layout;\n"
      "a job's own overrides it) and one or more [[job]] tables:\n"
      "  [[job]]\n"
      "  game = \"willow\"\n"
      "  inputs = [\"sets/willow/*.in\", \"sets/willow/large\"]  # files, directories, globs\n"
      "  out = \"answers/willow\"  # optional: answers here instead of beside the inputs\n"
      "  layout = \"polygon\"  # optional: read its directories as packages of this layout\n"
      "Relative paths are relative to the config's directory. Globs: * ? [...] within a path\n"
      "component, ** for any number of directories. Examples: configs/*.toml.\n"
      "Jobs run one after another; with several, each prints its summary line before the\n"
      "total.\n"
      "Exit status: 0 all inputs solved, 1 some input rejected, 2 config or usage error, 130\n"
      "(143) interrupted by SIGINT (SIGTERM): see solve --help.");
  run->add_option("CONFIG", arguments.config, "The configuration file")->required()->type_name("");
  add_run_settings_options(*run, arguments.settings);
  arguments.command = run;
  return run;
}

int run_run_command(const RunArguments& arguments) {
  pipeline::RunConfig config;
  try {
    config = pipeline::load_run_config(arguments.config);
  } catch (const pipeline::ConfigError& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  }
  override_settings(config.settings, arguments);
  const pipeline::Outcome outcome =
      pipeline::run_solve_jobs(config.jobs, config.settings,
                               {"run", run_options_json(arguments.config, config)}, solve_lines);
  return exit_status(outcome);
}

std::unique_ptr<Command> make_run_command() {
  return std::make_unique<CommandOf<RunArguments, add_run_command, run_run_command>>();
}

}  // namespace gamebatch::cli
