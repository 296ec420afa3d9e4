// Cache keys and entries, and the cache's portable, serialized form: a bundle. A bundle is an
// in-memory AnswerCache (a thread-safe map of entries plus artefacts) written as one checksummed
// Boost binary archive (layout beside encode_bundle in answer_cache.cpp); it is only ever trusted
// after every check passes. `cache export --format bundle` writes one, `cache import` reads them.
// A version-1 cache file (gamebatch 0.2) is a bundle: that is how old caches are imported.
// The cache itself, looked up record by record, is the store (io/cache/cache_store.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "io/problem.hpp"

namespace gamebatch::io {

// XXH3-128 of (game, solver version, canonical case text): the identity of a case's answer.
struct CacheKey {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  friend bool operator==(const CacheKey&, const CacheKey&) = default;
  // 32 lowercase hex digits, high half first.
  std::string hex() const;
};

struct CacheKeyHash {
  std::size_t operator()(const CacheKey& key) const { return key.low; }  // already uniform
};

// The key of a case of `game` whose canonical text is `canonical_case`.
CacheKey case_key(std::string_view game, std::uint32_t solver_version,
                  std::string_view canonical_case);

struct CacheEntry {
  std::string game;
  std::uint32_t solver_version = 0;
  std::string canonical_case;  // kept so that `cache export` can say what was solved
  std::string answer;
  friend bool operator==(const CacheEntry&, const CacheEntry&) = default;
};

struct StoredArtefact {
  std::string game;
  Artefact artefact;
};

class AnswerCache {
 public:
  AnswerCache() = default;
  AnswerCache(const AnswerCache&) = delete;
  AnswerCache& operator=(const AnswerCache&) = delete;

  // Thread-safe; the answer is copied out.
  std::optional<std::string> find_answer(const CacheKey& key) const;
  // Thread-safe. Returns false (and keeps the old entry) when the key is already there.
  bool insert(const CacheKey& key, CacheEntry entry);
  // Stores `artefact` of `game`, replacing one of the same game and name.
  void put_artefact(const std::string& game, Artefact artefact);
  std::vector<Artefact> artefacts_of(std::string_view game) const;

  std::size_t size() const;
  std::size_t artefact_count() const;

  // Visits every entry (in no particular order) under a shared lock: do not call back into the
  // cache from `visit`.
  void for_each_entry(const std::function<void(const CacheKey&, const CacheEntry&)>& visit) const;
  void for_each_artefact(const std::function<void(const StoredArtefact&)>& visit) const;

 private:
  // Encodes entries and artefacts under one lock, so the counts it writes match what follows.
  friend std::string encode_bundle(const AnswerCache& cache);
  // Fills the map under one lock, sized once.
  friend void decode_bundle(std::string_view bytes, AnswerCache& cache);

  mutable std::shared_mutex mutex_;
  std::unordered_map<CacheKey, CacheEntry, CacheKeyHash> entries_;
  std::vector<StoredArtefact> artefacts_;
};

// Why a cache file cannot be trusted (truncated, corrupted, another format version or platform,
// or not a cache at all). what() says which, in words for a warning.
class CacheFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The whole bundle as file bytes: a fixed header, then a Boost binary archive (layout beside the
// code in answer_cache.cpp).
std::string encode_bundle(const AnswerCache& cache);

// Checks every header field and the payload checksum, and only then deserializes into `cache`
// (which should be empty; entries it already has are kept). Throws CacheFormatError.
void decode_bundle(std::string_view bytes, AnswerCache& cache);

// The bundle format version (that of 0.2's cache files); other versions are refused, never guessed
// at.
inline constexpr std::uint32_t kBundleFormatVersion = 1;
inline constexpr std::size_t kBundleHeaderSize = 48;

// Reads and decodes a cache file. Throws CacheFormatError when it is not sound and
// std::system_error when it cannot be read.
void load_bundle_file(const std::filesystem::path& path, AnswerCache& cache);

// Encodes and writes the cache durably: temporary file, fsync, rename, fsync of the directory.
void save_bundle_file(const std::filesystem::path& path, const AnswerCache& cache);

}  // namespace gamebatch::io
