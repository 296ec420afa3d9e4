// willow's input in the exact format of its statement (Code Jam 2014 Round 3 D, the large
// input): the strict reader's rules (io/format/strict_reader.hpp) and the statement's limits.
// Standard library only: printed as part of `gamebatch validator willow`.
#pragma once

#include <cstdint>
#include <string>

#include "io/format/strict_reader.hpp"

namespace gamebatch_strict::willow {

inline Limits statement_limits() {
  Limits limits;
  limits.set_statement("T", 1, 50);
  limits.set_statement("N", 2, 4000);
  limits.set_statement("C", 0, 10000);
  return limits;
}

// T; then per case N, N lines of one C_i each, N - 1 lines of one j_i each (i < j_i <= N).
inline void validate(StrictReader& reader, Limits& limits) {
  const std::int64_t cases = reader.read_limited("the number of cases T", "T", limits);
  reader.end_line("T");
  for (std::int64_t number = 1; number <= cases; ++number) {
    const std::string of_case = " of case " + std::to_string(number);
    const std::string n_of_case = joined({"N", of_case});
    const std::int64_t cities = reader.read_limited(n_of_case, "N", limits);
    reader.end_line(n_of_case);
    for (std::int64_t city = 1; city <= cities; ++city) {
      const std::string what = joined({"C_", std::to_string(city), of_case});
      reader.read_limited(what, "C", limits);
      reader.end_line(what);
    }
    for (std::int64_t city = 1; city < cities; ++city) {
      const std::string what = joined({"j_", std::to_string(city), of_case});
      reader.read_in_range(what, "i < j_i <= N", {city + 1, cities});
      reader.end_line(what);
    }
  }
  reader.end_file("case " + std::to_string(cases) + " (T = " + std::to_string(cases) + ")");
}

}  // namespace gamebatch_strict::willow
