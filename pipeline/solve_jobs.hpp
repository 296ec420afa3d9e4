// Solving: what `gamebatch solve` and each job of `gamebatch run CONFIG` do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "io/files/problem_package.hpp"
#include "io/files/shard.hpp"
#include "io/problem.hpp"
#include "pipeline/cache_session.hpp"

namespace gamebatch::cli {

// One game's inputs and where their answers go: a `solve` command, or one [[job]] of a config.
struct SolveJob {
  std::string problem;             // the game's name
  std::vector<std::string> paths;  // input files and directories (globs already expanded)
  std::string out_dir;             // empty: answers beside the inputs
  // The problem package layout of the directories (--layout, a config's `layout`); none: each
  // directory's own is detected, a plain directory read for *.in files.
  std::optional<io::Layout> layout;
};

// Settings shared by every job of a run.
struct RunSettings {
  int jobs = 0;               // threads at most; 0: all cores
  std::string cache_file;     // empty: the default location
  bool no_cache = false;      // read and write no cache
  bool strict_cache = false;  // an untrustworthy cache file is an error
  double checkpoint_seconds = 5;
  // Cases estimated to solve faster than this (µs) are neither looked up nor stored.
  double cache_min_solve_us = pipeline::kDefaultCacheMinSolveMicroseconds;
  std::string report_file;         // empty: no report
  std::string html_file;           // empty: no HTML page
  bool quiet = false;              // no progress line
  std::optional<io::Shard> shard;  // none: all inputs (or the Slurm array task's shard)
  bool mpi = false;                // one rank of an MPI job (mpirun ... --mpi)
  // Bytes the games may keep between cases (doublemove's state tables); 0: no bound; none: half
  // of the machine's memory (default_memory_budget).
  std::optional<std::uint64_t> memory_budget;
};

// Adds the options of RunSettings that a command line may set (--jobs, --cache, --no-cache,
// --strict-cache, --checkpoint, --cache-min-solve-us, --memory-budget, --report, --html,
// --quiet, --shard, --mpi) to `command`.
void add_run_settings_options(CLI::App& command, RunSettings& settings);

// Adds the `solve` subcommand to `app`.
void add_solve_command(CLI::App& app, SolveJob& job, RunSettings& settings);
// Runs it after parsing (execute_solve_jobs with one job); returns the exit status.
int run_solve_command(const SolveJob& job, const RunSettings& settings);

// Opens the answer cache the settings name (or the default one) for `problem`, into `cache`
// (left empty for --no-cache, or when the default location cannot be used: a warning says so).
// Returns false, after logging why, when the run must stop with exit status 2.
bool open_cache(const RunSettings& settings, const std::optional<io::Shard>& shard,
                const io::Problem& problem, std::unique_ptr<pipeline::CacheSession>& cache);

// "\n  NAME  SUMMARY" for every game, for help texts.
std::string game_list_help();

// Adds the required --problem,-p GAME option (one of the registry's games) to `command`; `help`
// is followed by the list of games.
void add_problem_option(CLI::App& command, std::string& problem, const std::string& help);

// Adds the required PATH... arguments (input files and directories walked for *.in files).
void add_paths_option(CLI::App& command, std::vector<std::string>& paths);

// Adds --layout kattis|polygon|cms to `command`: how its directories are read as problem
// packages and how their answer files are named (io::collect_input_list's `layout`). Left unset
// when the option is not given.
void add_layout_option(CLI::App& command, std::optional<io::Layout>& layout);

// "kattis", "polygon" or "cms", or null when none is set, for reports.
nlohmann::json layout_json(const std::optional<io::Layout>& layout);

// Runs the jobs one after another with the same settings and returns the exit status: 0 every
// input solved, 1 some input rejected, 2 a usage or configuration error (a job whose paths do not
// exist, an unusable cache given by name). Prints one summary line per job and, for more than one
// job, a total line. `options` is what the report records under "options".
int execute_solve_jobs(const std::vector<SolveJob>& jobs, const RunSettings& settings,
                       std::string_view command, const nlohmann::json& options);

// Adds --html FILE (not empty) with `help` to `command`, for solve, run, check and stress.
void add_html_option(CLI::App& command, std::string& file, const std::string& help);

// Writes an --html page whole; false (after saying why) when it cannot.
bool write_html_page(const std::string& path, const std::string& page);

// Whether an --html page can be written at `path`: its directory is made if missing and a file
// is created there and removed. Logs why not and returns false, so that a run stops before its
// work rather than losing the page at the end.
bool html_page_writable(const std::string& path);

// The options of a run as the report records them.
nlohmann::json settings_json(const RunSettings& settings);

// A path option for the report: its text, or null when it is not set (empty).
nlohmann::json text_or_null(const std::string& text);

}  // namespace gamebatch::cli
