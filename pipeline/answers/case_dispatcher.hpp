// Where a run's cases are solved when not on the spot: spread over the ranks of an MPI job
// (pipeline/solve/mpi_cluster.cpp). The flow graph stays the engine: it reads, splits, looks up the
// cache and writes; only the solving of cache misses is handed to the dispatcher.
#pragma once

#include <functional>
#include <string>

#include "io/problem.hpp"

namespace gamebatch::pipeline {

class CaseDispatcher {
 public:
  struct Result {
    bool failed = false;       // the solver threw: `text` says why
    bool interrupted = false;  // a stop was requested (core/stop_request.hpp): no answer
    std::string text;          // the answer, or the error
    double solve_seconds = 0;  // in the solver, wherever it ran
  };
  // Called exactly once per submitted case, from any thread.
  using Done = std::function<void(Result)>;

  virtual ~CaseDispatcher() = default;

  // Solves `a_case` of `problem` somewhere and then calls `done`. `a_case` stays alive and
  // unchanged until `done` is called; `canonical` is its canonical() text when the caller has it
  // already (for the cache key), else empty.
  virtual void submit(const io::Problem& problem, const io::Case& a_case, std::string canonical,
                      Done done) = 0;
};

}  // namespace gamebatch::pipeline
