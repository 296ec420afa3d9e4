// `gamebatch run CONFIG.toml`'s command-line side, declared for its tests: the options, and the
// command line's settings put over the config's.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "pipeline/solve/solve_jobs.hpp"

namespace gamebatch::cli {

struct RunArguments {
  std::string config;
  pipeline::RunSettings settings;     // as the command line set them
  const CLI::App* command = nullptr;  // the `run` subcommand: which options were given
};

// Adds the `run` subcommand to `app`; returns it.
CLI::App* add_run_command(CLI::App& app, RunArguments& arguments);

// Puts the settings that the command line gave (those options counted by `arguments.command`)
// over the config's `settings`.
void override_settings(pipeline::RunSettings& settings, const RunArguments& arguments);

// Loads the config, applies the command line's settings and runs the jobs. Returns the exit
// status: 2 for a config error (logged as "gamebatch: error: ..."), else solve's.
int run_run_command(const RunArguments& arguments);

}  // namespace gamebatch::cli
