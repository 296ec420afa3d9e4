// Shrinking a failing boigame case for `gamebatch stress`: smaller variants of a board, tried in
// order until one still makes the user's program fail. Pure functions, no I/O.
#pragma once

#include <vector>

#include "core/boigame/boigame.hpp"

namespace gamebatch::boigame {

// Smaller variants of `board`, the largest cuts first (the stress loop takes the first variant
// that still fails, then asks again). Empty for a board check_board rejects.
//
// Every candidate passes check_board: n >= 2, A and B on distinct white squares joined by a white
// path (has_white_path). Squares are only ever removed or turned black, so a board within the
// official limits (2 <= n <= 300) stays within them.
//
// Measure: (n, then the number of white squares, then the distance from A to B), compared
// lexicographically. Every candidate is strictly smaller than the input, so shrinking repeatedly
// always ends. In order:
//   1. crops: an m x m part of the board (m < n, smallest first) that holds A and B and a white
//      path between them; for each m at most three offsets per axis (both ends and the middle of
//      the range that keeps A and B inside);
//   2. the board without two rows and two columns (n - 2; any two on boards of up to 8, adjacent
//      ones beyond), then without one row and one column (n - 1), none of them holding A or B (a
//      path that crosses a dropped row and a dropped column keeps the parity of its length);
//   3. one white square other than A's and B's turned black, where a path remains (row-major);
//   4. the starts moved along shortest paths, the race 2 shorter (distance >= 3): A and B one
//      square each (the middle of the race stays put), or A or B two squares (the parity stays).
// Large boards get kinds 1 to 3 thinned out evenly, so that the list stays short: at most 16 crop
// sizes; beyond 8 squares a side, 12 x 12 sets of rows and columns of each kind; 512 squares (a
// 20 x 20 board still gets all its blackenings).
std::vector<Board> shrink_candidates(const Board& board);

}  // namespace gamebatch::boigame
