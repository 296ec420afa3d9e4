// The fast wallgame solver on boards too large for the oracle: the original's examples, closed
// forms, and properties of the game that any correct solver keeps (mirror images, scaling,
// monotonicity, bounds); and every arithmetic and instruction set agreeing with each other.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/wallgame/generators.hpp"
#include "core/wallgame/wallgame.hpp"
#include "wallgame_test_boards.hpp"

namespace gamebatch::wallgame {
namespace {

using testing::board_of;
using testing::describe;
using testing::uniform_board;

Board mirrored(const Board& board) {
  Board mirror = board;
  const auto width = static_cast<std::size_t>(board.width);
  for (std::size_t start = 0; start < mirror.costs.size(); start += width) {
    std::reverse(mirror.costs.begin() + static_cast<std::ptrdiff_t>(start),
                 mirror.costs.begin() + static_cast<std::ptrdiff_t>(start + width));
  }
  return mirror;
}

TEST(WallgameSolver, OriginalExamples) {
  EXPECT_EQ(solve(board_of({"12", "34"})), 6);
  EXPECT_EQ(solve(board_of({"99999", "99999", "99999"})), 99);
  EXPECT_EQ(solve(board_of({"11111", "90005"})), 10);
  // The fourth, 40 x 40, is checked through the file in wallgame_problem_test.
}

TEST(WallgameSolver, OneRowCostsItsCheapestCell) {
  std::mt19937_64 rng(11);
  for (const std::int32_t width : {1, 2, 7, 50, 2000}) {
    const Board board = generate_board(1, width, CostPattern::uniform, rng);
    EXPECT_EQ(solve(board), *std::min_element(board.costs.begin(), board.costs.end()));
  }
}

TEST(WallgameSolver, OneColumnCostsTheColumnSum) {
  std::mt19937_64 rng(12);
  for (const std::int32_t height : {1, 2, 3, 50, 2000}) {
    const Board board = generate_board(height, 1, CostPattern::uniform, rng);
    Cost sum = 0;
    for (const std::uint8_t cost : board.costs)
      sum += cost;
    EXPECT_EQ(solve(board), sum);
  }
}

TEST(WallgameSolver, EqualCostsMakeRabbitVisitEveryCellAboveTheBottomOnce) {
  // The closed form the oracle confirms on small boards (see wallgame_oracle_test), here up to
  // the largest accepted width and height.
  const std::pair<std::int32_t, std::int32_t> sizes[] = {{2, 2},    {7, 13},   {50, 50},
                                                         {2000, 3}, {3, 2000}, {300, 2000}};
  for (const auto& [height, width] : sizes) {
    for (const int digit : {0, 1, 9}) {
      EXPECT_EQ(solve(uniform_board(height, width, digit)),
                Cost{digit} * ((Cost{height} - 1) * width + 1))
          << height << " x " << width << " of " << digit;
    }
  }
}

TEST(WallgameSolver, FreeTopRowOfTwoCostsTheDearestBottomCell) {
  std::mt19937_64 rng(13);
  for (const std::int32_t width : {2, 3, 10, 100, 1000}) {
    for (int repeat = 0; repeat < 5; ++repeat) {
      Board board = generate_board(2, width, CostPattern::uniform, rng);
      std::fill(board.costs.begin(), board.costs.begin() + width, std::uint8_t{0});
      EXPECT_EQ(solve(board), *std::max_element(board.costs.begin() + width, board.costs.end()))
          << describe(board);
    }
  }
}

TEST(WallgameSolver, MirrorImageHasTheSameValue) {
  std::mt19937_64 rng(14);
  for (int repeat = 0; repeat < 300; ++repeat) {
    const auto pattern =
        kAllCostPatterns[static_cast<std::size_t>(repeat) % std::size(kAllCostPatterns)];
    const Board board = generate_board(SizeRange{1, 60, 1, 60}, pattern, rng);
    EXPECT_EQ(solve(board), solve(mirrored(board))) << describe(board);
  }
  const Board large = generate_board(300, 300, CostPattern::uniform, rng);
  EXPECT_EQ(solve(large), solve(mirrored(large)));
}

TEST(WallgameSolver, DoublingEveryCostDoublesTheValue) {
  std::mt19937_64 rng(15);
  for (int repeat = 0; repeat < 300; ++repeat) {
    Board board = generate_board(SizeRange{1, 60, 1, 60}, CostPattern::uniform, rng);
    for (std::uint8_t& cost : board.costs)
      cost = static_cast<std::uint8_t>(cost / 2);  // 0..4
    Board doubled = board;
    for (std::uint8_t& cost : doubled.costs)
      cost = static_cast<std::uint8_t>(cost * 2);
    EXPECT_EQ(solve(doubled), 2 * solve(board)) << describe(board);
  }
}

TEST(WallgameSolver, RaisingACostNeverLowersTheValue) {
  std::mt19937_64 rng(16);
  for (int repeat = 0; repeat < 300; ++repeat) {
    Board board = generate_board(SizeRange{1, 40, 1, 40}, CostPattern::low, rng);
    const Cost before = solve(board);
    const std::size_t cell = rng() % board.costs.size();
    board.costs[cell] = static_cast<std::uint8_t>(board.costs[cell] + 1 + rng() % 7);
    EXPECT_GE(solve(board), before) << describe(board) << " raised cell " << cell;
  }
}

TEST(WallgameSolver, ValueLiesBetweenTheRowMinimaAndTwoWalksAcrossEveryRow) {
  // Rabbit pays at least one cell of every row. And he can always keep walking one way, turn at
  // the row's end once and walk on: at most 2w cells of a row and a step down (the bound that
  // lets the solver use 32-bit arithmetic).
  std::mt19937_64 rng(17);
  for (int repeat = 0; repeat < 300; ++repeat) {
    const auto pattern =
        kAllCostPatterns[static_cast<std::size_t>(repeat) % std::size(kAllCostPatterns)];
    const Board board = generate_board(SizeRange{1, 80, 1, 80}, pattern, rng);
    Cost row_minima = 0;
    const auto width = static_cast<std::ptrdiff_t>(board.width);
    for (std::int32_t row = 0; row < board.height; ++row) {
      const auto first = board.costs.begin() + row * width;
      row_minima += *std::min_element(first, first + width);
    }
    const Cost dearest = *std::max_element(board.costs.begin(), board.costs.end());
    const Cost value = solve(board);
    EXPECT_GE(value, row_minima) << describe(board);
    EXPECT_LE(value, dearest * (1 + (Cost{board.height} - 1) * (2 * Cost{board.width} + 1)))
        << describe(board);
  }
}

TEST(WallgameSolver, EveryArithmeticAndInstructionSetAgree) {
  std::mt19937_64 rng(18);
  std::vector<Board> boards;
  for (int repeat = 0; repeat < 200; ++repeat) {
    const auto pattern =
        kAllCostPatterns[static_cast<std::size_t>(repeat) % std::size(kAllCostPatterns)];
    boards.push_back(generate_board(SizeRange{1, 70, 1, 70}, pattern, rng));
  }
  boards.push_back(generate_board(400, 400, CostPattern::uniform, rng));
  boards.push_back(generate_board(3, 2000, CostPattern::sparse, rng));
  for (const Board& board : boards) {
    const Cost reference = solve(board, SolverOptions{false, false});
    EXPECT_EQ(solve(board, SolverOptions{true, false}), reference) << describe(board);
    EXPECT_EQ(solve(board, SolverOptions{false, true}), reference) << describe(board);
    EXPECT_EQ(solve(board, SolverOptions{true, true}), reference) << describe(board);
  }
}

TEST(WallgameSolver, RejectsInvalidBoards) {
  Board empty;
  EXPECT_THROW(solve(empty), std::invalid_argument);
  Board not_a_digit = board_of({"12", "34"});
  not_a_digit.costs[0] = 10;
  EXPECT_THROW(solve(not_a_digit), std::invalid_argument);
  Board too_few_costs = board_of({"12", "34"});
  too_few_costs.height = 3;
  EXPECT_THROW(solve(too_few_costs), std::invalid_argument);
}

}  // namespace
}  // namespace gamebatch::wallgame
