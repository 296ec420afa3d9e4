// boigame: the fast solver against the full-game oracle on thousands of small random boards, and
// against the analysis' DP written plainly on boards whose layers span many 64-bit words.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/boigame/boigame.hpp"
#include "core/boigame/generators.hpp"
#include "tests/boigame/boigame_test_helpers.hpp"

namespace gamebatch::boigame {
namespace {

using testing::picture;
using testing::solve_by_plain_dp;

Outcome outcome_of(Winner winner) {
  return winner == Winner::a ? Outcome::a_wins : Outcome::b_wins;
}

const char* name_of(Outcome outcome) {
  switch (outcome) {
    case Outcome::a_wins:
      return "A";
    case Outcome::b_wins:
      return "B";
    case Outcome::draw:
      return "draw";
  }
  return "?";
}

// Tallies of one differential run, so that a run that only ever met trivial boards fails.
struct Tally {
  int boards = 0;
  int b_wins = 0;
  int mismatches = 0;
  int with_draws = 0;
};

void check_against_oracle(const Board& board, const std::string& origin, Tally& tally) {
  constexpr int kMaxReported = 10;
  const GameAnalysis analysis = analyse_full_game(board);
  const Outcome fast = outcome_of(solve(board));
  ++tally.boards;
  tally.b_wins += analysis.start == Outcome::b_wins ? 1 : 0;
  if (analysis.drawn_states != 0 && ++tally.with_draws <= kMaxReported) {
    ADD_FAILURE() << origin << ": " << analysis.drawn_states << " of " << analysis.states
                  << " states are draws, start: " << name_of(analysis.start) << "\n"
                  << picture(board);
  }
  if (fast != analysis.start && ++tally.mismatches <= kMaxReported) {
    ADD_FAILURE() << origin << ": solve() = " << name_of(fast)
                  << ", full game = " << name_of(analysis.start) << "\n"
                  << picture(board);
  }
}

TEST(BoigameDifferential, FastSolverMatchesTheFullGameOnRandomSmallBoards) {
  // n = 2..8; random black squares at 0% to 50% (beyond that the repaired path is most of the
  // board), both placements; then every named shape. 4,200 boards.
  constexpr int kDensityBoards = 40;
  constexpr int kShapeBoards = 20;
  constexpr std::int32_t kWallPercents[] = {0, 10, 20, 30, 40, 50};
  Tally tally;
  std::uint64_t stream = 0;
  for (std::int32_t n = 2; n <= kMaxBruteForceSize; ++n) {
    for (const Placement placement : kAllPlacements) {
      for (const std::int32_t walls : kWallPercents) {
        std::mt19937_64 rng(0xb01'0000 + ++stream);
        for (int k = 0; k < kDensityBoards; ++k) {
          check_against_oracle(generate_random_board(n, walls, placement, rng),
                               "n " + std::to_string(n) + ", " + std::to_string(walls) +
                                   "% walls, " + std::string(to_string(placement)) + ", seed " +
                                   std::to_string(0xb01'0000 + stream) + " #" + std::to_string(k),
                               tally);
        }
      }
      for (const BoardShape shape : {BoardShape::open, BoardShape::snake, BoardShape::maze}) {
        std::mt19937_64 rng(0xb02'0000 + ++stream);
        for (int k = 0; k < kShapeBoards; ++k) {
          check_against_oracle(generate_board(shape, n, placement, rng),
                               std::string(to_string(shape)) + " n " + std::to_string(n) + ", " +
                                   std::string(to_string(placement)) + " #" + std::to_string(k),
                               tally);
        }
      }
    }
  }
  EXPECT_EQ(tally.mismatches, 0) << "among " << tally.boards << " boards";
  EXPECT_EQ(tally.with_draws, 0) << "among " << tally.boards << " boards";
  EXPECT_EQ(tally.boards,
            (kMaxBruteForceSize - 1) * 2 *
                (static_cast<int>(std::size(kWallPercents)) * kDensityBoards + 3 * kShapeBoards));
  // Both answers must be well represented, or the comparison proves little.
  EXPECT_GT(tally.b_wins, tally.boards / 5);
  EXPECT_LT(tally.b_wins, tally.boards * 4 / 5);
  RecordProperty("boards", tally.boards);
  RecordProperty("b_wins", tally.b_wins);
}

// An arbitrary board of side 2..6 from plain integers, so that RapidCheck shrinks towards small
// open boards; A and B are joined by white squares along A's row and then B's column.
Board arbitrary_board() {
  const auto n = *rc::gen::inRange<std::int32_t>(2, 7);
  Board board = Board::all_black(n);
  const auto black = *rc::gen::container<std::vector<bool>>(static_cast<std::size_t>(n * n),
                                                            rc::gen::arbitrary<bool>());
  for (Square square = 0; square < n * n; ++square)
    board.set_white(square, !black[static_cast<std::size_t>(square)]);
  board.a = *rc::gen::inRange<Square>(0, n * n);
  board.b = *rc::gen::suchThat(rc::gen::inRange<Square>(0, n * n),
                               [&](Square square) { return square != board.a; });
  const bool keep_walls = *rc::gen::arbitrary<bool>();
  if (!keep_walls || !has_white_path(board)) {
    const std::int32_t a_row = board.a / n;
    const std::int32_t b_column = board.b % n;
    for (std::int32_t column = std::min(board.a % n, b_column);
         column <= std::max(board.a % n, b_column); ++column)
      board.set_white(board.square(a_row, column), true);
    for (std::int32_t row = std::min(a_row, board.b / n); row <= std::max(a_row, board.b / n);
         ++row)
      board.set_white(board.square(row, b_column), true);
  }
  return board;
}

RC_GTEST_PROP(BoigameDifferential, ArbitrarySmallBoardsMatchTheFullGame, ()) {
  const Board board = arbitrary_board();
  RC_ASSERT(check_board(board).empty());
  const GameAnalysis analysis = analyse_full_game(board);
  RC_ASSERT(analysis.drawn_states == 0u);
  RC_ASSERT(outcome_of(solve(board)) == analysis.start);
}

TEST(BoigameDifferential, FastSolverMatchesThePlainDpOnBoardsWithWideLayers) {
  // Layers longer than 64 squares make the bit tables span several words and several 64 x 64
  // blocks, which the oracle's 8 x 8 boards never reach. Open boards with A and B in opposite
  // corners have the widest layers (n squares in the middle).
  int checked = 0;
  int b_wins = 0;
  for (const std::int32_t n : {63, 64, 65, 100, 127, 128, 129, 150}) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(n));
    for (const BoardShape shape : kAllShapes) {
      for (const Placement placement : kAllPlacements) {
        const Board board = generate_board(shape, n, placement, rng);
        const Winner expected = solve_by_plain_dp(board);
        ASSERT_EQ(solve(board), expected)
            << to_string(shape) << " n " << n << ", " << to_string(placement) << "\n"
            << picture(board);
        ++checked;
        b_wins += expected == Winner::b ? 1 : 0;
      }
    }
  }
  EXPECT_EQ(checked, 8 * 5 * 2);
  EXPECT_GT(b_wins, 0);
  EXPECT_LT(b_wins, checked);
}

TEST(BoigameDifferential, FastSolverMatchesThePlainDpOnRandomDensities) {
  // Densities around the point where random walls start to cut shortest paths apart, where the
  // layers are irregular and the step lists vary most.
  int checked = 0;
  std::mt19937_64 rng(77);
  for (int k = 0; k < 120; ++k) {
    const std::int32_t n = 20 + static_cast<std::int32_t>(rng() % 120);
    const std::int32_t walls = static_cast<std::int32_t>(rng() % 40);
    const Placement placement = kAllPlacements[k % 2];
    const Board board = generate_random_board(n, walls, placement, rng);
    ASSERT_EQ(solve(board), solve_by_plain_dp(board))
        << "n " << n << ", " << walls << "% walls, " << to_string(placement) << "\n"
        << picture(board);
    ++checked;
  }
  EXPECT_EQ(checked, 120);
}

}  // namespace
}  // namespace gamebatch::boigame
