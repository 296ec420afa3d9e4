// The sandbox that `gamebatch check` and `gamebatch stress` run users' programs in (io/
// limited_process.hpp runs them; this makes and lends the boxes). Linux only; no root and no
// set-user-ID helper: it works as root and as an ordinary user, where user namespaces are allowed.
//
// A box is a keeper process (gamebatch-box, io/run/sandbox_box.cpp) with namespaces of its own:
// user (its programs are nobody, without capabilities, even when gamebatch is root), mount, PID,
// network (no interface up, so no route anywhere, not even to the host's loopback), IPC (SysV
// objects switched off) and UTS. Its file system shows, read-only and without set-user-ID: /usr,
// /bin, /lib*, the parts of /etc that the dynamic loader, locale and interpreters read,
// /dev/{null,zero,random,urandom}, a /proc of its own PID namespace, the files and directories
// that the command names (io::named_paths) and those of --sandbox-bind. Its working directory
// (the same path as gamebatch's) and /tmp are one writable scratch, a tmpfs of --sandbox-disk MB
// and a bounded count of files, made afresh after any run that changed it. A box is made once
// per worker and command (a few milliseconds) and then runs one program at a time; what a run
// can change (its processes, its scratch) is its own, and nothing of it outlives the run.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "io/run/sandbox_protocol.hpp"

namespace gamebatch::io {

struct SandboxSettings {
  std::vector<std::filesystem::path> binds;  // --sandbox-bind: more paths shown read-only
  std::uint64_t disk_bytes = std::uint64_t{64} << 20;
  std::uint64_t disk_files = 4096;
  std::uint64_t max_processes = 256;  // processes and threads of one run
};

// The paths of the user's that `command` names, absolute and normalised: each word (quotes
// removed, redirections' targets included) that names an existing file or directory, taken
// from `cwd` when relative, and not within the system directories the box shows anyway. Words
// that name the working directory itself or one of its parents are left out (they would show
// everything beside the inputs).
std::vector<std::filesystem::path> named_paths(const std::string& command,
                                               const std::filesystem::path& cwd);

// Where gamebatch-box is: $GAMEBATCH_BOX if set, else beside this program's executable, else in
// ../libexec/gamebatch/ from it (an installed package). Empty when none is found.
std::filesystem::path sandbox_helper();

// A memory cgroup of one box (v1's memory controller, or v2 where the memory controller is
// delegated to gamebatch's cgroup), removed with it. Its limit is a run's memory limit, enforced
// by the kernel over every process of the run (its scratch's pages included).
class MemoryCgroup {
 public:
  // A new cgroup below gamebatch's own; nullptr, with `why_not` set, where none can be made
  // (no such controller, or not allowed: an ordinary user without a delegated cgroup).
  static std::unique_ptr<MemoryCgroup> make(std::string& why_not);
  MemoryCgroup(const MemoryCgroup&) = delete;
  MemoryCgroup& operator=(const MemoryCgroup&) = delete;
  ~MemoryCgroup();

  bool attach(pid_t process) const;
  // 0: no limit. Written only when it changes.
  bool set_limit(std::uint64_t bytes);
  // Processes the kernel's OOM killer ended in it so far, and the peak since reset_peak.
  std::uint64_t oom_kills() const;
  void reset_peak() const;
  std::uint64_t peak_bytes() const;
  bool is_v2() const { return v2_; }

 private:
  MemoryCgroup(std::filesystem::path directory, bool v2)
      : directory_(std::move(directory)), v2_(v2) {}
  std::filesystem::path directory_;
  bool v2_;
  std::uint64_t limit_ = 0;
};

// One box, lent to one run at a time (SandboxPool::Lease).
class SandboxBox {
 public:
  // The starter's end of the socket and its pid; the keeper is known once the box is ready.
  SandboxBox(int socket, pid_t starter) : socket_(socket), starter_(starter) {}
  SandboxBox(const SandboxBox&) = delete;
  SandboxBox& operator=(const SandboxBox&) = delete;
  ~SandboxBox();  // closes the socket (the keeper then ends, and its box) and reaps the starter

  // Starts `script` (run by /bin/sh -c in the box) with these descriptors as its stdin, stdout
  // and stderr. Throws std::system_error when the keeper cannot be reached.
  void start(const std::string& script, std::uint64_t cpu_limit_seconds, int stdin_fd,
             int stdout_fd, int stderr_fd);
  void request_kill();
  // The run's end, when the keeper has sent it (without waiting), or after waiting for it. The
  // box is broken (and the end says the program did not start) when the keeper is gone.
  bool try_end(sandbox_protocol::RunEnd& end);
  sandbox_protocol::RunEnd wait_end();

  int socket() const { return socket_; }
  // The keeper's process id in gamebatch's PID namespace: the run's processes are its children.
  pid_t keeper() const { return keeper_; }
  bool broken() const { return broken_; }
  bool sysv_ipc_cleared_per_run() const { return ipc_cleared_per_run_; }
  void set_keeper(pid_t keeper, bool ipc_cleared_per_run) {
    keeper_ = keeper;
    ipc_cleared_per_run_ = ipc_cleared_per_run;
  }
  // The box's memory cgroup, the keeper in it; nullptr where none could be made.
  MemoryCgroup* memory() const { return memory_.get(); }
  void set_memory(std::unique_ptr<MemoryCgroup> memory) { memory_ = std::move(memory); }

 private:
  int socket_;
  pid_t starter_;
  pid_t keeper_ = 0;
  bool ipc_cleared_per_run_ = false;
  bool broken_ = false;
  std::unique_ptr<MemoryCgroup> memory_;  // destroyed after the keeper is gone (declared last)
};

class SandboxPool {
 public:
  // `cwd`: the working directory the commands' relative paths are taken from (gamebatch's).
  SandboxPool(SandboxSettings settings, std::filesystem::path cwd);
  SandboxPool(const SandboxPool&) = delete;
  SandboxPool& operator=(const SandboxPool&) = delete;
  ~SandboxPool();

  // Makes one box (kept for later runs): empty when that worked, else why not, in one line
  // that names the cause (for the exit 2 before any run, and for --sandbox-info).
  std::string probe();

  class Lease {
   public:
    Lease(SandboxPool& pool, std::string key, std::unique_ptr<SandboxBox> box)
        : pool_(&pool), key_(std::move(key)), box_(std::move(box)) {}
    Lease(Lease&&) = default;
    Lease& operator=(Lease&&) = default;
    ~Lease() {
      if (box_ != nullptr)
        pool_->give_back(key_, std::move(box_));
    }
    SandboxBox& box() { return *box_; }

   private:
    SandboxPool* pool_;
    std::string key_;
    std::unique_ptr<SandboxBox> box_;
  };

  // A box for `command` (one that shows what it names), idle or new. Throws std::runtime_error
  // naming the cause when none can be made.
  Lease acquire(const std::string& command);

  const SandboxSettings& settings() const { return settings_; }
  // Whether SysV IPC could not be switched off in the boxes (their keepers then remove what each
  // run made); known once a box was made.
  bool sysv_ipc_cleared_per_run() const;
  // How a run's memory is bounded: "cgroup v1", "cgroup v2", or the resident-memory watch with
  // why no cgroup could be made. Known once a box was made.
  std::string memory_guard() const;

 private:
  std::unique_ptr<SandboxBox> make_box(const std::vector<std::filesystem::path>& binds);
  void give_back(const std::string& key, std::unique_ptr<SandboxBox> box);

  SandboxSettings settings_;
  std::filesystem::path cwd_;
  std::filesystem::path helper_;
  mutable std::mutex mutex_;
  std::vector<std::pair<std::string, std::unique_ptr<SandboxBox>>> idle_;  // oldest first
  std::size_t lent_ = 0;
  std::size_t most_lent_ = 0;
  bool ipc_cleared_per_run_ = false;
  std::string memory_guard_;
};

}  // namespace gamebatch::io
