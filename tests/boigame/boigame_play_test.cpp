// boigame's explained play (core/boigame/play.hpp) against the full-game oracle: replayed under
// the rules (steps to adjacent white squares, a step onto the opponent jumps on, the first piece
// on or over the other's start wins), every position along the line has the outcome of the
// start, and the winner is the answer.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "core/boigame/boigame.hpp"
#include "core/boigame/generators.hpp"
#include "core/boigame/kept_analysis.hpp"
#include "core/boigame/play.hpp"

namespace gamebatch::boigame {
namespace {

bool adjacent_white(const Board& board, Square from, Square to) {
  const std::int32_t rows = std::abs(from / board.n - to / board.n);
  const std::int32_t columns = std::abs(from % board.n - to % board.n);
  return board.is_white(to) && rows + columns == 1;
}

void replay(const Board& board, const Play& play) {
  const GameAnalysis oracle = analyse_full_game(board);
  const Outcome expected = play.winner == Winner::a ? Outcome::a_wins : Outcome::b_wins;
  RC_ASSERT(oracle.start == expected);
  const auto squares = static_cast<std::size_t>(board.square_count());
  Square a = board.a;
  Square b = board.b;
  bool a_to_move = true;
  for (std::size_t k = 0; k < play.moves.size(); ++k) {
    const PieceMove& move = play.moves[k];
    // Every position on the line is still won by the same side.
    RC_ASSERT(oracle.position_outcomes
                  [(static_cast<std::size_t>(a) * squares + static_cast<std::size_t>(b)) * 2 +
                   (a_to_move ? 0 : 1)] == expected);
    RC_ASSERT(move.player == (a_to_move ? 'A' : 'B'));
    Square& mover = a_to_move ? a : b;
    const Square other = a_to_move ? b : a;
    const Square goal = a_to_move ? board.b : board.a;
    RC_ASSERT(move.from == mover);
    RC_ASSERT(adjacent_white(board, mover, move.to));
    RC_ASSERT(move.jump == (move.to == other && move.to != goal));
    if (move.jump)
      RC_ASSERT(adjacent_white(board, move.to, move.landing));
    else
      RC_ASSERT(move.landing == move.to);
    mover = move.landing;
    RC_ASSERT(move.wins == (move.to == goal || move.landing == goal));
    RC_ASSERT(move.wins == (k + 1 == play.moves.size()));
    a_to_move = !a_to_move;
  }
  RC_ASSERT(play.moves.back().player == static_cast<char>(play.winner));
}

RC_GTEST_PROP(BoigamePlay, ExplainedLineIsLegalAndKeepsTheOutcome, ()) {
  const auto n = *rc::gen::inRange<std::int32_t>(2, kMaxBruteForceSize + 1);
  const auto shape =
      *rc::gen::elementOf(std::vector<BoardShape>(std::begin(kAllShapes), std::end(kAllShapes)));
  const auto placement = *rc::gen::elementOf(
      std::vector<Placement>(std::begin(kAllPlacements), std::end(kAllPlacements)));
  std::mt19937_64 rng(*rc::gen::arbitrary<std::uint64_t>());
  const Board board = generate_board(shape, n, placement, rng);
  const Play play = optimal_play(board);
  RC_ASSERT(play.winner == solve(board));
  replay(board, play);
}

// White distances from `from` (-1: not reached).
std::vector<int> distances(const Board& board, Square from) {
  std::vector<int> distance(static_cast<std::size_t>(board.square_count()), -1);
  std::deque<Square> queue{from};
  distance[static_cast<std::size_t>(from)] = 0;
  while (!queue.empty()) {
    const Square square = queue.front();
    queue.pop_front();
    for (const Square next : {square - board.n, square - 1, square + 1, square + board.n}) {
      if (next >= 0 && next < board.square_count() && adjacent_white(board, square, next) &&
          distance[static_cast<std::size_t>(next)] < 0) {
        distance[static_cast<std::size_t>(next)] = distance[static_cast<std::size_t>(square)] + 1;
        queue.push_back(next);
      }
    }
  }
  return distance;
}

// What the play reads off the kept analysis: its winner is solve()'s, every square of a shortest
// A-B path (and no other) is marked, and the kept layers are those squares by distance from A.
RC_GTEST_PROP(BoigamePlay, KeptAnalysisMarksTheShortestPaths, ()) {
  const auto n = *rc::gen::inRange<std::int32_t>(2, 40);
  const auto shape =
      *rc::gen::elementOf(std::vector<BoardShape>(std::begin(kAllShapes), std::end(kAllShapes)));
  const auto placement = *rc::gen::elementOf(
      std::vector<Placement>(std::begin(kAllPlacements), std::end(kAllPlacements)));
  std::mt19937_64 rng(*rc::gen::arbitrary<std::uint64_t>());
  const Board board = generate_board(shape, n, placement, rng);
  const KeptAnalysis analysis(board, kMaxPlayTableBytes);
  RC_ASSERT(analysis.winner == solve(board));
  const std::vector<int> from_a = distances(board, board.a);
  const std::vector<int> from_b = distances(board, board.b);
  const int total = from_a[static_cast<std::size_t>(board.b)];
  RC_ASSERT(analysis.distance == static_cast<std::uint32_t>(total));
  // layers[k]: the framed cells of the shortest paths' squares at distance k from A, ascending.
  std::vector<std::vector<FramedBoard::Cell>> layers(static_cast<std::size_t>(total) + 1);
  for (Square s = 0; s < board.square_count(); ++s) {
    const auto at = static_cast<std::size_t>(s);
    const bool on = from_a[at] >= 0 && from_b[at] >= 0 && from_a[at] + from_b[at] == total;
    const auto cell = static_cast<FramedBoard::Cell>((s / n + 1) * (n + 2) + s % n + 1);
    RC_ASSERT(((analysis.framed[cell] & kOnShortestPath) != 0) == on);
    if (on)
      layers[static_cast<std::size_t>(from_a[at])].push_back(cell);
  }
  RC_ASSERT(analysis.tables.empty() == (total % 2 == 1));
  for (std::size_t k = 0; k < analysis.tables.size(); ++k) {
    const auto p = static_cast<std::size_t>(total / 2) - k;
    RC_ASSERT(analysis.a_layers[k] == layers[p]);
    RC_ASSERT(analysis.b_layers[k] == layers[static_cast<std::size_t>(total) - p]);
    RC_ASSERT(analysis.tables[k].rows() == layers[p].size());
  }
}

TEST(BoigamePlay, LargeBoardsAgreeWithTheSolver) {
  for (const BoardShape shape : kAllShapes) {
    std::mt19937_64 rng(11);
    const Board board = generate_board(shape, 120, Placement::random, rng);
    const Play play = optimal_play(board);
    EXPECT_EQ(play.winner, solve(board)) << to_string(shape);
    const std::string text = describe_play(board, play);
    EXPECT_EQ(text.substr(text.size() - 10),
              std::string("answer: ") + static_cast<char>(play.winner) + "\n");
  }
}

}  // namespace
}  // namespace gamebatch::boigame
