// The official boigame text format (several tests per file) and its answer lines.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/boigame/boigame.hpp"
#include "io/format/official_limits.hpp"

namespace gamebatch::io::boigame {

using gamebatch::boigame::Board;

// The statement's limits: 1 <= t <= 10, 2 <= n <= 300 (and an 8 MB memory limit for solutions).
// parse_file accepts any t and n up to boigame::kMaxBoardSize.
inline constexpr std::int64_t kOfficialMaxTests = 10;
inline constexpr std::int64_t kOfficialMaxSize = 300;

// Parses a whole file: t, then for each test n and n rows of n characters from ". # A B".
// Rows are separated by any whitespace (so CRLF line ends work). Throws io::InputError (line and
// what was expected) on anything that is not exactly t valid tests: exactly one A and one B each,
// a white path between them, 2 <= n <= boigame::kMaxBoardSize, nothing after the last test.
std::vector<Board> parse_file(std::string_view text);

// Parses a whole file as parse_file does (throwing the same InputError for a bad one) and lists
// where it leaves the statement's limits above.
OfficialLimitReport check_official_limits(std::string_view text);
// The same into `check`, which may hold narrower limits (a group's) and note largest values.
void check_limits(std::string_view text, OfficialLimitCheck& check);

// Writes one test (no test count) in the official format: the canonical form of a parsed board.
std::string format_board(const Board& board);

// Writes boards in the official format, test count first.
std::string format_file(const std::vector<Board>& boards);

}  // namespace gamebatch::io::boigame
