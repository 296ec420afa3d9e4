#include "core/wallgame/strength.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>

#include "core/wallgame/generators.hpp"

namespace gamebatch::wallgame {
// Not an anonymous namespace: the unity batches hold other files' helpers of the same names.
namespace strength_parts {

void check(const Board& board) {
  const std::string problem = check_board(board);
  if (!problem.empty())
    throw std::invalid_argument("wallgame: " + problem);
}

// prefix[c] = the costs of row `row`'s columns 0 .. c - 1.
std::vector<Cost> row_prefix(const Board& board, std::int32_t row) {
  std::vector<Cost> prefix(static_cast<std::size_t>(board.width) + 1, 0);
  for (std::int32_t c = 0; c < board.width; ++c)
    prefix[static_cast<std::size_t>(c) + 1] =
        prefix[static_cast<std::size_t>(c)] + board.cost(row, c);
  return prefix;
}

}  // namespace strength_parts

std::vector<std::string> shapes_of(const Board& board) {
  std::array<std::size_t, 10> count{};
  for (const std::uint8_t cost : board.costs)
    ++count[cost];
  const std::size_t cells = board.costs.size();
  const auto digits = static_cast<std::size_t>(
      std::count_if(count.begin(), count.end(), [](std::size_t n) { return n > 0; }));
  bool columns = true;
  for (std::int32_t row = 1; row < board.height && columns; ++row) {
    for (std::int32_t c = 0; c < board.width && columns; ++c)
      columns = board.cost(row, c) == board.cost(0, c);
  }
  std::vector<std::string> shapes;
  if (count[0] == cells)
    shapes.emplace_back(to_string(CostPattern::all_zero));
  else if (count[9] == cells)
    shapes.emplace_back(to_string(CostPattern::all_nine));
  else if (digits == 1)
    shapes.emplace_back(to_string(CostPattern::all_equal));
  if (digits > 1 && count[0] + count[1] + count[2] == cells)
    shapes.emplace_back(to_string(CostPattern::low));
  if (digits == 2 && count[0] + count[9] == cells && 4 * count[0] >= 3 * cells)
    shapes.emplace_back(to_string(CostPattern::sparse));
  if (digits > 1 && columns && board.height > 1)
    shapes.emplace_back(to_string(CostPattern::columns));
  if (shapes.empty() && digits >= 5)
    shapes.emplace_back(to_string(CostPattern::uniform));
  return shapes;
}

Cost no_walls(const Board& board) {
  strength_parts::check(board);
  // best[c]: the least paid to stand on (row, c); walking along a row in both directions.
  std::vector<Cost> best(static_cast<std::size_t>(board.width));
  for (std::int32_t c = 0; c < board.width; ++c)
    best[static_cast<std::size_t>(c)] = board.cost(0, c);
  for (std::int32_t row = 0;; ++row) {
    for (std::int32_t c = 1; c < board.width; ++c)
      best[static_cast<std::size_t>(c)] =
          std::min(best[static_cast<std::size_t>(c)],
                   best[static_cast<std::size_t>(c) - 1] + board.cost(row, c));
    for (std::int32_t c = board.width - 1; c-- > 0;)
      best[static_cast<std::size_t>(c)] =
          std::min(best[static_cast<std::size_t>(c)],
                   best[static_cast<std::size_t>(c) + 1] + board.cost(row, c));
    if (row + 1 == board.height)
      return *std::min_element(best.begin(), best.end());
    for (std::int32_t c = 0; c < board.width; ++c)
      best[static_cast<std::size_t>(c)] += board.cost(row + 1, c);
    if (row + 2 == board.height)
      return *std::min_element(best.begin(), best.end());  // he stops on entering the bottom row
  }
}

Cost wall_all_but_last(const Board& board) {
  strength_parts::check(board);
  const std::int32_t w = board.width;
  if (board.height == 1)
    return *std::min_element(board.costs.begin(), board.costs.end());
  // What Rabbit still pays after entering row `row` on column c, given `next`: the same for row
  // + 1 entered on column 0 and on column w - 1. Every slot but the last one left is walled, so
  // he sweeps the row: left to column 0 and then to w - 1 (going down there), or the other way.
  const auto further = [&](std::int32_t row, std::int32_t c, const std::vector<Cost>& prefix,
                           const std::array<Cost, 2>& next) {
    if (w == 1)
      return board.cost(row + 1, 0) + next[0];
    const Cost whole = prefix[static_cast<std::size_t>(w)];
    const Cost left_first = prefix[static_cast<std::size_t>(c)] + whole - board.cost(row, 0);
    const Cost right_first =
        whole - prefix[static_cast<std::size_t>(c) + 1] + whole - board.cost(row, w - 1);
    return std::min(left_first + board.cost(row + 1, w - 1) + next[1],
                    right_first + board.cost(row + 1, 0) + next[0]);
  };
  std::array<Cost, 2> below{0, 0};  // the bottom row: the game is over
  for (std::int32_t row = board.height - 2; row >= 1; --row) {
    const std::vector<Cost> prefix = strength_parts::row_prefix(board, row);
    below = {further(row, 0, prefix, below), further(row, w - 1, prefix, below)};
  }
  const std::vector<Cost> prefix = strength_parts::row_prefix(board, 0);
  Cost best = std::numeric_limits<Cost>::max();
  for (std::int32_t c = 0; c < w; ++c)
    best = std::min(best, board.cost(0, c) + further(0, c, prefix, below));
  return best;
}

Cost one_exit(const Board& board) {
  strength_parts::check(board);
  const std::int32_t w = board.width;
  if (board.height == 1)
    return *std::min_element(board.costs.begin(), board.costs.end());
  // value[c]: what Rabbit still pays from standing on (row, c) on entering it.
  std::vector<Cost> value(static_cast<std::size_t>(w), 0);  // the bottom row: nothing more
  for (std::int32_t row = board.height - 2; row >= 0; --row) {
    const std::vector<Cost> prefix = strength_parts::row_prefix(board, row);
    // exit[j]: going down at j from row `row`: the cell below and what follows.
    std::vector<Cost> exit(static_cast<std::size_t>(w));
    for (std::int32_t j = 0; j < w; ++j)
      exit[static_cast<std::size_t>(j)] =
          board.cost(row + 1, j) + value[static_cast<std::size_t>(j)];
    // From c, to j > c: prefix[j + 1] - prefix[c + 1] + exit[j]; to j < c: prefix[c] - prefix[j]
    // + exit[j]; j = c: exit[c]. Eel picks the largest.
    std::vector<Cost> right(static_cast<std::size_t>(w) + 1, std::numeric_limits<Cost>::min());
    for (std::int32_t j = w - 1; j >= 0; --j)
      right[static_cast<std::size_t>(j)] =
          std::max(right[static_cast<std::size_t>(j) + 1],
                   prefix[static_cast<std::size_t>(j) + 1] + exit[static_cast<std::size_t>(j)]);
    Cost left = std::numeric_limits<Cost>::min();  // max over j < c of exit[j] - prefix[j]
    std::vector<Cost> next(static_cast<std::size_t>(w));
    for (std::int32_t c = 0; c < w; ++c) {
      Cost best = exit[static_cast<std::size_t>(c)];
      if (c + 1 < w)
        best = std::max(
            best, right[static_cast<std::size_t>(c) + 1] - prefix[static_cast<std::size_t>(c) + 1]);
      if (c > 0)
        best = std::max(best, left + prefix[static_cast<std::size_t>(c)]);
      next[static_cast<std::size_t>(c)] = best;
      left =
          std::max(left, exit[static_cast<std::size_t>(c)] - prefix[static_cast<std::size_t>(c)]);
    }
    value = std::move(next);
  }
  Cost best = std::numeric_limits<Cost>::max();
  for (std::int32_t c = 0; c < w; ++c)
    best = std::min(best, board.cost(0, c) + value[static_cast<std::size_t>(c)]);
  return best;
}

}  // namespace gamebatch::wallgame
