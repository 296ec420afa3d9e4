// End-to-end tests of the answer cache: the gamebatch binary run twice, edited, killed, run
// concurrently, and its `cache` commands.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <functional>
#include <map>
#include <thread>

#include "cli_fixture.hpp"

namespace {

using namespace gamebatch::testing;

class CacheCliTest : public CliTest {
 protected:
  // A set of willow files: the practice file and a few generated ones of `cities` cities.
  void write_set(const fs::path& dir, int files, int cases_per_file, int cities, std::uint64_t seed,
                 Shape shape = Shape::random) {
    std::mt19937_64 rng(seed);
    for (int file = 0; file < files; ++file) {
      std::vector<std::string> cases;
      for (int k = 0; k < cases_per_file; ++k)
        cases.push_back(willow_case(shape, cities, 10000, rng));
      write_text(dir / cat("set-", file, ".in"), willow_file(cases));
    }
  }

  // A run with the cache answers.cache. These tests are about what the cache does with the cases
  // it keeps, and small cases are below the default --cache-min-solve-us: every case is cached
  // unless `extra` sets the threshold itself.
  Result solve_with_cache(const std::string& out, const std::string& input,
                          std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"--cache", "answers.cache", "--out", out};
    if (std::find(extra.begin(), extra.end(), "--cache-min-solve-us") == extra.end())
      args.insert(args.end(), {"--cache-min-solve-us", "0"});
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(input);
    return solve(args);
  }
};

TEST_F(CacheCliTest, WarmRunSolvesNothingAndWritesTheSameAnswers) {
  copy_data("D-small-practice.in", at("in/practice.in"));
  write_set(at("in"), 3, 4, 30, 1);
  const Result cold = solve_with_cache("cold", "in");
  ASSERT_EQ(cold.status, 0) << cold.err;
  const Summary cold_summary = summary_of(cold);
  EXPECT_EQ(cold_summary.cases, 62u);
  EXPECT_EQ(cold_summary.solved + cold_summary.cached, 62u);

  const Result warm = solve_with_cache("warm", "in");
  ASSERT_EQ(warm.status, 0) << warm.err;
  const Summary warm_summary = summary_of(warm);
  EXPECT_EQ(warm_summary.solved, 0u);
  EXPECT_EQ(warm_summary.cached, 62u);

  const Result uncached = solve({"--no-cache", "--out", "plain", "in"});
  ASSERT_EQ(uncached.status, 0) << uncached.err;
  EXPECT_EQ(answers_under(at("warm")), answers_under(at("cold")));
  EXPECT_EQ(answers_under(at("warm")), answers_under(at("plain")));
  // A closed cache is its file alone: no log, no index, no lock file left beside it.
  EXPECT_EQ(cache_files(at("answers.cache")), std::set<std::string>{"answers.cache"});
}

TEST_F(CacheCliTest, WithTheDefaultThresholdTinyCasesAreNeitherStoredNorLookedUp) {
  write_set(at("in"), 2, 3, 8, 13);
  ASSERT_EQ(solve({"--cache", "answers.cache", "--out", "cold", "in"}).status, 0);
  const Result warm = solve({"--cache", "answers.cache", "--out", "warm", "in"});
  ASSERT_EQ(warm.status, 0) << warm.err;
  EXPECT_EQ(summary_of(warm).solved, 6u);
  EXPECT_EQ(summary_of(warm).cached, 0u);
  EXPECT_NE(warm.err.find(" cached: 0 "), std::string::npos) << warm.err;
  const Result stats = cache_command({"stats", "answers.cache"});
  EXPECT_NE(stats.out.find("\nentries: 0\n"), std::string::npos) << stats.out;

  // The same runs caching every case.
  ASSERT_EQ(solve_with_cache("cold-all", "in").status, 0);
  const Result warm_all = solve_with_cache("warm-all", "in");
  ASSERT_EQ(warm_all.status, 0) << warm_all.err;
  EXPECT_EQ(summary_of(warm_all).solved, 0u);
  EXPECT_EQ(summary_of(warm_all).cached, 6u);
  EXPECT_NE(cache_command({"stats", "answers.cache"}).out.find("\nentries: 6\n"),
            std::string::npos);
  EXPECT_EQ(answers_under(at("warm-all")), answers_under(at("warm")));
}

TEST_F(CacheCliTest, WarmRunLeavesTheCacheFileAsItWas) {
  write_set(at("in"), 2, 3, 20, 2);
  ASSERT_EQ(solve_with_cache("out", "in").status, 0);
  const std::string before = read_text(at("answers.cache"));
  ASSERT_EQ(solve_with_cache("out", "in").status, 0);
  EXPECT_EQ(read_text(at("answers.cache")), before);
}

TEST_F(CacheCliTest, EditingOneCaseSolvesOnlyThatCase) {
  write_set(at("in"), 3, 5, 25, 3);
  ASSERT_EQ(solve_with_cache("out", "in").status, 0);
  // Change the first coin of the second case of set-1.in.
  std::vector<std::string> lines = lines_of(read_text(at("in/set-1.in")));
  const std::size_t second_case_first_coin = 1 + (1 + 25 + 24) + 1;
  ASSERT_LT(second_case_first_coin, lines.size());
  lines[second_case_first_coin] = lines[second_case_first_coin] == "7" ? "8" : "7";
  std::string edited;
  for (const std::string& line : lines)
    edited += line + "\n";
  write_text(at("in/set-1.in"), edited);

  const Result rerun = solve_with_cache("out", "in");
  ASSERT_EQ(rerun.status, 0) << rerun.err;
  const Summary summary = summary_of(rerun);
  EXPECT_EQ(summary.solved, 1u);
  EXPECT_EQ(summary.cached, 14u);
  ASSERT_EQ(solve({"--no-cache", "--out", "plain", "in"}).status, 0);
  EXPECT_EQ(answers_under(at("out")), answers_under(at("plain")));
}

TEST_F(CacheCliTest, SameCasesElsewhereReorderedAndRespacedAreHits) {
  std::mt19937_64 rng(4);
  std::vector<std::string> cases;
  for (int k = 0; k < 4; ++k)
    cases.push_back(willow_case(Shape::random, 12, 100, rng));
  write_text(at("a/first.in"), willow_file(cases));
  ASSERT_EQ(solve_with_cache("out-a", "a").status, 0);

  // Another directory and name, the cases reversed, every line end CRLF plus extra blanks.
  std::vector<std::string> reversed(cases.rbegin(), cases.rend());
  std::string respaced;
  for (const std::string& line : lines_of(willow_file(reversed)))
    respaced += "  " + line + " \r\n\n";
  write_text(at("b/deeper/other.in"), respaced);
  const Result rerun = solve_with_cache("out-b", "b");
  ASSERT_EQ(rerun.status, 0) << rerun.err;
  const Summary summary = summary_of(rerun);
  EXPECT_EQ(summary.solved, 0u);
  EXPECT_EQ(summary.cached, 4u);
}

TEST_F(CacheCliTest, KilledRunKeepsItsCheckpointsAndTheRerunMatches) {
  // Enough work for a few seconds on one thread: 40 files of two spiders of combs of 8000 cities
  // (willow's pruned search solves a random tree or a path of the size in a few milliseconds).
  write_set(at("in"), 40, 2, 8000, 5, Shape::spider);
  const pid_t child = start({"solve", "--problem", "willow", "--jobs", "1", "--checkpoint", "0.2",
                             "--cache", "answers.cache", "--out", "out", "in"});
  // Wait for a checkpoint with some answers in it, then kill the run without warning.
  bool checkpointed = false;
  for (int k = 0; k < 18000 && !checkpointed; ++k) {  // 180 s: sanitizer builds are slow
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    checkpointed = fs::exists(at("answers.cache")) && fs::exists(at("out/set-3.ans"));
  }
  ::kill(child, SIGKILL);
  const Result killed = finish(child);
  ASSERT_TRUE(checkpointed) << "no checkpoint within 180 s: " << killed.err;
  if (killed.status != 128 + SIGKILL)
    GTEST_SKIP() << "the run finished before it could be killed; make the set bigger";

  const Result rerun = solve_with_cache("out", "in", {"--jobs", "2"});
  ASSERT_EQ(rerun.status, 0) << rerun.err;
  const Summary summary = summary_of(rerun);
  EXPECT_GT(summary.cached, 0u);
  EXPECT_LT(summary.solved, 80u);
  EXPECT_EQ(summary.solved + summary.cached, 80u);

  ASSERT_EQ(solve({"--no-cache", "--jobs", "2", "--out", "plain", "in"}).status, 0);
  EXPECT_EQ(answers_under(at("out")), answers_under(at("plain")));  // no partial or temp file
  const Result verify = cache_command({"verify", "answers.cache"});
  EXPECT_EQ(verify.status, 0) << verify.err;
  // The killed run's log was folded in by the rerun, which left the file alone behind it.
  EXPECT_EQ(cache_files(at("answers.cache")), std::set<std::string>{"answers.cache"});
}

// A cache file that cannot be trusted, four ways. (A byte flipped inside the file need not make
// it untrustworthy: see CacheStoreCliTest.AByteFlippedAnywhereNeverFailsARunNorChangesAnAnswer.)
std::vector<std::pair<std::string, std::function<std::string(const std::string&)>>> file_damages() {
  return {
      {"garbage", [](const std::string&) { return std::string("not a cache at all\n"); }},
      {"flipped header byte",
       [](const std::string& good) {
         std::string bad = good;
         bad[3] = static_cast<char>(bad[3] ^ 0x20);  // "SQLite format 3" is the magic
         return bad;
       }},
      {"truncated", [](const std::string& good) { return good.substr(0, good.size() - 7); }},
      {"bytes appended", [](const std::string& good) { return good + "tail"; }},
  };
}

TEST_F(CacheCliTest, UntrustworthyCacheIsSetAsideAndTheRunGoesOnCold) {
  write_set(at("in"), 2, 3, 20, 6);
  ASSERT_EQ(solve({"--no-cache", "--out", "plain", "in"}).status, 0);
  ASSERT_EQ(solve_with_cache("first", "in").status, 0);
  const std::string good = read_text(at("answers.cache"));
  for (const auto& [name, damage] : file_damages()) {
    SCOPED_TRACE(name);
    const std::string bad = damage(good);
    write_text(at("answers.cache"), bad);
    fs::remove(at("answers.cache.bad"));
    const Result result = solve_with_cache("again-" + name, "in");
    EXPECT_EQ(result.status, 0) << result.err;
    const std::vector<std::string> lines = lines_of(result.err);
    EXPECT_EQ(count_containing(lines, "warning: the answer cache answers.cache cannot be trusted"),
              1u)
        << result.err;
    EXPECT_EQ(summary_of(result).solved, 6u);
    EXPECT_EQ(read_text(at("answers.cache.bad")), bad);
    EXPECT_EQ(answers_under(at("again-" + name)), answers_under(at("plain")));
    const Result verify = cache_command({"verify", "answers.cache"});
    EXPECT_EQ(verify.status, 0) << verify.err;
    EXPECT_EQ(verify.out, "answers.cache: sound (format version 2, entries: 6, artefacts: 0)\n");
  }
}

TEST_F(CacheCliTest, StrictCacheRefusesAnUntrustworthyCache) {
  write_set(at("in"), 1, 2, 10, 7);
  write_text(at("answers.cache"), "not a cache at all\n");
  const Result result = solve_with_cache("out", "in", {"--strict-cache"});
  EXPECT_EQ(result.status, 2);
  EXPECT_EQ(count_containing(error_lines(result.err), "cannot be trusted"), 1u) << result.err;
  EXPECT_FALSE(fs::exists(at("out")));
  EXPECT_EQ(read_text(at("answers.cache")), "not a cache at all\n");
}

TEST_F(CacheCliTest, TwoConcurrentRunsKeepBothSetsOfAnswers) {
  write_set(at("one"), 6, 2, 400, 8);
  write_set(at("two"), 6, 2, 400, 9);
  const auto args = [](const std::string& set) {
    return std::vector<std::string>{"solve", "--problem", "willow",        "--jobs",
                                    "1",     "--cache",   "answers.cache", "--checkpoint",
                                    "0.05",  "--out",     "out-" + set,    set};
  };
  const pid_t first = start(args("one"), "one");
  const pid_t second = start(args("two"), "two");
  const Result one = finish(first, "one");
  const Result two = finish(second, "two");
  ASSERT_EQ(one.status, 0) << one.err;
  ASSERT_EQ(two.status, 0) << two.err;

  const Result stats = cache_command({"stats", "answers.cache"});
  ASSERT_EQ(stats.status, 0) << stats.err;
  EXPECT_NE(stats.out.find("\nentries: 24\n"), std::string::npos) << stats.out;
  EXPECT_EQ(cache_files(at("answers.cache")), std::set<std::string>{"answers.cache"});
  for (const std::string set : {"one", "two"}) {
    const Result warm = solve_with_cache("warm-" + set, set);
    EXPECT_EQ(summary_of(warm).solved, 0u) << set;
  }
}

TEST_F(CacheCliTest, NoCacheTouchesNoCacheAndTheDefaultLivesUnderXdg) {
  write_set(at("in"), 1, 2, 10, 10);
  const Result plain = solve({"--no-cache", "--out", "plain", "in"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_FALSE(fs::exists(root_ / "xdg-cache"));
  EXPECT_EQ(summary_of(plain).solved, 2u);

  ASSERT_EQ(solve({"--cache-min-solve-us", "0", "--out", "first", "in"}).status, 0);
  EXPECT_EQ(files_under(root_ / "xdg-cache"), std::set<std::string>{"gamebatch/answers.cache"});
  const Result second = solve({"--cache-min-solve-us", "0", "--out", "second", "in"});
  EXPECT_EQ(summary_of(second).cached, 2u);
}

TEST_F(CacheCliTest, StatsExportMergeAndVerifyAgreeWithTheAnswers) {
  write_set(at("a"), 1, 3, 15, 11);
  write_set(at("b"), 1, 2, 15, 12);
  ASSERT_EQ(
      solve({"--cache", "a.cache", "--cache-min-solve-us", "0", "--out", "out-a", "a"}).status, 0);
  ASSERT_EQ(
      solve({"--cache", "b.cache", "--cache-min-solve-us", "0", "--out", "out-b", "b"}).status, 0);

  const Result stats = cache_command({"stats", "a.cache"});
  ASSERT_EQ(stats.status, 0) << stats.err;
  EXPECT_NE(stats.out.find("\nformat version: 2 (SQLite)\n"), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("\nentries: 3\n"), std::string::npos) << stats.out;
  EXPECT_TRUE(std::regex_search(stats.out, std::regex(R"(\n  willow, solver version \d+: 3 \()")))
      << stats.out;
  EXPECT_NE(stats.out.find("\nstale entries: 0 "), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("\nlast used: 3 within a day, 0 within a week, 0 within 30 days, "
                           "0 earlier\n"),
            std::string::npos)
      << stats.out;

  const Result exported = cache_command({"export", "a.cache", "--format", "jsonl"});
  ASSERT_EQ(exported.status, 0) << exported.err;
  const std::string answers = read_text(at("out-a/set-0.ans"));
  std::size_t lines = 0;
  for (const std::string& line : lines_of(exported.out)) {
    const nlohmann::json entry = nlohmann::json::parse(line);
    EXPECT_EQ(entry.at("game"), "willow");
    EXPECT_TRUE(std::regex_match(entry.at("key").get<std::string>(), std::regex("[0-9a-f]{32}")));
    EXPECT_FALSE(entry.at("case").get<std::string>().empty());
    EXPECT_NE(answers.find(": " + entry.at("answer").get<std::string>() + "\n"), std::string::npos);
    ++lines;
  }
  EXPECT_EQ(lines, 3u);

  const Result merged = cache_command({"merge", "all.cache", "a.cache", "b.cache"});
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_NE(cache_command({"stats", "all.cache"}).out.find("\nentries: 5\n"), std::string::npos);
  const Result verify = cache_command({"verify", "all.cache"});
  EXPECT_EQ(verify.status, 0) << verify.err;
  EXPECT_EQ(verify.out, "all.cache: sound (format version 2, entries: 5, artefacts: 0)\n");

  write_text(at("broken.cache"), "junk");
  const Result bad_merge = cache_command({"merge", "none.cache", "a.cache", "broken.cache"});
  EXPECT_EQ(bad_merge.status, 1);
  EXPECT_FALSE(fs::exists(at("none.cache")));
  EXPECT_EQ(cache_command({"merge", "none.cache", "a.cache", "missing.cache"}).status, 1);
  EXPECT_FALSE(fs::exists(at("none.cache")));
  const Result bad_verify = cache_command({"verify", "broken.cache"});
  EXPECT_EQ(bad_verify.status, 1);
  EXPECT_EQ(count_containing(error_lines(bad_verify.err), "broken.cache: not a gamebatch cache"),
            1u)
      << bad_verify.err;
}

}  // namespace
