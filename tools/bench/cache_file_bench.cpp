// Measures the answer cache's store (io::CacheStore, one SQLite file looked up record by record)
// at scale: adding N small entries, the bytes they take on disk, opening the closed store, hit and
// miss look-ups from one and two threads, and what one small case pays the cache (its key and a
// look-up, then storing its answer): the costs that the solve option --cache-min-solve-us
// (default 70 µs) must cover for a case to be worth caching: at most a quarter of it, so that a
// cold run costs at most 25% more than without a cache.
//
//   cache_file_bench [--entries N] [--repeat R] [--dir DIR] [--seconds S] [--max-overhead-us U]
//
// Entries are real small wallgame cases, as `gamebatch gen wallgame --height 2..6 --width 1..6`
// writes them, parsed by the game's own Problem (canonical text, io::case_key, solved answer): what
// a run with --cache-min-solve-us 0 stores. Steps, in one process:
//   1. add: N cases through CacheStore::add_entries in transactions of 100,000 into a new store
//      (tiny boards repeat: a repeated key is ignored, so the store holds somewhat fewer than N),
//      then close it (the write-ahead log is folded into the file);
//   2. open the closed store and look one key up (median of R; must not grow with N); bytes on
//      disk per entry (CacheStore::disk_bytes() / entries);
//   3. look-ups of random stored keys (hits) from 1 and 2 threads and of random absent keys
//      (misses) from 1 thread, each for --seconds: look-ups per second, median of R;
//   4. one small case (100,000 boards of 2..6 x 1..6): canonical() + io::case_key + find, for
//      stored cases (hits) and new ones (misses), in µs per case (median of R); then adding the
//      new ones to the N-entry store in one transaction (a checkpoint commits at most 100,000), in
//      µs per entry amortised.
// The file stays in the OS page cache throughout (it was just written), as a cache in daily use
// does. Prints Markdown on stdout; exits 1 when a stored key is not found, or when a small case's
// miss (key + find) plus its add costs more than --max-overhead-us (default 17.5, a quarter of
// the default --cache-min-solve-us). KEEP_CACHE=1 in the environment keeps
// DIR/cache_file_bench.cache.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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
#include "io/files/generate.hpp"
#include "io/problem.hpp"
#include "tools/bench/store_bench_common.hpp"

namespace {

namespace fs = std::filesystem;
namespace io = gamebatch::io;
using Clock = std::chrono::steady_clock;
using gamebatch::bench::look_up;
using gamebatch::bench::LookupRun;
using gamebatch::bench::median;
using gamebatch::bench::per_second;
using gamebatch::bench::seconds_of;
using Cases = std::vector<std::unique_ptr<io::Case>>;

constexpr std::int64_t kAddBatch = 100'000;
constexpr std::size_t kCheckpointBatch = 100'000;  // pipeline::CacheSession's largest commit
constexpr std::int64_t kSmallCases = 100'000;
constexpr std::uint64_t kSeed = 2026;    // the stored cases
constexpr std::uint64_t kOtherSeed = 7;  // the new ones of step 4

std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// File `file_number` of `gamebatch gen wallgame --seed SEED --height 2..6 --width 1..6
// --cases-per-file COUNT`, parsed.
Cases small_cases(std::uint64_t seed, std::uint64_t file_number, std::int64_t count) {
  io::WallgameGenOptions options;
  options.height = {2, 6};
  options.width = {1, 6};
  return io::find_problem("wallgame")
      ->parse(io::generate_file_text(options, seed, file_number, count));
}

io::CacheKey key_of(const io::Problem& problem, const io::Case& a_case) {
  return io::case_key(problem.name(), problem.solver_version(), a_case.canonical());
}

io::NewEntry new_entry(const io::Problem& problem, const io::Case& a_case) {
  io::CacheEntry entry{std::string(problem.name()), problem.solver_version(), a_case.canonical(),
                       a_case.solve()};
  const io::CacheKey key = io::case_key(entry.game, entry.solver_version, entry.canonical_case);
  return io::NewEntry{key, std::move(entry), false};
}

// µs per case of canonical() + io::case_key + find over `cases`, as the pipeline pays them;
// `found` counts the hits.
double key_and_find_us(io::CacheStore& store, const io::Problem& problem,
                       const std::vector<const io::Case*>& cases, std::uint64_t& found) {
  found = 0;
  const double seconds = seconds_of([&] {
    for (const io::Case* a_case : cases)
      found += store.find(key_of(problem, *a_case)).found ? 1 : 0;
  });
  return seconds * 1e6 / static_cast<double>(cases.size());
}

void remove_store(const fs::path& path) {
  for (const char* suffix : {"", "-wal", "-shm"}) {
    fs::path file = path;
    file += suffix;
    fs::remove(file);
  }
}

void row(const char* operation, double microseconds, const std::string& rate) {
  std::printf("| %s | %.2f | %s |\n", operation, microseconds, rate.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app(
      "Times the answer cache's SQLite store: adding N small entries, bytes per entry, opening, "
      "hit and miss look-ups, and one small case's look-up and store");
  std::int64_t entries = 1'000'000;
  int repeat = 3;
  std::string dir = fs::temp_directory_path().string();
  double seconds = 1.0;
  double max_overhead_us = 17.5;
  app.add_option("--entries", entries, "Small cases added to the store")
      ->check(CLI::Range(std::int64_t{1000}, std::int64_t{100'000'000}));
  app.add_option("--repeat", repeat, "Measured repetitions of each look-up (median reported)")
      ->check(CLI::Range(1, 100));
  app.add_option("--dir", dir, "Where the store goes (a real disk, not tmpfs, to count fsync)")
      ->check(CLI::ExistingDirectory);
  app.add_option("--seconds", seconds, "Duration of each look-up-rate measurement")
      ->check(CLI::Range(0.05, 60.0));
  app.add_option("--max-overhead-us", max_overhead_us,
                 "Fail when a small case's miss look-up plus its add costs more than this (µs)")
      ->check(CLI::NonNegativeNumber);
  CLI11_PARSE(app, argc, argv);

  const io::Problem& problem = *io::find_problem("wallgame");
  const fs::path path = fs::path(dir) / "cache_file_bench.cache";
  remove_store(path);
  bool failed = false;

  // 1. Add N entries, then close.
  std::vector<io::CacheKey> keys;  // every key added
  keys.reserve(static_cast<std::size_t>(entries));
  double prepare_seconds = 0, add_seconds = 0, close_seconds = 0;
  std::vector<double> batch_rates;  // entries per second of each transaction
  {
    auto store = std::make_unique<io::CacheStore>(path, io::CacheStore::Mode::read_write);
    for (std::int64_t done = 0, file = 1; done < entries; ++file) {
      const std::int64_t count = std::min(kAddBatch, entries - done);
      std::vector<io::NewEntry> batch;
      prepare_seconds += seconds_of([&] {
        batch.reserve(static_cast<std::size_t>(count));
        for (const auto& a_case : small_cases(kSeed, static_cast<std::uint64_t>(file), count)) {
          batch.push_back(new_entry(problem, *a_case));
          keys.push_back(batch.back().key);
        }
      });
      const double batch_seconds = seconds_of([&] { store->add_entries(batch, now_seconds()); });
      add_seconds += batch_seconds;
      batch_rates.push_back(static_cast<double>(count) / batch_seconds);
      done += count;
    }
    close_seconds = seconds_of([&] { store.reset(); });
  }

  // 2. Open the closed store; bytes on disk.
  std::vector<double> open_seconds;
  for (int k = 0; k < repeat; ++k) {
    std::unique_ptr<io::CacheStore> probe;
    open_seconds.push_back(seconds_of([&] {
      probe = std::make_unique<io::CacheStore>(path, io::CacheStore::Mode::read_write);
      (void)probe->find(keys.front());
    }));
  }
  auto store = std::make_unique<io::CacheStore>(path, io::CacheStore::Mode::read_write);
  const std::uint64_t stored = store->entry_count();
  const std::uint64_t disk_bytes = store->disk_bytes();

  // 3. Look-up rates.
  const auto stored_key = [&](std::mt19937_64& random) { return keys[random() % keys.size()]; };
  const auto absent_key = [](std::mt19937_64& random) {
    return io::CacheKey{random(), random()};  // 128 random bits: not stored
  };
  std::vector<double> hit_1, hit_2, miss_1;
  for (int k = 0; k < repeat; ++k) {
    for (const int threads : {1, 2}) {
      const LookupRun run = look_up(*store, threads, seconds, stored_key, 1000);
      (threads == 1 ? hit_1 : hit_2).push_back(run.per_second);
      if (run.found != run.lookups) {
        std::fprintf(stderr, "cache_file_bench: %llu of %llu stored keys not found\n",
                     static_cast<unsigned long long>(run.lookups - run.found),
                     static_cast<unsigned long long>(run.lookups));
        failed = true;
      }
    }
    miss_1.push_back(look_up(*store, 1, seconds, absent_key, 1000).per_second);
  }

  // 4. One small case: its key and a look-up (hit or miss), then its add.
  const Cases stored_cases = small_cases(kSeed, 1, std::min(kSmallCases, entries));
  const Cases other_cases = small_cases(kOtherSeed, 1, kSmallCases);
  std::vector<const io::Case*> hits, misses;
  for (const auto& a_case : stored_cases)
    hits.push_back(a_case.get());
  for (const auto& a_case : other_cases) {
    if (!store->find(key_of(problem, *a_case)).found)  // tiny boards repeat: stored ones left out
      misses.push_back(a_case.get());
  }
  std::vector<double> hit_us, miss_us;
  for (int k = 0; k < repeat; ++k) {
    std::uint64_t found = 0;
    hit_us.push_back(key_and_find_us(*store, problem, hits, found));
    if (found != hits.size()) {
      std::fprintf(stderr, "cache_file_bench: %zu of %zu stored cases not found\n",
                   hits.size() - found, hits.size());
      failed = true;
    }
    miss_us.push_back(key_and_find_us(*store, problem, misses, found));
  }
  std::vector<io::NewEntry> fresh;
  fresh.reserve(misses.size());
  for (const io::Case* a_case : misses)
    fresh.push_back(new_entry(problem, *a_case));
  double fresh_seconds = 0;
  for (std::size_t begin = 0; begin < fresh.size(); begin += kCheckpointBatch) {
    const auto first = fresh.begin() + static_cast<std::ptrdiff_t>(begin);
    const std::vector<io::NewEntry> batch(
        first,
        first + static_cast<std::ptrdiff_t>(std::min(kCheckpointBatch, fresh.size() - begin)));
    fresh_seconds += seconds_of([&] { store->add_entries(batch, now_seconds()); });
  }
  const double add_small_us = fresh_seconds * 1e6 / static_cast<double>(fresh.size());
  store.reset();
  if (std::getenv("KEEP_CACHE") == nullptr)
    remove_store(path);

  // The report.
  const double entries_added = static_cast<double>(entries);
  std::printf(
      "Store of %lld small wallgame cases (2..6 x 1..6 boards): %llu distinct entries, %.1f MB on "
      "disk, %.1f bytes per entry (MB = 10^6 bytes); in %s. Look-ups: median of %d runs of %.2g "
      "s each; the file is in the OS page cache.\n",
      static_cast<long long>(entries), static_cast<unsigned long long>(stored),
      static_cast<double>(disk_bytes) / 1e6,
      static_cast<double>(disk_bytes) / static_cast<double>(std::max<std::uint64_t>(stored, 1)),
      dir.c_str(), repeat, seconds);
  std::printf(
      "(Making the entries, i.e. generating, parsing, solving and hashing the cases, took %.2f s; "
      "not part of any figure.)\n\n",
      prepare_seconds);
  std::printf("| operation | µs each (per thread) | per second (all threads) |\n");
  std::printf("|---|---|---|\n");
  row("add: all entries, transactions of 100,000", add_seconds * 1e6 / entries_added,
      per_second(entries_added / add_seconds));
  row("add: first transaction (empty store)", 1e6 / batch_rates.front(),
      per_second(batch_rates.front()));
  row("add: last transaction (full store)", 1e6 / batch_rates.back(),
      per_second(batch_rates.back()));
  std::printf("| close after adding (folds the log into the file) | %.0f | - |\n",
              close_seconds * 1e6);
  std::printf("| open the closed store + first look-up | %.0f | - |\n", median(open_seconds) * 1e6);
  row("hit look-up (find), 1 thread", 1e6 / median(hit_1), per_second(median(hit_1)));
  row("hit look-up (find), 2 threads", 2e6 / median(hit_2), per_second(median(hit_2)));
  row("miss look-up (find), 1 thread", 1e6 / median(miss_1), per_second(median(miss_1)));
  row("small case, stored: canonical() + case_key + find", median(hit_us),
      per_second(1e6 / median(hit_us)));
  row("small case, new: canonical() + case_key + find", median(miss_us),
      per_second(1e6 / median(miss_us)));
  row("small case, new: add, amortised (one transaction)", add_small_us,
      per_second(1e6 / add_small_us));
  const double overhead_us = median(miss_us) + add_small_us;
  const bool met = overhead_us <= max_overhead_us;
  std::printf(
      "\nA new small case pays the cache %.2f µs (key + miss look-up + add); a stored one %.2f µs "
      "(key + hit). The default --cache-min-solve-us, 70 µs, is %.1fx the first. Target: <= %.3g "
      "µs: %s.\n",
      overhead_us, median(hit_us), 70.0 / overhead_us, max_overhead_us, met ? "met" : "NOT met");
  std::fprintf(
      stderr, "cache_file_bench: %s (target: a new small case's look-up + add <= %.3g µs)\n",
      met && !failed ? "target met" : "TARGET MISSED or a stored key not found", max_overhead_us);
  return met && !failed ? 0 : 1;
}
