// Random boigame boards. Every draw goes through uniform_below() rather than the standard
// distributions, whose algorithms differ between standard libraries: the same seed then gives the
// same board everywhere, so a failing case can be reported as (shape, n, placement, seed).
#include "core/boigame/generators.hpp"

#include <cstdint>
#include <deque>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/random.hpp"

namespace gamebatch::boigame {

std::string_view to_string(BoardShape shape) {
  switch (shape) {
    case BoardShape::open:
      return "open";
    case BoardShape::sparse:
      return "sparse";
    case BoardShape::dense:
      return "dense";
    case BoardShape::snake:
      return "snake";
    case BoardShape::maze:
      return "maze";
  }
  return "unknown";
}

std::string_view to_string(Placement placement) {
  switch (placement) {
    case Placement::corners:
      return "corners";
    case Placement::random:
      return "random";
  }
  return "unknown";
}

namespace {

std::int32_t uniform_int_below(std::mt19937_64& rng, std::int32_t bound) {
  return static_cast<std::int32_t>(uniform_below(rng, static_cast<std::uint64_t>(bound)));
}

Board open_board(std::int32_t n) {
  Board board = Board::all_black(n);
  for (Square square = 0; square < board.square_count(); ++square)
    board.set_white(square, true);
  return board;
}

Board speckled_board(std::int32_t n, std::int32_t wall_percent, std::mt19937_64& rng) {
  Board board = Board::all_black(n);
  for (Square square = 0; square < board.square_count(); ++square)
    board.set_white(square, uniform_below(rng, 100) >= static_cast<std::uint64_t>(wall_percent));
  return board;
}

// Rows 1, 3, 5, ... are black but for one gap, at the right end, then the left, and so on.
Board snake_board(std::int32_t n) {
  Board board = open_board(n);
  for (std::int32_t row = 1; row < n; row += 2) {
    const std::int32_t gap = (row / 2) % 2 == 0 ? n - 1 : 0;
    for (std::int32_t column = 0; column < n; ++column) {
      if (column != gap)
        board.set_white(board.square(row, column), false);
    }
  }
  return board;
}

// Corridor squares at even (row, column); a random spanning tree of them (randomised depth-first
// search) opens the wall square between tree neighbours; then one in eight of the other walls
// between two corridor squares opens too.
Board maze_board(std::int32_t n, std::mt19937_64& rng) {
  Board board = Board::all_black(n);
  const std::int32_t cells_per_side = (n + 1) / 2;
  auto square_of_cell = [&](std::int32_t cell) {
    return board.square(2 * (cell / cells_per_side), 2 * (cell % cells_per_side));
  };
  const std::int32_t cell_count = cells_per_side * cells_per_side;
  std::vector<bool> visited(static_cast<std::size_t>(cell_count), false);
  std::vector<std::int32_t> stack{uniform_int_below(rng, cell_count)};
  visited[static_cast<std::size_t>(stack.back())] = true;
  board.set_white(square_of_cell(stack.back()), true);
  while (!stack.empty()) {
    const std::int32_t cell = stack.back();
    const std::int32_t row = cell / cells_per_side;
    const std::int32_t column = cell % cells_per_side;
    std::vector<std::int32_t> unvisited;
    if (row > 0)
      unvisited.push_back(cell - cells_per_side);
    if (row + 1 < cells_per_side)
      unvisited.push_back(cell + cells_per_side);
    if (column > 0)
      unvisited.push_back(cell - 1);
    if (column + 1 < cells_per_side)
      unvisited.push_back(cell + 1);
    std::erase_if(unvisited,
                  [&](std::int32_t next) { return visited[static_cast<std::size_t>(next)]; });
    if (unvisited.empty()) {
      stack.pop_back();
      continue;
    }
    const std::int32_t next = unvisited[static_cast<std::size_t>(
        uniform_int_below(rng, static_cast<std::int32_t>(unvisited.size())))];
    visited[static_cast<std::size_t>(next)] = true;
    // The wall square between two corridor squares is their midpoint.
    board.set_white((square_of_cell(cell) + square_of_cell(next)) / 2, true);
    board.set_white(square_of_cell(next), true);
    stack.push_back(next);
  }
  // Loops: the wall squares with an odd coordinate and an even one lie between two corridors.
  for (std::int32_t row = 0; row < n; ++row) {
    for (std::int32_t column = (row + 1) % 2; column < n; column += 2) {
      const Square square = board.square(row, column);
      const bool between_corridors = row % 2 == 1 ? row + 1 < n : column + 1 < n;
      if (between_corridors && !board.is_white(square) && uniform_below(rng, 8) == 0)
        board.set_white(square, true);
    }
  }
  return board;
}

// Makes white the fewest black squares on some path from `from` to `to` (0-1 breadth-first
// search: entering a black square costs one), so that a shape keeps its texture.
void open_a_path(Board& board, Square from, Square to) {
  const std::int32_t n = board.n;
  const auto squares = static_cast<std::size_t>(board.square_count());
  constexpr std::int32_t kUnseen = std::numeric_limits<std::int32_t>::max();
  std::vector<std::int32_t> cost(squares, kUnseen);
  std::vector<Square> came_from(squares, -1);
  std::deque<Square> queue{from};
  cost[static_cast<std::size_t>(from)] = 0;
  while (!queue.empty()) {
    const Square square = queue.front();
    queue.pop_front();
    if (square == to)
      break;
    const std::int32_t row = square / n;
    const std::int32_t column = square % n;
    const Square neighbours[] = {row > 0 ? square - n : -1, row + 1 < n ? square + n : -1,
                                 column > 0 ? square - 1 : -1, column + 1 < n ? square + 1 : -1};
    for (const Square next : neighbours) {
      if (next < 0)
        continue;
      const std::int32_t step = board.is_white(next) ? 0 : 1;
      const std::int32_t next_cost = cost[static_cast<std::size_t>(square)] + step;
      if (next_cost < cost[static_cast<std::size_t>(next)]) {
        cost[static_cast<std::size_t>(next)] = next_cost;
        came_from[static_cast<std::size_t>(next)] = square;
        if (step == 0) {
          queue.push_front(next);
        } else {
          queue.push_back(next);
        }
      }
    }
  }
  for (Square square = to; square != from; square = came_from[static_cast<std::size_t>(square)])
    board.set_white(square, true);
}

void place_pieces(Board& board, Placement placement, std::mt19937_64& rng) {
  const std::int32_t n = board.n;
  if (placement == Placement::corners) {
    const Square corners[] = {board.square(0, 0), board.square(0, n - 1),
                              board.square(n - 1, n - 1), board.square(n - 1, 0)};
    const auto corner = static_cast<std::size_t>(uniform_below(rng, 4));
    board.a = corners[corner];
    board.b = corners[(corner + 2) % 4];
  } else {
    const std::int32_t squares = board.square_count();
    board.a = uniform_int_below(rng, squares);
    board.b = uniform_int_below(rng, squares - 1);
    if (board.b >= board.a)
      ++board.b;  // uniform over the other squares
  }
  board.set_white(board.a, true);
  board.set_white(board.b, true);
  if (!has_white_path(board))
    open_a_path(board, board.a, board.b);
}

void check_size(std::int32_t n) {
  if (n < 2 || n > kMaxBoardSize) {
    throw std::invalid_argument("boigame generator: n must be from 2 to " +
                                std::to_string(kMaxBoardSize) + ", got " + std::to_string(n));
  }
}

}  // namespace

Board generate_board(BoardShape shape, std::int32_t n, Placement placement, std::mt19937_64& rng) {
  check_size(n);
  Board board;
  switch (shape) {
    case BoardShape::open:
      board = open_board(n);
      break;
    case BoardShape::sparse:
      board = speckled_board(n, 10, rng);
      break;
    case BoardShape::dense:
      board = speckled_board(n, 35, rng);
      break;
    case BoardShape::snake:
      board = snake_board(n);
      break;
    case BoardShape::maze:
      board = maze_board(n, rng);
      break;
  }
  place_pieces(board, placement, rng);
  return board;
}

Board generate_random_board(std::int32_t n, std::int32_t wall_percent, Placement placement,
                            std::mt19937_64& rng) {
  check_size(n);
  if (wall_percent < 0 || wall_percent > 100) {
    throw std::invalid_argument("boigame generator: wall_percent must be from 0 to 100, got " +
                                std::to_string(wall_percent));
  }
  Board board = speckled_board(n, wall_percent, rng);
  place_pieces(board, placement, rng);
  return board;
}

}  // namespace gamebatch::boigame
