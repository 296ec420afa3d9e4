// A misbehaving "solution" for the tests of io/run/limited_process: each mode is one way a user's
// program ends (or does not). It reads and ignores all of stdin first, as a solution would.
//
//   faulty_solution echo              copies stdin to stdout
//   faulty_solution exit N            exits with status N
//   faulty_solution segfault | abort  dies by SIGSEGV (raised, not undefined behaviour) | SIGABRT
//   faulty_solution loop | sleep      spins on the CPU | sleeps, for ever
//   faulty_solution hog MB [SECONDS]  touches MB MiB, 1 MiB at a time, then sleeps (10 s), exits 0
//   faulty_solution hog-forever       allocates and touches memory until killed
//   faulty_solution flood             writes to stdout for ever
//   faulty_solution background        leaves a child sleeping 1000 s, prints "done", exits 0
//   faulty_solution stderr            writes 10 KB of numbered lines to stderr, exits 1
//   faulty_solution fds               prints the open descriptors, e.g. "0 1 2"
#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::size_t kMebibyte = std::size_t{1} << 20;

void write_all(int descriptor, std::string_view text) {
  while (!text.empty()) {
    const ssize_t written = ::write(descriptor, text.data(), text.size());
    if (written <= 0)
      std::exit(3);  // the reader went away
    text.remove_prefix(static_cast<std::size_t>(written));
  }
}

[[noreturn]] void sleep_for_ever() {
  for (;;)
    ::pause();
}

// One more MiB, every page written so that it is resident.
void touch_one_more_mebibyte(std::vector<std::unique_ptr<char[]>>& blocks) {
  blocks.push_back(std::make_unique<char[]>(kMebibyte));
  std::memset(blocks.back().get(), 1, kMebibyte);
}

int hog(std::size_t mebibytes, unsigned seconds) {
  std::vector<std::unique_ptr<char[]>> blocks;
  for (std::size_t i = 0; i < mebibytes; ++i)
    touch_one_more_mebibyte(blocks);
  ::sleep(seconds);
  return 0;
}

int print_descriptors() {
  DIR* const directory = ::opendir("/proc/self/fd");
  if (directory == nullptr)
    return 2;
  std::vector<int> descriptors;
  while (const dirent* const entry = ::readdir(directory)) {
    if (entry->d_name[0] == '.')
      continue;
    const int descriptor = std::atoi(entry->d_name);
    if (descriptor != ::dirfd(directory))
      descriptors.push_back(descriptor);
  }
  ::closedir(directory);
  std::sort(descriptors.begin(), descriptors.end());
  std::string text;
  for (const int descriptor : descriptors) {
    if (!text.empty())
      text += ' ';
    text += std::to_string(descriptor);
  }
  text += '\n';
  write_all(STDOUT_FILENO, text);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: faulty_solution MODE [ARG]\n";
    return 2;
  }
  const std::string_view mode = argv[1];
  const char* const argument = argc > 2 ? argv[2] : "0";
  const std::string input{std::istreambuf_iterator<char>(std::cin),
                          std::istreambuf_iterator<char>()};

  if (mode == "echo") {
    write_all(STDOUT_FILENO, input);
    return 0;
  }
  if (mode == "exit")
    return std::atoi(argument);
  if (mode == "segfault") {
    ::signal(SIGSEGV, SIG_DFL);
    ::raise(SIGSEGV);
    return 99;  // only if SIGSEGV was blocked
  }
  if (mode == "abort")
    std::abort();
  if (mode == "loop") {
    volatile unsigned long spins = 0;
    for (;;)
      spins = spins + 1;
  }
  if (mode == "sleep")
    sleep_for_ever();
  if (mode == "hog") {
    const unsigned seconds = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 10;
    return hog(static_cast<std::size_t>(std::atoll(argument)), seconds);
  }
  if (mode == "hog-forever") {
    std::vector<std::unique_ptr<char[]>> blocks;
    for (;;)
      touch_one_more_mebibyte(blocks);
  }
  if (mode == "flood") {
    const std::string block(64 * 1024, 'x');
    for (;;)
      write_all(STDOUT_FILENO, block);
  }
  if (mode == "background") {
    const pid_t child = ::fork();
    if (child < 0)
      return 2;
    if (child == 0) {
      ::sleep(1000);
      ::_exit(0);
    }
    write_all(STDOUT_FILENO, "done\n");
    return 0;
  }
  if (mode == "stderr") {
    std::string text;
    for (int line = 1; text.size() < 10 * 1024; ++line) {
      std::array<char, 64> buffer{};
      std::snprintf(buffer.data(), buffer.size(), "error line %05d of the faulty solution\n", line);
      text += buffer.data();
    }
    write_all(STDERR_FILENO, text);
    return 1;
  }
  if (mode == "fds")
    return print_descriptors();
  std::cerr << "faulty_solution: unknown mode " << mode << "\n";
  return 2;
}
