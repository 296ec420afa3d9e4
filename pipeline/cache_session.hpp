// One run's use of the answer cache file: load, checkpoints, final save.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "io/answer_cache.hpp"
#include "io/problem.hpp"

namespace gamebatch::pipeline {

struct CacheOptions {
  std::filesystem::path path;
  // A cache file that cannot be trusted is an error instead of being set aside.
  bool strict = false;
  // How often a running solve saves what it has; <= 0 saves at the end only.
  std::chrono::duration<double> checkpoint_interval{30.0};
};

// The cache file cannot be used and --strict-cache forbids going on without it.
class CacheUnusable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where the cache lives when --cache is not given: $XDG_CACHE_HOME/gamebatch/answers.cache, else
// $HOME/.cache/gamebatch/answers.cache; nullopt when neither variable is set.
std::optional<std::filesystem::path> default_cache_path();

// Owns the answer cache during one run. Loading: a file that fails any check is renamed to
// PATH.bad with one warning and the run goes on cold (or CacheUnusable in strict mode); the
// problem is offered the artefacts stored for it. Saving (at checkpoints from a background thread,
// and by finish()) takes the file's lock, first merges in whatever another run saved since we last
// looked, then writes the file durably. So two runs can share one cache: neither loses the other's
// answers, and there is never more than one writer.
class CacheSession {
 public:
  CacheSession(CacheOptions options, const io::Problem& problem);
  ~CacheSession();  // stops the checkpoints; does not save (call finish())
  CacheSession(const CacheSession&) = delete;
  CacheSession& operator=(const CacheSession&) = delete;

  io::AnswerCache& cache() { return cache_; }
  std::size_t loaded_entries() const { return loaded_entries_; }

  // Starts saving every checkpoint_interval until finish().
  void start_checkpoints();
  // Stops the checkpoints and saves. Returns false (after a warning) when the save failed.
  bool finish();

 private:
  struct FileIdentity {
    std::uintmax_t device = 0, inode = 0, size = 0;
    std::int64_t modified_ns = 0;
    friend bool operator==(const FileIdentity&, const FileIdentity&) = default;
  };
  static std::optional<FileIdentity> identify(const std::filesystem::path& path);

  // Loads the file into `into`; on a bad file sets it aside (or throws CacheUnusable when strict).
  // Returns false when there was nothing usable. Call with the file lock held.
  bool load_or_set_aside(io::AnswerCache& into);
  void save();  // throws on I/O failure
  void checkpoint_loop();

  CacheOptions options_;
  const io::Problem& problem_;
  io::AnswerCache cache_;
  std::size_t loaded_entries_ = 0;
  std::optional<FileIdentity> last_seen_;  // the file as we last read or wrote it
  std::uint64_t saved_generation_ = 0;
  bool saving_disabled_ = false;  // the file exists but could not be read

  std::mutex save_mutex_;  // one save at a time within this process
  std::mutex stop_mutex_;
  std::condition_variable stop_signal_;
  bool stopping_ = false;
  std::thread checkpoints_;
};

}  // namespace gamebatch::pipeline
