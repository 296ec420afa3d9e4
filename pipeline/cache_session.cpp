#include "pipeline/cache_session.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <system_error>
#include <utility>

#include <spdlog/spdlog.h>

#include "io/atomic_file.hpp"

namespace gamebatch::pipeline {

namespace fs = std::filesystem;

std::optional<fs::path> default_cache_path() {
  // XDG's cache directory: the cache outlives any one output directory, and the same case met in
  // another data set is still a hit.
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/')
    return fs::path(xdg) / "gamebatch" / "answers.cache";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return fs::path(home) / ".cache" / "gamebatch" / "answers.cache";
  return std::nullopt;
}

CacheSession::CacheSession(CacheOptions options, const io::Problem& problem)
    : options_(std::move(options)), problem_(problem) {
  {
    const io::CacheFileLock lock(options_.path, [this] {
      spdlog::info("waiting for another gamebatch run to finish writing the cache {}",
                   options_.path.string());
    });
    load_or_set_aside(cache_);
    last_seen_ = identify(options_.path);
    const fs::path directory = options_.path.parent_path();
    io::remove_stale_temporaries(directory.empty() ? fs::path(".") : directory);
  }
  loaded_entries_ = cache_.size();
  saved_generation_ = cache_.generation();  // what the file holds; dropping artefacts changes it
  for (const io::Artefact& artefact : cache_.artefacts_of(problem_.name())) {
    if (!problem_.adopt_artefact(artefact)) {
      spdlog::info("dropped the cached artefact '{}' of {}: this solver does not accept it",
                   artefact.name, problem_.name());
      cache_.remove_artefact(problem_.name(), artefact.name);
    }
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
}

std::optional<CacheSession::FileIdentity> CacheSession::identify(const fs::path& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0)
    return std::nullopt;
  return FileIdentity{
      static_cast<std::uintmax_t>(status.st_dev), static_cast<std::uintmax_t>(status.st_ino),
      static_cast<std::uintmax_t>(status.st_size),
      static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec};
}

bool CacheSession::load_or_set_aside(io::AnswerCache& into) {
  const fs::path& path = options_.path;
  std::error_code error;
  if (!fs::exists(path, error))
    return false;  // a cold start (or an unreachable directory, which saving will report)
  try {
    io::load_cache_file(path, into);
    return true;
  } catch (const io::CacheFormatError& bad) {
    if (options_.strict) {
      throw CacheUnusable("the answer cache " + path.string() +
                          " cannot be trusted: " + bad.what() + " (--strict-cache)");
    }
    fs::path aside = path;
    aside += ".bad";
    fs::rename(path, aside, error);
    if (error) {
      spdlog::warn(
          "the answer cache {} cannot be trusted ({}) nor set aside ({}); going on without it",
          path.string(), bad.what(), error.message());
    } else {
      spdlog::warn("the answer cache {} cannot be trusted ({}); set aside as {}, going on cold",
                   path.string(), bad.what(), aside.string());
    }
  } catch (const std::exception& unreadable) {
    if (options_.strict) {
      throw CacheUnusable("cannot read the answer cache " + path.string() + ": " +
                          unreadable.what() + " (--strict-cache)");
    }
    // Saving would replace entries we could not read: leave the file alone for this run.
    saving_disabled_ = true;
    spdlog::warn(
        "cannot read the answer cache {} ({}); going on without it and leaving it as it is",
        path.string(), unreadable.what());
  }
  return false;
}

void CacheSession::save() {
  std::lock_guard save_lock(save_mutex_);
  if (saving_disabled_)
    return;
  const io::CacheFileLock file_lock(options_.path, [this] {
    spdlog::info("waiting for another gamebatch run to finish writing the cache {}",
                 options_.path.string());
  });
  const std::optional<FileIdentity> now = identify(options_.path);
  const bool changed_by_others = now.has_value() && now != last_seen_;
  if (changed_by_others) {
    io::AnswerCache theirs;
    if (load_or_set_aside(theirs))
      cache_.merge_from(theirs);
    if (saving_disabled_)
      return;  // the file is there but unreadable: never replace what we could not read
  }
  const std::vector<io::Artefact> stored = cache_.artefacts_of(problem_.name());
  const auto already_stored = [&stored](std::string_view name) {
    return std::any_of(stored.begin(), stored.end(),
                       [name](const io::Artefact& artefact) { return artefact.name == name; });
  };
  for (io::Artefact& artefact : problem_.new_artefacts(already_stored))
    cache_.put_artefact(std::string(problem_.name()), std::move(artefact));
  const std::uint64_t generation = cache_.generation();
  if (generation == saved_generation_ && !changed_by_others && now.has_value())
    return;  // the file already holds all of it
  io::save_cache_file(options_.path, cache_);
  saved_generation_ = generation;
  last_seen_ = identify(options_.path);
}

void CacheSession::start_checkpoints() {
  if (options_.checkpoint_interval.count() <= 0 || checkpoints_.joinable())
    return;
  checkpoints_ = std::thread([this] { checkpoint_loop(); });
}

void CacheSession::checkpoint_loop() {
  std::unique_lock lock(stop_mutex_);
  while (!stop_signal_.wait_for(lock, options_.checkpoint_interval, [this] { return stopping_; })) {
    lock.unlock();
    try {
      save();
    } catch (const std::exception& error) {
      spdlog::warn("could not save a checkpoint of the answer cache {}: {}", options_.path.string(),
                   error.what());
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
  try {
    save();
    return true;
  } catch (const std::exception& error) {
    spdlog::warn("could not save the answer cache {}: {}", options_.path.string(), error.what());
    return false;
  }
}

}  // namespace gamebatch::pipeline
