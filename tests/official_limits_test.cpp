// `gamebatch validate`'s checks: each game's official limits, found at their lines, and parse
// errors still thrown as parse() throws them.
#include <string>

#include <gtest/gtest.h>

#include "io/boigame/format.hpp"
#include "io/doublemove/format.hpp"
#include "io/format/input_error.hpp"
#include "io/problem.hpp"
#include "io/wallgame/format.hpp"
#include "io/willow/format.hpp"

namespace gamebatch::io {
namespace {

// A willow case of n cities on a path, every city holding `coins`.
std::string willow_path(int n, int coins) {
  std::string text = std::to_string(n) + "\n";
  for (int city = 1; city <= n; ++city)
    text += std::to_string(coins) + "\n";
  for (int city = 1; city < n; ++city)
    text += std::to_string(city + 1) + "\n";
  return text;
}

std::string repeated(const std::string& text, int times) {
  std::string all;
  for (int k = 0; k < times; ++k)
    all += text;
  return all;
}

TEST(OfficialLimits, AValidWillowFileHasNoViolation) {
  const OfficialLimitReport report = willow::check_official_limits(
      "50\n" + repeated(willow_path(2, 10000), 49) + willow_path(4000, 0));
  EXPECT_EQ(report.count, 0u);
  EXPECT_TRUE(report.violations.empty());
}

TEST(OfficialLimits, WillowNamesEachLimitAtItsLine) {
  // Line 1: T = 51; case 1 (lines 2..): N = 1; case 2: a coin of 10001 on its third line.
  const std::string text =
      "51\n" + willow_path(1, 5) + "3\n1\n10001\n2\n2\n3\n" + repeated(willow_path(2, 0), 49);
  const OfficialLimitReport report = willow::check_official_limits(text);
  ASSERT_EQ(report.count, 3u);
  EXPECT_EQ(
      report.violations[0],
      (LimitViolation{1, "the number of cases T is 51; the statement requires 1 <= T <= 50"}));
  EXPECT_EQ(report.violations[1],
            (LimitViolation{2,
                            "the number of cities N of case 1 is 1; the statement requires "
                            "2 <= N <= 4000"}));
  EXPECT_EQ(report.violations[2],
            (LimitViolation{6,
                            "C_2 of case 2, the coins of city 2 is 10001; the statement "
                            "requires 0 <= C_i <= 10000"}));
}

TEST(OfficialLimits, WillowLargeNIsNamed) {
  const OfficialLimitReport report = willow::check_official_limits("1\n" + willow_path(4001, 1));
  ASSERT_EQ(report.count, 1u);
  EXPECT_EQ(report.violations[0].line, 2u);
  EXPECT_NE(report.violations[0].message.find("is 4001; the statement requires 2 <= N <= 4000"),
            std::string::npos);
}

TEST(OfficialLimits, ManyViolationsAreCountedButOnlyTheFirstKept) {
  const OfficialLimitReport report = willow::check_official_limits("1\n" + willow_path(300, 20000));
  EXPECT_EQ(report.count, 300u);
  ASSERT_EQ(report.violations.size(), OfficialLimitCheck::kKept);
  EXPECT_EQ(report.violations.front().line, 3u);
  EXPECT_EQ(report.violations.back().line, 2u + OfficialLimitCheck::kKept);
}

TEST(OfficialLimits, ABadFileStillThrowsItsParseError) {
  try {
    willow::check_official_limits("1\n3\n1\n2\n");
    FAIL() << "no InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.line(), 4u);
    EXPECT_NE(std::string(error.what()).find("C_3 of case 1"), std::string::npos);
  }
  EXPECT_THROW(boigame::check_official_limits("1\n2\nA#\n#B\n"), InputError);  // no path
}

TEST(OfficialLimits, WallgameSizes) {
  EXPECT_EQ(wallgame::check_official_limits("2\n2 2\n12\n34\n50 1\n" + repeated("5\n", 50)).count,
            0u);
  const OfficialLimitReport report = wallgame::check_official_limits(
      "2\n1 3\n123\n3 51\n" + repeated(std::string(51, '1') + "\n", 3));
  ASSERT_EQ(report.count, 2u);
  EXPECT_EQ(report.violations[0],
            (LimitViolation{2,
                            "the number of rows h of case 1 is 1; the statement requires "
                            "2 <= h <= 50"}));
  EXPECT_EQ(report.violations[1],
            (LimitViolation{4,
                            "the number of columns w of case 2 is 51; the statement requires "
                            "1 <= w <= 50"}));
}

TEST(OfficialLimits, DoublemoveN) {
  EXPECT_EQ(doublemove::check_official_limits("2\n35 0\n1 1\n1 1\n").count, 0u);
  const OfficialLimitReport report = doublemove::check_official_limits("2\n2 0\n36 1\n1 36\n");
  ASSERT_EQ(report.count, 1u);
  EXPECT_EQ(report.violations[0],
            (LimitViolation{3,
                            "n of case 2, the number of values is 36; the statement requires "
                            "1 <= n <= 35"}));
}

TEST(OfficialLimits, BoigameTestsAndSize) {
  const std::string small = "2\nAB\n..\n";
  EXPECT_EQ(boigame::check_official_limits("10\n" + repeated(small, 10)).count, 0u);
  std::string big = "301\nA" + std::string(299, '.') + "B\n";
  for (int row = 1; row < 301; ++row)
    big += std::string(301, '.') + "\n";
  const OfficialLimitReport report =
      boigame::check_official_limits("11\n" + repeated(small, 10) + big);
  ASSERT_EQ(report.count, 2u);
  EXPECT_EQ(
      report.violations[0],
      (LimitViolation{1, "the number of tests t is 11; the statement requires 1 <= t <= 10"}));
  EXPECT_EQ(report.violations[1],
            (LimitViolation{32,
                            "the board size n of test 11 is 301; the statement requires "
                            "2 <= n <= 300"}));
}

TEST(OfficialLimits, EveryGameAnswersThroughItsProblem) {
  for (const Problem* problem : all_problems()) {
    SCOPED_TRACE(std::string(problem->name()));
    // A file of one official example case is within the limits.
    const auto cases = problem->parse(problem->name() == "willow"     ? "1\n2\n1\n2\n2\n"
                                      : problem->name() == "boigame"  ? "1\n2\nAB\n..\n"
                                      : problem->name() == "wallgame" ? "1\n2 2\n12\n34\n"
                                                                      : "1\n4 1\n1 2\n");
    EXPECT_EQ(problem->check_official_limits(problem->file_of_cases({cases[0]->canonical()})).count,
              0u);
  }
}

}  // namespace
}  // namespace gamebatch::io
