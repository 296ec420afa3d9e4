// End-to-end tests of the answer cache as an SQLite store (format version 2): which cases it keeps
// (--cache-min-solve-us), a damaged record, a byte flipped anywhere in the file, `cache stats`,
// `trim`, `export --format bundle`, `import`, and version-1 caches imported on first use.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <optional>
#include <thread>

#include "cli_fixture.hpp"

namespace {

using namespace gamebatch::testing;

// Small test cases are below the default --cache-min-solve-us: tests of what the cache does with
// the cases it keeps pass this.
const std::vector<std::string> kCacheEveryCase = {"--cache-min-solve-us", "0"};

class CacheStoreCliTest : public CliTest {
 protected:
  Result cached_solve(const std::string& game, const std::string& cache, const std::string& out,
                      const std::vector<std::string>& inputs,
                      const std::vector<std::string>& extra = kCacheEveryCase) const {
    std::vector<std::string> args = {"solve", "--problem", game, "--cache", cache, "--out", out};
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), inputs.begin(), inputs.end());
    return run(args);
  }

  // The N of `cache stats`'s `entries: N` line.
  std::optional<std::size_t> entries_of(const std::string& cache) const {
    const Result stats = cache_command({"stats", cache});
    EXPECT_EQ(stats.status, 0) << stats.err;
    return stats_entries(stats);
  }

  // `count` willow files DIR/DIR-K.in of `cases` random cases of `cities` cities each.
  void write_willow_set(const std::string& dir, int count, int cases, int cities,
                        std::uint64_t seed) const {
    std::mt19937_64 rng(seed);
    for (int file = 0; file < count; ++file) {
      std::vector<std::string> all;
      for (int k = 0; k < cases; ++k)
        all.push_back(willow_case(Shape::random, cities, 10'000, rng));
      write_text(at(cat(dir, "/", dir, "-", file, ".in")), willow_file(all));
    }
  }

  // The answers of a --no-cache run of `inputs`, written under `out`.
  std::map<std::string, std::string> plain_answers(const std::string& game, const std::string& out,
                                                   const std::vector<std::string>& inputs) const {
    std::vector<std::string> args = {"solve", "--problem", game, "--no-cache", "--out", out};
    args.insert(args.end(), inputs.begin(), inputs.end());
    const Result plain = run(args);
    EXPECT_EQ(plain.status, 0) << plain.err;
    return answers_under(at(out));
  }
};

std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> found;
  for (const std::string& line : lines_of(text)) {
    if (starts_with(line, prefix))
      found.push_back(line);
  }
  return found;
}

// ---------------------------------------------------------------- which cases are kept

TEST_F(CacheStoreCliTest, TinyCasesSkipTheCacheByDefaultAndZeroCachesEveryCase) {
  write_willow_set("tiny", 3, 3, 6, 201);   // estimated well below the default threshold
  write_willow_set("big", 1, 2, 300, 202);  // about a millisecond each
  const std::map<std::string, std::string> plain =
      plain_answers("willow", "plain", {"tiny", "big"});

  // The default threshold: the tiny cases are neither stored nor looked up, the big ones are.
  const std::vector<std::string> by_default = {};
  const Result cold = cached_solve("willow", "answers.cache", "out", {"tiny"}, by_default);
  ASSERT_EQ(cold.status, 0) << cold.err;
  const Result warm = cached_solve("willow", "answers.cache", "out", {"tiny"}, by_default);
  ASSERT_EQ(warm.status, 0) << warm.err;
  EXPECT_EQ(summary_of(warm).solved, 9u);
  EXPECT_EQ(summary_of(warm).cached, 0u);
  EXPECT_EQ(entries_of("answers.cache"), 0u);
  ASSERT_EQ(cached_solve("willow", "answers.cache", "out", {"tiny", "big"}, by_default).status, 0);
  EXPECT_EQ(entries_of("answers.cache"), 2u);
  const Result mixed = cached_solve("willow", "answers.cache", "out", {"tiny", "big"}, by_default);
  EXPECT_EQ(summary_of(mixed).solved, 9u);
  EXPECT_EQ(summary_of(mixed).cached, 2u);
  EXPECT_EQ(answers_under(at("out")), plain);

  // 0: every case is stored, and the warm run is all cached.
  ASSERT_EQ(cached_solve("willow", "answers.cache", "out", {"tiny", "big"}).status, 0);
  EXPECT_EQ(entries_of("answers.cache"), 11u);
  const Result all = cached_solve("willow", "answers.cache", "out", {"tiny", "big"});
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_EQ(summary_of(all).solved, 0u);
  EXPECT_EQ(summary_of(all).cached, 11u);
  EXPECT_EQ(answers_under(at("out")), plain);

  // A threshold above every case: nothing is even looked up, although all are stored.
  const Result none = cached_solve("willow", "answers.cache", "out", {"tiny", "big"},
                                   {"--cache-min-solve-us", "1e9"});
  EXPECT_EQ(summary_of(none).solved, 11u);
  EXPECT_EQ(summary_of(none).cached, 0u);
  EXPECT_EQ(answers_under(at("out")), plain);

  for (const char* bad : {"-1", "ten", ""}) {
    const Result refused =
        cached_solve("willow", "answers.cache", "bad-out", {"tiny"}, {"--cache-min-solve-us", bad});
    EXPECT_EQ(refused.status, 2) << bad;
    EXPECT_FALSE(fs::exists(at("bad-out"))) << bad;
  }
}

// ---------------------------------------------------------------- damage

TEST_F(CacheStoreCliTest, ADamagedRecordIsReportedSolvedAgainAndRepaired) {
  copy_data("sample.in", at("in/sample.in"));
  ASSERT_EQ(cached_solve("willow", "answers.cache", "out", {"in"}).status, 0);
  std::string bytes = read_text(at("answers.cache"));
  const std::size_t offset = answer_offset(bytes, "willow", "5100");  // case 3's answer
  ASSERT_NE(offset, std::string::npos);
  bytes[offset] = static_cast<char>(bytes[offset] ^ 0x01);  // "4100"
  write_text(at("answers.cache"), bytes);

  const Result verify = cache_command({"verify", "answers.cache"});
  EXPECT_EQ(verify.status, 1);
  EXPECT_EQ(count_containing(error_lines(verify.err),
                             "answers.cache: damaged: 1 records fail their checksum"),
            1u)
      << verify.err;
  const Result exported = cache_command({"export", "answers.cache"});
  EXPECT_EQ(exported.status, 0) << exported.err;
  EXPECT_EQ(lines_of(exported.out).size(), 2u);
  EXPECT_EQ(exported.out.find("4100"), std::string::npos);
  EXPECT_EQ(count_containing(lines_of(exported.err), "1 damaged records left out"), 1u)
      << exported.err;

  // The run never answers from the damaged record: it solves the case again and replaces it.
  const Result run_over = cached_solve("willow", "answers.cache", "again", {"in"});
  ASSERT_EQ(run_over.status, 0) << run_over.err;
  EXPECT_EQ(summary_of(run_over).solved, 1u);
  EXPECT_EQ(summary_of(run_over).cached, 2u);
  EXPECT_EQ(read_text(at("again/sample.ans")), read_text(data_file("sample.ans")));
  EXPECT_TRUE(lines_starting(run_over.err, "gamebatch: warning: ").empty()) << run_over.err;

  const Result repaired = cache_command({"verify", "answers.cache"});
  EXPECT_EQ(repaired.status, 0) << repaired.err;
  EXPECT_EQ(repaired.out, "answers.cache: sound (format version 2, entries: 3, artefacts: 0)\n");
  const Result warm = cached_solve("willow", "answers.cache", "warm", {"in"});
  EXPECT_EQ(summary_of(warm).solved, 0u);
  EXPECT_EQ(summary_of(warm).cached, 3u);
  EXPECT_EQ(read_text(at("warm/sample.ans")), read_text(data_file("sample.ans")));
}

TEST_F(CacheStoreCliTest, ACaseTextThatIsNotItsKeysIsReportedAndLeftOutOfExportsAndMerges) {
  copy_data("sample.in", at("in/sample.in"));
  ASSERT_EQ(cached_solve("willow", "answers.cache", "out", {"in"}).status, 0);
  // The sample's third case in canonical form holds "150\n200\n0\n5000\n": its 5000 becomes 4000.
  std::string bytes = read_text(at("answers.cache"));
  const std::size_t offset = bytes.find("150\n200\n0\n5000\n");
  ASSERT_NE(offset, std::string::npos);
  ASSERT_EQ(bytes.find("150\n200\n0\n5000\n", offset + 1), std::string::npos);
  bytes[offset + 10] = static_cast<char>(bytes[offset + 10] ^ 0x01);
  write_text(at("answers.cache"), bytes);

  const Result verify = cache_command({"verify", "answers.cache"});
  EXPECT_EQ(verify.status, 1);
  EXPECT_EQ(count_containing(error_lines(verify.err),
                             "answers.cache: 1 entries are stored under a "
                             "key that is not their case's hash"),
            1u)
      << verify.err;
  const Result exported = cache_command({"export", "answers.cache"});
  EXPECT_EQ(exported.status, 0) << exported.err;
  EXPECT_EQ(lines_of(exported.out).size(), 2u);
  EXPECT_EQ(count_containing(lines_of(exported.err), "1 damaged records left out"), 1u)
      << exported.err;
  const Result merge = cache_command({"merge", "merged.cache", "answers.cache"});
  EXPECT_EQ(merge.status, 1);
  EXPECT_FALSE(fs::exists(at("merged.cache")));

  // A look-up goes by the key and checks the answer, never the case text: the answer is still the
  // one of the key's case.
  const Result warm = cached_solve("willow", "answers.cache", "warm", {"in"});
  ASSERT_EQ(warm.status, 0) << warm.err;
  EXPECT_EQ(summary_of(warm).cached, 3u);
  EXPECT_EQ(read_text(at("warm/sample.ans")), read_text(data_file("sample.ans")));
}

// A byte flipped in the schema can leave valid SQL that names a column otherwise
// ("canonical_case" becomes "canonical_casd"), which a look-up does not use but storing does.
// The commands must say so (not crash), and the cache must work again after one run.
TEST_F(CacheStoreCliTest, AColumnRenamedInTheSchemaNeitherCrashesACommandNorDisablesTheCache) {
  copy_data("sample.in", at("in/sample.in"));
  write_willow_set("more", 1, 2, 30, 210);
  ASSERT_EQ(cached_solve("willow", "answers.cache", "out", {"in"}).status, 0);
  std::string bytes = read_text(at("answers.cache"));
  const std::size_t column = bytes.find("canonical_case BLOB");
  ASSERT_NE(column, std::string::npos);
  bytes[column + 13] = static_cast<char>(bytes[column + 13] ^ 0x01);
  const auto damage = [&] {
    for (const char* name : {"answers.cache-wal", "answers.cache-shm", "answers.cache.bad"})
      fs::remove(at(name));
    write_text(at("answers.cache"), bytes);
  };

  for (const char* command : {"stats", "verify", "export"}) {
    SCOPED_TRACE(command);
    damage();
    const Result result = cache_command({command, "answers.cache"});
    EXPECT_EQ(result.status, 1) << result.err;
    EXPECT_EQ(count_containing(error_lines(result.err), "answers.cache"), 1u) << result.err;
  }

  damage();
  const std::map<std::string, std::string> plain = plain_answers("willow", "plain", {"in", "more"});
  const Result first = cached_solve("willow", "answers.cache", "first", {"in", "more"});
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(answers_under(at("first")), plain);
  const Result second = cached_solve("willow", "answers.cache", "second", {"in", "more"});
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(answers_under(at("second")), plain);
  EXPECT_EQ(summary_of(second).solved, 0u) << first.err << second.err;
}

// A page SQLite cannot read (here the answers' root page, its cell pointers zeroed): every command
// says so and fails, none crashes; a run goes on without the cache and the next one has a sound
// cache again.
TEST_F(CacheStoreCliTest, ADamagedPageMakesCommandsFailWithAReasonAndRunsGoOn) {
  copy_data("sample.in", at("in/sample.in"));
  ASSERT_EQ(cached_solve("willow", "answers.cache", "out", {"in"}).status, 0);
  std::string bytes = read_text(at("answers.cache"));
  ASSERT_GE(bytes.size(), 2 * 4096u);
  std::fill(bytes.begin() + 4096 + 8, bytes.begin() + 4096 + 32, '\0');
  const auto damage = [&] {
    for (const char* name : {"answers.cache-wal", "answers.cache-shm", "answers.cache.bad"})
      fs::remove(at(name));
    write_text(at("answers.cache"), bytes);
  };

  const std::vector<std::vector<std::string>> commands = {
      {"stats", "answers.cache"},
      {"verify", "answers.cache"},
      {"export", "answers.cache"},
      {"export", "answers.cache", "--format", "bundle", "-o", "x.bundle"},
      {"trim", "answers.cache", "--max-size", "1G"},
      {"import", "other.cache", "answers.cache"},
      {"merge", "merged.cache", "answers.cache"}};
  for (const std::vector<std::string>& command : commands) {
    SCOPED_TRACE(command[0]);
    damage();
    const Result result = cache_command(command);
    EXPECT_EQ(result.status, 1) << result.err;
    EXPECT_EQ(count_containing(error_lines(result.err), "answers.cache"), 1u) << result.err;
  }
  EXPECT_FALSE(fs::exists(at("merged.cache")));

  damage();
  const Result first = cached_solve("willow", "answers.cache", "first", {"in"});
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(read_text(at("first/sample.ans")), read_text(data_file("sample.ans")));
  const Result second = cached_solve("willow", "answers.cache", "second", {"in"});
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(read_text(at("second/sample.ans")), read_text(data_file("sample.ans")));
  EXPECT_EQ(cache_command({"verify", "answers.cache"}).status, 0);
  const Result third = cached_solve("willow", "answers.cache", "third", {"in"});
  EXPECT_EQ(summary_of(third).cached, 3u) << first.err << second.err << third.err;
}

// The strongest check of damage handling: one byte flipped at a time, every 193rd byte of a small
// cache (85 runs), each on a fresh copy. Whatever SQLite and the record checksums notice or miss,
// every run must end normally with the answers of a run without a cache; a file that cannot be
// trusted is set aside with a warning naming it.
TEST_F(CacheStoreCliTest, AByteFlippedAnywhereNeverFailsARunNorChangesAnAnswer) {
  copy_data("sample.in", at("in/sample.in"));
  write_willow_set("in", 2, 3, 30, 203);
  const std::map<std::string, std::string> plain = plain_answers("willow", "plain", {"in"});
  ASSERT_EQ(cached_solve("willow", "good.cache", "first", {"in"}).status, 0);
  const std::string good = read_text(at("good.cache"));
  ASSERT_GE(good.size(), 4096u);

  std::size_t set_aside = 0;
  std::size_t solved_again = 0;
  constexpr std::size_t kStride = 193;
  for (std::size_t offset = 0; offset < good.size(); offset += kStride) {
    SCOPED_TRACE(cat("byte ", offset));
    std::string bad = good;
    bad[offset] = static_cast<char>(bad[offset] ^ (offset % 2 == 0 ? 0xff : 0x01));
    for (const char* name : {"answers.cache", "answers.cache.bad", "answers.cache-wal",
                             "answers.cache-shm", "answers.cache.bad-wal", "answers.cache.bad-shm"})
      fs::remove(at(name));
    fs::remove_all(at("out"));
    write_text(at("answers.cache"), bad);

    const Result result = cached_solve("willow", "answers.cache", "out", {"in"});
    ASSERT_EQ(result.status, 0) << result.err;
    EXPECT_TRUE(error_lines(result.err).empty()) << result.err;
    const Summary summary = summary_of(result);
    EXPECT_EQ(summary.solved + summary.cached, 9u);
    ASSERT_EQ(answers_under(at("out")), plain) << result.err;
    if (fs::exists(at("answers.cache.bad"))) {
      ++set_aside;
      EXPECT_GE(
          count_containing(lines_starting(result.err, "gamebatch: warning: "), "answers.cache"), 1u)
          << result.err;
    }
    solved_again += summary.solved != 0 ? 1 : 0;
  }
  EXPECT_GE(set_aside, 1u);  // byte 0: the magic
  std::cout << "flipped " << (good.size() + kStride - 1) / kStride
            << " bytes one at a time: " << set_aside << " set aside, " << solved_again
            << " runs solved some cases again\n";
}

// ---------------------------------------------------------------- stats

TEST_F(CacheStoreCliTest, StatsDescribeEntriesPerVersionAgesAndArtefacts) {
  copy_data("sample.in", at("in/sample.in"));
  ASSERT_EQ(cached_solve("willow", "answers.cache", "out", {"in"}).status, 0);
  fs::copy_file(cache_fixture("stale.bundle"), at("stale.bundle"));
  const Result imported = cache_command({"import", "answers.cache", "stale.bundle"});
  ASSERT_EQ(imported.status, 0) << imported.err;

  const Result stats = cache_command({"stats", "answers.cache"});
  ASSERT_EQ(stats.status, 0) << stats.err;
  const std::vector<std::string> lines = lines_of(stats.out);
  ASSERT_EQ(lines.size(), 11u) << stats.out;
  EXPECT_EQ(lines[0], "file: answers.cache");
  EXPECT_EQ(lines[1], "format version: 2 (SQLite)");
  std::smatch size;
  ASSERT_TRUE(std::regex_match(lines[2], size, std::regex(R"(size: (\d+) bytes \((\d+\.\d) MB\))")))
      << lines[2];
  EXPECT_EQ(std::stoull(size[1]), fs::file_size(at("answers.cache")));
  EXPECT_EQ(lines[3], "entries: 6");
  EXPECT_EQ(lines[4], "  willow, solver version 1: 3 (0.0 MB of cases and answers)");
  EXPECT_EQ(lines[5],
            "  willow, solver version 99: 3 (0.0 MB of cases and answers) stale: another solver "
            "version, never reused");
  EXPECT_EQ(lines[6], "stale entries: 3 (removed by 'gamebatch cache trim')");
  EXPECT_EQ(lines[7], "last used: 6 within a day, 0 within a week, 0 within 30 days, 0 earlier");
  EXPECT_EQ(lines[8], "artefacts: 1 (5 bytes)");
  EXPECT_EQ(lines[9],
            "  doublemove: states n=3 (version 99, 5 bytes, last used within the hour) stale");
  EXPECT_EQ(lines[10], "compiled programs: 0 in " + at("compiled").string() + " (0 bytes, 0.0 MB)");
  EXPECT_TRUE(stats.err.empty()) << stats.err;
  EXPECT_EQ(cache_files(at("answers.cache")), std::set<std::string>{"answers.cache"});
}

// ---------------------------------------------------------------- trim

TEST_F(CacheStoreCliTest, TrimDropsStaleEntriesAndArtefactsAndTheRunStillAnswers) {
  copy_data("sample.in", at("in/sample.in"));
  ASSERT_EQ(cached_solve("willow", "answers.cache", "out", {"in"}).status, 0);
  fs::copy_file(cache_fixture("stale.bundle"), at("stale.bundle"));
  ASSERT_EQ(cache_command({"import", "answers.cache", "stale.bundle"}).status, 0);
  ASSERT_EQ(entries_of("answers.cache"), 6u);
  // Entries of another solver version (their answer is "stale") are never hit.
  const Result before = cached_solve("willow", "answers.cache", "before", {"in"});
  EXPECT_EQ(summary_of(before).cached, 3u);
  EXPECT_EQ(read_text(at("before/sample.ans")), read_text(data_file("sample.ans")));

  const Result trim = cache_command({"trim", "answers.cache", "--max-size", "1G"});
  ASSERT_EQ(trim.status, 0) << trim.err;
  const std::vector<std::string> lines = lines_of(trim.err);
  ASSERT_EQ(lines.size(), 1u) << trim.err;
  std::smatch match;
  ASSERT_TRUE(std::regex_match(
      lines[0], match,
      std::regex(
          R"(trimmed answers\.cache: 3 stale entries and 0 least recently used entries or artefacts removed; )"
          R"(size (\d+) -> (\d+) bytes \(limit 1000000000\))")))
      << lines[0];
  EXPECT_LE(std::stoull(match[2]), std::stoull(match[1]));
  EXPECT_EQ(std::stoull(match[2]), fs::file_size(at("answers.cache")));

  const Result stats = cache_command({"stats", "answers.cache"});
  EXPECT_NE(stats.out.find("\nentries: 3\n"), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("\nstale entries: 0 "), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("\nartefacts: 0 (0 bytes)\n"), std::string::npos) << stats.out;
  EXPECT_EQ(stats.out.find("solver version 99"), std::string::npos) << stats.out;
  const Result after = cached_solve("willow", "answers.cache", "after", {"in"});
  ASSERT_EQ(after.status, 0) << after.err;
  EXPECT_EQ(summary_of(after).cached, 3u);
  EXPECT_EQ(read_text(at("after/sample.ans")), read_text(data_file("sample.ans")));
  EXPECT_EQ(cache_command({"verify", "answers.cache"}).status, 0);
  EXPECT_EQ(cache_files(at("answers.cache")), std::set<std::string>{"answers.cache"});
}

TEST_F(CacheStoreCliTest, TrimToASizeKeepsTheMostRecentlyUsedEntries) {
  write_willow_set("old", 4, 10, 60, 204);
  write_willow_set("new", 2, 10, 60, 205);
  const std::map<std::string, std::string> plain = plain_answers("willow", "plain", {"new"});
  ASSERT_EQ(cached_solve("willow", "answers.cache", "out-old", {"old"}).status, 0);
  // Last-use times are in seconds: the new entries must be used in a later second.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ASSERT_EQ(cached_solve("willow", "answers.cache", "out-new", {"new"}).status, 0);
  ASSERT_EQ(entries_of("answers.cache"), 60u);
  const auto size = fs::file_size(at("answers.cache"));
  const auto limit = size * 6 / 10;  // room for the 20 new entries, not for the 40 old ones

  const Result trim = cache_command({"trim", "answers.cache", "--max-size", std::to_string(limit)});
  ASSERT_EQ(trim.status, 0) << trim.err;
  std::smatch match;
  ASSERT_TRUE(std::regex_search(
      trim.err, match,
      std::regex(R"(0 stale entries and (\d+) least recently used entries or artefacts removed)")))
      << trim.err;
  const std::size_t removed = std::stoul(match[1]);
  EXPECT_GT(removed, 0u);
  EXPECT_LE(fs::file_size(at("answers.cache")), limit) << trim.err;
  EXPECT_EQ(entries_of("answers.cache"), 60u - removed);

  // Every recently used entry is still there; the old set lost what was removed.
  const Result recent = cached_solve("willow", "answers.cache", "warm-new", {"new"});
  ASSERT_EQ(recent.status, 0) << recent.err;
  EXPECT_EQ(summary_of(recent).solved, 0u);
  EXPECT_EQ(answers_under(at("warm-new")), plain);
  const Result old = cached_solve("willow", "answers.cache", "warm-old", {"old"});
  ASSERT_EQ(old.status, 0) << old.err;
  EXPECT_EQ(summary_of(old).solved, removed);
  EXPECT_EQ(answers_under(at("warm-old")), answers_under(at("out-old")));
  EXPECT_EQ(cache_command({"verify", "answers.cache"}).status, 0);
}

// Any limit that a cache without entries meets (its schema takes a few pages) can be met by
// dropping entries: trim must get there, however near that floor the limit is.
TEST_F(CacheStoreCliTest, TrimMeetsEveryLimitThatAnEmptyCacheMeets) {
  write_willow_set("set", 6, 10, 60, 209);
  ASSERT_EQ(cached_solve("willow", "full.cache", "out", {"set"}).status, 0);
  ASSERT_EQ(cache_command({"trim", "empty.cache", "--max-size", "1T"}).status, 1);  // missing
  ASSERT_EQ(cache_command({"import", "empty.cache", "full.cache"}).status, 0);
  ASSERT_EQ(cache_command({"trim", "empty.cache", "--max-size", "1"}).status, 0);
  ASSERT_EQ(entries_of("empty.cache"), 0u);
  const auto floor = fs::file_size(at("empty.cache"));
  const auto full = fs::file_size(at("full.cache"));
  ASSERT_GT(full, floor + 8192);
  for (auto limit = floor; limit < full; limit += 2048) {
    SCOPED_TRACE(cat("limit ", limit));
    fs::copy_file(at("full.cache"), at("trimmed.cache"), fs::copy_options::overwrite_existing);
    const Result trim =
        cache_command({"trim", "trimmed.cache", "--max-size", std::to_string(limit)});
    EXPECT_EQ(trim.status, 0) << trim.err;
    EXPECT_LE(fs::file_size(at("trimmed.cache")), limit) << trim.err;
    EXPECT_TRUE(lines_starting(trim.err, "gamebatch: warning: ").empty()) << trim.err;
  }
}

TEST_F(CacheStoreCliTest, TrimReadsEverySizeUnitAndRefusesABadSize) {
  copy_data("sample.in", at("in/sample.in"));
  ASSERT_EQ(cached_solve("willow", "answers.cache", "out", {"in"}).status, 0);
  const std::string before = read_text(at("answers.cache"));
  for (const char* bad : {"12X", "", "-5", "1.5G", "5 M", "1KiB", "M", "99999999999T", "0x10"}) {
    SCOPED_TRACE(bad);
    const Result refused = cache_command({"trim", "answers.cache", "--max-size", bad});
    EXPECT_EQ(refused.status, 2) << refused.err;
    EXPECT_EQ(read_text(at("answers.cache")), before);
  }
  const std::vector<std::pair<std::string, std::string>> sizes = {
      {"500000", "500000"},
      {"200k", "200000"},
      {"3K", "3000"},
      {"64M", "64000000"},
      {"2G", "2000000000"},
      {"1T", "1000000000000"},
      {"1Ki", "1024"},
      {"64Mi", "67108864"},
      {"2Gi", "2147483648"},
      {"1Ti", "1099511627776"},
      {"18446744073709551615", "18446744073709551615"}};
  for (const auto& [text, bytes] : sizes) {
    SCOPED_TRACE(text);
    write_text(at("copy.cache"), before);
    const Result trim = cache_command({"trim", "copy.cache", "--max-size", text});
    EXPECT_EQ(trim.status, 0) << trim.err;
    EXPECT_NE(trim.err.find("(limit " + bytes + ")\n"), std::string::npos) << trim.err;
  }
  const Result missing = cache_command({"trim", "missing.cache", "--max-size", "1M"});
  EXPECT_EQ(missing.status, 1);
  EXPECT_EQ(count_containing(error_lines(missing.err), "missing.cache"), 1u) << missing.err;
  EXPECT_FALSE(fs::exists(at("missing.cache")));
}

// ---------------------------------------------------------------- export and import

TEST_F(CacheStoreCliTest, AnExportedBundleImportsIntoAnEmptyCacheWithTheSameEntries) {
  copy_data("sample.in", at("willow/sample.in"));
  write_willow_set("willow", 2, 3, 25, 206);
  write_text(at("doublemove/examples.in"), read_test_file("doublemove/examples.in"));
  ASSERT_EQ(cached_solve("willow", "a.cache", "out", {"willow"}).status, 0);
  ASSERT_EQ(cached_solve("doublemove", "a.cache", "out-doublemove", {"doublemove"}).status, 0);

  const Result bundle =
      cache_command({"export", "a.cache", "--format", "bundle", "-o", "a.bundle"});
  ASSERT_EQ(bundle.status, 0) << bundle.err;
  EXPECT_TRUE(bundle.out.empty());
  const Result to_stdout = cache_command({"export", "a.cache", "--format", "bundle"});
  ASSERT_EQ(to_stdout.status, 0) << to_stdout.err;
  EXPECT_EQ(to_stdout.out, read_text(at("a.bundle")));
  EXPECT_TRUE(starts_with(read_text(at("a.bundle")), "GBCACHE\n"));
  const Result verify = cache_command({"verify", "a.bundle"});
  EXPECT_EQ(verify.status, 0) << verify.err;
  EXPECT_EQ(verify.out,
            "a.bundle: sound (a version-1 cache or bundle, entries: 14, artefacts: 3; a run "
            "imports it)\n");

  const Result imported = cache_command({"import", "b.cache", "a.bundle"});
  ASSERT_EQ(imported.status, 0) << imported.err;
  EXPECT_EQ(imported.err, "imported a.bundle: entries: 14 artefacts: 3\nb.cache: entries: 14\n");
  const Result a_lines = cache_command({"export", "a.cache"});
  const Result b_lines = cache_command({"export", "b.cache"});
  ASSERT_EQ(a_lines.status, 0) << a_lines.err;
  EXPECT_EQ(lines_of(a_lines.out).size(), 14u);
  EXPECT_EQ(b_lines.out, a_lines.out);
  const auto artefact_lines = [](const Result& stats) {
    std::vector<std::string> found;
    for (const std::string& line : lines_starting(stats.out, "  doublemove: states n="))
      found.push_back(line.substr(0, line.find(", last used")));
    return found;
  };
  const std::vector<std::string> a_artefacts = artefact_lines(cache_command({"stats", "a.cache"}));
  EXPECT_EQ(a_artefacts.size(), 3u);
  EXPECT_EQ(artefact_lines(cache_command({"stats", "b.cache"})), a_artefacts);

  // Importing it again adds nothing; the imported cache answers a run.
  const Result twice = cache_command({"import", "b.cache", "a.bundle"});
  EXPECT_EQ(twice.status, 0) << twice.err;
  EXPECT_NE(twice.err.find("\nb.cache: entries: 14\n"), std::string::npos) << twice.err;
  const Result warm = cached_solve("willow", "b.cache", "warm", {"willow"});
  EXPECT_EQ(summary_of(warm).solved, 0u);
  EXPECT_EQ(summary_of(warm).cached, 9u);
  EXPECT_EQ(answers_under(at("warm")), answers_under(at("out")));
}

TEST_F(CacheStoreCliTest, ImportFoldsEverySourceItCanReadAndFailsForTheOthers) {
  copy_data("sample.in", at("one/sample.in"));
  write_willow_set("two", 1, 2, 25, 207);
  ASSERT_EQ(cached_solve("willow", "one.cache", "out", {"one"}).status, 0);
  ASSERT_EQ(cached_solve("willow", "two.cache", "out", {"two"}).status, 0);
  ASSERT_EQ(cache_command({"export", "one.cache", "--format", "bundle", "-o", "one.bundle"}).status,
            0);
  write_text(at("junk.cache"), "not a cache at all\n");

  const Result imported = cache_command(
      {"import", "all.cache", "one.bundle", "junk.cache", "missing.cache", "two.cache"});
  EXPECT_EQ(imported.status, 1);
  EXPECT_EQ(
      count_containing(lines_of(imported.err), "imported one.bundle: entries: 3 artefacts: 0"), 1u)
      << imported.err;
  EXPECT_EQ(count_containing(lines_of(imported.err), "imported two.cache: entries: 2 artefacts: 0"),
            1u)
      << imported.err;
  const std::vector<std::string> errors = error_lines(imported.err);
  ASSERT_EQ(errors.size(), 2u) << imported.err;
  EXPECT_NE(errors[0].find("junk.cache"), std::string::npos) << errors[0];
  EXPECT_NE(errors[1].find("missing.cache"), std::string::npos) << errors[1];
  EXPECT_EQ(lines_of(imported.err).back(), "all.cache: entries: 5");
  EXPECT_EQ(entries_of("all.cache"), 5u);
  EXPECT_EQ(read_text(at("junk.cache")), "not a cache at all\n");  // a source is only read
  EXPECT_FALSE(fs::exists(at("missing.cache")));

  // Into a file that is not a cache: nothing is imported and the file is left alone.
  const Result into_junk = cache_command({"import", "junk.cache", "one.bundle"});
  EXPECT_EQ(into_junk.status, 1);
  EXPECT_EQ(count_containing(error_lines(into_junk.err), "junk.cache"), 1u) << into_junk.err;
  EXPECT_EQ(read_text(at("junk.cache")), "not a cache at all\n");
}

// ---------------------------------------------------------------- version-1 caches

// tests/data/cache/version1.cache is a version-1 cache (a bundle, as gamebatch 0.2 wrote it) of
// willow/sample.in and doublemove/examples.in, with the three doublemove tables they build.
TEST_F(CacheStoreCliTest, AVersionOneCacheIsImportedOnFirstUseAndAnswersCorrectly) {
  fs::copy_file(cache_fixture("version1.cache"), at("answers.cache"));
  copy_data("sample.in", at("willow/sample.in"));
  write_text(at("doublemove/examples.in"), read_test_file("doublemove/examples.in"));

  const Result first = cached_solve("willow", "answers.cache", "out", {"willow"});
  ASSERT_EQ(first.status, 0) << first.err;
  const std::vector<std::string> infos = lines_starting(first.err, "gamebatch: info: ");
  ASSERT_EQ(infos.size(), 1u) << first.err;
  EXPECT_EQ(infos[0],
            "gamebatch: info: imported the version-1 answer cache answers.cache (8 answers) into "
            "format version 2");
  EXPECT_TRUE(lines_starting(first.err, "gamebatch: warning: ").empty()) << first.err;
  EXPECT_EQ(summary_of(first).solved, 0u);
  EXPECT_EQ(summary_of(first).cached, 3u);
  EXPECT_EQ(read_text(at("out/sample.ans")), read_text(data_file("sample.ans")));

  // Imported once: the next run (of another game) reads the store.
  const Result second = cached_solve("doublemove", "answers.cache", "out", {"doublemove"});
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_TRUE(lines_starting(second.err, "gamebatch: info: ").empty()) << second.err;
  EXPECT_EQ(summary_of(second).solved, 0u);
  EXPECT_EQ(summary_of(second).cached, 5u);
  EXPECT_EQ(read_text(at("out/examples.ans")), read_test_file("doublemove/examples.ans"));

  const Result verify = cache_command({"verify", "answers.cache"});
  EXPECT_EQ(verify.status, 0) << verify.err;
  EXPECT_EQ(verify.out, "answers.cache: sound (format version 2, entries: 8, artefacts: 3)\n");
  const Result stats = cache_command({"stats", "answers.cache"});
  for (const char* table : {"states n=2", "states n=3", "states n=4"})
    EXPECT_NE(stats.out.find(cat("  doublemove: ", table, " (version ")), std::string::npos)
        << stats.out;
  const std::set<std::string> left = cache_files(at("answers.cache"));
  EXPECT_EQ(left.count("answers.cache-wal") + left.count("answers.cache-shm"), 0u);
}

TEST_F(CacheStoreCliTest, ADamagedVersionOneCacheIsSetAsideOrRefusedWhenStrict) {
  std::string bytes = read_text(cache_fixture("version1.cache"));
  bytes[bytes.size() - 5] = static_cast<char>(bytes[bytes.size() - 5] ^ 0x20);
  copy_data("sample.in", at("in/sample.in"));
  write_text(at("answers.cache"), bytes);

  const Result strict = cached_solve("willow", "answers.cache", "strict", {"in"},
                                     {"--cache-min-solve-us", "0", "--strict-cache"});
  EXPECT_EQ(strict.status, 2);
  EXPECT_EQ(count_containing(error_lines(strict.err), "cannot be trusted"), 1u) << strict.err;
  EXPECT_FALSE(fs::exists(at("strict")));
  EXPECT_EQ(read_text(at("answers.cache")), bytes);

  const Result result = cached_solve("willow", "answers.cache", "out", {"in"});
  ASSERT_EQ(result.status, 0) << result.err;
  const std::vector<std::string> warnings = lines_starting(result.err, "gamebatch: warning: ");
  ASSERT_EQ(warnings.size(), 1u) << result.err;
  EXPECT_NE(warnings[0].find("corrupted"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("set aside as answers.cache.bad"), std::string::npos) << warnings[0];
  EXPECT_EQ(read_text(at("answers.cache.bad")), bytes);
  EXPECT_EQ(summary_of(result).solved, 3u);
  EXPECT_EQ(read_text(at("out/sample.ans")), read_text(data_file("sample.ans")));
  EXPECT_EQ(cache_command({"verify", "answers.cache"}).status, 0);
}

TEST_F(CacheStoreCliTest, CacheImportAndVerifyTakeAVersionOneCache) {
  fs::copy_file(cache_fixture("version1.cache"), at("old.cache"));
  const std::string old_bytes = read_text(at("old.cache"));
  const Result verify = cache_command({"verify", "old.cache"});
  EXPECT_EQ(verify.status, 0) << verify.err;
  EXPECT_EQ(verify.out,
            "old.cache: sound (a version-1 cache or bundle, entries: 8, artefacts: 3; a run "
            "imports it)\n");

  const Result imported = cache_command({"import", "new.cache", "old.cache"});
  ASSERT_EQ(imported.status, 0) << imported.err;
  EXPECT_EQ(imported.err, "imported old.cache: entries: 8 artefacts: 3\nnew.cache: entries: 8\n");
  EXPECT_EQ(read_text(at("old.cache")), old_bytes);  // read, not converted

  copy_data("sample.in", at("in/sample.in"));
  const Result warm = cached_solve("willow", "new.cache", "out", {"in"});
  ASSERT_EQ(warm.status, 0) << warm.err;
  EXPECT_TRUE(lines_starting(warm.err, "gamebatch: info: ").empty()) << warm.err;
  EXPECT_EQ(summary_of(warm).cached, 3u);
  EXPECT_EQ(read_text(at("out/sample.ans")), read_text(data_file("sample.ans")));

  // A version-1 file as the cache that `import` adds to is converted first, then added to.
  fs::copy_file(cache_fixture("version1.cache"), at("target.cache"));
  write_willow_set("more", 1, 2, 25, 208);
  ASSERT_EQ(cached_solve("willow", "more.cache", "more-out", {"more"}).status, 0);
  const Result into_old = cache_command({"import", "target.cache", "more.cache"});
  ASSERT_EQ(into_old.status, 0) << into_old.err;
  EXPECT_EQ(lines_of(into_old.err).back(), "target.cache: entries: 10");
  EXPECT_EQ(cache_command({"verify", "target.cache"}).out,
            "target.cache: sound (format version 2, entries: 10, artefacts: 3)\n");
}

// The programs check, stress and build compiled beside the cache (DIR/compiled/KEY): stats counts
// them, and trim's SIZE covers them, the least recently used going first, none while in use.
TEST_F(CacheStoreCliTest, StatsShowsAndTrimRemovesCompiledProgramsLeastRecentlyUsedFirst) {
  copy_data("sample.in", at("in/sample.in"));
  ASSERT_EQ(cached_solve("willow", "answers.cache", "out", {"in"}).status, 0);
  const auto now = fs::file_time_type::clock::now();
  const std::vector<std::pair<std::string, std::chrono::hours>> programs = {
      {"0123456789abcdef0123456789abcdef", std::chrono::hours(24 * 40)},  // oldest
      {"fedcba9876543210fedcba9876543210", std::chrono::hours(24 * 2)},
      {"00000000000000000000000000000000", std::chrono::hours(0)},  // newest
  };
  for (const auto& [key, age] : programs) {
    write_text(at("compiled/" + key + "/program"), std::string(100000, 'x'));
    write_text(at("compiled/" + key + "/info"), "language: cpp\n");
    fs::last_write_time(at("compiled/" + key), now - age);
  }
  // Not entries: a half-made one and whatever else is there stay.
  write_text(at("compiled/0123456789abcdef0123456789abcdef.tmp.1.0/program"), "half");
  write_text(at("compiled/notes/read.me"), "mine");

  const Result stats = cache_command({"stats", "answers.cache"});
  ASSERT_EQ(stats.status, 0) << stats.err;
  EXPECT_NE(stats.out.find("compiled programs: 3 in " + at("compiled").string() + " (300042 bytes"),
            std::string::npos)
      << stats.out;
  EXPECT_NE(
      stats.out.find("last used: 1 within a day, 1 within a week, 0 within 30 days, 1 earlier"),
      std::string::npos)
      << stats.out;

  // Room for the answers and two programs: the oldest goes.
  const std::uint64_t answers = fs::file_size(at("answers.cache"));
  Result trim =
      cache_command({"trim", "answers.cache", "--max-size", std::to_string(answers + 250000)});
  ASSERT_EQ(trim.status, 0) << trim.err;
  EXPECT_NE(trim.err.find("1 least recently used compiled programs removed; size 300042 -> 200028"),
            std::string::npos)
      << trim.err;
  EXPECT_FALSE(fs::exists(at("compiled/" + programs[0].first)));
  EXPECT_TRUE(fs::exists(at("compiled/" + programs[1].first + "/program")));
  EXPECT_TRUE(fs::exists(at("compiled/" + programs[2].first + "/program")));
  EXPECT_TRUE(fs::exists(at("compiled/0123456789abcdef0123456789abcdef.tmp.1.0/program")));
  EXPECT_EQ(read_text(at("compiled/notes/read.me")), "mine");

  // A running check holds the store: nothing of it is removed, and trim says why.
  const int lock = ::open(at("compiled/.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(lock, 0);
  ASSERT_EQ(::flock(lock, LOCK_SH), 0);
  trim = cache_command({"trim", "answers.cache", "--max-size", std::to_string(answers)});
  EXPECT_EQ(trim.status, 0) << trim.err;
  EXPECT_NE(trim.err.find("in use by a running check"), std::string::npos) << trim.err;
  EXPECT_TRUE(fs::exists(at("compiled/" + programs[1].first + "/program")));
  ::close(lock);

  trim = cache_command({"trim", "answers.cache", "--max-size", std::to_string(answers)});
  EXPECT_EQ(trim.status, 0) << trim.err;
  EXPECT_FALSE(fs::exists(at("compiled/" + programs[1].first)));
  EXPECT_FALSE(fs::exists(at("compiled/" + programs[2].first)));
  EXPECT_EQ(read_text(at("compiled/notes/read.me")), "mine");
  const Result after = cache_command({"stats", "answers.cache"});
  EXPECT_NE(after.out.find("compiled programs: 0 in "), std::string::npos) << after.out;
}

}  // namespace
