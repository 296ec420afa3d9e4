// Random boigame boards of named shapes, for differential tests, benchmarks and `gamebatch gen`.
#pragma once

#include <cstdint>
#include <random>
#include <string_view>

#include "core/boigame/boigame.hpp"

namespace gamebatch::boigame {

// open: no black squares. sparse / dense: each square black with probability 10% / 35%.
// snake: a serpentine corridor (every other row black but for one gap, alternating ends).
// maze: a random spanning-tree maze on the even rows and columns, with one in eight of the
// remaining walls between two corridors knocked out so that some squares have several shortest
// paths.
enum class BoardShape { open, sparse, dense, snake, maze };
// corners: A in a random corner, B in the opposite one. random: two distinct random squares.
enum class Placement { corners, random };

inline constexpr BoardShape kAllShapes[] = {BoardShape::open, BoardShape::sparse, BoardShape::dense,
                                            BoardShape::snake, BoardShape::maze};
inline constexpr Placement kAllPlacements[] = {Placement::corners, Placement::random};

std::string_view to_string(BoardShape shape);
std::string_view to_string(Placement placement);

// A valid board (see check_board) of the given shape, size 2 <= n <= kMaxBoardSize and placement.
// The start squares are made white and, where the shape leaves them apart, the fewest black
// squares on some path between them are made white. Deterministic for a given rng state, the
// same on every platform.
Board generate_board(BoardShape shape, std::int32_t n, Placement placement, std::mt19937_64& rng);

// The same with each square black with probability wall_percent / 100 (0..100), for tests that
// sweep the density.
Board generate_random_board(std::int32_t n, std::int32_t wall_percent, Placement placement,
                            std::mt19937_64& rng);

}  // namespace gamebatch::boigame
