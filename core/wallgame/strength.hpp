// What test strength (`gamebatch strength`) knows of wallgame: which of gen's cost patterns a
// board shows, and the usual wrong ideas, each a strategy contestants submit (docs/games.md draws
// the smallest board each gets wrong). Pure functions.
#pragma once

#include <string>
#include <vector>

#include "core/wallgame/wallgame.hpp"

namespace gamebatch::wallgame {

// gen's cost patterns (--costs) that the board shows: "all_zero", "all_nine", "all_equal", "low"
// (digits 0..2), "sparse" (only 0s and 9s, mostly 0s), "columns" (each column one digit), or
// "uniform" for a board of five or more different digits that is none of those.
std::vector<std::string> shapes_of(const Board& board);

// Eel never builds a wall: Rabbit's cheapest way down.
Cost no_walls(const Board& board);

// Eel walls the slot under the token whenever she may, so Rabbit sweeps every row and goes down
// at whichever end of it he chooses.
Cost wall_all_but_last(const Board& board);

// As Rabbit enters a row Eel walls every slot but one, the exit she picks, and Rabbit walks
// straight to it: her choice made once per row instead of step by step.
Cost one_exit(const Board& board);

}  // namespace gamebatch::wallgame
