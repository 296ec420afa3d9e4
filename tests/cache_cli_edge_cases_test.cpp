// End-to-end tests of the answer cache that go beyond cache_cli_test.cpp: runs that share cases
// while they run at the same time, how cases may be spelled, every reason a cache is refused, and
// what `cache export` and `cache merge` promise.
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <functional>
#include <map>
#include <optional>

#include "cli_fixture.hpp"

namespace {

using namespace gamebatch::testing;

std::vector<std::string> random_cases(int count, int cities, std::mt19937_64& rng) {
  std::vector<std::string> cases;
  for (int k = 0; k < count; ++k)
    cases.push_back(willow_case(Shape::random, cities, 10'000, rng));
  return cases;
}

// What identifies one version of a file: a rewrite with the same bytes still changes it.
struct FileStamp {
  ino_t inode = 0;
  std::int64_t modified_ns = 0;
  off_t size = 0;
  friend bool operator==(const FileStamp&, const FileStamp&) = default;
};

FileStamp stamp_of(const fs::path& path) {
  struct stat status {};
  EXPECT_EQ(::stat(path.c_str(), &status), 0) << path;
  return {status.st_ino,
          static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec,
          status.st_size};
}

// Sets an environment variable for one scope; the children the test starts inherit it.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name))
      old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedVariable() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// Ways to make a sound cache file untrustworthy, each with the reason the warning must give: not
// SQLite at all, a damaged SQLite header, a file cut short or with bytes appended (the header's
// page count against the file's length), and another format version or another program's database
// (SQLite's user_version and application_id). A byte flipped in the pages need not make the file
// untrustworthy: see CacheStoreCliTest.AByteFlippedAnywhereNeverFailsARunNorChangesAnAnswer.
struct Damage {
  std::string name;
  std::function<std::string(const std::string&)> apply;
  std::string reason;
};

std::vector<Damage> damages() {
  const auto flip = [](std::size_t offset) {
    return [offset](const std::string& good) {
      std::string bad = good;
      bad[offset] = static_cast<char>(bad[offset] ^ 0x01);
      return bad;
    };
  };
  return {
      {"garbage", [](const std::string&) { return std::string("not a cache at all\n"); },
       "not a gamebatch cache"},
      {"magic byte flipped", flip(0), "not a gamebatch cache"},
      {"cut inside the header", [](const std::string& good) { return good.substr(0, 60); },
       "truncated"},
      {"cut inside a page", [](const std::string& good) { return good.substr(0, good.size() - 7); },
       "truncated"},
      {"a page cut off", [](const std::string& good) { return good.substr(0, good.size() - 4096); },
       "truncated"},
      {"bytes appended", [](const std::string& good) { return good + "tail"; }, "damaged"},
      {"page size damaged", flip(16), "page size"},
      {"other format version", flip(63), "format version 3"},
      {"another program's database", flip(68), "another program"},
  };
}

class CliCacheTest : public CliTest {
 protected:
  // A run with the cache `cache` that caches every case: these tests are about what the cache does
  // with the cases it keeps, and small cases are below the default --cache-min-solve-us.
  Result cached_solve(const std::string& cache, const std::string& out,
                      const std::vector<std::string>& inputs,
                      const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> args = {"--cache", cache, "--cache-min-solve-us", "0", "--out", out};
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), inputs.begin(), inputs.end());
    return solve(args);
  }

  // The answers of a --no-cache run of `inputs`, written under `out`.
  std::map<std::string, std::string> plain_answers(const std::string& out,
                                                   const std::vector<std::string>& inputs) const {
    std::vector<std::string> args = {"--no-cache", "--out", out};
    args.insert(args.end(), inputs.begin(), inputs.end());
    const Result plain = solve(args);
    EXPECT_EQ(plain.status, 0) << plain.err;
    return answers_under(at(out));
  }

  std::optional<std::size_t> cache_entries(const std::string& cache) const {
    const Result stats = cache_command({"stats", cache});
    EXPECT_EQ(stats.status, 0) << stats.err;
    return stats_entries(stats);
  }
};

// ---------------------------------------------------------------- concurrent runs

TEST_F(CliCacheTest, ConcurrentRunsSharingCasesStoreEachDistinctCaseOnce) {
  // Three sets solved at the same time into one cache: they share cases with each other, and one
  // file repeats a case. Checkpoints every 20 ms make the runs take turns merging many times.
  std::mt19937_64 rng(101);
  const std::vector<std::string> shared = random_cases(3, 700, rng);
  const std::vector<std::string> a = random_cases(7, 700, rng);
  const std::vector<std::string> b = random_cases(7, 700, rng);
  const std::vector<std::string> c = random_cases(7, 700, rng);
  const std::map<std::string, std::vector<std::vector<std::string>>> sets = {
      {"one", {{a[0], a[1], shared[0]}, {shared[1], a[2], a[2]}, {a[3], a[4]}, {a[5], a[6]}}},
      {"two", {{b[0], shared[0], shared[1]}, {b[1], shared[2], b[2]}, {b[3], b[4], b[5], b[6]}}},
      {"three", {{shared[2], c[0], c[1]}, {a[0], b[0], c[2]}, {c[3], c[4]}, {c[5], c[6]}}},
  };
  std::set<std::string> distinct;
  for (const auto& [name, files] : sets) {
    for (std::size_t k = 0; k < files.size(); ++k) {
      write_text(at(cat(name, "/f", k, ".in")), willow_file(files[k]));
      distinct.insert(files[k].begin(), files[k].end());
    }
  }
  ASSERT_EQ(distinct.size(), 24u);

  std::map<std::string, pid_t> running;
  for (const auto& [name, files] : sets) {
    running[name] = start({"solve", "--problem", "willow", "--jobs", "1", "--checkpoint", "0.02",
                           "--cache", "shared.cache", "--out", "out-" + name, name},
                          name);
  }
  std::map<std::string, Result> results;  // every child is waited for before any check
  for (const auto& [name, child] : running)
    results[name] = finish(child, name);
  for (const auto& [name, result] : results)
    ASSERT_EQ(result.status, 0) << name << ": " << result.err;

  EXPECT_EQ(cache_entries("shared.cache"), distinct.size());
  const Result verify = cache_command({"verify", "shared.cache"});
  EXPECT_EQ(verify.status, 0) << verify.err;
  for (const auto& [name, files] : sets) {
    SCOPED_TRACE(name);
    EXPECT_EQ(answers_under(at("out-" + name)), plain_answers("plain-" + name, {name}));
    const Result warm = cached_solve("shared.cache", "warm-" + name, {name});
    ASSERT_EQ(warm.status, 0) << warm.err;
    EXPECT_EQ(summary_of(warm).solved, 0u);
    EXPECT_EQ(answers_under(at("warm-" + name)), answers_under(at("out-" + name)));
  }
}

// ---------------------------------------------------------------- keys

TEST_F(CliCacheTest, CacheKeyIgnoresNumberSpellingTabsAndBlankLines) {
  std::mt19937_64 rng(102);
  const std::vector<std::string> cases = random_cases(4, 15, rng);
  write_text(at("plain/cases.in"), willow_file(cases));
  const Result cold = cached_solve("answers.cache", "out-plain", {"plain"});
  ASSERT_EQ(cold.status, 0) << cold.err;
  ASSERT_EQ(summary_of(cold).solved, 4u);

  // The same numbers spelled "+004" or "04", separated by tabs, spaces and blank lines, five to a
  // line: the parser reads the same cases, so their canonical text and keys are the same.
  std::string respelled;
  int column = 0;
  for (const std::string& line : lines_of(willow_file(cases))) {
    respelled += (column % 2 == 0 ? "+00" : "0") + line;
    respelled += ++column % 5 == 0 ? "\n\n\t" : "\t \t";
  }
  write_text(at("respelled/cases.in"), respelled);
  const Result warm = cached_solve("answers.cache", "out-respelled", {"respelled"});
  ASSERT_EQ(warm.status, 0) << warm.err;
  const Summary counts = summary_of(warm);
  EXPECT_EQ(counts.solved, 0u);
  EXPECT_EQ(counts.cached, 4u);
  EXPECT_EQ(read_text(at("out-respelled/cases.ans")), read_text(at("out-plain/cases.ans")));
  EXPECT_EQ(cache_entries("answers.cache"), 4u);
}

TEST_F(CliCacheTest, RevertingAnEditIsAnsweredFromTheCache) {
  std::mt19937_64 rng(103);
  const std::vector<std::string> cases = random_cases(5, 20, rng);
  write_text(at("in/cases.in"), willow_file(cases));
  ASSERT_EQ(cached_solve("answers.cache", "out", {"in"}).status, 0);
  const std::string original_answers = read_text(at("out/cases.ans"));
  EXPECT_EQ(cache_entries("answers.cache"), 5u);

  // The third case's first coin (the line after its city count) gets another value.
  std::vector<std::string> lines = lines_of(cases[2]);
  lines[1] = lines[1] == "7" ? "8" : "7";
  std::string edited_case;
  for (const std::string& line : lines)
    edited_case += line + "\n";
  std::vector<std::string> edited = cases;
  edited[2] = edited_case;
  write_text(at("in/cases.in"), willow_file(edited));
  const Result after_edit = cached_solve("answers.cache", "out", {"in"});
  ASSERT_EQ(after_edit.status, 0) << after_edit.err;
  EXPECT_EQ(summary_of(after_edit).solved, 1u);
  // The old case's answer is kept beside the new one: the cache only grows.
  EXPECT_EQ(cache_entries("answers.cache"), 6u);
  EXPECT_EQ(answers_under(at("out")), plain_answers("plain-edited", {"in"}));

  write_text(at("in/cases.in"), willow_file(cases));
  const Result reverted = cached_solve("answers.cache", "out", {"in"});
  ASSERT_EQ(reverted.status, 0) << reverted.err;
  EXPECT_EQ(summary_of(reverted).solved, 0u);
  EXPECT_EQ(summary_of(reverted).cached, 5u);
  EXPECT_EQ(read_text(at("out/cases.ans")), original_answers);
}

// ---------------------------------------------------------------- damaged caches

TEST_F(CliCacheTest, SetAsideWarningNamesTheFileAndTheReason) {
  std::mt19937_64 rng(104);
  write_text(at("in/cases.in"), willow_file(random_cases(3, 20, rng)));
  const std::map<std::string, std::string> expected = plain_answers("plain", {"in"});
  ASSERT_EQ(cached_solve("answers.cache", "first", {"in"}).status, 0);
  const std::string good = read_text(at("answers.cache"));
  ASSERT_GT(good.size(), 2 * 4096u);

  for (const Damage& damage : damages()) {
    SCOPED_TRACE(damage.name);
    const std::string bad = damage.apply(good);
    write_text(at("answers.cache"), bad);
    fs::remove(at("answers.cache.bad"));
    fs::remove_all(at("out"));
    const Result result = cached_solve("answers.cache", "out", {"in"});
    EXPECT_EQ(result.status, 0) << result.err;
    std::vector<std::string> warnings;
    for (const std::string& line : lines_of(result.err)) {
      if (starts_with(line, "gamebatch: warning: "))
        warnings.push_back(line);
    }
    ASSERT_EQ(warnings.size(), 1u) << result.err;
    EXPECT_NE(warnings[0].find("answers.cache"), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find(damage.reason), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find("set aside as answers.cache.bad"), std::string::npos) << warnings[0];
    EXPECT_TRUE(error_lines(result.err).empty()) << result.err;
    EXPECT_EQ(summary_of(result).solved, 3u);
    EXPECT_EQ(read_text(at("answers.cache.bad")), bad);
    EXPECT_EQ(answers_under(at("out")), expected);
    EXPECT_EQ(cache_entries("answers.cache"), 3u);  // the new cache holds the cold run's answers
    EXPECT_EQ(cache_command({"verify", "answers.cache"}).status, 0);

    // `cache verify` gives the same reason for the damaged bytes.
    const Result verify = cache_command({"verify", "answers.cache.bad"});
    EXPECT_EQ(verify.status, 1);
    EXPECT_EQ(count_containing(error_lines(verify.err), damage.reason), 1u) << verify.err;
  }
}

TEST_F(CliCacheTest, StrictCacheRefusesEveryKindOfDamageAndTouchesNothing) {
  std::mt19937_64 rng(105);
  write_text(at("in/cases.in"), willow_file(random_cases(2, 20, rng)));
  ASSERT_EQ(cached_solve("answers.cache", "first", {"in"}).status, 0);
  const std::string good = read_text(at("answers.cache"));

  for (const Damage& damage : damages()) {
    SCOPED_TRACE(damage.name);
    const std::string bad = damage.apply(good);
    write_text(at("answers.cache"), bad);
    const Result result = cached_solve("answers.cache", "out", {"in"}, {"--strict-cache"});
    EXPECT_EQ(result.status, 2) << result.err;
    const std::vector<std::string> errors = error_lines(result.err);
    ASSERT_EQ(errors.size(), 1u) << result.err;
    EXPECT_NE(errors[0].find("answers.cache"), std::string::npos) << errors[0];
    EXPECT_NE(errors[0].find(damage.reason), std::string::npos) << errors[0];
    EXPECT_FALSE(fs::exists(at("out")));
    EXPECT_FALSE(fs::exists(at("answers.cache.bad")));
    EXPECT_EQ(read_text(at("answers.cache")), bad);
  }
}

TEST_F(CliCacheTest, AnEmptyCacheFileIsANewCache) {
  // What a run killed while creating the cache leaves: nothing to distrust, nothing to set aside.
  std::mt19937_64 rng(109);
  write_text(at("in/cases.in"), willow_file(random_cases(2, 20, rng)));
  write_text(at("answers.cache"), "");
  const Result strict = cached_solve("answers.cache", "strict-out", {"in"}, {"--strict-cache"});
  ASSERT_EQ(strict.status, 0) << strict.err;
  EXPECT_EQ(cache_entries("answers.cache"), 2u);
  fs::remove(at("answers.cache"));
  write_text(at("answers.cache"), "");
  const Result result = cached_solve("answers.cache", "out", {"in"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(lines_of(result.err).size(), 1u) << result.err;  // the summary alone
  EXPECT_FALSE(fs::exists(at("answers.cache.bad")));
  EXPECT_EQ(cache_entries("answers.cache"), 2u);
  EXPECT_EQ(answers_under(at("out")), answers_under(at("strict-out")));
}

TEST_F(CliCacheTest, UnreadableCacheIsLeftAloneAndTheRunGoesOn) {
  // A directory where the cache file should be: it cannot be read, so it must be neither set
  // aside nor replaced.
  fs::create_directories(at("answers.cache/keep"));
  write_text(at("in/sample.in"), read_text(data_file("sample.in")));
  const Result result = cached_solve("answers.cache", "out", {"in"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(
      count_containing(lines_of(result.err), "warning: cannot read the answer cache answers.cache"),
      1u)
      << result.err;
  EXPECT_EQ(read_text(at("out/sample.ans")), read_text(data_file("sample.ans")));
  EXPECT_TRUE(fs::is_directory(at("answers.cache/keep")));
  EXPECT_FALSE(fs::exists(at("answers.cache.bad")));

  const Result strict = cached_solve("answers.cache", "strict-out", {"in"}, {"--strict-cache"});
  EXPECT_EQ(strict.status, 2) << strict.err;
  EXPECT_EQ(count_containing(error_lines(strict.err), "answers.cache"), 1u) << strict.err;
  EXPECT_FALSE(fs::exists(at("strict-out")));
}

// ---------------------------------------------------------------- options and location

TEST_F(CliCacheTest, CacheWithNoCacheIsAUsageError) {
  write_text(at("in/sample.in"), read_text(data_file("sample.in")));
  const Result result = solve({"--cache", "answers.cache", "--no-cache", "--out", "out", "in"});
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_EQ(files_under(work_), std::set<std::string>{"in/sample.in"});
}

TEST_F(CliCacheTest, RelativeXdgCacheHomeIsIgnoredForHomeCache) {
  // The XDG base directory spec says a relative $XDG_CACHE_HOME is invalid and must be ignored.
  const ScopedVariable home("HOME", (root_ / "home").string());
  const ScopedVariable xdg("XDG_CACHE_HOME", "relative-cache");
  write_text(at("in/sample.in"), read_text(data_file("sample.in")));
  ASSERT_EQ(solve({"--cache-min-solve-us", "0", "--out", "first", "in"}).status, 0);
  EXPECT_TRUE(fs::is_regular_file(root_ / "home/.cache/gamebatch/answers.cache"));
  EXPECT_FALSE(fs::exists(at("relative-cache")));
  const Result second = solve({"--cache-min-solve-us", "0", "--out", "second", "in"});
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(summary_of(second).cached, 3u);
}

TEST_F(CliCacheTest, AnUnusableDefaultCacheOnlyWarns) {
  // The default location lies under a regular file: no cache can live there.
  write_text(at("not-a-directory"), "x");
  const ScopedVariable xdg("XDG_CACHE_HOME", at("not-a-directory").string());
  write_text(at("in/sample.in"), read_text(data_file("sample.in")));
  const Result result = solve({"--out", "out", "in"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(count_containing(lines_of(result.err), "warning: cannot use the default answer cache"),
            1u)
      << result.err;
  EXPECT_EQ(read_text(at("out/sample.ans")), read_text(data_file("sample.ans")));
  // Named explicitly, the same place is a configuration error.
  const Result named = solve({"--cache", "not-a-directory/answers.cache", "--out", "out2", "in"});
  EXPECT_EQ(named.status, 2) << named.err;
  EXPECT_FALSE(fs::exists(at("out2")));
}

TEST_F(CliCacheTest, AnEmptyCacheNameIsAUsageError) {
  write_text(at("in/sample.in"), read_text(data_file("sample.in")));
  EXPECT_EQ(solve({"--cache", "", "in"}).status, 2);
  EXPECT_FALSE(fs::exists(root_ / "xdg-cache"));
}

TEST_F(CliCacheTest, WarmRunDoesNotRewriteTheCacheFile) {
  // Many small files keep the warm run going long enough for a few 1 ms checkpoints.
  std::mt19937_64 rng(106);
  for (int k = 0; k < 150; ++k)
    write_text(at(cat("in/f", k, ".in")), willow_file(random_cases(2, 40, rng)));
  ASSERT_EQ(cached_solve("answers.cache", "out", {"in"}).status, 0);
  const std::string bytes = read_text(at("answers.cache"));
  const FileStamp before = stamp_of(at("answers.cache"));

  const Result warm = cached_solve("answers.cache", "out", {"in"}, {"--checkpoint", "0.001"});
  ASSERT_EQ(warm.status, 0) << warm.err;
  EXPECT_EQ(summary_of(warm).solved, 0u);
  EXPECT_EQ(read_text(at("answers.cache")), bytes);
  // Not even rewritten with the same bytes: a new inode or time would mean it was.
  EXPECT_EQ(stamp_of(at("answers.cache")), before);
}

// ---------------------------------------------------------------- cache commands

TEST_F(CliCacheTest, ExportedCasesSolveToTheirExportedAnswers) {
  std::mt19937_64 rng(107);
  const std::vector<std::string> cases = random_cases(6, 25, rng);
  write_text(at("in/a.in"), willow_file({cases[0], cases[1], cases[2], cases[0]}));
  write_text(at("in/b.in"), willow_file({cases[3], cases[4], cases[5]}));
  copy_data("sample.in", at("in/sample.in"));
  ASSERT_EQ(cached_solve("answers.cache", "out", {"in"}).status, 0);

  const Result exported = cache_command({"export", "answers.cache", "--format", "jsonl"});
  ASSERT_EQ(exported.status, 0) << exported.err;
  std::set<std::string> keys;
  std::vector<std::string> answers;
  for (const std::string& line : lines_of(exported.out)) {
    const nlohmann::json entry = nlohmann::json::parse(line);
    ASSERT_TRUE(entry.is_object()) << line;
    EXPECT_EQ(entry.at("game"), "willow");
    EXPECT_TRUE(entry.at("solver_version").is_number_unsigned()) << line;
    const std::string key = entry.at("key").get<std::string>();
    EXPECT_TRUE(std::regex_match(key, std::regex("[0-9a-f]{32}"))) << key;
    keys.insert(key);
    // Each exported case, alone in a file, must be a valid input that has the exported answer.
    write_text(at(cat("check/", answers.size(), ".in")),
               "1\n" + entry.at("case").get<std::string>());
    answers.push_back(entry.at("answer").get<std::string>());
  }
  ASSERT_EQ(answers.size(), 9u);  // six generated cases and the sample's three
  EXPECT_EQ(keys.size(), answers.size());

  const Result checked = solve({"--no-cache", "--out", "check-out", "check"});
  ASSERT_EQ(checked.status, 0) << checked.err;
  for (std::size_t k = 0; k < answers.size(); ++k) {
    EXPECT_EQ(read_text(at(cat("check-out/", k, ".ans"))), "Case #1: " + answers[k] + "\n")
        << "entry " << k;
  }
  // The exported text is canonical: read back, it is the same case, already in the cache.
  const Result warm = cached_solve("answers.cache", "warm-check", {"check"});
  ASSERT_EQ(warm.status, 0) << warm.err;
  EXPECT_EQ(summary_of(warm).solved, 0u);
  EXPECT_EQ(summary_of(warm).cached, answers.size());
}

TEST_F(CliCacheTest, MergeIsAnOrderIndependentUnion) {
  std::mt19937_64 rng(108);
  const std::vector<std::string> cases = random_cases(7, 20, rng);
  write_text(at("a/x.in"), willow_file({cases[0], cases[1], cases[2], cases[3]}));
  write_text(at("b/y.in"), willow_file({cases[2], cases[3], cases[4], cases[5], cases[6]}));
  ASSERT_EQ(cached_solve("a.cache", "out-a", {"a"}).status, 0);
  ASSERT_EQ(cached_solve("b.cache", "out-b", {"b"}).status, 0);

  const Result ab = cache_command({"merge", "ab.cache", "a.cache", "b.cache"});
  ASSERT_EQ(ab.status, 0) << ab.err;
  const Result ba = cache_command({"merge", "ba.cache", "b.cache", "a.cache"});
  ASSERT_EQ(ba.status, 0) << ba.err;
  EXPECT_EQ(cache_entries("ab.cache"), 7u);
  EXPECT_EQ(cache_entries("ba.cache"), 7u);
  const Result export_ab = cache_command({"export", "ab.cache"});
  const Result export_ba = cache_command({"export", "ba.cache"});
  ASSERT_EQ(export_ab.status, 0) << export_ab.err;
  EXPECT_EQ(lines_of(export_ab.out).size(), 7u);
  EXPECT_EQ(export_ab.out, export_ba.out);

  // Merging a cache with itself adds nothing.
  const Result twice = cache_command({"merge", "aa.cache", "a.cache", "a.cache"});
  ASSERT_EQ(twice.status, 0) << twice.err;
  EXPECT_EQ(cache_entries("aa.cache"), 4u);

  const Result warm = cached_solve("ab.cache", "warm", {"a", "b"});
  ASSERT_EQ(warm.status, 0) << warm.err;
  EXPECT_EQ(summary_of(warm).solved, 0u);
  EXPECT_EQ(read_text(at("warm/x.ans")), read_text(at("out-a/x.ans")));
  EXPECT_EQ(read_text(at("warm/y.ans")), read_text(at("out-b/y.ans")));
}

TEST_F(CliCacheTest, FailedMergeLeavesAnExistingOutputAsItWas) {
  copy_data("sample.in", at("in/sample.in"));
  ASSERT_EQ(cached_solve("a.cache", "out", {"in"}).status, 0);
  ASSERT_EQ(cache_command({"merge", "merged.cache", "a.cache"}).status, 0);
  const std::string before = read_text(at("merged.cache"));
  const std::string sound = read_text(at("a.cache"));
  write_text(at("truncated.cache"), sound.substr(0, sound.size() - 7));
  std::string damaged = sound;
  const std::size_t answer = answer_offset(damaged, "willow", "5100");  // the sample's case 3
  ASSERT_NE(answer, std::string::npos);
  damaged[answer] = static_cast<char>(damaged[answer] ^ 0x01);
  write_text(at("damaged-record.cache"), damaged);

  for (const std::string bad : {"truncated.cache", "damaged-record.cache", "missing.cache"}) {
    SCOPED_TRACE(bad);
    const Result merge = cache_command({"merge", "merged.cache", "a.cache", bad});
    EXPECT_EQ(merge.status, 1);
    EXPECT_EQ(count_containing(error_lines(merge.err), bad), 1u) << merge.err;
    EXPECT_EQ(read_text(at("merged.cache")), before);
  }
}

TEST_F(CliCacheTest, CacheCommandsRefuseAMissingFileByName) {
  for (const auto& command : {std::vector<std::string>{"stats", "missing.cache"},
                              std::vector<std::string>{"export", "missing.cache"},
                              std::vector<std::string>{"verify", "missing.cache"}}) {
    SCOPED_TRACE(command[0]);
    const Result result = cache_command(command);
    EXPECT_EQ(result.status, 1);
    EXPECT_TRUE(result.out.empty()) << result.out;
    EXPECT_EQ(count_containing(error_lines(result.err), "missing.cache"), 1u) << result.err;
  }
  EXPECT_TRUE(files_under(work_).empty());
}

}  // namespace
