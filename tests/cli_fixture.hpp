// The end-to-end test fixture: runs the gamebatch binary as a user does, each test in a fresh
// directory, plus helpers to build inputs and read what it printed.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "test_data.hpp"

namespace gamebatch::testing {

namespace fs = std::filesystem;

// ---------------------------------------------------------------- helpers

inline fs::path data_file(const std::string& name) {
  return fs::path(GAMEBATCH_TEST_DATA) / "willow" / name;
}

// The checked-in inputs are read-only; their copies are ordinary files.
inline void copy_data(const std::string& name, const fs::path& destination) {
  write_text(destination, read_text(data_file(name)));
}

// A checked-in cache file under tests/data/cache/ (what each holds:
// tests/cache/cache_store_test.cpp).
inline fs::path cache_fixture(const std::string& name) {
  return fs::path(GAMEBATCH_TEST_DATA) / "cache" / name;
}

// The names of the files in the cache's directory that start with its name: the cache itself,
// and whatever is left beside it (PATH-wal, PATH-shm, PATH.lock, PATH.bad).
inline std::set<std::string> cache_files(const fs::path& cache) {
  std::set<std::string> names;
  const std::string name = cache.filename().string();
  for (const auto& entry : fs::directory_iterator(cache.parent_path())) {
    const std::string other = entry.path().filename().string();
    if (other.compare(0, name.size(), name) == 0)
      names.insert(other);
  }
  return names;
}

inline bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);)
    lines.push_back(line);
  return lines;
}

inline std::vector<std::string> error_lines(const std::string& err) {
  std::vector<std::string> errors;
  for (const std::string& line : lines_of(err)) {
    if (starts_with(line, "gamebatch: error: "))
      errors.push_back(line);
  }
  return errors;
}

inline std::size_t count_containing(const std::vector<std::string>& lines,
                                    const std::string& needle) {
  return static_cast<std::size_t>(std::count_if(lines.begin(), lines.end(), [&](const auto& line) {
    return line.find(needle) != std::string::npos;
  }));
}

// Every regular file under `dir`, relative to it, sorted.
inline std::set<std::string> files_under(const fs::path& dir) {
  std::set<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file())
      files.insert(entry.path().lexically_relative(dir).string());
  }
  return files;
}

// A random willow case in the official labelling (road i <-> j_i, i < j_i), as text. A comb is a
// path (the even cities) with a leaf on each of its cities (the odd ones). A spider is five combs
// with a leaf on every fourth spine city, whose spines end on city N (make_willow_case's
// comb_spider): the slowest shape known to willow's pruned search, about 700 N chain steps at
// N = 300,000 (about 3 s on two cores), so the tests that need a case in progress for seconds use
// it.
enum class Shape { random, path, star, comb, spider };

inline std::string willow_case(Shape shape, int cities, int max_coin, std::mt19937_64& rng) {
  std::string text = cat(cities, "\n");
  for (int city = 1; city <= cities; ++city)
    text += cat(rng() % static_cast<std::uint64_t>(max_coin + 1), "\n");
  for (int city = 1; city < cities; ++city) {
    std::uint64_t other = 0;
    switch (shape) {
      case Shape::random:
        other = static_cast<std::uint64_t>(city) + 1 +
                rng() % static_cast<std::uint64_t>(cities - city);
        break;
      case Shape::path:
        other = static_cast<std::uint64_t>(city) + 1;
        break;
      case Shape::star:
        other = static_cast<std::uint64_t>(cities);
        break;
      case Shape::comb:
        other = static_cast<std::uint64_t>(city % 2 == 1 ? city + 1 : std::min(city + 2, cities));
        break;
      case Shape::spider: {
        // Legs of cities [1 + k leg, 1 + (k + 1) leg), each a comb up to city N: groups of a
        // leaf and the four spine cities after it, the leaf on the first of them.
        const int leg = std::max(1, (cities + 4) / 5);
        const int leg_end = std::min(cities, 1 + ((city - 1) / leg + 1) * leg);
        const int step = (city - 1) % leg % 5 == 4 ? 2 : 1;  // past the next group's leaf
        other = static_cast<std::uint64_t>(city + step < leg_end ? city + step : cities);
        break;
      }
    }
    text += cat(other, "\n");
  }
  return text;
}

inline std::string willow_file(const std::vector<std::string>& cases) {
  std::string text = cat(cases.size(), "\n");
  for (const std::string& one : cases)
    text += one;
  return text;
}

inline const std::regex& summary_pattern() {
  static const std::regex pattern(
      R"(^files: (\d+) cases: (\d+) solved: (\d+) cached: (\d+) rejected: (\d+))"
      R"( time: (\d+(\.\d+)?) s$)");
  return pattern;
}

// Polls DONE every 20 ms until it holds (true) or LIMIT has passed (false).
template <typename Predicate>
inline bool wait_until(Predicate done, std::chrono::steady_clock::duration limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    if (done())
      return true;
    if (std::chrono::steady_clock::now() >= deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

struct Result {
  int status = -1;
  std::string out;
  std::string err;
};

// The counts of the summary line that ends a solve's stderr.
struct Summary {
  std::size_t files = 0, cases = 0, solved = 0, cached = 0, rejected = 0;
};

// The N of the `entries: N` line that `cache stats` printed (a test failure when it is missing).
inline std::optional<std::size_t> stats_entries(const Result& stats) {
  static const std::regex pattern(R"(^entries: (\d+)$)");
  for (const std::string& line : lines_of(stats.out)) {
    std::smatch match;
    if (std::regex_match(line, match, pattern))
      return std::stoul(match[1]);
  }
  ADD_FAILURE() << "no entries line in:\n" << stats.out << stats.err;
  return std::nullopt;
}

inline Summary summary_of(const Result& result) {
  const std::vector<std::string> lines = lines_of(result.err);
  std::smatch match;
  if (lines.empty() || !std::regex_match(lines.back(), match, summary_pattern())) {
    ADD_FAILURE() << "no summary line in:\n" << result.err;
    return {};
  }
  return {std::stoul(match[1]), std::stoul(match[2]), std::stoul(match[3]), std::stoul(match[4]),
          std::stoul(match[5])};
}

// Every file under `dir` with its content.
inline std::map<std::string, std::string> answers_under(const fs::path& dir) {
  std::map<std::string, std::string> answers;
  for (const std::string& name : files_under(dir))
    answers[name] = read_text(dir / name);
  return answers;
}

// Each test runs the binary in its own fresh directory `work_` (removed afterwards); what the
// binary prints is captured in files outside it.
class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    work_ = root_ / "work";
    fs::create_directories(work_);
    fs::create_directories(root_ / "capture");
    // The default answer cache of every run goes under this test's directory, never the user's.
    ::setenv("XDG_CACHE_HOME", (root_ / "xdg-cache").c_str(), 1);
  }
  // Starts gamebatch with `args` in work_ without waiting; its output is captured under the name
  // `capture`. A run over two minutes is killed (SIGALRM).
  pid_t start(const std::vector<std::string>& args, const std::string& capture = "main") const {
    std::vector<std::string> command = {GAMEBATCH_BINARY};
    command.insert(command.end(), args.begin(), args.end());
    return start_program(std::move(command), capture);
  }

  // Starts `command` (a program's path, then its arguments) as start() starts gamebatch.
  pid_t start_program(std::vector<std::string> strings, const std::string& capture = "main") const {
    const std::string out_path = (root_ / "capture" / (capture + ".out")).string();
    const std::string err_path = (root_ / "capture" / (capture + ".err")).string();
    const std::string directory = work_.string();
    std::vector<char*> argv;
    for (std::string& argument : strings)
      argv.push_back(argument.data());
    argv.push_back(nullptr);

    const pid_t child = ::fork();
    if (child < 0)
      throw std::system_error(errno, std::generic_category(), "fork");
    if (child == 0) {
      const int in = ::open("/dev/null", O_RDONLY);
      const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (in < 0 || out < 0 || err < 0 || ::chdir(directory.c_str()) != 0)
        ::_exit(126);
      ::dup2(in, 0);
      ::dup2(out, 1);
      ::dup2(err, 2);
      // SIGINT and SIGTERM at their defaults and unblocked whatever this process inherited (a
      // shell starts background jobs with SIGINT ignored, and that survives fork and exec), so
      // that the tests that send them see what a user's Ctrl-C does.
      ::signal(SIGINT, SIG_DFL);
      ::signal(SIGTERM, SIG_DFL);
      sigset_t unblocked;
      sigemptyset(&unblocked);
      ::sigprocmask(SIG_SETMASK, &unblocked, nullptr);
      ::alarm(120);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    return child;
  }

  // Waits for a run begun by start() and collects what it printed.
  Result finish(pid_t child, const std::string& capture = "main") const {
    int status = 0;
    while (::waitpid(child, &status, 0) < 0) {
      if (errno != EINTR)
        throw std::system_error(errno, std::generic_category(), "waitpid");
    }
    Result result;
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out = read_text(root_ / "capture" / (capture + ".out"));
    result.err = read_text(root_ / "capture" / (capture + ".err"));
    return result;
  }

  // Runs gamebatch with `args` in work_ and waits for it.
  Result run(const std::vector<std::string>& args) const { return finish(start(args)); }
  // `gamebatch cache ARGS...`.
  Result cache_command(const std::vector<std::string>& args) const {
    std::vector<std::string> all = {"cache"};
    all.insert(all.end(), args.begin(), args.end());
    return run(all);
  }

  Result solve(std::vector<std::string> args) const {
    args.insert(args.begin(), {"solve", "--problem", "willow"});
    return run(args);
  }

  fs::path at(const fs::path& relative) const { return work_ / relative; }

  TestDirectory scratch_{"gamebatch_cli"};
  const fs::path root_ = scratch_.path();
  fs::path work_;
};

}  // namespace gamebatch::testing
