// Bundles for the fuzz targets: a sound header for any payload (so that fuzzed payloads get past
// the checksum to the archive decoder), and comparing two decoded caches.
#pragma once

// Header-only xxHash: no link dependency for the targets and tests that include this.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/cache/answer_cache.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace gamebatch::fuzz {

inline constexpr std::string_view kBundleMagic = "GBCACHE\n";

// `payload` behind the header this build writes, with its length and checksum filled in
// (layout beside encode_bundle in io/cache/answer_cache.cpp).
inline std::string bundle_with_header(std::string_view payload) {
  static const std::string kEmpty = [] {
    const io::AnswerCache empty;
    return io::encode_bundle(empty);
  }();
  std::string bytes = kEmpty.substr(0, io::kBundleHeaderSize);
  const auto put = [&bytes](std::size_t offset, std::uint64_t value) {
    for (std::size_t k = 0; k < 8; ++k)
      bytes[offset + k] = static_cast<char>((value >> (8 * k)) & 0xff);
  };
  const XXH128_hash_t checksum = XXH3_128bits(payload.data(), payload.size());
  put(24, payload.size());
  put(32, checksum.high64);
  put(40, checksum.low64);
  bytes += payload;
  return bytes;
}

// Whether two caches hold the same entries and artefacts.
inline bool same_cache(const io::AnswerCache& left, const io::AnswerCache& right) {
  if (left.size() != right.size() || left.artefact_count() != right.artefact_count())
    return false;
  bool same = true;
  left.for_each_entry([&](const io::CacheKey& key, const io::CacheEntry& entry) {
    same = same && right.find_answer(key) == entry.answer;
  });
  left.for_each_artefact([&](const io::StoredArtefact& stored) {
    bool found = false;
    for (const io::Artefact& other : right.artefacts_of(stored.game)) {
      found = found ||
              (other.name == stored.artefact.name && other.version == stored.artefact.version &&
               other.bytes == stored.artefact.bytes);
    }
    same = same && found;
  });
  return same;
}

// Decodes `bytes` as a bundle: true when sound, false for a CacheFormatError. After a sound
// decode, encoding the cache and decoding that again must give the same cache.
inline bool decode_and_round_trip(std::string_view bytes, io::AnswerCache& cache) {
  try {
    io::decode_bundle(bytes, cache);
  } catch (const io::CacheFormatError&) {
    return false;
  }
  const std::string encoded = io::encode_bundle(cache);
  io::AnswerCache again;
  try {
    io::decode_bundle(encoded, again);
  } catch (const io::CacheFormatError& error) {
    fail(std::string("a decoded bundle, encoded again, does not decode: ") + error.what());
  }
  if (!same_cache(cache, again))
    fail("a decoded bundle, encoded and decoded again, is another cache");
  return true;
}

}  // namespace gamebatch::fuzz
