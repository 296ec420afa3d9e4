// pipeline/answers/: the room of the exact answers of many files. Its theory of operation.
//
// What it is for. Every engine needs exact answers: solve writes them, check judges solutions
// against them, build writes them into a package. This room turns a list of input files into
// their answers, in parallel, through the answer cache, the same way for all three.
//
// Its parts.
// - solve_run.hpp (this file): run_solve(), a oneTBB flow graph: an input node enumerates files, a
//   limiter bounds those in flight, each file is read and split into cases, each case is looked up
//   in the cache or solved (big cases parallel inside), a sequencer puts files back in input order
//   and an ordered writer writes each file's answers whole, or hands them to the caller
//   (SolveOptions::answers_to, for check). Public.
// - cache_session.hpp: one run's use of the answer cache (io/cache/): opening it (open_cache),
//   look-ups, answers committed at checkpoints. Public.
// - case_dispatcher.hpp: where cache misses go when they are not solved on the spot (an MPI job's
//   ranks, solve/mpi_cluster.hpp implements it). Public.
// - graph_handoff.hpp: how a dispatcher's thread hands answers back into the graph, told to
//   ThreadSanitizer. Private.
//
// What it promises. Answers that do not depend on the thread count; a file's answers written whole
// or not at all; a bad file rejected with its line while the others go on; a stop request ends
// the run within milliseconds, keeping every finished file.
//
// What it must never depend on: the engines' rooms (solve/, judge/, package/), programs/, tools/.
// It uses report/ (the progress counters), pipeline/'s top, io/ and core/.
//
// The solve run: a oneTBB flow graph from input files to answer files.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "io/files/input_set.hpp"
#include "io/problem.hpp"
#include "pipeline/answers/cache_session.hpp"
#include "pipeline/answers/case_dispatcher.hpp"
#include "pipeline/report/progress.hpp"

namespace gamebatch::pipeline {

enum class FileStatus {
  solved,    // answered, at least one case solved in this run
  cached,    // every case answered from the cache
  rejected,  // bad input, unreadable, a failed case, or its answers could not be written
  // A stop was requested before all its cases were answered: no answer file was written (one on
  // disk was left as it was); the cases solved are in the cache.
  interrupted,
};

// What happened to one input file, handed to SolveOptions::on_file_done once it is finished.
struct FileReport {
  const std::filesystem::path& input;
  const std::filesystem::path& answer;
  std::string_view game;
  FileStatus status;
  std::size_t cases = 0;       // 0 for a rejected file that could not be parsed
  std::size_t solved = 0;      // of them solved in this run
  std::size_t cached = 0;      // of them answered from the cache
  double solve_seconds = 0;    // time spent in the solver for its cases, summed over threads
  std::size_t error_line = 0;  // rejected: the line at fault, 0 when not about one line
  std::string_view error;      // rejected: what was expected
};

struct SolveOptions {
  const io::Problem* problem = nullptr;
  io::InputList inputs;
  // Files between reading and the ordered finisher at most; 0 picks a multiple of the threads.
  std::size_t max_files_in_flight = 0;
  // Threads that create answer files at once (the rest read, solve and compare); 0:
  // io::kDefaultFileWriters.
  std::size_t file_writers = 0;
  // Answers found here are not solved again; new answers are added (for the cases it deems worth
  // caching). nullptr: no cache.
  CacheSession* cache = nullptr;
  // Cases the cache does not answer are handed to it (an MPI job's ranks) instead of being solved
  // on this process's threads; nullptr: solved here.
  CaseDispatcher* dispatcher = nullptr;
  // Live counters for a progress display; nullptr: none.
  ProgressCounters* progress = nullptr;
  // When set, each accepted file's answers (Case::solve's text, one per case, in case order) are
  // handed to it instead of being written: nothing is written or removed on disk (`check` keeps
  // the expected answers in memory). Called once per accepted file, in input order, from one
  // thread at a time, before on_file_done.
  std::function<void(std::size_t file_index, const std::vector<std::string>& answers)> answers_to{};
  // Called once per file, in input order, from one thread at a time, when the file is written or
  // rejected (for the run report).
  std::function<void(const FileReport&)> on_file_done{};
};

struct RunSummary {
  std::size_t files = 0;     // inputs given
  std::size_t cases = 0;     // cases in the accepted files
  std::size_t solved = 0;    // cases solved in this run
  std::size_t cached = 0;    // cases answered from the cache
  std::size_t rejected = 0;  // files rejected (bad input, unreadable, or a failed case)
  // Files answered or rejected; the others (files - finished) were not finished because a stop
  // was requested (core/stop_request.hpp): interrupted in flight, or never started.
  std::size_t finished = 0;
  bool interrupted = false;  // a stop was requested during the run
  double seconds = 0;

  // Only a stopped run leaves files unfinished.
  std::size_t unfinished() const { return interrupted ? files - finished : 0; }
};

// Solves every input on the calling thread's oneTBB arena (limit its threads with
// tbb::global_control) and writes each accepted file's answers whole. A stop request ends it
// early: no file is started after it, the cases in progress are abandoned (their solvers give up
// within milliseconds), files whose every case was answered are still written, and the summary
// says how many files were left unfinished. Each rejected file is
// reported once through spdlog as "PATH:LINE: what was expected" and gets no answer file (a stale
// one is removed); the other files are still solved. Answers do not depend on the thread count.
RunSummary run_solve(const SolveOptions& options);

// The line a run ends with: "files: F cases: C solved: S cached: H rejected: R time: T s", and for
// an interrupted run "files: F cases: C solved: S cached: H rejected: R unfinished: U time: T s
// (interrupted)".
std::string summary_line(const RunSummary& summary);

}  // namespace gamebatch::pipeline
