#include "io/run/limited_process.hpp"

#include <sys/sendfile.h>
#include <sys/stat.h>

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string_view>
#include <system_error>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/stop_request.hpp"
#include "io/run/proc_stat.hpp"
#include "io/run/raw_io.hpp"
#include "io/run/sandbox.hpp"

extern char** environ;

namespace gamebatch::io {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// How long to wait, after the first process ended, for the pipes to close and the killed
// processes to go: only a process that escaped the kill makes either take that long.
constexpr auto kDrainGrace = 1s;
constexpr auto kReapGrace = 2s;
// Samples of the process tree are at least this far apart (a flood of output would otherwise
// make one per read), and the watch sleeps at most kLongestSleepMs between looks.
constexpr auto kSampleInterval = 1ms;
constexpr int kLongestSleepMs = 10;
// Growth of the resident memory between two samples that keeps the watch at its quickest.
constexpr std::uint64_t kFastGrowthBytes = std::uint64_t{1} << 20;
constexpr std::size_t kReadChunk = 64 * 1024;
// Reads per pipe per look, so that the limits are still watched while a program floods.
constexpr int kReadsPerLook = 16;
constexpr std::size_t kMostProcessesWalked = 100000;

double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

double rusage_seconds(const rusage& usage) {
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

std::uint64_t rusage_peak_bytes(const rusage& usage) {
  return static_cast<std::uint64_t>(std::max(usage.ru_maxrss, 0L)) * 1024;  // ru_maxrss is in KiB
}

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int descriptor) : descriptor_(descriptor) {}
  UniqueFd(UniqueFd&& other) noexcept : descriptor_(std::exchange(other.descriptor_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
      reset();
      descriptor_ = std::exchange(other.descriptor_, -1);
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const { return descriptor_; }
  bool is_open() const { return descriptor_ >= 0; }
  void reset() {
    if (descriptor_ >= 0)
      ::close(descriptor_);
    descriptor_ = -1;
  }

 private:
  int descriptor_ = -1;
};

struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

// O_CLOEXEC so that a run started at the same time by another thread does not inherit our ends
// (a write end kept open elsewhere would hold back the end of file for ever).
Pipe make_pipe() {
  std::array<int, 2> ends{};
  if (::pipe2(ends.data(), O_CLOEXEC) != 0)
    throw_errno("cannot create a pipe");
  Pipe pipe{UniqueFd(ends[0]), UniqueFd(ends[1])};
  // Only our end is non-blocking: the program's writes block as on any pipe.
  if (::fcntl(pipe.read_end.get(), F_SETFL, O_NONBLOCK) != 0)
    throw_errno("cannot make a pipe non-blocking");
  return pipe;
}

UniqueFd open_input(const StdinFile& input) {
  UniqueFd file(::open(input.path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!file.is_open())
    throw_errno("cannot open " + input.path.string());
  return file;
}

// An anonymous memory file filled by `fill(fd)` and rewound: a run's input as a regular file (it
// may seek, or ask its size) that no thread has to feed.
template <typename Fill>
UniqueFd memory_file(Fill fill) {
  UniqueFd file(::memfd_create("gamebatch-input", MFD_CLOEXEC));
  if (!file.is_open())
    throw_errno("cannot create a memory file for the input");
  fill(file.get());
  if (::lseek(file.get(), 0, SEEK_SET) != 0)
    throw_errno("cannot rewind the input's memory file");
  return file;
}

// The sandbox's stdin: the file's bytes in a memory file, so that /proc/self/fd/0 names nothing
// of the user's (a path beside the answers, say).
UniqueFd open_input_copy(const StdinFile& input) {
  const UniqueFd source = open_input(input);
  return memory_file([&](int copy) {
    for (;;) {
      const ssize_t copied = ::sendfile(copy, source.get(), nullptr, std::size_t{1} << 30);
      if (copied == 0)
        return;
      if (copied < 0 && errno != EINTR)
        throw_errno("cannot copy " + input.path.string() + " to a memory file");
    }
  });
}

UniqueFd open_input(const StdinText& input) {
  return memory_file([&](int file) {
    std::string_view left = input.text;
    while (!left.empty()) {
      const ssize_t written = ::write(file, left.data(), left.size());
      if (written < 0) {
        if (errno == EINTR)
          continue;
        throw_errno("cannot write the input to a memory file");
      }
      left.remove_prefix(static_cast<std::size_t>(written));
    }
  });
}

}  // namespace

bool is_simple_command(std::string_view command) {
  // Space-separated, with a space at each end.
  constexpr std::string_view kShellWords =
      " ! { } if then else elif fi case esac for while until do done in exec cd . : eval set "
      "export readonly unset shift trap ulimit umask wait command alias unalias read local return "
      "break continue getopts source type hash jobs fg bg times ";
  char quote = 0;
  for (std::size_t at = 0; at < command.size(); ++at) {
    const char c = command[at];
    if (quote == '\'') {
      if (c == '\'')
        quote = 0;
    } else if (c == '\\') {
      ++at;  // the next character is quoted
    } else if (quote == '"') {
      if (c == '"')
        quote = 0;
      else if (c == '`' || (c == '$' && at + 1 < command.size() && command[at + 1] == '('))
        return false;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (std::string_view(";&|()`\n").find(c) != std::string_view::npos) {
      return false;
    }
  }
  if (quote != 0)
    return false;
  const std::size_t first = command.find_first_not_of(" \t");
  if (first == std::string_view::npos)
    return false;
  const std::string_view word = command.substr(first, command.find_first_of(" \t", first) - first);
  std::string spaced_word = " ";
  spaced_word.append(word).append(" ");
  return word.find('=') == std::string_view::npos &&
         kShellWords.find(spaced_word) == std::string_view::npos;
}

namespace {

// Debian's sh (dash) forks even for the last command of `sh -c`, and then reports a signal that
// killed the program only as its own exit status 128+N: `exec` lets the program take sh's place,
// so its death by a signal is seen as such.
std::string shell_script(const std::string& command) {
  return is_simple_command(command) ? "exec " + command : command;
}

// Orphans are reparented to the nearest subreaper: being one lets us reap the killed processes of
// a run where PID 1 never reaps (containers), so no zombie holds the run's process group.
void become_child_subreaper() {
  static std::once_flag once;
  std::call_once(once, [] { ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); });
}

// The process groups of the unsandboxed runs in progress, for the signal handler below: a run's
// group is its own (not the terminal's foreground group), so a Ctrl-C would not reach it.
constexpr std::size_t kGroupSlots = 4096;
std::array<std::atomic<pid_t>, kGroupSlots> g_run_groups{};

// SIGINT or SIGTERM: every run's group is killed, then the signal does what it did before.
void end_runs_and_reraise(int signal_number) {
  kill_unsandboxed_runs();
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

// Installed once, and only over the default disposition (a caller that handles these signals
// itself keeps its handler: gamebatch's own, io/run/stop_signals.hpp, stops runs through the stop
// request and calls kill_unsandboxed_runs when it must exit at once). Sandboxed runs need none of
// this: their boxes end with gamebatch.
void end_runs_on_interruption() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const int signal_number : {SIGINT, SIGTERM}) {
      struct sigaction current {};
      if (::sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL ||
          (current.sa_flags & SA_SIGINFO) != 0)
        continue;
      struct sigaction handler {};
      handler.sa_handler = end_runs_and_reraise;
      sigemptyset(&handler.sa_mask);
      handler.sa_flags = SA_RESTART;
      ::sigaction(signal_number, &handler, nullptr);
    }
  });
}

// Held shared from a run's vfork until its group is in g_run_groups, and exclusively by
// end_escaped_processes, which must not take a run being started for an escaped one.
std::shared_mutex g_spawn_mutex;

// Keeps a run's group in g_run_groups while it lives.
class RegisteredGroup {
 public:
  explicit RegisteredGroup(pid_t group) {
    for (std::atomic<pid_t>& slot : g_run_groups) {
      pid_t empty = 0;
      if (slot.compare_exchange_strong(empty, group)) {
        slot_ = &slot;
        return;
      }
    }
  }
  RegisteredGroup(const RegisteredGroup&) = delete;
  RegisteredGroup& operator=(const RegisteredGroup&) = delete;
  ~RegisteredGroup() {
    if (slot_ != nullptr)
      slot_->store(0);
  }

 private:
  std::atomic<pid_t>* slot_ = nullptr;
};

// Everything the child needs, made before vfork: the child shares this process's memory until it
// calls execve, so it may only make system calls (no allocation, no locks).
struct ChildSetup {
  std::array<const char*, 4> argv{};
  char** envp = nullptr;
  std::array<int, 3> standard_fds{};  // what becomes stdin, stdout, stderr
  rlimit cpu_limit{};
  sigset_t empty_mask{};
  struct sigaction default_action {};
};

// Writes "gamebatch: cannot run /bin/sh (errno N)" with async-signal-safe calls only.
void report_exec_failure(int error) {
  report_errno(STDERR_FILENO, {"gamebatch: cannot run /bin/sh"}, error);
}

[[noreturn]] void run_child(ChildSetup& setup) {
  ::setpgid(0, 0);
  // Killed when the thread that started it ends, gamebatch's end (even by SIGKILL) included.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  // Signal dispositions set to "ignore" and the blocked mask survive execve: give the program the
  // defaults it would get from a shell.
  ::sigprocmask(SIG_SETMASK, &setup.empty_mask, nullptr);
  for (int signal_number = 1; signal_number < NSIG; ++signal_number) {
    if (signal_number != SIGKILL && signal_number != SIGSTOP)
      ::sigaction(signal_number, &setup.default_action, nullptr);
  }
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  ::setrlimit(RLIMIT_CPU, &setup.cpu_limit);
  // Move the sources above 2 first, so that one dup2 cannot overwrite another's source (they are
  // below 3 when this process was started with a standard descriptor closed).
  for (int& source : setup.standard_fds) {
    if (source < 3)
      source = ::fcntl(source, F_DUPFD_CLOEXEC, 3);
  }
  for (int target = 0; target < 3; ++target) {
    if (setup.standard_fds[target] < 0 || ::dup2(setup.standard_fds[target], target) < 0) {
      report_exec_failure(errno);
      ::_exit(127);
    }
  }
  // Descriptors this process opened without O_CLOEXEC (other code's) do not reach the program.
  ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
  ::execve(setup.argv[0], const_cast<char* const*>(setup.argv.data()), setup.envp);
  report_exec_failure(errno);
  ::_exit(127);
}

rlimit cpu_rlimit(double cpu_seconds) {
  // A backstop per process in case the watch falls behind: the watch kills at the limit itself.
  if (!(cpu_seconds < 1e9))
    return {RLIM_INFINITY, RLIM_INFINITY};
  const auto soft = static_cast<rlim_t>(std::ceil(std::max(cpu_seconds, 0.0))) + 1;
  return {soft, soft + 1};
}

// A process identified beyond pid reuse: its pid and its start time.
struct ProcessId {
  pid_t pid = 0;
  std::uint64_t start_ticks = 0;
  friend bool operator==(const ProcessId&, const ProcessId&) = default;
};

// The peak resident memory of this process's address space (VmHWM of /proc/self/status). A child
// started by vfork (or fork) shares (or copies) it until its execve, and the kernel carries its
// peak over the exec into the child's ru_maxrss: an ru_maxrss up to this is not the program's.
std::uint64_t own_address_space_peak_bytes() {
  std::string status;
  if (read_small_file("/proc/self/status", status)) {
    const std::size_t at = status.find("\nVmHWM:");
    if (at != std::string::npos) {
      const char* begin = status.data() + at + 7;
      const char* const end = status.data() + status.size();
      while (begin < end && *begin == ' ')
        ++begin;
      std::uint64_t kibibytes = 0;
      if (std::from_chars(begin, end, kibibytes).ec == std::errc{})
        return kibibytes * 1024;
    }
  }
  rusage usage{};  // without /proc: this process's peak, at least as large
  ::getrusage(RUSAGE_SELF, &usage);
  return rusage_peak_bytes(usage);
}

void append_pids(std::string_view text, std::vector<pid_t>& pids) {
  const char* at = text.data();
  const char* const end = text.data() + text.size();
  while (at < end) {
    if (*at == ' ' || *at == '\n') {
      ++at;
      continue;
    }
    int pid = 0;
    const auto [next, error] = std::from_chars(at, end, pid);
    if (error != std::errc() || next == at)
      return;
    pids.push_back(static_cast<pid_t>(pid));
    at = next;
  }
}

// The children of every thread of `pid` (each thread lists those it forked).
void append_children(pid_t pid, std::uint64_t threads, std::string& buffer,
                     std::vector<pid_t>& pids) {
  std::array<char, 80> path{};
  if (threads <= 1) {
    std::snprintf(path.data(), path.size(), "/proc/%d/task/%d/children", static_cast<int>(pid),
                  static_cast<int>(pid));
    if (read_small_file(path.data(), buffer))
      append_pids(buffer, pids);
    return;
  }
  std::snprintf(path.data(), path.size(), "/proc/%d/task", static_cast<int>(pid));
  DIR* const tasks = ::opendir(path.data());
  if (tasks == nullptr)
    return;
  while (const dirent* const task = ::readdir(tasks)) {
    const std::string_view name = task->d_name;
    int thread = 0;
    if (std::from_chars(name.data(), name.data() + name.size(), thread).ec != std::errc())
      continue;  // "." and ".."
    std::snprintf(path.data(), path.size(), "/proc/%d/task/%d/children", static_cast<int>(pid),
                  thread);
    if (read_small_file(path.data(), buffer))
      append_pids(buffer, pids);
  }
  ::closedir(tasks);
}

struct TreeSample {
  std::uint64_t resident_bytes = 0;
  std::uint64_t tasks = 0;  // processes and threads
  double cpu_seconds = 0;
  std::vector<ProcessId> outside_group;  // members of the tree that left the run's group
};

// Walks the tree of processes from `root`, summing resident memory and CPU time (a process's own
// and that of the children it reaped). Processes that end during the walk are skipped. With
// `below_root`, only the root's descendants count (a sandbox's keeper is not the run's); `group`
// 0 tracks no group.
TreeSample sample_tree(pid_t root, pid_t group, std::string& buffer, bool below_root = false) {
  static const auto page_size = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  static const auto ticks_per_second = static_cast<double>(::sysconf(_SC_CLK_TCK));
  TreeSample sample;
  std::uint64_t cpu_ticks = 0;
  std::vector<pid_t> pending{root};
  for (std::size_t walked = 0; !pending.empty() && walked < kMostProcessesWalked; ++walked) {
    const pid_t pid = pending.back();
    pending.pop_back();
    const std::optional<ProcessStat> stat = read_stat(pid, buffer);
    if (!stat)
      continue;
    if (below_root && pid == root) {
      append_children(pid, stat->threads, buffer, pending);
      continue;
    }
    cpu_ticks += stat->cpu_ticks;
    sample.resident_bytes += stat->resident_pages * page_size;
    sample.tasks += std::max<std::uint64_t>(stat->threads, 1);
    if (group != 0 && stat->group != group)
      sample.outside_group.push_back({pid, stat->start_ticks});
    if (stat->state != 'Z')
      append_children(pid, stat->threads, buffer, pending);
  }
  sample.cpu_seconds = static_cast<double>(cpu_ticks) / ticks_per_second;
  return sample;
}

// Whether `process` still exists (it may be a zombie), telling it from a later one with its pid.
std::optional<ProcessStat> still_there(const ProcessId& process, std::string& buffer) {
  std::optional<ProcessStat> stat = read_stat(process.pid, buffer);
  if (stat && stat->start_ticks != process.start_ticks)
    return std::nullopt;
  return stat;
}

bool is_run_group(pid_t group) {
  return std::any_of(g_run_groups.begin(), g_run_groups.end(),
                     [group](const std::atomic<pid_t>& slot) { return slot.load() == group; });
}

// Unsandboxed runs only: a process that left its run's group (setsid) is reparented to this
// process, the subreaper, when its parent ends; one of this process's children in no run's group
// is such an escaped process (or its group's leader), and is killed and reaped here, with its
// group. Sandboxes' keepers (gamebatch-box) are left alone.
void end_escaped_processes() {
  const std::unique_lock lock(g_spawn_mutex);
  std::string buffer;
  for (int round = 0; round < 8; ++round) {  // its children come to us in turn
    // Orphans go to the subreaper's first live thread: its main one, for as long as it runs.
    std::vector<pid_t> children;
    std::array<char, 64> path{};
    std::snprintf(path.data(), path.size(), "/proc/%d/task/%d/children",
                  static_cast<int>(::getpid()), static_cast<int>(::getpid()));
    if (read_small_file(path.data(), buffer))
      append_pids(buffer, children);
    bool ended_one = false;
    for (const pid_t child : children) {
      const pid_t group = ::getpgid(child);
      if (group < 0 || is_run_group(group))
        continue;
      std::array<char, 64> comm_path{};
      std::snprintf(comm_path.data(), comm_path.size(), "/proc/%d/comm", static_cast<int>(child));
      if (read_small_file(comm_path.data(), buffer) && buffer.starts_with("gamebatch-box"))
        continue;
      if (group == child)
        ::kill(-group, SIGKILL);
      ::kill(child, SIGKILL);
      int status = 0;
      while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
      }
      ended_one = true;
    }
    if (!ended_one)
      return;
  }
}

// One run from fork to the last reaped process. The destructor kills and reaps what is left when
// the watch ends by an exception.
class Run {
 public:
  // `box`: the run is in this sandbox (its keeper started it); `child` is then 0.
  Run(pid_t child, Pipe& stdout_pipe, Pipe& stderr_pipe, const ProcessLimits& limits,
      Clock::time_point start, std::uint64_t inherited_peak_bytes, SandboxBox* box = nullptr,
      std::uint64_t max_tasks = 0)
      : child_(child),
        box_(box),
        max_tasks_(max_tasks),
        stdout_(std::move(stdout_pipe.read_end)),
        stderr_(std::move(stderr_pipe.read_end)),
        limits_(limits),
        start_(start),
        inherited_peak_bytes_(inherited_peak_bytes),
        read_buffer_(kReadChunk) {
    result_.process_group = child;
    // Readable once the child has ended, so the watch wakes at its exit instead of at the end of
    // its sleep (up to kLongestSleepMs per run: most of a small run's cost). -1 on kernels before
    // 5.3: the watch then only finds the exit when it looks. A sandbox's keeper says when.
    if (box_ == nullptr)
      exit_notice_ = UniqueFd(static_cast<int>(::syscall(SYS_pidfd_open, child, 0)));
  }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;
  ~Run() {
    if (!reaped_ && box_ != nullptr) {
      box_->request_kill();
      if (!box_->broken())
        box_->wait_end();
    } else if (!reaped_) {
      ::kill(-child_, SIGKILL);
      int status = 0;
      rusage usage{};
      wait_for_child(status, usage);
      reap_group(Clock::now() + kReapGrace);
    }
  }

  ProcessResult watch();

 private:
  bool read_pipes(int timeout_ms, bool wake_at_exit);
  bool read_pipe(UniqueFd& pipe, bool is_stdout);
  void keep_output(std::string_view data);
  void keep_stderr(std::string_view data);
  bool sample_and_check();
  bool main_process_ended();
  void kill_everything();
  bool wait_for_child(int& status, rusage& usage);
  void reap_group(Clock::time_point deadline);
  void count_orphan(const rusage& usage) {
    orphan_cpu_seconds_ += rusage_seconds(usage);
    result_.peak_bytes = std::max(result_.peak_bytes, rusage_peak_bytes(usage));
  }

  const pid_t child_;
  SandboxBox* const box_;
  const std::uint64_t max_tasks_;  // 0: not watched
  std::optional<sandbox_protocol::RunEnd> box_end_;
  UniqueFd stdout_;
  UniqueFd stderr_;
  UniqueFd exit_notice_;  // a pidfd of the child
  const ProcessLimits& limits_;
  const Clock::time_point start_;
  // The child's ru_maxrss is its own only above this (own_address_space_peak_bytes, or the
  // sandbox keeper's peak).
  std::uint64_t inherited_peak_bytes_;
  std::vector<char> read_buffer_;
  std::string stat_buffer_;
  ProcessResult result_;
  std::optional<ProcessEnd> limit_reached_;
  bool output_overflowed_ = false;
  bool reaped_ = false;
  std::uint64_t last_resident_bytes_ = 0;
  double sampled_cpu_seconds_ = 0;
  std::vector<ProcessId> outside_group_;
  double orphan_cpu_seconds_ = 0;
};

void Run::keep_output(std::string_view data) {
  const std::uint64_t room =
      limits_.output_bytes - std::min<std::uint64_t>(limits_.output_bytes, result_.output.size());
  if (data.size() > room) {
    data = data.substr(0, static_cast<std::size_t>(room));
    output_overflowed_ = true;
  }
  result_.output.append(data);
}

void Run::keep_stderr(std::string_view data) {
  std::string& tail = result_.stderr_tail;
  tail.append(data.size() > kStderrTailBytes ? data.substr(data.size() - kStderrTailBytes) : data);
  if (tail.size() > 2 * kStderrTailBytes)  // trimmed now and then rather than at each read
    tail.erase(0, tail.size() - kStderrTailBytes);
}

// Reads what one pipe holds; closes it at end of file. True when something was read.
bool Run::read_pipe(UniqueFd& pipe, bool is_stdout) {
  bool read_some = false;
  for (int reads = 0; reads < kReadsPerLook && pipe.is_open(); ++reads) {
    const ssize_t count = ::read(pipe.get(), read_buffer_.data(), read_buffer_.size());
    if (count > 0) {
      read_some = true;
      const std::string_view data(read_buffer_.data(), static_cast<std::size_t>(count));
      if (is_stdout)
        keep_output(data);
      else
        keep_stderr(data);
      continue;
    }
    if (count < 0 && errno == EINTR)
      continue;
    if (count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      break;
    pipe.reset();  // end of file (or an error no retry mends)
  }
  return read_some;
}

// Waits up to `timeout_ms` for output (or, with wake_at_exit, for the child's end) and reads it.
// True when something was read.
bool Run::read_pipes(int timeout_ms, bool wake_at_exit) {
  std::array<pollfd, 3> watched{{{stdout_.get(), POLLIN, 0},
                                 {stderr_.get(), POLLIN, 0},
                                 {!wake_at_exit     ? -1
                                  : box_ != nullptr ? box_->socket()
                                                    : exit_notice_.get(),
                                  POLLIN, 0}}};
  if (::poll(watched.data(), watched.size(), timeout_ms) < 0) {
    if (errno == EINTR)
      return false;
    throw_errno("cannot poll the pipes of a run");
  }
  bool read_some = false;
  if (watched[0].revents != 0)
    read_some |= read_pipe(stdout_, true);
  if (watched[1].revents != 0)
    read_some |= read_pipe(stderr_, false);
  return read_some;
}

// Samples the tree and records a limit it passed. True when memory grew fast since the last one.
bool Run::sample_and_check() {
  TreeSample sample = box_ != nullptr ? sample_tree(box_->keeper(), 0, stat_buffer_, true)
                                      : sample_tree(child_, child_, stat_buffer_);
  for (const ProcessId& process : sample.outside_group) {
    if (std::find(outside_group_.begin(), outside_group_.end(), process) == outside_group_.end())
      outside_group_.push_back(process);
  }
  result_.peak_bytes = std::max(result_.peak_bytes, sample.resident_bytes);
  sampled_cpu_seconds_ = std::max(sampled_cpu_seconds_, sample.cpu_seconds);
  const bool fast_growth = sample.resident_bytes > last_resident_bytes_ + kFastGrowthBytes;
  last_resident_bytes_ = sample.resident_bytes;
  if (limits_.memory_bytes != 0 && sample.resident_bytes > limits_.memory_bytes)
    limit_reached_ = ProcessEnd::memory_limit;
  else if (max_tasks_ != 0 && sample.tasks >= max_tasks_)
    limit_reached_ = ProcessEnd::process_limit;
  else if (sample.cpu_seconds >= limits_.cpu_seconds)
    limit_reached_ = ProcessEnd::cpu_limit;
  return fast_growth;
}

// Whether the first process has ended, leaving it a zombie: its pid, and so the group's id, stay
// reserved until we reap it, so killing the group cannot hit a stranger.
bool Run::main_process_ended() {
  if (box_ != nullptr) {
    sandbox_protocol::RunEnd end;
    if (!box_end_ && box_->try_end(end))
      box_end_ = end;
    return box_end_.has_value();
  }
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(child_), &info, WEXITED | WNOHANG | WNOWAIT) != 0)
    return errno != EINTR;  // ECHILD: gone (reaped by someone else); nothing left to wait for
  return info.si_pid == child_;
}

// The group with one signal; members that left it one by one, those still the same processes.
void Run::kill_everything() {
  if (box_ != nullptr) {
    if (!box_end_)
      box_->request_kill();
    return;
  }
  ::kill(-child_, SIGKILL);
  for (const ProcessId& process : outside_group_) {
    const std::optional<ProcessStat> stat = still_there(process, stat_buffer_);
    if (stat && stat->state != 'Z')
      ::kill(process.pid, SIGKILL);
  }
}

// False (errno set) when the child cannot be waited for: reaped elsewhere.
bool Run::wait_for_child(int& status, rusage& usage) {
  reaped_ = true;
  if (box_ != nullptr) {
    // The keeper reaped every process of the run and added up their usage.
    if (!box_end_)
      box_end_ = box_->wait_end();
    const sandbox_protocol::RunEnd& end = *box_end_;
    status = end.wait_status;
    const auto micros = static_cast<long long>(end.cpu_seconds * 1e6);
    usage.ru_utime.tv_sec = static_cast<time_t>(micros / 1000000);
    usage.ru_utime.tv_usec = static_cast<suseconds_t>(micros % 1000000);
    usage.ru_maxrss = static_cast<long>(end.peak_bytes / 1024);
    inherited_peak_bytes_ = end.keeper_peak_bytes;
    if (!end.started) {
      // As sh reports a command it cannot run.
      status = 127 << 8;
      result_.stderr_tail += end.start_error == ECHILD
                                 ? "gamebatch: the sandbox's keeper ended during the run\n"
                                 : "gamebatch: cannot start the program in the sandbox (" +
                                       std::string(std::strerror(end.start_error)) + ")\n";
    }
    if (end.disk_full && !limit_reached_)
      limit_reached_ = ProcessEnd::disk_limit;
    if (end.process_limit && !limit_reached_)
      limit_reached_ = ProcessEnd::process_limit;
    return true;
  }
  while (::wait4(child_, &status, 0, &usage) < 0) {
    if (errno != EINTR)
      return false;
  }
  return true;
}

// Reaps the group's other members (the killed orphans come to us as the subreaper) and the
// processes that left it, until none is left or the deadline passes (a process stuck in the
// kernel). Their CPU time counts for the run.
void Run::reap_group(Clock::time_point deadline) {
  if (box_ != nullptr)
    return;  // the keeper did
  for (;;) {
    int status = 0;
    rusage usage{};
    while (::wait4(-child_, &status, WNOHANG, &usage) > 0)
      count_orphan(usage);
    bool others_left = false;
    for (const ProcessId& process : outside_group_) {
      const std::optional<ProcessStat> stat = still_there(process, stat_buffer_);
      if (!stat)
        continue;
      others_left = true;
      if (stat->state != 'Z')
        ::kill(process.pid, SIGKILL);
      else if (::wait4(process.pid, &status, WNOHANG, &usage) > 0)
        count_orphan(usage);
    }
    const bool group_left = ::kill(-child_, 0) == 0;
    if ((!group_left && !others_left) || Clock::now() >= deadline)
      return;
    if (group_left)
      ::kill(-child_, SIGKILL);  // again: a member may have been forked while the kill landed
    std::this_thread::sleep_for(200us);
  }
}

ProcessResult Run::watch() {
  int timeout_ms = 1;
  Clock::time_point last_sample;
  for (;;) {
    const bool read_some = read_pipes(timeout_ms, true);
    if (output_overflowed_) {
      limit_reached_ = ProcessEnd::output_limit;
      break;
    }
    const Clock::time_point now = Clock::now();
    if (seconds_between(start_, now) >= limits_.wall_seconds) {
      limit_reached_ = ProcessEnd::wall_limit;
      break;
    }
    if (stop_requested()) {  // gamebatch is stopping: the run is ended, not judged
      limit_reached_ = ProcessEnd::interrupted;
      break;
    }
    bool fast_growth = false;
    if (now - last_sample >= kSampleInterval) {
      fast_growth = sample_and_check();
      last_sample = now;
      if (limit_reached_)
        break;
    }
    if (main_process_ended())
      break;
    // Quick looks while something happens, longer sleeps while it computes or waits.
    timeout_ms = read_some || fast_growth ? 1 : std::min(2 * timeout_ms, kLongestSleepMs);
  }

  // Whether a limit was reached or the first process ended by itself, nothing of the run may go
  // on: background processes included.
  kill_everything();
  int status = 0;
  rusage usage{};
  if (!wait_for_child(status, usage)) {
    const int error = errno;
    kill_everything();
    throw std::system_error(error, std::generic_category(),
                            "cannot wait for the run's process (SIGCHLD ignored, or waited for "
                            "elsewhere)");
  }
  result_.wall_seconds = seconds_between(start_, Clock::now());

  const Clock::time_point drain_deadline = Clock::now() + kDrainGrace;
  while ((stdout_.is_open() || stderr_.is_open()) && Clock::now() < drain_deadline)
    read_pipes(kLongestSleepMs, false);
  stdout_.reset();
  stderr_.reset();
  reap_group(Clock::now() + kReapGrace);

  result_.cpu_seconds = std::max(rusage_seconds(usage) + orphan_cpu_seconds_, sampled_cpu_seconds_);
  // Not at most this process's own peak: the samples are the program's peak then.
  if (rusage_peak_bytes(usage) > inherited_peak_bytes_)
    result_.peak_bytes = std::max(result_.peak_bytes, rusage_peak_bytes(usage));
  if (result_.stderr_tail.size() > kStderrTailBytes)
    result_.stderr_tail.erase(0, result_.stderr_tail.size() - kStderrTailBytes);

  if (limit_reached_) {
    result_.end = *limit_reached_;
  } else if (WIFEXITED(status)) {
    // Output found past the cap after the exit is still output the caller cannot see whole.
    result_.end = output_overflowed_ ? ProcessEnd::output_limit : ProcessEnd::exited;
    result_.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    const int signal_number = WTERMSIG(status);
    // SIGXCPU or SIGKILL from the RLIMIT_CPU backstop, when the watch fell behind.
    const bool cpu_backstop = (signal_number == SIGXCPU || signal_number == SIGKILL) &&
                              result_.cpu_seconds >= limits_.cpu_seconds;
    result_.end = cpu_backstop ? ProcessEnd::cpu_limit : ProcessEnd::signaled;
    result_.signal = cpu_backstop ? 0 : signal_number;
  }
  return std::move(result_);
}

std::string fixed(double value, int decimals) {
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%.*f", decimals, value);
  return text.data();
}

std::string mebibytes(std::uint64_t bytes) {
  return fixed(static_cast<double>(bytes) / (1024.0 * 1024.0), 0) + " MiB";
}

}  // namespace

namespace {

// The sandboxed run: the box's keeper starts the program; this process watches as for any run
// (pipes, the tree of processes below the keeper, the limits) and asks the keeper to end it.
ProcessResult run_in_sandbox(const std::string& command, const ProcessInput& input,
                             const ProcessLimits& limits, SandboxPool& sandbox) {
  UniqueFd stdin_file = std::visit(
      [](const auto& source) {
        if constexpr (std::is_same_v<std::decay_t<decltype(source)>, StdinFile>)
          return open_input_copy(source);
        else
          return open_input(source);
      },
      input);
  Pipe stdout_pipe = make_pipe();
  Pipe stderr_pipe = make_pipe();
  SandboxPool::Lease lease = sandbox.acquire(command);
  // The kernel holds the memory limit over every process of the run (the watch still samples
  // the resident memory, which is what a run's peak reports); an OOM kill there is the limit.
  MemoryCgroup* const memory = lease.box().memory();
  std::uint64_t oom_kills_before = 0;
  if (memory != nullptr) {
    if (!memory->set_limit(limits.memory_bytes))
      throw_errno("cannot set the memory limit of the sandbox's cgroup");
    oom_kills_before = memory->oom_kills();
    memory->reset_peak();
  }
  const rlimit cpu = cpu_rlimit(limits.cpu_seconds);
  const Clock::time_point start = Clock::now();
  lease.box().start(shell_script(command), cpu.rlim_cur == RLIM_INFINITY ? 0 : cpu.rlim_cur,
                    stdin_file.get(), stdout_pipe.write_end.get(), stderr_pipe.write_end.get());
  stdin_file.reset();
  stdout_pipe.write_end.reset();
  stderr_pipe.write_end.reset();
  Run run(0, stdout_pipe, stderr_pipe, limits, start, 0, &lease.box(),
          sandbox.settings().max_processes);
  ProcessResult result = run.watch();
  result.tasks_limit = sandbox.settings().max_processes;
  if (memory != nullptr && limits.memory_bytes != 0 && memory->oom_kills() > oom_kills_before) {
    result.end = ProcessEnd::memory_limit;
    result.peak_bytes = std::max(result.peak_bytes, memory->peak_bytes());
  }
  return result;
}

}  // namespace

ProcessResult run_limited(const std::string& command, const ProcessInput& input,
                          const ProcessLimits& limits, SandboxPool* sandbox) {
  become_child_subreaper();
  end_runs_on_interruption();
  if (sandbox != nullptr)
    return run_in_sandbox(command, input, limits, *sandbox);
  UniqueFd stdin_file = std::visit([](const auto& source) { return open_input(source); }, input);
  Pipe stdout_pipe = make_pipe();
  Pipe stderr_pipe = make_pipe();

  const std::string script = shell_script(command);
  ChildSetup setup;
  setup.argv = {"/bin/sh", "-c", script.c_str(), nullptr};
  setup.envp = environ;
  setup.standard_fds = {stdin_file.get(), stdout_pipe.write_end.get(), stderr_pipe.write_end.get()};
  setup.cpu_limit = cpu_rlimit(limits.cpu_seconds);
  sigemptyset(&setup.empty_mask);
  setup.default_action.sa_handler = SIG_DFL;
  sigemptyset(&setup.default_action.sa_mask);

  // vfork, not fork: a fork copies this process's page tables and makes every later write of its
  // threads fault (copy on write, with TLB shoot-downs between cores), which cost check's runs
  // more than the programs themselves when several threads start them. The child only makes the
  // system calls of run_child before execve. Every signal is blocked meanwhile, so that no
  // handler of this process runs in the child on this thread's stack; run_child resets them.
  sigset_t all_signals;
  sigset_t previous_mask;
  sigfillset(&all_signals);
  ::pthread_sigmask(SIG_SETMASK, &all_signals, &previous_mask);
  std::shared_lock spawning(g_spawn_mutex);
  const Clock::time_point start = Clock::now();
  const pid_t child = ::vfork();
  if (child == 0)
    run_child(setup);
  const int vfork_error = errno;
  ::pthread_sigmask(SIG_SETMASK, &previous_mask, nullptr);
  if (child < 0) {
    errno = vfork_error;
    throw_errno("cannot start a process to run " + command);
  }
  // Also here: whichever of the two runs first, the group exists before we may kill it.
  ::setpgid(child, child);
  const RegisteredGroup registered(child);
  spawning.unlock();
  stdin_file.reset();
  stdout_pipe.write_end.reset();
  stderr_pipe.write_end.reset();

  // The child has called execve (vfork returns then): this address space's peak so far is at
  // least what the kernel carried into the child's ru_maxrss.
  ProcessResult result =
      Run(child, stdout_pipe, stderr_pipe, limits, start, own_address_space_peak_bytes()).watch();
  end_escaped_processes();
  return result;
}

void kill_unsandboxed_runs() noexcept {
  for (std::atomic<pid_t>& group : g_run_groups) {
    if (const pid_t id = group.load(std::memory_order_relaxed); id > 0)
      ::kill(-id, SIGKILL);
  }
}

std::string describe(const ProcessResult& result) {
  switch (result.end) {
    case ProcessEnd::exited:
      return "exit status " + std::to_string(result.exit_status);
    case ProcessEnd::signaled: {
      std::string text = "killed by signal " + std::to_string(result.signal);
      if (const char* const name = ::sigabbrev_np(result.signal))
        text += std::string(" (SIG") + name + ")";
      return text;
    }
    case ProcessEnd::cpu_limit:
      return "CPU time limit (" + fixed(result.cpu_seconds, 2) + " s of CPU)";
    case ProcessEnd::wall_limit:
      return "wall-clock time limit (" + fixed(result.wall_seconds, 1) + " s)";
    case ProcessEnd::memory_limit:
      return "memory limit (peak " + mebibytes(result.peak_bytes) + ")";
    case ProcessEnd::process_limit:
      return "process limit (" + std::to_string(result.tasks_limit) + " processes and threads)";
    case ProcessEnd::disk_limit:
      return "disk limit (the scratch's space or files ran out)";
    case ProcessEnd::interrupted:
      return "ended by gamebatch's interruption";
    case ProcessEnd::output_limit:
      return "output limit (" +
             (result.output.size() >= (std::size_t{1} << 20)
                  ? mebibytes(result.output.size())
                  : std::to_string(result.output.size()) + " bytes") +
             " kept)";
  }
  return "unknown end";
}

}  // namespace gamebatch::io
