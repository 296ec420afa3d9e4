// pipeline/: the engines of gamebatch's commands, and the map of pipeline/'s rooms. Its theory of
// operation.
//
// pipeline/ does the work that a command names; tools/ (the command floor) only reads options into
// a settings struct, calls one engine here and prints what comes back, so that everything here
// can be called, and is tested, without the command line. It holds three lines of work, an engine
// room each, a fourth engine built on two of them, and three rooms they share:
//   engines   solve/     solving sets: solve and run (jobs, the run config, MPI, the run's report
//                        and page), cache maintenance, explain     (theory: solve/solve_jobs.hpp)
//             judge/     judging other people's programs: check and stress, the verdicts, the
//                        expectations, their pages                 (theory: judge/judge.hpp)
//             package/   making packages: build (test makers, the package's validators, the
//                        bounds), validate, validator, their pages (theory: package/build_job.hpp)
//             strength/  test strength: the candidates, the kill matrix, gaps, coverage, --fill
//                        and --select                    (theory: strength/strength_job.hpp)
//   shared    answers/   the exact answers of many files: the oneTBB flow graph and the answer
//                        cache's session                           (theory: answers/solve_run.hpp)
//             programs/  what running other people's programs needs: limits, the sandbox, the
//                        languages, the compiled-program store     (theory: programs/run_setup.hpp)
//             report/    what reaches a person: terminal-safe text, the log, the progress line,
//                        files written whole, the HTML pages' parts (theory:
//                        report/terminal_text.hpp)
//   top       this map and Outcome (engines.hpp), machine.hpp (threads, memory budget, sizes,
//             where the cache lives), version.hpp: what every room uses.
//
// Why these rooms. They follow what depends on what. Every engine needs exact answers (solve
// writes them, check judges against them, build writes them into the package), so the flow graph
// and its cache session are a room below all three, not a part of solve. Judging and building
// both run other people's programs (solutions; generators and validators), so the limits, the
// sandbox and the compiled store are a room of their own, beside answers/, not a part of judge.
// What reaches a person is the same for all, so report/ is the lowest room; each page is made in
// its engine's room from report/'s parts, because a page reads its engine's results. So an
// engine's own work stays in its room: a walk of check's data (settings in, Outcome out) enters
// judge/ and, through their public headers, the shared rooms, io/ and core/, never another
// engine's room, and so does build's through package/.
//
// Arrows, all one way: report <- answers, and programs/ stands on the top alone; the engines use
// the shared rooms (solve: answers and report; judge and package: all three) and the top, never
// one another, but for strength/, which judges (judge/: check's runs, stress) and builds
// (package/: --fill) through their public headers, and which nothing uses. A shared room uses no
// engine. From outside a room only the headers its theory names as public are included.
// tests/rooms_test.py checks every include against these rules.
//
// How a job flows. A command's engine takes its settings, sets the threads (--jobs) and the games'
// memory budget (machine.hpp), finds its inputs through io/files (a usage error stops it before any
// work), opens the answer cache (answers/cache_session.hpp), and hands cases to the solvers through
// io/'s Problem interface; other people's programs run through io/run (limited_process, in the
// sandbox). Every case of a file becomes a record that reaches the ordered writer, an answer or an
// error with its line, so one bad file never stalls or stops the others. The engine writes its
// report and page last and returns an Outcome that tools/ turns into the exit status, number for
// number.
//
// What it promises. The same answers for every --jobs, machine and MPI rank count; an answer file
// written whole or not at all; a cache whose every write is a transaction; a first SIGINT or
// SIGTERM (core/stop_request.hpp) ends the work cleanly, keeping what was finished; every line
// that reaches a terminal is terminal-safe.
//
// What it must never depend on: tools/, a game by name (a game is io/'s registry entry), or the
// command line's option objects: the one CLI11 here, package/game_options.hpp, reads gen's option
// syntax because a plan's gen entries are written in it.
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
