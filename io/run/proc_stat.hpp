// One process's /proc/PID/stat, read with system calls only: shared by the watch of a run
// (io/run/limited_process.cpp) and the sandbox's keeper (io/run/sandbox_box.cpp, which counts what
// a run left).
#pragma once

#include <sys/types.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "io/run/raw_io.hpp"

namespace gamebatch::io {

struct ProcessStat {
  char state = '?';
  pid_t group = 0;
  std::uint64_t cpu_ticks = 0;  // utime + stime + cutime + cstime
  std::uint64_t threads = 0;
  std::uint64_t start_ticks = 0;
  std::uint64_t resident_pages = 0;
};

// /proc/PID/stat: "pid (comm) state ppid pgrp ...". The name may hold spaces and parentheses, so
// the fields are counted from the last ')'.
inline std::optional<ProcessStat> read_stat(pid_t pid, std::string& buffer) {
  std::array<char, 48> path{};
  std::snprintf(path.data(), path.size(), "/proc/%d/stat", static_cast<int>(pid));
  if (!read_small_file(path.data(), buffer))
    return std::nullopt;
  const std::size_t name_end = buffer.rfind(')');
  if (name_end == std::string::npos)
    return std::nullopt;
  // Fields from 3 (state) on; the numbers are those of proc(5).
  std::array<std::uint64_t, 25> numbers{};
  ProcessStat stat;
  std::size_t field = 3;
  const char* at = buffer.data() + name_end + 1;
  const char* const end = buffer.data() + buffer.size();
  while (at < end && field < 3 + numbers.size()) {
    while (at < end && *at == ' ')
      ++at;
    const char* const token_end = std::find(at, end, ' ');
    if (field == 3) {
      stat.state = at < token_end ? *at : '?';
    } else {
      long long value = 0;  // some fields (priority, nice) are negative
      std::from_chars(at, token_end, value);
      numbers[field - 3] = static_cast<std::uint64_t>(value);
    }
    at = token_end;
    ++field;
  }
  stat.group = static_cast<pid_t>(numbers[5 - 3]);
  stat.cpu_ticks = numbers[14 - 3] + numbers[15 - 3] + numbers[16 - 3] + numbers[17 - 3];
  stat.threads = numbers[20 - 3];
  stat.start_ticks = numbers[22 - 3];
  stat.resident_pages = numbers[24 - 3];
  return stat;
}

}  // namespace gamebatch::io
