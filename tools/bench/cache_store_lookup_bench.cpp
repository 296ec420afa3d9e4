// Look-ups in an existing answer cache, as a run makes them: opening the file (nothing is loaded:
// the cost must not grow with the cache), hit and miss look-ups per second from 1 and 2 threads,
// one case's key and look-up, and the bytes on disk per entry. Read only: adds nothing.
//
//   cache_store_lookup_bench --cache FILE --problem GAME [--repeat R] [--seconds S] INPUT...
//
// INPUT: input files of GAME, or directories walked for *.in files, whose cases were stored in
// FILE (e.g. solved into it with --cache-min-solve-us 0): they are parsed by the game's Problem
// and keyed as the pipeline keys them (canonical() + io::case_key), and those found stored are the
// hits. Misses are random 128-bit keys. Each rate is measured for --seconds on 1, then 2 threads
// (random stored keys, each thread its own draw), median of --repeat. The file is left in the OS
// page cache by the run that made it (as a cache in daily use is); nothing here drops it.
// Prints Markdown on stdout; exits 1 when no input case is stored in FILE (nothing to measure),
// 2 on bad usage or an unreadable input.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "io/cache/answer_cache.hpp"
#include "io/cache/cache_store.hpp"
#include "io/files/input_set.hpp"
#include "io/problem.hpp"
#include "tools/bench/store_bench_common.hpp"

namespace {

namespace fs = std::filesystem;
namespace io = gamebatch::io;
using gamebatch::bench::median;
using gamebatch::bench::per_second;
using gamebatch::bench::seconds_of;

// Look-ups per second of keys drawn by `next_key`; `lookups` and `found` get the counts.
double run_lookups(io::CacheStore& store, int threads, double seconds,
                   const std::function<io::CacheKey(std::mt19937_64&)>& next_key,
                   std::uint64_t& lookups, std::uint64_t& found) {
  const gamebatch::bench::LookupRun run =
      gamebatch::bench::look_up(store, threads, seconds, next_key, 2000);
  lookups = run.lookups;
  found = run.found;
  return run.per_second;
}

// The *.in files under each directory of `paths` (sorted), and each file of `paths` as given.
std::vector<fs::path> input_files(const std::vector<std::string>& paths) {
  std::vector<fs::path> files;
  for (const std::string& path : paths) {
    if (!fs::is_directory(path)) {
      files.emplace_back(path);
      continue;
    }
    std::vector<fs::path> found;
    for (const auto& item : fs::recursive_directory_iterator(path)) {
      if (item.is_regular_file() && item.path().extension() == ".in")
        found.push_back(item.path());
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("Times look-ups in an existing answer cache with the keys of cases stored in it");
  std::string cache_path, game;
  std::vector<std::string> inputs;
  int repeat = 3;
  double seconds = 1.0;
  app.add_option("--cache", cache_path, "The answer cache (an SQLite store)")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_option("-p,--problem", game, "The game of the inputs")->required();
  app.add_option("--repeat", repeat, "Measured repetitions of each rate (median reported)")
      ->check(CLI::Range(1, 100));
  app.add_option("--seconds", seconds, "Duration of each rate measurement")
      ->check(CLI::Range(0.05, 60.0));
  app.add_option("INPUT", inputs, "Input files or directories of cases stored in the cache")
      ->required()
      ->check(CLI::ExistingPath);
  CLI11_PARSE(app, argc, argv);
  const io::Problem* problem = io::find_problem(game);
  if (problem == nullptr) {
    std::fprintf(stderr, "cache_store_lookup_bench: no game '%s'\n", game.c_str());
    return 2;
  }

  // Open (the first look-up reads the schema and the B-tree's top pages): median of R opens;
  // closing is not timed.
  std::vector<double> open_seconds;
  for (int k = 0; k < repeat; ++k) {
    std::unique_ptr<io::CacheStore> probe;
    open_seconds.push_back(seconds_of([&] {
      probe = std::make_unique<io::CacheStore>(cache_path, io::CacheStore::Mode::read_write);
      (void)probe->find(io::CacheKey{1, 1});
    }));
  }
  io::CacheStore store(cache_path, io::CacheStore::Mode::read_write);

  // The inputs' keys, and one case's key + look-up as the pipeline pays it.
  std::vector<io::CacheKey> stored_keys;
  std::uint64_t cases = 0;
  double key_and_find_seconds = 0;
  std::size_t files = 0;
  for (const fs::path& file : input_files(inputs)) {
    std::vector<std::unique_ptr<io::Case>> parsed;
    try {
      parsed = problem->parse(io::read_file(file));
    } catch (const std::exception& error) {
      std::fprintf(stderr, "cache_store_lookup_bench: %s: %s\n", file.c_str(), error.what());
      return 2;
    }
    ++files;
    key_and_find_seconds += seconds_of([&] {
      for (const auto& a_case : parsed) {
        const io::CacheKey key =
            io::case_key(problem->name(), problem->solver_version(), a_case->canonical());
        if (store.find(key).found)
          stored_keys.push_back(key);
        ++cases;
      }
    });
  }
  if (stored_keys.empty()) {
    std::fprintf(stderr, "cache_store_lookup_bench: none of the %llu input cases is in %s\n",
                 static_cast<unsigned long long>(cases), cache_path.c_str());
    return 1;
  }

  std::vector<double> hit_1, hit_2, miss_1;
  bool all_found = true;
  for (int k = 0; k < repeat; ++k) {
    std::uint64_t lookups = 0, found = 0;
    for (const int threads : {1, 2}) {
      (threads == 1 ? hit_1 : hit_2)
          .push_back(run_lookups(
              store, threads, seconds,
              [&](std::mt19937_64& random) { return stored_keys[random() % stored_keys.size()]; },
              lookups, found));
      all_found = all_found && found == lookups;
    }
    miss_1.push_back(run_lookups(
        store, 1, seconds,
        [](std::mt19937_64& random) {
          return io::CacheKey{random(), random()};
        },
        lookups, found));
  }
  const std::uint64_t entries = store.entry_count();
  const std::uint64_t disk_bytes = store.disk_bytes();

  std::printf(
      "Cache %s: %llu entries, %.1f MB on disk (file + log), %.1f bytes per entry (MB = 10^6 "
      "bytes). Keys: %llu cases of %zu %s files, %zu of them stored. Rates: median of %d runs of "
      "%.2g s.\n\n",
      cache_path.c_str(), static_cast<unsigned long long>(entries),
      static_cast<double>(disk_bytes) / 1e6,
      static_cast<double>(disk_bytes) / static_cast<double>(std::max<std::uint64_t>(entries, 1)),
      static_cast<unsigned long long>(cases), files, game.c_str(), stored_keys.size(), repeat,
      seconds);
  std::printf("| operation | µs each (per thread) | per second (all threads) |\n");
  std::printf("|---|---|---|\n");
  std::printf("| open the cache + first look-up | %.0f | - |\n", median(open_seconds) * 1e6);
  const auto row = [](const char* operation, double microseconds, double rate) {
    std::printf("| %s | %.2f | %s |\n", operation, microseconds, per_second(rate).c_str());
  };
  const double key_us = key_and_find_seconds * 1e6 / static_cast<double>(cases);
  row("a case of the inputs: canonical() + case_key + find (once each)", key_us, 1e6 / key_us);
  row("hit look-up (find), 1 thread", 1e6 / median(hit_1), median(hit_1));
  row("hit look-up (find), 2 threads", 2e6 / median(hit_2), median(hit_2));
  row("miss look-up (find), 1 thread", 1e6 / median(miss_1), median(miss_1));
  if (!all_found) {
    std::fprintf(stderr, "cache_store_lookup_bench: a stored key was not found again\n");
    return 1;
  }
  return 0;
}
