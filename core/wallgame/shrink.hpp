// Shrinking a failing wallgame case for `gamebatch stress`: smaller variants of a board, tried in
// order until one still makes the user's program fail. Pure functions, no I/O.
#pragma once

#include <vector>

#include "core/wallgame/wallgame.hpp"

namespace gamebatch::wallgame {

// Smaller variants of `board`, the largest cuts first (the stress loop takes the first variant
// that still fails, then asks again). Empty for a board check_board rejects.
//
// Every candidate passes check_board, keeps at least 2 rows whenever rows were removed and at
// least 1 column, and only ever lowers digits, so a board within the official limits
// (2 <= h <= 50, 1 <= w <= 50) stays within them.
//
// Measure: (cells h * w, then the sum of the digits), compared lexicographically. Every candidate
// is strictly smaller than the input, so shrinking repeatedly always ends. In order:
//   1. fewer cells, fewest first: the top or bottom half of the rows, the left or right half of
//      the columns, the board without one row, the board without one column;
//   2. the same cells: all digits halved, all digits lowered by 1 (those above 0), the digits of
//      one row or one column set to 0, one digit set to 0, two digits lowered by 1 together (on
//      boards of at most 16 cells), one digit lowered by 1 (single digits largest first; on
//      boards of more than 512 cells, the 512 largest only).
std::vector<Board> shrink_candidates(const Board& board);

}  // namespace gamebatch::wallgame
