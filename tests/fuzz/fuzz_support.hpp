// What the libFuzzer targets share: a scratch directory of their own, and the check every game's
// parser target makes (tests/fuzz/GAME_parse_fuzz.cpp).
#pragma once

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "io/format/input_error.hpp"
#include "io/format/official_limits.hpp"
#include "io/problem.hpp"

namespace gamebatch::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Stops the run with a message: libFuzzer keeps the input as a crash.
[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz property violated: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

// A directory of this process only (targets may run side by side), in memory when /dev/shm is
// there: the cache targets write a file per input. Removed when the process ends normally; those
// of processes that crashed are removed by the next one.
class ScratchDirectory {
 public:
  static const std::filesystem::path& path() {
    static const ScratchDirectory scratch;
    return scratch.path_;
  }

 private:
  ScratchDirectory() {
    std::error_code error;
    std::filesystem::path root = "/dev/shm";
    if (!std::filesystem::is_directory(root, error) || ::access(root.c_str(), W_OK) != 0)
      root = std::filesystem::temp_directory_path();
    const std::string prefix = "gamebatch-fuzz-";
    for (const auto& entry : std::filesystem::directory_iterator(root, error)) {
      const std::string name = entry.path().filename().string();
      if (!name.starts_with(prefix))
        continue;
      const int pid = std::atoi(name.c_str() + prefix.size());
      if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH)
        std::filesystem::remove_all(entry.path(), error);
    }
    path_ = root / (prefix + std::to_string(::getpid()));
    std::filesystem::remove_all(path_, error);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDirectory() {
    std::error_code error;
    std::filesystem::remove_all(path_, error);
  }
  std::filesystem::path path_;
};

// Writes `bytes` to `path`, replacing it.
inline void write_bytes(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!file.flush())
    fail("cannot write " + path.string());
}

// Removes `path` and the files SQLite keeps beside a database.
inline void remove_database(const std::filesystem::path& path) {
  std::error_code error;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"})
    std::filesystem::remove(path.string() + suffix, error);
}

// The property of a game's reader, for any bytes `text`:
// - parse_file either returns instances or throws io::InputError, nothing else;
// - check_official_limits accepts exactly what parse_file accepts (it parses as parse_file does);
// - every instance printed in its canonical form reads back through the game's Problem as one case
//   whose canonical form is the same text (the answer cache keys on it, MPI ranks rebuild from it);
// - `check_small(instance)` (the differential check against the brute force, for small cases).
// Any other exception ends the run as a crash.
template <typename Instance, typename Parse, typename CheckLimits, typename Format,
          typename CheckSmall>
void check_game_reader(std::string_view game, std::string_view text, Parse parse_file,
                       CheckLimits check_official_limits, Format format_case,
                       CheckSmall check_small) {
  try {
    std::vector<Instance> instances;
    try {
      instances = parse_file(text);
    } catch (const io::InputError&) {
      try {
        check_official_limits(text);
      } catch (const io::InputError&) {
        return;  // rejected by both, as expected for most inputs
      }
      fail(std::string(game) + ": check_official_limits accepts what parse_file rejects");
    }
    const io::OfficialLimitReport report = check_official_limits(text);
    if (report.violations.size() > report.count ||
        report.violations.size() > io::OfficialLimitCheck::kKept)
      fail(std::string(game) + ": an official limit report miscounts");
    const io::Problem* problem = io::find_problem(game);
    if (problem == nullptr)
      fail(std::string(game) + ": not in the registry");
    for (const Instance& instance : instances) {
      const std::string canonical = format_case(instance);
      const std::string again = problem->parse_canonical_case(canonical)->canonical();
      if (again != canonical)
        fail(std::string(game) + ": canonical text does not read back as itself:\n" + canonical +
             "---\n" + again);
      check_small(instance);
    }
  } catch (const io::InputError& error) {
    fail(std::string(game) + ": InputError after the file parsed: " + error.what());
  } catch (const std::exception& error) {
    fail(std::string(game) + ": unexpected exception: " + error.what());
  }
}

}  // namespace gamebatch::fuzz
