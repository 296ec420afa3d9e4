// gamebatch-box: the keeper of one sandbox (io/run/sandbox.hpp says what a sandbox is). gamebatch
// starts it with a socket on fd 3; it makes the box's namespaces and its view of the file system
// once, then runs one program at a time in it, on request, until the socket closes.
//
// Two processes: this one (the starter) stays outside, in gamebatch's namespaces, only to write
// the box's identity maps and to wait; its child, the keeper, is the first process (PID 1) of the
// box's PID namespace. When the keeper ends, the kernel kills every process left in the box; it
// ends when the socket closes (gamebatch ended, even by SIGKILL) and when the starter dies.
//
// Usage (not for people): gamebatch-box --cwd DIR --disk-bytes N --disk-files N
//   --max-processes N [--bind PATH]... [--env NAME=VALUE]...
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "io/run/proc_stat.hpp"
#include "io/run/raw_io.hpp"
#include "io/run/sandbox_protocol.hpp"

namespace {

namespace protocol = gamebatch::io::sandbox_protocol;

// The identity of everything in the box, inside it: nobody. Outside it is nobody too when
// gamebatch runs as root, and the user otherwise (an unprivileged user can map only itself).
constexpr uid_t kBoxUid = 65534;
constexpr gid_t kBoxGid = 65534;
constexpr const char* kNewRoot = "/tmp";  // where the box's root is built, in its mount namespace
constexpr const char* kScratch = "/.gamebatch/scratch";
constexpr const char* kStaged = "/.gamebatch/named";
// How often a running program's scratch is looked at (a full scratch ends the run).
constexpr int kDiskLookMs = 10;

struct Options {
  std::string cwd;
  unsigned long long disk_bytes = 64ULL << 20;
  unsigned long long disk_files = 4096;
  unsigned long long max_processes = 256;
  std::vector<std::string> binds;
  std::vector<std::string> environment;
};

int g_socket = protocol::kSocketFd;

[[noreturn]] void fail(const std::string& what) {
  const int error = errno;
  std::string message(sizeof(protocol::Kind), '\0');
  const protocol::Kind kind = protocol::Kind::failed;
  std::memcpy(message.data(), &kind, sizeof kind);
  message += what;
  if (error != 0)
    message += std::string(": ") + std::strerror(error);
  [[maybe_unused]] const ssize_t sent = ::send(g_socket, message.data(), message.size(), 0);
  std::_Exit(1);
}

bool write_file(const std::string& path, std::string_view text) {
  return gamebatch::io::write_small_file(path.c_str(), text);
}

bool is_within(const std::string& path, const std::string& directory) {
  return directory == "/" || path == directory ||
         (path.size() > directory.size() && path.compare(0, directory.size(), directory) == 0 &&
          path[directory.size()] == '/');
}

void make_directories(const std::string& path) {
  for (std::size_t at = 1; at <= path.size(); ++at) {
    if (at == path.size() || path[at] == '/') {
      const std::string prefix = path.substr(0, at);
      if (::mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST)
        fail("cannot create " + prefix);
    }
  }
}

void make_mount_point(const std::string& path, bool directory) {
  make_directories(path.substr(0, path.rfind('/')));
  if (directory) {
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST)
      fail("cannot create " + path);
    return;
  }
  const int file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (file < 0 && errno != EEXIST)
    fail("cannot create " + path);
  if (file >= 0)
    ::close(file);
}

// Flags a read-only remount must keep: those the kernel locks on mounts that came from the
// parent namespace (their atime behaviour, nosuid, nodev, noexec).
unsigned long locked_flags(const std::string& path) {
  struct statvfs info {};
  if (::statvfs(path.c_str(), &info) != 0)
    return 0;
  unsigned long flags = 0;
  if (info.f_flag & ST_NOEXEC)
    flags |= MS_NOEXEC;
  if (info.f_flag & ST_NOATIME)
    flags |= MS_NOATIME;
  if (info.f_flag & ST_NODIRATIME)
    flags |= MS_NODIRATIME;
  if (info.f_flag & ST_RELATIME)
    flags |= MS_RELATIME;
  return flags;
}

// Binds `source` at `target` (which exists), read-only, without set-user-ID or devices.
void bind_read_only(const std::string& source, const std::string& target, bool devices = false) {
  if (::mount(source.c_str(), target.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0)
    fail("cannot bind " + source);
  unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | locked_flags(target);
  if (!devices)
    flags |= MS_NODEV;
  if (::mount(nullptr, target.c_str(), nullptr, flags, nullptr) != 0)
    fail("cannot make " + target + " read-only");
}

// What the box shows of the system (read-only): the directories programs and interpreters are
// in, and the files of /etc that the dynamic loader, the C library's locale and time zone code,
// and the interpreters (Python, Java) read. Merged-/usr links (/bin -> usr/bin) are links here too.
void add_system_view(const std::string& root) {
  for (const char* path : {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    struct stat info {};
    if (::lstat(path, &info) != 0)
      continue;
    const std::string target = root + path;
    if (S_ISLNK(info.st_mode)) {
      std::array<char, 4096> link{};
      const ssize_t length = ::readlink(path, link.data(), link.size() - 1);
      if (length < 0 || ::symlink(link.data(), target.c_str()) != 0)
        fail(std::string("cannot copy the link ") + path);
    } else if (S_ISDIR(info.st_mode)) {
      make_mount_point(target, true);
      bind_read_only(path, target);
    }
  }
  make_directories(root + "/etc");
  DIR* const etc = ::opendir("/etc");
  if (etc == nullptr)
    fail("cannot read /etc");
  constexpr std::array<std::string_view, 14> kEtcNames = {
      "alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d",  "locale.alias",
      "locale.conf",  "localtime",   "timezone",   "nsswitch.conf", "passwd",
      "group",        "hosts",       "mime.types", "magic"};
  constexpr std::array<std::string_view, 3> kEtcPrefixes = {"java", "python", "perl"};
  while (const dirent* const entry = ::readdir(etc)) {
    const std::string_view name = entry->d_name;
    const bool wanted =
        std::find(kEtcNames.begin(), kEtcNames.end(), name) != kEtcNames.end() ||
        std::any_of(kEtcPrefixes.begin(), kEtcPrefixes.end(),
                    [&](std::string_view prefix) { return name.starts_with(prefix); });
    if (!wanted)
      continue;
    const std::string source = "/etc/" + std::string(name);
    const std::string target = root + source;
    struct stat info {};
    if (::lstat(source.c_str(), &info) != 0)
      continue;
    if (S_ISLNK(info.st_mode)) {
      std::array<char, 4096> link{};
      const ssize_t length = ::readlink(source.c_str(), link.data(), link.size() - 1);
      if (length >= 0 && ::symlink(link.data(), target.c_str()) != 0)
        fail("cannot copy the link " + source);
    } else if (S_ISDIR(info.st_mode) || S_ISREG(info.st_mode)) {
      if (::access(source.c_str(), R_OK) != 0)
        continue;  // not readable by the box's identity: it would see nothing there anyway
      make_mount_point(target, S_ISDIR(info.st_mode));
      bind_read_only(source, target);
    }
  }
  ::closedir(etc);

  make_directories(root + "/dev");
  for (const char* device : {"/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"}) {
    make_mount_point(root + device, false);
    bind_read_only(device, root + device, true);
  }
  for (const auto& [name, target] : {std::pair{"fd", "/proc/self/fd"},
                                     {"stdin", "/proc/self/fd/0"},
                                     {"stdout", "/proc/self/fd/1"},
                                     {"stderr", "/proc/self/fd/2"}}) {
    if (::symlink(target, (root + "/dev/" + name).c_str()) != 0)
      fail(std::string("cannot create /dev/") + name);
  }
}

struct Scratch {
  std::string cwd;
  std::vector<std::pair<std::string, bool>> named;  // paths below cwd, and whether a directory
  std::vector<std::string> named_staged;            // where each is staged
  unsigned long long bytes = 0;
  unsigned long long files = 0;
  // What a pristine scratch looks like: its blocks and inodes in use, and each directory's ctime.
  unsigned long long used_blocks = 0;
  unsigned long long used_files = 0;
  std::vector<std::pair<std::string, struct timespec>> directories;
  bool mounted = false;

  void mount_fresh();
  void unmount();
  bool pristine() const;
  bool full() const;
};

void Scratch::mount_fresh() {
  const std::string options =
      "size=" + std::to_string(bytes) + ",nr_inodes=" + std::to_string(files) +
      ",mode=0755,uid=" + std::to_string(kBoxUid) + ",gid=" + std::to_string(kBoxGid);
  if (::mount("gamebatch-scratch", kScratch, "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) != 0)
    fail("cannot mount the scratch (a tmpfs)");
  const std::string work = std::string(kScratch) + "/work";
  const std::string tmp = std::string(kScratch) + "/tmp";
  if (::mkdir(work.c_str(), 0755) != 0 || ::mkdir(tmp.c_str(), 01777) != 0 ||
      ::chmod(tmp.c_str(), 01777) != 0)
    fail("cannot create the scratch's directories");
  directories.clear();
  directories.push_back({work, {}});
  directories.push_back({tmp, {}});
  for (const auto& [path, is_directory] : named) {
    // Below the working directory or /tmp: a mount point in the scratch, where the bind of the
    // scratch at that path will show it.
    const bool below_cwd = is_within(path, cwd);
    const std::string& base = below_cwd ? work : tmp;
    const std::string inside = base + path.substr(below_cwd ? cwd.size() : 4);
    for (std::size_t at = base.size() + 1; at < inside.size(); ++at) {
      if (inside[at] != '/')
        continue;
      const std::string parent = inside.substr(0, at);
      if (::mkdir(parent.c_str(), 0755) == 0)
        directories.push_back({parent, {}});
    }
    make_mount_point(inside, is_directory);
  }
  // /tmp first: a working directory below /tmp is then made in the scratch's /tmp.
  if (::mount(tmp.c_str(), "/tmp", nullptr, MS_BIND, nullptr) != 0)
    fail("cannot bind the scratch at /tmp");
  if (is_within(cwd, "/tmp")) {
    for (std::size_t at = 5; at <= cwd.size(); ++at) {
      if (at < cwd.size() && cwd[at] != '/')
        continue;
      const std::string directory = cwd.substr(0, at);
      if (::mkdir(directory.c_str(), 0755) == 0)
        directories.push_back({directory, {}});
    }
  }
  if (::mount(work.c_str(), cwd.c_str(), nullptr, MS_BIND, nullptr) != 0)
    fail("cannot bind the scratch at the working directory");
  for (std::size_t k = 0; k < named.size(); ++k)
    bind_read_only(named_staged[k], named[k].first);
  for (auto& [path, changed] : directories) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
      fail("cannot look at " + path);
    changed = info.st_ctim;
  }
  struct statfs usage {};
  if (::statfs(kScratch, &usage) != 0)
    fail("cannot look at the scratch");
  used_blocks = usage.f_blocks - usage.f_bfree;
  used_files = usage.f_files - usage.f_ffree;
  mounted = true;
}

void Scratch::unmount() {
  ::umount2(cwd.c_str(), MNT_DETACH);
  ::umount2("/tmp", MNT_DETACH);
  ::umount2(kScratch, MNT_DETACH);
  mounted = false;
}

// Nothing created, removed, renamed, grown or changed in it since mount_fresh: every change
// shows in the counts of blocks and inodes or in a directory's ctime.
bool Scratch::pristine() const {
  struct statfs usage {};
  if (!mounted || ::statfs(kScratch, &usage) != 0 ||
      usage.f_blocks - usage.f_bfree != used_blocks || usage.f_files - usage.f_ffree != used_files)
    return false;
  for (const auto& [path, changed] : directories) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || info.st_ctim.tv_sec != changed.tv_sec ||
        info.st_ctim.tv_nsec != changed.tv_nsec)
      return false;
  }
  return true;
}

bool Scratch::full() const {
  struct statfs usage {};
  return ::statfs(kScratch, &usage) == 0 && (usage.f_bavail == 0 || usage.f_ffree == 0);
}

// Builds the box's root in a tmpfs and makes it the root of this mount namespace. Runs as
// kBoxUid with every capability of the box's user namespace; the paths to bind were opened
// before (as `bind_sources`), when this process still had its caller's identity.
void build_root(const Options& options, const std::vector<int>& bind_sources, Scratch& scratch) {
  const std::string root = kNewRoot;
  if (::mount("gamebatch-box", root.c_str(), "tmpfs", MS_NOSUID | MS_NODEV,
              "size=1m,nr_inodes=4096,mode=0755") != 0)
    fail("cannot mount the box's root (a tmpfs)");
  add_system_view(root);
  make_directories(root + "/proc");
  make_directories(root + "/tmp");
  make_directories(root + kScratch);
  make_directories(root + kStaged);
  if (options.cwd != "/")
    make_directories(root + options.cwd);

  scratch.cwd = options.cwd;
  for (std::size_t k = 0; k < options.binds.size(); ++k) {
    const std::string& path = options.binds[k];
    struct stat info {};
    if (::fstat(bind_sources[k], &info) != 0)
      fail("cannot look at " + path);
    const bool is_directory = S_ISDIR(info.st_mode);
    const std::string source = "/proc/self/fd/" + std::to_string(bind_sources[k]);
    if (is_within(path, options.cwd) || is_within(path, "/tmp")) {
      // Staged, to be bound into each fresh scratch (the working directory and /tmp are it).
      const std::string staged = std::string(kStaged) + "/" + std::to_string(k);
      make_mount_point(root + staged, is_directory);
      bind_read_only(source, root + staged);
      scratch.named.push_back({path, is_directory});
      scratch.named_staged.push_back(staged);
    } else {
      make_mount_point(root + path, is_directory);
      bind_read_only(source, root + path);
    }
  }
  for (const int source : bind_sources)
    ::close(source);

  // The PID namespace's own /proc: this process is its first.
  if (::mount("proc", (root + "/proc").c_str(), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
              nullptr) != 0)
    fail("cannot mount a /proc of the box's PID namespace");

  if (::chdir(root.c_str()) != 0 || ::syscall(SYS_pivot_root, ".", ".") != 0)
    fail("cannot make the box's root the root (pivot_root)");
  if (::umount2(".", MNT_DETACH) != 0 || ::chdir("/") != 0)
    fail("cannot detach the outside file system");
  if (::mount(nullptr, "/", nullptr, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr) != 0)
    fail("cannot make the box's root read-only");
}

// SysV IPC objects outlive the processes that made them: with none allowed in the box's IPC
// namespace, no run can leave one for the next. Where the kernel does not let the box's keeper
// set these limits, it removes what each run made (remove_sysv_ipc). POSIX message queues are
// kept out by RLIMIT_MSGQUEUE 0.
bool switch_off_sysv_ipc() {
  return write_file("/proc/sys/kernel/shmmni", "0") && write_file("/proc/sys/kernel/msgmni", "0") &&
         write_file("/proc/sys/kernel/sem", "0 0 0 0");
}

void send_all(const void* data, std::size_t size) {
  if (::send(g_socket, data, size, MSG_NOSIGNAL) != static_cast<ssize_t>(size))
    std::_Exit(1);  // gamebatch is gone
}

struct Request {
  protocol::RunRequest header;
  std::string script;
  std::array<int, 3> fds{-1, -1, -1};
  bool closed = false;  // the socket's other end is gone
  bool kill = false;    // a kill request
};

// Reads one message. fds received with it are kept (stdin, stdout, stderr of a run).
Request receive() {
  Request request;
  std::vector<char> buffer(sizeof(protocol::RunRequest) + 65536);
  alignas(cmsghdr) std::array<char, CMSG_SPACE(3 * sizeof(int))> control{};
  iovec part{buffer.data(), buffer.size()};
  msghdr message{};
  message.msg_iov = &part;
  message.msg_iovlen = 1;
  message.msg_control = control.data();
  message.msg_controllen = control.size();
  ssize_t length = 0;
  do {
    length = ::recvmsg(g_socket, &message, MSG_CMSG_CLOEXEC);
  } while (length < 0 && errno == EINTR);
  if (length <= 0) {
    request.closed = true;
    return request;
  }
  for (cmsghdr* header = CMSG_FIRSTHDR(&message); header != nullptr;
       header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS) {
      const std::size_t count =
          std::min<std::size_t>((header->cmsg_len - CMSG_LEN(0)) / sizeof(int), 3);
      std::memcpy(request.fds.data(), CMSG_DATA(header), count * sizeof(int));
    }
  }
  protocol::Kind kind{};
  if (static_cast<std::size_t>(length) < sizeof kind)
    std::_Exit(1);
  std::memcpy(&kind, buffer.data(), sizeof kind);
  if (kind == protocol::Kind::kill) {
    request.kill = true;
    return request;
  }
  if (kind != protocol::Kind::run || static_cast<std::size_t>(length) < sizeof request.header)
    std::_Exit(1);
  std::memcpy(&request.header, buffer.data(), sizeof request.header);
  request.script.assign(
      buffer.data() + sizeof request.header,
      std::min<std::size_t>(request.header.script_bytes,
                            static_cast<std::size_t>(length) - sizeof request.header));
  return request;
}

double seconds(const timeval& time) {
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) / 1e6;
}

// A seccomp filter against what no solution needs and what widens the kernel's reach: mounts
// and namespaces (a nested user namespace, where the box's bounds would not hold), kexec,
// modules, BPF, the key ring, perf events, io_uring, userfaultfd, handles to files by number,
// swap, reboot, accounting and quotas. Each fails with EPERM; clone3 with ENOSYS (its flags
// cannot be looked at), so that the C library falls back to clone, whose namespace flags are
// refused. Programs of another architecture (32-bit, x32) are refused whole. The namespaces
// are the guarantee; this only narrows the kernel that a program can reach.
#if defined(__x86_64__)
constexpr std::uint32_t kAuditArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr std::uint32_t kAuditArch = AUDIT_ARCH_AARCH64;
#else
constexpr std::uint32_t kAuditArch = 0;  // no filter on other architectures
#endif

struct SeccompFilter {
  std::vector<sock_filter> code;
  sock_fprog program{};
};

SeccompFilter make_seccomp_filter() {
  SeccompFilter filter;
  std::vector<sock_filter>& code = filter.code;
  const auto statement = [&](std::uint16_t op, std::uint32_t k) {
    code.push_back(BPF_STMT(op, k));
  };
  const auto refused = [](int error) {
    return SECCOMP_RET_ERRNO | static_cast<std::uint32_t>(error);
  };
  const std::vector<long> denied = {
#ifdef SYS_mount
      SYS_mount,
#endif
      SYS_umount2,
      SYS_pivot_root,
      SYS_chroot,
      SYS_unshare,
      SYS_setns,
      SYS_kexec_load,
      SYS_kexec_file_load,
      SYS_bpf,
      SYS_keyctl,
      SYS_add_key,
      SYS_request_key,
      SYS_perf_event_open,
      SYS_init_module,
      SYS_finit_module,
      SYS_delete_module,
      SYS_reboot,
      SYS_swapon,
      SYS_swapoff,
      SYS_open_by_handle_at,
      SYS_name_to_handle_at,
      SYS_acct,
      SYS_quotactl,
      SYS_userfaultfd,
      SYS_io_uring_setup,
      SYS_fsopen,
      SYS_fsmount,
      SYS_fspick,
      SYS_move_mount,
      SYS_open_tree,
      SYS_mount_setattr,
  };
  statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
  code.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kAuditArch, 1, 0));
  statement(BPF_RET | BPF_K, refused(ENOSYS));
  statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr));
#if defined(__x86_64__)
  // x32 system calls (the number with bit 30 set) would bypass the numbers below.
  code.push_back(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000U, 0, 1));
  statement(BPF_RET | BPF_K, refused(ENOSYS));
#endif
  for (const long number : denied) {
    code.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(number), 0, 1));
    statement(BPF_RET | BPF_K, refused(EPERM));
  }
  code.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(SYS_clone3), 0, 1));
  statement(BPF_RET | BPF_K, refused(ENOSYS));
  // clone: its flags (the low 32 bits of the first argument) must ask for no new namespace.
  code.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(SYS_clone), 0, 3));
  statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0]));
  code.push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K,
                          CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC |
                              CLONE_NEWUTS | CLONE_NEWCGROUP,
                          0, 1));
  statement(BPF_RET | BPF_K, refused(EPERM));
  statement(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  filter.program.len = static_cast<unsigned short>(code.size());
  filter.program.filter = code.data();
  return filter;
}

struct ChildSetup {
  std::array<const char*, 4> argv{};
  std::vector<char*> envp;
  std::array<int, 3> fds{};
  rlimit cpu{};
  rlimit processes{};
  rlimit file_size{};
  const char* cwd = nullptr;
  const sock_fprog* seccomp = nullptr;  // nullptr: none (an architecture without one here)
};

// Writes "gamebatch: cannot STEP in the sandbox (errno N)" to `fd` with system calls only.
void report_start_failure(int fd, std::string_view step, int error) {
  gamebatch::io::report_errno(fd, {"gamebatch: cannot ", step, " in the sandbox"}, error);
}

// In the vfork child: system calls only, up to execve.
[[noreturn]] void start_program(const ChildSetup& setup) {
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  std::array<int, 3> sources = setup.fds;
  for (int& source : sources) {
    if (source < 3)
      source = ::fcntl(source, F_DUPFD_CLOEXEC, 3);
  }
  for (int target = 0; target < 3; ++target) {
    if (sources[target] < 0 || ::dup2(sources[target], target) < 0) {
      report_start_failure(setup.fds[2], "set up the standard streams", errno);
      ::_exit(127);
    }
  }
  ::close_range(3, ~0U, 0);
  ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  if (setup.seccomp != nullptr &&
      ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, setup.seccomp, 0, 0) != 0) {
    report_start_failure(2, "install the seccomp filter", errno);
    ::_exit(127);
  }
  const rlimit none_at_all{0, 0};
  ::setrlimit(RLIMIT_CORE, &none_at_all);
  ::setrlimit(RLIMIT_MSGQUEUE, &none_at_all);
  ::setrlimit(RLIMIT_CPU, &setup.cpu);
  ::setrlimit(RLIMIT_NPROC, &setup.processes);
  ::setrlimit(RLIMIT_FSIZE, &setup.file_size);
  if (::chdir(setup.cwd) != 0) {
    report_start_failure(2, "enter the working directory", errno);
    ::_exit(127);
  }
  ::execve(setup.argv[0], const_cast<char* const*>(setup.argv.data()), setup.envp.data());
  report_start_failure(2, "run /bin/sh", errno);
  ::_exit(127);
}

// Removes the SysV shared memory segments, message queues and semaphore sets of the box's IPC
// namespace (listed in /proc/sysvipc, a header line and then one per object, its id second):
// a run's, once its processes are gone. Reading the three lists is the whole cost when there
// are none, cheaper than an IPC namespace per run.
void remove_sysv_ipc() {
  for (const char* kind : {"shm", "msg", "sem"}) {
    std::string text;
    if (!gamebatch::io::read_small_file((std::string("/proc/sysvipc/") + kind).c_str(), text))
      continue;
    std::size_t line = text.find('\n');  // after the header
    while (line != std::string::npos && line + 1 < text.size()) {
      char* field = nullptr;
      std::strtol(text.c_str() + line + 1, &field, 10);  // the key
      const int id = static_cast<int>(std::strtol(field, nullptr, 10));
      if (kind[1] == 'h')
        ::shmctl(id, IPC_RMID, nullptr);
      else if (kind[1] == 's')
        ::msgctl(id, IPC_RMID, nullptr);
      else
        ::semctl(id, 0, IPC_RMID);
      line = text.find('\n', line + 1);
    }
  }
}

// The processes and threads in the box but this one (its leftovers, at a run's end).
unsigned long long count_tasks() {
  unsigned long long tasks = 0;
  DIR* const proc = ::opendir("/proc");
  if (proc == nullptr)
    return 0;
  std::string buffer;
  while (const dirent* const entry = ::readdir(proc)) {
    const std::string_view name = entry->d_name;
    if (name.empty() || name == "1" || name.find_first_not_of("0123456789") != name.npos)
      continue;
    const auto stat =
        gamebatch::io::read_stat(static_cast<pid_t>(std::atol(entry->d_name)), buffer);
    if (stat)
      tasks += std::max<std::uint64_t>(stat->threads, 1);
  }
  ::closedir(proc);
  return tasks;
}

// Ends every process of the box but this one, and reaps them all, adding up their usage.
void end_all(protocol::RunEnd& end) {
  ::kill(-1, SIGKILL);
  for (;;) {
    int status = 0;
    rusage usage{};
    const pid_t pid = ::wait4(-1, &status, __WALL, &usage);
    if (pid < 0) {
      if (errno == EINTR)
        continue;
      return;  // ECHILD: none left
    }
    end.cpu_seconds += seconds(usage.ru_utime) + seconds(usage.ru_stime);
    end.peak_bytes =
        std::max<std::uint64_t>(end.peak_bytes, static_cast<std::uint64_t>(usage.ru_maxrss) * 1024);
  }
}

// Waits until the program ends, gamebatch asks to kill it or the scratch fills up (then ends it),
// and notes in `end` how it ended and what it used; exits when gamebatch is gone.
void wait_for_program(pid_t program, Scratch& scratch, protocol::RunEnd& end) {
  const int exit_notice = static_cast<int>(::syscall(SYS_pidfd_open, program, 0));
  bool program_ended = false;
  while (!program_ended) {
    std::array<pollfd, 2> watched{{{g_socket, POLLIN, 0}, {exit_notice, POLLIN, 0}}};
    const int ready = ::poll(watched.data(), watched.size(), kDiskLookMs);
    if (ready < 0 && errno != EINTR)
      break;
    if (watched[0].revents != 0) {
      const Request more = receive();
      if (more.closed)
        std::_Exit(0);  // gamebatch is gone: the kernel ends the box's processes with us
      if (more.kill) {
        end.killed_on_request = 1;
        break;
      }
    }
    if (watched[1].revents != 0 || exit_notice < 0) {
      int status = 0;
      rusage usage{};
      const pid_t ended = ::wait4(program, &status, WNOHANG, &usage);
      if (ended == program) {
        end.wait_status = status;
        end.cpu_seconds += seconds(usage.ru_utime) + seconds(usage.ru_stime);
        end.peak_bytes = static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
        program_ended = true;
      }
    }
    if (!program_ended && scratch.full()) {
      end.disk_full = 1;
      break;
    }
  }
  if (exit_notice >= 0)
    ::close(exit_notice);
  if (!program_ended) {
    ::kill(program, SIGKILL);
    int status = 0;
    rusage usage{};
    if (::wait4(program, &status, 0, &usage) == program) {
      end.wait_status = status;
      end.cpu_seconds += seconds(usage.ru_utime) + seconds(usage.ru_stime);
      end.peak_bytes = static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
    }
  }
}

void serve(const Options& options, Scratch& scratch, bool clear_sysv_ipc) {
  std::vector<std::string> environment = options.environment;
  ChildSetup setup;
  for (std::string& variable : environment)
    setup.envp.push_back(variable.data());
  setup.envp.push_back(nullptr);
  setup.cwd = options.cwd.c_str();
  const SeccompFilter seccomp = make_seccomp_filter();
  if (kAuditArch != 0)
    setup.seccomp = &seccomp.program;
  // RLIMIT_NPROC counts the tasks of the box's identity in its user namespace: the run's and
  // this keeper's.
  setup.processes = {options.max_processes + 1, options.max_processes + 1};
  setup.file_size = {options.disk_bytes, options.disk_bytes};

  for (;;) {
    Request request = receive();
    if (request.closed)
      return;
    if (request.kill)
      continue;  // for a run that has ended already
    if (!scratch.pristine()) {
      if (scratch.mounted)
        scratch.unmount();
      scratch.mount_fresh();
    }
    setup.argv = {"/bin/sh", "-c", request.script.c_str(), nullptr};
    setup.fds = request.fds;
    const rlim_t cpu = request.header.cpu_limit_seconds;
    setup.cpu = cpu == 0 ? rlimit{RLIM_INFINITY, RLIM_INFINITY} : rlimit{cpu, cpu + 1};

    protocol::RunEnd end;
    const pid_t program = ::vfork();
    if (program == 0)
      start_program(setup);
    for (const int fd : request.fds)
      ::close(fd);
    if (program < 0) {
      end.start_error = errno;
      send_all(&end, sizeof end);
      continue;
    }
    end.started = 1;
    wait_for_program(program, scratch, end);
    // A failed program whose forks the bound refused leaves the box full of its children.
    const bool failed = !WIFEXITED(end.wait_status) || WEXITSTATUS(end.wait_status) != 0;
    if (failed && !end.killed_on_request && count_tasks() + 1 >= options.max_processes)
      end.process_limit = 1;
    end_all(end);
    if (clear_sysv_ipc)
      remove_sysv_ipc();
    end.disk_full = end.disk_full || scratch.full();
    rusage own{};
    ::getrusage(RUSAGE_SELF, &own);
    end.keeper_peak_bytes = static_cast<std::uint64_t>(own.ru_maxrss) * 1024;
    send_all(&end, sizeof end);
  }
}

// The keeper: PID 1 of the box, with every capability in the box's user namespace (and none
// outside it).
[[noreturn]] void keep(const Options& options, int go_signal) {
  // Dies with the starter; the starter ends when gamebatch does (the socket) or is killed.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  char go = 0;
  if (::read(go_signal, &go, 1) != 1)
    std::_Exit(1);  // the starter could not write the identity maps (and told gamebatch)
  ::close(go_signal);

  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    fail("cannot make the box's mounts private");
  // Opened with the caller's identity, before taking the box's: a root caller's files may be
  // where nobody can look.
  std::vector<int> bind_sources;
  for (const std::string& path : options.binds) {
    const int source = ::open(path.c_str(), O_PATH | O_CLOEXEC);
    if (source < 0)
      fail("cannot open " + path + " to show it in the box");
    bind_sources.push_back(source);
  }
  if (::setresgid(kBoxGid, kBoxGid, kBoxGid) != 0 || ::setresuid(kBoxUid, kBoxUid, kBoxUid) != 0)
    fail("cannot take the box's identity");

  Scratch scratch;
  scratch.bytes = options.disk_bytes;
  scratch.files = options.disk_files;
  build_root(options, bind_sources, scratch);
  const bool clear_sysv_ipc = !switch_off_sysv_ipc();
  ::sethostname("gamebatch", 9);
  scratch.mount_fresh();
  // No program of the box may trace this process or read its memory.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);

  protocol::Ready ready;
  ready.sysv_ipc_cleared_per_run = clear_sysv_ipc ? 1 : 0;
  send_all(&ready, sizeof ready);
  serve(options, scratch, clear_sysv_ipc);
  std::_Exit(0);
}

Options parse(int argc, char** argv) {
  Options options;
  for (int k = 1; k + 1 < argc; k += 2) {
    const std::string_view flag = argv[k];
    const char* const value = argv[k + 1];
    if (flag == "--cwd")
      options.cwd = value;
    else if (flag == "--disk-bytes")
      options.disk_bytes = std::strtoull(value, nullptr, 10);
    else if (flag == "--disk-files")
      options.disk_files = std::strtoull(value, nullptr, 10);
    else if (flag == "--max-processes")
      options.max_processes = std::strtoull(value, nullptr, 10);
    else if (flag == "--bind")
      options.binds.emplace_back(value);
    else if (flag == "--env")
      options.environment.emplace_back(value);
    else {
      errno = 0;
      fail("gamebatch-box: unknown option " + std::string(flag));
    }
  }
  if (options.cwd.empty() || options.cwd[0] != '/') {
    errno = 0;
    fail("gamebatch-box: --cwd must be an absolute path");
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  // Out of gamebatch's process group and session: a Ctrl-C at the terminal is gamebatch's to
  // handle, and the box ends when gamebatch does.
  ::setsid();
  const uid_t uid = ::geteuid();
  const gid_t gid = ::getegid();
  // A root caller's supplementary groups (root's) must not reach the box.
  if (uid == 0 && ::setgroups(0, nullptr) != 0)
    fail("cannot drop the supplementary groups");

  std::array<int, 2> go{};
  if (::pipe2(go.data(), O_CLOEXEC) != 0)
    fail("cannot create a pipe");
  const long keeper = ::syscall(SYS_clone,
                                CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET |
                                    CLONE_NEWIPC | CLONE_NEWUTS | SIGCHLD,
                                nullptr, nullptr, nullptr, nullptr);
  if (keeper < 0)
    fail("cannot create the box's namespaces (user, mount, PID, network, IPC, UTS)");
  if (keeper == 0) {
    ::close(go[1]);
    keep(options, go[0]);
  }
  ::close(go[0]);

  // One identity each, nobody inside; outside, nobody for a root caller, else the caller.
  const std::string proc = "/proc/" + std::to_string(keeper);
  const std::string uid_map =
      std::to_string(kBoxUid) + " " + std::to_string(uid == 0 ? 65534 : uid) + " 1";
  const std::string gid_map =
      std::to_string(kBoxGid) + " " + std::to_string(uid == 0 ? 65534 : gid) + " 1";
  if (!write_file(proc + "/setgroups", "deny") || !write_file(proc + "/uid_map", uid_map) ||
      !write_file(proc + "/gid_map", gid_map)) {
    ::kill(static_cast<pid_t>(keeper), SIGKILL);
    fail("cannot write the box's identity maps");
  }
  if (::write(go[1], "g", 1) != 1)
    fail("cannot start the keeper");
  ::close(go[1]);
  ::close(g_socket);  // the keeper's now: gamebatch's end closing must reach it alone

  int status = 0;
  while (::waitpid(static_cast<pid_t>(keeper), &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
