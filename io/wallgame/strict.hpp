// wallgame's input in the exact format of its statement (/docs/games.md): the strict reader's
// rules (io/format/strict_reader.hpp) and the original's limits. Standard library only: printed as
// part of `gamebatch validator wallgame`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "io/format/strict_reader.hpp"

namespace gamebatch_strict::wallgame {

// The original (one board per test) names no limit on T; gamebatch's format reads up to 10^9.
inline Limits statement_limits() {
  Limits limits;
  limits.set_statement("T", 1, 1000000000);
  limits.set_statement("h", 2, 50);
  limits.set_statement("w", 1, 50);
  return limits;
}

// T; then per case "h w" and h rows of exactly w digits 0-9.
inline void validate(StrictReader& reader, Limits& limits) {
  const std::int64_t cases = reader.read_limited("the number of cases T", "T", limits);
  reader.end_line("T");
  for (std::int64_t number = 1; number <= cases; ++number) {
    const std::string of_case = " of case " + std::to_string(number);
    const std::string w_of_case = joined({"w", of_case});
    const std::int64_t height = reader.read_limited(joined({"h", of_case}), "h", limits);
    const std::int64_t width = reader.read_limited(w_of_case, "w", limits);
    reader.end_line(w_of_case);
    for (std::int64_t row = 1; row <= height; ++row) {
      const std::string what = joined({"row ", std::to_string(row), of_case});
      const std::string_view cells = reader.read_word(what);
      for (std::size_t column = 0; column < cells.size(); ++column) {
        if (cells[column] < '0' || cells[column] > '9') {
          reader.reject_at_column(
              reader.token_column() + column, "rows of w digits",
              "expected the digits 0-9 in " + what + ", found " + describe_byte(cells[column]));
        }
      }
      if (cells.size() != static_cast<std::size_t>(width)) {
        reader.reject_at_column(reader.token_column(), "rows of w digits",
                                "expected " + what + " to hold w = " + std::to_string(width) +
                                    " digits, found " + std::to_string(cells.size()));
      }
      reader.end_line(what);
    }
  }
  reader.end_file("case " + std::to_string(cases) + " (T = " + std::to_string(cases) + ")");
}

}  // namespace gamebatch_strict::wallgame
