#include "io/run/stop_signals.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>

#include "core/stop_request.hpp"
#include "io/run/limited_process.hpp"

namespace gamebatch::io {
namespace {

std::atomic<int> g_stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "set in a signal handler");

// Async-signal-safe calls only.
void on_stop_signal(int signal_number) {
  int none = 0;
  if (g_stop_signal.compare_exchange_strong(none, signal_number)) {
    request_stop();
    constexpr char kNotice[] =
        "\ngamebatch: interrupted: stopping cleanly (a second Ctrl-C quits at once)\n";
    const ssize_t ignored = ::write(STDERR_FILENO, kNotice, sizeof kNotice - 1);
    (void)ignored;
    return;
  }
  // The second signal: no clean-up but the programs this process started in their own groups.
  kill_unsandboxed_runs();
  ::_exit(128 + signal_number);
}

}  // namespace

void stop_on_signals() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (const int signal_number : {SIGINT, SIGTERM})
    ::sigaction(signal_number, &action, nullptr);
}

int stop_signal() noexcept {
  return g_stop_signal.load();
}

int stop_exit_status() noexcept {
  const int signal_number = stop_signal();
  return signal_number == 0 ? 0 : 128 + signal_number;
}

}  // namespace gamebatch::io
