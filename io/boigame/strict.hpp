// boigame's input in the exact format of its statement (Baltic OI 2008): the strict reader's
// rules (io/format/strict_reader.hpp), the statement's limits, and its promise of a white path
// between A and B. Standard library only: printed as part of `gamebatch validator boigame`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/format/strict_reader.hpp"

namespace gamebatch_strict::boigame {

inline Limits statement_limits() {
  Limits limits;
  limits.set_statement("t", 1, 10);
  limits.set_statement("n", 2, 300);
  return limits;
}

// Whether white squares (every square but '#') join A and B, moving up, down, left or right.
inline bool white_path_joins(const std::vector<std::string>& rows, std::size_t from,
                             std::size_t to) {
  const std::size_t n = rows.size();
  std::vector<char> seen(n * n, 0);
  std::vector<std::size_t> queue{from};
  seen[from] = 1;
  for (std::size_t next = 0; next < queue.size(); ++next) {
    const std::size_t square = queue[next];
    if (square == to)
      return true;
    const std::size_t row = square / n;
    const std::size_t column = square % n;
    const std::size_t neighbours[4] = {
        row > 0 ? square - n : square, row + 1 < n ? square + n : square,
        column > 0 ? square - 1 : square, column + 1 < n ? square + 1 : square};
    for (const std::size_t neighbour : neighbours) {
      if (seen[neighbour] == 0 && rows[neighbour / n][neighbour % n] != '#') {
        seen[neighbour] = 1;
        queue.push_back(neighbour);
      }
    }
  }
  return false;
}

// One test: n rows of n squares from . # A B, exactly one A and one B, joined by white squares.
inline void validate_test(StrictReader& reader, Limits& limits, const std::string& of_test) {
  const std::size_t line_of_n = reader.line();
  const std::string n_of_test = joined({"n", of_test});
  const auto n = static_cast<std::size_t>(reader.read_limited(n_of_test, "n", limits));
  reader.end_line(n_of_test);
  std::vector<std::string> rows;
  std::size_t starts[2] = {n * n, n * n};  // A's square, B's square
  for (std::size_t row = 0; row < n; ++row) {
    const std::string what = joined({"row ", std::to_string(row + 1), of_test});
    const std::string_view squares = reader.read_word(what);
    for (std::size_t column = 0; column < squares.size(); ++column) {
      const char c = squares[column];
      if (c != '.' && c != '#' && c != 'A' && c != 'B') {
        reader.reject_at_column(
            reader.token_column() + column, "squares . # A B",
            "expected one of '.', '#', 'A', 'B' in " + what + ", found " + describe_byte(c));
      }
      if (c == 'A' || c == 'B') {
        std::size_t& start = starts[c == 'A' ? 0 : 1];
        if (start != n * n) {
          reader.reject_at_column(
              reader.token_column() + column, "one A and one B",
              std::string("expected one ") + c + of_test + ", found another in " + what);
        }
        start = row * n + column;
      }
    }
    if (squares.size() != n) {
      reader.reject_at_column(reader.token_column(), "rows of n squares",
                              "expected " + what + " to hold n = " + std::to_string(n) +
                                  " squares, found " + std::to_string(squares.size()));
    }
    rows.emplace_back(squares);
    reader.end_line(what);
  }
  if (starts[0] == n * n || starts[1] == n * n) {
    throw Rejected{{line_of_n, 1, "one A and one B",
                    std::string("expected one A and one B") + of_test + ", found no " +
                        (starts[0] == n * n ? "A" : "B")}};
  }
  if (!white_path_joins(rows, starts[0], starts[1])) {
    throw Rejected{{line_of_n, 1, "white path between A and B",
                    "expected a path of white squares between A and B" + of_test +
                        " (the statement promises one), found none"}};
  }
}

// t; then t tests.
inline void validate(StrictReader& reader, Limits& limits) {
  const std::int64_t tests = reader.read_limited("the number of tests t", "t", limits);
  reader.end_line("t");
  for (std::int64_t test = 1; test <= tests; ++test)
    validate_test(reader, limits, " of test " + std::to_string(test));
  reader.end_file("test " + std::to_string(tests) + " (t = " + std::to_string(tests) + ")");
}

}  // namespace gamebatch_strict::boigame
