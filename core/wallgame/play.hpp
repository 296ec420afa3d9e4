// wallgame's optimal play, reconstructed from the solver's row hand-over (`gamebatch explain`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/wallgame/wallgame.hpp"

namespace gamebatch::wallgame {

// One of Rabbit's moves and Eel's answer to it.
struct RabbitMove {
  enum class Kind { place, walk, down };
  Kind kind = Kind::place;
  // Where the token ends: place puts it on (0, column); walk goes along `row` from the token's
  // column to `column`, over walled slots only, one cell per turn (Eel adds nothing meanwhile);
  // down enters (row, column) from the cell above.
  std::int32_t row = 0;
  std::int32_t column = 0;
  Cost paid = 0;   // by this move (every cell entered)
  Cost total = 0;  // paid so far, this move included
  // Eel's answer once the token has arrived (never on the bottom row): wall the slot under it.
  bool eel_walls = false;
};

struct Play {
  Cost value = 0;  // the answer: what Rabbit pays in all
  std::vector<RabbitMove> moves;
};

// The line both play: Rabbit places the token on the cheapest top cell by the solver's values
// (ties: the leftmost); Eel leaves the slot under the token open unless walling it makes Rabbit
// pay strictly more; Rabbit steps down whenever the slot is open (the editorial's fact), and
// otherwise walks round the row's walls to the cheaper side (ties: left). One solve that keeps
// every row's interval table (KeptSolve: the solver's own vectorised sweep; on a board whose
// tables pass 8 MB, about 100 x 100, a row's table is swept again when the play enters it
// walled), then O(1) per move. Throws std::invalid_argument for a board check_board rejects.
Play optimal_play(const Board& board);

// The play as text, one line per move, ending with "answer: VALUE".
std::string describe_play(const Board& board, const Play& play);

}  // namespace gamebatch::wallgame
