// Random wallgame boards of named cost patterns, for differential tests, benchmarks and
// `gamebatch gen`.
#pragma once

#include <cstdint>
#include <random>
#include <string_view>

#include "core/wallgame/wallgame.hpp"

namespace gamebatch::wallgame {

enum class CostPattern {
  uniform,    // every digit 0..9 equally likely
  all_zero,   // Rabbit pays nothing whatever Eel does
  all_nine,   // every step as dear as it gets
  all_equal,  // one random digit everywhere
  low,        // digits 0..2: many ties between walks
  sparse,     // mostly 0, a few 9s: where Eel's walls make Rabbit walk past the 9s
  columns,    // each column one random digit: walks along a row cost different amounts per side
};

inline constexpr CostPattern kAllCostPatterns[] = {
    CostPattern::uniform, CostPattern::all_zero, CostPattern::all_nine, CostPattern::all_equal,
    CostPattern::low,     CostPattern::sparse,   CostPattern::columns};

std::string_view to_string(CostPattern pattern);

// Boards are drawn with height uniform in [min_height, max_height] and width uniform in
// [min_width, max_width] (all >= 1, min <= max).
struct SizeRange {
  std::int32_t min_height = 1;
  std::int32_t max_height = 1;
  std::int32_t min_width = 1;
  std::int32_t max_width = 1;
};

// A board of a random size in `sizes` with costs drawn by `pattern`. Deterministic for a given
// rng state on every platform (no standard distributions). Throws std::invalid_argument for an
// empty or non-positive size range.
Board generate_board(const SizeRange& sizes, CostPattern pattern, std::mt19937_64& rng);

// The same with a fixed size.
Board generate_board(std::int32_t height, std::int32_t width, CostPattern pattern,
                     std::mt19937_64& rng);

}  // namespace gamebatch::wallgame
