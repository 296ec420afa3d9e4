// wallgame (TopCoder SRM 580 Div 1 Level 3, "WallGameDiv1"): Rabbit walks a token down a board
// of digit costs while Eel builds walls under it. The board type and the solvers; no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gamebatch::wallgame {

// Totals grow like 4.5 * h * w^2 (walks back and forth along every row), past 32 bits on boards
// of a few hundred cells a side.
using Cost = std::int64_t;

// h rows of w cells; costs[row * width + column] is the digit 0..9 paid for entering that cell.
// Row 0 is the top row, where Rabbit puts the token; row height-1 is the bottom row.
struct Board {
  std::int32_t height = 0;
  std::int32_t width = 0;
  std::vector<std::uint8_t> costs;

  std::uint8_t cost(std::int32_t row, std::int32_t column) const {
    return costs[static_cast<std::size_t>(row) * static_cast<std::size_t>(width) +
                 static_cast<std::size_t>(column)];
  }
};

// Returns an empty string for a board with height, width >= 1, height * width costs and every
// cost a digit 0..9; else what is wrong.
std::string check_board(const Board& board);

// How solve() may compute; the defaults pick the fastest way that is exact. The switches exist so
// that tests can check every way against every other.
struct SolverOptions {
  // 32-bit arithmetic where no value of the board can exceed it (every board up to 2000 x 2000).
  bool allow_32_bit = true;
  // The AVX2 copy of the inner loop, on CPUs that have AVX2.
  bool allow_avx2 = true;
};

// The total Rabbit pays under optimal play of both. With height 1 the token is put straight onto
// the bottom row, so the game ends at once: the answer is the cheapest cell.
// The editorial's interval DP, swept bottom row first: O(h * w^2) time, O(w) memory besides the
// board, no recursion, one thread. Throws std::invalid_argument for a board check_board rejects.
Cost solve(const Board& board, const SolverOptions& options = {});

// At most this many wall slots ((height - 1) * width) for solve_brute_force.
inline constexpr std::int32_t kMaxBruteForceWallSlots = 12;

// The same value from the rules alone: a game graph over (token cell, set of walls, whose turn),
// where Eel may add any set of walls that leaves the bottom row reachable from the token and a
// game that never ends costs Rabbit +infinity; values by fixed-point iteration. Exponential in
// the number of wall slots; throws std::invalid_argument beyond kMaxBruteForceWallSlots.
Cost solve_brute_force(const Board& board);

// The same oracle's value of every position, for checking a played line move by move: index
// walls * (height * width) + cell, where bit (row * width + column) of walls is a wall under that
// cell and cell = row * width + column; what Rabbit still pays from there (kept as the largest
// Cost where the position cannot occur: the bottom cut off from the token).
struct BruteForcePositions {
  Cost value = 0;
  std::vector<Cost> rabbit_to_move;  // the token on the cell, Rabbit to move
  std::vector<Cost> eel_to_move;     // the token has just entered the cell, Eel to move
};
BruteForcePositions solve_brute_force_positions(const Board& board);

}  // namespace gamebatch::wallgame
