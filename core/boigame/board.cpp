// The board type's helpers and its validity check.
#include <cstdint>
#include <string>
#include <vector>

#include "core/boigame/boigame.hpp"
#include "core/boigame/framed_board.hpp"

namespace gamebatch::boigame {

std::size_t white_words(std::int32_t n) {
  const auto squares = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  return (squares + 63) / 64;
}

Board Board::all_black(std::int32_t n) {
  Board board;
  board.n = n;
  board.white.assign(white_words(n), 0);
  return board;
}

void Board::set_white(Square square, bool is_white_now) {
  const std::uint64_t bit = std::uint64_t{1} << (square % 64);
  std::uint64_t& word = white[static_cast<std::size_t>(square) / 64];
  word = is_white_now ? (word | bit) : (word & ~bit);
}

bool has_white_path(const Board& board) {
  // Breadth first by whole frontiers: a frontier is O(n) squares on the boards that matter, while
  // a queue of every square would cost 4 n^2 bytes.
  constexpr std::uint8_t kSeen = 1;
  if (!board.is_white(board.a) || !board.is_white(board.b))
    return false;
  FramedBoard framed(board);
  std::vector<FramedBoard::Cell> frontier{framed.a()};
  std::vector<FramedBoard::Cell> next;
  framed[framed.a()] |= kSeen;
  while (!frontier.empty()) {
    framed.expand(frontier, next, [](std::uint8_t& state) {
      const bool fresh = state == FramedBoard::kWhite;  // not black, not seen
      state |= fresh ? kSeen : 0;
      return fresh;
    });
    if ((framed[framed.b()] & kSeen) != 0)
      return true;
    frontier.swap(next);
  }
  return false;
}

std::string check_board_squares(const Board& board) {
  if (board.n < 2 || board.n > kMaxBoardSize) {
    return "n = " + std::to_string(board.n) + " is outside 2.." + std::to_string(kMaxBoardSize);
  }
  if (board.white.size() != white_words(board.n))
    return "the white-square bits do not match n";
  const std::int32_t squares = board.square_count();
  if (board.a < 0 || board.a >= squares || board.b < 0 || board.b >= squares)
    return "a start square is off the board";
  if (board.a == board.b)
    return "A and B start on the same square";
  if (!board.is_white(board.a) || !board.is_white(board.b))
    return "a start square is black";
  return "";
}

std::string check_board(const Board& board) {
  if (std::string problem = check_board_squares(board); !problem.empty())
    return problem;
  if (!has_white_path(board))
    return "no white path joins A and B";
  return "";
}

}  // namespace gamebatch::boigame
