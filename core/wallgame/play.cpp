// wallgame's optimal play. Within a row whose slot Eel walls, the states are the wall intervals
// [a, b] with the token on an end (the editorial's); their values are the solver's own, kept by
// KeptSolve, so that the play climbs from length 1 reading them.
#include "core/wallgame/play.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string_view>

#include "core/wallgame/kept_solve.hpp"

namespace gamebatch::wallgame {
namespace {

constexpr Cost kNoWall = std::numeric_limits<Cost>::lowest() / 4;  // a full row of walls

// The choices within one row: left(len, a) and right(len, a) are what Rabbit still pays with
// walls under [a, a + len - 1] and the token on its left or right end, Rabbit to move.
class RowIntervals {
 public:
  RowIntervals(const Board& board, std::int32_t row, const std::vector<Cost>& down, KeptSolve& kept)
      : width_(board.width),
        down_(down),
        prefix_(static_cast<std::size_t>(width_) + 1, 0),
        kept_(kept) {
    for (std::int32_t x = 0; x < width_; ++x)
      prefix_[static_cast<std::size_t>(x) + 1] =
          prefix_[static_cast<std::size_t>(x)] + board.cost(row, x);
    kept.use_row(row);
  }

  // What Rabbit pays from the interval state on, his walk's target column into `target`
  // (kNoWall when no side is open: only a full row, which Eel may not build). Ties: left.
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
    const Cost walled = len >= width_ ? kNoWall
                        : token_left  ? kept_.left(len, start)
                                      : kept_.right(len, start);
    if (walls != nullptr)
      *walls = walled > open;
    return std::max(open, walled);
  }

  Cost sum(std::int32_t first, std::int32_t last) const {  // costs of columns first..last
    return prefix_[static_cast<std::size_t>(last) + 1] - prefix_[static_cast<std::size_t>(first)];
  }

 private:
  std::int32_t width_;
  const std::vector<Cost>& down_;
  std::vector<Cost> prefix_;
  const KeptSolve& kept_;
};

void add_move(Play& play, RabbitMove move) {
  move.total = (play.moves.empty() ? 0 : play.moves.back().total) + move.paid;
  play.moves.push_back(move);
}

// The play inside row `row` from the token's entry on `column` until it steps down; returns the
// column it steps down from.
std::int32_t play_row(const Board& board, std::int32_t row, std::int32_t column,
                      const std::vector<Cost>& down, KeptSolve& kept, Play& play) {
  const RowIntervals intervals(board, row, down, kept);
  std::int32_t a = column;
  std::int32_t b = column;
  bool token_left = true;
  while (true) {
    std::int32_t target = 0;
    intervals.rabbit_value(b - a + 1, a, token_left, &target);
    const std::int32_t from = token_left ? a : b;
    const Cost paid =
        target < from ? intervals.sum(target, from - 1) : intervals.sum(from + 1, target);
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
  KeptSolve kept(board);
  const auto w = static_cast<std::size_t>(board.width);
  Play play;
  // At most a place or step down per row and a walk per wall: room for the moves of a board of
  // the official size at once, instead of growing the vector a dozen times.
  play.moves.reserve(std::min<std::size_t>(
      static_cast<std::size_t>(board.height) * static_cast<std::size_t>(board.width), 1 << 16));
  std::int32_t column = 0;
  for (std::int32_t x = 1; x < board.width; ++x) {
    if (board.cost(0, x) + kept.entry(0, x) < board.cost(0, column) + kept.entry(0, column))
      column = x;
  }
  std::vector<Cost> down(w);
  for (std::int32_t row = 0;; ++row) {
    if (row + 1 < board.height) {
      for (std::int32_t x = 0; x < board.width; ++x)
        down[static_cast<std::size_t>(x)] = board.cost(row + 1, x) + kept.entry(row + 1, x);
    }
    const Cost paid = board.cost(row, column);
    const bool last = row + 1 == board.height;
    const bool walls = !last && kept.entry(row, column) > down[static_cast<std::size_t>(column)];
    add_move(play, {row == 0 ? RabbitMove::Kind::place : RabbitMove::Kind::down, row, column, paid,
                    0, walls});
    if (last)
      break;
    if (walls)
      column = play_row(board, row, column, down, kept, play);
  }
  play.value = play.moves.back().total;
  return play;
}

std::string describe_play(const Board& board, const Play& play) {
  const std::string header = std::to_string(board.height) + " x " + std::to_string(board.width) +
                             " board; cells are (row, column) from (1, 1) at the top left\n";
  // Written through a cursor into room for the longest lines: a line of thousands of moves, a
  // few hundred kilobytes of text, costs about a solve, not several.
  constexpr std::size_t kLongestLine = 192;  // 159: a walk with ten-digit places, 19-digit sums
  std::string text(header.size() + kLongestLine * (play.moves.size() + 1), '\0');
  std::memcpy(text.data(), header.data(), header.size());
  char* at = text.data() + header.size();
  auto put = [&at](std::string_view words) {
    std::memcpy(at, words.data(), words.size());
    at += words.size();
  };
  auto number = [&at](Cost value) { at = std::to_chars(at, at + 24, value).ptr; };
  for (const RabbitMove& move : play.moves) {
    switch (move.kind) {
      case RabbitMove::Kind::place:
        put("Rabbit places the token on (");
        break;
      case RabbitMove::Kind::walk:
        put("Rabbit walks along row ");
        number(move.row + 1);
        put(" round the walls to (");
        break;
      case RabbitMove::Kind::down:
        put("Rabbit steps down to (");
        break;
    }
    number(move.row + 1);
    put(", ");
    number(move.column + 1);
    put("), pays ");
    number(move.paid);
    put(", total ");
    number(move.total);
    if (move.row + 1 < board.height)
      put(move.eel_walls ? "; Eel walls the slot under it" : "; Eel leaves the slot open");
    put("\n");
  }
  put("answer: ");
  number(play.value);
  put("\n");
  text.resize(static_cast<std::size_t>(at - text.data()));
  return text;
}

}  // namespace gamebatch::wallgame
