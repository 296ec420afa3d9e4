// The engine of `gamebatch validator GAME [--limits "N=1..80 ..."]`: the game's standalone input
// validator (io/format/strict_format.hpp writes it), with a group's limits as its defaults.
#pragma once

#include <string>
#include <vector>

#include "io/format/official_limits.hpp"
#include "pipeline/engines.hpp"

namespace gamebatch::pipeline {

struct ValidatorSettings {
  std::string problem;  // the game's name
  std::string limits;   // "N=1..80 C=0..100" (spaces or commas between; "k=0" for 0..0)
};

struct ValidatorResult {
  Outcome outcome = Outcome::done;  // usage_error: an unknown game or a bad limit (error says)
  std::string source;               // the program, when done
  std::string error;
};

// Parses limits written as "P=MIN..MAX" or "P=V", separated by spaces or commas, for `problem`.
// Throws io::UsageError naming the bad part: no '=', not a number or range, MIN > MAX, or a
// parameter the game does not limit.
std::vector<io::NarrowLimit> parse_limits(const std::string& problem, const std::string& text);

ValidatorResult write_validator(const ValidatorSettings& settings);

}  // namespace gamebatch::pipeline
