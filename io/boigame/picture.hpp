// boigame's picture for `gamebatch draw`: the board (black squares), both starts, both players'
// paths of the optimal play (A red, B blue) and the jumps marked.
#pragma once

#include <cstddef>
#include <string>

#include "core/boigame/boigame.hpp"
#include "core/boigame/play.hpp"

namespace gamebatch::io::boigame {

// Boards up to n = kMaxWholeBoard have every black square drawn; larger ones only those next to
// a path, up to kMaxDrawnSquares, and each path's first kMaxDrawnMoves moves: under
// kMaxPictureBytes.
inline constexpr int kMaxWholeBoard = 100;
inline constexpr std::size_t kMaxDrawnSquares = 10000;
inline constexpr std::size_t kMaxDrawnMoves = 20000;
inline constexpr std::size_t kMaxPictureBytes = std::size_t{3} << 19;  // 1.5 MiB

std::string draw_play(const gamebatch::boigame::Board& board);
// The picture of `play`, the board's optimal play (explain --svg: one solve for text and picture).
std::string draw_play(const gamebatch::boigame::Board& board, const gamebatch::boigame::Play& play);

}  // namespace gamebatch::io::boigame
