// A package submission's verdicts against what its directory says it must get (Kattis' rules).
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "pipeline/judge/expectation.hpp"

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

// ---- rules (submissions.yaml, @check- lines)

io::TestGroup group_named(const std::string& path) {
  io::TestGroup group;
  group.path = path;
  group.name = path.substr(path.rfind('/') + 1);
  return group;
}

io::ExpectationRule rule(const std::string& groups,
                         std::optional<std::vector<std::string>> permitted,
                         std::optional<std::vector<std::string>> required = std::nullopt,
                         std::optional<std::pair<double, double>> score = std::nullopt) {
  io::ExpectationRule rule;
  rule.groups = groups;
  rule.permitted = std::move(permitted);
  rule.required = std::move(required);
  rule.score = score;
  rule.source = "submissions/submissions.yaml:4";
  return rule;
}

TEST(ExpectationRules, APackageWideRuleJudgesEveryJudgedVerdictAndTheTotal) {
  using V = Verdict;
  const std::vector<V> judged = {V::accepted, V::wrong_answer, V::wrong_answer};
  EXPECT_TRUE(unmet_rules({rule("", std::vector<std::string>{"AC", "WA"})}, judged, 0, {}).empty());
  EXPECT_EQ(
      unmet_rules({rule("", std::vector<std::string>{"AC"})}, judged, 0, {}),
      std::vector<std::string>{"submissions/submissions.yaml:4: permitted AC, got WA on 2 files"});
  EXPECT_TRUE(
      unmet_rules({rule("", std::nullopt, std::vector<std::string>{"WA"})}, judged, 0, {}).empty());
  EXPECT_EQ(
      unmet_rules({rule("", std::nullopt, std::vector<std::string>{"TLE", "RE"})}, judged, 0, {}),
      std::vector<std::string>{
          "submissions/submissions.yaml:4: required TLE RE, got none of them on 3 files"});
  EXPECT_TRUE(
      unmet_rules({rule("", std::nullopt, std::nullopt, std::pair{40.0, 60.0})}, judged, 50, {})
          .empty());
  EXPECT_EQ(
      unmet_rules({rule("", std::nullopt, std::nullopt, std::pair{40.0, 60.0})}, judged, 30, {}),
      std::vector<std::string>{"submissions/submissions.yaml:4: score 40..60, got 30"});
}

TEST(ExpectationRules, AGroupRuleJudgesEachGroupItMatches) {
  using V = Verdict;
  const io::TestGroup sample = group_named("sample"), small = group_named("secret/small"),
                      large = group_named("secret/large");
  const std::vector<GroupVerdicts> groups = {{&sample, {V::accepted}, 0},
                                             {&small, {V::accepted, V::accepted}, 30},
                                             {&large, {V::accepted, V::time_limit}, 0}};
  const std::vector<V> all = {V::accepted, V::accepted, V::accepted, V::accepted, V::time_limit};
  const auto ac_only = std::vector<std::string>{"AC"};
  // By name, by path, by glob; "secret" names every group under secret/.
  EXPECT_TRUE(unmet_rules({rule("small", ac_only)}, all, 30, groups).empty());
  EXPECT_TRUE(unmet_rules({rule("secret/small", ac_only)}, all, 30, groups).empty());
  EXPECT_EQ(unmet_rules({rule("secret/*", ac_only)}, all, 30, groups),
            std::vector<std::string>{
                "submissions/submissions.yaml:4: secret/large: permitted AC, got TLE on 1 file"});
  EXPECT_EQ(unmet_rules({rule("secret", ac_only)}, all, 30, groups).size(), 1u);
  EXPECT_TRUE(unmet_rules({rule("s?mple", ac_only)}, all, 30, groups).empty());
  // The first failure decides a group: "required: [TLE]" is met by it.
  EXPECT_TRUE(
      unmet_rules({rule("large", std::nullopt, std::vector<std::string>{"TLE"})}, all, 30, groups)
          .empty());
  // A group's score is its own points.
  EXPECT_TRUE(unmet_rules({rule("small", std::nullopt, std::nullopt, std::pair{30.0, 30.0})}, all,
                          30, groups)
                  .empty());
  EXPECT_EQ(
      unmet_rules({rule("*", std::nullopt, std::nullopt, std::pair{30.0, 30.0})}, all, 30, groups)
          .size(),
      2u);  // sample and large score 0
  EXPECT_EQ(rule_text(rule("x", ac_only, std::vector<std::string>{"AC"}, std::pair{0.0, 20.0})),
            "permitted AC; required AC; score 0..20");
}

TEST(ExpectationRules, StatedImposesNothingByItself) {
  EXPECT_TRUE(meets(Expectation::stated, {WA, TLE, AC}));
  EXPECT_TRUE(meets(Expectation::stated, {AC}));
  EXPECT_FALSE(judge_expectation(Expectation::stated, std::string("error"), {}, 0).meets);
}

}  // namespace
}  // namespace gamebatch::pipeline
