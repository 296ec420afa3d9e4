// pipeline/: the engines of gamebatch's commands, and the map of pipeline/. Its theory of
// operation.
//
// pipeline/ does the work that a command names; tools/ (the command floor) only reads options into
// a settings struct, calls one engine here and prints what comes back, so that everything here
// can be called, and is tested, without the command line. Its parts, by the command they serve:
//   solve, run    solve_jobs.hpp (jobs one after another, the cache, the report and page of a run)
//                 over solve_run.hpp (one job: the oneTBB flow graph reader -> solvers ->
//                 sequencer -> ordered writer, with the cache session, cache_session.hpp) or
//                 mpi_cluster.hpp (the same cases over the ranks of an MPI job); run_config.hpp
//                 reads a run's TOML; progress.hpp draws the progress line; run_report.hpp and
//                 html_report.hpp write the report and the page
//   check         check_job.hpp (package, inputs, solutions, limits) over check_run.hpp (every
//                 solution on every input, judged by judge.hpp, decided per group with
//                 expectation.hpp)
//   stress        stress_job.hpp over stress_run.hpp (search, then shrink with core/GAME's
//                 shrinker)
//   build         build_job.hpp over test_makers.hpp (a plan's entries as makers: copies, gen's
//                 generators through game_options.hpp, generator programs) and package_build.hpp
//                 (make, validate, solve and write each test in the layout, incrementally)
//   validate      validate_job.hpp
//   cache         cache_maintenance.hpp (stats, trim, export, merge, verify)
//   all of them   judge_setup.hpp (the sandbox, the languages, compiled programs for check, stress
//                 and build), machine.hpp (threads, memory budget, sizes), output_files.hpp (pages
//                 and reports written whole), logging.hpp and terminal_text.hpp (what reaches a
//                 terminal), version.hpp
//
// How a job flows. A command's engine takes its settings, sets the threads (--jobs) and the games'
// memory budget, finds its inputs through io/files (a usage error stops it before any work),
// opens the answer cache, and hands cases to the solvers through io/'s Problem interface; other
// people's programs run through io/run (limited_process, in the sandbox). Every case of a file
// becomes a record that reaches the ordered writer, an answer or an error with its line, so one bad
// file never stalls or stops the others. The engine writes its report and page last and returns an
// Outcome that tools/ turns into the exit status, number for number.
//
// What it promises. The same answers for every --jobs, machine and MPI rank count; an answer file
// written whole or not at all; a cache whose every write is a transaction; a first SIGINT or
// SIGTERM (core/stop_request.hpp) ends the work cleanly, keeping what was finished; every line
// that reaches a terminal is terminal-safe.
//
// What it must never depend on: tools/ (tests/rooms_test.py checks), a game by name (a game is
// io/'s registry entry), or the command line's option objects: the one CLI11 here,
// game_options.hpp, reads gen's option syntax because a plan's gen entries are written in it.
#pragma once

#include <algorithm>

namespace gamebatch::pipeline {

// What a command's engine says of its work. tools/ turns it into the exit status, number for
// number: 0 done, 1 something failed (an input rejected, an expectation unmet, a counterexample
// found, a file not written), 2 a usage or configuration error stopped it before or during the
// work. 128 + a signal, for a run stopped by SIGINT or SIGTERM, is decided above all of them.
enum class Outcome : int { done = 0, failed = 1, usage_error = 2 };

// The graver of two outcomes: a usage error over a failure over done.
inline Outcome graver(Outcome a, Outcome b) {
  return static_cast<Outcome>(std::max(static_cast<int>(a), static_cast<int>(b)));
}

}  // namespace gamebatch::pipeline
