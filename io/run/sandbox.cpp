#include "io/run/sandbox.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <thread>

#include "io/run/raw_io.hpp"

extern char** environ;

namespace gamebatch::io {

namespace fs = std::filesystem;
namespace protocol = sandbox_protocol;

namespace {

using namespace std::chrono_literals;

// How long a box may take to be ready (it takes milliseconds; a loaded machine, more).
constexpr int kReadyTimeoutMs = 30000;
// Idle boxes kept: at least this many, and twice the most lent at once.
constexpr std::size_t kLeastIdleKept = 8;
// The box's PATH: programs named by a bare word are found among the system's, as a judge's are.
constexpr const char* kBoxPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

bool is_within(const fs::path& path, const fs::path& directory) {
  const std::string text = path.string();
  const std::string base = directory.string();
  return base == "/" || text == base ||
         (text.size() > base.size() && text.compare(0, base.size(), base) == 0 &&
          text[base.size()] == '/');
}

// The directories the box shows whole: a path within them needs no bind of its own.
bool is_system_path(const fs::path& path) {
  for (const char* system :
       {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/dev", "/proc"}) {
    if (is_within(path, system))
      return true;
  }
  return false;
}

// The words of a shell command, quotes removed; operators (| ; & ( ) < >) end words. Words with
// an expansion ($, `, a glob) cannot be resolved here and come out as they are (and name nothing).
std::vector<std::string> shell_words(std::string_view command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  auto finish = [&] {
    if (in_word)
      words.push_back(word);
    word.clear();
    in_word = false;
  };
  for (std::size_t at = 0; at < command.size(); ++at) {
    const char c = command[at];
    if (c == '\'') {
      const std::size_t end = command.find('\'', at + 1);
      word.append(command.substr(at + 1, end == std::string_view::npos ? end : end - at - 1));
      in_word = true;
      at = end == std::string_view::npos ? command.size() : end;
    } else if (c == '"') {
      in_word = true;
      for (++at; at < command.size() && command[at] != '"'; ++at) {
        if (command[at] == '\\' && at + 1 < command.size())
          ++at;
        word += command[at];
      }
    } else if (c == '\\' && at + 1 < command.size()) {
      word += command[++at];
      in_word = true;
    } else if (std::string_view(" \t\n|;&()<>").find(c) != std::string_view::npos) {
      finish();
    } else {
      word += c;
      in_word = true;
    }
  }
  finish();
  return words;
}

std::string read_text_file(const fs::path& path) {
  std::string text;
  read_small_file(path.c_str(), text);
  return text;
}

}  // namespace

std::vector<fs::path> named_paths(const std::string& command, const fs::path& cwd) {
  std::vector<fs::path> paths;
  for (const std::string& word : shell_words(command)) {
    // A class path or an option's value (--input=FILE) names paths too.
    std::vector<std::string> parts;
    std::string_view rest = word;
    if (const std::size_t equals = rest.find('='); rest.starts_with("-") && equals != rest.npos)
      rest.remove_prefix(equals + 1);
    for (std::size_t colon; (colon = rest.find(':')) != rest.npos; rest.remove_prefix(colon + 1))
      parts.emplace_back(rest.substr(0, colon));
    parts.emplace_back(rest);
    for (const std::string& part : parts) {
      if (part.empty() || part.find_first_of("$`*?[") != std::string::npos)
        continue;
      fs::path path = (part.front() == '/' ? fs::path(part) : cwd / part).lexically_normal();
      std::string text = path.string();
      while (text.size() > 1 && text.back() == '/')
        text.pop_back();
      path = text;
      std::error_code error;
      // /tmp whole would hide the scratch's /tmp: what is below it can be shown, not it.
      if (!fs::exists(path, error) || is_system_path(path) || is_within(cwd, path) ||
          path == "/tmp")
        continue;
      if (std::find(paths.begin(), paths.end(), path) == paths.end())
        paths.push_back(path);
    }
  }
  // A path within another named directory is shown with it.
  std::vector<fs::path> kept;
  for (const fs::path& path : paths) {
    const bool covered = std::any_of(paths.begin(), paths.end(), [&](const fs::path& other) {
      return other != path && is_within(path, other) && fs::is_directory(other);
    });
    if (!covered)
      kept.push_back(path);
  }
  return kept;
}

fs::path sandbox_helper() {
  if (const char* const explicit_path = std::getenv("GAMEBATCH_BOX");
      explicit_path != nullptr && *explicit_path != '\0')
    return explicit_path;
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error)
    return {};
  for (const fs::path& candidate : {self.parent_path() / "gamebatch-box",
                                    self.parent_path() / "../libexec/gamebatch/gamebatch-box"}) {
    if (::access(candidate.c_str(), X_OK) == 0)
      return candidate.lexically_normal();
  }
  return {};
}

// ---------------------------------------------------------------- MemoryCgroup

namespace {

bool write_cgroup_file(const fs::path& path, const std::string& text) {
  return write_small_file(path.c_str(), text);
}

// The value after `key` (a line "key N") in a flat-keyed cgroup file.
std::uint64_t keyed_value(const std::string& text, std::string_view key) {
  std::size_t at = 0;
  while ((at = text.find(key, at)) != std::string::npos) {
    if ((at == 0 || text[at - 1] == '\n') && at + key.size() < text.size() &&
        text[at + key.size()] == ' ')
      return std::strtoull(text.c_str() + at + key.size() + 1, nullptr, 10);
    at += key.size();
  }
  return 0;
}

// Where a cgroup hierarchy is mounted: v2 (`controller` empty), or the v1 one holding it.
fs::path cgroup_mount(const std::string& controller) {
  std::ifstream mounts("/proc/self/mountinfo");
  for (std::string line; std::getline(mounts, line);) {
    const std::size_t dash = line.find(" - ");
    if (dash == std::string::npos)
      continue;
    std::istringstream before(line.substr(0, dash));
    std::istringstream after(line.substr(dash + 3));
    std::string id, parent, device, root, mount_point, type, source, options;
    before >> id >> parent >> device >> root >> mount_point;
    after >> type >> source >> options;
    if (controller.empty()
            ? type == "cgroup2"
            : type == "cgroup" &&
                  ("," + options + ",").find("," + controller + ",") != std::string::npos)
      return mount_point;
  }
  return {};
}

// This process's cgroup in the v2 hierarchy (`controller` empty) or in the v1 one of
// `controller`, as /proc/self/cgroup gives it.
std::string own_cgroup(const std::string& controller) {
  std::ifstream groups("/proc/self/cgroup");
  for (std::string line; std::getline(groups, line);) {
    const std::size_t first = line.find(':');
    const std::size_t second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos)
      continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    if (controller.empty()
            ? line.compare(0, 3, "0::") == 0
            : ("," + controllers + ",").find("," + controller + ",") != std::string::npos)
      return line.substr(second + 1);
  }
  return {};
}

// The cgroups of gamebatch runs that were killed before they could remove theirs (named
// gamebatch-PID-N, with PID no longer running): empty, and removed once per process and place.
void remove_stale_cgroups(const fs::path& parent) {
  static std::mutex mutex;
  static std::vector<fs::path> cleaned;
  std::lock_guard lock(mutex);
  if (std::find(cleaned.begin(), cleaned.end(), parent) != cleaned.end())
    return;
  cleaned.push_back(parent);
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(parent, error)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("gamebatch-"))
      continue;
    const auto pid = static_cast<pid_t>(std::atol(name.c_str() + 10));
    if (pid > 0 && pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH)
      ::rmdir(entry.path().c_str());
  }
}

}  // namespace

std::unique_ptr<MemoryCgroup> MemoryCgroup::make(std::string& why_not) {
  static std::atomic<unsigned> made{0};
  const std::string name = "gamebatch-" + std::to_string(::getpid()) + "-" + std::to_string(made++);
  // v1's memory controller first (this project's machines), then a v2 hierarchy whose memory
  // controller reaches a child of gamebatch's cgroup.
  for (const bool v2 : {false, true}) {
    const fs::path mount = cgroup_mount(v2 ? "" : "memory");
    const std::string own = own_cgroup(v2 ? "" : "memory");
    if (mount.empty() || own.empty())
      continue;
    const fs::path directory = (mount / own.substr(1) / name).lexically_normal();
    remove_stale_cgroups(directory.parent_path());
    if (::mkdir(directory.c_str(), 0755) != 0) {
      if (why_not.empty())  // the first reason: v1's, where it is mounted
        why_not = "cannot create a cgroup in " + directory.parent_path().string() + ": " +
                  std::strerror(errno);
      continue;
    }
    auto cgroup = std::unique_ptr<MemoryCgroup>(new MemoryCgroup(directory, v2));
    if (::access((directory / (v2 ? "memory.max" : "memory.limit_in_bytes")).c_str(), W_OK) != 0) {
      why_not = "the memory controller is not delegated to " + directory.parent_path().string();
      continue;  // removed by the destructor
    }
    return cgroup;
  }
  if (why_not.empty())
    why_not = "no memory cgroup controller is mounted";
  return nullptr;
}

MemoryCgroup::~MemoryCgroup() {
  // Empty once its processes are reaped; a process the kernel is still tearing down may hold it
  // for a moment.
  for (int attempt = 0; attempt < 200; ++attempt) {
    if (::rmdir(directory_.c_str()) == 0 || errno != EBUSY)
      return;
    std::this_thread::sleep_for(1ms);
  }
}

bool MemoryCgroup::attach(pid_t process) const {
  return write_cgroup_file(directory_ / "cgroup.procs", std::to_string(process));
}

bool MemoryCgroup::set_limit(std::uint64_t bytes) {
  if (bytes == limit_)
    return true;
  const std::string value = bytes != 0 ? std::to_string(bytes) : v2_ ? "max" : "-1";
  if (!write_cgroup_file(directory_ / (v2_ ? "memory.max" : "memory.limit_in_bytes"), value))
    return false;
  limit_ = bytes;
  return true;
}

std::uint64_t MemoryCgroup::oom_kills() const {
  return keyed_value(read_text_file(directory_ / (v2_ ? "memory.events" : "memory.oom_control")),
                     "oom_kill");
}

void MemoryCgroup::reset_peak() const {
  // v2 has no reset before Linux 6.12 (memory.peak accepts one); its peak is then the box's.
  write_cgroup_file(directory_ / (v2_ ? "memory.peak" : "memory.max_usage_in_bytes"),
                    v2_ ? "reset" : "0");
}

std::uint64_t MemoryCgroup::peak_bytes() const {
  return std::strtoull(
      read_text_file(directory_ / (v2_ ? "memory.peak" : "memory.max_usage_in_bytes")).c_str(),
      nullptr, 10);
}

// ---------------------------------------------------------------- SandboxBox

SandboxBox::~SandboxBox() {
  ::close(socket_);  // the keeper ends at this (its box with it), then the starter
  const auto deadline = std::chrono::steady_clock::now() + 2s;
  for (;;) {
    int status = 0;
    const pid_t reaped = ::waitpid(starter_, &status, WNOHANG);
    if (reaped == starter_ || (reaped < 0 && errno != EINTR))
      return;
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(starter_, SIGKILL);  // the keeper dies with it (its parent-death signal)
      ::waitpid(starter_, &status, 0);
      return;
    }
    std::this_thread::sleep_for(200us);
  }
}

void SandboxBox::start(const std::string& script, std::uint64_t cpu_limit_seconds, int stdin_fd,
                       int stdout_fd, int stderr_fd) {
  protocol::RunRequest header;
  header.script_bytes = static_cast<std::uint32_t>(script.size());
  header.cpu_limit_seconds = cpu_limit_seconds;
  std::string bytes(sizeof header, '\0');
  std::memcpy(bytes.data(), &header, sizeof header);
  bytes += script;
  const std::array<int, 3> fds{stdin_fd, stdout_fd, stderr_fd};
  alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof fds)> control{};
  iovec part{bytes.data(), bytes.size()};
  msghdr message{};
  message.msg_iov = &part;
  message.msg_iovlen = 1;
  message.msg_control = control.data();
  message.msg_controllen = control.size();
  cmsghdr* const rights = CMSG_FIRSTHDR(&message);
  rights->cmsg_level = SOL_SOCKET;
  rights->cmsg_type = SCM_RIGHTS;
  rights->cmsg_len = CMSG_LEN(sizeof fds);
  std::memcpy(CMSG_DATA(rights), fds.data(), sizeof fds);
  ssize_t sent = 0;
  do {
    sent = ::sendmsg(socket_, &message, MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  if (sent != static_cast<ssize_t>(bytes.size())) {
    broken_ = true;
    throw_errno("cannot reach the sandbox's keeper");
  }
}

void SandboxBox::request_kill() {
  const protocol::Kind kind = protocol::Kind::kill;
  if (::send(socket_, &kind, sizeof kind, MSG_NOSIGNAL) != sizeof kind)
    broken_ = true;
}

bool SandboxBox::try_end(protocol::RunEnd& end) {
  for (;;) {
    const ssize_t length = ::recv(socket_, &end, sizeof end, MSG_DONTWAIT);
    if (length == static_cast<ssize_t>(sizeof end) && end.kind == protocol::Kind::ended)
      return true;
    if (length < 0 && errno == EINTR)
      continue;
    if (length < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      return false;
    // The keeper is gone (or spoke out of turn): nothing of the run can be left, since the box's
    // processes die with their PID namespace's first one.
    broken_ = true;
    end = {};
    end.start_error = ECHILD;
    return true;
  }
}

protocol::RunEnd SandboxBox::wait_end() {
  protocol::RunEnd end;
  for (;;) {
    pollfd watched{socket_, POLLIN, 0};
    if (::poll(&watched, 1, -1) < 0 && errno != EINTR)
      throw_errno("cannot wait for the sandbox's keeper");
    if (try_end(end))
      return end;
  }
}

// ---------------------------------------------------------------- SandboxPool

SandboxPool::SandboxPool(SandboxSettings settings, fs::path cwd)
    : settings_(std::move(settings)), cwd_(std::move(cwd)), helper_(sandbox_helper()) {}

SandboxPool::~SandboxPool() = default;

std::string SandboxPool::memory_guard() const {
  std::lock_guard lock(mutex_);
  return memory_guard_;
}

bool SandboxPool::sysv_ipc_cleared_per_run() const {
  std::lock_guard lock(mutex_);
  return ipc_cleared_per_run_;
}

namespace {

// The helper's command line: the box's working directory is gamebatch's, so that the command's
// relative paths work; the root itself cannot be a scratch, so a run from / works in /box
// (relative paths then fail).
std::vector<std::string> helper_arguments(const fs::path& helper, const fs::path& working,
                                          const SandboxSettings& settings,
                                          const std::vector<fs::path>& binds) {
  const std::string cwd = working == "/" ? std::string("/box") : working.string();
  std::vector<std::string> arguments = {helper.string(),
                                        "--cwd",
                                        cwd,
                                        "--disk-bytes",
                                        std::to_string(settings.disk_bytes),
                                        "--disk-files",
                                        std::to_string(settings.disk_files),
                                        "--max-processes",
                                        std::to_string(settings.max_processes),
                                        "--env",
                                        std::string("PATH=") + kBoxPath,
                                        "--env",
                                        "HOME=" + cwd,
                                        "--env",
                                        "TMPDIR=/tmp"};
  for (const char* const name : {"LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "TZ"}) {
    if (const char* const value = std::getenv(name)) {
      arguments.emplace_back("--env");
      arguments.push_back(std::string(name) + "=" + value);
    }
  }
  for (const fs::path& bind : binds) {
    arguments.emplace_back("--bind");
    arguments.push_back(bind.string());
  }
  return arguments;
}

// Waits for the helper's first message on `socket`: the box is ready, or why it is not (thrown).
protocol::Ready wait_until_ready(int socket, const fs::path& helper) {
  pollfd watched{socket, POLLIN, 0};
  int ready = 0;
  do {
    ready = ::poll(&watched, 1, kReadyTimeoutMs);
  } while (ready < 0 && errno == EINTR);
  std::array<char, 4096> message{};
  const ssize_t length = ready > 0 ? ::recv(socket, message.data(), message.size(), 0) : -1;
  protocol::Kind kind{};
  if (length >= static_cast<ssize_t>(sizeof kind))
    std::memcpy(&kind, message.data(), sizeof kind);
  if (length < static_cast<ssize_t>(sizeof kind) || kind == protocol::Kind::failed) {
    const std::string why = length >= static_cast<ssize_t>(sizeof kind)
                                ? std::string(message.data() + sizeof kind,
                                              static_cast<std::size_t>(length) - sizeof kind)
                            : ready == 0
                                ? "it did not get ready in time"
                                : "its helper " + helper.string() + " ended before it was ready";
    throw std::runtime_error("cannot make a sandbox: " + why);
  }
  protocol::Ready hello;
  std::memcpy(&hello, message.data(), std::min(sizeof hello, static_cast<std::size_t>(length)));
  return hello;
}

}  // namespace

std::unique_ptr<SandboxBox> SandboxPool::make_box(const std::vector<fs::path>& binds) {
  if (helper_.empty())
    throw std::runtime_error(
        "the sandbox's helper gamebatch-box is missing (looked beside gamebatch and in "
        "../libexec/gamebatch; $GAMEBATCH_BOX names another)");
  std::vector<std::string> arguments = helper_arguments(helper_, cwd_, settings_, binds);
  std::vector<char*> argv;
  for (std::string& argument : arguments)
    argv.push_back(argument.data());
  argv.push_back(nullptr);

  std::array<int, 2> ends{};
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends.data()) != 0)
    throw_errno("cannot create a socket for the sandbox");
  const int null_device = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  const int theirs = ends[1];
  // vfork: the child only makes system calls before execve (see io/run/limited_process.cpp).
  sigset_t all_signals;
  sigset_t previous_mask;
  sigfillset(&all_signals);
  ::pthread_sigmask(SIG_SETMASK, &all_signals, &previous_mask);
  const pid_t starter = ::vfork();
  if (starter == 0) {
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (::dup2(theirs, protocol::kSocketFd) < 0 || ::dup2(null_device, 0) < 0 ||
        ::dup2(null_device, 1) < 0)
      ::_exit(127);
    ::close_range(protocol::kSocketFd + 1, ~0U, CLOSE_RANGE_CLOEXEC);
    ::execve(argv[0], argv.data(), environ);
    ::_exit(127);
  }
  const int vfork_error = errno;
  ::pthread_sigmask(SIG_SETMASK, &previous_mask, nullptr);
  ::close(theirs);
  if (null_device >= 0)
    ::close(null_device);
  if (starter < 0) {
    ::close(ends[0]);
    errno = vfork_error;
    throw_errno("cannot start the sandbox's helper");
  }
  auto box = std::make_unique<SandboxBox>(ends[0], starter);

  const protocol::Ready hello = wait_until_ready(ends[0], helper_);
  // The keeper is the starter's only child.
  const std::string children = read_text_file("/proc/" + std::to_string(starter) + "/task/" +
                                              std::to_string(starter) + "/children");
  const pid_t keeper = static_cast<pid_t>(std::atol(children.c_str()));
  if (keeper <= 0)
    throw std::runtime_error("cannot make a sandbox: its keeper is not there");
  box->set_keeper(keeper, hello.sysv_ipc_cleared_per_run != 0);
  // The keeper in the box's memory cgroup: every program it starts is in it too.
  std::string why_not;
  if (std::unique_ptr<MemoryCgroup> memory = MemoryCgroup::make(why_not)) {
    if (memory->attach(keeper))
      box->set_memory(std::move(memory));
    else
      why_not =
          std::string("cannot move the box's keeper into its cgroup: ") + std::strerror(errno);
  }
  std::lock_guard lock(mutex_);
  memory_guard_ = box->memory() != nullptr
                      ? std::string(box->memory()->is_v2() ? "cgroup v2" : "cgroup v1")
                      : "resident memory watched (no cgroup: " + why_not + ")";
  return box;
}

std::string SandboxPool::probe() {
  try {
    Lease lease = acquire("");
    return {};
  } catch (const std::exception& error) {
    return error.what();
  }
}

SandboxPool::Lease SandboxPool::acquire(const std::string& command) {
  std::vector<fs::path> binds = named_paths(command, cwd_);
  for (const fs::path& bind : settings_.binds) {
    // The system's directories are shown whole already.
    if (!is_system_path(bind) && std::find(binds.begin(), binds.end(), bind) == binds.end())
      binds.push_back(bind);
  }
  std::sort(binds.begin(), binds.end());
  std::string key;
  for (const fs::path& bind : binds)
    key += bind.string() + '\n';
  {
    std::lock_guard lock(mutex_);
    ++lent_;
    most_lent_ = std::max(most_lent_, lent_);
    for (auto at = idle_.rbegin(); at != idle_.rend(); ++at) {
      if (at->first == key) {
        std::unique_ptr<SandboxBox> box = std::move(at->second);
        idle_.erase(std::next(at).base());
        return Lease(*this, key, std::move(box));
      }
    }
  }
  try {
    std::unique_ptr<SandboxBox> box = make_box(binds);
    std::lock_guard lock(mutex_);
    ipc_cleared_per_run_ = box->sysv_ipc_cleared_per_run();
    return Lease(*this, key, std::move(box));
  } catch (...) {
    std::lock_guard lock(mutex_);
    --lent_;
    throw;
  }
}

void SandboxPool::give_back(const std::string& key, std::unique_ptr<SandboxBox> box) {
  std::unique_ptr<SandboxBox> evicted;
  std::lock_guard lock(mutex_);
  --lent_;
  if (box->broken())
    return;  // destroyed here
  idle_.emplace_back(key, std::move(box));
  if (idle_.size() > std::max(kLeastIdleKept, 2 * most_lent_)) {
    evicted = std::move(idle_.front().second);
    idle_.erase(idle_.begin());
  }
}

}  // namespace gamebatch::io
