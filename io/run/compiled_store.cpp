#include "io/run/compiled_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <system_error>

namespace gamebatch::io {
namespace fs = std::filesystem;
namespace {

bool is_entry_name(const std::string& name) {
  return name.size() == 32 && std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

std::int64_t seconds_since_epoch(fs::file_time_type time) {
  const auto system = std::chrono::file_clock::to_sys(time);
  return std::chrono::duration_cast<std::chrono::seconds>(system.time_since_epoch()).count();
}

std::uint64_t bytes_under(const fs::path& directory) {
  std::uint64_t bytes = 0;
  std::error_code error;
  for (fs::recursive_directory_iterator it(directory, error), end; !error && it != end;
       it.increment(error)) {
    if (it->is_regular_file(error))
      bytes += it->file_size(error);
  }
  return bytes;
}

// The lock file, opened (and the store made) as needed.
int open_lock(const fs::path& store) {
  std::error_code error;
  fs::create_directories(store, error);
  const fs::path lock = store / ".lock";
  const int descriptor = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (descriptor < 0)
    throw std::system_error(errno, std::generic_category(), "cannot open " + lock.string());
  return descriptor;
}

}  // namespace

fs::path compiled_store_beside(const fs::path& cache_file) {
  return fs::absolute(cache_file).parent_path() / "compiled";
}

std::vector<CompiledProgramInfo> compiled_programs(const fs::path& store) {
  std::vector<CompiledProgramInfo> programs;
  std::error_code error;
  for (fs::directory_iterator it(store, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    std::error_code ignored;
    if (!is_entry_name(name) || !it->is_directory(ignored))
      continue;
    CompiledProgramInfo info;
    info.key = name;
    info.bytes = bytes_under(it->path());
    info.last_used = seconds_since_epoch(fs::last_write_time(it->path(), ignored));
    info.compile_error = fs::exists(it->path() / "error", ignored);
    programs.push_back(std::move(info));
  }
  std::sort(programs.begin(), programs.end(), [](const auto& a, const auto& b) {
    return a.last_used != b.last_used ? a.last_used < b.last_used : a.key < b.key;
  });
  return programs;
}

void stamp_compiled_program(const fs::path& entry) {
  std::error_code ignored;
  fs::last_write_time(entry, fs::file_time_type::clock::now(), ignored);
}

StoreUse::StoreUse(const fs::path& store) : descriptor_(open_lock(store)) {
  while (::flock(descriptor_, LOCK_SH) != 0) {
    if (errno != EINTR) {
      const int failure = errno;
      ::close(descriptor_);
      throw std::system_error(failure, std::generic_category(),
                              "cannot lock " + (store / ".lock").string());
    }
  }
}

StoreUse::~StoreUse() {
  ::close(descriptor_);  // and with it the lock
}

StoreTrim trim_compiled_programs(const fs::path& store, std::uint64_t max_bytes) {
  StoreTrim trim;
  std::vector<CompiledProgramInfo> programs = compiled_programs(store);
  for (const CompiledProgramInfo& program : programs)
    trim.bytes_before += program.bytes;
  trim.bytes_after = trim.bytes_before;
  if (trim.bytes_before <= max_bytes)
    return trim;
  const int descriptor = open_lock(store);
  if (::flock(descriptor, LOCK_EX | LOCK_NB) != 0) {
    ::close(descriptor);
    trim.busy = true;
    return trim;
  }
  for (const CompiledProgramInfo& program : programs) {
    if (trim.bytes_after <= max_bytes)
      break;
    std::error_code error;
    fs::remove_all(store / program.key, error);
    if (error)
      continue;
    trim.bytes_after -= program.bytes;
    ++trim.removed;
  }
  ::close(descriptor);
  return trim;
}

}  // namespace gamebatch::io
