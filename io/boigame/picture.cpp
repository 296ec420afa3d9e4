#include "io/boigame/picture.hpp"

#include <algorithm>
#include <vector>

#include "core/boigame/play.hpp"
#include "io/picture/svg.hpp"

namespace gamebatch::io::boigame {
namespace {

using gamebatch::boigame::Board;
using gamebatch::boigame::Square;

constexpr double kMargin = 20;
constexpr double kTop = 50;

struct Grid {
  double cell;
  std::int32_t n;
  double x(Square s) const { return kMargin + cell * (s % n) + cell / 2; }
  double y(Square s) const { return kTop + cell * (s / n) + cell / 2; }
};

// The black squares to draw: all of a small board, else those next to a path (within the bound).
std::vector<Square> black_squares(const Board& board, const gamebatch::boigame::Play& play) {
  std::vector<Square> squares;
  if (board.n <= kMaxWholeBoard) {
    for (Square s = 0; s < board.square_count(); ++s)
      if (!board.is_white(s))
        squares.push_back(s);
    return squares;
  }
  for (std::size_t k = 0; k < play.moves.size() && k < kMaxDrawnMoves; ++k) {
    const Square s = play.moves[k].landing;
    for (int dr = -1; dr <= 1; ++dr)
      for (int dc = -1; dc <= 1; ++dc) {
        const int r = s / board.n + dr;
        const int c = s % board.n + dc;
        if (r >= 0 && c >= 0 && r < board.n && c < board.n && !board.is_white(r * board.n + c))
          squares.push_back(r * board.n + c);
      }
  }
  std::sort(squares.begin(), squares.end());
  squares.erase(std::unique(squares.begin(), squares.end()), squares.end());
  if (squares.size() > kMaxDrawnSquares)
    squares.resize(kMaxDrawnSquares);
  return squares;
}

}  // namespace

std::string draw_play(const Board& board) {
  return draw_play(board, gamebatch::boigame::optimal_play(board));
}

std::string draw_play(const Board& board, const gamebatch::boigame::Play& play) {
  namespace game = gamebatch::boigame;
  const Grid grid{std::max(2.0, std::min(24.0, 1600.0 / board.n)), board.n};
  const double side = grid.cell * board.n;
  Svg svg(2 * kMargin + std::max(side, 420.0), kTop + side + kMargin);
  svg.text(kMargin, 24, 14,
           "boigame n = " + std::to_string(board.n) + ": " + static_cast<char>(play.winner) +
               " wins (A red, B blue, jumps dashed)",
           "black", "start");
  svg.rect(kMargin, kTop, side, side, "white", "#444");
  for (const Square s : black_squares(board, play))
    svg.rect(kMargin + grid.cell * (s % board.n), kTop + grid.cell * (s / board.n), grid.cell,
             grid.cell, "#333");
  std::string paths[2] = {Svg::number(grid.x(board.a)) + "," + Svg::number(grid.y(board.a)),
                          Svg::number(grid.x(board.b)) + "," + Svg::number(grid.y(board.b))};
  for (std::size_t k = 0; k < play.moves.size() && k < kMaxDrawnMoves; ++k) {
    const game::PieceMove& move = play.moves[k];
    const int who = move.player == 'A' ? 0 : 1;
    paths[who].append(1, ' ').append(Svg::number(grid.x(move.landing)));
    paths[who].append(1, ',').append(Svg::number(grid.y(move.landing)));
    if (move.jump)
      svg.line(grid.x(move.from), grid.y(move.from), grid.x(move.landing), grid.y(move.landing),
               "#e67e22", 3, " stroke-dasharray=\"4 3\"");
  }
  svg.polyline(paths[0], "#c0392b", std::max(1.0, grid.cell / 5));
  svg.polyline(paths[1], "#2c5fb3", std::max(1.0, grid.cell / 5));
  svg.circle(grid.x(board.a), grid.y(board.a), grid.cell / 2.5 + 2, "#c0392b", "none");
  svg.circle(grid.x(board.b), grid.y(board.b), grid.cell / 2.5 + 2, "#2c5fb3", "none");
  svg.text(grid.x(board.a), grid.y(board.a) + 4, std::max(6.0, grid.cell / 2), "A", "white");
  svg.text(grid.x(board.b), grid.y(board.b) + 4, std::max(6.0, grid.cell / 2), "B", "white");
  return svg.finish();
}

}  // namespace gamebatch::io::boigame
