// Running another program (a user's solution) under limits of CPU time, wall-clock time, memory
// and output, for `gamebatch check` and `gamebatch stress`. Linux only. It reports facts (how the
// run ended, what it used); the caller decides verdicts.
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
