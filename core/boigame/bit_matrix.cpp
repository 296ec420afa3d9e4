#include "core/boigame/bit_matrix.hpp"

#include <algorithm>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

namespace gamebatch::boigame {

void BitMatrix::clear() {
  std::fill(words_.begin(), words_.begin() + static_cast<std::ptrdiff_t>(rows_ * words_per_row_),
            std::uint64_t{0});
}

namespace {

// One round of the block transpose: within every pair of row groups of `width` rows, swap the
// high `width` columns of the first group with the low `width` columns of the second. The rows
// of a group are contiguous, so the compiler turns the inner loop into vector code.
template <unsigned width, std::uint64_t low_columns>
inline void swap_round(std::uint64_t* block) {
  for (unsigned group = 0; group < 64; group += 2 * width) {
    for (unsigned r = group; r < group + width; ++r) {
      const std::uint64_t swapped = ((block[r] >> width) ^ block[r + width]) & low_columns;
      block[r] ^= swapped << width;
      block[r + width] ^= swapped;
    }
  }
}

}  // namespace

void transpose_block(std::uint64_t block[64]) {
  // Swap the off-diagonal halves, then quarters inside each half, ... down to single bits: six
  // rounds of 32 masked swaps instead of 4096 single-bit moves.
  swap_round<32, 0x0000'0000'FFFF'FFFFull>(block);
  swap_round<16, 0x0000'FFFF'0000'FFFFull>(block);
  swap_round<8, 0x00FF'00FF'00FF'00FFull>(block);
  swap_round<4, 0x0F0F'0F0F'0F0F'0F0Full>(block);
  swap_round<2, 0x3333'3333'3333'3333ull>(block);
  swap_round<1, 0x5555'5555'5555'5555ull>(block);
}

namespace {

// Transposes the blocks whose source rows start at 64 * first_block_row ... up to last.
void transpose_block_rows(const BitMatrix& from, BitMatrix& to, std::size_t first_block_row,
                          std::size_t last_block_row) {
  const std::size_t rows = from.rows();
  const std::size_t columns = from.columns();
  std::uint64_t block[64];
  for (std::size_t block_row = first_block_row; block_row < last_block_row; ++block_row) {
    const std::size_t row0 = block_row * 64;
    const std::size_t rows_here = std::min<std::size_t>(64, rows - row0);
    for (std::size_t word = 0; word < from.words_per_row(); ++word) {
      for (std::size_t k = 0; k < rows_here; ++k)
        block[k] = from.row(row0 + k)[word];
      // Rows past the end become the zero padding of the transposed rows.
      std::fill(block + rows_here, block + 64, std::uint64_t{0});
      transpose_block(block);
      const std::size_t column0 = word * 64;
      const std::size_t columns_here = std::min<std::size_t>(64, columns - column0);
      for (std::size_t k = 0; k < columns_here; ++k)
        to.row(column0 + k)[block_row] = block[k];
    }
  }
}

}  // namespace

void transpose(const BitMatrix& from, BitMatrix& to) {
  to.reshape(from.columns(), from.rows());
  const std::size_t block_rows = (from.rows() + 63) / 64;
  // Below about a million bits a task costs more than it saves.
  constexpr std::size_t kParallelWords = std::size_t{1} << 14;
  if (block_rows < 2 || block_rows * 64 * from.words_per_row() < kParallelWords) {
    transpose_block_rows(from, to, 0, block_rows);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, block_rows),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      transpose_block_rows(from, to, range.begin(), range.end());
                    });
}

}  // namespace gamebatch::boigame
