// The wallgame text format (spec/wallgame.md: several cases per file) and its answer lines.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/wallgame/wallgame.hpp"
#include "io/format/official_limits.hpp"

namespace gamebatch::io::wallgame {

using gamebatch::wallgame::Board;

// What gamebatch accepts. The original allows 2 <= h <= 50 and 1 <= w <= 50; we also take
// h = 1 (the token is put straight onto the bottom row: the answer is the cheapest cell) and
// sides up to 2000. Time is O(h * w^2): 2000 x 2000 is 4 billion states, about 1.2 s on one core
// with AVX2 (tools/bench/wallgame_bench.sh); memory is the board plus O(w).
inline constexpr std::int64_t kMaxCases = 1'000'000'000;
inline constexpr std::int64_t kMinHeight = 1;
inline constexpr std::int64_t kMaxHeight = 2000;
inline constexpr std::int64_t kMinWidth = 1;
inline constexpr std::int64_t kMaxWidth = 2000;

// The original's limits (one board per test there; several cases per file are ours, so T has no
// official limit).
inline constexpr std::int64_t kOfficialMinHeight = 2;
inline constexpr std::int64_t kOfficialMaxHeight = 50;
inline constexpr std::int64_t kOfficialMinWidth = 1;
inline constexpr std::int64_t kOfficialMaxWidth = 50;

// Parses a whole file: T, then per case "h w" and h rows, each one token of exactly w digits
// (tokens are separated by any whitespace, CRLF included). Throws io::InputError (line and what
// was expected) on anything that is not exactly T such cases within the limits above.
std::vector<Board> parse_file(std::string_view text);

// Parses a whole file as parse_file does (throwing the same InputError for a bad one) and lists
// where it leaves the original's limits above.
OfficialLimitReport check_official_limits(std::string_view text);
// The same into `check`, which may hold narrower limits (a group's) and note largest values.
void check_limits(std::string_view text, OfficialLimitCheck& check);

// One case (no case count) as the format writes it: "h w\n" and one line per row. The canonical
// form of a parsed case.
std::string format_case(const Board& board);

// T, then every case.
std::string format_file(const std::vector<Board>& boards);

}  // namespace gamebatch::io::wallgame
