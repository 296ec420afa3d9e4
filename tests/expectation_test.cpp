// A package submission's verdicts against what its directory says it must get (Kattis' rules).
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "pipeline/expectation.hpp"

namespace gamebatch::pipeline {
namespace {

using io::Expectation;
using Files = std::vector<std::optional<RunVerdict>>;

std::optional<RunVerdict> verdict(Verdict kind) {
  RunVerdict run;
  run.verdict = kind;
  return run;
}

const auto AC = verdict(Verdict::accepted);
const auto WA = verdict(Verdict::wrong_answer);
const auto TLE = verdict(Verdict::time_limit);
const auto MLE = verdict(Verdict::memory_limit);
const auto RE = verdict(Verdict::runtime_error);
const std::optional<RunVerdict> kRejectedInput;  // no run: the input file was rejected

bool meets(Expectation expected, const Files& files) {
  return judge_expectation(expected, std::nullopt, files, 0).meets;
}

TEST(Expectation, AcceptedMeansAcOnEveryFileRun) {
  EXPECT_TRUE(meets(Expectation::accepted, {AC, AC, kRejectedInput}));
  for (const auto& failure : {WA, TLE, MLE, RE}) {
    const ExpectationOutcome outcome =
        judge_expectation(Expectation::accepted, std::nullopt, {AC, failure}, 0);
    EXPECT_FALSE(outcome.meets);
    EXPECT_EQ(outcome.why_not, "expected AC on every file, got a failure on 1 file");
    EXPECT_FALSE(outcome.too_weak);
  }
}

TEST(Expectation, WrongAnswerNeedsOneWaAndNothingWorse) {
  EXPECT_TRUE(meets(Expectation::wrong_answer, {AC, WA, AC}));
  EXPECT_TRUE(meets(Expectation::wrong_answer, {WA, WA}));
  EXPECT_FALSE(meets(Expectation::wrong_answer, {WA, TLE}));
  EXPECT_FALSE(meets(Expectation::wrong_answer, {WA, RE}));
  EXPECT_FALSE(meets(Expectation::wrong_answer, {MLE, WA}));
}

TEST(Expectation, AFailingSubmissionThatPassesEverythingSaysTheTestsAreTooWeak) {
  for (const Expectation expected :
       {Expectation::wrong_answer, Expectation::time_limit_exceeded, Expectation::run_time_error}) {
    const ExpectationOutcome outcome = judge_expectation(expected, std::nullopt, {AC, AC}, 0);
    EXPECT_FALSE(outcome.meets);
    EXPECT_TRUE(outcome.too_weak);
    EXPECT_NE(outcome.why_not.find("got AC on every file"), std::string::npos) << outcome.why_not;
  }
}

TEST(Expectation, TimeLimitAllowsWrongAnswersBesideIt) {
  EXPECT_TRUE(meets(Expectation::time_limit_exceeded, {AC, TLE}));
  EXPECT_TRUE(meets(Expectation::time_limit_exceeded, {WA, TLE, AC}));
  EXPECT_FALSE(meets(Expectation::time_limit_exceeded, {TLE, RE}));
  EXPECT_FALSE(meets(Expectation::time_limit_exceeded, {TLE, MLE}));
  const ExpectationOutcome only_wrong =
      judge_expectation(Expectation::time_limit_exceeded, std::nullopt, {AC, WA}, 0);
  EXPECT_FALSE(only_wrong.meets);
  EXPECT_FALSE(only_wrong.too_weak);  // it fails, only not by time
}

TEST(Expectation, RunTimeErrorNeedsOneRe) {
  EXPECT_TRUE(meets(Expectation::run_time_error, {AC, RE}));
  EXPECT_TRUE(meets(Expectation::run_time_error, {TLE, RE, WA}));
  EXPECT_FALSE(meets(Expectation::run_time_error, {WA, TLE}));
}

TEST(Expectation, ACompileErrorMeetsNothing) {
  for (const Expectation expected :
       {Expectation::accepted, Expectation::wrong_answer, Expectation::time_limit_exceeded,
        Expectation::run_time_error}) {
    const ExpectationOutcome outcome =
        judge_expectation(expected, std::string("x.cpp:1:1: error: expected ';'"), {}, 0);
    EXPECT_FALSE(outcome.meets);
    EXPECT_EQ(outcome.why_not, "compile error: it was never run");
  }
}

TEST(Expectation, RunsLeftUnjudgedByAStopMeetNothingYet) {
  const ExpectationOutcome outcome =
      judge_expectation(Expectation::accepted, std::nullopt, {AC, std::nullopt}, 1);
  EXPECT_FALSE(outcome.meets);
  EXPECT_EQ(outcome.why_not, "1 runs not judged (interrupted)");
  // What was judged already decides a failure.
  EXPECT_EQ(judge_expectation(Expectation::accepted, std::nullopt, {WA, std::nullopt}, 1).why_not,
            "expected AC on every file, got a failure on 1 file");
  // A WA submission with no WA yet is not called too weak before all its runs are judged.
  EXPECT_FALSE(
      judge_expectation(Expectation::wrong_answer, std::nullopt, {AC, std::nullopt}, 1).too_weak);
}

}  // namespace
}  // namespace gamebatch::pipeline
