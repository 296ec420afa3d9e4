// Small I/O with system calls only, shared by gamebatch and its sandbox's keeper (gamebatch-box,
// which links nothing of gamebatch's): what a vfork child may call before execve, and writing
// the one-line files of /proc and of cgroups.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <system_error>

namespace gamebatch::io {

// Throws std::system_error for errno, saying what failed (not for a vfork child: it allocates).
[[noreturn]] inline void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

// Writes the parts, then " (errno N)" and a newline, to `fd`: no allocation, no lock, so a vfork
// child may call it. Cut at 255 characters.
inline void report_errno(int fd, std::initializer_list<std::string_view> parts, int error) {
  std::array<char, 256> message{};
  constexpr std::size_t kRoomForNumber = 24;  // " (errno 4294967295)\n"
  std::size_t length = 0;
  for (const std::string_view part : parts)
    length += part.copy(message.data() + length, message.size() - kRoomForNumber - length);
  length += std::string_view(" (errno ").copy(message.data() + length, 8);
  std::array<char, 12> digits{};
  std::size_t count = 0;
  auto value = static_cast<unsigned>(error < 0 ? 0 : error);
  do {
    digits[count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0 && count < digits.size());
  while (count > 0)
    message[length++] = digits[--count];
  message[length++] = ')';
  message[length++] = '\n';
  [[maybe_unused]] const ssize_t ignored = ::write(fd, message.data(), length);
}

// Writes `text` to the existing file `path` in one write (a /proc or cgroup setting); false when
// it cannot be opened or the write is refused or short.
inline bool write_small_file(const char* path, std::string_view text) {
  const int file = ::open(path, O_WRONLY | O_CLOEXEC);
  if (file < 0)
    return false;
  const bool whole = ::write(file, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(file);
  return whole;
}

// Reads the whole of a small file (a /proc or cgroup file) into `text`; false when it cannot be
// opened or read (a process that ended while it was read).
inline bool read_small_file(const char* path, std::string& text) {
  const int file = ::open(path, O_RDONLY | O_CLOEXEC);
  if (file < 0)
    return false;
  text.clear();
  std::array<char, 4096> chunk{};
  for (;;) {
    const ssize_t count = ::read(file, chunk.data(), chunk.size());
    if (count < 0 && errno == EINTR)
      continue;
    if (count <= 0) {
      ::close(file);
      return count == 0;
    }
    text.append(chunk.data(), static_cast<std::size_t>(count));
  }
}

}  // namespace gamebatch::io
