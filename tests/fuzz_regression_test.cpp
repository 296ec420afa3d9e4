// What the libFuzzer targets (tests/fuzz, tools/fuzz.sh) found, kept as tests. The inputs they
// found are in tests/data/fuzz, named TARGET-what, in that target's input layout (run one again
// with build-fuzz/tests/fuzz/TARGET_fuzz FILE).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "io/cache/answer_cache.hpp"
#include "io/cache/cache_store.hpp"
#include "tests/fuzz/bundle_support.hpp"
#include "tests/fuzz/package_reader_support.hpp"
#include "tests/test_data.hpp"

namespace {

namespace io = gamebatch::io;
using gamebatch::fuzz::bundle_with_header;
using gamebatch::testing::read_test_file;

// A bundle payload as Boost's binary archive writes it (layout beside encode_bundle): one entry
// and one artefact. `broken` names the string whose length is replaced by 2^62, or is empty.
std::string payload(std::string_view broken = "") {
  std::string bytes;
  const auto put = [&bytes](std::uint64_t value, std::size_t size) {
    for (std::size_t k = 0; k < size; ++k)
      bytes.push_back(static_cast<char>((value >> (8 * k)) & 0xff));
  };
  const auto put_string = [&](std::string_view name, std::string_view text) {
    put(name == broken ? std::uint64_t{1} << 62 : text.size(), sizeof(std::size_t));
    bytes += text;
  };
  put(1, 8);  // entries
  put(0x0123456789abcdef, 8);
  put(0xfedcba9876543210, 8);
  put_string("game", "willow");
  put(1, 4);
  put_string("case", "1\n5\n");
  put_string("answer", "5");
  put(1, 8);  // artefacts
  put_string("artefact game", "doublemove");
  put_string("artefact name", "states n=1");
  put(1, 4);
  put_string("artefact bytes", "table");
  return bytes;
}

TEST(FuzzRegression, HandWrittenPayloadDecodes) {
  io::AnswerCache cache;
  ASSERT_NO_THROW(io::decode_bundle(bundle_with_header(payload()), cache));
  EXPECT_EQ(cache.find_answer({0x0123456789abcdef, 0xfedcba9876543210}), "5");
  ASSERT_EQ(cache.artefacts_of("doublemove").size(), 1u);
  EXPECT_EQ(cache.artefacts_of("doublemove").front().bytes, "table");
}

// Found by bundle_import and cache_record: a sound header over a payload whose string announces
// more bytes than the payload holds made Boost resize the string to that length first (a
// terabyte-sized allocation). Every string length is now checked against the bytes left.
TEST(FuzzRegression, StringLongerThanThePayloadIsRefusedBeforeAllocating) {
  for (const char* broken :
       {"game", "case", "answer", "artefact game", "artefact name", "artefact bytes"}) {
    SCOPED_TRACE(broken);
    io::AnswerCache cache;
    try {
      io::decode_bundle(bundle_with_header(payload(broken)), cache);
      ADD_FAILURE() << "decoded";
    } catch (const io::CacheFormatError& error) {
      EXPECT_NE(std::string(error.what()).find("string longer than the bytes left"),
                std::string::npos)
          << error.what();
    }
    EXPECT_EQ(cache.size(), 0u);
  }
}

TEST(FuzzRegression, FoundBundlesWithAStringLongerThanThePayloadAreRefused) {
  const std::string found_by_bundle_import =
      read_test_file("fuzz/bundle_import-string-longer-than-payload");
  // cache_record's first byte picks the decoder (3: a bundle payload).
  const std::string found_by_cache_record =
      read_test_file("fuzz/cache_record-string-longer-than-payload");
  ASSERT_FALSE(found_by_cache_record.empty());
  ASSERT_EQ(found_by_cache_record.front(), '\3');
  for (const std::string& found : {found_by_bundle_import, found_by_cache_record.substr(1)}) {
    io::AnswerCache cache;
    EXPECT_THROW(io::decode_bundle(bundle_with_header(found), cache), io::CacheFormatError);
  }
}

TEST(FuzzRegression, ImportOfABundleWithAStringLongerThanThePayloadFails) {
  gamebatch::testing::TestDirectory scratch("gamebatch_fuzz_regression");
  const auto bundle = scratch.path() / "found.bundle";
  gamebatch::testing::write_text(
      bundle, bundle_with_header(read_test_file("fuzz/bundle_import-string-longer-than-payload")));
  io::AnswerCache cache;
  EXPECT_THROW(io::load_bundle_file(bundle, cache), io::CacheFormatError);
  io::CacheStore into(scratch.path() / "into.cache", io::CacheStore::Mode::read_write);
  EXPECT_THROW(io::import_cache_file(into, bundle), io::CacheFormatError);
  EXPECT_EQ(into.entry_count(), 0u);
}

// Found by cache_store: a file with SQLite's magic whose header SQLite refuses ("unsupported file
// format") failed the first pragma with a std::runtime_error, so a run went on without its cache
// every time instead of setting the damaged file aside. It is a StoreFormatError now.
TEST(FuzzRegression, StoreWithAHeaderSQLiteRefusesIsAFormatError) {
  gamebatch::testing::TestDirectory scratch("gamebatch_fuzz_regression");
  const std::string found = read_test_file("fuzz/cache_store-unsupported-file-format");
  const auto path = scratch.path() / "found.cache";
  for (const auto mode : {io::CacheStore::Mode::read_only, io::CacheStore::Mode::read_write}) {
    gamebatch::testing::write_text(path, found);  // a reader may write: a fresh copy each time
    ASSERT_EQ(io::classify_cache_file(path), io::CacheFileKind::store);
    EXPECT_THROW(io::CacheStore(path, mode), io::StoreFormatError);
  }
  gamebatch::testing::write_text(path, found);
  io::CacheStore into(scratch.path() / "into.cache", io::CacheStore::Mode::read_write);
  EXPECT_THROW(io::import_cache_file(into, path), io::CacheFormatError);
}

// The package readers' seeds (tests/fuzz/seeds/NAME) and findings (tests/data/fuzz/NAME-*), as
// their libFuzzer targets read them: each reads or is refused with a UsageError, and what reads is
// sound (tests/fuzz/package_reader_support.hpp).
TEST(FuzzRegression, PackageReaderSeedsAndFindingsKeepTheProperty) {
  namespace fs = std::filesystem;
  using gamebatch::fuzz::PackageFile;
  const std::vector<std::pair<std::string, PackageFile>> readers = {
      {"package_plan", PackageFile::plan},
      {"problem_yaml", PackageFile::problem_yaml},
      {"submissions_yaml", PackageFile::submissions_yaml},
      {"group_yaml", PackageFile::group_yaml},
      {"task_yaml", PackageFile::task_yaml},
      {"problem_xml", PackageFile::problem_xml}};
  gamebatch::testing::TestDirectory scratch("gamebatch_fuzz_regression");
  const fs::path seeds = fs::path(GAMEBATCH_TEST_DATA).parent_path() / "fuzz" / "seeds";
  for (const auto& [name, file] : readers) {
    std::vector<fs::path> inputs;
    for (const auto& entry : fs::directory_iterator(seeds / name))
      inputs.push_back(entry.path());
    for (const auto& entry : fs::directory_iterator(fs::path(GAMEBATCH_TEST_DATA) / "fuzz")) {
      if (entry.path().filename().string().starts_with(name + "-"))
        inputs.push_back(entry.path());
    }
    EXPECT_FALSE(inputs.empty()) << name;
    std::sort(inputs.begin(), inputs.end());
    for (const fs::path& input : inputs) {
      SCOPED_TRACE(input.string());
      const std::string bytes = gamebatch::testing::read_text(input);
      EXPECT_NO_THROW(gamebatch::fuzz::check_package_reader(file, bytes, scratch.path()));
    }
  }
}

}  // namespace
