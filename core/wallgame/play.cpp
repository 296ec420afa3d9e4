// wallgame's optimal play. Within a row whose slot Eel walls, the states are the wall intervals
// [a, b] with the token on an end (the editorial's); their values come from the same recurrence
// as the solver's sweep, here kept for every length so that the play can climb from length 1.
#include "core/wallgame/play.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace gamebatch::wallgame {
namespace {

constexpr Cost kNoWall = std::numeric_limits<Cost>::lowest() / 4;  // a full row of walls

// The interval values of one row: left(len, a) and right(len, a) are what Rabbit still pays with
// walls under [a, a + len - 1] and the token on its left or right end, Rabbit to move.
class RowIntervals {
 public:
  RowIntervals(const Board& board, std::int32_t row, const std::vector<Cost>& down)
      : width_(board.width),
        down_(down),
        prefix_(static_cast<std::size_t>(width_) + 1, 0),
        left_(static_cast<std::size_t>(width_) * static_cast<std::size_t>(width_ + 1), kNoWall),
        right_(left_.size(), kNoWall) {
    for (std::int32_t x = 0; x < width_; ++x)
      prefix_[static_cast<std::size_t>(x) + 1] =
          prefix_[static_cast<std::size_t>(x)] + board.cost(row, x);
    for (std::int32_t len = width_ - 1; len >= 1; --len) {
      for (std::int32_t a = 0; a + len <= width_; ++a) {
        at(left_, len, a) = rabbit_value(len, a, /*token_left=*/true, nullptr);
        at(right_, len, a) = rabbit_value(len, a, /*token_left=*/false, nullptr);
      }
    }
  }

  Cost left(std::int32_t len, std::int32_t a) const { return at(left_, len, a); }

  // What Rabbit pays from the interval state on, his walk's target column into `target`
  // (kNoWall when no side is open: only a full row, which Eel may not build).
  Cost rabbit_value(std::int32_t len, std::int32_t a, bool token_left, std::int32_t* target) const {
    const std::int32_t b = a + len - 1;
    const std::int32_t from = token_left ? a : b;
    Cost best = std::numeric_limits<Cost>::max();
    if (a > 0) {  // round the left side to a - 1
      const Cost walk = sum(a - 1, from - 1);
      const Cost value = walk + eel_value(a - 1, len + 1, a - 1, true);
      if (value < best) {
        best = value;
        if (target != nullptr)
          *target = a - 1;
      }
    }
    if (b + 1 < width_) {  // round the right side to b + 1
      const Cost walk = sum(from + 1, b + 1);
      const Cost value = walk + eel_value(b + 1, len + 1, a, false);
      if (value < best) {
        best = value;
        if (target != nullptr)
          *target = b + 1;
      }
    }
    return best;
  }

  // Eel's turn with the token just arrived on `column` beside the interval: leave the slot open
  // (Rabbit steps down) or wall it (the interval [start, start + len - 1], token on its left end
  // or right end). Ties leave it open.
  Cost eel_value(std::int32_t column, std::int32_t len, std::int32_t start, bool token_left,
                 bool* walls = nullptr) const {
    const Cost open = down_[static_cast<std::size_t>(column)];
    const Cost walled = len >= width_ ? kNoWall : at(token_left ? left_ : right_, len, start);
    if (walls != nullptr)
      *walls = walled > open;
    return std::max(open, walled);
  }

 private:
  Cost& at(std::vector<Cost>& table, std::int32_t len, std::int32_t a) const {
    return table[static_cast<std::size_t>(len) * static_cast<std::size_t>(width_) +
                 static_cast<std::size_t>(a)];
  }
  Cost at(const std::vector<Cost>& table, std::int32_t len, std::int32_t a) const {
    return table[static_cast<std::size_t>(len) * static_cast<std::size_t>(width_) +
                 static_cast<std::size_t>(a)];
  }
  Cost sum(std::int32_t first, std::int32_t last) const {  // costs of columns first..last
    return prefix_[static_cast<std::size_t>(last) + 1] - prefix_[static_cast<std::size_t>(first)];
  }

  std::int32_t width_;
  const std::vector<Cost>& down_;
  std::vector<Cost> prefix_;
  std::vector<Cost> left_, right_;
};

void add_move(Play& play, RabbitMove move) {
  move.total = (play.moves.empty() ? 0 : play.moves.back().total) + move.paid;
  play.moves.push_back(move);
}

// The play inside row `row` from the token's entry on `column` until it steps down; returns the
// column it steps down from.
std::int32_t play_row(const Board& board, std::int32_t row, std::int32_t column,
                      const std::vector<Cost>& down, Play& play) {
  const RowIntervals intervals(board, row, down);
  std::int32_t a = column;
  std::int32_t b = column;
  bool token_left = true;
  while (true) {
    std::int32_t target = 0;
    intervals.rabbit_value(b - a + 1, a, token_left, &target);
    const std::int32_t from = token_left ? a : b;
    const std::int32_t step = target < from ? -1 : 1;
    Cost paid = 0;
    for (std::int32_t x = from + step; x != target + step; x += step)
      paid += board.cost(row, x);
    bool walls = false;
    const bool to_left = target < a;
    intervals.eel_value(target, b - a + 2, to_left ? target : a, to_left, &walls);
    add_move(play, {RabbitMove::Kind::walk, row, target, paid, 0, walls});
    if (!walls)
      return target;
    (to_left ? a : b) = target;
    token_left = to_left;
  }
}

}  // namespace

Play optimal_play(const Board& board) {
  const std::vector<Cost> entries = solve_entries(board);
  const auto w = static_cast<std::size_t>(board.width);
  Play play;
  std::int32_t column = 0;
  for (std::int32_t x = 1; x < board.width; ++x) {
    if (board.cost(0, x) + entries[static_cast<std::size_t>(x)] <
        board.cost(0, column) + entries[static_cast<std::size_t>(column)])
      column = x;
  }
  std::vector<Cost> down(w);
  for (std::int32_t row = 0;; ++row) {
    if (row + 1 < board.height) {
      for (std::size_t x = 0; x < w; ++x)
        down[x] = board.cost(row + 1, static_cast<std::int32_t>(x)) +
                  entries[static_cast<std::size_t>(row + 1) * w + x];
    }
    const Cost paid = board.cost(row, column);
    const bool last = row + 1 == board.height;
    const bool walls =
        !last && entries[static_cast<std::size_t>(row) * w + static_cast<std::size_t>(column)] >
                     down[static_cast<std::size_t>(column)];
    add_move(play, {row == 0 ? RabbitMove::Kind::place : RabbitMove::Kind::down, row, column, paid,
                    0, walls});
    if (last)
      break;
    if (walls)
      column = play_row(board, row, column, down, play);
  }
  play.value = play.moves.back().total;
  return play;
}

std::string describe_play(const Board& board, const Play& play) {
  std::string text = std::to_string(board.height) + " x " + std::to_string(board.width) +
                     " board; cells are (row, column) from (1, 1) at the top left\n";
  for (const RabbitMove& move : play.moves) {
    std::string cell(1, '(');
    cell.append(std::to_string(move.row + 1)).append(", ");
    cell.append(std::to_string(move.column + 1)).append(")");
    switch (move.kind) {
      case RabbitMove::Kind::place:
        text += "Rabbit places the token on " + cell;
        break;
      case RabbitMove::Kind::walk:
        text += "Rabbit walks along row " + std::to_string(move.row + 1) + " round the walls to " +
                cell;
        break;
      case RabbitMove::Kind::down:
        text += "Rabbit steps down to " + cell;
        break;
    }
    text += ", pays " + std::to_string(move.paid) + ", total " + std::to_string(move.total);
    if (move.row + 1 < board.height)
      text += move.eel_walls ? "; Eel walls the slot under it" : "; Eel leaves the slot open";
    text += "\n";
  }
  return text + "answer: " + std::to_string(play.value) + "\n";
}

}  // namespace gamebatch::wallgame
