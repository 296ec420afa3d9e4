// run_check with test groups (CheckOptions built here, as the package readers will fill them):
// early decisions after a failure, the same verdicts from one check to the next, TLEs confirmed
// alone, group points and rules. The solutions are shell scripts that act by their input's name
// (no sandbox: /proc/self/fd/0 names the input file), every input a copy of willow's sample.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/problem.hpp"
#include "pipeline/judge/check_run.hpp"
#include "test_data.hpp"

namespace gamebatch::pipeline {
namespace {

using namespace gamebatch::testing;
namespace fs = std::filesystem;

class CheckGroups : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int k = 1; k <= 7; ++k) {
      const fs::path input = dir_.path() / cat("data/t", k, ".in");
      write_text(input, read_test_file("willow/sample.in"));
      inputs_.push_back({input, fs::path(input).replace_extension(".ans"), input.filename()});
    }
    // SPEC lists "tN=VERDICT" words; an input named in none gets the right answers.
    write_text(script_, cat("f=$(basename \"$(readlink /proc/self/fd/0)\" .in)\n"
                            "echo \"$f\" >> \"$LOG\"\n"
                            "case \" $SPEC \" in\n"
                            "  *\" $f=WA \"*) echo 'Case #1: 0'; exit 0;;\n"
                            "  *\" $f=TLE \"*) while :; do :; done;;\n"
                            "  *\" $f=RE \"*) exit 3;;\n"
                            "esac\n"
                            "cat '",
                            test_data("willow/sample.ans").string(), "'\n"));
  }

  // A solution failing as `spec` says ("t3=WA t5=TLE"), its runs logged in LOG_NAME.
  CheckSolution solution(const std::string& name, const std::string& spec) const {
    CheckSolution solution;
    solution.name = name;
    solution.command =
        "SPEC='" + spec + "' LOG='" + log(name).string() + "' sh '" + script_.string() + "'";
    return solution;
  }

  fs::path log(const std::string& name) const { return dir_.path() / (name + ".log"); }

  // Its runs, one line per run.
  std::size_t runs_of(const std::string& name) const {
    return occurrences(read_text(log(name)), "\n");
  }

  io::TestGroup group(const std::string& name, std::vector<int> tests, double max_score,
                      io::ScoreAggregation aggregation = io::ScoreAggregation::min) const {
    io::TestGroup group;
    group.name = name;
    group.path = name == "sample" ? name : "secret/" + name;
    group.max_score = max_score;
    group.aggregation = aggregation;
    for (const int k : tests)
      group.tests.push_back((dir_.path() / cat("data/t", k, ".in")).lexically_normal());
    return group;
  }

  // sample: t1; small: t2..t4 (30 points); large: t5, t6 (70 points); t7 in no group.
  CheckOptions options(std::vector<CheckSolution> solutions, std::size_t jobs = 2) const {
    CheckOptions options;
    options.problem = io::find_problem("willow");
    options.inputs = io::InputList(inputs_);
    options.solutions = std::move(solutions);
    options.limits.time_limit_seconds = 0.3;
    options.jobs = jobs;
    options.groups = {group("sample", {1}, 0, io::ScoreAggregation::pass_fail),
                      group("small", {2, 3, 4}, 30), group("large", {5, 6}, 70)};
    return options;
  }

  // Per file: the verdict's short name, "skip", or "-" (no verdict).
  static std::vector<std::string> verdicts(const SolutionVerdicts& solution) {
    std::vector<std::string> names;
    for (std::size_t file = 0; file < solution.files.size(); ++file) {
      names.push_back(solution.skipped[file] ? "skip"
                      : solution.files[file]
                          ? std::string(short_name(solution.files[file]->verdict))
                          : "-");
    }
    return names;
  }

  static std::string group_verdict(const GroupOutcome& group) {
    return group.verdict ? std::string(short_name(*group.verdict)) : "-";
  }

  TestDirectory dir_{"gamebatch_check_groups"};
  fs::path script_ = dir_.path() / "sol.sh";
  std::vector<io::InputFile> inputs_;
};

using VerdictNames = std::vector<std::string>;

TEST_F(CheckGroups, AFailureSkipsTheGroupsLaterRunsAndTheVerdictsAreTheSameEachTime) {
  const std::vector<CheckSolution> solutions = {solution("good", ""),
                                                solution("bad", "t3=WA t4=RE t6=RE t7=WA"),
                                                solution("worse", "t1=WA t2=RE t5=WA")};
  for (int check = 0; check < 3; ++check) {
    SCOPED_TRACE(check);
    const CheckResult result = run_check(options(solutions));
    ASSERT_EQ(result.solutions.size(), 3u);
    EXPECT_EQ(verdicts(result.solutions[0]), VerdictNames(7, "AC"));
    // t4 follows t3's WA in small; t7 is in no group: always run.
    EXPECT_EQ(verdicts(result.solutions[1]),
              (VerdictNames{"AC", "AC", "WA", "skip", "AC", "RE", "WA"}));
    EXPECT_EQ(verdicts(result.solutions[2]),
              (VerdictNames{"WA", "RE", "skip", "skip", "WA", "skip", "AC"}));
    EXPECT_EQ(result.solutions[1].skipped_runs, 1u);
    EXPECT_EQ(result.solutions[2].skipped_runs, 3u);
    EXPECT_EQ(result.runs_not_judged, 0u);
    const SolutionVerdicts& bad = result.solutions[1];
    ASSERT_EQ(bad.groups.size(), 3u);
    EXPECT_EQ(group_verdict(bad.groups[0]), "AC");
    EXPECT_EQ(group_verdict(bad.groups[1]), "WA");  // the first failure, not the RE after it
    EXPECT_EQ(group_verdict(bad.groups[2]), "RE");
    EXPECT_EQ(bad.score, 0.0);
    EXPECT_EQ(result.solutions[0].score, 100.0);
    EXPECT_EQ(result.solutions[0].max_score, 100.0);
    EXPECT_TRUE(result.solutions[0].meets);
    EXPECT_FALSE(bad.meets);
  }
  // One at a time, a skipped run is never started at all.
  const CheckResult alone = run_check(options({solution("bad1", "t2=WA")}, 1));
  EXPECT_EQ(verdicts(alone.solutions[0]),
            (VerdictNames{"AC", "WA", "skip", "skip", "AC", "AC", "AC"}));
  EXPECT_EQ(runs_of("bad1"), 5u);
}

TEST_F(CheckGroups, AllRunsRunsEverything) {
  CheckOptions all = options({solution("bad", "t2=WA t3=RE")});
  all.all_runs = true;
  const CheckResult result = run_check(all);
  EXPECT_EQ(verdicts(result.solutions[0]),
            (VerdictNames{"AC", "WA", "RE", "AC", "AC", "AC", "AC"}));
  EXPECT_EQ(result.solutions[0].skipped_runs, 0u);
  EXPECT_EQ(runs_of("bad"), 7u);
  EXPECT_EQ(group_verdict(result.solutions[0].groups[1]), "WA");
  EXPECT_EQ(result.solutions[0].score, 70.0);
}

TEST_F(CheckGroups, ATimeLimitOfASharedRunCountsOnceARunAloneConfirmsIt) {
  // t3 and t4 both time out: only t3, the group's first failure, is confirmed.
  const CheckResult result =
      run_check(options({solution("good", ""), solution("slow", "t3=TLE t4=TLE")}));
  const SolutionVerdicts& slow = result.solutions[1];
  EXPECT_EQ(verdicts(slow), (VerdictNames{"AC", "AC", "TLE", "skip", "AC", "AC", "AC"}));
  ASSERT_TRUE(slow.files[2]);
  EXPECT_TRUE(slow.files[2]->rerun_alone);
  EXPECT_EQ(result.reruns_alone, 1u);
  EXPECT_EQ(group_verdict(slow.groups[1]), "TLE");
  // One run at a time shares nothing: no rerun.
  const CheckResult alone = run_check(options({solution("slow1", "t3=TLE")}, 1));
  EXPECT_EQ(alone.reruns_alone, 0u);
  ASSERT_TRUE(alone.solutions[0].files[2]);
  EXPECT_FALSE(alone.solutions[0].files[2]->rerun_alone);
}

TEST_F(CheckGroups, MinGroupsScoreAllOrNothingSumGroupsByTheShareOfAc) {
  CheckOptions by_min = options({solution("partial", "t3=WA t6=WA")}, 1);
  CheckOptions by_sum = by_min;
  by_sum.groups[1].aggregation = io::ScoreAggregation::sum;
  by_sum.groups[2].aggregation = io::ScoreAggregation::sum;
  const CheckResult min_result = run_check(by_min);
  const CheckResult sum_result = run_check(by_sum);
  EXPECT_EQ(min_result.solutions[0].groups[1].score, 0.0);
  EXPECT_EQ(min_result.solutions[0].groups[2].score, 0.0);
  EXPECT_EQ(min_result.solutions[0].score, 0.0);
  // A sum group decides nothing: every test runs.
  EXPECT_EQ(sum_result.solutions[0].skipped_runs, 0u);
  EXPECT_DOUBLE_EQ(sum_result.solutions[0].groups[1].score, 20.0);
  EXPECT_DOUBLE_EQ(sum_result.solutions[0].groups[2].score, 35.0);
  EXPECT_DOUBLE_EQ(*sum_result.solutions[0].score, 55.0);
  EXPECT_EQ(group_verdict(sum_result.solutions[0].groups[1]), "WA");
}

TEST_F(CheckGroups, RulesOnGroupsDecideWhetherASolutionMeetsItsExpectations) {
  CheckSolution partial = solution("partial", "t5=WA");
  partial.expected = io::Expectation::stated;
  io::ExpectationRule small_ok;
  small_ok.groups = "secret/small";
  small_ok.permitted = std::vector<std::string>{"AC"};
  small_ok.source = "submissions/submissions.yaml:4";
  io::ExpectationRule large_wa;
  large_wa.groups = "large";
  large_wa.required = std::vector<std::string>{"WA"};
  large_wa.score = std::pair{0.0, 0.0};
  large_wa.source = "submissions/submissions.yaml:5";
  partial.rules = {small_ok, large_wa};
  const CheckResult met = run_check(options({partial}));
  EXPECT_TRUE(met.solutions[0].meets) << met.solutions[0].why_not;
  EXPECT_TRUE(all_expectations_met(met));
  EXPECT_EQ(met.solutions[0].groups[1].expected, "permitted AC");
  EXPECT_TRUE(met.solutions[0].groups[2].meets);

  // The same rules on a solution that fails in small too.
  CheckSolution worse = solution("worse", "t3=WA t4=WA t5=WA");
  worse.expected = io::Expectation::stated;
  worse.rules = partial.rules;
  const CheckResult unmet = run_check(options({worse}));
  EXPECT_FALSE(unmet.solutions[0].meets);
  EXPECT_FALSE(all_expectations_met(unmet));
  EXPECT_FALSE(unmet.solutions[0].groups[1].meets);
  // t4 was skipped: one WA counts.
  EXPECT_EQ(unmet.solutions[0].why_not,
            "submissions/submissions.yaml:4: secret/small: permitted AC, got WA on 1 file");
  const std::string table = verdict_table(unmet, io::InputList(inputs_), 5);
  EXPECT_NE(table.find("rules"), std::string::npos) << table;
  EXPECT_NE(table.find("WA 0"), std::string::npos) << table;
}

TEST_F(CheckGroups, WithoutGroupsAFailureSkipsTheRestAndNoGroupsAreReported) {
  CheckOptions plain = options({solution("bad", "t2=WA")}, 1);
  plain.groups.clear();
  const CheckResult result = run_check(plain);
  EXPECT_EQ(verdicts(result.solutions[0]),
            (VerdictNames{"AC", "WA", "skip", "skip", "skip", "skip", "skip"}));
  EXPECT_TRUE(result.solutions[0].groups.empty());
  EXPECT_FALSE(result.solutions[0].score);
  EXPECT_EQ(verdict_table(result, io::InputList(inputs_), 5).find("total"), std::string::npos);
}

}  // namespace
}  // namespace gamebatch::pipeline
