// One run's use of the cache file: cold start, bad files set aside, strict mode, checkpoints,
// artefacts, and two runs sharing one file.
#include "pipeline/cache_session.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

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

// A game without cases whose artefacts are plain strings; it accepts version 1 only.
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
  std::vector<io::Artefact> held() const {
    std::lock_guard lock(mutex_);
    return held_;
  }
  bool adopt_artefact(const io::Artefact& artefact) const override {
    if (artefact.version != 1)
      return false;
    std::lock_guard lock(mutex_);
    held_.push_back(artefact);
    return true;
  }
  void build(const std::string& name, const std::string& bytes) {
    std::lock_guard lock(mutex_);
    held_.push_back({name, 1, bytes});
  }

 private:
  mutable std::mutex mutex_;
  mutable std::vector<io::Artefact> held_;
};

class CacheSessionTest : public ::testing::Test {
 protected:
  CacheOptions options(double checkpoint_seconds = 0) const {
    CacheOptions result;
    result.path = dir_ / "answers.cache";
    result.checkpoint_interval = std::chrono::duration<double>(checkpoint_seconds);
    return result;
  }

  static void add(io::AnswerCache& cache, const std::string& canonical, const std::string& answer) {
    cache.insert(io::case_key("artefacts", 1, canonical),
                 io::CacheEntry{"artefacts", 1, canonical, answer});
  }

  std::size_t entries_on_disk() const {
    io::AnswerCache loaded;
    io::load_cache_file(dir_ / "answers.cache", loaded);
    return loaded.size();
  }

  gamebatch::testing::TestDirectory scratch_{"gamebatch_cache_session"};
  const fs::path dir_ = scratch_.path();
  ArtefactProblem problem_;
};

TEST_F(CacheSessionTest, ColdStartCreatesTheFileAtFinish) {
  CacheSession session(options(), problem_);
  EXPECT_EQ(session.loaded_entries(), 0u);
  add(session.cache(), "a", "1");
  EXPECT_FALSE(fs::exists(dir_ / "answers.cache"));
  EXPECT_TRUE(session.finish());
  EXPECT_EQ(entries_on_disk(), 1u);
}

TEST_F(CacheSessionTest, ASecondSessionStartsWithTheFirstsAnswers) {
  {
    CacheSession first(options(), problem_);
    add(first.cache(), "a", "1");
    add(first.cache(), "b", "2");
    ASSERT_TRUE(first.finish());
  }
  CacheSession second(options(), problem_);
  EXPECT_EQ(second.loaded_entries(), 2u);
  EXPECT_EQ(second.cache().find_answer(io::case_key("artefacts", 1, "b")), "2");
}

TEST_F(CacheSessionTest, ABadFileIsSetAsideAndTheRunGoesOnCold) {
  write_text(dir_ / "answers.cache", "not a cache");
  CacheSession session(options(), problem_);
  EXPECT_EQ(session.loaded_entries(), 0u);
  EXPECT_EQ(read_text(dir_ / "answers.cache.bad"), "not a cache");
  add(session.cache(), "a", "1");
  EXPECT_TRUE(session.finish());
  EXPECT_EQ(entries_on_disk(), 1u);
}

TEST_F(CacheSessionTest, StrictModeRefusesABadFileAndLeavesItAlone) {
  write_text(dir_ / "answers.cache", "not a cache");
  CacheOptions strict = options();
  strict.strict = true;
  EXPECT_THROW(CacheSession(strict, problem_), CacheUnusable);
  EXPECT_EQ(read_text(dir_ / "answers.cache"), "not a cache");
  EXPECT_FALSE(fs::exists(dir_ / "answers.cache.bad"));
}

TEST_F(CacheSessionTest, TwoSessionsOnOneFileKeepBothSetsOfAnswers) {
  CacheSession first(options(), problem_);
  CacheSession second(options(), problem_);
  add(first.cache(), "a", "1");
  add(second.cache(), "b", "2");
  ASSERT_TRUE(first.finish());
  ASSERT_TRUE(second.finish());  // merges what the first saved meanwhile
  EXPECT_EQ(entries_on_disk(), 2u);
}

TEST_F(CacheSessionTest, CheckpointsSaveDuringTheRun) {
  CacheSession session(options(0.02), problem_);
  session.start_checkpoints();
  add(session.cache(), "a", "1");
  bool saved = false;
  for (int k = 0; k < 500 && !saved; ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::error_code ignored;
    saved = fs::exists(dir_ / "answers.cache", ignored) && entries_on_disk() == 1;
  }
  EXPECT_TRUE(saved) << "no checkpoint within 5 s";
  add(session.cache(), "b", "2");
  EXPECT_TRUE(session.finish());
  EXPECT_EQ(entries_on_disk(), 2u);
}

TEST_F(CacheSessionTest, NothingNewMeansTheFileIsNotRewritten) {
  {
    CacheSession first(options(), problem_);
    add(first.cache(), "a", "1");
    ASSERT_TRUE(first.finish());
  }
  const auto inode = [&] {
    struct stat status {};
    ::stat((dir_ / "answers.cache").c_str(), &status);
    return status.st_ino;
  };
  const auto before = inode();
  CacheSession second(options(), problem_);
  ASSERT_TRUE(second.finish());
  EXPECT_EQ(inode(), before);  // a save would have renamed a new file into place
}

TEST_F(CacheSessionTest, ArtefactsAreSavedAndOfferedToTheNextRun) {
  {
    CacheSession first(options(), problem_);
    problem_.build("table 7", "seven");
    ASSERT_TRUE(first.finish());
  }
  ArtefactProblem fresh;
  CacheSession second(options(), fresh);
  const std::vector<io::Artefact> adopted = fresh.held();
  ASSERT_EQ(adopted.size(), 1u);
  EXPECT_EQ(adopted[0].name, "table 7");
  EXPECT_EQ(adopted[0].bytes, "seven");
}

TEST_F(CacheSessionTest, ArtefactsTheSolverRefusesAreDropped) {
  {
    io::AnswerCache cache;
    cache.put_artefact("artefacts", io::Artefact{"old table", 99, "from an older solver"});
    io::save_cache_file(dir_ / "answers.cache", cache);
  }
  {
    CacheSession session(options(), problem_);
    EXPECT_TRUE(problem_.held().empty());
    ASSERT_TRUE(session.finish());
  }
  io::AnswerCache loaded;
  io::load_cache_file(dir_ / "answers.cache", loaded);
  EXPECT_EQ(loaded.artefact_count(), 0u);
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
