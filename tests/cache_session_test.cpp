// One run's use of the cache store: cold start, bad files set aside, strict mode, checkpoints,
// version-1 import, damaged records, artefacts read on demand, and two runs sharing one file.
#include "pipeline/answers/cache_session.hpp"
#include "pipeline/machine.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <random>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "test_data.hpp"

namespace gamebatch::pipeline {
namespace {

using gamebatch::testing::cat;
using gamebatch::testing::read_text;
using gamebatch::testing::write_text;
namespace fs = std::filesystem;

// A game without cases whose artefacts are plain strings; it remembers where it was told to look
// for stored ones.
class ArtefactProblem final : public io::Problem {
 public:
  std::string_view name() const override { return "artefacts"; }
  std::string_view summary() const override { return "artefacts only, for tests"; }
  std::uint32_t solver_version() const override { return 1; }
  std::vector<std::unique_ptr<io::Case>> parse(std::string_view) const override { return {}; }
  std::string answer_line(std::size_t, std::string_view) const override { return ""; }
  std::vector<io::Artefact> new_artefacts(
      const std::function<bool(std::string_view)>& already_stored) const override {
    std::lock_guard lock(mutex_);
    std::vector<io::Artefact> fresh;
    for (const io::Artefact& artefact : held_) {
      if (!already_stored(artefact.name))
        fresh.push_back(artefact);
    }
    return fresh;
  }
  void use_artefact_source(io::ArtefactSource* source) const override { source_ = source; }
  io::ArtefactSource* source() const { return source_; }
  void build(const std::string& name, const std::string& bytes) {
    std::lock_guard lock(mutex_);
    held_.push_back({name, 1, bytes});
  }

 private:
  mutable std::mutex mutex_;
  mutable std::vector<io::Artefact> held_;
  mutable std::atomic<io::ArtefactSource*> source_{nullptr};
};

// A case whose only property that matters here is its estimated cost.
class CostCase final : public io::Case {
 public:
  explicit CostCase(double microseconds) : microseconds_(microseconds) {}
  std::string solve() const override { return "0"; }
  std::string canonical() const override { return "0"; }
  double estimated_solve_microseconds() const override { return microseconds_; }

 private:
  double microseconds_;
};

class CacheSessionTest : public ::testing::Test {
 protected:
  CacheOptions options(double checkpoint_seconds = 0) const {
    CacheOptions result;
    result.path = path_;
    result.checkpoint_interval = std::chrono::duration<double>(checkpoint_seconds);
    return result;
  }

  static io::CacheKey key(const std::string& canonical) {
    return io::case_key("artefacts", 1, canonical);
  }
  static void add(CacheSession& session, const std::string& canonical, const std::string& answer) {
    session.add(key(canonical), io::CacheEntry{"artefacts", 1, canonical, answer});
  }

  // What another process sees in the file now.
  std::uint64_t entries_on_disk() const {
    io::CacheStore store(path_, io::CacheStore::Mode::read_only);
    return store.entry_count();
  }
  std::optional<std::string> answer_on_disk(const std::string& canonical) const {
    io::CacheStore store(path_, io::CacheStore::Mode::read_only);
    const io::Lookup lookup = store.find(key(canonical));
    return lookup.found ? std::optional<std::string>(lookup.found->answer) : std::nullopt;
  }

  gamebatch::testing::TestDirectory scratch_{"gamebatch_cache_session"};
  const fs::path dir_ = scratch_.path();
  const fs::path path_ = dir_ / "answers.cache";
  ArtefactProblem problem_;
};

TEST_F(CacheSessionTest, NewAnswersAreCommittedAtFinishAndFoundByTheNextRun) {
  {
    CacheSession first(options(), problem_);
    add(first, "a", "1");
    add(first, "b", "2");
    EXPECT_EQ(entries_on_disk(), 0u);  // not before a checkpoint
    ASSERT_TRUE(first.finish());
  }
  EXPECT_EQ(entries_on_disk(), 2u);
  CacheSession second(options(), problem_);
  EXPECT_EQ(second.find(key("b")), "2");
  EXPECT_EQ(second.find(key("c")), std::nullopt);
}

TEST_F(CacheSessionTest, AnswersAddedEarlierInTheRunAreFoundBeforeTheyAreCommitted) {
  CacheSession session(options(), problem_);
  add(session, "a", "1");
  EXPECT_EQ(session.find(key("a")), "1");
}

TEST_F(CacheSessionTest, AClosedCacheIsOneFileAlone) {
  {
    CacheSession session(options(), problem_);
    add(session, "a", "1");
    ASSERT_TRUE(session.finish());
  }
  EXPECT_FALSE(fs::exists(dir_ / "answers.cache-wal"));
  EXPECT_FALSE(fs::exists(dir_ / "answers.cache-shm"));
  fs::copy_file(path_, dir_ / "copy.cache");
  io::CacheStore copy(dir_ / "copy.cache", io::CacheStore::Mode::read_only);
  EXPECT_EQ(copy.entry_count(), 1u);
}

TEST_F(CacheSessionTest, ABadFileIsSetAsideAndTheRunGoesOnCold) {
  write_text(path_, "not a cache");
  CacheSession session(options(), problem_);
  EXPECT_EQ(read_text(dir_ / "answers.cache.bad"), "not a cache");
  EXPECT_EQ(session.find(key("a")), std::nullopt);
  add(session, "a", "1");
  EXPECT_TRUE(session.finish());
  EXPECT_EQ(entries_on_disk(), 1u);
}

TEST_F(CacheSessionTest, StrictModeRefusesABadFileAndLeavesItAlone) {
  write_text(path_, "not a cache");
  CacheOptions strict = options();
  strict.strict = true;
  EXPECT_THROW(CacheSession(strict, problem_), CacheUnusable);
  EXPECT_EQ(read_text(path_), "not a cache");
  EXPECT_FALSE(fs::exists(dir_ / "answers.cache.bad"));
}

TEST_F(CacheSessionTest, TwoSessionsOnOneFileKeepBothSetsOfAnswers) {
  CacheSession first(options(), problem_);
  CacheSession second(options(), problem_);
  add(first, "a", "1");
  add(second, "b", "2");
  ASSERT_TRUE(first.finish());
  EXPECT_EQ(second.find(key("a")), "1");  // committed by the other run
  ASSERT_TRUE(second.finish());
  EXPECT_EQ(entries_on_disk(), 2u);
}

TEST_F(CacheSessionTest, CheckpointsCommitDuringTheRun) {
  CacheSession session(options(0.02), problem_);
  session.start_checkpoints();
  add(session, "a", "1");
  bool committed = false;
  for (int k = 0; k < 500 && !committed; ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    committed = entries_on_disk() == 1;
  }
  EXPECT_TRUE(committed) << "no checkpoint within 5 s";
  add(session, "b", "2");
  EXPECT_TRUE(session.finish());
  EXPECT_EQ(entries_on_disk(), 2u);
}

TEST_F(CacheSessionTest, AVersionOneFileIsImportedOnceAndNeverMisread) {
  {
    io::AnswerCache old;
    old.insert(key("a"), io::CacheEntry{"artefacts", 1, "a", "one"});
    old.insert(key("b"), io::CacheEntry{"artefacts", 1, "b", "two"});
    old.put_artefact("artefacts", io::Artefact{"table 3", 1, "three"});
    io::save_bundle_file(path_, old);
  }
  ASSERT_EQ(io::classify_cache_file(path_), io::CacheFileKind::version_one);
  {
    CacheSession session(options(), problem_);
    EXPECT_EQ(session.find(key("a")), "one");
    EXPECT_EQ(session.find(key("b")), "two");
    EXPECT_EQ(session.find_artefact("table 3")->bytes, "three");
    ASSERT_TRUE(session.finish());
  }
  EXPECT_EQ(io::classify_cache_file(path_), io::CacheFileKind::store);
  EXPECT_EQ(import_version_one_in_place(path_), 0u);  // nothing left to import
  EXPECT_EQ(entries_on_disk(), 2u);
}

TEST_F(CacheSessionTest, ADamagedVersionOneFileIsSetAside) {
  {
    io::AnswerCache old;
    old.insert(key("a"), io::CacheEntry{"artefacts", 1, "a", "one"});
    io::save_bundle_file(path_, old);
  }
  std::string bytes = read_text(path_);
  bytes.back() = static_cast<char>(bytes.back() ^ 0x10);
  write_text(path_, bytes);
  CacheSession session(options(), problem_);
  EXPECT_EQ(session.find(key("a")), std::nullopt);
  EXPECT_EQ(read_text(dir_ / "answers.cache.bad"), bytes);
}

// Flips one byte of the answer's bytes in the file: the record must fail its checksum.
void damage_answer_in_file(const fs::path& path, const std::string& answer) {
  std::string bytes = read_text(path);
  const std::size_t at = bytes.find(answer);
  ASSERT_NE(at, std::string::npos);
  ASSERT_EQ(bytes.find(answer, at + 1), std::string::npos);
  bytes[at + answer.size() / 2] = static_cast<char>(bytes[at + answer.size() / 2] ^ 0x04);
  write_text(path, bytes);
}

TEST_F(CacheSessionTest, ADamagedRecordIsAMissAndIsReplacedBySolvingAgain) {
  {
    CacheSession first(options(), problem_);
    add(first, "a", "answer-of-a-0123456789");
    add(first, "b", "answer-of-b-0123456789");
    ASSERT_TRUE(first.finish());
  }
  damage_answer_in_file(path_, "answer-of-a-0123456789");
  {
    CacheSession second(options(), problem_);
    EXPECT_EQ(second.find(key("a")), std::nullopt);  // never the flipped answer
    EXPECT_EQ(second.find(key("b")), "answer-of-b-0123456789");
    add(second, "a", "answer-of-a-0123456789");  // what solving it again gives
    ASSERT_TRUE(second.finish());
  }
  EXPECT_EQ(answer_on_disk("a"), "answer-of-a-0123456789");
}

TEST_F(CacheSessionTest, ArtefactsAreStoredAndReadOnlyWhenACaseAsks) {
  {
    CacheSession first(options(), problem_);
    problem_.build("table 7", "seven");
    problem_.build("table 8", "eight");
    ASSERT_TRUE(first.finish());
  }
  ArtefactProblem fresh;
  {
    CacheSession second(options(), fresh);
    // Nothing is handed to the game when the run starts: it asks the session, by name.
    EXPECT_EQ(fresh.source(), &second);
    const std::optional<io::Artefact> table = fresh.source()->find_artefact("table 7");
    ASSERT_TRUE(table.has_value());
    EXPECT_EQ(table->bytes, "seven");
    EXPECT_EQ(second.find_artefact("table 9"), std::nullopt);
  }
  EXPECT_EQ(fresh.source(), nullptr);  // detached when the session ends
}

TEST_F(CacheSessionTest, ArtefactsOfAnotherRunAreReadByName) {
  {
    CacheSession first(options(), problem_);
    problem_.build("table 7", "seven");
    ASSERT_TRUE(first.finish());
  }
  ArtefactProblem fresh;
  CacheSession second(options(), fresh);
  const std::optional<io::Artefact> table = second.find_artefact("table 7");
  ASSERT_TRUE(table.has_value());
  EXPECT_EQ(table->bytes, "seven");
  EXPECT_EQ(second.find_artefact("table 9"), std::nullopt);
}

TEST_F(CacheSessionTest, ARefusedArtefactIsRebuiltAndReplaced) {
  {
    io::CacheStore store(path_, io::CacheStore::Mode::read_write);
    store.put_artefact("artefacts", io::Artefact{"table 7", 99, "from an older solver"}, 0);
  }
  {
    CacheSession session(options(), problem_);
    ASSERT_TRUE(session.find_artefact("table 7").has_value());
    session.refuse_artefact("table 7");  // the solver could not use it
    EXPECT_EQ(session.find_artefact("table 7"), std::nullopt);
    problem_.build("table 7", "rebuilt");
    ASSERT_TRUE(session.finish());
  }
  io::CacheStore store(path_, io::CacheStore::Mode::read_only);
  const std::optional<io::Artefact> stored = store.find_artefact("artefacts", "table 7");
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->bytes, "rebuilt");
  EXPECT_EQ(stored->version, 1u);
}

TEST_F(CacheSessionTest, CasesBelowTheThresholdAreNotWorthCaching) {
  CacheOptions defaults = options();
  CacheSession session(defaults, problem_);
  EXPECT_FALSE(session.worth_caching(CostCase(kDefaultCacheMinSolveMicroseconds / 2)));
  EXPECT_TRUE(session.worth_caching(CostCase(kDefaultCacheMinSolveMicroseconds)));
  CacheOptions every = options();
  every.min_solve_microseconds = 0;
  CacheSession all(every, problem_);
  EXPECT_TRUE(all.worth_caching(CostCase(0)));
}

TEST(DefaultCachePathTest, FollowsXdgThenHome) {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const std::string saved_xdg = xdg ? xdg : "";
  ::setenv("XDG_CACHE_HOME", "/somewhere/cache", 1);
  EXPECT_EQ(default_cache_path(), fs::path("/somewhere/cache/gamebatch/answers.cache"));
  ::setenv("XDG_CACHE_HOME", "relative/ignored", 1);  // XDG: relative paths are invalid
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') {
    EXPECT_EQ(default_cache_path(), fs::path(home) / ".cache" / "gamebatch" / "answers.cache");
  }
  if (xdg)
    ::setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
  else
    ::unsetenv("XDG_CACHE_HOME");
}

}  // namespace
}  // namespace gamebatch::pipeline
