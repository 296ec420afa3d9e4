// Small helpers shared by the wallgame tests: boards from text, and boards as text in messages.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/wallgame/wallgame.hpp"

namespace gamebatch::wallgame::testing {

// A board from its rows of digits, e.g. board_of({"12", "34"}).
inline Board board_of(std::initializer_list<std::string_view> rows) {
  Board board;
  board.height = static_cast<std::int32_t>(rows.size());
  board.width = rows.size() == 0 ? 0 : static_cast<std::int32_t>(rows.begin()->size());
  for (const std::string_view row : rows) {
    if (static_cast<std::int32_t>(row.size()) != board.width)
      throw std::invalid_argument("board_of: rows of different lengths");
    for (const char digit : row)
      board.costs.push_back(static_cast<std::uint8_t>(digit - '0'));
  }
  return board;
}

// A board filled with one digit.
inline Board uniform_board(std::int32_t height, std::int32_t width, int digit) {
  Board board;
  board.height = height;
  board.width = width;
  board.costs.assign(static_cast<std::size_t>(height) * static_cast<std::size_t>(width),
                     static_cast<std::uint8_t>(digit));
  return board;
}

// "h x w: row/row/...", for failure messages.
inline std::string describe(const Board& board) {
  std::string text = std::to_string(board.height) + " x " + std::to_string(board.width) + ":";
  for (std::size_t cell = 0; cell < board.costs.size(); ++cell) {
    text += cell % static_cast<std::size_t>(board.width) == 0 ? (cell == 0 ? " " : "/") : "";
    text += static_cast<char>('0' + board.costs[cell]);
  }
  return text;
}

}  // namespace gamebatch::wallgame::testing
