// Verdicts of check and stress from a run's facts: token comparison case by case, and the order
// in which limits, signals and exit statuses decide.
#include <csignal>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/problem.hpp"
#include "pipeline/judge/judge.hpp"

namespace gamebatch::pipeline {
namespace {

const io::Problem& willow() {
  return *io::find_problem("willow");
}

const std::vector<std::string> kExpected = {"200", "-2", "5100"};

TEST(CompareAnswers, RightTokensAreAcceptedWhateverTheWhitespace) {
  EXPECT_EQ(
      compare_answers(willow(), kExpected, "Case #1: 200\nCase #2: -2\nCase #3: 5100\n").verdict,
      Verdict::accepted);
  EXPECT_EQ(
      compare_answers(willow(), kExpected, "Case #1:   200 Case\t#2: -2\r\nCase #3: 5100").verdict,
      Verdict::accepted);
}

TEST(CompareAnswers, TheFirstWrongCaseIsNamedWithBothTexts) {
  const RunVerdict verdict =
      compare_answers(willow(), kExpected, "Case #1: 200\nCase #2: -3\nCase #3: 0\n");
  EXPECT_EQ(verdict.verdict, Verdict::wrong_answer);
  EXPECT_EQ(verdict.case_number, 2u);
  EXPECT_EQ(verdict.expected, "Case #2: -2");
  EXPECT_EQ(verdict.got, "Case #2: -3");
}

TEST(CompareAnswers, MissingOutputIsShownAsTheEndOfOutput) {
  const RunVerdict verdict = compare_answers(willow(), kExpected, "Case #1: 200\n");
  EXPECT_EQ(verdict.verdict, Verdict::wrong_answer);
  EXPECT_EQ(verdict.case_number, 2u);
  EXPECT_EQ(verdict.got, "(end of output)");
  const RunVerdict cut = compare_answers(willow(), kExpected, "Case #1: 200\nCase #2:");
  EXPECT_EQ(cut.case_number, 2u);
  EXPECT_EQ(cut.got, "Case #2:");
}

TEST(CompareAnswers, OutputAfterTheLastCaseIsWrongWithoutACase) {
  const RunVerdict verdict = compare_answers(
      willow(), kExpected, "Case #1: 200\nCase #2: -2\nCase #3: 5100\nCase #4: 1\n");
  EXPECT_EQ(verdict.verdict, Verdict::wrong_answer);
  EXPECT_FALSE(verdict.case_number);
  EXPECT_EQ(verdict.expected, "(end of output)");
  EXPECT_EQ(verdict.got, "Case #4: 1");
}

TEST(CompareAnswers, LongTextsAreCut) {
  const RunVerdict verdict =
      compare_answers(*io::find_problem("wallgame"), {"7"}, std::string(5000, '9'));
  ASSERT_TRUE(verdict.got);
  EXPECT_EQ(verdict.got->size(), kShownCharacters + 3);
}

io::ProcessResult finished(const std::string& output, double cpu_seconds = 0.1) {
  io::ProcessResult result;
  result.end = io::ProcessEnd::exited;
  result.output = output;
  result.cpu_seconds = cpu_seconds;
  result.peak_bytes = 10 << 20;
  return result;
}

const std::string kRight = "Case #1: 200\nCase #2: -2\nCase #3: 5100\n";

TEST(JudgeRun, VerdictsInTheirOrder) {
  JudgeLimits limits;
  limits.time_limit_seconds = 1;
  limits.memory_limit_bytes = 64 << 20;

  EXPECT_EQ(judge_run(willow(), kExpected, finished(kRight), limits).verdict, Verdict::accepted);

  io::ProcessResult crashed = finished(kRight);
  crashed.end = io::ProcessEnd::signaled;
  crashed.signal = SIGSEGV;
  const RunVerdict runtime_error = judge_run(willow(), kExpected, crashed, limits);
  EXPECT_EQ(runtime_error.verdict, Verdict::runtime_error);
  EXPECT_NE(runtime_error.detail.find("signal 11"), std::string::npos) << runtime_error.detail;

  io::ProcessResult failed = finished(kRight);
  failed.exit_status = 3;
  EXPECT_EQ(judge_run(willow(), kExpected, failed, limits).verdict, Verdict::runtime_error);

  // Memory decides first, however the run ended: a hog that crashed or exited is MLE.
  io::ProcessResult hog = crashed;
  hog.peak_bytes = 65 << 20;
  EXPECT_EQ(judge_run(willow(), kExpected, hog, limits).verdict, Verdict::memory_limit);
  io::ProcessResult quiet_hog = finished(kRight);
  quiet_hog.peak_bytes = 65 << 20;
  EXPECT_EQ(judge_run(willow(), kExpected, quiet_hog, limits).verdict, Verdict::memory_limit);

  // Time next: over the limit is TLE even when it exited cleanly with right answers.
  EXPECT_EQ(judge_run(willow(), kExpected, finished(kRight, 1.2), limits).verdict,
            Verdict::time_limit);
  io::ProcessResult cut = finished("", 2.0);
  cut.end = io::ProcessEnd::cpu_limit;
  EXPECT_EQ(judge_run(willow(), kExpected, cut, limits).verdict, Verdict::time_limit);

  io::ProcessResult flood = finished(kRight + std::string(100, 'x'));
  flood.end = io::ProcessEnd::output_limit;
  const RunVerdict too_much = judge_run(willow(), kExpected, flood, limits);
  EXPECT_EQ(too_much.verdict, Verdict::wrong_answer);
  EXPECT_NE(too_much.detail.find("output over the limit"), std::string::npos);

  const RunVerdict wrong = judge_run(willow(), kExpected, finished("Case #1: 7\n"), limits);
  EXPECT_EQ(wrong.verdict, Verdict::wrong_answer);
  EXPECT_EQ(wrong.case_number, 1u);
  EXPECT_DOUBLE_EQ(wrong.seconds, 0.1);
  EXPECT_DOUBLE_EQ(wrong.peak_mb, 10.0);
}

TEST(JudgeRun, EveryTimeLimitOfASharedRunIsRerunAloneButASleepersOne) {
  JudgeLimits limits;
  limits.time_limit_seconds = 1;
  auto rerun = [&](const io::ProcessResult& result) {
    return needs_rerun_alone(judge_run(willow(), kExpected, result, limits), result, limits);
  };
  EXPECT_FALSE(rerun(finished(kRight, 0.9)));  // accepted
  EXPECT_TRUE(rerun(finished(kRight, 1.2)));   // ended by itself just over the limit
  EXPECT_TRUE(rerun(finished(kRight, 1.4)));   // far over it: a loaded machine may still cost that
  io::ProcessResult endless = finished("", 1.5);
  endless.end = io::ProcessEnd::cpu_limit;  // stopped at 1.5 times the limit: confirmed too
  EXPECT_TRUE(rerun(endless));
  io::ProcessResult starved = finished("", 0.7);
  starved.end = io::ProcessEnd::wall_limit;  // cut by the clock after using much CPU
  EXPECT_TRUE(rerun(starved));
  io::ProcessResult sleeper = finished("", 0.01);
  sleeper.end = io::ProcessEnd::wall_limit;  // waiting, not computing
  EXPECT_FALSE(rerun(sleeper));

  const io::ProcessLimits process = process_limits(limits);
  EXPECT_DOUBLE_EQ(process.cpu_seconds, 1.5);
  EXPECT_DOUBLE_EQ(process.wall_seconds, 4.0);
}

}  // namespace
}  // namespace gamebatch::pipeline
