#include "io/files/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <limits>
#include <string>
#include <system_error>

namespace gamebatch::io {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void throw_errno(const std::string& what, const fs::path& path) {
  throw std::system_error(errno, std::generic_category(), what + " " + path.string());
}

enum class Durability { kRenameOnly, kSynced };

// This process's id, asked once: one system call less per file. (The processes check and stress
// start exec a program at once: none of them writes through here.)
pid_t own_pid() {
  static const pid_t pid = ::getpid();
  return pid;
}

// NAME.tmp.PID.N beside `path`: the names remove_stale_temporaries recognises.
fs::path temporary_name_for(const fs::path& path) {
  static std::atomic<unsigned> sequence{0};
  fs::path temporary = path;
  temporary += ".tmp." + std::to_string(own_pid()) + "." + std::to_string(sequence++);
  return temporary;
}

fs::path directory_of(const fs::path& path) {
  return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

// The file being written, before it has a name of its own, and its way into place.
//
// Preferably an unnamed file (O_TMPFILE) in the target's directory, linked in under the target's
// name once written: one directory entry made per file instead of a temporary's entry made,
// renamed and removed, which is the part of a small file's cost that the kernel serialises; and a
// process killed before the link leaves nothing behind. Where the file system has no O_TMPFILE,
// or the target exists already, the file gets a temporary name (NAME.tmp.PID.N) and is renamed
// over the target, as rename replaces atomically and link does not.
enum class Naming { kUnnamedIfPossible, kTemporaryName };

class PendingFile {
 public:
  PendingFile(const fs::path& path, Naming naming) : path_(path) {
    if (naming == Naming::kUnnamedIfPossible) {
      descriptor_ = ::open(directory_of(path_).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
      if (descriptor_ >= 0)
        return;
      // EISDIR, EOPNOTSUPP, EINVAL: no O_TMPFILE here; ENOENT: no directory (made by the caller).
      if (errno == ENOENT)
        throw_errno("cannot create a file in", directory_of(path_));
    }
    name_temporary();
  }
  ~PendingFile() {
    if (descriptor_ >= 0)
      ::close(descriptor_);
    if (!temporary_.empty() && !committed_)
      ::unlink(temporary_.c_str());
  }
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;

  void write(std::string_view content) {
    while (!content.empty()) {
      const ssize_t written = ::write(descriptor_, content.data(), content.size());
      if (written < 0) {
        if (errno == EINTR)
          continue;
        throw_errno("cannot write", path_);
      }
      content.remove_prefix(static_cast<std::size_t>(written));
    }
  }

  void sync() {
    if (::fsync(descriptor_) != 0)
      throw_errno("cannot sync", path_);
  }

  // Puts the file in place under `path`, replacing what was there. False when an unnamed file
  // cannot be linked in at all (no /proc, say): then nothing is written, and the caller writes
  // the content again under a temporary name.
  bool commit() {
    if (temporary_.empty()) {
      if (link_as(path_)) {
        close_descriptor();
        committed_ = true;
        return true;
      }
      if (errno != EEXIST)
        return false;
      // Replacing: link under a temporary name, then rename over the old file.
      temporary_ = temporary_name_for(path_);
      if (!link_as(temporary_)) {
        const int link_error = errno;
        temporary_.clear();  // nothing to remove
        errno = link_error;
        throw_errno("cannot create", path_);
      }
    }
    close_descriptor();
    if (::rename(temporary_.c_str(), path_.c_str()) != 0)
      throw_errno("cannot rename into", path_);
    committed_ = true;
    return true;
  }

 private:
  // Links the unnamed file in as `name`: through /proc, as linkat's AT_EMPTY_PATH needs a
  // capability that users lack.
  bool link_as(const fs::path& name) const {
    char self[32];
    std::snprintf(self, sizeof self, "/proc/self/fd/%d", descriptor_);
    return ::linkat(AT_FDCWD, self, AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0;
  }

  void name_temporary() {
    temporary_ = temporary_name_for(path_);
    descriptor_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (descriptor_ < 0) {
      const int open_error = errno;
      temporary_.clear();
      errno = open_error;
      throw_errno("cannot create", path_);
    }
  }

  void close_descriptor() {
    const int descriptor = descriptor_;
    descriptor_ = -1;
    if (::close(descriptor) != 0)
      throw_errno("cannot write", path_);
  }

  fs::path path_;
  fs::path temporary_;  // empty while the file is unnamed
  int descriptor_ = -1;
  bool committed_ = false;
};

// Starts the file; the parent directories only when they are missing, so a run of many files pays
// no stat per file for a directory that is already there.
PendingFile start_file(const fs::path& path, Naming naming) {
  try {
    return PendingFile(path, naming);
  } catch (const std::system_error& error) {
    if (error.code() != std::errc::no_such_file_or_directory || !path.has_parent_path())
      throw;
  }
  fs::create_directories(path.parent_path());
  return PendingFile(path, naming);
}

// Writes the file under `naming`; false when it turned out unnamed and could not be linked in.
bool try_write(const fs::path& path, std::string_view content, Durability durability,
               Naming naming) {
  PendingFile file = start_file(path, naming);
  file.write(content);
  if (durability == Durability::kSynced)
    file.sync();
  return file.commit();
}

void write_whole(const fs::path& path, std::string_view content, Durability durability) {
  if (!try_write(path, content, durability, Naming::kUnnamedIfPossible))
    try_write(path, content, durability, Naming::kTemporaryName);
  if (durability == Durability::kSynced) {
    // The link or rename itself is only durable once the directory entry is on disk.
    const fs::path directory = directory_of(path);
    const int descriptor = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (descriptor < 0)
      throw_errno("cannot open directory", directory);
    const int synced = ::fsync(descriptor);
    ::close(descriptor);
    if (synced != 0)
      throw_errno("cannot sync directory", directory);
  }
}

}  // namespace

void write_file_atomically(const fs::path& path, std::string_view content) {
  write_whole(path, content, Durability::kRenameOnly);
}

namespace {

// Whether `entry` is a temporary file (NAME.tmp.PID.N, as temporary_name_for names them) of a
// process that no longer runs.
bool is_stale_temporary(const fs::directory_entry& entry, const std::string& name) {
  const std::size_t marker = name.rfind(".tmp.");
  if (marker == std::string::npos)
    return false;
  const std::string_view rest = std::string_view(name).substr(marker + 5);
  const std::size_t dot = rest.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == rest.size() ||
      rest.substr(0, dot).find_first_not_of("0123456789") != std::string_view::npos ||
      rest.substr(dot + 1).find_first_not_of("0123456789") != std::string_view::npos) {
    return false;
  }
  const long pid = std::stol(std::string(rest.substr(0, dot)));
  if (pid == own_pid() || pid <= 0 || pid > std::numeric_limits<pid_t>::max())
    return false;
  // A live process (ours or anyone's, if the pid was reused) may still be writing it.
  if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH)
    return false;
  std::error_code error;
  return entry.is_regular_file(error);
}

}  // namespace

std::size_t remove_stale_temporaries(const fs::path& directory,
                                     const std::function<void(std::string_view)>& on_kept) {
  std::error_code error;
  fs::directory_iterator entries(directory, error);
  if (error)
    return 0;
  std::size_t removed = 0;
  for (const fs::directory_entry& entry : entries) {
    const std::string name = entry.path().filename().string();
    if (is_stale_temporary(entry, name) && fs::remove(entry.path(), error)) {
      ++removed;
    } else if (on_kept) {
      on_kept(name);
    }
  }
  return removed;
}

namespace {

// The key of `name` in `directory`, whichever way the directory is spelt ("d", "d/", "./d").
std::uint64_t name_key(const fs::path& directory, std::string_view name) {
  fs::path normal = directory.lexically_normal();
  if (normal.has_relative_path() && !normal.has_filename())  // "d/" -> "d"
    normal = normal.parent_path();
  if (normal == ".")
    normal.clear();
  const std::hash<std::string_view> hash;
  return hash(normal.native()) * 0x9e3779b97f4a7c15u ^ hash(name);
}

}  // namespace

void NamesOnDisk::add(const fs::path& directory, std::string_view name) {
  keys_.push_back(name_key(directory, name));
}

void NamesOnDisk::seal() {
  std::sort(keys_.begin(), keys_.end());
}

bool NamesOnDisk::may_hold(const fs::path& path) const {
  return std::binary_search(keys_.begin(), keys_.end(),
                            name_key(path.parent_path(), path.filename().native()));
}

bool file_holds(const fs::path& path, std::string_view content) {
  // Compare only when the sizes agree; reading is far cheaper than a create and a link.
  std::error_code error;
  if (fs::file_size(path, error) != content.size() || error)
    return false;
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor < 0)
    return false;
  std::string existing(content.size(), '\0');
  std::size_t got = 0;
  while (got < existing.size()) {
    const ssize_t n = ::read(descriptor, existing.data() + got, existing.size() - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    got += static_cast<std::size_t>(n);
  }
  ::close(descriptor);
  return got == existing.size() && existing == content;
}

void write_file_durably(const fs::path& path, std::string_view content) {
  write_whole(path, content, Durability::kSynced);
}

}  // namespace gamebatch::io
