// boigame (Baltic OI 2008, "Game"): two pieces race across a board of white squares to each
// other's start square, jumping over each other when they meet. The instance type and the
// solvers; pure functions, no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gamebatch::boigame {

// A square of an n x n board, row-major: row * n + column (0-based).
using Square = std::int32_t;

// Above this a single board is impractical: the fast solver takes about n^3 / 3 elementary bit
// operations on an open board (minutes at n = 10,000) and n^2 bytes of scratch memory.
inline constexpr std::int32_t kMaxBoardSize = 10'000;

// One test: which squares are white, and the two start squares.
// A valid board has 2 <= n <= kMaxBoardSize, a != b, both white, joined by white squares.
struct Board {
  std::int32_t n = 0;
  std::vector<std::uint64_t> white;  // bit `square` is set for a white square
  Square a = 0;                      // A's start square
  Square b = 0;                      // B's start square

  // An n x n board of black squares only (a and b still to be placed).
  static Board all_black(std::int32_t n);

  Square square(std::int32_t row, std::int32_t column) const { return row * n + column; }
  std::int32_t square_count() const { return n * n; }
  bool is_white(Square square) const {
    return (white[static_cast<std::size_t>(square) / 64] >> (square % 64)) & 1u;
  }
  void set_white(Square square, bool is_white_now);

  friend bool operator==(const Board&, const Board&) = default;
};

// Number of 64-bit words that hold one bit per square of an n x n board.
std::size_t white_words(std::int32_t n);

// True when a and b are white and white squares join them (orthogonal steps only). O(n^2) time,
// (n + 2)^2 bytes of scratch plus the breadth-first frontier.
bool has_white_path(const Board& board);

// Returns an empty string for a valid board, else what is wrong.
std::string check_board(const Board& board);
// The same without the white path between A and B (O(1) time: the solver finds a missing path
// itself, as part of its own search).
std::string check_board_squares(const Board& board);

enum class Winner : char { a = 'A', b = 'B' };

// Who wins with best play, by the layered analysis (both players walk shortest paths; B wins iff
// it can step onto A's square in the middle layer). O(sum over p of |L_p| |L_{D-p}| / 64) word
// operations, n^2 bytes and two layer-pair bit tables of memory; runs in parallel on the current
// oneTBB arena when the layers are wide.
Winner solve(const Board& board);

enum class Outcome { a_wins, b_wins, draw };

// The full game analysed by retrograde labelling of every state (A's square, B's square, who
// moves): any moves, jumps with their free extra step, wins on reaching or passing over the
// other's start. Shares no ideas with solve().
struct GameAnalysis {
  Outcome start = Outcome::draw;  // from the initial position, A to move
  std::size_t states = 0;         // non-final states of the pieces' component
  std::size_t drawn_states = 0;   // states that neither side can force to a win
  // Every position's outcome, for checking a played line move by move: index
  // (a * n^2 + b) * 2 + (B to move ? 1 : 0); positions out of play (a piece on the other's start,
  // both on one square, a square outside the pieces' component) are draws.
  std::vector<Outcome> position_outcomes;
};

// States grow as (white squares)^2 with some 20 moves each: meant for n <= kMaxBruteForceSize.
inline constexpr std::int32_t kMaxBruteForceSize = 8;
GameAnalysis analyse_full_game(const Board& board);

}  // namespace gamebatch::boigame
