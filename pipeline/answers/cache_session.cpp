#include "pipeline/answers/cache_session.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <system_error>
#include <utility>

#include <spdlog/spdlog.h>

#include "io/files/atomic_file.hpp"
#include "pipeline/machine.hpp"

namespace gamebatch::pipeline {

namespace fs = std::filesystem;

namespace {

// A hit refreshes its entry's last use (for `cache trim`) only when that is older than this, so
// that warm reruns do not rewrite every record they read.
constexpr std::int64_t kTouchAfterSeconds = 3600;

// New answers held in memory at most before the thread adding one commits them: about 20 MB of
// small cases; a commit of that many takes a fraction of a second.
constexpr std::size_t kMaxPendingEntries = 100'000;

fs::path with_suffix(const fs::path& path, const char* suffix) {
  fs::path result = path;
  result += suffix;
  return result;
}

}  // namespace

std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::size_t import_version_one_in_place(const fs::path& path) {
  // Locked on the old file itself: a second importer waits, then finds PATH replaced by the
  // store (its lock was on the old file's inode) and has nothing to do. No lock file is left.
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor < 0)
    throw std::system_error(errno, std::generic_category(), "cannot open " + path.string());
  struct Closer {
    int descriptor;
    ~Closer() { ::close(descriptor); }
  } closer{descriptor};
  if (::flock(descriptor, LOCK_EX | LOCK_NB) != 0) {
    spdlog::info("waiting for another gamebatch run to import the cache {}", path.string());
    while (::flock(descriptor, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  if (io::classify_cache_file(path) != io::CacheFileKind::version_one)
    return 0;
  io::AnswerCache old;
  io::load_bundle_file(path, old);
  // Built beside it under a temporary name (removed by remove_stale_temporaries if killed), then
  // renamed over it: the old file is replaced whole or not at all.
  const fs::path temporary =
      with_suffix(path, (".tmp." + std::to_string(::getpid()) + ".import").c_str());
  try {
    {
      io::CacheStore store(temporary, io::CacheStore::Mode::read_write);
      std::vector<io::NewEntry> entries;
      entries.reserve(old.size());
      old.for_each_entry([&](const io::CacheKey& key, const io::CacheEntry& entry) {
        entries.push_back({key, entry, false});
      });
      const std::int64_t now = now_seconds();
      store.add_entries(entries, now);
      old.for_each_artefact([&](const io::StoredArtefact& stored) {
        store.put_artefact(stored.game, stored.artefact, now);
      });
    }  // closed: its log is folded into the file
    fs::rename(temporary, path);
  } catch (...) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    fs::remove(with_suffix(temporary, "-wal"), ignored);
    fs::remove(with_suffix(temporary, "-shm"), ignored);
    throw;
  }
  return old.size();
}

CacheSession::CacheSession(CacheOptions options, const io::Problem& problem)
    : options_(std::move(options)), problem_(problem) {
  open_store();
  if (store_) {
    store_->on_busy([path = options_.path.string()] {
      spdlog::info("waiting for another gamebatch run to finish writing the cache {}", path);
    });
    const fs::path directory = options_.path.parent_path();
    io::remove_stale_temporaries(directory.empty() ? fs::path(".") : directory);
    problem_.use_artefact_source(this);
    attached_ = true;
  }
}

CacheSession::~CacheSession() {
  {
    std::lock_guard lock(stop_mutex_);
    stopping_ = true;
  }
  stop_signal_.notify_all();
  if (checkpoints_.joinable())
    checkpoints_.join();
  if (attached_)
    problem_.use_artefact_source(nullptr);
}

void CacheSession::set_aside(const std::string& reason) {
  const fs::path& path = options_.path;
  const fs::path aside = with_suffix(path, ".bad");
  std::error_code error;
  fs::rename(path, aside, error);
  if (error) {
    spdlog::warn(
        "the answer cache {} cannot be trusted ({}) nor set aside ({}); going on without it",
        path.string(), reason, error.message());
    return;
  }
  // Its log and index belong to it, not to the new file that takes its name.
  for (const char* side : {"-wal", "-shm"}) {
    std::error_code ignored;
    if (fs::exists(with_suffix(path, side), ignored))
      fs::rename(with_suffix(path, side), with_suffix(aside, side), ignored);
  }
  spdlog::warn("the answer cache {} cannot be trusted ({}); set aside as {}, going on cold",
               path.string(), reason, aside.string());
  store_ = std::make_unique<io::CacheStore>(path, io::CacheStore::Mode::read_write);
}

void CacheSession::go_on_without(const std::exception& unreadable) {
  const std::string path = options_.path.string();
  if (options_.strict) {
    throw CacheUnusable("cannot read the answer cache " + path + ": " + unreadable.what() +
                        " (--strict-cache)");
  }
  // Not damaged, just out of reach (permissions, not a file): leave it as it is.
  spdlog::warn("cannot read the answer cache {} ({}); going on without it and leaving it as it is",
               path, unreadable.what());
  store_.reset();
}

void CacheSession::open_store() {
  const fs::path& path = options_.path;
  io::CacheFileKind kind;
  try {
    kind = io::classify_cache_file(path);
  } catch (const std::exception& unreadable) {
    go_on_without(unreadable);
    return;
  }
  if (kind == io::CacheFileKind::missing) {
    // A new cache: a failure to create it (no such directory, no permission) is the caller's to
    // report, as for any file it was told to write.
    store_ = std::make_unique<io::CacheStore>(path, io::CacheStore::Mode::read_write);
    return;
  }
  try {
    if (kind == io::CacheFileKind::version_one) {
      const std::size_t imported = import_version_one_in_place(path);
      spdlog::info("imported the version-1 answer cache {} ({} answers) into format version {}",
                   path.string(), imported, io::kStoreFormatVersion);
    }
    store_ = std::make_unique<io::CacheStore>(path, io::CacheStore::Mode::read_write);
  } catch (const io::CacheFormatError& bad) {
    if (options_.strict) {
      throw CacheUnusable("the answer cache " + path.string() +
                          " cannot be trusted: " + bad.what() + " (--strict-cache)");
    }
    set_aside(bad.what());
  } catch (const std::exception& unreadable) {
    go_on_without(unreadable);
  }
}

void CacheSession::mark_broken(const std::exception& error) {
  if (broken_.exchange(true))
    return;
  spdlog::warn("the answer cache {} turned out damaged during the run ({}); going on without it",
               options_.path.string(), error.what());
}

std::optional<std::string> CacheSession::find(const io::CacheKey& key) {
  if (!store_ || broken_.load(std::memory_order_relaxed))
    return std::nullopt;
  {
    std::shared_lock lock(pending_mutex_);
    if (const auto found = pending_.find(key); found != pending_.end())
      return found->second.entry.answer;  // solved earlier in this run
  }
  io::Lookup lookup;
  try {
    lookup = store_->find(key);
  } catch (const io::StoreDamagedError& damage) {
    mark_broken(damage);
    return std::nullopt;
  } catch (const std::exception& error) {
    spdlog::debug("cache look-up failed: {}", error.what());
    return std::nullopt;  // a miss: the case is solved
  }
  if (lookup.damaged) {
    std::unique_lock lock(pending_mutex_);
    damaged_keys_.insert(key);
    return std::nullopt;
  }
  if (!lookup.found)
    return std::nullopt;
  if (now_seconds() - lookup.found->last_used > kTouchAfterSeconds) {
    std::size_t touched = 0;
    {
      std::unique_lock lock(pending_mutex_);
      touched_.push_back(key);
      touched = touched_.size();
    }
    if (touched >= kMaxPendingEntries) {
      try {
        checkpoint();
      } catch (const std::exception& error) {
        spdlog::warn("could not commit to the cache {}: {}", options_.path.string(), error.what());
      }
    }
  }
  return std::move(lookup.found->answer);
}

void CacheSession::add(const io::CacheKey& key, io::CacheEntry entry) {
  if (!store_ || broken_.load(std::memory_order_relaxed))
    return;
  std::size_t pending = 0;
  {
    std::unique_lock lock(pending_mutex_);
    const bool replace = damaged_keys_.count(key) != 0;
    pending_.try_emplace(key, io::NewEntry{key, std::move(entry), replace});
    pending = pending_.size();
  }
  // Memory follows the run, not the time between checkpoints: past a bound the thread that adds
  // commits (the others go on solving; a second one over the bound waits for that commit).
  if (pending >= kMaxPendingEntries) {
    try {
      checkpoint();
    } catch (const std::exception& error) {
      spdlog::warn("could not commit new answers to the cache {}: {}", options_.path.string(),
                   error.what());
    }
  }
}

std::optional<io::Artefact> CacheSession::find_artefact(std::string_view name) {
  if (!store_ || broken_.load())
    return std::nullopt;
  {
    std::lock_guard lock(artefact_mutex_);
    if (refused_artefacts_.count(name) != 0)
      return std::nullopt;
  }
  try {
    std::optional<io::Artefact> artefact = store_->find_artefact(problem_.name(), name);
    if (artefact) {
      std::lock_guard lock(artefact_mutex_);
      used_artefacts_.emplace(name);
    } else if (store_->has_artefact(problem_.name(), name)) {
      refuse_artefact(name);  // stored but damaged: rebuilt and replaced
    }
    return artefact;
  } catch (const io::StoreDamagedError& damage) {
    mark_broken(damage);
  } catch (const std::exception& error) {
    spdlog::debug("cache artefact look-up failed: {}", error.what());
  }
  return std::nullopt;
}

void CacheSession::refuse_artefact(std::string_view name) {
  std::lock_guard lock(artefact_mutex_);
  refused_artefacts_.emplace(name);
  spdlog::info("the cached artefact '{}' of {} is not usable by this solver; it is rebuilt", name,
               problem_.name());
}

void CacheSession::checkpoint() {
  std::lock_guard checkpoint_lock(checkpoint_mutex_);
  if (!store_ || broken_.load())
    return;
  // Taken out whole: a look-up of one of these during the commit misses (and solves the case
  // again) rather than seeing a half-moved entry.
  std::unordered_map<io::CacheKey, io::NewEntry, io::CacheKeyHash> taken;
  std::vector<io::CacheKey> touched;
  {
    std::unique_lock lock(pending_mutex_);
    taken.swap(pending_);
    touched.swap(touched_);
  }
  std::vector<io::NewEntry> batch;
  batch.reserve(taken.size());
  for (auto& [key, entry] : taken)
    batch.push_back(std::move(entry));
  taken.clear();
  const std::int64_t now = now_seconds();
  try {
    store_->add_entries(batch, now);
    store_->touch_entries(touched, now);
    std::unique_lock lock(pending_mutex_);
    for (const io::NewEntry& entry : batch)
      damaged_keys_.erase(entry.key);
  } catch (const io::StoreDamagedError& damage) {
    mark_broken(damage);
    return;
  } catch (...) {
    std::unique_lock lock(pending_mutex_);
    for (io::NewEntry& entry : batch)
      pending_.try_emplace(entry.key, std::move(entry));  // kept for the next checkpoint
    touched_.insert(touched_.end(), touched.begin(), touched.end());
    throw;
  }
  std::set<std::string, std::less<>> refused;
  std::set<std::string, std::less<>> used;
  {
    std::lock_guard lock(artefact_mutex_);
    refused = refused_artefacts_;
    used.swap(used_artefacts_);
  }
  const std::string game(problem_.name());
  try {
    const auto already_stored = [&](std::string_view name) {
      return refused.count(name) == 0 && store_->has_artefact(game, name);
    };
    for (const io::Artefact& artefact : problem_.new_artefacts(already_stored)) {
      store_->put_artefact(game, artefact, now);
      std::lock_guard lock(artefact_mutex_);
      refused_artefacts_.erase(artefact.name);
    }
    for (const std::string& name : used)
      store_->touch_artefact(game, name, now);
  } catch (const io::StoreDamagedError& damage) {
    mark_broken(damage);
  }
}

void CacheSession::start_checkpoints() {
  if (!store_ || options_.checkpoint_interval.count() <= 0 || checkpoints_.joinable())
    return;
  checkpoints_ = std::thread([this] { checkpoint_loop(); });
}

void CacheSession::checkpoint_loop() {
  std::unique_lock lock(stop_mutex_);
  while (!stop_signal_.wait_for(lock, options_.checkpoint_interval, [this] { return stopping_; })) {
    lock.unlock();
    try {
      checkpoint();
    } catch (const std::exception& error) {
      spdlog::warn("could not commit a checkpoint of the answer cache {}: {}",
                   options_.path.string(), error.what());
    }
    lock.lock();
  }
}

bool CacheSession::finish() {
  {
    std::lock_guard lock(stop_mutex_);
    stopping_ = true;
  }
  stop_signal_.notify_all();
  if (checkpoints_.joinable())
    checkpoints_.join();
  if (!store_)
    return true;
  try {
    checkpoint();
  } catch (const std::exception& error) {
    spdlog::warn("could not save the answer cache {}: {}", options_.path.string(), error.what());
    return false;
  }
  if (broken_.load()) {
    // Damage met mid-run: the file is set aside now that this run no longer reads it, so the
    // next run starts a sound one.
    store_.reset();
    if (!options_.strict) {
      const fs::path aside = with_suffix(options_.path, ".bad");
      std::error_code error;
      fs::rename(options_.path, aside, error);
      if (!error)
        spdlog::warn("set the damaged answer cache aside as {}", aside.string());
    }
    return false;
  }
  return true;
}

bool open_cache(const std::string& cache_file, bool no_cache, const std::optional<io::Shard>& shard,
                const CacheOptions& options, const io::Problem& problem,
                std::unique_ptr<CacheSession>& cache) {
  if (no_cache)
    return true;
  CacheOptions cache_options = options;
  if (!cache_file.empty()) {
    cache_options.path = cache_file;
  } else if (const auto default_path = default_cache_path()) {
    cache_options.path = *default_path;
  } else {
    spdlog::warn("no answer cache: neither XDG_CACHE_HOME nor HOME is set (use --cache FILE)");
    return true;
  }
  if (shard)
    cache_options.path = io::shard_cache_name(cache_options.path.string(), *shard);
  try {
    cache = std::make_unique<CacheSession>(cache_options, problem);
  } catch (const CacheUnusable& error) {
    spdlog::error("{}", error.what());
    return false;
  } catch (const std::exception& error) {
    if (!cache_file.empty() || options.strict) {
      spdlog::error("cannot use the answer cache {}: {}", cache_options.path.string(),
                    error.what());
      return false;
    }
    // The default location is not the user's choice: its trouble must not stop the run.
    spdlog::warn("cannot use the default answer cache {} ({}); going on without a cache",
                 cache_options.path.string(), error.what());
  }
  return true;
}

bool open_cache(const std::string& cache_file, bool no_cache, const io::Problem& problem,
                std::unique_ptr<CacheSession>& cache) {
  return open_cache(cache_file, no_cache, std::nullopt, CacheOptions{}, problem, cache);
}

}  // namespace gamebatch::pipeline
