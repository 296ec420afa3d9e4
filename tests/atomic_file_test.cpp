// Whole-or-nothing writes, unchanged files left alone, and the clean-up after a killed run.
#include "io/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <system_error>

#include "test_data.hpp"

namespace gamebatch::io {
namespace {

using gamebatch::testing::cat;
using gamebatch::testing::read_text;
using gamebatch::testing::write_text;
namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
 protected:
  std::set<std::string> names() const {
    std::set<std::string> found;
    for (const auto& entry : fs::directory_iterator(dir_))
      found.insert(entry.path().filename().string());
    return found;
  }
  gamebatch::testing::TestDirectory scratch_{"gamebatch_atomic_file"};
  const fs::path dir_ = scratch_.path();
};

// The pid of a process that has certainly ended.
pid_t ended_process() {
  const pid_t child = ::fork();
  if (child == 0)
    ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

TEST_F(AtomicFileTest, WritesCreateDirectoriesAndLeaveNoTemporary) {
  write_file_atomically(dir_ / "a" / "b.ans", "one\n");
  write_file_durably(dir_ / "c.cache", "two\n");
  EXPECT_EQ(read_text(dir_ / "a" / "b.ans"), "one\n");
  EXPECT_EQ(read_text(dir_ / "c.cache"), "two\n");
  EXPECT_EQ(names(), (std::set<std::string>{"a", "c.cache"}));
}

TEST_F(AtomicFileTest, ADirectoryRemovedBetweenWritesIsMadeAgain) {
  // Directories are made only when creating the temporary file fails: nothing may be remembered.
  write_file_atomically(dir_ / "a" / "b" / "1.ans", "one\n");
  fs::remove_all(dir_ / "a");
  write_file_atomically(dir_ / "a" / "b" / "2.ans", "two\n");
  EXPECT_EQ(read_text(dir_ / "a" / "b" / "2.ans"), "two\n");
  EXPECT_EQ(names(), (std::set<std::string>{"a"}));
}

TEST_F(AtomicFileTest, AFileInTheWayOfTheDirectoryIsAnError) {
  write_text(dir_ / "plain", "not a directory");
  EXPECT_THROW(write_file_atomically(dir_ / "plain" / "x.ans", "x\n"), std::system_error);
  EXPECT_EQ(names(), (std::set<std::string>{"plain"}));
}

TEST_F(AtomicFileTest, UnchangedContentIsNotRewritten) {
  const fs::path path = dir_ / "x.ans";
  EXPECT_TRUE(write_file_if_changed(path, "Case #1: 5\n"));
  struct stat before {};
  ::stat(path.c_str(), &before);
  EXPECT_FALSE(write_file_if_changed(path, "Case #1: 5\n"));
  struct stat after {};
  ::stat(path.c_str(), &after);
  EXPECT_EQ(after.st_ino, before.st_ino);  // a write would have renamed a new file into place
  EXPECT_TRUE(write_file_if_changed(path, "Case #1: 6\n"));  // same size, other bytes
  EXPECT_EQ(read_text(path), "Case #1: 6\n");
}

TEST_F(AtomicFileTest, StaleTemporariesOfEndedProcessesAreRemovedAndNothingElse) {
  const pid_t ended = ended_process();
  write_text(dir_ / cat("a.ans.tmp.", ended, ".0"), "half");
  write_text(dir_ / cat("answers.cache.tmp.", ended, ".17"), "half");
  write_text(dir_ / cat("mine.ans.tmp.", ::getpid(), ".0"), "being written");  // a live writer
  write_text(dir_ / "notes.tmp.txt", "not ours");
  write_text(dir_ / cat("b.ans.tmp.", ended, ".x"), "not our pattern");
  write_text(dir_ / "a.ans", "kept");
  EXPECT_EQ(remove_stale_temporaries(dir_), 2u);
  EXPECT_EQ(names(), (std::set<std::string>{cat("mine.ans.tmp.", ::getpid(), ".0"), "notes.tmp.txt",
                                            cat("b.ans.tmp.", ended, ".x"), "a.ans"}));
  EXPECT_EQ(remove_stale_temporaries(dir_ / "missing"), 0u);
}

}  // namespace
}  // namespace gamebatch::io
