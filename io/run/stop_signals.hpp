// What SIGINT and SIGTERM do to a gamebatch command, as make, ninja and cargo do it: the first one
// asks the command to stop (core/stop_request.hpp) and the command ends cleanly — no new work,
// the work in progress abandoned, whole answer files kept, the cache committed, a summary that
// says "interrupted" — with exit status 128 + the signal; a second one exits at once, as kill -9
// would (the cache stays sound, answer files stay whole), after killing the unsandboxed programs
// of `check` and `stress` (sandboxed ones end with gamebatch by themselves).
#pragma once

namespace gamebatch::io {

// Installs the handler for SIGINT and SIGTERM. Call once, before other threads start.
void stop_on_signals();

// The signal that asked this process to stop, or 0 when none did.
int stop_signal() noexcept;

// 128 + stop_signal(), the status of a command ended by that signal (130 for SIGINT, 143 for
// SIGTERM); 0 when no signal asked to stop.
int stop_exit_status() noexcept;

}  // namespace gamebatch::io
