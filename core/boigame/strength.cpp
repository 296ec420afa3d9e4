#include "core/boigame/strength.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/boigame/generators.hpp"

namespace gamebatch::boigame {
// Not an anonymous namespace: the unity batches hold other files' helpers of the same names.
namespace strength_parts {

void check(const Board& board) {
  const std::string problem = check_board(board);
  if (!problem.empty())
    throw std::invalid_argument("boigame: " + problem);
}

// White distances from `from` (-1: unreached).
std::vector<std::int32_t> distances(const Board& board, Square from) {
  std::vector<std::int32_t> distance(static_cast<std::size_t>(board.square_count()), -1);
  std::vector<Square> frontier{from};
  distance[static_cast<std::size_t>(from)] = 0;
  for (std::size_t k = 0; k < frontier.size(); ++k) {
    const Square square = frontier[k];
    const std::int32_t row = square / board.n, column = square % board.n;
    const std::pair<std::int32_t, std::int32_t> steps[] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    for (const auto& [dr, dc] : steps) {
      const std::int32_t r = row + dr, c = column + dc;
      if (r < 0 || c < 0 || r >= board.n || c >= board.n)
        continue;
      const Square next = board.square(r, c);
      if (!board.is_white(next) || distance[static_cast<std::size_t>(next)] >= 0)
        continue;
      distance[static_cast<std::size_t>(next)] = distance[static_cast<std::size_t>(square)] + 1;
      frontier.push_back(next);
    }
  }
  return distance;
}

}  // namespace strength_parts

std::vector<std::string> shapes_of(const Board& board) {
  const std::int32_t n = board.n;
  std::int32_t black = 0;
  bool odd_odd_black = true;
  for (std::int32_t row = 0; row < n; ++row) {
    for (std::int32_t column = 0; column < n; ++column) {
      const bool is_black = !board.is_white(board.square(row, column));
      black += is_black ? 1 : 0;
      if (row % 2 == 1 && column % 2 == 1 && !is_black)
        odd_odd_black = false;
    }
  }
  bool snake = n >= 3;
  for (std::int32_t row = 0; row < n && snake; ++row) {
    std::int32_t white = 0;
    for (std::int32_t column = 0; column < n; ++column)
      white += board.is_white(board.square(row, column)) ? 1 : 0;
    // Odd rows are black but for their gap (and a start square placed on them).
    snake = row % 2 == 0 ? white == n
                         : white <= 2 && (board.is_white(board.square(row, 0)) ||
                                          board.is_white(board.square(row, n - 1)));
  }
  const std::int32_t squares = board.square_count();
  std::vector<std::string> shapes;
  if (black == 0)
    shapes.emplace_back(to_string(BoardShape::open));
  else if (5 * black <= squares)
    shapes.emplace_back(to_string(BoardShape::sparse));
  else if (2 * black <= squares)
    shapes.emplace_back(to_string(BoardShape::dense));
  if (snake)
    shapes.emplace_back(to_string(BoardShape::snake));
  if (n >= 3 && odd_odd_black && 5 * black >= squares && !snake)
    shapes.emplace_back(to_string(BoardShape::maze));
  return shapes;
}

Winner no_jumps(const Board& board) {
  strength_parts::check(board);
  return Winner::a;
}

Winner parity(const Board& board) {
  strength_parts::check(board);
  const std::int32_t d =
      strength_parts::distances(board, board.a)[static_cast<std::size_t>(board.b)];
  return d % 2 == 1 ? Winner::a : Winner::b;
}

Winner chokepoint(const Board& board) {
  strength_parts::check(board);
  const std::vector<std::int32_t> from_a = strength_parts::distances(board, board.a);
  const std::vector<std::int32_t> from_b = strength_parts::distances(board, board.b);
  const std::int32_t d = from_a[static_cast<std::size_t>(board.b)];
  if (d % 2 == 1)
    return Winner::a;
  std::int32_t middle = 0;
  for (Square square = 0; square < board.square_count(); ++square) {
    middle += from_a[static_cast<std::size_t>(square)] == d / 2 &&
                      from_b[static_cast<std::size_t>(square)] == d / 2
                  ? 1
                  : 0;
  }
  return middle == 1 ? Winner::b : Winner::a;
}

}  // namespace gamebatch::boigame
