// io/format: the room of what every game's input format shares. Its theory of operation.
//
// What it is for. A game's input is read two ways. solve, check and build read it leniently, with
// the game's parser (io/GAME/format.cpp), which accepts any whitespace and more than the statement
// promises, and says where a file stops making sense. validate and the standalone validator read
// it strictly, byte by byte, as a judge's validator does, within the statement's limits and a
// group's narrower ones. Both readings rest on this room: the lenient parsers on its token scanner
// and its limits, the strict reading on its strict reader and each game's rules.
//
// Its parts.
// - token_scanner.hpp: whitespace-separated integers and tokens read with their lines, the cases
//   of a file (read_cases), tokens quoted safely for messages. Public.
// - input_error.hpp: the InputError a parser throws: the line and what was expected. Public.
// - official_limits.hpp: the statement's limits and a group's narrower ones (NarrowLimit), checked
//   while a file is parsed. Public.
// - strict_reader.hpp: the strict reader and its rules, standard library only; with each game's
//   rules, io/GAME/strict.hpp (kept beside its game so that a game stays one folder, but part of
//   this room: they include only the strict reader, and only this room includes them), it is
//   compiled into gamebatch and printed as the standalone validator. Private.
// - strict_format.hpp (this file): strict_check, the standalone validator's source
//   (validator_sources.cpp.in pastes the very headers compiled here), and the mutants that break
//   each rule and limit (mutants.cpp). Public.
//
// What it promises. validate and the written validator accept exactly the same files; a strict
// rejection names its line, column and rule; a lenient one its line and what was expected.
//
// What it must never depend on: the other rooms of io/ (it knows the games only as their rules,
// by name, not their Problem), pipeline/, tools/. It is the standard library only.
//
// Strict validation: every game's input in the exact format of its statement, as a judge's
// validator reads it (the rules: strict_reader.hpp), within the statement's limits and a
// group's narrower ones. `gamebatch validate` checks files with strict_check; `gamebatch
// validator` prints validator_source, a standalone program built from the same code, so both
// accept exactly the same files; `validate --invalid` tries a package's validators on the
// mutants of make_mutants. The parsers of io/GAME/format.hpp stay lenient (solve and check read
// what they are given).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/format/official_limits.hpp"
#include "io/format/strict_reader.hpp"

namespace gamebatch::io {

// Where a strict input breaks a rule: line, column, the rule's short name, what was expected.
using StrictRejection = gamebatch_strict::Rejection;

// The smallest and largest value each limited parameter reaches in a file (bounds tables).
using ObservedRanges = std::map<std::string, std::pair<std::int64_t, std::int64_t>>;

// Whether `game` has a strict format (every game gamebatch knows has one).
bool has_strict_format(std::string_view game);

// The statement's range of each limited parameter of `game`, in the validator's terms.
std::map<std::string, gamebatch_strict::Range> statement_ranges(std::string_view game);

// Checks `text` as an input of `game` in the exact format of its statement, within the
// statement's limits narrowed by `limits` (a group's); nullopt when valid. Fills `observed`
// (also for a rejected file: the values read before the rejection). Throws
// std::invalid_argument for an unknown game or a parameter the game does not have.
std::optional<StrictRejection> strict_check(std::string_view game, std::string_view text,
                                            const std::vector<NarrowLimit>& limits = {},
                                            ObservedRanges* observed = nullptr);

// "line 3, column 1: no leading spaces: expected N of case 1 at the line's start, found a space".
using gamebatch_strict::describe;

// The standalone C++17 validator of `game` (one file, standard library only, `g++ -O2`): reads
// stdin, exits 42 when the input is valid and 43 with "line L, column C: RULE: message" on stderr
// when not; `--PARAM MIN..MAX` arguments narrow a limit (exit 2 for an argument it does not
// know). `limits` become its defaults, narrowed again by its arguments.
std::string validator_source(std::string_view game, const std::vector<NarrowLimit>& limits = {});

// The arguments that give the written validator (and a package's group flags) a group's limits:
// {"--N", "1..80", "--C", "0..100"}.
std::vector<std::string> validator_arguments(const std::vector<NarrowLimit>& limits);

// An invalid input made from a valid one, breaking one rule or one limit.
struct Mutant {
  std::string rule;  // the rule strict_check names for it (a parameter's name for a limit)
  std::string what;  // what was changed: "N = 81 (the group's max + 1)", "a CR before line 2's end"
  std::string text;
  bool breaks_group_limit = false;  // valid under the statement's limits, not under the group's
};

// Invalid inputs made from `valid_text` (valid under `group_limits`): at least one per format rule
// and per limited parameter (min - 1 and max + 1 of the statement and of `group_limits`, where the
// format can write them), each otherwise valid, so that strict_check rejects it for its rule.
// The same arguments give the same mutants. Throws std::invalid_argument when `valid_text` is not
// valid.
std::vector<Mutant> make_mutants(std::string_view game, std::string_view valid_text,
                                 const std::vector<NarrowLimit>& group_limits, std::uint64_t seed);

}  // namespace gamebatch::io
