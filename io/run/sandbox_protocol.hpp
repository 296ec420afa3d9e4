// The messages between gamebatch (io/run/sandbox.cpp) and its sandbox keeper
// (io/run/sandbox_box.cpp, the gamebatch-box program), sent over a SOCK_SEQPACKET socket pair: one
// message per struct, plain bytes (both ends are built from the same source, on the same machine).
#pragma once

#include <cstdint>

namespace gamebatch::io::sandbox_protocol {

// The keeper's end of the socket, as it finds it after exec.
inline constexpr int kSocketFd = 3;

enum class Kind : std::uint32_t {
  ready = 1,   // keeper -> gamebatch: the box is set up; then Ready follows in the same message
  failed = 2,  // keeper -> gamebatch: setting the box up failed; the rest is the message text
  run = 3,     // gamebatch -> keeper: RunRequest + the script's bytes; fds stdin, stdout, stderr
  kill = 4,    // gamebatch -> keeper: end the current run now (a limit was reached)
  ended = 5,   // keeper -> gamebatch: RunEnd
};

struct Ready {
  Kind kind = Kind::ready;
  // SysV IPC could not be switched off in the box: the keeper removes what a run made.
  std::uint32_t sysv_ipc_cleared_per_run = 0;
};

struct RunRequest {
  Kind kind = Kind::run;
  std::uint32_t script_bytes = 0;       // the script follows this struct in the same message
  std::uint64_t cpu_limit_seconds = 0;  // RLIMIT_CPU of each process (a backstop); 0: none
};

struct RunEnd {
  Kind kind = Kind::ended;
  std::int32_t wait_status = 0;  // the first process's, as waitpid reports it
  std::uint32_t started = 0;     // 0: the program could not be started (start_error holds why)
  std::int32_t start_error = 0;
  std::uint32_t disk_full = 0;          // the scratch ran out of space or of files
  std::uint32_t killed_on_request = 0;  // gamebatch asked (a limit)
  // The program failed while the run's processes and threads filled the bound on them (its
  // forks were refused, as a fork bomb's are).
  std::uint32_t process_limit = 0;
  double cpu_seconds = 0;               // user + system time of every process of the run
  std::uint64_t peak_bytes = 0;         // the largest ru_maxrss among them
  std::uint64_t keeper_peak_bytes = 0;  // the keeper's own, which exec carries into a child's
};

}  // namespace gamebatch::io::sandbox_protocol
