// The boigame text format: what is accepted, and that every rejection names the line and what was
// expected there.
#include <string>

#include <gtest/gtest.h>

#include "io/boigame/format.hpp"
#include "io/boigame/problem.hpp"
#include "tests/format_test_helpers.hpp"
#include "tests/test_data.hpp"

namespace gamebatch::io::boigame {
namespace {

using gamebatch::testing::cat;
using gamebatch::testing::expect_rejected;
using gamebatch::testing::read_test_file;

TEST(BoigameFormat, ParsesTheOfficialSample) {
  const auto boards = parse_file(read_test_file("boigame/sample.in"));
  ASSERT_EQ(boards.size(), 2u);
  const Board& first = boards[0];
  EXPECT_EQ(first.n, 4);
  EXPECT_EQ(first.a, first.square(0, 0));
  EXPECT_EQ(first.b, first.square(3, 3));
  EXPECT_FALSE(first.is_white(first.square(1, 1)));
  EXPECT_TRUE(first.is_white(first.square(1, 2)));
  EXPECT_TRUE(first.is_white(first.a));
  EXPECT_TRUE(first.is_white(first.b));
  EXPECT_FALSE(boards[1].is_white(boards[1].square(2, 2)));
  EXPECT_EQ(gamebatch::boigame::check_board(first), "");
}

TEST(BoigameFormat, RoundTripsThroughFormatFile) {
  const std::string text = read_test_file("boigame/sample.in");
  EXPECT_EQ(format_file(parse_file(text)), text);
}

TEST(BoigameFormat, AcceptsCrLfBlankLinesAndTrailingWhitespace) {
  const auto unix_style = parse_file("1\n3\nA.#\n...\n#.B\n");
  const auto windows_style = parse_file("1\r\n3\r\n\r\nA.#\r\n...  \r\n#.B\r\n\r\n");
  ASSERT_EQ(windows_style.size(), 1u);
  EXPECT_EQ(windows_style[0], unix_style[0]);
}

TEST(BoigameFormat, CanonicalTextIsTheSameWhereverTheTestStands) {
  const Problem& game = problem();
  const auto alone = game.parse("1\n2\nAB\n#.\n");
  const auto second = game.parse("2\n2\nA.\n.B\n2\r\nAB\r\n#.\r\n");
  ASSERT_EQ(alone.size(), 1u);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(alone[0]->canonical(), "2\nAB\n#.\n");
  EXPECT_EQ(second[1]->canonical(), alone[0]->canonical());
  EXPECT_NE(second[0]->canonical(), alone[0]->canonical());
}

TEST(BoigameFormat, AnswerLineIsTheWinnerAlone) {
  EXPECT_EQ(problem().answer_line(3, "B"), "B\n");
}

TEST(BoigameFormat, RejectsNoA) {
  expect_rejected(parse_file, "2\n2\nAB\n..\n3\n...\n.#.\n..B\n", 8,
                  "expected exactly one 'A' in test 2, found none");
}

TEST(BoigameFormat, RejectsTwoAs) {
  expect_rejected(parse_file, "1\n3\nA..\n...\n.AB\n", 5,
                  "expected exactly one 'A' in test 1, found a second one in row 3, column 2 "
                  "(the first is in row 1, column 1)");
}

TEST(BoigameFormat, RejectsNoB) {
  expect_rejected(parse_file, "1\n2\nA.\n..\n", 4,
                  "expected exactly one 'B' in test 1, found none");
}

TEST(BoigameFormat, RejectsTwoBs) {
  expect_rejected(parse_file, "1\n2\nAB\nB.\n", 4,
                  "expected exactly one 'B' in test 1, found a second one");
}

TEST(BoigameFormat, RejectsAnUnknownCharacter) {
  expect_rejected(parse_file, "1\n3\nA..\n.x.\n..B\n", 4,
                  "row 2 of test 1, column 2: expected one of '.', '#', 'A', 'B', found 'x'");
  expect_rejected(parse_file, "1\n3\nA..\n.\x01.\n..B\n", 4, "found byte 0x01");
  expect_rejected(parse_file, "1\n2\nAb\n..\n", 3, "found 'b'");
}

TEST(BoigameFormat, RejectsAShortRow) {
  expect_rejected(parse_file,
                  "1\n8\nA.......\n........\n........\n........\n.......\n........\n........\n"
                  ".......B\n",
                  7, "row 5 of test 1 has 7 characters, expected 8");
}

TEST(BoigameFormat, RejectsALongRow) {
  expect_rejected(parse_file, "1\n3\nA..\n....\n..B\n", 4,
                  "row 2 of test 1 has 4 characters, expected 3");
}

TEST(BoigameFormat, RejectsASpaceInsideARowWithAHint) {
  expect_rejected(parse_file, "1\n3\nA..\n. .\n..B\n", 4,
                  "row 2 of test 1 has 1 character, expected 3 (a row holds no spaces)");
}

TEST(BoigameFormat, RejectsAMissingRowAtTheEndOfTheFile) {
  expect_rejected(parse_file, "1\n3\nA..\n...\n", 4,
                  "expected row 3 of test 1 (3 characters from . # A B), found end of file "
                  "(test 1 declares n = 3 on line 2)");
}

TEST(BoigameFormat, RejectsAMissingTest) {
  expect_rejected(parse_file, "3\n2\nAB\n..\n2\nA.\n.B\n", 7,
                  "expected the board size n of test 3 (an integer from 2 to 10000), found end "
                  "of file");
}

TEST(BoigameFormat, RejectsBoardsWithoutAWhitePathBetweenAAndB) {
  expect_rejected(parse_file, "2\n2\nAB\n..\n3\nA#.\n##.\n..B\n", 5,
                  "expected a path of white squares between A (row 1, column 1) and B (row 3, "
                  "column 3) in test 2 (the statement promises one), found none");
  // Diagonal neighbours are not joined.
  expect_rejected(parse_file, "1\n2\nA#\n#B\n", 2, "expected a path of white squares");
}

TEST(BoigameFormat, ReportsTheFirstProblemInFileOrder) {
  // Paths are checked after the file is read, but a test without a path still comes before a
  // bad row in a later test; and a bad row before a later test without a path.
  expect_rejected(parse_file, "2\n2\nA#\n#B\n2\nAx\n.B\n", 2, "expected a path of white squares");
  expect_rejected(parse_file, "2\n2\nAx\n.B\n2\nA#\n#B\n", 3, "found 'x'");
}

TEST(BoigameFormat, RejectsSizesOutsideTheLimits) {
  expect_rejected(parse_file, "1\n1\nA\n", 2,
                  "expected the board size n of test 1 (an integer from 2 to "
                  "10000), found 1");
  expect_rejected(parse_file, "1\n10001\n", 2, "found 10001");
  expect_rejected(parse_file, "1\nx\n", 2, "found 'x'");
  expect_rejected(parse_file, "1\n99999999999999999999\n", 2, "which is out of range");
}

TEST(BoigameFormat, RejectsABadTestCount) {
  expect_rejected(parse_file, "0\n", 1,
                  "expected the number of tests t (an integer from 1 to 1000000000), "
                  "found 0");
  expect_rejected(parse_file, "", 1, "found end of file");
  expect_rejected(parse_file, "two\n", 1, "found 'two'");
}

TEST(BoigameFormat, RejectsTrailingGarbage) {
  expect_rejected(parse_file, "1\n2\nAB\n..\n\n5\n", 6,
                  "expected end of file after test 1 (t = 1), found '5'");
}

TEST(BoigameFormat, RejectsAHugeDeclaredSizeWithoutAllocatingIt) {
  // n = 10,000 would take 12.5 MB of bits; the file holds two short rows. The parser must fail at
  // the first row instead of reserving the declared board.
  expect_rejected(parse_file, "1\n10000\nA.\n.B\n", 3,
                  "row 1 of test 1 has 2 characters, expected 10000");
  std::string rows_then_end = "1\n10000\n";
  rows_then_end += std::string(10000, '.') + "\n";
  expect_rejected(parse_file, rows_then_end, 3,
                  "expected row 2 of test 1 (10000 characters from . # A B), found end of file");
}

TEST(BoigameFormat, ReportsTheLineOfTheOffendingRowInALaterTest) {
  std::string text = "2\n3\nA..\n...\n..B\n3\n...\nA#B\n";
  text += "..\n";  // row 3 of test 2, on line 9
  expect_rejected(parse_file, text, 9, "row 3 of test 2 has 2 characters, expected 3");
}

TEST(BoigameFormat, AcceptsTheLargestSize) {
  const int n = 10000;
  std::string text = cat("1\n", n, "\n");
  text.reserve(text.size() + static_cast<std::size_t>(n) * (n + 1));
  for (int row = 0; row < n; ++row) {
    std::string line(static_cast<std::size_t>(n), row % 2 == 0 ? '.' : '#');
    if (row % 2 == 1)
      line[row % 4 == 1 ? static_cast<std::size_t>(n - 1) : 0] = '.';
    if (row == 0)
      line[0] = 'A';
    if (row == n - 1)
      line[static_cast<std::size_t>(n - 1)] = 'B';
    text += line;
    text += '\n';
  }
  const auto boards = parse_file(text);
  ASSERT_EQ(boards.size(), 1u);
  EXPECT_EQ(boards[0].n, n);
  EXPECT_EQ(format_board(boards[0]), text.substr(text.find('\n') + 1));
}

}  // namespace
}  // namespace gamebatch::io::boigame
