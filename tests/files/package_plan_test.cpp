// io/files/package_plan: reading gamebatch.toml (every error names file, line and key), the groups
// holding a group through `include`, the limits a test must meet, and the tests' seeds; and the
// games' narrower limits (io/format/official_limits.hpp) checked in the parse.
#include "io/files/package_plan.hpp"

#include <gtest/gtest.h>

#include <string>

#include "io/files/generate.hpp"
#include "io/files/input_set.hpp"
#include "io/problem.hpp"
#include "tests/test_data.hpp"

namespace gamebatch::io {
namespace {

using gamebatch::testing::TestDirectory;
using gamebatch::testing::write_text;

class PackagePlanTest : public ::testing::Test {
 protected:
  // The plan `text` read from a fresh file.
  PackagePlan read(const std::string& text) {
    write_text(directory_.path() / kPlanFileName, text);
    return read_package_plan(directory_.path() / kPlanFileName);
  }

  // The message of the UsageError that reading `text` throws; "" when none is thrown.
  std::string error_of(const std::string& text) {
    try {
      read(text);
    } catch (const UsageError& error) {
      return error.what();
    }
    return "";
  }

  TestDirectory directory_{"package_plan"};
};

constexpr const char* kPlan = R"(game = "doublemove"
seed = 7
layout = "cms"
[[group]]
name = "sample"
[[group.test]]
copy = "manual/examples.in"
[[group]]
name = "tiny"
score = 10
limits = { n = "1..4", k = 2 }
[[group.test]]
gen = "--n 1..4"
count = 3
[[group]]
name = "small"
score = 15.5
limits = { n = "1..10" }
include = ["tiny"]
[[group.test]]
run = "gen/worst.cpp 10"
[[group]]
name = "full"
score = 20
include = ["small"]
)";

TEST_F(PackagePlanTest, ReadsEveryKeyOfAPlan) {
  const PackagePlan plan = read(kPlan);
  EXPECT_EQ(plan.game, "doublemove");
  EXPECT_EQ(plan.seed, 7u);
  EXPECT_EQ(plan.layout, Layout::cms);
  ASSERT_EQ(plan.groups.size(), 4u);
  EXPECT_EQ(plan.groups[0].name, "sample");
  EXPECT_EQ(plan.groups[0].tests.at(0).kind, PlanEntry::Kind::copy);
  EXPECT_EQ(plan.groups[0].tests.at(0).text, "manual/examples.in");
  const PlanGroup& tiny = plan.groups[1];
  EXPECT_EQ(tiny.score, 10);
  ASSERT_EQ(tiny.limits.size(), 2u);
  EXPECT_EQ(tiny.limits[0], (ParameterRange{"n", 1, 4}));  // doublemove's order: T n k
  EXPECT_EQ(tiny.limits[1], (ParameterRange{"k", 2, 2}));
  EXPECT_EQ(tiny.tests.at(0).count, 3);
  EXPECT_EQ(tiny.tests.at(0).number, 1u);
  EXPECT_EQ(tiny.tests.at(0).line, 12u);
  EXPECT_EQ(plan.groups[2].score, 15.5);
  EXPECT_EQ(plan.groups[2].include, std::vector<std::size_t>{1});
  EXPECT_EQ(plan.groups[2].tests.at(0).kind, PlanEntry::Kind::run);
}

TEST_F(PackagePlanTest, IncludesCloseTransitivelyAndGiveTheLimitsOfEveryHolder) {
  const PackagePlan plan = read(kPlan);
  EXPECT_EQ(groups_holding(plan, 1), (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(groups_holding(plan, 2), (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(groups_holding(plan, 0), std::vector<std::size_t>{0});
  const std::vector<NarrowLimit> limits = test_limits(plan, 1);
  ASSERT_EQ(limits.size(), 3u);  // tiny's n and k, small's n; full has none
  EXPECT_EQ(limits[0].owner, "group tiny");
  EXPECT_EQ(limits[2].owner, "group small");
  EXPECT_EQ(limits[2].max, 10);
}

TEST_F(PackagePlanTest, ATestsSeedDependsOnItsGroupAndPlaceOnly) {
  const PackagePlan plan = read(kPlan);
  PackagePlan more = plan;
  more.groups.insert(more.groups.begin() + 1, PlanGroup{"extra", 0, {}, {}, {}, 0});
  // tiny is group 1 in one plan and group 2 in the other: the same seeds.
  EXPECT_EQ(test_seed(plan, 1, 1, 2), test_seed(more, 2, 1, 2));
  EXPECT_NE(test_seed(plan, 1, 1, 2), test_seed(plan, 1, 1, 3));
  EXPECT_NE(test_seed(plan, 1, 1, 2), test_seed(plan, 2, 1, 2));
  more.seed = 8;
  EXPECT_NE(test_seed(plan, 1, 1, 2), test_seed(more, 2, 1, 2));
}

TEST_F(PackagePlanTest, ErrorsNameTheFileTheLineAndTheKey) {
  const std::string file = (directory_.path() / kPlanFileName).string();
  EXPECT_EQ(error_of("game = \"doublemove\"\nsed = 1\n"),
            file + ":2: unknown key 'sed' (expected game, seed, layout, group)");
  EXPECT_NE(error_of("game = \"chess\"\n").find(file + ":1: 'game' must be one of"),
            std::string::npos);
  EXPECT_NE(error_of("game = \"willow\"\n[[group]]\nname = \"a\"\nlimits = { n = 3 }\n"
                     "[[group.test]]\ngen = \"\"\n")
                .find(":4: group a: unknown parameter 'n' of willow (its parameters: T, N, C)"),
            std::string::npos);
  EXPECT_NE(error_of("game = \"willow\"\n[[group]]\nname = \"a\"\nlimits = { N = \"9..2\" }\n"
                     "[[group.test]]\ngen = \"x\"\n")
                .find(":4: group a: the limit of 'N' must be a number or \"A..B\" with A <= B"),
            std::string::npos);
  EXPECT_NE(error_of("game = \"willow\"\n[[group]]\nname = \"A b\"\n").find(":3: every [[group]]"),
            std::string::npos);
  EXPECT_NE(error_of("game = \"willow\"\n[[group]]\nname = \"a\"\ninclude = [\"b\"]\n")
                .find(":4: group a: 'include' names no earlier group"),
            std::string::npos);
  EXPECT_NE(error_of("game = \"willow\"\n[[group]]\nname = \"a\"\n[[group.test]]\ngen = \"x\"\n"
                     "copy = \"y\"\n")
                .find("exactly one of 'copy', 'gen' and 'run'"),
            std::string::npos);
  EXPECT_NE(error_of("game = \"willow\"\n[[group]]\nname = \"sample\"\nscore = 5\n"
                     "[[group.test]]\ngen = \"x\"\n")
                .find(":4: group sample: the sample group gives no points"),
            std::string::npos);
  EXPECT_NE(error_of("game = \"willow\"\n[[group]]\nname = \"a\"\n[[group.test]]\n"
                     "copy = \"../x.in\"\n")
                .find("'copy' must name a file inside the package"),
            std::string::npos);
  EXPECT_NE(error_of("game = \"willow\"\n[[group]]\nname = \"a\"\n[[group.test]]\n"
                     "gen = \"x\"\ncount = 0\n")
                .find(":6: group a: 'count' must be an integer from 1 to 100000"),
            std::string::npos);
  EXPECT_NE(error_of("game = \"willow\"\n[[group\n").find(file + ":2: "), std::string::npos);
  EXPECT_NE(error_of("seed = 1\n").find("the key 'game' is required"), std::string::npos);
}

TEST(NarrowLimits, AreCheckedInTheParseWithTheirOwnerAndTheLargestValuesNoted) {
  const Problem& doublemove = *find_problem("doublemove");
  OfficialLimitCheck check({{"n", 1, 4, "group tiny"}, {"k", 0, 0, "group k0"}}, true);
  doublemove.check_limits("2\n3 0\n5 1\n1 2\n", check);
  ASSERT_EQ(check.count(), 2u);
  EXPECT_EQ(check.violations()[0].line, 3u);
  EXPECT_EQ(check.violations()[0].message,
            "n of case 2, the number of values is 5; group tiny requires 1 <= n <= 4");
  EXPECT_EQ(check.violations()[1].line, 3u);
  EXPECT_NE(check.violations()[1].message.find("is 1; group k0 requires 0 <= k <= 0"),
            std::string::npos);
  const std::vector<std::pair<std::string, std::int64_t>> largest = {{"T", 2}, {"n", 5}, {"k", 1}};
  EXPECT_EQ(check.largest(), largest);
  // Without narrower limits nothing changes for the statement's own.
  EXPECT_EQ(doublemove.check_official_limits("2\n3 0\n5 1\n1 2\n").count, 0u);
}

TEST(NarrowLimits, EveryGameNamesItsParametersAndChecksEach) {
  const std::pair<const char*, std::vector<std::string_view>> expected[] = {
      {"willow", {"T", "N", "C"}},
      {"doublemove", {"T", "n", "k"}},
      {"wallgame", {"T", "h", "w"}},
      {"boigame", {"t", "n"}}};
  for (const auto& [name, parameters] : expected) {
    const Problem& problem = *find_problem(name);
    EXPECT_EQ(problem.parameters(), parameters) << name;
    // Each parameter is seen in a generated file: a limit of 0..0 on it is broken.
    const std::string file = generate_file_text(*default_game_options(name), 5, 1, 3);
    for (const std::string_view parameter : parameters) {
      OfficialLimitCheck check({{std::string(parameter), -2, -1, "group g"}}, true);
      problem.check_limits(file, check);
      EXPECT_GT(check.count(), 0u) << name << " " << parameter;
    }
  }
}

TEST(NarrowToLimits, NarrowsGensRangesOrSaysWhyItCannot) {
  GameOptions doublemove = *default_game_options("doublemove");
  EXPECT_EQ(narrow_to_limits(doublemove, {{"n", 1, 4, "group tiny"}, {"k", 0, 0, "group k0"}}), "");
  const auto& options = std::get<DoublemoveGenOptions>(doublemove);
  EXPECT_EQ(options.n, (IntRange{1, 4}));
  EXPECT_EQ(options.declarations, (IntRange{0, 0}));
  GameOptions willow = *default_game_options("willow");
  EXPECT_EQ(narrow_to_limits(willow, {{"N", 60, 80, "group big"}}),
            "group big's N = 60..80 and --cities 2..50 have nothing in common");
  EXPECT_NE(narrow_to_limits(willow, {{"T", 2, 5, "group many"}}).find("one case at a time"),
            std::string::npos);
}

}  // namespace
}  // namespace gamebatch::io
