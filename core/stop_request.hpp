// One stop request per process: what the first Ctrl-C (SIGINT) or SIGTERM turns on.
//
// The signal handler only calls request_stop(), which stores into a lock-free atomic and so is
// async-signal-safe; everything else observes the flag. The flow graph stops taking new work, and
// every solver's long loop polls stop_requested() at least every few milliseconds of work and
// leaves through throw_if_stop_requested(): the case in progress is abandoned, never answered with
// a partial result, and the caller turns the StopRequested exception into "not solved".
//
// It lives in core/ because the solvers are the innermost loops that must observe it; it holds no
// state but the flag, so a solver stays a pure function of its instance whenever no stop is asked.
#pragma once

#include <atomic>
#include <exception>

namespace gamebatch {

namespace detail {
inline std::atomic<bool> g_stop_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "request_stop() runs in a signal handler");
}  // namespace detail

// Thrown by a solver that gave up its case because a stop was requested.
struct StopRequested : std::exception {
  const char* what() const noexcept override { return "stopped on request"; }
};

// Async-signal-safe.
inline void request_stop() noexcept {
  detail::g_stop_requested.store(true, std::memory_order_relaxed);
}

inline bool stop_requested() noexcept {
  return detail::g_stop_requested.load(std::memory_order_relaxed);
}

inline void throw_if_stop_requested() {
  if (stop_requested())
    throw StopRequested{};
}

// For tests that request a stop and then go on in the same process.
inline void clear_stop_request() noexcept {
  detail::g_stop_requested.store(false, std::memory_order_relaxed);
}

}  // namespace gamebatch
