// io/run/sandbox: which paths a command names, and runs in a box through run_limited (the hostile
// programs' end-to-end tests are in tests/sandbox_cli_test.cpp).
#include "io/run/sandbox.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/run/limited_process.hpp"

namespace {

namespace fs = std::filesystem;
using gamebatch::io::named_paths;
using gamebatch::io::ProcessEnd;
using gamebatch::io::ProcessLimits;
using gamebatch::io::run_limited;
using gamebatch::io::SandboxPool;
using gamebatch::io::SandboxSettings;
using gamebatch::io::StdinText;

class SandboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("GAMEBATCH_BOX", GAMEBATCH_BOX_PATH, 1);
    directory_ = fs::temp_directory_path() /
                 ("gamebatch-sandbox-test-" + std::to_string(::getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  fs::path touch(const std::string& name) const {
    const fs::path path = directory_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << "x\n";
    return path;
  }

  // A pool whose boxes work in the test's directory; skipped where no box can be made.
  SandboxPool& pool(SandboxSettings settings = {}) {
    pool_ = std::make_unique<SandboxPool>(std::move(settings), directory_);
    if (const std::string problem = pool_->probe(); !problem.empty())
      ADD_FAILURE() << "no sandbox on this machine: " << problem;
    return *pool_;
  }

  static ProcessLimits roomy() {
    ProcessLimits limits;
    limits.cpu_seconds = 10;
    limits.wall_seconds = 20;
    return limits;
  }

  fs::path directory_;
  std::unique_ptr<SandboxPool> pool_;
};

TEST_F(SandboxTest, NamedPathsAreTheExistingFilesTheCommandNames) {
  const fs::path solution = touch("sol");
  const fs::path script = touch("sub/sol.py");
  const fs::path jar = touch("lib.jar");
  const fs::path data = touch("data.txt");
  fs::create_directories(directory_ / "classes");
  const std::vector<fs::path> paths = named_paths(
      "./sol < data.txt | python3 'sub/sol.py' --input=missing.txt; java -cp classes:lib.jar Main",
      directory_);
  EXPECT_EQ(paths, (std::vector<fs::path>{solution, data, script, directory_ / "classes", jar}));
}

TEST_F(SandboxTest, NamedPathsLeaveOutSystemDirectoriesTheWorkingDirectoryAndItsParents) {
  touch("classes/Main.class");
  const std::vector<fs::path> paths =
      named_paths("/usr/bin/python3 /etc/passwd . .. / " + directory_.string() +
                      " classes classes/Main.class $HOME/x *.py",
                  directory_);
  // classes/Main.class is shown with its directory.
  EXPECT_EQ(paths, (std::vector<fs::path>{directory_ / "classes"}));
}

TEST_F(SandboxTest, ARunSeesItsScratchAndNamedFilesButNothingElseOfTheUsers) {
  touch("secret.txt");
  touch("shown.txt");
  SandboxPool& box_pool = pool();
  const auto result =
      run_limited("cat shown.txt; cat s*cret.txt 2>/dev/null; echo made > new.txt; ls; id -u",
                  StdinText{""}, roomy(), &box_pool);
  EXPECT_EQ(result.end, ProcessEnd::exited);
  EXPECT_EQ(result.output, "x\nnew.txt\nshown.txt\n65534\n");
  EXPECT_FALSE(fs::exists(directory_ / "new.txt"));
  // The next run of the same box finds a fresh scratch.
  const auto again = run_limited("ls; cat shown.txt", StdinText{""}, roomy(), &box_pool);
  EXPECT_EQ(again.output, "shown.txt\nx\n");
}

TEST_F(SandboxTest, ARunThatFillsItsScratchEndsAtTheDiskLimit) {
  SandboxSettings settings;
  settings.disk_bytes = std::uint64_t{1} << 20;
  SandboxPool& box_pool = pool(settings);
  const auto result = run_limited("while :; do cat /dev/zero >> big 2>/dev/null; done",
                                  StdinText{""}, roomy(), &box_pool);
  EXPECT_EQ(result.end, ProcessEnd::disk_limit) << gamebatch::io::describe(result);
}

TEST_F(SandboxTest, AForkBombEndsAtTheProcessLimitAndLeavesNothing) {
  SandboxSettings settings;
  settings.max_processes = 16;
  SandboxPool& box_pool = pool(settings);
  // dash gives up at the first fork refused: the sleepers are what shows the bound was reached.
  const auto result =
      run_limited("while :; do sleep 100 & done", StdinText{""}, roomy(), &box_pool);
  EXPECT_EQ(result.end, ProcessEnd::process_limit) << gamebatch::io::describe(result);
  EXPECT_EQ(gamebatch::io::describe(result), "process limit (16 processes and threads)");
  // The box is reused, and finds none of the sleepers.
  const auto after =
      run_limited("cat /proc/[0-9]*/comm | grep -c sleep", StdinText{""}, roomy(), &box_pool);
  EXPECT_EQ(after.output, "0\n");
}

// The seccomp filter: a nested user namespace (which the kernel would allow an unprivileged
// process) and a mount are refused; threads still start (clone3 falls back to clone).
TEST_F(SandboxTest, TheFilterRefusesNamespacesAndMountsButNotThreads) {
  SandboxPool& box_pool = pool();
  const auto result = run_limited(
      "unshare -U true 2>/dev/null; echo $?; mount -t tmpfs none /tmp 2>/dev/null; echo $?; "
      "python3 -c 'import threading; t = threading.Thread(target=print, args=(\"thread\",)); "
      "t.start(); t.join()'",
      StdinText{""}, roomy(), &box_pool);
  EXPECT_EQ(result.output, "1\n32\nthread\n") << result.stderr_tail;
}

// A SysV shared memory segment outlives its process: the next run of the box must not find it.
TEST_F(SandboxTest, SysVIpcObjectsOfARunAreGoneForTheNext) {
  SandboxPool& box_pool = pool();
  const auto made = run_limited(
      "ipcmk -M 4096 >/dev/null && ipcmk -Q >/dev/null && "
      "tail -q -n +2 /proc/sysvipc/shm /proc/sysvipc/msg | wc -l",
      StdinText{""}, roomy(), &box_pool);
  EXPECT_EQ(made.output, "2\n") << made.stderr_tail;
  const auto next = run_limited("tail -q -n +2 /proc/sysvipc/shm /proc/sysvipc/msg | wc -l",
                                StdinText{""}, roomy(), &box_pool);
  EXPECT_EQ(next.output, "0\n") << next.stderr_tail;
}

}  // namespace
