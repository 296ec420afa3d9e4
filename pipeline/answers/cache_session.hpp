// One run's use of the answer cache: opening (setting a bad file aside, importing a version-1
// file), look-ups, new answers committed at checkpoints, artefacts read when a case needs them.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "io/cache/answer_cache.hpp"
#include "io/cache/cache_store.hpp"
#include "io/files/shard.hpp"
#include "io/problem.hpp"

namespace gamebatch::pipeline {

// Cases expected to solve faster than this are neither looked up nor stored. Hashing a case,
// looking it up and storing its answer costs 14 to 17 µs on this project's machines in a cache of
// a million entries (tools/bench/cache_bench.sh measures it); four times the most of that, rounded
// up, keeps a cold run within 25% of a run without a cache even for cases at the threshold.
// Cheaper cases are solved again faster than a cache could answer them.
inline constexpr double kDefaultCacheMinSolveMicroseconds = 70.0;

struct CacheOptions {
  std::filesystem::path path;
  // A cache file that cannot be trusted is an error instead of being set aside.
  bool strict = false;
  // How often new answers are committed; <= 0 commits at the end only.
  std::chrono::duration<double> checkpoint_interval{5.0};
  // Cases whose estimated solve time is below this many µs skip the cache; 0 caches every case.
  double min_solve_microseconds = kDefaultCacheMinSolveMicroseconds;
};

// The cache file cannot be used and --strict-cache forbids going on without it.
class CacheUnusable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Seconds since the epoch, as the store's last-use times count them.
std::int64_t now_seconds();

// Imports a version-1 cache file at `path` in place: its entries and artefacts go into a new store
// that replaces it. Throws io::CacheFormatError when the file is not sound. Returns the number
// of entries imported. Safe against a second process doing the same (it waits, then finds the
// store already there).
std::size_t import_version_one_in_place(const std::filesystem::path& path);

// Owns the cache during one run. Opening: a file that fails a check is renamed to PATH.bad with
// one warning and the run goes on with a new cache (or CacheUnusable in strict mode); an
// unreadable one leaves the run without a cache. Look-ups go to the store (thread-safe); new
// answers wait in memory until the next checkpoint (every checkpoint_interval from a background
// thread, and finish()), which commits them in one transaction. Two runs can share one file:
// SQLite serialises their commits and each sees what the other committed.
class CacheSession final : public io::ArtefactSource {
 public:
  CacheSession(CacheOptions options, const io::Problem& problem);
  ~CacheSession() override;  // stops the checkpoints; does not commit (call finish())
  CacheSession(const CacheSession&) = delete;
  CacheSession& operator=(const CacheSession&) = delete;

  // Whether `a_case` is worth a look-up (its estimated solve time reaches the threshold).
  bool worth_caching(const io::Case& a_case) const {
    return a_case.estimated_solve_microseconds() >= options_.min_solve_microseconds;
  }
  // The stored answer, or nullopt (also for a damaged record, which a later add replaces).
  std::optional<std::string> find(const io::CacheKey& key);
  // Keeps a new answer for the next checkpoint.
  void add(const io::CacheKey& key, io::CacheEntry entry);

  // io::ArtefactSource: the problem asks for a table when a case first needs it.
  std::optional<io::Artefact> find_artefact(std::string_view name) override;
  void refuse_artefact(std::string_view name) override;

  // Starts committing every checkpoint_interval until finish().
  void start_checkpoints();
  // Stops the checkpoints and commits. Returns false (after a warning) when that failed, or when
  // the store turned out damaged during the run.
  bool finish();

  // True when the store was found damaged during the run (it was then no longer used).
  bool damaged_during_run() const { return broken_.load(); }
  const std::filesystem::path& path() const { return options_.path; }

 private:
  void open_store();
  // The file cannot be read: no cache for this run (CacheUnusable when strict).
  void go_on_without(const std::exception& unreadable);
  void set_aside(const std::string& reason);
  void checkpoint();  // commits; throws on failure (what was pending stays pending)
  void checkpoint_loop();
  // Called when the store reports damage mid-run: stop using it, say so once.
  void mark_broken(const std::exception& error);

  CacheOptions options_;
  const io::Problem& problem_;
  std::unique_ptr<io::CacheStore> store_;  // null: no cache for this run
  std::atomic<bool> broken_{false};
  bool attached_ = false;  // the problem asks this session for artefacts

  std::shared_mutex pending_mutex_;
  std::unordered_map<io::CacheKey, io::NewEntry, io::CacheKeyHash> pending_;
  std::vector<io::CacheKey> touched_;  // hits whose last use is to be refreshed
  std::set<io::CacheKey, bool (*)(const io::CacheKey&, const io::CacheKey&)> damaged_keys_{
      [](const io::CacheKey& a, const io::CacheKey& b) {
        return a.high != b.high ? a.high < b.high : a.low < b.low;
      }};
  std::mutex artefact_mutex_;
  std::set<std::string, std::less<>> refused_artefacts_;
  std::set<std::string, std::less<>> used_artefacts_;

  std::mutex checkpoint_mutex_;  // one commit at a time within this process
  std::mutex stop_mutex_;
  std::condition_variable stop_signal_;
  bool stopping_ = false;
  std::thread checkpoints_;
};

// Opens the answer cache `cache_file` (empty: the default location, machine.hpp) for `problem`
// into `cache`, with `options`' strictness, checkpoints and threshold (its path is set here; a
// shard's cache is named after it). `cache` is left empty for `no_cache`, or when the default
// location cannot be used (a warning says so). Returns false, after logging why, when the run
// must stop with a usage error.
bool open_cache(const std::string& cache_file, bool no_cache, const std::optional<io::Shard>& shard,
                const CacheOptions& options, const io::Problem& problem,
                std::unique_ptr<CacheSession>& cache);

// The same for a command that names only a cache file (empty: the default) or none (check, stress,
// build): the default checkpoints and threshold, no shard.
bool open_cache(const std::string& cache_file, bool no_cache, const io::Problem& problem,
                std::unique_ptr<CacheSession>& cache);

}  // namespace gamebatch::pipeline
