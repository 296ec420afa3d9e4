// Whole-or-nothing writes, unchanged files left alone, and the clean-up after a killed run.
#include "io/files/atomic_file.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <system_error>
#include <thread>

#include "tests/test_data.hpp"

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

TEST_F(AtomicFileTest, ReplacingAFileLeavesTheNewContentAndNoTemporary) {
  write_file_atomically(dir_ / "x.ans", "old\n");
  write_file_atomically(dir_ / "x.ans", "new and longer\n");
  write_file_durably(dir_ / "y.cache", "old\n");
  write_file_durably(dir_ / "y.cache", "new\n");
  EXPECT_EQ(read_text(dir_ / "x.ans"), "new and longer\n");
  EXPECT_EQ(read_text(dir_ / "y.cache"), "new\n");
  EXPECT_EQ(names(), (std::set<std::string>{"x.ans", "y.cache"}));
}

TEST_F(AtomicFileTest, FileHoldsExactlyTheContentOrNot) {
  const fs::path path = dir_ / "x.ans";
  EXPECT_FALSE(file_holds(path, ""));  // missing
  write_text(path, "Case #1: 5\n");
  EXPECT_TRUE(file_holds(path, "Case #1: 5\n"));
  EXPECT_FALSE(file_holds(path, "Case #1: 6\n"));    // same size
  EXPECT_FALSE(file_holds(path, "Case #1: 5\n\n"));  // longer
  EXPECT_FALSE(file_holds(path, "Case #1:"));        // a prefix
  EXPECT_FALSE(file_holds(dir_, ""));                // a directory
}

// Whether the file system under `directory` makes unnamed files (O_TMPFILE).
bool makes_unnamed_files(const fs::path& directory) {
  const int descriptor = ::open(directory.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
  if (descriptor < 0)
    return false;
  ::close(descriptor);
  return true;
}

TEST_F(AtomicFileTest, AWriterKilledAtAnyMomentLeavesWholeFilesAndNoTemporary) {
  if (!makes_unnamed_files(dir_))
    GTEST_SKIP() << dir_ << " has no O_TMPFILE: a killed write leaves NAME.tmp.PID.N there, "
                 << "which remove_stale_temporaries removes (tested below)";
  // Big files, so that the kill most likely lands in the middle of one.
  const std::string content(8 << 20, 'x');
  const pid_t writer = ::fork();
  ASSERT_GE(writer, 0);
  if (writer == 0) {
    for (int k = 0;; ++k)
      write_file_atomically(dir_ / cat("f", k, ".ans"), content);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::kill(writer, SIGKILL);
  int status = 0;
  ::waitpid(writer, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  ASSERT_FALSE(names().empty()) << "the writer wrote nothing in 300 ms";
  for (const std::string& name : names()) {
    EXPECT_EQ(name.find(".tmp."), std::string::npos) << name;
    EXPECT_EQ(fs::file_size(dir_ / name), content.size()) << name;
  }
}

TEST_F(AtomicFileTest, WithoutProcTheFileIsStillWrittenWhole) {
  // An unnamed file is linked in through /proc/self/fd; where /proc is missing the content is
  // written again under a temporary name. A child unmounts /proc in a mount namespace of its own.
  constexpr int kCannotUnmount = 77;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (::unshare(CLONE_NEWNS) != 0 ||
        ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::umount2("/proc", MNT_DETACH) != 0 || fs::exists("/proc/self")) {
      ::_exit(kCannotUnmount);
    }
    try {
      write_file_atomically(dir_ / "x.ans", "whole\n");
    } catch (...) {
      ::_exit(1);
    }
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == kCannotUnmount)
    GTEST_SKIP() << "cannot unmount /proc in a mount namespace here (needs root)";
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(read_text(dir_ / "x.ans"), "whole\n");
  EXPECT_EQ(names(), std::set<std::string>{"x.ans"});
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
