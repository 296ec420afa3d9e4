// The MPI mode (`mpirun -np R gamebatch solve --mpi ...`): one run over the R ranks of an MPI job.
//
// Rank 0 runs the usual flow graph (reading, splitting, cache look-ups, ordered writing, the
// report) and hands every case the cache does not answer to a work pool. Ranks take work from
// the pool on demand, a batch of cases at a time sized by the cases' estimated cost, so a file's
// cases spread over the ranks and a heavy case never waits behind a rank's queue: rank 0 solves
// from the pool too, on a thread of its own, while its main thread answers the other ranks.
// Cases travel as their canonical text and answers come back as text, both in Boost.Serialization
// archives (Boost.MPI); only rank 0 reads inputs, opens the cache and writes files, so the other
// ranks need nothing but the binary. Waiting ranks poll with growing sleeps instead of Open MPI's
// spinning blocking calls, so waiting costs no core.
//
// Built only when Boost.MPI is found (GAMEBATCH_HAVE_MPI); this header is plain C++.
#pragma once

#include <memory>
#include <string>

#include "pipeline/answers/solve_run.hpp"

namespace gamebatch::pipeline {

// What keeps this process from being a rank of an MPI job: empty when an MPI launcher (mpirun,
// mpiexec, srun with PMI) started it, else a sentence for the user.
std::string mpi_launch_problem();

class MpiCluster {
 public:
  // Joins the MPI job: MPI is initialised on a thread of the cluster's own, which makes every MPI
  // call (funneled), so rank 0 can start solving before MPI_Init has returned. `threads`: the
  // threads this rank solves on. Throws std::runtime_error when MPI cannot come up; waits for
  // MPI only when the launcher did not say the rank in the environment.
  explicit MpiCluster(int threads);
  // Rank 0: releases the other ranks; then MPI is finalised.
  ~MpiCluster();
  MpiCluster(const MpiCluster&) = delete;
  MpiCluster& operator=(const MpiCluster&) = delete;

  int rank() const;
  int size() const;  // waits for MPI to be up

  // Rank 0: run_solve(options) with the solving spread over every rank, rank 0's own threads
  // included. Callable once per job of a run; logs the cases each rank solved.
  RunSummary run_solve(SolveOptions options);

  // Every other rank: solves the batches rank 0 sends until rank 0 releases it.
  void serve();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace gamebatch::pipeline
