// boigame's optimal play, reconstructed from the layered analysis (`gamebatch explain`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/boigame/boigame.hpp"

namespace gamebatch::boigame {

// One move: the mover steps to `to`; a step onto the opponent's square jumps on to `landing`.
struct PieceMove {
  char player = 'A';
  Square from = 0;
  Square to = 0;
  bool jump = false;
  Square landing = 0;  // where the piece ends (== to without a jump)
  bool wins = false;   // the piece reached (or passed over) the opponent's start
};

struct Play {
  Winner winner = Winner::a;
  std::int32_t distance = 0;  // D, the white distance between the starts
  std::vector<PieceMove> moves;
};

// Largest layer tables the reconstruction keeps (the analysis' F_p from D/2 down to where it
// stops, one bit per pair of squares of opposite layers; at most all of F_0 .. F_{D/2}): an open
// board of n = 300 needs about 3 MB; boards beyond this are refused with a message naming the
// bound.
inline constexpr std::uint64_t kMaxPlayTableBytes = std::uint64_t{1} << 30;

// Both players walk shortest paths (the analysis' fact). The winner keeps to moves that keep the
// win by the layer tables; the loser, whose every move loses, walks on as long as it can. Ties:
// the lowest-numbered square (row-major). A jump lands on the lowest-numbered square that goes on
// along a shortest path. Runs solve()'s own analysis once, keeping the tables it makes (it reuses
// two) and marking the shortest paths' squares, then walks the line: about what solve() costs.
// Throws std::invalid_argument for an invalid board or one whose tables exceed
// kMaxPlayTableBytes.
Play optimal_play(const Board& board);

// The play as text, one line per move, ending with "answer: A" or "answer: B".
std::string describe_play(const Board& board, const Play& play);

}  // namespace gamebatch::boigame
