// What test strength (`gamebatch strength`) knows of boigame: which of gen's board shapes a board
// shows, and the usual wrong ideas, each a strategy contestants submit (docs/games.md draws the
// smallest board each gets wrong). Pure functions.
#pragma once

#include <string>
#include <vector>

#include "core/boigame/boigame.hpp"

namespace gamebatch::boigame {

// gen's shapes (--shape) that the board shows: "open" (no black square), "sparse" (up to a fifth
// black), "dense" (a fifth to a half black), "snake" (every other row black but for an end),
// "maze" (the squares of two odd coordinates all black, a fifth or more black).
std::vector<std::string> shapes_of(const Board& board);

// The race without jumps: both walk a shortest path, A moves first, so A always arrives first.
Winner no_jumps(const Board& board);

// Parity alone: A wins when the distance between the starts is odd, B when it is even.
Winner parity(const Board& board);

// Parity, and for an even distance B wins only when the middle of every shortest path is one
// square (a chokepoint A must pass).
Winner chokepoint(const Board& board);

}  // namespace gamebatch::boigame
