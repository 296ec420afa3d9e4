// Running a program under limits: each way a run ends, what it reports, and that nothing of a run
// outlives it. The program is tests/solutions/faulty_solution (one mode per misbehaviour).
#include "io/run/limited_process.hpp"

#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "core/stop_request.hpp"
#include "tests/test_data.hpp"

namespace gamebatch::io {
namespace {

using gamebatch::testing::cat;

constexpr std::uint64_t kMebibyte = std::uint64_t{1} << 20;

// The command line of the faulty solution in `mode`.
std::string faulty(const std::string& mode) {
  return cat("'", GAMEBATCH_FAULTY_SOLUTION, "' ", mode);
}

// Generous limits: a test that means to reach one sets it lower.
ProcessLimits roomy_limits() {
  ProcessLimits limits;
  limits.cpu_seconds = 10;
  limits.wall_seconds = 20;
  return limits;
}

ProcessResult run(const std::string& mode, const ProcessLimits& limits = roomy_limits(),
                  std::string input = "") {
  return run_limited(faulty(mode), StdinText{std::move(input)}, limits);
}

// A text of `size` bytes in numbered lines, so that a lost or repeated piece shows.
std::string numbered_text(std::size_t size) {
  std::string text;
  for (int line = 0; text.size() < size; ++line)
    text += cat("line ", line, "\n");
  text.resize(size);
  return text;
}

TEST(LimitedProcess, PassesAFileAsStdinAndCapturesStdout) {
  gamebatch::testing::TestDirectory scratch("gamebatch_limited_process");
  const std::string input = "2\n1 2 3\n4 5 6\n";
  gamebatch::testing::write_text(scratch.path() / "in.txt", input);
  const ProcessResult result =
      run_limited(faulty("echo"), StdinFile{scratch.path() / "in.txt"}, roomy_limits());
  EXPECT_EQ(result.end, ProcessEnd::exited);
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_EQ(result.output, input);
  EXPECT_EQ(result.stderr_tail, "");
  EXPECT_EQ(describe(result), "exit status 0");
}

TEST(LimitedProcess, PassesATextAsStdinLargerThanAPipeHolds) {
  const std::string input = numbered_text(3 * kMebibyte / 2);
  const ProcessResult result = run("echo", roomy_limits(), input);
  EXPECT_EQ(result.end, ProcessEnd::exited);
  EXPECT_EQ(result.output.size(), input.size());
  EXPECT_TRUE(result.output == input);
}

TEST(LimitedProcess, AMissingInputFileThrows) {
  EXPECT_THROW(
      run_limited(faulty("echo"), StdinFile{"/nonexistent/gamebatch/in.txt"}, roomy_limits()),
      std::system_error);
}

TEST(LimitedProcess, ReportsTheExitStatus) {
  const ProcessResult result = run("exit 3");
  EXPECT_EQ(result.end, ProcessEnd::exited);
  EXPECT_EQ(result.exit_status, 3);
  EXPECT_EQ(result.signal, 0);
  EXPECT_EQ(describe(result), "exit status 3");
}

// A stop request (Ctrl-C to gamebatch) ends a run in progress at once, as a limit would, and says
// so: the run has no verdict.
TEST(LimitedProcess, AStopRequestEndsTheRunAtOnce) {
  std::thread requester([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    request_stop();
  });
  const auto started = std::chrono::steady_clock::now();
  const ProcessResult result = run_limited("sleep 30", StdinText{""}, roomy_limits());
  const auto took = std::chrono::steady_clock::now() - started;
  requester.join();
  clear_stop_request();
  EXPECT_EQ(result.end, ProcessEnd::interrupted);
  EXPECT_EQ(describe(result), "ended by gamebatch's interruption");
  EXPECT_LT(took, std::chrono::seconds(5));
  EXPECT_NE(::kill(-result.process_group, 0), 0) << "the run's group is left";
}

TEST(LimitedProcess, ReportsDeathBySegfault) {
  const ProcessResult result = run("segfault");
  EXPECT_EQ(result.end, ProcessEnd::signaled);
  EXPECT_EQ(result.signal, SIGSEGV);
  EXPECT_EQ(describe(result), "killed by signal 11 (SIGSEGV)");
}

TEST(LimitedProcess, ReportsDeathByAbort) {
  const ProcessResult result = run("abort");
  EXPECT_EQ(result.end, ProcessEnd::signaled);
  EXPECT_EQ(result.signal, SIGABRT);
  EXPECT_EQ(describe(result), "killed by signal 6 (SIGABRT)");
}

// One program with redirections still takes sh's place: its signal is seen, not sh's 128+N.
TEST(LimitedProcess, ReportsTheSignalOfAProgramWithRedirections) {
  const ProcessResult result =
      run_limited(faulty("segfault") + " 2>/dev/null </dev/null", StdinText{""}, roomy_limits());
  EXPECT_EQ(result.end, ProcessEnd::signaled);
  EXPECT_EQ(result.signal, SIGSEGV);
}

TEST(LimitedProcess, ACommandThatCannotStartExitsWith127) {
  const ProcessResult result =
      run_limited("/nonexistent/gamebatch/solution", StdinText{""}, roomy_limits());
  EXPECT_EQ(result.end, ProcessEnd::exited);
  EXPECT_EQ(result.exit_status, 127);
  EXPECT_NE(result.stderr_tail.find("/nonexistent/gamebatch/solution"), std::string::npos)
      << result.stderr_tail;
}

TEST(LimitedProcess, RunsACompoundCommandInTheShell) {
  const ProcessResult result = run_limited(cat("cd / && printf 'a\\n' && ", faulty("exit 4")),
                                           StdinText{""}, roomy_limits());
  EXPECT_EQ(result.end, ProcessEnd::exited);
  EXPECT_EQ(result.exit_status, 4);
  EXPECT_EQ(result.output, "a\n");
}

TEST(LimitedProcess, StopsAtTheCpuLimit) {
  ProcessLimits limits = roomy_limits();
  limits.cpu_seconds = 0.3;
  const ProcessResult result = run("loop", limits);
  EXPECT_EQ(result.end, ProcessEnd::cpu_limit) << describe(result);
  EXPECT_GE(result.cpu_seconds, 0.3);
  EXPECT_LE(result.cpu_seconds, 1.5);
  EXPECT_EQ(describe(result).rfind("CPU time limit (", 0), 0U) << describe(result);
}

TEST(LimitedProcess, StopsAtTheWallClockLimit) {
  ProcessLimits limits = roomy_limits();
  limits.wall_seconds = 0.3;
  const ProcessResult result = run("sleep", limits);
  EXPECT_EQ(result.end, ProcessEnd::wall_limit) << describe(result);
  EXPECT_GE(result.wall_seconds, 0.3);
  EXPECT_LE(result.wall_seconds, 1.5);
  EXPECT_LT(result.cpu_seconds, 0.2);  // asleep: the wall clock, not the CPU, stopped it
}

TEST(LimitedProcess, StopsAtTheMemoryLimitSoonAfterIt) {
  ProcessLimits limits = roomy_limits();
  limits.memory_bytes = 100 * kMebibyte;
  const ProcessResult result = run("hog 400", limits);
  EXPECT_EQ(result.end, ProcessEnd::memory_limit) << describe(result);
  EXPECT_GT(result.peak_bytes, 100 * kMebibyte);
  // Stopped long before it had all 400 MiB (an overshoot of a few samples at most).
  EXPECT_LT(result.peak_bytes, 250 * kMebibyte);
  EXPECT_LT(result.wall_seconds, 5.0);  // killed, not left to its 10 s sleep
}

TEST(LimitedProcess, ReportsThePeakOfARunThatEndsByItself) {
  const ProcessResult result = run("hog 50 0");  // touches 50 MiB and exits at once
  EXPECT_EQ(result.end, ProcessEnd::exited);
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_GE(result.peak_bytes, 50 * kMebibyte);
#ifdef GAMEBATCH_SANITIZED_THREAD
  // The program is instrumented too: ThreadSanitizer's shadow of its 50 MiB comes on top.
  EXPECT_LT(result.peak_bytes, 400 * kMebibyte);
#else
  EXPECT_LT(result.peak_bytes, 200 * kMebibyte);
#endif
}

TEST(LimitedProcess, ThePeakIsTheProgramsNotThatOfTheProcessStartingIt) {
  // The kernel carries the peak of the address space a child was started from (this process's,
  // vfork) over its execve into its ru_maxrss: with 200 MiB resident here, a program of a few MiB
  // must not be reported (and judged) at 200 MiB. AddressSanitizer found it: its own 70 MiB made
  // every run of `check --memory-limit 64` a memory limit exceeded.
#ifdef GAMEBATCH_SANITIZED_THREAD
  // ThreadSanitizer starts the child with fork, not vfork, and the peak carried into it was above
  // this process's VmHWM in 2 of 4 runs here (1.07 GB): the bound cannot hold in that build. The
  // normal and AddressSanitizer builds check it.
  GTEST_SKIP() << "the peak carried over a fork under ThreadSanitizer exceeds this process's";
#endif
  std::vector<char> ballast(200 * kMebibyte, 1);
  const ProcessResult result = run("exit 0");
  EXPECT_EQ(result.end, ProcessEnd::exited);
  EXPECT_LT(result.peak_bytes, 100 * kMebibyte) << describe(result);
  EXPECT_EQ(ballast[ballast.size() / 2], 1);  // resident until after the run
}

TEST(LimitedProcess, StopsAtTheOutputLimitKeepingExactlyTheLimit) {
  ProcessLimits limits = roomy_limits();
  limits.output_bytes = kMebibyte;
  const ProcessResult result = run("flood", limits);
  EXPECT_EQ(result.end, ProcessEnd::output_limit) << describe(result);
  EXPECT_EQ(result.output.size(), kMebibyte);
  EXPECT_EQ(result.output.find_first_not_of('x'), std::string::npos);
  EXPECT_EQ(describe(result), "output limit (1 MiB kept)");
}

TEST(LimitedProcess, OutputOfExactlyTheLimitIsNotOverIt) {
  ProcessLimits limits = roomy_limits();
  limits.output_bytes = 100000;
  const std::string input = numbered_text(100000);
  const ProcessResult exactly = run("echo", limits, input);
  EXPECT_EQ(exactly.end, ProcessEnd::exited);
  EXPECT_TRUE(exactly.output == input);
  const ProcessResult one_more = run("echo", limits, input + "!");
  EXPECT_EQ(one_more.end, ProcessEnd::output_limit);
  EXPECT_TRUE(one_more.output == input);
}

TEST(LimitedProcess, KillsWhatTheProgramLeftRunning) {
  const ProcessResult result = run("background");
  EXPECT_EQ(result.end, ProcessEnd::exited);
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_EQ(result.output, "done\n");
  ASSERT_GT(result.process_group, 0);
  // The child sleeping 1000 s is gone, zombie included: its group no longer exists.
  errno = 0;
  EXPECT_EQ(::kill(-result.process_group, 0), -1);
  EXPECT_EQ(errno, ESRCH);
}

TEST(LimitedProcess, KeepsTheTailOfStderr) {
  const ProcessResult result = run("stderr");
  EXPECT_EQ(result.end, ProcessEnd::exited);
  EXPECT_EQ(result.exit_status, 1);
  ASSERT_EQ(result.stderr_tail.size(), kStderrTailBytes);
  EXPECT_EQ(result.stderr_tail.find("error line 00001 "), std::string::npos);
  // The last line written (the text is 10 KiB of 40-byte lines: 256 of them).
  const std::string last_line = "error line 00256 of the faulty solution\n";
  EXPECT_EQ(result.stderr_tail.substr(kStderrTailBytes - last_line.size()), last_line);
}

TEST(LimitedProcess, TheProgramGetsOnlyTheStandardDescriptors) {
  const ProcessResult result = run("fds");
  EXPECT_EQ(result.end, ProcessEnd::exited);
  EXPECT_EQ(result.output, "0 1 2\n");
}

// Runs at the same time from several threads do not see each other's pipes: each gets its own
// input and output whole, a run's end of file is not held back by another's child, and every
// program sees only its three standard descriptors.
TEST(LimitedProcess, RunsFromFourThreadsAtOnceStayApart) {
  constexpr int kThreads = 4;
  constexpr int kRunsPerThread = 6;
  std::vector<std::vector<std::string>> failures(kThreads);
  std::vector<std::thread> threads;
  for (int thread = 0; thread < kThreads; ++thread) {
    threads.emplace_back([thread, &failures] {
      for (int round = 0; round < kRunsPerThread; ++round) {
        const std::string input = cat("thread ", thread, " round ", round, "\n") +
                                  numbered_text(static_cast<std::size_t>(1000 * (round + 1)));
        const ProcessResult echoed = run("echo", roomy_limits(), input);
        if (echoed.end != ProcessEnd::exited || echoed.output != input)
          failures[thread].push_back(cat("echo ", round, ": ", describe(echoed)));
        const ProcessResult listed = run("fds");
        if (listed.output != "0 1 2\n")
          failures[thread].push_back(cat("fds ", round, ": ", listed.output));
        if (round == 0 && thread % 2 == 0) {  // one that leaves a child holding its pipes
          const ProcessResult background = run("background");
          if (background.output != "done\n")
            failures[thread].push_back("background: " + background.output);
        }
      }
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  for (int thread = 0; thread < kThreads; ++thread)
    EXPECT_EQ(failures[thread], std::vector<std::string>()) << "thread " << thread;
}

}  // namespace
}  // namespace gamebatch::io
