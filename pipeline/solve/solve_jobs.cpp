#include "pipeline/solve/solve_jobs.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

#include <spdlog/spdlog.h>

#include "core/stop_request.hpp"
#include "io/files/input_set.hpp"
#include "pipeline/answers/cache_session.hpp"
#ifdef GAMEBATCH_HAVE_MPI
#include "pipeline/solve/mpi_cluster.hpp"
#endif
#include "pipeline/machine.hpp"
#include "pipeline/report/logging.hpp"
#include "pipeline/report/output_files.hpp"
#include "pipeline/report/progress.hpp"
#include "pipeline/solve/run_report.hpp"
#include "pipeline/solve/solve_page.hpp"
#include "pipeline/version.hpp"

namespace gamebatch::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The shard to solve: --shard, else the Slurm array task's, else none. Throws UsageError.
std::optional<io::Shard> effective_shard(const RunSettings& settings) {
  if (settings.shard)
    return settings.shard;
  try {
    return io::shard_from_slurm(io::slurm_environment());
  } catch (const std::invalid_argument& error) {
    throw io::UsageError(error.what());
  }
}

// While the progress line is drawn, every log line first erases it, so that messages never
// share a line with it; the line is drawn again at its next refresh.
class LogPatternWhileProgress {
 public:
  explicit LogPatternWhileProgress(bool active) : active_(active) {
    if (active_)
      spdlog::set_pattern(std::string("\r\033[K") + kLogPattern);
  }
  ~LogPatternWhileProgress() {
    if (active_)
      spdlog::set_pattern(kLogPattern);
  }
  LogPatternWhileProgress(const LogPatternWhileProgress&) = delete;
  LogPatternWhileProgress& operator=(const LogPatternWhileProgress&) = delete;

 private:
  bool active_;
};

#ifdef GAMEBATCH_HAVE_MPI
using Cluster = MpiCluster;
#else
struct Cluster {};  // never made: --mpi is refused first
#endif

// Started as one of several ranks without --mpi, every rank would solve the whole set: say so.
void warn_of_ranks_without_mpi() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    const char* ranks = std::getenv(variable);
    if (ranks != nullptr && std::atoi(ranks) > 1) {
      spdlog::warn(
          "started as one of {} MPI ranks without --mpi: each rank solves every input "
          "(add --mpi to share the work)",
          ranks);
      return;
    }
  }
}

// For --mpi: joins the MPI job. Returns false (after saying why) when that cannot be.
bool join_mpi_job(const RunSettings& settings, int threads, std::unique_ptr<Cluster>& cluster) {
  if (!settings.mpi) {
    warn_of_ranks_without_mpi();
    return true;
  }
  if (settings.shard) {
    spdlog::error(
        "--mpi and --shard exclude each other: the MPI mode balances the whole set "
        "over its ranks");
    return false;
  }
#ifdef GAMEBATCH_HAVE_MPI
  if (const std::string problem = mpi_launch_problem(); !problem.empty()) {
    spdlog::error("{}", problem);
    return false;
  }
  try {
    cluster = std::make_unique<Cluster>(threads);
  } catch (const std::exception& error) {
    spdlog::error("--mpi: {}", error.what());
    return false;
  }
  return true;
#else
  (void)threads;
  (void)cluster;
  spdlog::error(
      "--mpi: this gamebatch was built without MPI; install libboost-mpi-dev, libopenmpi-dev "
      "and openmpi-bin (tools/dev.sh does) and build again");
  return false;
#endif
}

// Every job's inputs (of the shard to solve), found before anything is solved. Throws UsageError.
std::vector<io::InputList> find_inputs(const std::vector<SolveJob>& jobs,
                                       const std::optional<io::Shard>& shard) {
  std::vector<io::InputList> inputs_of_job;
  for (const SolveJob& job : jobs) {
    if (io::find_problem(job.problem) == nullptr)
      throw io::UsageError("unknown game " + job.problem);
    std::optional<std::filesystem::path> out_dir;
    if (!job.out_dir.empty())
      out_dir = job.out_dir;
    io::InputList inputs = io::collect_input_list(job.paths, out_dir, job.layout);
    if (shard)
      io::select_shard(inputs, *shard);
    inputs_of_job.push_back(std::move(inputs));
  }
  return inputs_of_job;
}

// What a run writes beside its answers: the JSON report and the HTML page's aggregates.
struct RunOutputs {
  nlohmann::json header;
  std::unique_ptr<RunReport> report;
  std::optional<SolvePage> page;
};

// Opens the report and checks that the page can be written; false (after saying why) if not.
bool open_outputs(const RunSettings& settings, const SolveJobsHeader& header, RunOutputs& outputs) {
  outputs.header = {{"schema", kReportSchema},
                    {"gamebatch_version", kVersion},
                    {"command", header.command},
                    {"options", header.options}};
  if (!settings.report_file.empty()) {
    try {
      outputs.report = std::make_unique<RunReport>(settings.report_file, outputs.header);
    } catch (const std::exception& error) {
      spdlog::error("{}", error.what());
      return false;
    }
  }
  // Bounded aggregates of the files, rendered once the run is over.
  if (!settings.html_file.empty()) {
    if (!html_page_writable(settings.html_file))
      return false;
    outputs.page.emplace();
  }
  return true;
}

// Everything one job needs that lives as long as the run.
struct RunContext {
  const RunSettings& settings;
  const std::optional<io::Shard>& shard;
  RunOutputs& outputs;
  ProgressCounters& progress;
  Cluster* cluster;
};

// Solves one job (1-based `job_number`) through the cache; its summary covers the job's whole
// time, cache loading and saving included. nullopt when its cache cannot be opened (a usage
// error); `outcome` turns to a usage error when a strict cache was damaged during the run.
std::optional<RunSummary> solve_job(const SolveJob& job, std::size_t job_number,
                                    io::InputList inputs, RunContext& run, Outcome& outcome) {
  const auto started = Clock::now();
  SolveOptions options;
  options.problem = io::find_problem(job.problem);
  options.inputs = std::move(inputs);
  std::unique_ptr<CacheSession> cache;
  if (!open_cache(run.settings, run.shard, *options.problem, cache))
    return std::nullopt;
  if (cache != nullptr) {
    options.cache = cache.get();
    cache->start_checkpoints();
  }
  options.progress = &run.progress;
  if (run.outputs.report != nullptr || run.outputs.page) {
    options.on_file_done = [&outputs = run.outputs, job_number](const FileReport& file) {
      if (outputs.report != nullptr)
        outputs.report->add_file(file, job_number);
      if (outputs.page)
        outputs.page->add_file(file, job_number);
    };
  }
#ifdef GAMEBATCH_HAVE_MPI
  RunSummary summary =
      run.cluster != nullptr ? run.cluster->run_solve(std::move(options)) : run_solve(options);
#else
  RunSummary summary = run_solve(options);
#endif
  if (cache != nullptr) {
    if (!cache->finish() && run.settings.strict_cache && cache->damaged_during_run()) {
      spdlog::error("the answer cache {} turned out damaged during the run (--strict-cache)",
                    cache->path().string());
      outcome = Outcome::usage_error;
    }
    cache.reset();  // closes the store: its log is folded into the file
  }
  summary.seconds = seconds_since(started);
  return summary;
}

void add_to_total(RunSummary& total, const RunSummary& summary) {
  total.files += summary.files;
  total.cases += summary.cases;
  total.solved += summary.solved;
  total.cached += summary.cached;
  total.rejected += summary.rejected;
  total.finished += summary.finished;
  total.interrupted = total.interrupted || summary.interrupted;
}

// Finishes the report and writes the page; the graver outcome when either cannot be written.
Outcome finish_outputs(const RunSettings& settings, RunOutputs& outputs, const RunSummary& total,
                       Outcome outcome) {
  if (outputs.report != nullptr) {
    try {
      outputs.report->finish(total);
    } catch (const std::exception& error) {
      spdlog::error("{}", error.what());
      outcome = graver(outcome, Outcome::failed);
    }
  }
  if (outputs.page &&
      !write_html_page(settings.html_file, outputs.page->render(outputs.header, total)))
    outcome = graver(outcome, Outcome::failed);
  return outcome;
}

}  // namespace

bool open_cache(const RunSettings& settings, const std::optional<io::Shard>& shard,
                const io::Problem& problem, std::unique_ptr<CacheSession>& cache) {
  CacheOptions options;
  options.strict = settings.strict_cache;
  options.checkpoint_interval = std::chrono::duration<double>(settings.checkpoint_seconds);
  options.min_solve_microseconds = settings.cache_min_solve_us;
  return open_cache(settings.cache_file, settings.no_cache, shard, options, problem, cache);
}

Outcome run_solve_jobs(const std::vector<SolveJob>& jobs, const RunSettings& settings,
                       const SolveJobsHeader& header, const SolveJobsListener& listener) {
  const auto started = Clock::now();
  const WorkResources resources(settings.jobs, settings.memory_budget);
  const int threads = static_cast<int>(resources.threads());
  Outcome outcome = Outcome::done;
  std::unique_ptr<Cluster> cluster;
  if (!join_mpi_job(settings, threads, cluster))
    return Outcome::usage_error;
#ifdef GAMEBATCH_HAVE_MPI
  if (cluster != nullptr && cluster->rank() != 0) {
    cluster->serve();  // rank 0 reports for the whole job
    return outcome;
  }
#endif
  std::optional<io::Shard> shard;
  std::vector<io::InputList> inputs_of_job;
  try {
    if (!settings.mpi)
      shard = effective_shard(settings);
    inputs_of_job = find_inputs(jobs, shard);
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return Outcome::usage_error;
  }
  if (shard && !settings.shard)
    spdlog::info("Slurm job array task: solving shard {}/{}", shard->index, shard->count);
  RunOutputs outputs;
  if (!open_outputs(settings, header, outputs))
    return Outcome::usage_error;

  ProgressCounters progress;
  for (const auto& inputs : inputs_of_job)
    progress.files_total += inputs.size();
  const bool show_progress = !settings.quiet && is_terminal(stderr);
  // One progress line over all the jobs (files and rate are the run's); lines printed meanwhile
  // erase it first.
  LogPatternWhileProgress log_pattern(show_progress);
  ProgressLine progress_line(progress, show_progress);
  RunContext run{settings, shard, outputs, progress, cluster.get()};
  RunSummary total;
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    if (stop_requested()) {  // the jobs not started count as unfinished
      total.files += inputs_of_job[k].size();
      total.interrupted = true;
      continue;
    }
    const std::optional<RunSummary> summary =
        solve_job(jobs[k], k + 1, std::move(inputs_of_job[k]), run, outcome);
    if (!summary)
      return Outcome::usage_error;
    if (jobs.size() > 1 && listener.on_job_done)
      listener.on_job_done({k + 1, &jobs[k], *summary, show_progress});
    add_to_total(total, *summary);
    if (summary->rejected != 0)
      outcome = graver(outcome, Outcome::failed);
  }
  progress_line.stop();
  // The whole command's time, finding inputs included.
  total.seconds = seconds_since(started);
  outcome = finish_outputs(settings, outputs, total, outcome);
  if (listener.on_run_done)
    listener.on_run_done(total);
  return outcome;
}

nlohmann::json text_or_null(const std::string& text) {
  return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
}

nlohmann::json layout_json(const std::optional<io::Layout>& layout) {
  return layout ? nlohmann::json(io::layout_name(*layout)) : nlohmann::json(nullptr);
}

nlohmann::json settings_json(const RunSettings& settings) {
  nlohmann::json json = {{"jobs", settings.jobs},
                         {"no_cache", settings.no_cache},
                         {"strict_cache", settings.strict_cache},
                         {"checkpoint", settings.checkpoint_seconds},
                         {"cache_min_solve_us", settings.cache_min_solve_us},
                         {"quiet", settings.quiet},
                         {"mpi", settings.mpi}};
  json["cache"] = text_or_null(settings.cache_file);
  json["report"] = text_or_null(settings.report_file);
  json["html"] = text_or_null(settings.html_file);
  json["memory_budget"] =
      settings.memory_budget ? *settings.memory_budget : default_memory_budget();
  json["shard"] = settings.shard ? nlohmann::json(std::to_string(settings.shard->index) + "/" +
                                                  std::to_string(settings.shard->count))
                                 : nlohmann::json(nullptr);
  return json;
}

nlohmann::json solve_options_json(const SolveJob& job, const RunSettings& settings) {
  nlohmann::json options = settings_json(settings);
  options["problem"] = job.problem;
  options["paths"] = job.paths;
  options["out"] = text_or_null(job.out_dir);
  options["layout"] = layout_json(job.layout);
  return options;
}

}  // namespace gamebatch::pipeline
