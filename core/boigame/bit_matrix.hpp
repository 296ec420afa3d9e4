// A dense bit matrix stored row by row in 64-bit words, and its transpose. The boigame solver
// keeps its layer tables in these so that one word op handles 64 positions of one player.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gamebatch::boigame {

class BitMatrix {
 public:
  // Resizes to rows x columns, keeping the allocation when it is big enough. The content is
  // unspecified afterwards: a writer fills every row it uses, padding bits past `columns`
  // included, and the solver keeps those padding bits zero.
  void reshape(std::size_t rows, std::size_t columns) {
    rows_ = rows;
    columns_ = columns;
    words_per_row_ = (columns + 63) / 64;
    if (words_.size() < rows * words_per_row_)
      words_.resize(rows * words_per_row_);
  }

  std::size_t rows() const { return rows_; }
  std::size_t columns() const { return columns_; }
  std::size_t words_per_row() const { return words_per_row_; }

  std::uint64_t* row(std::size_t r) { return words_.data() + r * words_per_row_; }
  const std::uint64_t* row(std::size_t r) const { return words_.data() + r * words_per_row_; }

  bool get(std::size_t r, std::size_t c) const { return (row(r)[c / 64] >> (c % 64)) & 1u; }
  void set(std::size_t r, std::size_t c, bool value) {
    std::uint64_t& word = row(r)[c / 64];
    const std::uint64_t bit = std::uint64_t{1} << (c % 64);
    word = value ? (word | bit) : (word & ~bit);
  }

  // Sets every bit of the used rows and their padding to zero.
  void clear();

  // Bytes held, for memory accounting in tests.
  std::size_t capacity_bytes() const { return words_.capacity() * sizeof(std::uint64_t); }

 private:
  std::size_t rows_ = 0;
  std::size_t columns_ = 0;
  std::size_t words_per_row_ = 0;
  std::vector<std::uint64_t> words_;
};

// Transposes a 64 x 64 block in place: bit c of block[r] becomes bit r of block[c].
void transpose_block(std::uint64_t block[64]);

// to = from transposed (to.rows() == from.columns()). Padding bits of `to` are zero; the padding
// bits of `from` are never read into `to`. Splits the work over the current oneTBB arena when
// the matrix is large.
void transpose(const BitMatrix& from, BitMatrix& to);

}  // namespace gamebatch::boigame
