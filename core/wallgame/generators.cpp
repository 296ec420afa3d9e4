// Random wallgame boards. Every draw goes through uniform_below() rather than the standard
// distributions, whose algorithms differ between standard libraries: the same seed then gives the
// same board everywhere, so a failing case can be reported as (size, pattern, seed).
#include "core/wallgame/generators.hpp"

#include <stdexcept>
#include <string>

#include "core/random.hpp"

namespace gamebatch::wallgame {

std::string_view to_string(CostPattern pattern) {
  switch (pattern) {
    case CostPattern::uniform:
      return "uniform";
    case CostPattern::all_zero:
      return "all_zero";
    case CostPattern::all_nine:
      return "all_nine";
    case CostPattern::all_equal:
      return "all_equal";
    case CostPattern::low:
      return "low";
    case CostPattern::sparse:
      return "sparse";
    case CostPattern::columns:
      return "columns";
  }
  return "unknown";
}

namespace {

std::int32_t uniform_in(std::mt19937_64& rng, std::int32_t low, std::int32_t high) {
  const auto span = static_cast<std::uint64_t>(std::int64_t{high} - low + 1);
  return low + static_cast<std::int32_t>(uniform_below(rng, span));
}

std::uint8_t digit_below(std::mt19937_64& rng, std::uint64_t bound) {
  return static_cast<std::uint8_t>(uniform_below(rng, bound));
}

}  // namespace

Board generate_board(const SizeRange& sizes, CostPattern pattern, std::mt19937_64& rng) {
  if (sizes.min_height < 1 || sizes.min_width < 1 || sizes.min_height > sizes.max_height ||
      sizes.min_width > sizes.max_width) {
    throw std::invalid_argument(
        "wallgame generator: need 1 <= min <= max for both sides, got height " +
        std::to_string(sizes.min_height) + ".." + std::to_string(sizes.max_height) + ", width " +
        std::to_string(sizes.min_width) + ".." + std::to_string(sizes.max_width));
  }
  Board board;
  board.height = uniform_in(rng, sizes.min_height, sizes.max_height);
  board.width = uniform_in(rng, sizes.min_width, sizes.max_width);
  const auto width = static_cast<std::size_t>(board.width);
  board.costs.assign(static_cast<std::size_t>(board.height) * width, 0);
  switch (pattern) {
    case CostPattern::uniform:
      for (std::uint8_t& cost : board.costs)
        cost = digit_below(rng, 10);
      break;
    case CostPattern::all_zero:
      break;
    case CostPattern::all_nine:
      board.costs.assign(board.costs.size(), 9);
      break;
    case CostPattern::all_equal:
      board.costs.assign(board.costs.size(), digit_below(rng, 10));
      break;
    case CostPattern::low:
      for (std::uint8_t& cost : board.costs)
        cost = digit_below(rng, 3);
      break;
    case CostPattern::sparse:
      for (std::uint8_t& cost : board.costs)
        cost = uniform_below(rng, 4) == 0 ? 9 : 0;
      break;
    case CostPattern::columns:
      for (std::size_t column = 0; column < width; ++column) {
        const std::uint8_t cost = digit_below(rng, 10);
        for (std::size_t cell = column; cell < board.costs.size(); cell += width)
          board.costs[cell] = cost;
      }
      break;
  }
  return board;
}

Board generate_board(std::int32_t height, std::int32_t width, CostPattern pattern,
                     std::mt19937_64& rng) {
  return generate_board(SizeRange{height, height, width, width}, pattern, rng);
}

}  // namespace gamebatch::wallgame
