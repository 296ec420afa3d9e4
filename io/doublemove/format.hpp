// The doublemove text format (several cases per file, ../shared/spec/doublemove.md) and its
// canonical printing.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/doublemove/doublemove.hpp"
#include "io/format/official_limits.hpp"

namespace gamebatch::io::doublemove {

using gamebatch::doublemove::Instance;

// The original's limit: n <= 35 (its table subtask has k = 0). k <= n + 1 is a rule, checked by
// parse_file; the number of cases has no official limit (several per file are ours).
inline constexpr std::int64_t kOfficialMaxN = 35;

// Parses a whole file. Throws io::InputError (line and what was expected) on anything that is not
// exactly T well-formed cases: 1 <= n <= kMaxN (a larger n is named as above the largest
// supported n), 0 <= k <= n + 1, k pairs with 1 <= a, b <= n, nothing after the last case.
std::vector<Instance> parse_file(std::string_view text);

// Parses a whole file as parse_file does (throwing the same InputError for a bad one) and lists
// where it leaves the original's limit above.
OfficialLimitReport check_official_limits(std::string_view text);
// The same into `check`, which may hold narrower limits (a group's) and note largest values.
void check_limits(std::string_view text, OfficialLimitCheck& check);

// One case (no case count): "n k" and then one "a b" line per declaration.
std::string format_case(const Instance& instance);

// A whole file: T, then every case.
std::string format_file(const std::vector<Instance>& instances);

}  // namespace gamebatch::io::doublemove
