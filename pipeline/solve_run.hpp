// The solve run: a oneTBB flow graph from input files to answer files.
#pragma once

#include <cstddef>
#include <vector>

#include "io/answer_cache.hpp"
#include "io/input_set.hpp"
#include "io/problem.hpp"

namespace gamebatch::pipeline {

struct SolveOptions {
  const io::Problem* problem = nullptr;
  std::vector<io::InputFile> inputs;
  // Files read ahead of the ordered writer at most; 0 picks a multiple of the thread count.
  std::size_t max_files_in_flight = 0;
  // Answers found here are not solved again; new answers are added. nullptr: no cache.
  io::AnswerCache* cache = nullptr;
};

struct RunSummary {
  std::size_t files = 0;     // inputs given
  std::size_t cases = 0;     // cases in the accepted files
  std::size_t solved = 0;    // cases solved in this run
  std::size_t cached = 0;    // cases answered from the cache
  std::size_t rejected = 0;  // files rejected (bad input, unreadable, or a failed case)
  double seconds = 0;
};

// Solves every input on the calling thread's oneTBB arena (limit its threads with
// tbb::global_control) and writes each accepted file's answers whole. Each rejected file is
// reported once through spdlog as "PATH:LINE: what was expected" and gets no answer file (a stale
// one is removed); the other files are still solved. Answers do not depend on the thread count.
RunSummary run_solve(const SolveOptions& options);

}  // namespace gamebatch::pipeline
