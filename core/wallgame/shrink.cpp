// Shrink candidates for wallgame: drop rows and columns, lower digits (see shrink.hpp).
#include "core/wallgame/shrink.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <utility>
#include <vector>

namespace gamebatch::wallgame {
namespace {

using Index = std::int32_t;

// Boards of more cells (20 x 20 has 400) get single-cell steps for their largest digits only, so
// that the list stays short: each candidate is tried by running a program.
constexpr std::size_t kMaxCellsLoweredPerKind = 512;
// Boards of at most this many cells also get every pair of digits lowered together.
constexpr std::size_t kMaxCellsForPairs = 16;

std::vector<Index> index_range(Index first, Index end) {
  std::vector<Index> indices(static_cast<std::size_t>(end - first));
  std::iota(indices.begin(), indices.end(), first);
  return indices;
}

std::vector<Index> all_but(Index count, Index left_out) {
  std::vector<Index> indices = index_range(0, count);
  indices.erase(indices.begin() + left_out);
  return indices;
}

// The cells of `board` in the given rows and columns (each list ascending).
Board sub_board(const Board& board, const std::vector<Index>& rows,
                const std::vector<Index>& columns) {
  Board part;
  part.height = static_cast<Index>(rows.size());
  part.width = static_cast<Index>(columns.size());
  part.costs.reserve(rows.size() * columns.size());
  for (const Index row : rows) {
    for (const Index column : columns)
      part.costs.push_back(board.cost(row, column));
  }
  return part;
}

void add_smaller_boards(const Board& board, std::vector<Board>& candidates) {
  const Index height = board.height;
  const Index width = board.width;
  const std::vector<Index> all_rows = index_range(0, height);
  const std::vector<Index> all_columns = index_range(0, width);
  std::vector<Board> smaller;
  // Halves only when they cut more than one line: a half of 2 lines is a one-line removal below.
  const Index half_height = height / 2;
  if (half_height >= 2 && half_height < height - 1) {
    smaller.push_back(sub_board(board, index_range(0, half_height), all_columns));
    smaller.push_back(sub_board(board, index_range(height - half_height, height), all_columns));
  }
  const Index half_width = width / 2;
  if (half_width >= 1 && half_width < width - 1) {
    smaller.push_back(sub_board(board, all_rows, index_range(0, half_width)));
    smaller.push_back(sub_board(board, all_rows, index_range(width - half_width, width)));
  }
  if (height - 1 >= 2) {
    for (Index row = 0; row < height; ++row)
      smaller.push_back(sub_board(board, all_but(height, row), all_columns));
  }
  if (width - 1 >= 1) {
    for (Index column = 0; column < width; ++column)
      smaller.push_back(sub_board(board, all_rows, all_but(width, column)));
  }
  std::stable_sort(smaller.begin(), smaller.end(), [](const Board& x, const Board& y) {
    return x.height * x.width < y.height * y.width;
  });
  std::move(smaller.begin(), smaller.end(), std::back_inserter(candidates));
}

void add_lower_digits(const Board& board, std::vector<Board>& candidates) {
  const auto with_costs = [&](std::vector<std::uint8_t> costs) {
    Board candidate;
    candidate.height = board.height;
    candidate.width = board.width;
    candidate.costs = std::move(costs);
    candidates.push_back(std::move(candidate));
  };
  const auto above_zero = [](std::uint8_t digit) { return digit > 0; };
  if (std::any_of(board.costs.begin(), board.costs.end(), above_zero)) {
    std::vector<std::uint8_t> halved = board.costs;
    for (std::uint8_t& digit : halved)
      digit = static_cast<std::uint8_t>(digit / 2);
    with_costs(std::move(halved));
  }
  // Lowering all by 1 equals halving when every digit is 0 or 1 (or 2, which halving also makes 1).
  if (std::any_of(board.costs.begin(), board.costs.end(),
                  [](std::uint8_t digit) { return digit > 2; })) {
    std::vector<std::uint8_t> lowered = board.costs;
    for (std::uint8_t& digit : lowered)
      digit = static_cast<std::uint8_t>(digit > 0 ? digit - 1 : 0);
    with_costs(std::move(lowered));
  }

  // A whole row or column to 0: two cells that only fail together need not be zeroed one by one.
  const auto zero_cells = [&](Index first, Index step, Index count) {
    std::vector<std::uint8_t> costs = board.costs;
    bool lowered = false;
    for (Index k = 0; k < count; ++k) {
      std::uint8_t& digit = costs[static_cast<std::size_t>(first + k * step)];
      lowered = lowered || digit > 0;
      digit = 0;
    }
    if (lowered)
      with_costs(std::move(costs));
  };
  if (board.height > 1) {
    for (Index row = 0; row < board.height; ++row)
      zero_cells(row * board.width, 1, board.width);
  }
  if (board.width > 1) {
    for (Index column = 0; column < board.width; ++column)
      zero_cells(column, board.width, board.height);
  }

  std::vector<std::size_t> largest_first(board.costs.size());
  std::iota(largest_first.begin(), largest_first.end(), std::size_t{0});
  std::stable_sort(largest_first.begin(), largest_first.end(),
                   [&](std::size_t x, std::size_t y) { return board.costs[x] > board.costs[y]; });
  largest_first.resize(std::min(largest_first.size(), kMaxCellsLoweredPerKind));
  const auto one_cell_changed = [&](std::size_t cell, std::uint8_t digit) {
    std::vector<std::uint8_t> costs = board.costs;
    costs[cell] = digit;
    with_costs(std::move(costs));
  };
  for (const std::size_t cell : largest_first) {
    if (board.costs[cell] > 0)
      one_cell_changed(cell, 0);
  }
  // Two digits lowered by 1 together, on small boards: a case can need two costs to stay in
  // balance (a walk along the top row against a cell below it), so neither can go alone.
  if (board.costs.size() <= kMaxCellsForPairs) {
    for (std::size_t first = 0; first < board.costs.size(); ++first) {
      for (std::size_t second = first + 1; second < board.costs.size(); ++second) {
        if (board.costs[first] == 0 || board.costs[second] == 0)
          continue;
        std::vector<std::uint8_t> costs = board.costs;
        --costs[first];
        --costs[second];
        with_costs(std::move(costs));
      }
    }
  }
  for (const std::size_t cell : largest_first) {
    if (board.costs[cell] >= 2)  // lowering a 1 gives 0, offered above
      one_cell_changed(cell, static_cast<std::uint8_t>(board.costs[cell] - 1));
  }
}

}  // namespace

std::vector<Board> shrink_candidates(const Board& board) {
  std::vector<Board> candidates;
  if (!check_board(board).empty())
    return candidates;
  add_smaller_boards(board, candidates);
  add_lower_digits(board, candidates);
  return candidates;
}

}  // namespace gamebatch::wallgame
