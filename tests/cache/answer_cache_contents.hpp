// An in-memory AnswerCache's contents in a fixed order, so tests can compare two caches whole.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "io/cache/answer_cache.hpp"

namespace gamebatch::testing {

// Every entry, ordered by key.
inline std::vector<std::pair<io::CacheKey, io::CacheEntry>> sorted_entries(
    const io::AnswerCache& cache) {
  std::vector<std::pair<io::CacheKey, io::CacheEntry>> all;
  cache.for_each_entry(
      [&](const io::CacheKey& key, const io::CacheEntry& one) { all.emplace_back(key, one); });
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first.high, a.first.low) < std::tie(b.first.high, b.first.low);
  });
  return all;
}

// Every artefact as (game, name, version, bytes), sorted.
inline std::vector<std::tuple<std::string, std::string, std::uint32_t, std::string>>
sorted_artefacts(const io::AnswerCache& cache) {
  std::vector<std::tuple<std::string, std::string, std::uint32_t, std::string>> all;
  cache.for_each_artefact([&](const io::StoredArtefact& stored) {
    all.emplace_back(stored.game, stored.artefact.name, stored.artefact.version,
                     stored.artefact.bytes);
  });
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace gamebatch::testing
