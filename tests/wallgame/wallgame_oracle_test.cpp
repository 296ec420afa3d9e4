// The wallgame oracle (the rules played literally) on boards worked out by hand and on the
// original's small examples, before it is trusted to judge the fast solver.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>

#include "core/wallgame/generators.hpp"
#include "core/wallgame/wallgame.hpp"
#include "wallgame_test_boards.hpp"

namespace gamebatch::wallgame {
namespace {

using testing::board_of;
using testing::describe;
using testing::uniform_board;

TEST(WallgameBruteForce, OneRowEndsTheGameWhenTheTokenIsPlaced) {
  // The top row is the bottom row: Rabbit puts the token on the cheapest cell, and that is all.
  EXPECT_EQ(solve_brute_force(board_of({"7"})), 7);
  EXPECT_EQ(solve_brute_force(board_of({"523"})), 2);
  EXPECT_EQ(solve_brute_force(board_of({"9990999"})), 0);
}

TEST(WallgameBruteForce, OneColumnCostsTheColumnSum) {
  // Eel cannot wall the only way down, so Rabbit walks straight down.
  EXPECT_EQ(solve_brute_force(board_of({"4", "5", "6"})), 15);
  EXPECT_EQ(solve_brute_force(board_of({"0", "9", "0", "9", "0", "9", "0", "9"})), 36);
}

TEST(WallgameBruteForce, OriginalSmallExamples) {
  // "12/34": on the 1, Eel walls and Rabbit pays 1 + 2 + 4 = 7; on the 2, walled or not, 6.
  EXPECT_EQ(solve_brute_force(board_of({"12", "34"})), 6);
  EXPECT_EQ(solve_brute_force(board_of({"99999", "99999", "99999"})), 99);
  EXPECT_EQ(solve_brute_force(board_of({"11111", "90005"})), 10);
}

TEST(WallgameBruteForce, FreeTopRowOfTwoCostsTheDearestBottomCell) {
  // Eel walls every slot the token stands on except the one above the dearest bottom cell, and
  // Rabbit, unable to step down anywhere else, ends up walking there.
  EXPECT_EQ(solve_brute_force(board_of({"000", "090"})), 9);
  EXPECT_EQ(solve_brute_force(board_of({"000", "900"})), 9);
  EXPECT_EQ(solve_brute_force(board_of({"0000", "1234"})), 4);
  EXPECT_EQ(solve_brute_force(board_of({"00000", "31413"})), 4);
}

TEST(WallgameBruteForce, WallingTheMiddleMakesRabbitPayOneSide) {
  // On the free middle cell Eel walls; Rabbit steps to a side (1), where Eel walls again and
  // Rabbit walks back across the middle to the other side (1): 2. From a side cell it is 2 too.
  EXPECT_EQ(solve_brute_force(board_of({"101", "000"})), 2);
}

TEST(WallgameBruteForce, EqualCostsMakeRabbitVisitEveryCellAboveTheBottomOnce) {
  // Rabbit starts in a corner and walks along each row; Eel walls every slot but the row's last,
  // so each of the h - 1 upper rows is paid in full, plus one bottom cell.
  for (std::int32_t height = 1; height <= 5; ++height) {
    for (std::int32_t width = 1; (height - 1) * width <= kMaxBruteForceWallSlots && width <= 8;
         ++width) {
      for (const int digit : {0, 1, 9}) {
        const Board board = uniform_board(height, width, digit);
        EXPECT_EQ(solve_brute_force(board), digit * ((height - 1) * width + 1)) << describe(board);
      }
    }
  }
}

TEST(WallgameBruteForce, DoesNotDependOnMirroringTheBoard) {
  EXPECT_EQ(solve_brute_force(board_of({"1290", "3475", "0815"})),
            solve_brute_force(board_of({"0921", "5743", "5180"})));
}

TEST(WallgameBruteForce, RejectsTooManyWallSlotsAndInvalidBoards) {
  std::mt19937_64 rng(7);
  EXPECT_NO_THROW(solve_brute_force(generate_board(4, 4, CostPattern::uniform, rng)));  // 12 slots
  EXPECT_THROW(solve_brute_force(generate_board(3, 7, CostPattern::uniform, rng)),
               std::invalid_argument);  // 14 slots
  EXPECT_NO_THROW(solve_brute_force(generate_board(1, 40, CostPattern::uniform, rng)));
  Board not_a_digit = board_of({"12", "34"});
  not_a_digit.costs[3] = 10;
  EXPECT_THROW(solve_brute_force(not_a_digit), std::invalid_argument);
  Board missing_costs = board_of({"12", "34"});
  missing_costs.costs.pop_back();
  EXPECT_THROW(solve_brute_force(missing_costs), std::invalid_argument);
}

}  // namespace
}  // namespace gamebatch::wallgame
