// io/run: the room of running other people's programs. Its theory of operation.
//
// What it is for. `check` and `stress` run code that gamebatch did not write: users' solutions,
// and compilers fed their sources. Such a program is untrusted. This room runs one under limits,
// reports the facts of its run (how it ended, the CPU, time and memory it used, what it wrote), and
// makes sure that it saw and touched nothing of the user's beyond what it was given and that
// nothing of it outlives its run. Verdicts (AC, WA, TLE)
// are not decided here: the caller (pipeline/judge) decides them from the facts, as isolate's
// callers do from its meta file.
//
// Its parts.
// - limited_process.hpp (this file): run_limited(), the one entry point. It starts the command in a
//   process group of its own (vfork, then only system calls before execve), feeds its input, reads
//   its output under the output limit, samples the process tree's CPU and memory (proc_stat.hpp),
//   and kills the whole tree at a limit, at a stop request or when the first process ends.
// - sandbox.hpp: the boxes a run may go into (namespaces, a read-only view of the system, a scratch
//   tmpfs, no network), lent one per worker by a SandboxPool. A box is kept by its own small
//   program, gamebatch-box (sandbox_box.cpp, whose top says how a box is made and held), which
//   gamebatch talks to over a socket (sandbox_protocol.hpp).
// - solution_build.hpp: sources compiled once per content and compiler into a store, in a box when
//   there is one; the compiler runs through run_limited like any other program.
// - compiled_store.hpp: that store as a whole: its entries' use, trimming it to a size.
// - stop_signals.hpp: what SIGINT and SIGTERM do to a command; a second signal kills the
//   unsandboxed runs' groups before gamebatch exits (a box's processes die with its keeper).
// - raw_io.hpp, proc_stat.hpp, sandbox_protocol.hpp: private helpers of this room (system calls
//   only, so that a vfork child and gamebatch-box can use them); nothing outside io/run includes
//   them.
//
// How a call flows. judge (pipeline/) calls run_limited(command, input, limits, pool). Without a
// pool the command runs as the user, in a new process group; with one, a box is borrowed, the
// command goes to its keeper, which forks it inside the namespaces and reports its end; either
// way the watch loop here samples the tree, enforces the limits and, when the run ends, kills
// whatever is left and reaps it, then returns a ProcessResult. The box's scratch is made afresh
// after any run that changed it.
//
// What it promises. Nothing of a run outlives it: when run_limited returns, no process of the run
// is left running or unreaped (after a sandboxed run the box's keeper, PID 1 of its namespace,
// kills every other process of the box and reaps them; an unsandboxed run's group and the tree
// seen outside it are killed). A box's program sees only the system's read-only files, what its
// command names and what --sandbox-bind adds; it cannot reach the network nor keep anything it
// wrote. Whatever happens to gamebatch itself, even kill -9, its boxes die with it: a box's
// starter ends when gamebatch's socket closes, the keeper with its starter (a parent-death
// signal), and every process of the box with the keeper, the init of its PID namespace.
//
// What it must never depend on: the answer cache (io/cache/), the games' formats, or anything
// above io/. It may use the files room (io/files/: content hashes and reading files, for the
// compiled store) and core/stop_request.hpp. Headers used from outside: this one, sandbox.hpp,
// solution_build.hpp and stop_signals.hpp.
//
// This file: running another program under limits of CPU time, wall-clock time, memory and
// output. Linux only. It reports facts (how the run ended, what it used); the caller decides
// verdicts.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <variant>

namespace gamebatch::io {

class SandboxPool;

struct ProcessLimits {
  // CPU time (user + system, summed over the whole process tree) at which the run is killed.
  double cpu_seconds = 10;
  // Wall-clock time at which the run is killed.
  double wall_seconds = 30;
  // Resident memory (summed over the process tree) above which the run is killed; 0: no limit.
  std::uint64_t memory_bytes = 0;
  // Standard output kept; one byte more and the run is killed.
  std::uint64_t output_bytes = std::uint64_t{64} << 20;
};

// process_limit and disk_limit: sandboxed runs only (their processes and threads reached
// SandboxSettings::max_processes; their scratch ran out of space or files). interrupted: a stop
// was requested (core/stop_request.hpp) while the run went on, and the run was ended for it; it
// says nothing of the program.
enum class ProcessEnd {
  exited,
  signaled,
  cpu_limit,
  wall_limit,
  memory_limit,
  output_limit,
  process_limit,
  disk_limit,
  interrupted
};

struct ProcessResult {
  ProcessEnd end = ProcessEnd::exited;
  int exit_status = 0;  // when exited
  int signal = 0;       // the signal that ended it when signaled, 0 otherwise
  // User + system time of the tree: the largest of what wait4 reports (for the program with the
  // descendants it waited for, plus the killed ones reaped here) and the last sample of the tree.
  double cpu_seconds = 0;
  double wall_seconds = 0;
  // The largest summed resident memory of the tree over the samples, and at least any ru_maxrss
  // wait4 reports that is the program's own (above this process's peak, which the kernel carries
  // into a child's ru_maxrss over its execve): set however the run ended, so a caller can judge
  // memory by peak_bytes > limit.
  std::uint64_t peak_bytes = 0;
  std::string output;       // standard output, at most ProcessLimits::output_bytes
  std::string stderr_tail;  // the last kStderrTailBytes of standard error, for messages
  // The run's process group (its id is the first process's). It has no process left when
  // run_limited returns; for tests and diagnostics.
  pid_t process_group = 0;
  std::uint64_t tasks_limit = 0;  // the bound on processes and threads (sandboxed runs), or 0
};

inline constexpr std::size_t kStderrTailBytes = 2048;

// Where the program's standard input comes from: a file, or a text (held in an anonymous memory
// file, so the program can seek in it as in a file).
struct StdinFile {
  std::filesystem::path path;
};
struct StdinText {
  std::string text;
};
using ProcessInput = std::variant<StdinFile, StdinText>;

// Runs `/bin/sh -c command` in a process group of its own, stdin from `input`, stdout captured
// (at most limits.output_bytes), the tail of stderr kept, and waits for it under the limits. A
// limit kills the whole group; when the first process ends, whatever it left running in its
// group is killed too, and so are the processes of the tree seen outside the group (setsid):
// nothing of the run is left running or unreaped when it returns, short of a process that left
// the group between two samples of the tree (a millisecond or so apart).
//
// Safe to call from several threads at once. It makes this process a child subreaper
// (PR_SET_CHILD_SUBREAPER, once, on the first call) so that it can reap the orphans of its runs
// even where PID 1 does not reap zombies (containers); so other code in this process must not
// wait for any child (waitpid(-1, ...)), and SIGCHLD must not be ignored.
//
// A simple command (one program and its arguments, redirections allowed) is run as `exec
// command`, so that the program replaces sh and a signal that kills it is reported as such; a
// compound one (a list, a pipeline) ends as sh ends it, a program's signal then showing as sh's
// exit status 128+N.
//
// A command that cannot start comes back as exit status 127 (from sh, or from the child when
// /bin/sh itself cannot run, with a message in stderr_tail). Throws std::system_error when the
// input file cannot be opened or a system call of this process fails (pipe, fork).
//
// With `sandbox`, the command runs in one of its boxes instead (io/run/sandbox.hpp): the same
// limits and results, its input copied into a memory file, the tree watched below the box's keeper
// (which reaps it: process_group is 0), and two more ends: process_limit and disk_limit. Throws
// std::runtime_error when no box can be made.
//
// A stop request (core/stop_request.hpp) ends the run within milliseconds, as a limit would, with
// ProcessEnd::interrupted.
ProcessResult run_limited(const std::string& command, const ProcessInput& input,
                          const ProcessLimits& limits, SandboxPool* sandbox = nullptr);

// Whether `command` is one simple command that sh may replace itself with (`exec`, as run_limited
// does): no unquoted list, pipeline, subshell or substitution, nor a newline, and a first word that
// is neither an assignment nor one sh handles itself (a keyword, a builtin without a program of
// that name).
bool is_simple_command(std::string_view command);

// Kills the process group of every unsandboxed run in progress. Async-signal-safe: for a signal
// handler that must exit at once (sandboxed runs end with this process by themselves).
void kill_unsandboxed_runs() noexcept;

// One line for messages: "exit status 3", "killed by signal 11 (SIGSEGV)", "CPU time limit
// (2.01 s of CPU)", "wall-clock time limit (30.0 s)", "memory limit (peak 257 MiB)", "output
// limit (64 MiB kept)".
std::string describe(const ProcessResult& result);

}  // namespace gamebatch::io
