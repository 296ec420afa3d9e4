// A board as one byte per square inside a one-square black frame, so that the four neighbours of
// a square are fixed offsets and need no bounds checks (or divisions). The searches over squares
// (the parser's path check, the solver's distances) run on it; the bytes carry their flags.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/boigame/boigame.hpp"

namespace gamebatch::boigame {

class FramedBoard {
 public:
  using Cell = std::uint32_t;  // (row + 1) * width + (column + 1)

  static constexpr std::uint8_t kWhite = 1u << 7;  // the other bits are the users' flags

  explicit FramedBoard(const Board& board)
      : width_(static_cast<Cell>(board.n) + 2),
        cells_(static_cast<std::size_t>(width_) * width_, std::uint8_t{0}) {
    // Eight squares at a time: their eight bits index a table of the eight bytes to store (kept
    // as a byte array so that the memory order does not depend on the machine's endianness).
    static constexpr std::array<std::array<std::uint8_t, 8>, 256> kSpread = [] {
      std::array<std::array<std::uint8_t, 8>, 256> table{};
      for (std::size_t bits = 0; bits < 256; ++bits) {
        for (std::size_t k = 0; k < 8; ++k)
          table[bits][k] = ((bits >> k) & 1u) != 0 ? kWhite : std::uint8_t{0};
      }
      return table;
    }();
    const auto n = static_cast<std::size_t>(board.n);
    const std::uint64_t* words = board.white.data();
    for (std::size_t row = 0; row < n; ++row) {
      std::uint8_t* out = cells_.data() + (row + 1) * width_ + 1;
      std::size_t column = 0;
      for (; column + 8 <= n; column += 8) {
        const std::size_t bit = row * n + column;
        const std::size_t shift = bit % 64;
        std::uint64_t eight = words[bit / 64] >> shift;
        if (shift > 56)
          eight |= words[bit / 64 + 1] << (64 - shift);
        std::memcpy(out + column, kSpread[eight & 0xFF].data(), 8);
      }
      for (; column < n; ++column) {
        const std::size_t bit = row * n + column;
        out[column] = ((words[bit / 64] >> (bit % 64)) & 1u) != 0 ? kWhite : std::uint8_t{0};
      }
    }
    a_ = cell_of(board.a, board.n);
    b_ = cell_of(board.b, board.n);
  }

  // Writes to `next` the neighbours of the cells of `frontier` that `claim` accepts; claim(state)
  // also marks the cell, so that it is accepted once. Without branches on the board's contents:
  // on random boards those branches mispredict most of the time.
  template <typename Claim>
  void expand(const std::vector<Cell>& frontier, std::vector<Cell>& next, const Claim& claim) {
    if (next.size() < 4 * frontier.size())
      next.resize(4 * frontier.size());
    std::size_t count = 0;
    for (const Cell cell : frontier) {
      for (const Cell neighbour : neighbours(cell)) {
        next[count] = neighbour;
        count += claim(cells_[neighbour]) ? 1 : 0;
      }
    }
    next.resize(count);
  }

  Cell a() const { return a_; }
  Cell b() const { return b_; }
  std::array<Cell, 4> neighbours(Cell cell) const {
    return {cell - width_, cell - 1, cell + 1, cell + width_};
  }
  std::uint8_t& operator[](Cell cell) { return cells_[cell]; }
  std::uint8_t operator[](Cell cell) const { return cells_[cell]; }

 private:
  Cell cell_of(Square square, std::int32_t n) const {
    return static_cast<Cell>(square / n + 1) * width_ + static_cast<Cell>(square % n + 1);
  }

  Cell width_;
  std::vector<std::uint8_t> cells_;
  Cell a_ = 0;
  Cell b_ = 0;
};

}  // namespace gamebatch::boigame
