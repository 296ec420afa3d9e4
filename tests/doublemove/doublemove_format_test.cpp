// The doublemove text format: what is accepted, the canonical printing, and that every rejection
// names the line and what was expected there.
#include <string>

#include <gtest/gtest.h>

#include "io/doublemove/format.hpp"
#include "io/doublemove/problem.hpp"
#include "tests/format_test_helpers.hpp"
#include "tests/test_data.hpp"

namespace gamebatch::io::doublemove {
namespace {

using gamebatch::doublemove::Declaration;
using gamebatch::doublemove::kMaxN;
using gamebatch::testing::cat;
using gamebatch::testing::contains;
using gamebatch::testing::expect_rejected;
using gamebatch::testing::Rejection;
using gamebatch::testing::rejection_of;

TEST(DoublemoveFormat, ParsesTheSpecLayout) {
  const auto instances = parse_file("3\n2 0\n4 1\n1 2\n3 2\n2 2\n3 1\n");
  ASSERT_EQ(instances.size(), 3u);
  EXPECT_EQ(instances[0].n, 2);
  EXPECT_TRUE(instances[0].declarations.empty());
  EXPECT_EQ(instances[1].n, 4);
  EXPECT_EQ(instances[1].declarations, (std::vector<Declaration>{{1, 2}}));
  EXPECT_EQ(instances[2].declarations, (std::vector<Declaration>{{2, 2}, {3, 1}}));
}

TEST(DoublemoveFormat, AcceptsAnyWhitespaceAndCrLf) {
  const auto windows = parse_file("1\r\n3   2\r\n1\t2\r\n\r\n2 3 \r\n");
  ASSERT_EQ(windows.size(), 1u);
  EXPECT_EQ(windows[0].declarations, (std::vector<Declaration>{{1, 2}, {2, 3}}));
  EXPECT_EQ(format_case(windows[0]), "3 2\n1 2\n2 3\n");
}

TEST(DoublemoveFormat, RoundTripsThroughFormatFile) {
  const std::string text = "3\n2 0\n4 3\n1 2\n3 4\n1 3\n1 2\n1 1\n1 1\n";
  EXPECT_EQ(format_file(parse_file(text)), text);
}

// The answer cache keys on canonical(): the same case must print the same wherever it stands.
TEST(DoublemoveFormat, SameCaseInDifferentFilesHasTheSameCanonicalText) {
  const Problem& problem = io::doublemove::problem();
  const auto first = problem.parse("2\n3 0\n4 1\n1  2\n");
  const auto second = problem.parse("1\r\n4\r\n1\r\n1\t2");
  EXPECT_EQ(first[1]->canonical(), second[0]->canonical());
  EXPECT_EQ(first[1]->canonical(), "4 1\n1 2\n");
  EXPECT_NE(first[0]->canonical(), second[0]->canonical());
}

TEST(DoublemoveFormat, AnswerLineIsTheBareInteger) {
  EXPECT_EQ(io::doublemove::problem().answer_line(7, "40"), "40\n");
}

TEST(DoublemoveFormat, AcceptsTheLimitsThemselves) {
  // k = n + 1 and n = kMaxN.
  const auto instances = parse_file(cat("2\n1 2\n1 1\n1 1\n", kMaxN, " 0\n"));
  EXPECT_EQ(instances[0].declarations.size(), 2u);
  EXPECT_EQ(instances[1].n, kMaxN);
}

TEST(DoublemoveFormat, RejectsZeroCasesAndEmptyFile) {
  EXPECT_TRUE(contains(rejection_of(parse_file, "0\n").message, "the number of cases T"));
  EXPECT_TRUE(contains(rejection_of(parse_file, "").message, "found end of file"));
}

TEST(DoublemoveFormat, RejectsNOfZero) {
  expect_rejected(parse_file, "1\n0 0\n", 2, {"expected n of case 1", "found 0"});
}

TEST(DoublemoveFormat, RejectsNAboveTheLargestSupportedNamingTheLimit) {
  expect_rejected(parse_file, cat("2\n3 0\n\n", kMaxN + 1, " 0\n"), 4,
                  {cat("expected n of case 2 to be at most ", kMaxN,
                       ", the largest supported n, found ", kMaxN + 1),
                   "GB"});
  // Far above: still named against the limit, no table size to quote.
  const Rejection far = rejection_of(parse_file, "1\n100000\n");
  EXPECT_TRUE(contains(far.message, "the largest supported n, found 100000")) << far.message;
}

TEST(DoublemoveFormat, RejectsKAboveNPlusOne) {
  expect_rejected(parse_file, "1\n3 5\n", 2, {"expected k of case 1", "from 0 to 4), found 5"});
}

TEST(DoublemoveFormat, RejectsNegativeK) {
  const Rejection rejection = rejection_of(parse_file, "1\n3 -1\n");
  EXPECT_TRUE(contains(rejection.message, "found -1")) << rejection.message;
}

TEST(DoublemoveFormat, RejectsValuesOutsideOneToN) {
  expect_rejected(parse_file, "1\n3 2\n1 2\n0 1\n", 4,
                  {"expected a_2 of case 1", "from 1 to 3), found 0"});
  expect_rejected(parse_file, "2\n2 0\n3 1\n1 4\n", 4, {"expected b_1 of case 2", "found 4"});
}

TEST(DoublemoveFormat, RejectsTooFewPairsNamingTheDeclaredK) {
  expect_rejected(
      parse_file, "1\n4 3\n1 2\n3 4\n", 4,
      {"expected a_3 of case 1", "found end of file", "case 1 declares k = 3 on line 2"});
}

TEST(DoublemoveFormat, RejectsTooManyPairs) {
  // The extra pair is read as the next case's n and k, or as trailing text.
  expect_rejected(parse_file, "1\n4 1\n1 2\n3 4\n", 4, "expected end of file after case 1");
  // Here "3 4" becomes case 2's n = 3 and k = 4, and "2 0" its first pair.
  expect_rejected(parse_file, "2\n4 1\n1 2\n3 4\n2 0\n", 5, {"expected b_1 of case 2", "found 0"});
}

TEST(DoublemoveFormat, RejectsMissingCase) {
  const Rejection rejection = rejection_of(parse_file, "2\n3 0\n");
  EXPECT_TRUE(contains(rejection.message, "expected n of case 2")) << rejection.message;
  EXPECT_TRUE(contains(rejection.message, "end of file")) << rejection.message;
}

TEST(DoublemoveFormat, RejectsNonNumericToken) {
  expect_rejected(parse_file, "1\n3 1\n1 x\n", 3, {"expected b_1 of case 1", "found 'x'"});
}

TEST(DoublemoveFormat, RejectsNBeyondSixtyFourBits) {
  expect_rejected(parse_file, "1\n99999999999999999999 0\n", 2, "out of range");
}

TEST(DoublemoveFormat, FormatCaseRefusesInvalidInstances) {
  gamebatch::doublemove::Instance bad;
  bad.n = 2;
  bad.declarations = {{1, 3}};
  EXPECT_THROW(format_case(bad), std::invalid_argument);
}

}  // namespace
}  // namespace gamebatch::io::doublemove
