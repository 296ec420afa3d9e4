// The fast wallgame solver against the literal oracle: every board of some small shapes over a
// few digits, random boards of every size the oracle can play and every cost pattern, and
// RapidCheck's boards.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "core/wallgame/generators.hpp"
#include "core/wallgame/wallgame.hpp"
#include "wallgame_test_boards.hpp"

namespace gamebatch::wallgame {
namespace {

using testing::describe;

constexpr int kMaxReportedFailures = 10;

// Compares solve() with every SolverOptions against solve_brute_force(); counts the boards.
class Differential {
 public:
  void check(const Board& board, const std::string& context = "") {
    ++checked_;
    const Cost expected = solve_brute_force(board);
    for (const bool allow_32_bit : {true, false}) {
      for (const bool allow_avx2 : {true, false}) {
        const Cost actual = solve(board, SolverOptions{allow_32_bit, allow_avx2});
        if (actual != expected) {
          if (++failures_ <= kMaxReportedFailures) {
            ADD_FAILURE() << context << " " << describe(board) << ": solve() = " << actual
                          << " (32-bit " << allow_32_bit << ", AVX2 " << allow_avx2
                          << "), brute force = " << expected;
          }
          return;
        }
      }
    }
  }
  int checked() const { return checked_; }
  int failures() const { return failures_; }

 private:
  int checked_ = 0;
  int failures_ = 0;
};

// Every board of the given shape whose costs are drawn from `digits`.
void check_every_board(Differential& differential, std::int32_t height, std::int32_t width,
                       const std::vector<std::uint8_t>& digits) {
  Board board;
  board.height = height;
  board.width = width;
  const std::size_t cells = static_cast<std::size_t>(height) * static_cast<std::size_t>(width);
  std::vector<std::size_t> choice(cells, 0);  // an odometer over the digits
  while (true) {
    board.costs.clear();
    for (const std::size_t index : choice)
      board.costs.push_back(digits[index]);
    differential.check(board, "exhaustive");
    std::size_t cell = 0;
    while (cell < cells && ++choice[cell] == digits.size())
      choice[cell++] = 0;
    if (cell == cells)
      return;
  }
}

TEST(WallgameDifferential, EveryTwoByTwoBoard) {
  Differential differential;
  check_every_board(differential, 2, 2, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  EXPECT_EQ(differential.failures(), 0);
  EXPECT_EQ(differential.checked(), 10'000);
}

TEST(WallgameDifferential, EveryBoardOfSmallShapesOverFewDigits) {
  // Cheap, dear and in-between cells, where a greedy rule would go wrong; about 4,700 boards.
  Differential differential;
  check_every_board(differential, 2, 3, {0, 1, 9});  // 729
  check_every_board(differential, 3, 2, {0, 1, 9});  // 729
  check_every_board(differential, 1, 6, {0, 1, 9});  // 729
  check_every_board(differential, 2, 4, {0, 9});     // 256
  check_every_board(differential, 4, 2, {0, 9});     // 256
  check_every_board(differential, 3, 3, {0, 9});     // 512
  check_every_board(differential, 2, 5, {0, 9});     // 1024
  check_every_board(differential, 5, 1, {0, 5, 9});  // 243
  check_every_board(differential, 2, 3, {2, 3});     // 64: costs that differ by little
  check_every_board(differential, 3, 2, {2, 3});     // 64
  EXPECT_EQ(differential.failures(), 0);
  EXPECT_EQ(differential.checked(), 3 * 729 + 2 * 256 + 512 + 1024 + 243 + 2 * 64);
}

TEST(WallgameDifferential, RandomBoardsOfEverySizeAndCostPattern) {
  // Every shape with at most 8 wall slots (the oracle takes well under a millisecond there), 20
  // boards of each random cost pattern; shapes of 9 to 12 slots (4 x 4, 3 x 5, 2 x 12, ...) 3
  // each. All-zero and all-nine boards: one of each shape (there is only one). Rows up to 8 wide
  // and columns up to 13 tall are among the shapes. About 3,100 boards.
  constexpr std::int32_t kBulkSlots = 8;
  constexpr int kBoardsPerPattern = 20;
  constexpr int kLargeBoardsPerPattern = 3;
  Differential differential;
  int expected_count = 0;
  std::uint64_t shape_seed = 0;
  for (std::int32_t height = 1; height <= 13; ++height) {
    for (std::int32_t width = 1; width <= 12; ++width) {
      const std::int32_t slots = (height - 1) * width;
      if (slots > kMaxBruteForceWallSlots || (height == 1 && width > 8))
        continue;
      std::mt19937_64 rng(0x3a11'0000 + ++shape_seed);
      for (const CostPattern pattern : kAllCostPatterns) {
        const bool constant = pattern == CostPattern::all_zero || pattern == CostPattern::all_nine;
        const int boards =
            constant ? 1 : (slots <= kBulkSlots ? kBoardsPerPattern : kLargeBoardsPerPattern);
        for (int board = 0; board < boards; ++board) {
          differential.check(generate_board(height, width, pattern, rng),
                             std::string(to_string(pattern)));
          ++expected_count;
        }
      }
    }
  }
  EXPECT_EQ(differential.failures(), 0);
  EXPECT_EQ(differential.checked(), expected_count);
  EXPECT_GT(differential.checked(), 3'000);
}

// An arbitrary board of at most 8 wall slots, built from plain integers so that RapidCheck
// shrinks towards small boards of small digits.
Board arbitrary_board() {
  const auto height = *rc::gen::inRange<std::int32_t>(1, 6);
  const std::int32_t max_width = height == 1 ? 8 : 8 / (height - 1);
  const auto width = *rc::gen::inRange<std::int32_t>(1, max_width + 1);
  Board board;
  board.height = height;
  board.width = width;
  board.costs = *rc::gen::container<std::vector<std::uint8_t>>(
      static_cast<std::size_t>(height * width), rc::gen::inRange<std::uint8_t>(0, 10));
  return board;
}

RC_GTEST_PROP(WallgameProperty, FastSolverEqualsBruteForce, ()) {
  const Board board = arbitrary_board();
  RC_LOG() << describe(board) << "\n";
  RC_ASSERT(solve(board) == solve_brute_force(board));
}

}  // namespace
}  // namespace gamebatch::wallgame
