// Data flow (one case is the unit of parallel work):
//
//   file_source -> limiter -> reader -> splitter --cases--> solver --last case--+--> writer --+
//                     ^                    |                                    |             v
//                     |                    `--bad or empty file-----------------+-------> sequencer
//                     |                                                                       |
//                     `------------------ one token back per finished file ------------ finisher
//
// The reader parses a whole file; a bad file becomes a record with its error and goes straight to
// the sequencer, so file order never stalls. The thread that answers a file's last case makes the
// answer file's bytes and compares them with the file on disk (both parallel); only a file whose
// answers changed goes through the writer, which creates files on io::kDefaultFileWriters threads
// at most: the kernel serialises creating and linking files, and threads that wait for it burn
// CPU, so writing from every thread made a run of many small files slower with more threads. The
// sequencer hands files to the single finisher in input order, which reports them (messages,
// summary, run report) deterministically; the limiter bounds the files between reading and
// finishing, so reading never runs far ahead and a finished file's memory is released at once.
#include "pipeline/answers/solve_run.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <tuple>

#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/task_arena.h>
#include <spdlog/spdlog.h>

#include "core/stop_request.hpp"
#include "io/files/atomic_file.hpp"
#include "io/format/input_error.hpp"
#include "pipeline/answers/graph_handoff.hpp"

namespace gamebatch::pipeline {
namespace {

namespace flow = tbb::flow;

// Everything known about one input file while it is in flight.
struct FileRecord {
  std::size_t index = 0;
  io::InputFile file;  // made from the input list when the file is read, released with it
  std::vector<std::unique_ptr<io::Case>> cases;
  std::vector<std::string> answers;
  std::string answer_text;  // the answer file's bytes, from settling until the writer writes them
  std::atomic<std::size_t> unsolved{0};
  std::atomic<std::size_t> from_cache{0};  // cases answered by the cache
  std::string error;                       // why the file is rejected; empty while it is good
  std::size_t error_line = 0;              // 0 when the error is not about one line
  std::atomic<std::int64_t> solve_nanoseconds{0};  // in the solver, summed over its cases
  std::atomic<bool> case_failed{false};
  std::string case_error;  // the first failed case's message, set once by case_failed's winner
  // A stop was requested before all its cases were answered: it gets no answer file (one already
  // on disk is left as it is), and the answers it has are only in the cache.
  std::atomic<bool> interrupted{false};
  std::atomic<std::size_t> solved_here{0};  // cases solved in this run (not from the cache)
};
using FilePtr = std::shared_ptr<FileRecord>;

struct CaseJob {
  FilePtr file;
  std::size_t case_index;
};

// A file that a dispatcher's thread hands back to the graph, where the graph's thread writes its
// answers (see graph_handoff.hpp).
using HandedFile = HandedOver<FileRecord>;

FilePtr read_and_split(const io::Problem& problem, std::size_t index, io::InputFile file,
                       ProgressCounters* progress) {
  auto record = std::make_shared<FileRecord>();
  record->index = index;
  record->file = std::move(file);
  try {
    const std::string text = io::read_file(record->file.input);
    record->cases = problem.parse(text);
    record->answers.resize(record->cases.size());
    record->unsolved = record->cases.size();
    if (progress != nullptr)
      progress->cases_known.fetch_add(record->cases.size(), std::memory_order_relaxed);
  } catch (const io::InputError& error) {
    record->error = error.what();
    record->error_line = error.line();
  } catch (const std::exception& error) {
    record->error = error.what();  // e.g. "cannot open: No such file or directory"
  }
  return record;
}

std::string timed_solve(const io::Case& a_case, std::atomic<std::int64_t>& nanoseconds) {
  const auto started = std::chrono::steady_clock::now();
  std::string answer = a_case.solve();
  nanoseconds.fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now() - started)
                            .count(),
                        std::memory_order_relaxed);
  return answer;
}

// A case's place in the answer cache: looked up before the case is solved, its answer stored
// after, wherever it was solved.
struct CacheSlot {
  bool cacheable = false;  // false: no cache, or the case is cheaper to solve than to look up
  std::string canonical;
  io::CacheKey key{};
};

// The cached answer of `a_case`, or nullopt with `slot` ready for store_answer.
std::optional<std::string> look_up(const io::Problem& problem, const io::Case& a_case,
                                   CacheSession* cache, CacheSlot& slot) {
  if (cache == nullptr || !cache->worth_caching(a_case))
    return std::nullopt;
  slot.cacheable = true;
  slot.canonical = a_case.canonical();
  slot.key = io::case_key(problem.name(), problem.solver_version(), slot.canonical);
  return cache->find(slot.key);
}

void store_answer(const io::Problem& problem, CacheSession* cache, CacheSlot&& slot,
                  const std::string& answer) {
  if (slot.cacheable) {
    cache->add(slot.key, io::CacheEntry{std::string(problem.name()), problem.solver_version(),
                                        std::move(slot.canonical), answer});
  }
}

// The case's answer from the cache, or solved (and then added to the cache). Cases too cheap to
// be worth a look-up are solved straight away.
std::string answer_case(const io::Problem& problem, const io::Case& a_case, CacheSession* cache,
                        FileRecord& file, bool& from_cache) {
  CacheSlot slot;
  if (std::optional<std::string> answer = look_up(problem, a_case, cache, slot)) {
    file.from_cache.fetch_add(1, std::memory_order_relaxed);
    from_cache = true;
    return std::move(*answer);
  }
  std::string answer = timed_solve(a_case, file.solve_nanoseconds);
  store_answer(problem, cache, std::move(slot), answer);
  file.solved_here.fetch_add(1, std::memory_order_relaxed);
  return answer;
}

void fail_case(FileRecord& file, std::size_t case_index, std::string_view error) {
  if (!file.case_failed.exchange(true))
    file.case_error = "case " + std::to_string(case_index + 1) + ": " + std::string(error);
}

// Counts one case of the file as answered; returns true when it was the file's last.
bool finish_case(const CaseJob& job, bool from_cache, ProgressCounters* progress) {
  FileRecord& file = *job.file;
  file.cases[job.case_index].reset();  // the case's memory is not needed any more
  if (progress != nullptr) {
    progress->cases_done.fetch_add(1, std::memory_order_relaxed);
    if (from_cache)
      progress->cached.fetch_add(1, std::memory_order_relaxed);
  }
  return file.unsolved.fetch_sub(1, std::memory_order_acq_rel) == 1;
}

// Answers one case, unless a stop was requested (before or while it is solved); returns true when
// it was the file's last.
bool solve_case(const io::Problem& problem, CacheSession* cache, ProgressCounters* progress,
                const CaseJob& job) {
  FileRecord& file = *job.file;
  bool from_cache = false;
  try {
    throw_if_stop_requested();
    file.answers[job.case_index] =
        answer_case(problem, *file.cases[job.case_index], cache, file, from_cache);
  } catch (const StopRequested&) {
    file.interrupted.store(true, std::memory_order_relaxed);
  } catch (const std::exception& error) {
    fail_case(file, job.case_index, error.what());
  }
  return finish_case(job, from_cache, progress);
}

// Records what the dispatcher answered for a case, and caches it.
void take_dispatched_answer(const io::Problem& problem, const SolveOptions& options,
                            const CaseJob& job, CacheSlot&& slot, CaseDispatcher::Result result) {
  FileRecord& file = *job.file;
  file.solve_nanoseconds.fetch_add(static_cast<std::int64_t>(result.solve_seconds * 1e9),
                                   std::memory_order_relaxed);
  if (result.interrupted) {
    file.interrupted.store(true, std::memory_order_relaxed);
    return;
  }
  if (result.failed) {
    fail_case(file, job.case_index, result.text);
    return;
  }
  try {
    store_answer(problem, options.cache, std::move(slot), result.text);
    file.answers[job.case_index] = std::move(result.text);
    file.solved_here.fetch_add(1, std::memory_order_relaxed);
  } catch (const std::exception& error) {  // as in solve_case: the case fails
    fail_case(file, job.case_index, error.what());
  }
}

// Answers one case from the cache, or hands it to the dispatcher; the file goes out through the
// gateway (once, from whichever thread answers its last case). The dispatcher's answer is cached.
using Dispatch = flow::async_node<CaseJob, HandedFile>;
void dispatch_case(const io::Problem& problem, const SolveOptions& options, const CaseJob& job,
                   Dispatch::gateway_type& gateway) {
  FileRecord& file = *job.file;
  const io::Case& a_case = *file.cases[job.case_index];
  ProgressCounters* progress = options.progress;
  CacheSlot slot;
  // The case is over here: the file goes out if it was its last.
  const auto finish_here = [&](bool from_cache) {
    if (finish_case(job, from_cache, progress))
      gateway.try_put(HandedFile(job.file));
  };
  try {
    throw_if_stop_requested();
    if (std::optional<std::string> answer = look_up(problem, a_case, options.cache, slot)) {
      file.answers[job.case_index] = std::move(*answer);
      file.from_cache.fetch_add(1, std::memory_order_relaxed);
      finish_here(true);
      return;
    }
  } catch (const StopRequested&) {
    file.interrupted.store(true, std::memory_order_relaxed);
    finish_here(false);
    return;
  } catch (const std::exception& error) {
    fail_case(file, job.case_index, error.what());
    finish_here(false);
    return;
  }
  gateway.reserve_wait();                  // released when the answer is in
  std::string canonical = slot.canonical;  // the dispatcher's copy; the slot keeps its own
  options.dispatcher->submit(problem, a_case, std::move(canonical),
                             [&problem, &options, &gateway, job,
                              slot = std::move(slot)](CaseDispatcher::Result result) mutable {
                               take_dispatched_answer(problem, options, job, std::move(slot),
                                                      std::move(result));
                               if (finish_case(job, false, options.progress))
                                 gateway.try_put(HandedFile(job.file));
                               before_release_wait(gateway);
                               gateway.release_wait();
                             });
}

// Makes an accepted file's answer text and returns whether it must be written: false when the
// file is rejected, its answers go to SolveOptions::answers_to (nothing is written), or the answer
// file on disk holds them already. Called once per file, when its last case is answered (or it
// has none), on the thread that answered it.
bool settle_answers(const io::Problem& problem, const SolveOptions& options,
                    const io::NamesOnDisk& names_on_disk, FileRecord& record) {
  if (!record.error.empty() || record.case_failed.load() || record.interrupted.load() ||
      options.answers_to)
    return false;
  std::string content;
  for (std::size_t k = 0; k < record.answers.size(); ++k)
    content += problem.answer_line(k + 1, record.answers[k]);
  record.answers.clear();  // the text holds them now; the finisher needs only their count
  record.answers.shrink_to_fit();
  if (names_on_disk.may_hold(record.file.answer) && io::file_holds(record.file.answer, content))
    return false;
  record.answer_text = std::move(content);
  return true;
}

// Writes a settled file's answers whole; a failure rejects the file. Runs on a writer.
void write_answers(FileRecord& record) {
  try {
    if (record.file.answer == io::kStandardStream) {  // the input read from stdin
      if (std::fwrite(record.answer_text.data(), 1, record.answer_text.size(), stdout) !=
              record.answer_text.size() ||
          std::fflush(stdout) != 0)
        throw std::runtime_error("stdout: " + std::string(std::strerror(errno)));
      return;
    }
    io::write_file_atomically(record.file.answer, record.answer_text);
  } catch (const std::exception& error) {
    record.error = std::string("cannot write answers: ") + error.what();
    record.error_line = 0;
  }
  record.answer_text.clear();
  record.answer_text.shrink_to_fit();
}

// The first two output ports of the nodes that finish a file's answers: to the sequencer, and to
// the writer.
template <typename Ports>
void pass_on(const io::Problem& problem, const SolveOptions& options,
             const io::NamesOnDisk& names_on_disk, const FilePtr& file, Ports& ports) {
  if (settle_answers(problem, options, names_on_disk, *file)) {
    std::get<1>(ports).try_put(file);
  } else {
    std::get<0>(ports).try_put(file);
  }
}

// Finishes files one at a time in input order: summary, messages, progress, run report.
class Finisher {
 public:
  Finisher(const io::Problem& problem, const SolveOptions& options, RunSummary& summary)
      : problem_(problem), options_(options), summary_(summary) {}

  void finish(FileRecord& record) {
    if (record.error.empty() && record.case_failed.load())
      record.error = record.case_error;
    if (record.error.empty() && record.interrupted.load()) {
      // What was solved is in the cache; the file counts as unfinished.
      summary_.solved += record.solved_here.load();
      summary_.cached += record.from_cache.load();
    } else if (record.error.empty()) {
      ++summary_.finished;
      count_answers(record);
      if (options_.answers_to)
        options_.answers_to(record.index, record.answers);
    } else {
      ++summary_.finished;
      reject(record);
    }
    if (options_.progress != nullptr) {
      options_.progress->files_done.fetch_add(1, std::memory_order_relaxed);
      if (!record.error.empty())
        options_.progress->rejected.fetch_add(1, std::memory_order_relaxed);
    }
    if (options_.on_file_done)
      options_.on_file_done(report_of(record));
    record.answers.clear();
    record.answers.shrink_to_fit();
  }

 private:
  void count_answers(const FileRecord& record) {
    const std::size_t cached = record.from_cache.load();
    summary_.cases += record.cases.size();
    summary_.cached += cached;
    summary_.solved += record.cases.size() - cached;
  }

  FileReport report_of(const FileRecord& record) const {
    const std::size_t cases = record.cases.size();
    const std::size_t cached = record.from_cache.load();
    FileStatus status = FileStatus::solved;
    if (!record.error.empty()) {
      status = FileStatus::rejected;
    } else if (record.interrupted.load()) {
      status = FileStatus::interrupted;
    } else if (cases != 0 && cached == cases) {
      status = FileStatus::cached;
    }
    return FileReport{
        .input = record.file.input,
        .answer = record.file.answer,
        .game = problem_.name(),
        .status = status,
        .cases = cases,
        .solved = status == FileStatus::rejected      ? 0
                  : status == FileStatus::interrupted ? record.solved_here.load()
                                                      : cases - cached,
        .cached = status == FileStatus::rejected ? 0 : cached,
        .solve_seconds = static_cast<double>(record.solve_nanoseconds.load()) * 1e-9,
        .error_line = record.error_line,
        .error = record.error,
    };
  }

  void reject(const FileRecord& record) {
    const io::InputFile& file = record.file;
    ++summary_.rejected;
    if (record.error_line != 0) {
      spdlog::error("{}:{}: {}", file.input.string(), record.error_line, record.error);
    } else {
      spdlog::error("{}: {}", file.input.string(), record.error);
    }
    // A stale answer file would pass for the answers of the new, bad input.
    std::error_code ignored;
    if (!options_.answers_to && std::filesystem::remove(file.answer, ignored)) {
      spdlog::info("removed the stale answer file {}", file.answer.string());
    }
  }

  const io::Problem& problem_;
  const SolveOptions& options_;
  RunSummary& summary_;
};

std::size_t file_writers(const SolveOptions& options) {
  return options.file_writers != 0 ? options.file_writers : io::kDefaultFileWriters;
}

// A run killed while writing may leave temporary answer files behind; the next run over the same
// outputs removes them, so its answer directories hold exactly what an uninterrupted run leaves.
// Returns the names left there.
io::NamesOnDisk prepare_answer_directories(const io::InputList& inputs) {
  io::NamesOnDisk names;
  std::size_t removed = 0;
  for (const std::filesystem::path& directory : inputs.answer_directories()) {
    removed +=
        io::remove_stale_temporaries(directory.empty() ? "." : directory,
                                     [&](std::string_view name) { names.add(directory, name); });
  }
  names.seal();
  if (removed != 0)
    spdlog::info("removed {} temporary files left by an interrupted run", removed);
  return names;
}

}  // namespace

std::string summary_line(const RunSummary& summary) {
  char line[256];
  if (summary.interrupted) {
    std::snprintf(line, sizeof line,
                  "files: %zu cases: %zu solved: %zu cached: %zu rejected: %zu unfinished: %zu "
                  "time: %.3f s (interrupted)",
                  summary.files, summary.cases, summary.solved, summary.cached, summary.rejected,
                  summary.unfinished(), summary.seconds);
  } else {
    std::snprintf(line, sizeof line,
                  "files: %zu cases: %zu solved: %zu cached: %zu rejected: %zu time: %.3f s",
                  summary.files, summary.cases, summary.solved, summary.cached, summary.rejected,
                  summary.seconds);
  }
  return line;
}

namespace {

// How many files may be between reading and finishing at once.
std::size_t files_in_flight(const SolveOptions& options) {
  return options.max_files_in_flight != 0
             ? options.max_files_in_flight
             : 8 * static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()) + 8;
}

// The files of the run through a flow graph: read, split into cases, solved (or dispatched) and
// written in parallel, finished one by one in input order into `summary`.
void solve_through_graph(const SolveOptions& options, const io::NamesOnDisk& names_on_disk,
                         RunSummary& summary) {
  const io::Problem& problem = *options.problem;
  const std::size_t in_flight = files_in_flight(options);

  flow::graph graph;
  std::size_t next_file = 0;
  flow::input_node<std::size_t> file_source(graph, [&](tbb::flow_control& control) {
    if (next_file == options.inputs.size() || stop_requested()) {
      control.stop();
      return std::size_t{0};
    }
    return next_file++;
  });
  flow::limiter_node<std::size_t> limiter(graph, in_flight);
  flow::function_node<std::size_t, FilePtr> reader(graph, flow::unlimited, [&](std::size_t index) {
    return read_and_split(problem, index, options.inputs[index], options.progress);
  });

  // Output ports 0 and 1 of the splitter, the solver and the settler: to the sequencer, to the
  // writer (pass_on).
  using Splitter = flow::multifunction_node<FilePtr, std::tuple<FilePtr, FilePtr, CaseJob>>;
  Splitter splitter(graph, flow::unlimited,
                    [&problem, &options, &names_on_disk](const FilePtr& file,
                                                         Splitter::output_ports_type& ports) {
                      if (!file->error.empty() || file->cases.empty()) {
                        // A bad file goes on as it is; an empty one has (empty) answers.
                        pass_on(problem, options, names_on_disk, file, ports);
                        return;
                      }
                      for (std::size_t k = 0; k < file->cases.size(); ++k) {
                        std::get<2>(ports).try_put(CaseJob{file, k});
                      }
                    });

  using Solver = flow::multifunction_node<CaseJob, std::tuple<FilePtr, FilePtr>>;
  Solver solver(
      graph, flow::unlimited,
      [&problem, &options, &names_on_disk](const CaseJob& job, Solver::output_ports_type& ports) {
        if (solve_case(problem, options.cache, options.progress, job))
          pass_on(problem, options, names_on_disk, job.file, ports);
      });

  // With a dispatcher, cache misses leave the graph and come back through the gateway of an
  // async_node (which keeps wait_for_all waiting); the settler takes their files from there.
  Dispatch dispatch(graph, flow::unlimited,
                    [&problem, &options](const CaseJob& job, Dispatch::gateway_type& gateway) {
                      dispatch_case(problem, options, job, gateway);
                    });
  using Settler = flow::multifunction_node<HandedFile, std::tuple<FilePtr, FilePtr>>;
  Settler settler(graph, flow::unlimited,
                  [&problem, &options, &names_on_disk](const HandedFile& handed,
                                                       Settler::output_ports_type& ports) {
                    pass_on(problem, options, names_on_disk, handed.take(), ports);
                  });

  // The only node that creates files; it queues what it cannot take yet (the limiter bounds that).
  flow::function_node<FilePtr, FilePtr> writer(graph, file_writers(options),
                                               [](const FilePtr& file) {
                                                 write_answers(*file);
                                                 return file;
                                               });

  flow::sequencer_node<FilePtr> sequencer(graph, [](const FilePtr& file) { return file->index; });

  Finisher finisher_state(problem, options, summary);
  flow::function_node<FilePtr, flow::continue_msg> finisher(graph, flow::serial,
                                                            [&](const FilePtr& file) {
                                                              finisher_state.finish(*file);
                                                              return flow::continue_msg();
                                                            });

  flow::make_edge(file_source, limiter);
  flow::make_edge(limiter, reader);
  flow::make_edge(reader, splitter);
  if (options.dispatcher != nullptr) {
    flow::make_edge(flow::output_port<2>(splitter), dispatch);
    flow::make_edge(dispatch, settler);
    flow::make_edge(flow::output_port<0>(settler), sequencer);
    flow::make_edge(flow::output_port<1>(settler), writer);
  } else {
    flow::make_edge(flow::output_port<2>(splitter), solver);
    flow::make_edge(flow::output_port<0>(solver), sequencer);
    flow::make_edge(flow::output_port<1>(solver), writer);
  }
  flow::make_edge(flow::output_port<0>(splitter), sequencer);
  flow::make_edge(flow::output_port<1>(splitter), writer);
  flow::make_edge(writer, sequencer);
  flow::make_edge(sequencer, finisher);
  flow::make_edge(finisher, limiter.decrementer());

  file_source.activate();
  graph.wait_for_all();
  after_wait_for_all(dispatch.gateway());
}

}  // namespace

RunSummary run_solve(const SolveOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  RunSummary summary;
  summary.files = options.inputs.size();
  // An answer whose name was not in its directory at the start is written without comparing: in
  // a large directory that look-up costs about as much as creating the file, and it waits while
  // a writer holds the directory.
  const io::NamesOnDisk names_on_disk =
      options.answers_to ? io::NamesOnDisk() : prepare_answer_directories(options.inputs);
  solve_through_graph(options, names_on_disk, summary);
  summary.interrupted = stop_requested();
  summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return summary;
}

}  // namespace gamebatch::pipeline
