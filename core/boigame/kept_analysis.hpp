// The layered analysis (solver.cpp) with what it computed kept, for the explained play
// (core/boigame/play.cpp): the board's labels and, for an even distance, the layer tables the
// analysis made, so that the play is read off them instead of analysed again.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "core/boigame/bit_matrix.hpp"
#include "core/boigame/boigame.hpp"
#include "core/boigame/framed_board.hpp"

namespace gamebatch::boigame {

// The solver's flags in each cell beside FramedBoard::kWhite. The distance from A is kept modulo
// 4: neighbours of a square at distance k are at k - 1 or k + 1 (the grid is bipartite), and those
// differ modulo 4. Squares beyond distance D are not labelled (no shortest path uses them).
inline constexpr std::uint8_t kDistanceMod4 = 3;
inline constexpr std::uint8_t kReached = 1 << 2;  // distance from A is known
// On some shortest A-B path: the solver marks B's half (D even); KeptAnalysis marks them all.
inline constexpr std::uint8_t kOnShortestPath = 1 << 3;

// Thrown by KeptAnalysis when the tables it would keep pass `bound` bytes.
struct KeptTablesTooLarge {
  std::uint64_t bound = 0;
};

struct KeptAnalysis {
  using Cell = FramedBoard::Cell;

  // Runs solve()'s analysis of a valid board (check_board), keeping the tables it makes as long
  // as they take at most `table_bound` bytes (else throws KeptTablesTooLarge).
  KeptAnalysis(const Board& board, std::uint64_t table_bound);

  FramedBoard framed;  // the solver's labels, and every square of a shortest path marked, and every
                       // square of a shortest path marked
  Winner winner = Winner::a;
  std::uint32_t distance = 0;  // D
  // D even: F_p (rows A's squares on L_p, columns B's on L_{D-p}, "B wins, A to move") with
  // their layers (framed cells, ascending), as tables[D/2 - p], for p from D/2 down to where the
  // analysis stopped: there F_p was all one value, and so is every F_p below.
  std::deque<BitMatrix> tables;
  std::deque<std::vector<Cell>> a_layers;
  std::deque<std::vector<Cell>> b_layers;

  // The lowest p with a table kept (D even, tables not empty).
  std::uint32_t first_table() const {
    return distance / 2 + 1 - static_cast<std::uint32_t>(tables.size());
  }
};

}  // namespace gamebatch::boigame
