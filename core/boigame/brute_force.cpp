// The oracle: the whole game by retrograde analysis, with the rules read literally.
//
// A state is (A's square, B's square, who moves). A move steps to an orthogonally adjacent white
// square. Stepping onto the opponent's square forces one more step from there to any adjacent
// white square; "any direction" includes straight back to the square the mover came from, which
// is always white and now empty, so the extra step is never impossible (and a jump may end where
// it started). The mover wins when its piece reaches the opponent's start square: at the end of a
// step, or in the middle of a jump (the opponent standing on its own start). Nothing else ends
// the game; play may go on forever, and such states stay unlabelled (draws).
//
// Labelling: a state whose mover can win at once is won; a state with a move into a lost state
// is won; a state all of whose moves lead into won states is lost; repeat until nothing changes.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/boigame/boigame.hpp"

namespace gamebatch::boigame {
namespace {

enum class Label : std::uint8_t { unknown, won, lost };  // for the player to move

class FullGame {
 public:
  explicit FullGame(const Board& board) : board_(board) {
    // Only the white squares of the pieces' component: the pieces never leave it.
    std::vector<Square> stack{board.a};
    std::vector<bool> seen(static_cast<std::size_t>(board.square_count()), false);
    seen[static_cast<std::size_t>(board.a)] = true;
    while (!stack.empty()) {
      const Square square = stack.back();
      stack.pop_back();
      squares_.push_back(square);
      for (const Square next : white_neighbours(square)) {
        if (!seen[static_cast<std::size_t>(next)]) {
          seen[static_cast<std::size_t>(next)] = true;
          stack.push_back(next);
        }
      }
    }
    std::sort(squares_.begin(), squares_.end());
    index_of_.assign(static_cast<std::size_t>(board.square_count()), -1);
    for (std::size_t k = 0; k < squares_.size(); ++k)
      index_of_[static_cast<std::size_t>(squares_[k])] = static_cast<std::int32_t>(k);
  }

  GameAnalysis analyse() {
    const std::size_t state_count = squares_.size() * squares_.size() * 2;
    std::vector<Label> label(state_count, Label::unknown);
    std::vector<std::uint32_t> open_moves(state_count, 0);
    std::vector<std::vector<std::uint32_t>> predecessors(state_count);
    std::vector<std::uint32_t> decided;  // states whose label is set but not yet propagated

    GameAnalysis analysis;
    for (std::size_t state = 0; state < state_count; ++state) {
      const Position position = position_of(state);
      if (!in_play(position))
        continue;
      ++analysis.states;
      const Moves moves = moves_from(position);
      if (moves.wins_at_once) {
        label[state] = Label::won;
        decided.push_back(static_cast<std::uint32_t>(state));
        continue;
      }
      open_moves[state] = static_cast<std::uint32_t>(moves.successors.size());
      for (const std::uint32_t successor : moves.successors)
        predecessors[successor].push_back(static_cast<std::uint32_t>(state));
    }

    while (!decided.empty()) {
      const std::uint32_t state = decided.back();
      decided.pop_back();
      for (const std::uint32_t predecessor : predecessors[state]) {
        if (label[predecessor] != Label::unknown)
          continue;
        if (label[state] == Label::lost) {
          label[predecessor] = Label::won;
          decided.push_back(predecessor);
        } else if (--open_moves[predecessor] == 0) {
          label[predecessor] = Label::lost;
          decided.push_back(predecessor);
        }
      }
    }

    for (std::size_t state = 0; state < state_count; ++state) {
      if (in_play(position_of(state)) && label[state] == Label::unknown)
        ++analysis.drawn_states;
    }
    record_outcomes(label, analysis);
    switch (label[state_of({board_.a, board_.b, /*b_to_move=*/false})]) {
      case Label::won:
        analysis.start = Outcome::a_wins;
        break;
      case Label::lost:
        analysis.start = Outcome::b_wins;
        break;
      case Label::unknown:
        analysis.start = Outcome::draw;
        break;
    }
    return analysis;
  }

 private:
  void record_outcomes(const std::vector<Label>& label, GameAnalysis& analysis) const {
    const auto squares = static_cast<std::size_t>(board_.square_count());
    analysis.position_outcomes.assign(squares * squares * 2, Outcome::draw);
    for (std::size_t state = 0; state < label.size(); ++state) {
      const Position position = position_of(state);
      if (!in_play(position) || label[state] == Label::unknown)
        continue;
      const bool mover_wins = label[state] == Label::won;
      const bool a_wins = mover_wins != position.b_to_move;
      analysis.position_outcomes[(static_cast<std::size_t>(position.a) * squares +
                                  static_cast<std::size_t>(position.b)) *
                                     2 +
                                 (position.b_to_move ? 1 : 0)] =
          a_wins ? Outcome::a_wins : Outcome::b_wins;
    }
  }

  struct Position {
    Square a;
    Square b;
    bool b_to_move;
  };

  struct Moves {
    bool wins_at_once = false;
    std::vector<std::uint32_t> successors;  // distinct states after the move, opponent to move
  };

  std::vector<Square> white_neighbours(Square square) const {
    const std::int32_t n = board_.n;
    const std::int32_t row = square / n;
    const std::int32_t column = square % n;
    std::vector<Square> result;
    if (row > 0 && board_.is_white(square - n))
      result.push_back(square - n);
    if (row + 1 < n && board_.is_white(square + n))
      result.push_back(square + n);
    if (column > 0 && board_.is_white(square - 1))
      result.push_back(square - 1);
    if (column + 1 < n && board_.is_white(square + 1))
      result.push_back(square + 1);
    return result;
  }

  // Both pieces on distinct squares and nobody has won yet.
  bool in_play(const Position& position) const {
    return position.a != position.b && position.a != board_.b && position.b != board_.a;
  }

  std::size_t state_of(const Position& position) const {
    const auto a = static_cast<std::size_t>(index_of_[static_cast<std::size_t>(position.a)]);
    const auto b = static_cast<std::size_t>(index_of_[static_cast<std::size_t>(position.b)]);
    return (a * squares_.size() + b) * 2 + (position.b_to_move ? 1 : 0);
  }

  Position position_of(std::size_t state) const {
    const bool b_to_move = state % 2 == 1;
    const std::size_t pair = state / 2;
    return {squares_[pair / squares_.size()], squares_[pair % squares_.size()], b_to_move};
  }

  Moves moves_from(const Position& position) const {
    const Square mover = position.b_to_move ? position.b : position.a;
    const Square other = position.b_to_move ? position.a : position.b;
    const Square goal = position.b_to_move ? board_.a : board_.b;  // the opponent's start
    Moves moves;
    std::vector<Square> landings;
    for (const Square step : white_neighbours(mover)) {
      if (step != other) {
        landings.push_back(step);
        continue;
      }
      // A jump: the piece passes over the opponent's square, then steps on from there.
      if (step == goal) {
        moves.wins_at_once = true;
        return moves;
      }
      for (const Square extra : white_neighbours(other))
        landings.push_back(extra);
    }
    for (const Square landing : landings) {
      if (landing == goal) {
        moves.wins_at_once = true;
        return moves;
      }
      const Position next =
          position.b_to_move ? Position{other, landing, false} : Position{landing, other, true};
      moves.successors.push_back(static_cast<std::uint32_t>(state_of(next)));
    }
    std::sort(moves.successors.begin(), moves.successors.end());
    moves.successors.erase(std::unique(moves.successors.begin(), moves.successors.end()),
                           moves.successors.end());
    return moves;
  }

  const Board& board_;
  std::vector<Square> squares_;         // the component's white squares, sorted
  std::vector<std::int32_t> index_of_;  // square -> position in squares_, or -1
};

}  // namespace

GameAnalysis analyse_full_game(const Board& board) {
  if (const std::string problem = check_board(board); !problem.empty())
    throw std::invalid_argument("boigame::analyse_full_game: invalid board: " + problem);
  if (board.n > kMaxBruteForceSize) {
    throw std::invalid_argument("boigame::analyse_full_game: n = " + std::to_string(board.n) +
                                " is above the oracle's limit " +
                                std::to_string(kMaxBruteForceSize));
  }
  return FullGame(board).analyse();
}

}  // namespace gamebatch::boigame
