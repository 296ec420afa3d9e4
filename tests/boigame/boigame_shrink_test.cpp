// boigame: the shrinker's contract (valid, within limits, strictly smaller, big cuts first) on
// many random boards, the wrong solver used to test it, and the quality of a whole greedy shrink:
// a wrong solution caught on boards of 8 to 12 squares a side comes back as a board of at most 5
// squares a side (4 is the least possible).
#include <gtest/gtest.h>

#include <algorithm>
#include <compare>
#include <cstdint>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/boigame/boigame.hpp"
#include "core/boigame/generators.hpp"
#include "core/boigame/shrink.hpp"
#include "core/random.hpp"
#include "tests/solutions/wrong_solvers.hpp"

namespace gamebatch::boigame {
namespace {

constexpr std::int32_t kOfficialMaxN = 300;

std::int32_t white_count(const Board& board) {
  std::int32_t count = 0;
  for (Square square = 0; square < board.square_count(); ++square)
    count += board.is_white(square) ? 1 : 0;
  return count;
}

// The measure shrink.hpp documents: n, then the number of white squares, then the distance
// from A to B.
struct Measure {
  std::int32_t n;
  std::int32_t whites;
  std::int32_t distance;
  auto operator<=>(const Measure&) const = default;
};

Measure measure_of(const Board& board) {
  return {board.n, white_count(board), gamebatch::testing::boigame_distance(board)};
}

// A board from rows in the official alphabet (. white, # black, A and B on white squares).
Board board_of(const std::vector<std::string>& rows) {
  Board board = Board::all_black(static_cast<std::int32_t>(rows.size()));
  for (std::int32_t row = 0; row < board.n; ++row) {
    for (std::int32_t column = 0; column < board.n; ++column) {
      const char mark = rows[static_cast<std::size_t>(row)][static_cast<std::size_t>(column)];
      const Square square = board.square(row, column);
      board.set_white(square, mark != '#');
      board.a = mark == 'A' ? square : board.a;
      board.b = mark == 'B' ? square : board.b;
    }
  }
  return board;
}

std::string describe(const Board& board) {
  std::string text;
  for (Square square = 0; square < board.square_count(); ++square) {
    text += square == 0 ? "" : square % board.n == 0 ? "/" : "";
    text += square == board.a ? 'A' : square == board.b ? 'B' : board.is_white(square) ? '.' : '#';
  }
  return text;
}

Board random_board(std::mt19937_64& rng, std::int32_t max_n) {
  const auto n =
      static_cast<std::int32_t>(2 + uniform_below(rng, static_cast<std::uint64_t>(max_n) - 1));
  const Placement placement = kAllPlacements[uniform_below(rng, std::size(kAllPlacements))];
  if (one_in(rng, 3)) {
    const auto wall_percent = static_cast<std::int32_t>(uniform_below(rng, 60));
    return generate_random_board(n, wall_percent, placement, rng);
  }
  return generate_board(kAllShapes[uniform_below(rng, std::size(kAllShapes))], n, placement, rng);
}

std::string right_answer(const Board& board) {
  return std::string(1, static_cast<char>(solve(board)));
}

bool wrong_solution_fails(const Board& board) {
  return gamebatch::testing::wrong_boigame(board) != right_answer(board);
}

TEST(BoigameShrink, EveryCandidateIsAValidBoardStrictlySmallerThanTheInput) {
  std::mt19937_64 rng(20240604);
  for (int round = 0; round < 400; ++round) {
    const Board board = random_board(rng, round < 350 ? 12 : 24);
    const Measure measure = measure_of(board);
    for (const Board& candidate : shrink_candidates(board)) {
      SCOPED_TRACE(describe(board) + " -> " + describe(candidate));
      ASSERT_EQ(check_board(candidate), "");
      EXPECT_LT(measure_of(candidate), measure);
      EXPECT_GE(candidate.n, 2);
      EXPECT_LE(candidate.n, kOfficialMaxN);
      if (candidate.n == board.n) {
        // Squares only turned black; or, with the same squares, one start moved 2 closer.
        for (Square square = 0; square < board.square_count(); ++square)
          EXPECT_TRUE(!candidate.is_white(square) || board.is_white(square));
        const Measure after = measure_of(candidate);
        if (after.whites == measure.whites) {  // moved starts
          EXPECT_TRUE(candidate.a != board.a || candidate.b != board.b);
          EXPECT_EQ(after.distance, measure.distance - 2);
        } else {
          EXPECT_EQ(candidate.a, board.a);
          EXPECT_EQ(candidate.b, board.b);
        }
      }
    }
  }
}

TEST(BoigameShrink, BiggestCutsComeFirst) {
  std::mt19937_64 rng(8);
  for (int round = 0; round < 200; ++round) {
    const Board board = random_board(rng, 16);
    const std::vector<Board> candidates = shrink_candidates(board);
    for (std::size_t k = 1; k < candidates.size(); ++k)
      ASSERT_LE(candidates[k - 1].n, candidates[k].n) << describe(board);
  }
}

TEST(BoigameShrink, OffersCropsLinesSquaresAndMovesThatKeepAPath) {
  // A corridor around a wall, A and B 4 steps apart. No crop holds both with a path, no band of 2
  // lines can go; dropping row 1 with column 1 or 2 puts A next to B; only the corner square off
  // the path may turn black; both starts may move one square, or either two, to the middle.
  const Board board = board_of({"A.#", "#.#", "B.."});
  std::vector<std::string> offered;
  for (const Board& candidate : shrink_candidates(board))
    offered.push_back(describe(candidate));
  EXPECT_EQ(offered, (std::vector<std::string>{"A#/B.", "A./B.", "A.#/#.#/B.#", ".A#/#.#/.B.",
                                               "..#/#A#/B..", "A.#/#B#/..."}));

  // Crops first, smallest first: the 2 x 2 corner with A and B, then the 3 x 3 ones.
  const std::vector<Board> open = shrink_candidates(board_of({"AB..", "....", "....", "...."}));
  ASSERT_GE(open.size(), 3u);
  EXPECT_EQ(describe(open[0]), "AB/..");
  EXPECT_EQ(open[1].n, 3);
}

TEST(BoigameShrink, NothingToOfferForTheSmallestBoardOrAnInvalidOne) {
  EXPECT_TRUE(shrink_candidates(board_of({"AB", "##"})).empty());
  EXPECT_TRUE(shrink_candidates(board_of({"A#", "#B"})).empty());  // no path: invalid
}

TEST(BoigameShrink, RepeatedShrinkingEnds) {
  // Any choice of candidate at each step ends: the measure falls every time.
  std::mt19937_64 rng(55);
  for (int round = 0; round < 40; ++round) {
    Board board = random_board(rng, 16);
    int steps = 0;
    for (std::vector<Board> next = shrink_candidates(board); !next.empty();
         next = shrink_candidates(board)) {
      const Board chosen = next[uniform_below(rng, next.size())];
      ASSERT_LT(measure_of(chosen), measure_of(board));
      board = chosen;
      ASSERT_LT(++steps, 100000);
    }
    EXPECT_GE(board.n, 2);
  }
}

TEST(BoigameShrink, WrongSolverAgreesOftenButNotAlways) {
  std::mt19937_64 rng(16);
  int agreements = 0;
  constexpr int kRounds = 400;
  for (int round = 0; round < kRounds; ++round)
    agreements += wrong_solution_fails(random_board(rng, 10)) ? 0 : 1;
  EXPECT_GE(agreements, kRounds / 5);
  EXPECT_LT(agreements, kRounds);
}

// The smallest boards on which the wrong solver fails are 4 x 4 with 10 white squares, such as
// "#..B/#.#./..../A###" (every board up to 4 x 4 was checked): A needs two routes of even length
// that B cannot both guard. Tiny here: n <= 5 and at most 16 white squares.
TEST(BoigameShrink, AWrongSolutionCaughtOnLargerBoardsShrinksToATinyBoard) {
  std::map<std::int32_t, int> final_sizes;
  std::int32_t most_final_whites = 0;
  std::size_t most_candidates_tried = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    Board failing;
    int draws = 0;
    do {
      ASSERT_LT(++draws, 5000) << "seed " << seed << ": no failing board drawn";
      const auto n = static_cast<std::int32_t>(8 + uniform_below(rng, 5));
      const Placement placement = kAllPlacements[uniform_below(rng, std::size(kAllPlacements))];
      failing = one_in(rng, 2)
                    ? generate_random_board(n, static_cast<std::int32_t>(uniform_below(rng, 50)),
                                            placement, rng)
                    : generate_board(kAllShapes[uniform_below(rng, std::size(kAllShapes))], n,
                                     placement, rng);
    } while (!wrong_solution_fails(failing));

    const auto shrunk = gamebatch::testing::shrink_while_failing(failing, &shrink_candidates,
                                                                 &wrong_solution_fails);
    const Board& smallest = shrunk.smallest;
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + describe(failing) + " shrank to " +
                 describe(smallest));
    EXPECT_TRUE(wrong_solution_fails(smallest));
    EXPECT_LE(smallest.n, 5);
    EXPECT_LE(white_count(smallest), 16);
    for (const Board& candidate : shrink_candidates(smallest))
      EXPECT_FALSE(wrong_solution_fails(candidate))
          << "not a local minimum: " << describe(candidate);
    EXPECT_LE(shrunk.candidates_tried, 3000u);

    ++final_sizes[smallest.n];
    most_final_whites = std::max(most_final_whites, white_count(smallest));
    most_candidates_tried = std::max(most_candidates_tried, shrunk.candidates_tried);
  }
  std::cout << "[ boigame ] shrunk to:";
  for (const auto& [n, count] : final_sizes)
    std::cout << " n=" << n << " x" << count;
  std::cout << "; at most " << most_final_whites << " white squares; at most "
            << most_candidates_tried << " candidates tried per shrink\n";
}

}  // namespace
}  // namespace gamebatch::boigame
