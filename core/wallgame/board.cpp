#include <string>

#include "core/wallgame/wallgame.hpp"

namespace gamebatch::wallgame {

std::string check_board(const Board& board) {
  if (board.height < 1 || board.width < 1) {
    return "the board is " + std::to_string(board.height) + " x " + std::to_string(board.width) +
           ", need at least 1 x 1";
  }
  const std::size_t cells =
      static_cast<std::size_t>(board.height) * static_cast<std::size_t>(board.width);
  if (board.costs.size() != cells) {
    return "expected " + std::to_string(cells) + " costs for " + std::to_string(board.height) +
           " x " + std::to_string(board.width) + " cells, got " +
           std::to_string(board.costs.size());
  }
  for (std::size_t cell = 0; cell < cells; ++cell) {
    if (board.costs[cell] > 9) {
      return "cell " + std::to_string(cell) + " costs " + std::to_string(board.costs[cell]) +
             ", not a digit";
    }
  }
  return "";
}

}  // namespace gamebatch::wallgame
