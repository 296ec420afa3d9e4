#include "tools/solve_command.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

#include <oneapi/tbb/global_control.h>
#include <spdlog/spdlog.h>

#include "core/stop_request.hpp"
#include "io/files/atomic_file.hpp"
#include "io/files/input_set.hpp"
#include "io/problem.hpp"
#include "pipeline/cache_session.hpp"
#ifdef GAMEBATCH_HAVE_MPI
#include "pipeline/mpi_cluster.hpp"
#endif
#include "pipeline/html_report.hpp"
#include "pipeline/progress.hpp"
#include "pipeline/run_report.hpp"
#include "pipeline/solve_run.hpp"
#include "tools/cli.hpp"
#include "tools/version.hpp"

namespace gamebatch::cli {
namespace {

void print_summary(const char* prefix, const pipeline::RunSummary& summary) {
  std::fprintf(stderr, "%s%s\n", prefix, pipeline::summary_line(summary).c_str());
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

}  // namespace

bool open_cache(const RunSettings& settings, const std::optional<io::Shard>& shard,
                const io::Problem& problem, std::unique_ptr<pipeline::CacheSession>& cache) {
  if (settings.no_cache)
    return true;
  pipeline::CacheOptions cache_options;
  if (!settings.cache_file.empty()) {
    cache_options.path = settings.cache_file;
  } else if (const auto default_path = pipeline::default_cache_path()) {
    cache_options.path = *default_path;
  } else {
    spdlog::warn("no answer cache: neither XDG_CACHE_HOME nor HOME is set (use --cache FILE)");
    return true;
  }
  if (shard)
    cache_options.path = io::shard_cache_name(cache_options.path.string(), *shard);
  cache_options.strict = settings.strict_cache;
  cache_options.checkpoint_interval = std::chrono::duration<double>(settings.checkpoint_seconds);
  cache_options.min_solve_microseconds = settings.cache_min_solve_us;
  try {
    cache = std::make_unique<pipeline::CacheSession>(cache_options, problem);
  } catch (const pipeline::CacheUnusable& error) {
    spdlog::error("{}", error.what());
    return false;
  } catch (const std::exception& error) {
    if (!settings.cache_file.empty() || settings.strict_cache) {
      spdlog::error("cannot use the answer cache {}: {}", cache_options.path.string(),
                    error.what());
      return false;
    }
    // The default location is not the user's choice: its trouble must not stop the run.
    spdlog::warn("cannot use the default answer cache {} ({}); going on without a cache",
                 cache_options.path.string(), error.what());
  }
  return true;
}

std::string game_list_help() {
  // One column of names, the summaries beside them, wrapped within 100 columns.
  constexpr std::size_t kWidth = 100;
  std::size_t name_width = 0;
  for (const io::Problem* problem : io::all_problems())
    name_width = std::max(name_width, problem->name().size());
  const std::size_t indent = 2 + name_width + 2;
  std::string list;
  for (const io::Problem* problem : io::all_problems()) {
    std::string line = "  " + std::string(problem->name());
    line.resize(indent, ' ');
    std::size_t column = indent;
    std::string_view rest = problem->summary();
    while (!rest.empty()) {
      const std::size_t space = rest.find(' ');
      const std::string_view word = rest.substr(0, space);
      if (column > indent && column + 1 + word.size() > kWidth) {
        line += "\n" + std::string(indent, ' ');
        column = indent;
      } else if (column > indent) {
        line += ' ';
        ++column;
      }
      line += word;
      column += word.size();
      rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
    }
    list += "\n" + line;
  }
  return list;
}

void add_problem_option(CLI::App& command, std::string& problem, const std::string& help) {
  std::vector<std::string> names;
  for (const io::Problem* game : io::all_problems())
    names.emplace_back(game->name());
  command.add_option("--problem,-p", problem, help + game_list_help())
      ->required()
      ->type_name("GAME")
      ->check(CLI::IsMember(names));
}

void add_paths_option(CLI::App& command, std::vector<std::string>& paths) {
  command
      .add_option("PATH", paths,
                  "Input files (any name) and directories (walked recursively for *.in files, or\n"
                  "for a problem package's inputs: see --layout).\n"
                  "Use -- before paths that start with a dash.")
      ->type_name("")
      ->required();
}

void add_layout_option(CLI::App& command, std::optional<io::Layout>& layout) {
  command
      .add_option_function<std::string>(
          "--layout", [&layout](const std::string& name) { layout = io::parse_layout(name); },
          "Read directories as problem packages of this layout, which says where the inputs\n"
          "are and how their answer files are named:\n"
          "  kattis   data/.../X.in -> X.ans (problem.yaml, data/sample/, data/secret/)\n"
          "  polygon  tests/NN -> tests/NN.a (problem.xml)\n"
          "  cms      input/inputN.txt -> output/outputN.txt (task.yaml)\n"
          "A file argument's answer is named by the layout too. Without --layout a directory\n"
          "holding a package's marks (in parentheses) is read as that package, and a plain\n"
          "directory as ever (every *.in file, X.in -> X.ans); a directory with the marks of\n"
          "two layouts is an error that --layout settles")
      ->type_name("LAYOUT")
      ->check(CLI::IsMember({"kattis", "polygon", "cms"}));
}

nlohmann::json layout_json(const std::optional<io::Layout>& layout) {
  return layout ? nlohmann::json(io::layout_name(*layout)) : nlohmann::json(nullptr);
}

void add_html_option(CLI::App& command, std::string& file, const std::string& help) {
  command.add_option("--html", file, help)->type_name("FILE")->check([](const std::string& path) {
    return path.empty() ? std::string("the HTML file name must not be empty") : "";
  });
}

bool write_html_page(const std::string& path, const std::string& page) {
  try {
    io::write_file_atomically(path, page);
    return true;
  } catch (const std::exception& error) {
    spdlog::error("cannot write the HTML page {}: {}", path, error.what());
    return false;
  }
}

bool html_page_writable(const std::string& path) {
  const std::filesystem::path page(path);
  std::error_code error;
  if (page.has_parent_path())
    std::filesystem::create_directories(page.parent_path(), error);
  std::string reason = error ? error.message() : "";
  if (!error) {
    const std::string probe = path + ".tmp.probe." + std::to_string(::getpid());
    const int descriptor = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (descriptor < 0) {
      reason = std::strerror(errno);
    } else {
      ::close(descriptor);
      ::unlink(probe.c_str());
    }
  }
  if (reason.empty())
    return true;
  spdlog::error("cannot write the HTML page {}: {}", path, reason);
  return false;
}

nlohmann::json text_or_null(const std::string& text) {
  return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
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

void add_run_settings_options(CLI::App& command, RunSettings& settings) {
  command
      .add_option("--jobs,-j", settings.jobs,
                  "Threads to use at most (0, the default: all cores). Answers are the same for\n"
                  "every N.")
      ->type_name("N")
      ->check(CLI::Range(0, 1 << 16));
  const std::optional<std::filesystem::path> default_cache = pipeline::default_cache_path();
  CLI::Option* cache_option =
      command
          .add_option("--cache", settings.cache_file,
                      "The answer cache file (default: " +
                          (default_cache ? default_cache->string()
                                         : std::string("none: neither XDG_CACHE_HOME nor HOME "
                                                       "is set")) +
                          ")")
          ->type_name("FILE")
          ->check([](const std::string& path) {
            return path.empty() ? std::string("the cache file name must not be empty") : "";
          });
  command.add_flag("--no-cache", settings.no_cache, "Solve every case; read and write no cache")
      ->excludes(cache_option);
  command.add_flag("--strict-cache", settings.strict_cache,
                   "A cache file that cannot be trusted is an error (exit 2) instead of being set\n"
                   "aside as FILE.bad with a warning");
  command
      .add_option("--checkpoint", settings.checkpoint_seconds,
                  "Commit new answers to the cache every SECONDS during the run (0: at the end\n"
                  "only); a killed run keeps what it committed")
      ->type_name("SECONDS")
      ->default_val(5)
      ->check(CLI::Range(0.0, 1e9));
  command
      .add_option(
          "--cache-min-solve-us", settings.cache_min_solve_us,
          "Cases the game expects to solve in less than N microseconds (estimated from the\n"
          "case's size) are neither looked up in the cache nor stored: solving them again is\n"
          "cheaper. 0 caches every case. The default, 70, is four times what hashing, a\n"
          "look-up and a store cost in a cache of a million entries (measured by\n"
          "tools/bench/cache_bench.sh), so a cold run costs at most 25% more than without a cache")
      ->type_name("N")
      ->default_val(pipeline::kDefaultCacheMinSolveMicroseconds)
      ->check(CLI::Range(0.0, 1e9));
  command
      .add_option_function<std::string>(
          "--memory-budget",
          [&settings](const std::string& text) { settings.memory_budget = parse_size(text); },
          "Bytes the games may keep between cases, such as 3G or 3Gi (0: no bound; default:\n"
          "half of the machine's memory, or of its cgroup's limit). Beyond it doublemove drops\n"
          "the state tables used least recently and makes them again when needed; a case whose\n"
          "table alone is larger fails, naming the budget. Not --memory-limit of check, which\n"
          "limits the programs under test")
      ->type_name("SIZE")
      ->check(check_size);
  command
      .add_option(
          "--report", settings.report_file,
          "Write a JSON report of the run to FILE: per file its status, cases, cache hits,\n"
          "solve time and error; totals; the version and options")
      ->type_name("FILE")
      ->check([](const std::string& path) {
        return path.empty() ? std::string("the report file name must not be empty") : "";
      });
  add_html_option(command, settings.html_file,
                  "Write a self-contained HTML page of the run to FILE: the summary, a histogram\n"
                  "of per-file solve time per game, the slowest files, cached vs solved, rejected\n"
                  "files, the options (no network or scripts needed to view it)");
  command.add_flag("--quiet,-q", settings.quiet,
                   "No progress line (it is only drawn when stderr is a terminal)");
  command
      .add_option_function<std::string>(
          "--shard",
          [&settings](const std::string& text) {
            settings.shard = io::parse_shard(text);
            if (!settings.shard)
              throw CLI::ValidationError("--shard", "expected I/N with 1 <= I <= N, found " + text);
          },
          "Solve only shard I of N of the inputs (by a stable hash of each input's path\n"
          "relative to its PATH argument); the cache file gets the suffix .shard-I-of-N.\n"
          "Default inside a Slurm job array: I = SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN + 1,\n"
          "N = SLURM_ARRAY_TASK_COUNT")
      ->type_name("I/N");
  command.add_flag(
      "--mpi", settings.mpi,
      "Run as one rank of an MPI job: `mpirun -np R gamebatch solve --mpi ...` (or\n"
      "`srun --mpi=pmix` inside a Slurm allocation) solves the inputs over R ranks on any\n"
      "number of machines, each rank on --jobs threads, handing out cases on demand. Rank 0\n"
      "reads the inputs, owns the cache, writes every answer file and prints the summary;\n"
      "the other ranks only solve. Not with --shard");
}

void add_solve_command(CLI::App& app, SolveJob& job, RunSettings& settings) {
  CLI::App* solve = app.add_subcommand("solve", "Solve input files and write their answer files");
  solve->footer(
      "For X.in the answers go to X.ans (other names get .ans appended), beside the input or\n"
      "under --out DIR at the input's path relative to its PATH argument; a problem package's\n"
      "answers are named as its layout names them (see --layout). An answer file holds\n"
      "the official output of all the file's cases in order; it is written whole (temporary\n"
      "file, then rename) or, for a rejected input, not at all (a stale one is removed).\n"
      "Each rejected input is reported on stderr as FILE:LINE: what was expected there.\n"
      "Answers are cached by content (game, solver version, the case in canonical form), so a\n"
      "rerun solves only new or changed cases. The cache is an SQLite file, looked up case by\n"
      "case; new answers are committed every --checkpoint seconds and at the end, and runs\n"
      "sharing a cache each see what the others committed. Cases cheaper to solve than to\n"
      "look up (--cache-min-solve-us) skip it.\n"
      "On a terminal a progress line shows files and cases done, speed, cache hits, errors and\n"
      "the time left. The run ends with one line:\n"
      "  files: F cases: C solved: S cached: H rejected: R time: T s\n"
      "Ctrl-C (or SIGTERM) stops the run cleanly within a second: files whose cases were all\n"
      "answered are written, the others are left unfinished, every answer solved is committed\n"
      "to the cache, and the summary ends in '(interrupted)'; a second Ctrl-C quits at once.\n"
      "Exit status: 0 all inputs solved, 1 some input rejected (the others were still solved),\n"
      "2 usage error, 130 (143) interrupted by SIGINT (SIGTERM).");
  add_problem_option(*solve, job.problem, "The game of the inputs:");
  solve
      ->add_option("--out,-o", job.out_dir,
                   "Write answer files under DIR instead of beside the inputs.")
      ->type_name("DIR");
  add_layout_option(*solve, job.layout);
  add_run_settings_options(*solve, settings);
  add_paths_option(*solve, job.paths);
}

int run_solve_command(const SolveJob& job, const RunSettings& settings) {
  nlohmann::json options = settings_json(settings);
  options["problem"] = job.problem;
  options["paths"] = job.paths;
  options["out"] = text_or_null(job.out_dir);
  options["layout"] = layout_json(job.layout);
  return execute_solve_jobs({job}, settings, "solve", options);
}

namespace {

#ifdef GAMEBATCH_HAVE_MPI
using Cluster = pipeline::MpiCluster;
#else
struct Cluster {};  // never made: --mpi is refused first
#endif

// For --mpi: joins the MPI job. Returns false (after saying why) when that cannot be.
bool join_mpi_job(const RunSettings& settings, int threads, std::unique_ptr<Cluster>& cluster) {
  if (!settings.mpi) {
    // Started as one of several ranks without --mpi: every rank would solve the whole set.
    for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
      const char* ranks = std::getenv(variable);
      if (ranks != nullptr && std::atoi(ranks) > 1) {
        spdlog::warn(
            "started as one of {} MPI ranks without --mpi: each rank solves every input "
            "(add --mpi to share the work)",
            ranks);
        break;
      }
    }
    return true;
  }
  if (settings.shard) {
    spdlog::error(
        "--mpi and --shard exclude each other: the MPI mode balances the whole set "
        "over its ranks");
    return false;
  }
#ifdef GAMEBATCH_HAVE_MPI
  if (const std::string problem = pipeline::mpi_launch_problem(); !problem.empty()) {
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

}  // namespace

int execute_solve_jobs(const std::vector<SolveJob>& jobs, const RunSettings& settings,
                       std::string_view command, const nlohmann::json& options) {
  const auto started = std::chrono::steady_clock::now();

  const int threads = static_cast<int>(thread_count(settings.jobs));
  tbb::global_control thread_limit(tbb::global_control::max_allowed_parallelism,
                                   static_cast<std::size_t>(threads));
  apply_memory_budget(settings.memory_budget);

  std::unique_ptr<Cluster> cluster;
  if (!join_mpi_job(settings, threads, cluster))
    return kExitUsage;
#ifdef GAMEBATCH_HAVE_MPI
  if (cluster != nullptr && cluster->rank() != 0) {
    cluster->serve();  // rank 0 reports for the whole job
    return kExitSolved;
  }
#endif

  // Every job's inputs are found before anything is solved: a usage error stops the run at once.
  std::optional<io::Shard> shard;
  std::vector<io::InputList> inputs_of_job;
  try {
    if (!settings.mpi)
      shard = effective_shard(settings);
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
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  }
  if (shard && !settings.shard) {
    spdlog::info("Slurm job array task: solving shard {}/{}", shard->index, shard->count);
  }

  // What the JSON report puts before its files; the HTML page shows the same.
  const nlohmann::json header{{"schema", pipeline::kReportSchema},
                              {"gamebatch_version", kVersion},
                              {"command", command},
                              {"options", options}};
  std::unique_ptr<pipeline::RunReport> report;
  if (!settings.report_file.empty()) {
    try {
      report = std::make_unique<pipeline::RunReport>(settings.report_file, header);
    } catch (const std::exception& error) {
      spdlog::error("{}", error.what());
      return kExitUsage;
    }
  }

  // Bounded aggregates of the files, rendered once the run is over.
  std::optional<pipeline::SolvePage> page;
  if (!settings.html_file.empty()) {
    if (!html_page_writable(settings.html_file))
      return kExitUsage;
    page.emplace();
  }

  pipeline::ProgressCounters progress;
  for (const auto& inputs : inputs_of_job)
    progress.files_total += inputs.size();
  const bool show_progress = !settings.quiet && pipeline::is_terminal(stderr);

  pipeline::RunSummary total;
  int status = kExitSolved;
  // One progress line over all the jobs (files and rate are the run's); lines printed meanwhile
  // erase it first.
  LogPatternWhileProgress log_pattern(show_progress);
  pipeline::ProgressLine progress_line(progress, show_progress);
  const char* erase_progress = show_progress ? "\r\033[K" : "";
  for (std::size_t job_index = 0; job_index < jobs.size(); ++job_index) {
    if (stop_requested()) {  // the jobs not started count as unfinished
      total.files += inputs_of_job[job_index].size();
      total.interrupted = true;
      continue;
    }
    const auto job_started = std::chrono::steady_clock::now();
    pipeline::SolveOptions options_of_job;
    options_of_job.problem = io::find_problem(jobs[job_index].problem);
    options_of_job.inputs = std::move(inputs_of_job[job_index]);
    std::unique_ptr<pipeline::CacheSession> cache;
    if (!open_cache(settings, shard, *options_of_job.problem, cache))
      return kExitUsage;
    if (cache != nullptr) {
      options_of_job.cache = cache.get();
      cache->start_checkpoints();
    }
    options_of_job.progress = &progress;
    if (report != nullptr || page) {
      options_of_job.on_file_done = [&report, &page,
                                     job_number = job_index + 1](const pipeline::FileReport& file) {
        if (report != nullptr)
          report->add_file(file, job_number);
        if (page)
          page->add_file(file, job_number);
      };
    }
#ifdef GAMEBATCH_HAVE_MPI
    pipeline::RunSummary summary = cluster != nullptr
                                       ? cluster->run_solve(std::move(options_of_job))
                                       : pipeline::run_solve(options_of_job);
#else
    pipeline::RunSummary summary = pipeline::run_solve(options_of_job);
#endif
    if (cache != nullptr) {
      if (!cache->finish() && settings.strict_cache && cache->damaged_during_run()) {
        spdlog::error("the answer cache {} turned out damaged during the run (--strict-cache)",
                      cache->path().string());
        status = kExitUsage;
      }
      cache.reset();  // closes the store: its log is folded into the file
    }
    // The job's whole time, cache loading and saving included.
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - job_started).count();
    if (jobs.size() > 1) {
      const std::string prefix = erase_progress + ("job " + std::to_string(job_index + 1) + " (" +
                                                   jobs[job_index].problem + "): ");
      print_summary(prefix.c_str(), summary);
    }
    total.files += summary.files;
    total.cases += summary.cases;
    total.solved += summary.solved;
    total.cached += summary.cached;
    total.rejected += summary.rejected;
    total.finished += summary.finished;
    total.interrupted = total.interrupted || summary.interrupted;
    if (summary.rejected != 0)
      status = std::max(status, kExitRejected);
  }
  progress_line.stop();
  // The whole command's time, finding inputs included.
  total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (report != nullptr) {
    try {
      report->finish(total);
    } catch (const std::exception& error) {
      spdlog::error("{}", error.what());
      status = std::max(status, kExitRejected);
    }
  }
  if (page && !write_html_page(settings.html_file, page->render(header, total)))
    status = std::max(status, kExitRejected);
  print_summary("", total);
  return status;
}

}  // namespace gamebatch::cli
