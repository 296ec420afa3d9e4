#include "io/wallgame/picture.hpp"

#include <algorithm>
#include <vector>

#include "core/wallgame/play.hpp"
#include "io/picture/svg.hpp"

namespace gamebatch::io::wallgame {
namespace {

constexpr double kCell = 24;
constexpr double kLeft = 20;
constexpr double kTop = 50;

double cx(std::int32_t column) {
  return kLeft + kCell * column + kCell / 2;
}
double cy(std::int32_t row) {
  return kTop + kCell * row + kCell / 2;
}

// Each row's drawn columns [first, last] (first > last: none).
std::vector<std::pair<std::int32_t, std::int32_t>> drawn_columns(
    const gamebatch::wallgame::Board& board, const gamebatch::wallgame::Play& play) {
  const auto rows = static_cast<std::size_t>(board.height);
  if (static_cast<std::size_t>(board.height) * static_cast<std::size_t>(board.width) <=
      kMaxDrawnCells)
    return std::vector<std::pair<std::int32_t, std::int32_t>>(rows, {0, board.width - 1});
  std::vector<std::pair<std::int32_t, std::int32_t>> range(rows, {board.width, -1});
  std::int32_t column = 0;
  for (const auto& move : play.moves) {
    auto& [first, last] = range[static_cast<std::size_t>(move.row)];
    const std::int32_t from =
        move.kind == gamebatch::wallgame::RabbitMove::Kind::walk ? column : move.column;
    first = std::max(0, std::min({first, from - 1, move.column - 1}));
    last = std::min(board.width - 1, std::max({last, from + 1, move.column + 1}));
    column = move.column;
  }
  std::size_t cells = 0;
  for (auto& [first, last] : range) {
    const auto width = static_cast<std::size_t>(std::max(0, last - first + 1));
    if (cells + width > kMaxDrawnCells)
      last = first - 1;
    else
      cells += width;
  }
  return range;
}

}  // namespace

std::string draw_play(const gamebatch::wallgame::Board& board) {
  return draw_play(board, gamebatch::wallgame::optimal_play(board));
}

std::string draw_play(const gamebatch::wallgame::Board& board,
                      const gamebatch::wallgame::Play& play) {
  const std::string title = "wallgame " + std::to_string(board.height) + " x " +
                            std::to_string(board.width) + ": Rabbit pays " +
                            std::to_string(play.value) + " (path red, Eel's walls black)";
  // As wide as the board or the title, whichever is wider.
  Svg svg(std::max(2 * kLeft + kCell * board.width, 2 * kLeft + text_width(title, 14)),
          kTop + kCell * board.height + 20);
  svg.text(kLeft, 22, 14, title, "black", "start");
  const auto range = drawn_columns(board, play);
  for (std::int32_t row = 0; row < board.height; ++row) {
    const auto [first, last] = range[static_cast<std::size_t>(row)];
    for (std::int32_t column = first; column <= last; ++column) {
      svg.rect(kLeft + kCell * column, kTop + kCell * row, kCell, kCell, "#f7f7f7", "#ccc");
      svg.text(cx(column), cy(row) + 4, 11,
               std::string(1, static_cast<char>('0' + board.cost(row, column))), "#555");
    }
  }
  std::string points;
  std::int32_t row = 0;
  std::int32_t column = 0;
  for (std::size_t k = 0; k < play.moves.size() && k < kMaxDrawnMoves; ++k) {
    const auto& move = play.moves[k];
    points += Svg::number(cx(move.column)) + "," + Svg::number(cy(move.row)) + " ";
    row = move.row;
    column = move.column;
    if (move.eel_walls)
      svg.line(kLeft + kCell * column, kTop + kCell * (row + 1), kLeft + kCell * (column + 1),
               kTop + kCell * (row + 1), "black", 4);
  }
  svg.polyline(points, "#c0392b", 3);
  if (!play.moves.empty())
    svg.circle(cx(play.moves.front().column), cy(0), 6, "#c0392b", "none");
  return svg.finish();
}

}  // namespace gamebatch::io::wallgame
