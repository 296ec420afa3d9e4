// Timing helpers shared by the benchmarks of the answer cache's store (cache_file_bench,
// cache_store_lookup_bench).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "io/cache/cache_store.hpp"

namespace gamebatch::bench {

using Clock = std::chrono::steady_clock;

inline double seconds_of(const std::function<void()>& work) {
  const auto start = Clock::now();
  work();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// "1.23 M" or "456 k".
inline std::string per_second(double rate) {
  char text[32];
  if (rate >= 1e6)
    std::snprintf(text, sizeof text, "%.2f M", rate / 1e6);
  else
    std::snprintf(text, sizeof text, "%.0f k", rate / 1e3);
  return text;
}

struct LookupRun {
  double per_second = 0;
  std::uint64_t lookups = 0;
  std::uint64_t found = 0;
};

// Looks up keys drawn by `next_key` on `threads` threads (each its own generator, seeded
// seed + thread) for `seconds`.
inline LookupRun look_up(io::CacheStore& store, int threads, double seconds,
                         const std::function<io::CacheKey(std::mt19937_64&)>& next_key,
                         std::uint64_t seed) {
  std::atomic<std::uint64_t> lookups{0}, found{0};
  std::vector<std::thread> workers;
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::duration<double>(seconds);
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      std::mt19937_64 random(seed + static_cast<std::uint64_t>(t));
      std::uint64_t done = 0, hits = 0;
      while (Clock::now() < deadline) {
        for (int k = 0; k < 256; ++k, ++done)
          hits += store.find(next_key(random)).found ? 1 : 0;
      }
      lookups += done;
      found += hits;
    });
  }
  for (std::thread& worker : workers)
    worker.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  return {static_cast<double>(lookups.load()) / elapsed, lookups.load(), found.load()};
}

}  // namespace gamebatch::bench
