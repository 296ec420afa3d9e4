// solve() keeping what the explained play (core/wallgame/play.cpp) reads off: what Rabbit still
// pays after entering each cell, and each row's interval values (the editorial's states), so that
// the play costs about one solve.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/wallgame/wallgame.hpp"

namespace gamebatch::wallgame {

class KeptSolve {
 public:
  // The most bytes of interval tables kept from the solve (every row's: (h - 1)(w + 1)^2 values
  // per side, 1 MB at 50 x 50, boards up to about 100 x 100), in memory a thread reuses from one
  // play to the next. Beyond it a row's table is swept again, by the solver's code, when the play
  // enters that row walled: fresh memory for all the tables would cost more in page faults (35 ms
  // at 190 x 190, where the solve takes 1.6 ms) than sweeping the walled rows again.
  static constexpr std::uint64_t kKeptTableBytes = std::uint64_t{8} << 20;

  // Solves the board as solve() does (same code, same value; throws std::invalid_argument for a
  // board check_board rejects), keeping the entries and, within `table_bound` bytes, the tables.
  explicit KeptSolve(const Board& board, std::uint64_t table_bound = kKeptTableBytes);
  ~KeptSolve();
  KeptSolve(const KeptSolve&) = delete;
  KeptSolve& operator=(const KeptSolve&) = delete;

  Cost value() const { return value_; }
  // What Rabbit still pays once the token has just entered (row, column), Eel to move and no wall
  // under its row yet (0 on the bottom row).
  Cost entry(std::int32_t row, std::int32_t column) const {
    return entries_[static_cast<std::size_t>(row) * static_cast<std::size_t>(width_) +
                    static_cast<std::size_t>(column)];
  }

  // Makes the interval values of `row` (row + 1 < height) the ones left() and right() give.
  void use_row(std::int32_t row);
  // With walls under [a, a + len - 1] of that row (1 <= len < width), what Rabbit still pays with
  // the token on the interval's left (right) end, Rabbit to move.
  Cost left(std::int32_t len, std::int32_t a) const { return at(row_.left, len, a); }
  Cost right(std::int32_t len, std::int32_t a) const { return at(row_.right, len, a); }

  // The rows' tables and their value type (32 or 64 bits, as solve() picks).
  struct Rows;
  // The tables of the row in use: layer len at offset len * (width + 1), of one of the types.
  struct RowTables {
    const void* left = nullptr;
    const void* right = nullptr;
    bool narrow = true;  // std::int32_t, else std::int64_t
  };

 private:
  Cost at(const void* table, std::int32_t len, std::int32_t a) const {
    const std::size_t index =
        static_cast<std::size_t>(len) * (static_cast<std::size_t>(width_) + 1) +
        static_cast<std::size_t>(a);
    return row_.narrow ? static_cast<const std::int32_t*>(table)[index]
                       : static_cast<const std::int64_t*>(table)[index];
  }

  RowTables row_;
  std::int32_t width_ = 0;
  Cost value_ = 0;
  std::vector<Cost> entries_;
  std::unique_ptr<Rows> rows_;
};

}  // namespace gamebatch::wallgame
