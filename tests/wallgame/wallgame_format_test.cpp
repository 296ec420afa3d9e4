// The wallgame text format: what is accepted, the canonical form, and that every rejection names
// the line and what was expected there.
#include <gtest/gtest.h>

#include <string>

#include "io/wallgame/format.hpp"
#include "tests/format_test_helpers.hpp"

namespace gamebatch::io::wallgame {
namespace {

using gamebatch::testing::contains;
using gamebatch::testing::expect_rejected;
using gamebatch::testing::Rejection;
using gamebatch::testing::rejection_of;

TEST(WallgameFormat, ParsesTheLayout) {
  const auto boards = parse_file("2\n2 2\n12\n34\n1 3\n523\n");
  ASSERT_EQ(boards.size(), 2u);
  EXPECT_EQ(boards[0].height, 2);
  EXPECT_EQ(boards[0].width, 2);
  EXPECT_EQ(boards[0].costs, (std::vector<std::uint8_t>{1, 2, 3, 4}));
  EXPECT_EQ(boards[1].height, 1);
  EXPECT_EQ(boards[1].width, 3);
  EXPECT_EQ(boards[1].costs, (std::vector<std::uint8_t>{5, 2, 3}));
}

TEST(WallgameFormat, AcceptsAnyWhitespaceAndCrLf) {
  const auto unix_style = parse_file("1\n3 2\n01\n23\n45\n");
  const auto other_style = parse_file("  1\r\n3\t2 01 23\r\n\r\n45");
  ASSERT_EQ(other_style.size(), 1u);
  EXPECT_EQ(other_style[0].height, unix_style[0].height);
  EXPECT_EQ(other_style[0].width, unix_style[0].width);
  EXPECT_EQ(other_style[0].costs, unix_style[0].costs);
}

TEST(WallgameFormat, FormatCaseIsTheCanonicalLayout) {
  const std::string text = "2\n2 2\n12\n34\n1 3\n523\n";
  EXPECT_EQ(format_file(parse_file(text)), text);
  EXPECT_EQ(format_case(parse_file("1\r\n+2  2\r\n12 34")[0]), "2 2\n12\n34\n");
}

TEST(WallgameFormat, AcceptsTheLargestBoardsAndOneRow) {
  const std::string row(2000, '7');
  std::string text = "2\n1 2000\n" + row + "\n2000 1\n";
  for (int line = 0; line < 2000; ++line)
    text += "3\n";
  const auto boards = parse_file(text);
  ASSERT_EQ(boards.size(), 2u);
  EXPECT_EQ(boards[0].costs.size(), 2000u);
  EXPECT_EQ(boards[1].height, 2000);
  EXPECT_EQ(boards[1].costs.size(), 2000u);
}

TEST(WallgameFormat, RejectsRowOfTheWrongLength) {
  const Rejection shorter = rejection_of(parse_file, "1\n2 3\n123\n12\n");
  EXPECT_EQ(shorter.line, 4u);
  EXPECT_EQ(shorter.message, "expected row 2 of case 1 (3 digits 0-9), found '12' (2 characters)");
  expect_rejected(parse_file, "1\n2 3\n1234\n123\n", 3, "found '1234' (4 characters)");
}

TEST(WallgameFormat, RejectsNonDigit) {
  const Rejection letter = rejection_of(parse_file, "1\n2 3\n123\n1a3\n");
  EXPECT_EQ(letter.line, 4u);
  EXPECT_EQ(letter.message,
            "expected row 2 of case 1 (3 digits 0-9), found '1a3' ('a' at column 2 is not a "
            "digit)");
  const Rejection sign = rejection_of(parse_file, "1\n1 2\n-1\n");
  EXPECT_TRUE(contains(sign.message, "'-' at column 1 is not a digit")) << sign.message;
  const Rejection control = rejection_of(parse_file, "1\n1 2\n1\x01\n");
  EXPECT_TRUE(contains(control.message, R"(found '1\x01' (byte 0x01 at column 2 is not a digit))"))
      << control.message;
}

TEST(WallgameFormat, RejectsSizesOutOfRange) {
  const Rejection no_rows = rejection_of(parse_file, "1\n0 3\n");
  EXPECT_EQ(no_rows.line, 2u);
  EXPECT_EQ(no_rows.message,
            "expected the number of rows h of case 1 (an integer from 1 to 2000), found 0");
  EXPECT_TRUE(contains(rejection_of(parse_file, "1\n2001 3\n").message, "found 2001"));
  const Rejection no_columns = rejection_of(parse_file, "2\n1 1\n5\n2 0\n");
  EXPECT_EQ(no_columns.line, 4u);
  EXPECT_EQ(no_columns.message,
            "expected the number of columns w of case 2 (an integer from 1 to 2000), found 0");
  EXPECT_TRUE(contains(rejection_of(parse_file, "1\n2 2001\n").message, "found 2001"));
  EXPECT_TRUE(contains(rejection_of(parse_file, "1\n-2 3\n").message, "found -2"));
  EXPECT_TRUE(contains(rejection_of(parse_file, "1\n2 x\n").message, "columns w of case 1"));
  EXPECT_TRUE(contains(rejection_of(parse_file, "1\n99999999999999999999 1\n").message,
                       "which is out of range"));
}

TEST(WallgameFormat, RejectsMissingRowAtTheEndOfTheFile) {
  const Rejection rejection = rejection_of(parse_file, "1\n3 5\n99999\n99999\n");
  EXPECT_EQ(rejection.line, 4u);
  EXPECT_EQ(rejection.message,
            "expected row 3 of case 1 (5 digits 0-9), found end of file (case 1 declares h = 3 "
            "on line 2)");
}

TEST(WallgameFormat, RejectsMissingRowBeforeTheNextCase) {
  // The next case's "2 2" is read as the missing row: the wrong length says so.
  const Rejection rejection = rejection_of(parse_file, "2\n3 5\n11111\n11111\n2 2\n12\n34\n");
  EXPECT_EQ(rejection.line, 5u);
  EXPECT_EQ(rejection.message, "expected row 3 of case 1 (5 digits 0-9), found '2' (1 character)");
}

TEST(WallgameFormat, RejectsMissingCaseAndWidth) {
  const Rejection case_missing = rejection_of(parse_file, "2\n1 1\n5\n");
  EXPECT_EQ(case_missing.line, 3u);
  EXPECT_EQ(case_missing.message,
            "expected the number of rows h of case 2 (an integer from 1 to 2000), found end of "
            "file");
  EXPECT_TRUE(contains(rejection_of(parse_file, "1\n2").message, "columns w of case 1"));
}

TEST(WallgameFormat, RejectsTrailingGarbage) {
  const Rejection rejection = rejection_of(parse_file, "1\n1 1\n5\n\n6\n");
  EXPECT_EQ(rejection.line, 5u);
  EXPECT_EQ(rejection.message, "expected end of file after case 1 (T = 1), found '6'");
}

TEST(WallgameFormat, RejectsZeroCasesAndEmptyFile) {
  EXPECT_TRUE(contains(rejection_of(parse_file, "0\n").message, "the number of cases T"));
  expect_rejected(parse_file, "", 1, "found end of file");
}

TEST(WallgameFormat, RejectsHugeDeclarationsWithoutAllocatingThem) {
  // A billion cases of 2000 x 2000 would be petabytes; the file holds a few bytes.
  expect_rejected(parse_file, "1000000000\n2000 2000\n12\n", 3, "found '12' (2 characters)");
  const Rejection truncated = rejection_of(parse_file, "1000000000\n2000 2000\n");
  EXPECT_TRUE(contains(truncated.message, "declares h = 2000 on line 2")) << truncated.message;
}

}  // namespace
}  // namespace gamebatch::io::wallgame
