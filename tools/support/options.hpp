// The command floor's support unit, part 2: the options several commands share, each added to a
// command with its help text in one place.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "io/files/problem_package.hpp"
#include "pipeline/programs/run_setup.hpp"
#include "pipeline/solve/solve_jobs.hpp"

namespace gamebatch::cli {

// "\n  NAME  SUMMARY" for every game, for help texts.
std::string game_list_help();

// Adds the --problem,-p GAME option (one of the registry's games; required unless `required` is
// false) to `command`; `help` is followed by the list of games.
void add_problem_option(CLI::App& command, std::string& problem, const std::string& help,
                        bool required = true);

// Adds the required PATH... arguments (input files and directories walked for *.in files).
void add_paths_option(CLI::App& command, std::vector<std::string>& paths);

// Adds --layout kattis|polygon|cms to `command`: how its directories are read as problem
// packages and how their answer files are named (io::collect_input_list's `layout`). Left unset
// when the option is not given.
void add_layout_option(CLI::App& command, std::optional<io::Layout>& layout);

// Adds --html FILE (not empty) with `help` to `command`, for solve, run, check, stress and build.
void add_html_option(CLI::App& command, std::string& file, const std::string& help);

// A --memory-budget SIZE's check: an error message when the text is not a size, else "".
std::string check_size(const std::string& text);

// Adds the options of RunSettings that a command line may set (--jobs, --cache, --no-cache,
// --strict-cache, --checkpoint, --cache-min-solve-us, --memory-budget, --report, --html,
// --quiet, --shard, --mpi) to `command`, for solve and run.
void add_run_settings_options(CLI::App& command, pipeline::RunSettings& settings);

// The limits and the sandbox of check, stress and build as their options set them.
struct JudgeOptions {
  pipeline::JudgeSettings settings;
  const CLI::Option* time_limit_option = nullptr;    // whether --time-limit was given
  const CLI::Option* memory_limit_option = nullptr;  // whether --memory-limit was given

  // The settings with what was given marked, once parsing is done.
  pipeline::JudgeSettings parsed() const;
};

// Adds --time-limit, --languages, --memory-limit, --output-limit, --jobs and the sandbox's
// options (--no-sandbox, --sandbox-bind, --sandbox-disk, --max-processes, --sandbox-info).
void add_judge_options(CLI::App& command, JudgeOptions& judge);

}  // namespace gamebatch::cli
