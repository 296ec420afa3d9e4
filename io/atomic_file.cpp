#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <limits>
#include <string>
#include <system_error>

namespace gamebatch::io {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void throw_errno(const std::string& what, const fs::path& path) {
  throw std::system_error(errno, std::generic_category(), what + " " + path.string());
}

// Closes the descriptor and removes the temporary file unless the rename happened.
class TemporaryFile {
 public:
  explicit TemporaryFile(fs::path path) : path_(std::move(path)) {
    descriptor_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (descriptor_ < 0)
      throw_errno("cannot create", path_);
  }
  ~TemporaryFile() {
    if (descriptor_ >= 0)
      ::close(descriptor_);
    if (!committed_)
      ::unlink(path_.c_str());
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

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

  void commit_as(const fs::path& target) {
    const int descriptor = descriptor_;
    descriptor_ = -1;
    if (::close(descriptor) != 0)
      throw_errno("cannot write", path_);
    if (::rename(path_.c_str(), target.c_str()) != 0)
      throw_errno("cannot rename into", target);
    committed_ = true;
  }

 private:
  fs::path path_;
  int descriptor_ = -1;
  bool committed_ = false;
};

enum class Durability { kRenameOnly, kSynced };

// This process's id, asked once: one system call less per file. (The processes check and stress
// start exec a program at once: none of them writes through here.)
pid_t own_pid() {
  static const pid_t pid = ::getpid();
  return pid;
}

// Creates the temporary file; the parent directories only when it is missing, so a run of many
// files pays no stat per file for a directory that is already there.
TemporaryFile create_temporary(const fs::path& path, fs::path temporary) {
  try {
    return TemporaryFile(temporary);
  } catch (const std::system_error& error) {
    if (error.code() != std::errc::no_such_file_or_directory || !path.has_parent_path())
      throw;
  }
  fs::create_directories(path.parent_path());
  return TemporaryFile(std::move(temporary));
}

void write_whole(const fs::path& path, std::string_view content, Durability durability) {
  static std::atomic<unsigned> sequence{0};
  fs::path temporary = path;
  temporary += ".tmp." + std::to_string(own_pid()) + "." + std::to_string(sequence++);
  TemporaryFile file = create_temporary(path, std::move(temporary));
  file.write(content);
  if (durability == Durability::kSynced)
    file.sync();
  file.commit_as(path);
  if (durability == Durability::kSynced) {
    // The rename itself is only durable once the directory entry is on disk.
    const fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path(".");
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

std::size_t remove_stale_temporaries(const fs::path& directory) {
  std::error_code error;
  fs::directory_iterator entries(directory, error);
  if (error)
    return 0;
  std::size_t removed = 0;
  for (const fs::directory_entry& entry : entries) {
    // NAME.tmp.PID.N, as write_whole names them.
    const std::string name = entry.path().filename().string();
    const std::size_t marker = name.rfind(".tmp.");
    if (marker == std::string::npos)
      continue;
    const std::string_view rest = std::string_view(name).substr(marker + 5);
    const std::size_t dot = rest.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == rest.size() ||
        rest.substr(0, dot).find_first_not_of("0123456789") != std::string_view::npos ||
        rest.substr(dot + 1).find_first_not_of("0123456789") != std::string_view::npos) {
      continue;
    }
    const long pid = std::stol(std::string(rest.substr(0, dot)));
    if (pid == own_pid() || pid <= 0 || pid > std::numeric_limits<pid_t>::max())
      continue;
    // A live process (ours or anyone's, if the pid was reused) may still be writing it.
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH)
      continue;
    if (entry.is_regular_file(error) && fs::remove(entry.path(), error))
      ++removed;
  }
  return removed;
}

bool write_file_if_changed(const fs::path& path, std::string_view content) {
  // Compare only when the sizes agree; reading is far cheaper than a create and a rename.
  std::error_code error;
  if (fs::file_size(path, error) == content.size() && !error) {
    const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (descriptor >= 0) {
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
      if (got == existing.size() && existing == content)
        return false;
    }
  }
  write_file_atomically(path, content);
  return true;
}

void write_file_durably(const fs::path& path, std::string_view content) {
  write_whole(path, content, Durability::kSynced);
}

}  // namespace gamebatch::io
