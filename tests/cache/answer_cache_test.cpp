// The answer cache in memory and its file format: round trips, and every kind of damage refused.
#include "io/cache/answer_cache.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <random>
#include <regex>
#include <string>
#include <system_error>
#include <thread>
#include <tuple>
#include <vector>

#include "tests/cache/answer_cache_contents.hpp"
#include "tests/cache/cache_test_entries.hpp"
#include "tests/test_data.hpp"

namespace gamebatch::io {
namespace {

using gamebatch::testing::cat;
using gamebatch::testing::read_text;
using gamebatch::testing::sorted_entries;
using gamebatch::testing::write_text;
namespace fs = std::filesystem;

using cache_testing::entry;
using cache_testing::key_of;

void add(AnswerCache& cache, const CacheEntry& one) {
  cache.insert(key_of(one), one);
}

// A small cache with entries of two games and one artefact.
void fill_small(AnswerCache& cache) {
  add(cache, entry("willow", "1\n5\n", "5"));
  add(cache, entry("willow", "2\n1\n2\n2\n", "1"));
  add(cache, entry("wallgame", "2 2\n12\n34\n", "6"));
  cache.put_artefact("doublemove", Artefact{"states n=3", 1, std::string("\x01\x00\xff", 3)});
}

// ---------------------------------------------------------------- keys

TEST(CacheKeyTest, DependsOnGameVersionAndCaseOnly) {
  const CacheKey base = case_key("willow", 1, "1\n5\n");
  EXPECT_EQ(base, case_key("willow", 1, "1\n5\n"));
  EXPECT_NE(base, case_key("willow", 2, "1\n5\n"));
  EXPECT_NE(base, case_key("wallgame", 1, "1\n5\n"));
  EXPECT_NE(base, case_key("willow", 1, "1\n6\n"));
  // Lengths are hashed too: moving bytes between game and case changes the key.
  EXPECT_NE(case_key("ab", 1, "c"), case_key("a", 1, "bc"));
}

TEST(CacheKeyTest, HexIsThirtyTwoLowercaseDigitsHighHalfFirst) {
  const CacheKey key{0x0123456789abcdefULL, 0xfedcba9876543210ULL};
  EXPECT_EQ(key.hex(), "0123456789abcdeffedcba9876543210");
  EXPECT_TRUE(std::regex_match(case_key("willow", 1, "x").hex(), std::regex("[0-9a-f]{32}")));
}

// ---------------------------------------------------------------- the map

TEST(AnswerCacheTest, FindsWhatWasInsertedAndKeepsTheFirstAnswer) {
  AnswerCache cache;
  const CacheEntry one = entry("willow", "1\n5\n", "5");
  EXPECT_FALSE(cache.find_answer(key_of(one)).has_value());
  EXPECT_TRUE(cache.insert(key_of(one), one));
  EXPECT_FALSE(cache.insert(key_of(one), entry("willow", "1\n5\n", "other")));
  EXPECT_EQ(cache.find_answer(key_of(one)), "5");
  EXPECT_EQ(cache.size(), 1u);
}

TEST(AnswerCacheTest, AnArtefactOfTheSameNameIsReplaced) {
  AnswerCache cache;
  cache.put_artefact("g", Artefact{"a", 1, "xyz"});
  cache.put_artefact("g", Artefact{"a", 2, "xyz"});
  EXPECT_EQ(cache.artefact_count(), 1u);
  EXPECT_EQ(cache.artefacts_of("g").at(0).version, 2u);
}

TEST(AnswerCacheTest, ConcurrentInsertsAndLookupsLoseNothing) {
  AnswerCache cache;
  constexpr int kThreads = 4;
  constexpr int kPerThread = 2000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&cache, t] {
      for (int k = 0; k < kPerThread; ++k) {
        const CacheEntry one = entry("willow", cat(t, ":", k), cat(k));
        cache.insert(key_of(one), one);
        EXPECT_EQ(cache.find_answer(key_of(one)), cat(k));
      }
    });
  }
  for (auto& thread : threads)
    thread.join();
  EXPECT_EQ(cache.size(), static_cast<std::size_t>(kThreads * kPerThread));
}

// ---------------------------------------------------------------- the file format

TEST(CacheFormatTest, RoundTripKeepsEveryEntryAndArtefact) {
  AnswerCache cache;
  fill_small(cache);
  add(cache, entry("willow", std::string(100000, '7'), "big case"));
  AnswerCache loaded;
  decode_bundle(encode_bundle(cache), loaded);
  EXPECT_EQ(sorted_entries(loaded), sorted_entries(cache));
  ASSERT_EQ(loaded.artefacts_of("doublemove").size(), 1u);
  const Artefact artefact = loaded.artefacts_of("doublemove")[0];
  EXPECT_EQ(artefact.name, "states n=3");
  EXPECT_EQ(artefact.version, 1u);
  EXPECT_EQ(artefact.bytes, std::string("\x01\x00\xff", 3));
}

TEST(CacheFormatTest, EmptyCacheRoundTrips) {
  AnswerCache empty;
  const std::string bytes = encode_bundle(empty);
  EXPECT_EQ(bytes.size() > kBundleHeaderSize, true);
  AnswerCache loaded;
  decode_bundle(bytes, loaded);
  EXPECT_EQ(loaded.size(), 0u);
}

TEST(CacheFormatTest, EncodingIsIndependentOfWhatWasLoadedBefore) {
  AnswerCache cache;
  fill_small(cache);
  const std::string bytes = encode_bundle(cache);
  AnswerCache loaded;
  decode_bundle(bytes, loaded);
  AnswerCache reloaded;
  decode_bundle(encode_bundle(loaded), reloaded);
  EXPECT_EQ(sorted_entries(reloaded), sorted_entries(cache));
}

TEST(CacheFormatTest, EverySingleByteCorruptionIsRefused) {
  AnswerCache cache;
  fill_small(cache);
  const std::string good = encode_bundle(cache);
  std::size_t refused = 0;
  for (std::size_t position = 0; position < good.size(); ++position) {
    for (const int flip : {0x01, 0x80, 0xff}) {
      std::string bad = good;
      bad[position] = static_cast<char>(static_cast<unsigned char>(bad[position]) ^ flip);
      AnswerCache loaded;
      EXPECT_THROW(decode_bundle(bad, loaded), CacheFormatError)
          << "byte " << position << " xor " << flip;
      ++refused;
    }
  }
  EXPECT_EQ(refused, 3 * good.size());
}

TEST(CacheFormatTest, EveryTruncationIsRefused) {
  AnswerCache cache;
  fill_small(cache);
  const std::string good = encode_bundle(cache);
  for (std::size_t length = 0; length < good.size(); ++length) {
    AnswerCache loaded;
    EXPECT_THROW(decode_bundle(std::string_view(good).substr(0, length), loaded), CacheFormatError)
        << "length " << length;
    EXPECT_EQ(loaded.size(), 0u) << "a refused file must add nothing, length " << length;
  }
}

TEST(CacheFormatTest, TrailingBytesAreRefused) {
  AnswerCache cache;
  fill_small(cache);
  AnswerCache loaded;
  EXPECT_THROW(decode_bundle(encode_bundle(cache) + "x", loaded), CacheFormatError);
}

// Rewrites one little-endian header field.
std::string with_field(std::string bytes, std::size_t offset, std::uint32_t value) {
  for (std::size_t k = 0; k < 4; ++k)
    bytes[offset + k] = static_cast<char>((value >> (8 * k)) & 0xff);
  return bytes;
}

std::string refusal_reason(std::string_view bytes) {
  AnswerCache loaded;
  try {
    decode_bundle(bytes, loaded);
  } catch (const CacheFormatError& error) {
    return error.what();
  }
  return "(accepted)";
}

TEST(CacheFormatTest, AFutureFormatVersionIsRefusedByName) {
  AnswerCache cache;
  fill_small(cache);
  const std::string future = with_field(encode_bundle(cache), 8, kBundleFormatVersion + 1);
  EXPECT_EQ(refusal_reason(future),
            cat("format version ", kBundleFormatVersion + 1, ", but this gamebatch reads version ",
                kBundleFormatVersion, " only"));
}

TEST(CacheFormatTest, AnotherBoostArchiveVersionIsRefused) {
  AnswerCache cache;
  const std::string bytes = encode_bundle(cache);
  const std::string other = with_field(bytes, 12, 9999);
  EXPECT_NE(refusal_reason(other).find("Boost archive version 9999"), std::string::npos);
}

TEST(CacheFormatTest, AnotherPlatformIsRefusedAndPointsToExport) {
  AnswerCache cache;
  std::string bytes = encode_bundle(cache);
  bytes[16] = bytes[16] == 1 ? 2 : 1;  // the other byte order
  EXPECT_NE(refusal_reason(bytes).find("another platform"), std::string::npos);
  EXPECT_NE(refusal_reason(bytes).find("cache export"), std::string::npos);
}

TEST(CacheFormatTest, NotACacheAtAllIsSaidSo) {
  EXPECT_NE(refusal_reason("Case #1: 200\n").find("not a gamebatch cache"), std::string::npos);
  EXPECT_NE(refusal_reason("").find("not a gamebatch cache"), std::string::npos);
}

TEST(CacheFormatTest, ALargeCacheOfShortEntriesRoundTrips) {
  AnswerCache cache;
  std::mt19937_64 random(7);
  for (int k = 0; k < 20000; ++k)
    add(cache, entry(k % 2 ? "willow" : "wallgame", cat(random(), "\n"), cat(random() % 1000)));
  AnswerCache loaded;
  decode_bundle(encode_bundle(cache), loaded);
  EXPECT_EQ(sorted_entries(loaded), sorted_entries(cache));
}

// ---------------------------------------------------------------- files and the lock

class CacheFileTest : public ::testing::Test {
 protected:
  gamebatch::testing::TestDirectory scratch_{"gamebatch_cache_file"};
  const fs::path dir_ = scratch_.path();
};

TEST_F(CacheFileTest, SaveThenLoadAndNoTemporaryFileIsLeft) {
  AnswerCache cache;
  fill_small(cache);
  save_bundle_file(dir_ / "sub" / "answers.cache", cache);
  AnswerCache loaded;
  load_bundle_file(dir_ / "sub" / "answers.cache", loaded);
  EXPECT_EQ(sorted_entries(loaded), sorted_entries(cache));
  std::vector<std::string> names;
  for (const auto& file : fs::directory_iterator(dir_ / "sub"))
    names.push_back(file.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"answers.cache"});
}

TEST_F(CacheFileTest, MissingFileIsAnIoErrorNotAFormatError) {
  AnswerCache loaded;
  EXPECT_THROW(load_bundle_file(dir_ / "absent.cache", loaded), std::system_error);
}

}  // namespace
}  // namespace gamebatch::io
