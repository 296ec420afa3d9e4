// The full-game oracle on positions worked out by hand from the rules, and its limits.
#include <random>
#include <stdexcept>

#include <gtest/gtest.h>

#include "core/boigame/boigame.hpp"
#include "core/boigame/generators.hpp"
#include "tests/boigame/boigame_test_helpers.hpp"

namespace gamebatch::boigame {
namespace {

using testing::board_from_rows;

Outcome oracle(const std::vector<std::string>& rows) {
  const GameAnalysis analysis = analyse_full_game(board_from_rows(rows));
  EXPECT_EQ(analysis.drawn_states, 0u);
  return analysis.start;
}

TEST(BoigameOracle, NeighboursStartingOnEachOtherGoToA) {
  // A's first step lands on B, which stands on its own start: passing over it wins.
  EXPECT_EQ(oracle({"AB", "##"}), Outcome::a_wins);
  EXPECT_EQ(oracle({"AB", ".."}), Outcome::a_wins);
}

TEST(BoigameOracle, DistanceTwoGoesToB) {
  // A must step to a square next to B; B steps onto it and the jump lands on A's start.
  EXPECT_EQ(oracle({"A.B", "###", "###"}), Outcome::b_wins);
  EXPECT_EQ(oracle({"A.", ".B"}), Outcome::b_wins);
}

TEST(BoigameOracle, CorridorsGoByParity) {
  // One path only: odd length, A arrives first; even length, B meets A in the middle and jumps.
  EXPECT_EQ(oracle({"A..B", "####", "####", "####"}), Outcome::a_wins);
  EXPECT_EQ(oracle({"A...B", "#####", "#####", "#####", "#####"}), Outcome::b_wins);
  EXPECT_EQ(oracle({"A....B", "######", "######", "######", "######", "######"}), Outcome::a_wins);
}

TEST(BoigameOracle, OfficialSample) {
  EXPECT_EQ(oracle({"A...", ".#..", "....", "...B"}), Outcome::b_wins);
  EXPECT_EQ(oracle({"A...", "....", "..#.", "...B"}), Outcome::a_wins);
}

TEST(BoigameOracle, RingOfEightGoesToBWhoAnswersAsCommitment) {
  // D = 4 around the ring, middle squares (0,2) and (2,0). A's first step commits to one half;
  // B then steps next to that half's middle square, and A's only way on is onto it. Stepping
  // back home instead leaves A two moves behind.
  EXPECT_EQ(oracle({"A..", ".#.", "..B"}), Outcome::b_wins);
}

TEST(BoigameOracle, ADetourIntoADeadEndDoesNotEscapeBsJump) {
  // D = 8 along the top row and down the right column: the middle layer is the single square
  // (0,4). A could step into the dead end (1,0), but then B simply runs home first.
  EXPECT_EQ(oracle({"A....", ".###.", "####.", "####.", "####B"}), Outcome::b_wins);
}

TEST(BoigameOracle, RejectsBoardsAboveItsLimitAndInvalidBoards) {
  std::mt19937_64 rng(1);
  EXPECT_THROW(analyse_full_game(generate_board(BoardShape::open, 9, Placement::corners, rng)),
               std::invalid_argument);
  EXPECT_NO_THROW(analyse_full_game(generate_board(BoardShape::open, 8, Placement::corners, rng)));
  Board cut = board_from_rows({"A.", ".B"});
  cut.set_white(cut.square(0, 1), false);
  cut.set_white(cut.square(1, 0), false);
  EXPECT_THROW(analyse_full_game(cut), std::invalid_argument);
}

TEST(BoigameOracle, CountsOnlyTheStatesOfThePiecesComponent) {
  // Component {A, (0,1), B} plus a separate white square (2,0): 3 squares, 3 * 3 ordered pairs,
  // minus the 3 equal pairs, minus pairs where a piece stands on the other's start (A on B's
  // start: 2 pairs; B on A's start: 2 pairs; both: 1 counted twice), times two movers.
  const GameAnalysis analysis = analyse_full_game(board_from_rows({"A.B", "###", ".##"}));
  EXPECT_EQ(analysis.states, (9u - 3u - (2u + 2u - 1u)) * 2u);
  EXPECT_EQ(analysis.drawn_states, 0u);
}

}  // namespace
}  // namespace gamebatch::boigame
