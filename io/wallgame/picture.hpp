// wallgame's picture for `gamebatch draw`: the board with its costs, Eel's walls and Rabbit's
// path of the optimal play.
#pragma once

#include <cstddef>
#include <string>

#include "core/wallgame/play.hpp"
#include "core/wallgame/wallgame.hpp"

namespace gamebatch::io::wallgame {

// A board of at most kMaxDrawnCells cells is drawn whole; a larger one only around the path
// (each row from one cell left of where the path enters or leaves it to one cell right), up to
// kMaxDrawnCells cells, and the path's first kMaxDrawnMoves moves: under kMaxPictureBytes.
inline constexpr std::size_t kMaxDrawnCells = 5000;
inline constexpr std::size_t kMaxDrawnMoves = 5000;
inline constexpr std::size_t kMaxPictureBytes = std::size_t{3} << 19;  // 1.5 MiB

std::string draw_play(const gamebatch::wallgame::Board& board);
// The picture of `play`, the board's optimal play (explain --svg: one solve for text and picture).
std::string draw_play(const gamebatch::wallgame::Board& board,
                      const gamebatch::wallgame::Play& play);

}  // namespace gamebatch::io::wallgame
