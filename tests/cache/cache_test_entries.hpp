// Entries for the cache's tests (answer_cache_test.cpp, cache_store_test.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "io/cache/answer_cache.hpp"

namespace gamebatch::io::cache_testing {

inline CacheEntry entry(const std::string& game, const std::string& canonical,
                        const std::string& answer, std::uint32_t version = 1) {
  return CacheEntry{game, version, canonical, answer};
}

inline CacheKey key_of(const CacheEntry& one) {
  return case_key(one.game, one.solver_version, one.canonical_case);
}

}  // namespace gamebatch::io::cache_testing
