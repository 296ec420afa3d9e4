// boigame's optimal play, read off the solver's own analysis (KeptAnalysis): its labels (the
// distance from A modulo 4, the shortest-path marks of B's half) give the players' steps, and the
// layer tables F_p it made (B wins with A on L_p[i], B on L_{D-p}[j], A to move) give the winner's
// choices, walked forwards from the start.
#include "core/boigame/play.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>
#include <utility>

#include "core/boigame/bit_matrix.hpp"
#include "core/boigame/kept_analysis.hpp"

namespace gamebatch::boigame {
namespace {

using Cell = FramedBoard::Cell;

// At most four squares, in order; no allocation (a line makes three of these per round).
struct StepList {
  std::array<Cell, 4> cells{};
  std::size_t count = 0;

  const Cell* begin() const { return cells.data(); }
  const Cell* end() const { return cells.data() + count; }
  Cell front() const { return cells[0]; }
};

// The squares next to a piece that walk on along a shortest path, lowest-numbered first: for A,
// one step further from A; for B, one step closer.
class Steps {
 public:
  Steps(const Board& board, const KeptAnalysis& analysis)
      : framed_(analysis.framed), width_(static_cast<Cell>(board.n) + 2) {}

  Square square(Cell cell) const {
    return static_cast<Square>((cell / width_ - 1) * (width_ - 2) + (cell % width_ - 1));
  }

  // Neighbours at distance `k` from A (k = the piece's distance +- 1), in square order (up, left,
  // right, down); A's also on a shortest path (a neighbour one closer to A than a square of a
  // shortest path is on one itself).
  StepList of(Cell cell, std::uint32_t k, bool a_steps) const {
    StepList steps;
    for (const Cell next : framed_.neighbours(cell)) {
      if (at_distance(next, k) && (!a_steps || (framed_[next] & kOnShortestPath) != 0))
        steps.cells[steps.count++] = next;
    }
    return steps;
  }

 private:
  bool at_distance(Cell cell, std::uint32_t k) const {
    return (framed_[cell] & (kReached | kDistanceMod4)) == (kReached | (k & kDistanceMod4));
  }

  const FramedBoard& framed_;
  Cell width_;
};

// The place of `cell` in a sorted layer.
std::size_t place_in(const std::vector<Cell>& layer, Cell cell) {
  return static_cast<std::size_t>(std::lower_bound(layer.begin(), layer.end(), cell) -
                                  layer.begin());
}

// The first square of `steps` for which `good` holds, else the first square.
template <typename Good>
Cell first_good(const StepList& steps, const Good& good) {
  for (const Cell s : steps)
    if (good(s))
      return s;
  return steps.front();
}

// Both pieces, where they stand (framed cells) and their distances from A.
struct Pieces {
  Cell a = 0, b = 0;
  std::uint32_t a_k = 0, b_k = 0;
};

// Moves the piece of `player` to `to`, jumping on along a shortest path when `to` holds the
// opponent (to the lowest-numbered square there); records the move and returns whether it won.
bool move(char player, Cell to, Pieces& pieces, const Steps& steps, const KeptAnalysis& analysis,
          Play& play) {
  const bool a_moves = player == 'A';
  Cell& mover = a_moves ? pieces.a : pieces.b;
  std::uint32_t& k = a_moves ? pieces.a_k : pieces.b_k;
  const Cell other = a_moves ? pieces.b : pieces.a;
  const Cell goal = a_moves ? analysis.framed.b() : analysis.framed.a();
  k = a_moves ? k + 1 : k - 1;
  PieceMove record{player, steps.square(mover), steps.square(to), false, steps.square(to), false};
  Cell landing = to;
  if (to == other && to != goal) {
    k = a_moves ? k + 1 : k - 1;
    landing = steps.of(to, k, a_moves).front();
    record.jump = true;
    record.landing = steps.square(landing);
  }
  mover = landing;
  record.wins = to == goal || landing == goal;
  play.moves.push_back(record);
  return record.wins;
}

void play_layers(const Board& board, const KeptAnalysis& analysis, Play& play) {
  const std::uint32_t total = analysis.distance;
  const std::uint32_t half = total / 2;
  Steps steps(board, analysis);
  Pieces pieces{analysis.framed.a(), analysis.framed.b(), 0, total};
  for (std::uint32_t p = 0;; ++p) {
    // F_{p+1} decides both choices of this round where it was kept; below the kept tables every
    // F_p is one value, and both players' first steps are as good as any.
    const bool tabled = total % 2 == 0 && p < half && p + 1 >= analysis.first_table();
    const std::size_t index = tabled ? half - (p + 1) : 0;
    const StepList a_steps = steps.of(pieces.a, pieces.a_k + 1, true);
    const StepList b_now = steps.of(pieces.b, pieces.b_k - 1, false);
    // A keeps a win: a step after which B has no winning answer.
    const Cell a_to = first_good(a_steps, [&](Cell s) {
      if (!tabled)
        return true;
      const std::size_t row = place_in(analysis.a_layers[index], s);
      for (const Cell t : b_now)
        if (analysis.tables[index].get(row, place_in(analysis.b_layers[index], t)))
          return false;
      return true;
    });
    if (move('A', a_to, pieces, steps, analysis, play))
      return;
    const StepList b_steps = steps.of(pieces.b, pieces.b_k - 1, false);
    const Cell b_to = first_good(b_steps, [&](Cell t) {
      return tabled && analysis.tables[index].get(place_in(analysis.a_layers[index], pieces.a),
                                                  place_in(analysis.b_layers[index], t));
    });
    if (move('B', b_to, pieces, steps, analysis, play))
      return;
  }
}

// Appends "(row, column)", 1-based; to_chars into a reserved string: a line of thousands of
// moves costs about what the analysis does otherwise.
void append_square(std::string& text, const Board& board, Square s) {
  char digits[16];
  text += '(';
  text.append(digits, std::to_chars(digits, digits + sizeof digits, s / board.n + 1).ptr);
  text += ", ";
  text.append(digits, std::to_chars(digits, digits + sizeof digits, s % board.n + 1).ptr);
  text += ')';
}

std::string square_text(const Board& board, Square s) {
  std::string text;
  append_square(text, board, s);
  return text;
}

}  // namespace

Play optimal_play(const Board& board) {
  // As solve(): the analysis finds a missing path between A and B itself.
  if (const std::string problem = check_board_squares(board); !problem.empty())
    throw std::invalid_argument("boigame: invalid board: " + problem);
  try {
    KeptAnalysis analysis(board, kMaxPlayTableBytes);
    Play play;
    play.distance = static_cast<std::int32_t>(analysis.distance);
    play.moves.reserve(2 * static_cast<std::size_t>(analysis.distance) + 2);  // D each, at most
    play_layers(board, analysis, play);
    play.winner = play.moves.back().player == 'A' ? Winner::a : Winner::b;
    return play;
  } catch (const KeptTablesTooLarge& too_large) {
    throw std::invalid_argument(
        "boigame explain: the layer tables of this board pass the bound of " +
        std::to_string(too_large.bound) + " bytes");
  }
}

std::string describe_play(const Board& board, const Play& play) {
  std::string text = std::to_string(board.n) + " x " + std::to_string(board.n) +
                     " board; A starts on " + square_text(board, board.a) + ", B on " +
                     square_text(board, board.b) + " (row, column from (1, 1) at the top left); " +
                     "they are " + std::to_string(play.distance) + " steps apart\n";
  text.reserve(text.size() + 40 * play.moves.size() + 16);
  for (const PieceMove& move : play.moves) {
    const char other = move.player == 'A' ? 'B' : 'A';
    text += move.player;
    text += ": ";
    append_square(text, board, move.from);
    text += " -> ";
    append_square(text, board, move.to);
    if (move.jump) {
      text.append(", jumps over ").append(1, other).append(" to ");
      append_square(text, board, move.landing);
    }
    if (move.wins)
      text.append(", reaches ").append(1, other).append("'s start and wins");
    text += '\n';
  }
  return text + "answer: " + std::string(1, static_cast<char>(play.winner)) + "\n";
}

}  // namespace gamebatch::boigame
