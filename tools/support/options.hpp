// The rest of a setter's loop: `gamebatch validate` (inputs within the statement's limits),
// `gamebatch check` (other solutions judged on every input) and `gamebatch stress` (random cases
// until a solution fails, then the failing case shrunk).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "io/files/problem_package.hpp"
#include "tools/gen_command.hpp"

namespace gamebatch::cli {

// Limits of the solutions under test, shared by check and stress.
struct JudgeArguments {
  double time_limit = 10;           // seconds of CPU time
  std::uint64_t memory_limit = 0;   // MiB of peak resident memory; 0: none
  std::uint64_t output_limit = 64;  // MiB of standard output
  int jobs = 0;                     // runs at once; 0: one per core
  // The sandbox (io/run/sandbox.hpp).
  bool no_sandbox = false;
  std::vector<std::string> sandbox_binds;  // --sandbox-bind PATH
  std::uint64_t sandbox_disk = 64;         // MiB of scratch
  std::uint64_t max_processes = 256;       // processes and threads of one run
  // Solutions given as sources (io/run/solution_build.hpp): --languages FILE's [languages] over the
  // defaults; empty: the defaults.
  std::string languages_file;
  const CLI::Option* time_limit_option = nullptr;    // whether --time-limit was given
  const CLI::Option* memory_limit_option = nullptr;  // whether --memory-limit was given
};

struct ValidateArguments {
  std::string problem;
  std::optional<io::Layout> layout;
  std::vector<std::string> paths;
};

struct CheckArguments {
  std::string problem;
  std::vector<std::string> solutions;
  JudgeArguments judge;
  std::string cache_file;
  bool no_cache = false;
  std::string report_file;
  std::string html_file;  // empty: no HTML page
  bool all_runs = false;  // --all-runs: no early decision skips a run
  std::optional<io::Layout> layout;
  std::vector<std::string> paths;
};

struct StressArguments {
  std::string problem;
  std::string solution;
  std::int64_t count = 1000;
  std::uint64_t seed = 1;
  std::string out_dir = ".";
  std::string html_file;  // empty: no HTML page
  JudgeArguments judge;
  GameOptionArguments game_options;
  io::GameOptions game;  // checked when parsing ends
  std::string package;   // --package: a package whose plan holds --group
  std::string group;     // --group: draw and shrink within this group's limits
};

struct BuildArguments {
  std::string package;
  std::optional<io::Layout> layout;  // unset: the plan's
  JudgeArguments judge;              // --jobs, and the sandbox of generator programs
  std::string cache_file;
  bool no_cache = false;
  std::string report_file;
  std::string html_file;
};

struct SetterArguments {
  ValidateArguments validate;
  CheckArguments check;
  StressArguments stress;
  BuildArguments build;
};

// Adds `validate`, `check`, `stress` and `build` to `app`.
void add_setter_commands(CLI::App& app, SetterArguments& arguments);

// Runs whichever of them was parsed; returns the exit status, or -1 when none was.
int run_setter_command(const CLI::App& app, const SetterArguments& arguments);

}  // namespace gamebatch::cli
