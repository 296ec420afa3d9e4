// The wallgame oracle: the rules read literally, with none of the editorial's ideas. A position is
// (token cell, set of walls, whose turn). Rabbit moves the token left, right or down (not through
// a wall) and pays the cell it enters; the game ends when it enters the bottom row. Eel adds any
// set of walls, none included, after which the bottom row must still be reachable from the token.
// A game that never ends costs Rabbit +infinity.
//
// Walls are only ever added, so a position can only lead to positions with the same or more
// walls. Wall sets are therefore solved from the full set down to the empty one: when a set is
// solved, every position Eel can reach by adding walls is already known. Within one wall set the
// token can wander left and right for ever, so the positions of that set are solved by
// fixed-point iteration started from +infinity: the iterates are the values of the game cut off
// after k moves (a game not over by then costing +infinity); they only decrease, are whole
// numbers, and settle on the value of the game (Rabbit can play the cut-off game's strategy; and
// Eel, always moving to a position of the highest value, makes any Rabbit pay at least it).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/wallgame/wallgame.hpp"

namespace gamebatch::wallgame {
namespace {

constexpr Cost kInfinity = std::numeric_limits<Cost>::max();
constexpr Cost kNoWallToAdd = -1;  // below every value: the max over no options

using WallSet = std::uint32_t;  // bit row * width + column: a wall under (row, column)

Cost plus(Cost paid, Cost rest) {
  return rest == kInfinity ? kInfinity : paid + rest;
}

class LiteralGame {
 public:
  explicit LiteralGame(const Board& board)
      : board_(board),
        height_(board.height),
        width_(board.width),
        cells_(board.height * board.width),
        wall_slots_((board.height - 1) * board.width),
        wall_sets_(WallSet{1} << wall_slots_),
        reaches_bottom_(index(wall_sets_, 0), 0),
        rabbit_to_move_(index(wall_sets_, 0), kInfinity),
        eel_to_move_(index(wall_sets_, 0), kInfinity) {}

  BruteForcePositions positions() {
    BruteForcePositions result;
    result.value = value();
    result.rabbit_to_move = rabbit_to_move_;
    result.eel_to_move = eel_to_move_;
    return result;
  }

  Cost value() {
    for (WallSet walls = 0; walls < wall_sets_; ++walls) {
      for (std::int32_t cell = 0; cell < cells_; ++cell) {
        reaches_bottom_[index(walls, cell)] = bottom_reachable(walls, cell) ? 1 : 0;
      }
    }
    for (WallSet walls = wall_sets_; walls-- > 0;) {
      solve_wall_set(walls);
    }
    // Turn 1: Rabbit puts the token on a top cell and pays it; then Eel moves, no walls yet.
    Cost best = kInfinity;
    for (std::int32_t column = 0; column < width_; ++column) {
      best = std::min(best, plus(board_.cost(0, column), after_entering(0, column)));
    }
    return best;
  }

 private:
  std::size_t index(WallSet walls, std::int32_t cell) const {
    return static_cast<std::size_t>(walls) * static_cast<std::size_t>(cells_) +
           static_cast<std::size_t>(cell);
  }
  bool on_bottom_row(std::int32_t cell) const { return cell / width_ == height_ - 1; }
  bool wall_under(WallSet walls, std::int32_t cell) const {
    return !on_bottom_row(cell) && ((walls >> cell) & 1U) != 0;  // cell index = slot index
  }

  // The cells Rabbit may move the token to from `cell`: left, right, down unless walled.
  std::vector<std::int32_t> moves(WallSet walls, std::int32_t cell) const {
    std::vector<std::int32_t> targets;
    const std::int32_t column = cell % width_;
    if (column > 0)
      targets.push_back(cell - 1);
    if (column + 1 < width_)
      targets.push_back(cell + 1);
    if (!on_bottom_row(cell) && !wall_under(walls, cell))
      targets.push_back(cell + width_);
    return targets;
  }

  // Depth-first search over Rabbit's moves.
  bool bottom_reachable(WallSet walls, std::int32_t from) const {
    std::vector<char> seen(static_cast<std::size_t>(cells_), 0);
    std::vector<std::int32_t> pending = {from};
    seen[static_cast<std::size_t>(from)] = 1;
    while (!pending.empty()) {
      const std::int32_t cell = pending.back();
      pending.pop_back();
      if (on_bottom_row(cell))
        return true;
      for (const std::int32_t next : moves(walls, cell)) {
        if (seen[static_cast<std::size_t>(next)] == 0) {
          seen[static_cast<std::size_t>(next)] = 1;
          pending.push_back(next);
        }
      }
    }
    return false;
  }

  // What Rabbit still pays once the token has entered `cell` (with `walls` standing): nothing on
  // the bottom row, else the value of Eel's turn.
  Cost after_entering(WallSet walls, std::int32_t cell) const {
    if (on_bottom_row(cell))
      return 0;
    if (reaches_bottom_[index(walls, cell)] == 0) {
      // Eel's previous move left the bottom reachable, and a move of Rabbit cannot change that.
      throw std::logic_error("wallgame brute force: a Rabbit move cut the token off the bottom");
    }
    return eel_to_move_[index(walls, cell)];
  }

  void solve_wall_set(WallSet walls) {
    const WallSet all_walls = wall_sets_ - 1;
    const WallSet free_slots = all_walls & ~walls;
    std::vector<std::int32_t> live_cells;  // positions that can occur with these walls
    std::vector<Cost> best_with_new_walls(static_cast<std::size_t>(cells_), kNoWallToAdd);
    // From the bottom up: a Rabbit position reads the positions beside and below it.
    for (std::int32_t cell = cells_ - 1; cell >= 0; --cell) {
      if (on_bottom_row(cell) || reaches_bottom_[index(walls, cell)] == 0)
        continue;
      live_cells.push_back(cell);
      // Every nonempty set of walls Eel may add here; those positions are solved already.
      Cost& best = best_with_new_walls[static_cast<std::size_t>(cell)];
      for (WallSet added = free_slots; added != 0; added = (added - 1) & free_slots) {
        const std::size_t after = index(walls | added, cell);
        if (reaches_bottom_[after] != 0)
          best = std::max(best, rabbit_to_move_[after]);
      }
    }

    bool changed = true;
    while (changed) {
      changed = false;
      for (const std::int32_t cell : live_cells) {
        Cost rabbit = kInfinity;
        for (const std::int32_t next : moves(walls, cell)) {
          const Cost paid = board_.cost(next / width_, next % width_);
          rabbit = std::min(rabbit, plus(paid, after_entering(walls, next)));
        }
        // Eel adds no wall (the walls stand as they are, and are allowed) or some walls.
        const Cost eel = std::max(rabbit, best_with_new_walls[static_cast<std::size_t>(cell)]);
        const std::size_t at = index(walls, cell);
        if (rabbit != rabbit_to_move_[at] || eel != eel_to_move_[at]) {
          rabbit_to_move_[at] = rabbit;
          eel_to_move_[at] = eel;
          changed = true;
        }
      }
    }
  }

  const Board& board_;
  std::int32_t height_;
  std::int32_t width_;
  std::int32_t cells_;
  std::int32_t wall_slots_;
  WallSet wall_sets_;
  std::vector<char> reaches_bottom_;  // [walls, cell]: Eel may leave these walls, token there
  std::vector<Cost> rabbit_to_move_;  // [walls, cell]: Rabbit to move, the token on cell
  std::vector<Cost> eel_to_move_;     // [walls, cell]: Eel to move, the token just entered cell
};

void check_brute_force_board(const Board& board) {
  if (const std::string problem = check_board(board); !problem.empty()) {
    throw std::invalid_argument("wallgame brute force: invalid board: " + problem);
  }
  const std::int64_t wall_slots = (std::int64_t{board.height} - 1) * board.width;
  if (wall_slots > kMaxBruteForceWallSlots) {
    throw std::invalid_argument(
        "wallgame brute force: at most " + std::to_string(kMaxBruteForceWallSlots) +
        " wall slots ((height - 1) * width), got " + std::to_string(wall_slots));
  }
}

}  // namespace

Cost solve_brute_force(const Board& board) {
  check_brute_force_board(board);
  LiteralGame game(board);
  return game.value();
}

BruteForcePositions solve_brute_force_positions(const Board& board) {
  check_brute_force_board(board);
  LiteralGame game(board);
  return game.positions();
}

}  // namespace gamebatch::wallgame
