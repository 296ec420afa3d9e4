// pipeline/solve/: the room of solving sets. Its theory of operation.
//
// What it is for. `gamebatch solve` and `gamebatch run` (jobs of inputs solved into answer files,
// alone or over an MPI job), `gamebatch cache` (what a cache file holds, and its upkeep) and
// `gamebatch explain` and `draw` (one case's optimal play). The answers themselves come from
// answers/ (the flow graph and the cache session), which judge/ and package/ use too.
//
// Its parts.
// - solve_jobs.hpp (this file): the engine of solve and run: jobs one after another with one set
//   of settings, the cache, the report and page of the whole run. Public.
// - run_config.hpp: a run's TOML config (`gamebatch run CONFIG`). Public.
// - run_report.hpp: the --report JSON of solve and run (gamebatch-report/1). Public.
// - solve_page.hpp: the --html page of solve and run. Public.
// - mpi_cluster.hpp: the same cases over the ranks of an MPI job (answers/case_dispatcher.hpp).
//   Private.
// - cache_maintenance.hpp: the engine of `gamebatch cache` (stats, trim, export, import, merge,
//   verify). Public.
// - explain_job.hpp: the engine of explain and draw. Public.
//
// What it must never depend on: judge/, package/, programs/ (solving runs nobody's programs),
// tools/. It uses answers/, report/, pipeline/'s top, io/ and core/.
//
// The engine of `gamebatch solve` and `gamebatch run CONFIG`: jobs (a game's inputs and where
// their answers go) run one after another with one set of settings, each through the flow graph
// (solve_run.hpp) or, with --mpi, through the ranks of an MPI job (mpi_cluster.hpp), with the
// answer cache, the JSON report and the HTML page of the whole run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/files/problem_package.hpp"
#include "io/files/shard.hpp"
#include "io/problem.hpp"
#include "pipeline/answers/cache_session.hpp"
#include "pipeline/answers/solve_run.hpp"
#include "pipeline/engines.hpp"

namespace gamebatch::pipeline {

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
  double cache_min_solve_us = kDefaultCacheMinSolveMicroseconds;
  std::string report_file;         // empty: no report
  std::string html_file;           // empty: no HTML page
  bool quiet = false;              // no progress line
  std::optional<io::Shard> shard;  // none: all inputs (or the Slurm array task's shard)
  bool mpi = false;                // one rank of an MPI job (mpirun ... --mpi)
  // Bytes the games may keep between cases (doublemove's state tables); 0: no bound; none: half
  // of the machine's memory (default_memory_budget).
  std::optional<std::uint64_t> memory_budget;
};

// Opens the answer cache the settings name (or the default one) for `problem`, into `cache`, with
// the settings' strictness, checkpoints and threshold (answers/cache_session.hpp's open_cache).
bool open_cache(const RunSettings& settings, const std::optional<io::Shard>& shard,
                const io::Problem& problem, std::unique_ptr<CacheSession>& cache);

// What the report and the page say of a run of jobs besides its files.
struct SolveJobsHeader {
  std::string_view command;  // "solve" or "run"
  nlohmann::json options;    // what the report records under "options"
};

// A job's end, told as it happens (before the next job starts).
struct JobDone {
  std::size_t number = 0;  // 1-based
  const SolveJob* job = nullptr;
  RunSummary summary;
  bool progress_shown = false;  // a progress line is on the terminal: erase it first
};

// What a run of jobs tells as it goes: each job's end when there are several, and the run's total
// at its end, while the run still holds its resources (an MPI job ends with the engine: its
// ranks may be stopped then). No total is told when the run stopped before solving anything (a
// usage error, or a rank of an MPI job other than 0, which reports nothing).
struct SolveJobsListener {
  std::function<void(const JobDone&)> on_job_done;
  std::function<void(const RunSummary& total)> on_run_done;
};

// Runs the jobs one after another with the same settings, on the threads of settings.jobs and the
// games' memory budget (machine.hpp). Every job's inputs are found before anything is solved: a
// job whose paths do not exist is a usage error before any work. Errors are logged as they happen.
Outcome run_solve_jobs(const std::vector<SolveJob>& jobs, const RunSettings& settings,
                       const SolveJobsHeader& header, const SolveJobsListener& listener);

// The options of a run as the report records them.
nlohmann::json settings_json(const RunSettings& settings);

// A path option for the report: its text, or null when it is not set (empty).
nlohmann::json text_or_null(const std::string& text);

// "kattis", "polygon" or "cms", or null when none is set, for reports.
nlohmann::json layout_json(const std::optional<io::Layout>& layout);

// What the report of `gamebatch solve` records under "options".
nlohmann::json solve_options_json(const SolveJob& job, const RunSettings& settings);

}  // namespace gamebatch::pipeline
