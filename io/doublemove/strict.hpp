// doublemove's input in the exact format of its statement (/docs/games.md): the strict reader's
// rules (io/format/strict_reader.hpp) and the limits. Standard library only: printed as part of
// `gamebatch validator doublemove`.
#pragma once

#include <cstdint>
#include <string>

#include "io/format/strict_reader.hpp"

namespace gamebatch_strict::doublemove {

// The original names no limit on T; gamebatch's format reads up to 10^9 cases.
inline Limits statement_limits() {
  Limits limits;
  limits.set_statement("T", 1, 1000000000);
  limits.set_statement("n", 1, 35);
  limits.set_statement("k", 0, 36);  // and k <= n + 1, checked per case
  return limits;
}

// T; then per case "n k", then k lines "a b" (1 <= a, b <= n; a == b and repeated pairs allowed).
inline void validate(StrictReader& reader, Limits& limits) {
  const std::int64_t cases = reader.read_limited("the number of cases T", "T", limits);
  reader.end_line("T");
  for (std::int64_t number = 1; number <= cases; ++number) {
    const std::string of_case = " of case " + std::to_string(number);
    const std::string n_of_case = joined({"n", of_case});
    const std::string k_of_case = joined({"k", of_case});
    const std::int64_t n = reader.read_limited(n_of_case, "n", limits);
    const std::int64_t k = reader.read_limited(k_of_case, "k", limits);
    if (k > n + 1) {
      reader.reject_at_column(reader.token_column(), "k <= n + 1",
                              "expected " + k_of_case + " in 0.." + std::to_string(n + 1) +
                                  ", found " + std::to_string(k));
    }
    reader.end_line(k_of_case);
    for (std::int64_t j = 1; j <= k; ++j) {
      const std::string declaration = joined({"_", std::to_string(j), of_case});
      const std::string b_of_case = joined({"b", declaration});
      reader.read_in_range(joined({"a", declaration}), "1 <= a, b <= n", {1, n});
      reader.read_in_range(b_of_case, "1 <= a, b <= n", {1, n});
      reader.end_line(b_of_case);
    }
  }
  reader.end_file("case " + std::to_string(cases) + " (T = " + std::to_string(cases) + ")");
}

}  // namespace gamebatch_strict::doublemove
