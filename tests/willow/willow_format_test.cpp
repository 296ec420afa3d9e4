// The willow text format: what is accepted, and that every rejection names the line and what was
// expected there.
#include <string>

#include <gtest/gtest.h>

#include "io/willow/format.hpp"
#include "tests/format_test_helpers.hpp"

namespace gamebatch::io::willow {
namespace {

using gamebatch::testing::expect_rejected;
using gamebatch::testing::Rejection;
using gamebatch::testing::rejection_of;

TEST(WillowFormat, ParsesTheOfficialLayout) {
  const auto instances = parse_file("2\n3\n1\n2\n3\n2\n3\n1\n7\n");
  ASSERT_EQ(instances.size(), 2u);
  EXPECT_EQ(instances[0].coins, (std::vector<gamebatch::willow::Coins>{1, 2, 3}));
  EXPECT_EQ(instances[0].roads,
            (std::vector<std::pair<std::int32_t, std::int32_t>>{{0, 1}, {1, 2}}));
  EXPECT_EQ(instances[1].coins, (std::vector<gamebatch::willow::Coins>{7}));
  EXPECT_TRUE(instances[1].roads.empty());
}

TEST(WillowFormat, AcceptsAnyWhitespaceAndCrLf) {
  const auto unix_style = parse_file("1\n3\n1\n2\n3\n2\n3\n");
  const auto windows_style = parse_file("1\r\n3\r\n1 2 3\r\n2\t3\r\n\r\n");
  ASSERT_EQ(windows_style.size(), 1u);
  EXPECT_EQ(windows_style[0].coins, unix_style[0].coins);
  EXPECT_EQ(windows_style[0].roads, unix_style[0].roads);
}

TEST(WillowFormat, RoundTripsThroughFormatFile) {
  const std::string text = "2\n3\n1\n2\n3\n2\n3\n1\n7\n";
  EXPECT_EQ(format_file(parse_file(text)), text);
}

TEST(WillowFormat, RejectsTruncatedFileAtItsLastLine) {
  expect_rejected(parse_file, "1\n3\n1\n2\n", 4,
                  {"expected C_3 of case 1", "found end of file", "declares N = 3 on line 2"});
}

TEST(WillowFormat, RejectsMissingCase) {
  const Rejection rejection = rejection_of(parse_file, "2\n1\n5\n");
  EXPECT_NE(rejection.message.find("case 2"), std::string::npos);
  EXPECT_NE(rejection.message.find("end of file"), std::string::npos);
}

TEST(WillowFormat, RejectsNonNumericToken) {
  expect_rejected(parse_file, "1\n3\n1\nx2\n3\n2\n3\n", 4, {"expected C_2", "found 'x2'"});
}

TEST(WillowFormat, RejectsNegativeCoin) {
  expect_rejected(parse_file, "1\n2\n5\n-1\n2\n", 4, {"from 0 to", "found -1"});
}

TEST(WillowFormat, RejectsRoadToAnEarlierOrTheSameCity) {
  expect_rejected(parse_file, "1\n3\n1\n1\n1\n2\n2\n", 7,
                  {"expected j_2 of case 1", "from 3 to 3"});
}

TEST(WillowFormat, RejectsRoadBeyondN) {
  expect_rejected(parse_file, "1\n3\n1\n1\n1\n4\n3\n", 6, "found 4");
}

TEST(WillowFormat, RejectsTrailingGarbage) {
  expect_rejected(parse_file, "1\n1\n5\n\n6\n", 5, "expected end of file after case 1");
}

TEST(WillowFormat, RejectsZeroCases) {
  EXPECT_NE(rejection_of(parse_file, "0\n").message.find("the number of cases T"),
            std::string::npos);
}

TEST(WillowFormat, RejectsEmptyFile) {
  EXPECT_NE(rejection_of(parse_file, "").message.find("found end of file"), std::string::npos);
}

TEST(WillowFormat, RejectsHugeNWithoutAllocatingIt) {
  // 2^31 - 1 cities would take gigabytes if reserved up front; the file holds only a few bytes.
  const Rejection rejection = rejection_of(parse_file, "1\n2147483647\n1\n2\n");
  EXPECT_EQ(rejection.line, 4u);
  EXPECT_NE(rejection.message.find("expected C_3"), std::string::npos);
  EXPECT_NE(rejection.message.find("case 1 declares N = 2147483647 on line 2"), std::string::npos)
      << rejection.message;
}

TEST(WillowFormat, RejectsNBeyondThirtyTwoBits) {
  expect_rejected(parse_file, "1\n99999999999999999999\n", 2, "out of range");
}

}  // namespace
}  // namespace gamebatch::io::willow
