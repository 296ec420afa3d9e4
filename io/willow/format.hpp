// The official willow text format (several cases per file) and its answer lines.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/willow/willow.hpp"
#include "io/format/official_limits.hpp"

namespace gamebatch::io::willow {

using gamebatch::willow::Instance;

// The statement's limits (Code Jam 2014 R3 D, large input). parse_file accepts more: any T, N
// from 1 (one city: A takes its coins) up to 2^31 - 1, coins up to 10^9.
inline constexpr std::int64_t kOfficialMaxCases = 50;
inline constexpr std::int64_t kOfficialMinCities = 2;
inline constexpr std::int64_t kOfficialMaxCities = 4000;
inline constexpr std::int64_t kOfficialMaxCoins = 10000;

// Parses a whole file. Throws io::InputError (line and what was expected) on anything that is
// not exactly T well-formed cases within the rules' limits.
std::vector<Instance> parse_file(std::string_view text);

// Parses a whole file as parse_file does (throwing the same InputError for a bad one) and lists
// where it leaves the statement's limits above.
OfficialLimitReport check_official_limits(std::string_view text);
// The same into `check`, which may hold narrower limits (a group's) and note largest values.
void check_limits(std::string_view text, OfficialLimitCheck& check);

// Writes one case (no case count) in the official format: the canonical form of a parsed case.
// Its roads must be in official labelling, as parse_file returns them.
std::string format_case(const Instance& instance);

// Writes instances in the official format. Every road must already be in official labelling
// (one road i <-> j with i < j for each i < N-1); see willow::to_official_labels.
std::string format_file(const std::vector<Instance>& instances);

}  // namespace gamebatch::io::willow
