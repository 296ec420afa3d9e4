// The MPI mode; see mpi_cluster.hpp for the design.
//
// Messages (Boost.MPI, payloads in Boost.Serialization archives):
//   rank r -> 0  kTagReport   WorkerReport: r's thread count and the results of one batch (none in
//                             its first report, which says r is ready)
//   0 -> rank r  kTagBatch    WorkBatch: a game's name and cases (ticket, canonical text)
//   0 -> rank r  kTagRelease  nothing more to do: r returns from serve()
// Rank 0 keeps at most two batches at a rank, and a second only while the first is estimated
// cheap, so that a rank never sits on a heavy case another rank could be solving.
#include "pipeline/solve/mpi_cluster.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <exception>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <oneapi/tbb/parallel_for.h>
#include <spdlog/spdlog.h>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <boost/mpi/request.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>

#include "core/stop_request.hpp"
#include "pipeline/answers/case_dispatcher.hpp"

namespace gamebatch::pipeline {
namespace {

namespace mpi = boost::mpi;

constexpr int kCoordinator = 0;
constexpr int kTagReport = 1;
constexpr int kTagBatch = 2;
constexpr int kTagRelease = 3;

// A batch holds about this much estimated solving per thread of the rank that takes it: long
// enough that a message's round trip (tens of µs) is noise, short enough to balance the end.
constexpr double kBatchMicrosecondsPerThread = 20'000;
constexpr std::size_t kMaxBatchCases = 4096;

struct WireCase {
  std::uint64_t ticket = 0;
  std::string canonical;
  template <class Archive>
  void serialize(Archive& archive, unsigned /*version*/) {
    archive& ticket& canonical;
  }
};

struct WorkBatch {
  std::string game;
  std::vector<WireCase> cases;
  template <class Archive>
  void serialize(Archive& archive, unsigned /*version*/) {
    archive& game& cases;
  }
};

struct WireResult {
  std::uint64_t ticket = 0;
  bool failed = false;
  bool interrupted = false;  // the rank was asked to stop (mpirun passes Ctrl-C on as SIGTERM)
  std::string text;          // the answer, or why solving failed
  double solve_seconds = 0;
  template <class Archive>
  void serialize(Archive& archive, unsigned /*version*/) {
    archive& ticket& failed& interrupted& text& solve_seconds;
  }
};

struct WorkerReport {
  std::uint32_t threads = 1;
  std::vector<WireResult> results;
  template <class Archive>
  void serialize(Archive& archive, unsigned /*version*/) {
    archive& threads& results;
  }
};

// Sleeps that grow from a few µs to `longest` while nothing happens: a waiting rank costs no core,
// yet answers within a fraction of a millisecond.
class Backoff {
 public:
  explicit Backoff(std::chrono::microseconds longest) : longest_(longest) {}
  void reset() { next_ = std::chrono::microseconds(2); }
  std::chrono::microseconds next() {
    const auto now = next_;
    next_ = std::min(longest_, next_ * 2);
    return now;
  }
  void sleep() { std::this_thread::sleep_for(next()); }

 private:
  std::chrono::microseconds longest_;
  std::chrono::microseconds next_{2};
};

CaseDispatcher::Result solve_timed(const io::Case& a_case) {
  CaseDispatcher::Result result;
  const auto started = std::chrono::steady_clock::now();
  try {
    throw_if_stop_requested();
    result.text = a_case.solve();
  } catch (const StopRequested&) {
    result.interrupted = true;
  } catch (const std::exception& error) {
    result.failed = true;
    result.text = error.what();
  }
  result.solve_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

struct PendingCase {
  const io::Problem* problem = nullptr;
  const io::Case* a_case = nullptr;
  std::string canonical;  // from the cache look-up, or printed when the case leaves rank 0
  double estimated_microseconds = 0;
  CaseDispatcher::Done done;
};

// The cases waiting for a rank, in the order the graph submitted them. Thread-safe.
class WorkPool final : public CaseDispatcher {
 public:
  void submit(const io::Problem& problem, const io::Case& a_case, std::string canonical,
              Done done) override {
    PendingCase pending{&problem, &a_case, std::move(canonical),
                        a_case.estimated_solve_microseconds(), std::move(done)};
    {
      const std::lock_guard lock(mutex_);
      queue_.push_back(std::move(pending));
      ++generation_;
    }
    changed_.notify_all();
  }

  // Cases from the front whose estimates add up to about `budget_us` (always one at least), all
  // of one game; empty when none wait.
  std::vector<PendingCase> take(double budget_us) {
    const std::lock_guard lock(mutex_);
    return take_locked(budget_us);
  }

  // As take(), but waits until cases wait; empty once the pool is closed.
  std::vector<PendingCase> wait_and_take(double budget_us) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return closed_ || !queue_.empty(); });
    return take_locked(budget_us);
  }

  // Waits until something changed since `seen` (a case came, the pool closed, notify()) or for
  // `timeout`; returns what to pass as `seen` next time. Waiting for a change, not for cases to
  // wait, keeps the coordinator from spinning while the ranks are busy and cases queue.
  std::uint64_t wait_for_change(std::uint64_t seen, std::chrono::microseconds timeout) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, timeout, [this, seen] { return generation_ != seen; });
    return generation_;
  }

  void notify() {
    {
      const std::lock_guard lock(mutex_);
      ++generation_;
    }
    changed_.notify_all();
  }

  void close() {
    {
      const std::lock_guard lock(mutex_);
      closed_ = true;
      ++generation_;
    }
    changed_.notify_all();
  }

 private:
  std::vector<PendingCase> take_locked(double budget_us) {
    std::vector<PendingCase> batch;
    if (queue_.empty())
      return batch;
    const io::Problem* game = queue_.front().problem;
    double cost = 0;
    while (!queue_.empty() && queue_.front().problem == game && batch.size() < kMaxBatchCases) {
      const PendingCase& next = queue_.front();
      if (!batch.empty() && cost + next.estimated_microseconds > budget_us)
        break;
      cost += next.estimated_microseconds;
      batch.push_back(std::move(queue_.front()));
      queue_.pop_front();
    }
    return batch;
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<PendingCase> queue_;
  bool closed_ = false;
  std::uint64_t generation_ = 0;  // bumped by every change
};

// What a rank did in one job, for the closing log lines (how well the work was spread).
struct RankTally {
  std::size_t cases = 0;
  std::size_t batches = 0;
  double solve_seconds = 0;
};

// What rank 0 knows of another rank.
struct Worker {
  bool ready = false;  // its first report has come
  std::uint32_t threads = 1;
  std::deque<double>
      batches_held;  // estimated µs of each batch sent and not yet answered, in order
  double estimated_microseconds_held = 0;
};

// The rank the launcher gave this process, read from its environment so that rank 0 can start
// working while MPI_Init still runs (seconds on a large job); -1 when no known launcher says.
int number_from_environment(std::initializer_list<const char*> variables) {
  for (const char* variable : variables) {
    if (const char* value = std::getenv(variable)) {
      char* end = nullptr;
      const long number = std::strtol(value, &end, 10);
      if (end != value && *end == '\0' && number >= 0 && number < (1L << 30))
        return static_cast<int>(number);
    }
  }
  return -1;
}

}  // namespace

// Every MPI call is made on `mpi_thread`, which initialises and finalises MPI (funneled): on rank
// 0 it coordinates while the calling thread runs the flow graph; elsewhere it serves.
struct MpiCluster::State {
  explicit State(int threads_of_rank) : threads(threads_of_rank) {}

  void mpi_main();
  void coordinate(WorkPool& pool);
  void serve();
  void receive_report(int source);
  bool send_work(WorkPool& pool, int rank);
  void reap_sends();
  void release_workers();
  // Waits until MPI is up; rethrows what kept it from coming up.
  void wait_until_initialised();

  const int threads;  // of this rank (serve) or of rank 0's local solver

  std::mutex mutex;  // guards what follows, up to the MPI thread's own state
  std::condition_variable changed;
  int my_rank = -1;  // from the environment, or from MPI once initialised
  int ranks = 0;
  bool initialised = false;
  std::exception_ptr init_error;
  WorkPool* job = nullptr;  // rank 0: the job to coordinate; reset by the MPI thread when done
  bool shutting_down = false;
  std::atomic<bool> job_done{false};

  std::thread mpi_thread;

  // The MPI thread's own.
  std::unique_ptr<mpi::environment> environment;
  std::unique_ptr<mpi::communicator> world;
  std::vector<Worker> workers;     // indexed by rank; workers[0] unused
  std::vector<RankTally> tallies;  // of the current job, indexed by rank; [0] unused
  std::unordered_map<std::uint64_t, PendingCase> in_flight;
  std::vector<mpi::request> sends;  // batches on their way
  std::uint64_t next_ticket = 1;
};

void MpiCluster::State::mpi_main() {
  try {
    environment = std::make_unique<mpi::environment>(mpi::threading::funneled,
                                                     /*abort_on_exception=*/true);
    if (environment->thread_level() < mpi::threading::funneled)
      throw std::runtime_error("the MPI library does not support threads (MPI_THREAD_FUNNELED)");
    world = std::make_unique<mpi::communicator>();
    const std::lock_guard lock(mutex);
    if (my_rank >= 0 && my_rank != world->rank())
      throw std::runtime_error("the launcher's rank " + std::to_string(my_rank) +
                               " is MPI's rank " + std::to_string(world->rank()));
    my_rank = world->rank();
    ranks = world->size();
    initialised = true;
  } catch (...) {
    const std::lock_guard lock(mutex);
    init_error = std::current_exception();
    initialised = true;
  }
  changed.notify_all();
  if (init_error)
    return;
  if (my_rank != kCoordinator) {
    serve();
  } else {
    workers.resize(static_cast<std::size_t>(ranks));
    for (;;) {
      WorkPool* pool = nullptr;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [this] { return job != nullptr || shutting_down; });
        if (job == nullptr)
          break;
        pool = job;
      }
      tallies.assign(static_cast<std::size_t>(ranks), RankTally{});
      coordinate(*pool);
      {
        const std::lock_guard lock(mutex);
        job = nullptr;
      }
      changed.notify_all();
    }
    release_workers();
  }
  world.reset();
  environment.reset();  // MPI_Finalize, on the thread that initialised MPI
}

void MpiCluster::State::wait_until_initialised() {
  std::unique_lock lock(mutex);
  changed.wait(lock, [this] { return initialised; });
  if (init_error)
    std::rethrow_exception(init_error);
}

// Until the job is done (every case answered): hands batches to the ranks that have room and
// passes their answers on.
void MpiCluster::State::coordinate(WorkPool& pool) {
  Backoff backoff(std::chrono::microseconds(1000));
  std::uint64_t seen = 0;
  while (!job_done) {
    bool busy = false;
    while (boost::optional<mpi::status> status = world->iprobe(mpi::any_source, kTagReport)) {
      receive_report(status->source());
      busy = true;
    }
    for (int worker = 1; worker < ranks; ++worker) {
      while (send_work(pool, worker))
        busy = true;
    }
    reap_sends();
    if (busy) {
      backoff.reset();
    } else {
      seen = pool.wait_for_change(seen, backoff.next());
    }
  }
}

void MpiCluster::State::receive_report(int source) {
  WorkerReport report;
  world->recv(source, kTagReport, report);
  Worker& worker = workers[static_cast<std::size_t>(source)];
  worker.ready = true;
  worker.threads = std::max<std::uint32_t>(1, report.threads);
  if (!report.results.empty()) {
    // The results are those of the oldest batch the rank holds: it solves them in order.
    worker.estimated_microseconds_held -= worker.batches_held.front();
    worker.batches_held.pop_front();
    RankTally& tally = tallies[static_cast<std::size_t>(source)];
    ++tally.batches;
    tally.cases += report.results.size();
    for (const WireResult& wire : report.results)
      tally.solve_seconds += wire.solve_seconds;
  }
  for (WireResult& wire : report.results) {
    auto found = in_flight.find(wire.ticket);
    if (found == in_flight.end())
      throw std::runtime_error("MPI: rank " + std::to_string(source) + " answered an unknown case");
    PendingCase pending = std::move(found->second);
    in_flight.erase(found);
    pending.done(CaseDispatcher::Result{wire.failed, wire.interrupted, std::move(wire.text),
                                        wire.solve_seconds});
  }
}

// Sends `rank` a batch from the pool when it has room for one; returns whether it sent.
bool MpiCluster::State::send_work(WorkPool& pool, int to) {
  Worker& worker = workers[static_cast<std::size_t>(to)];
  const double budget = kBatchMicrosecondsPerThread * worker.threads;
  // After a stop request the cases still queued are left to rank 0's own solver, which gives
  // them back unsolved at once, rather than sent where they might be solved in full.
  if (!worker.ready || worker.batches_held.size() >= 2 ||
      (!worker.batches_held.empty() && worker.estimated_microseconds_held >= budget) ||
      stop_requested())
    return false;
  std::vector<PendingCase> taken = pool.take(budget);
  if (taken.empty())
    return false;
  WorkBatch batch;
  batch.game = std::string(taken.front().problem->name());
  batch.cases.reserve(taken.size());
  double estimate = 0;
  for (PendingCase& pending : taken) {
    if (pending.canonical.empty())
      pending.canonical = pending.a_case->canonical();
    const std::uint64_t ticket = next_ticket++;
    batch.cases.push_back(WireCase{ticket, pending.canonical});
    pending.canonical = std::string();  // sent; the cache keeps its own copy
    estimate += pending.estimated_microseconds;
    in_flight.emplace(ticket, std::move(pending));
  }
  worker.batches_held.push_back(estimate);
  worker.estimated_microseconds_held += estimate;
  sends.push_back(world->isend(to, kTagBatch, batch));
  return true;
}

void MpiCluster::State::reap_sends() {
  std::erase_if(sends, [](mpi::request& request) { return request.test().has_value(); });
}

void MpiCluster::State::release_workers() {
  for (int worker = 1; worker < ranks; ++worker) {
    // A rank that has not reported yet will: take its report so no message is left unread.
    while (!workers[static_cast<std::size_t>(worker)].ready)
      receive_report(worker);
    world->send(worker, kTagRelease);
  }
  for (mpi::request& request : sends)
    request.wait();
  sends.clear();
}

std::string mpi_launch_problem() {
  // Set by Open MPI's mpirun, by PMIx and PMI launchers (srun --mpi=pmix|pmi2), by MPICH's hydra.
  for (const char* variable :
       {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS"}) {
    if (std::getenv(variable) != nullptr)
      return {};
  }
  bool have_mpirun = false;
  if (const char* path = std::getenv("PATH")) {
    std::string_view rest(path);
    while (!have_mpirun && !rest.empty()) {
      const std::size_t colon = rest.find(':');
      const std::filesystem::path directory(rest.substr(0, colon));
      std::error_code ignored;
      have_mpirun = std::filesystem::exists(directory / "mpirun", ignored);
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
  }
  std::string problem =
      "--mpi: this process was not started by an MPI launcher; run it as "
      "`mpirun -np RANKS gamebatch solve --mpi ...` (or with `srun --mpi=pmix` inside a Slurm "
      "allocation)";
  if (!have_mpirun)
    problem += "; mpirun is not installed (Debian: apt-get install openmpi-bin)";
  return problem;
}

MpiCluster::MpiCluster(int threads) : state_(std::make_unique<State>(threads)) {
  state_->my_rank = number_from_environment({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"});
  state_->mpi_thread = std::thread([state = state_.get()] { state->mpi_main(); });
  if (state_->my_rank < 0)
    state_->wait_until_initialised();  // only MPI knows the rank
}

MpiCluster::~MpiCluster() {
  {
    const std::lock_guard lock(state_->mutex);
    state_->shutting_down = true;
  }
  state_->changed.notify_all();
  if (state_->mpi_thread.joinable())
    state_->mpi_thread.join();
}

int MpiCluster::rank() const {
  {
    const std::lock_guard lock(state_->mutex);
    if (state_->my_rank >= 0)
      return state_->my_rank;
  }
  state_->wait_until_initialised();
  return state_->my_rank;
}

int MpiCluster::size() const {
  state_->wait_until_initialised();
  return state_->ranks;
}

RunSummary MpiCluster::run_solve(SolveOptions options) {
  State& state = *state_;
  const int local_threads = std::max(1, state.threads);
  WorkPool pool;
  options.dispatcher = &pool;
  // The ordered finisher waits for heavy files while the ranks go on: let reading run further
  // ahead than with one process.
  if (options.max_files_in_flight == 0) {
    const int ranks =
        std::max(1, number_from_environment({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"}));
    options.max_files_in_flight = static_cast<std::size_t>((8 * local_threads + 8) * ranks);
  }
  state.job_done = false;
  {
    const std::lock_guard lock(state.mutex);
    state.job = &pool;
  }
  state.changed.notify_all();

  // Rank 0 solves from the pool too, a batch at a time, from the start: the other ranks join
  // when MPI is up.
  RankTally local;
  std::thread local_solver([&pool, local_threads, &local] {
    const double budget = kBatchMicrosecondsPerThread * local_threads;
    for (std::vector<PendingCase> batch = pool.wait_and_take(budget); !batch.empty();
         batch = pool.wait_and_take(budget)) {
      std::vector<double> seconds(batch.size());
      tbb::parallel_for(std::size_t{0}, batch.size(), [&batch, &seconds](std::size_t k) {
        CaseDispatcher::Result result = solve_timed(*batch[k].a_case);
        seconds[k] = result.solve_seconds;
        batch[k].done(std::move(result));
      });
      ++local.batches;
      local.cases += batch.size();
      for (const double one : seconds)
        local.solve_seconds += one;
    }
  });

  std::exception_ptr graph_error;
  RunSummary summary;
  try {
    summary = pipeline::run_solve(options);
  } catch (...) {
    graph_error = std::current_exception();
  }
  // Every case is answered now: the coordinator stops and hands the job back.
  state.job_done = true;
  pool.notify();
  {
    std::unique_lock lock(state.mutex);
    state.changed.wait(lock, [&state] { return state.job == nullptr || state.init_error; });
  }
  pool.close();
  local_solver.join();
  if (graph_error)
    std::rethrow_exception(graph_error);
  state.wait_until_initialised();

  spdlog::info("MPI job of {} ranks:", state.ranks);
  for (int rank = 0; rank < state.ranks; ++rank) {
    const RankTally& tally = rank == kCoordinator ? local : state.tallies[rank];
    spdlog::info("rank {}: {} cases in {} batches, {:.3f} s solving", rank, tally.cases,
                 tally.batches, tally.solve_seconds);
  }
  return summary;
}

void MpiCluster::serve() {
  state_->mpi_thread.join();
  if (state_->init_error)
    std::rethrow_exception(state_->init_error);
}

void MpiCluster::State::serve() {
  const io::Problem* problem = nullptr;
  world->send(kCoordinator, kTagReport, WorkerReport{static_cast<std::uint32_t>(threads), {}});
  std::deque<WorkBatch> batches;
  Backoff backoff(std::chrono::microseconds(1000));
  for (;;) {
    // Take every message that has come; wait for one only when there is nothing to solve.
    boost::optional<mpi::status> status = world->iprobe(kCoordinator, mpi::any_tag);
    if (!status && batches.empty()) {
      backoff.sleep();
      continue;
    }
    backoff.reset();
    if (status) {
      if (status->tag() == kTagRelease) {
        world->recv(kCoordinator, kTagRelease);
        return;
      }
      batches.emplace_back();
      world->recv(kCoordinator, kTagBatch, batches.back());
      continue;
    }
    WorkBatch batch = std::move(batches.front());
    batches.pop_front();
    if (problem == nullptr || problem->name() != batch.game)
      problem = io::find_problem(batch.game);
    WorkerReport report{static_cast<std::uint32_t>(threads), {}};
    report.results.resize(batch.cases.size());
    const std::string this_rank = "rank " + std::to_string(world->rank());
    tbb::parallel_for(std::size_t{0}, batch.cases.size(), [&](std::size_t k) {
      WireResult& result = report.results[k];
      result.ticket = batch.cases[k].ticket;
      if (problem == nullptr) {
        result.failed = true;
        result.text = this_rank + " does not know the game " + batch.game;
        return;
      }
      try {
        const std::unique_ptr<io::Case> a_case =
            problem->parse_canonical_case(batch.cases[k].canonical);
        CaseDispatcher::Result solved = solve_timed(*a_case);
        result.failed = solved.failed;
        result.interrupted = solved.interrupted;
        result.text = std::move(solved.text);
        result.solve_seconds = solved.solve_seconds;
      } catch (const std::exception& error) {
        result.failed = true;
        result.text = this_rank + " could not read the case: " + error.what();
      }
    });
    world->send(kCoordinator, kTagReport, report);
  }
}

}  // namespace gamebatch::pipeline
