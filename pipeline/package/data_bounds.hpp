// The bounds a package's data reaches: per group, each limited parameter's smallest and largest
// value over its tests (io::strict_check's ObservedRanges) against the group's limits (or the
// statement's), and a warning for each end of a limit that no test reaches, as BAPCtools'
// `bt constraints` does: "group small: N reaches 1..64 of 1..80". build and validate print the
// table and put it in their reports and pages.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/format/official_limits.hpp"

namespace gamebatch::pipeline {

// A group's tests and limits (a package's groups, or all its tests as one group).
struct GroupTests {
  std::string name;
  std::vector<std::filesystem::path> tests;
  std::vector<io::NarrowLimit> limits;  // narrower than the statement's; those of its includers too
};

struct ParameterBounds {
  std::string parameter;
  std::int64_t low = 0, high = 0;  // reached by the group's tests
  // The limit the values must keep to: the group's narrowest, else the statement's; unset where
  // the statement bounds the parameter only through others (no range of its own).
  std::optional<std::int64_t> limit_low, limit_high;
  std::string limit_owner;  // "group small", "the statement"
  // The most a case within the group's limits on the other parameters can have, where the game
  // ties this one to them (doublemove's k <= n + 1) and that is below limit_high: the top end
  // the group's tests can reach.
  std::optional<std::int64_t> tied_high;
  bool low_reached() const { return !limit_low || low <= *limit_low || unbounded_high(); }
  bool high_reached() const {
    return !limit_high || high >= std::min(*limit_high, tied_high.value_or(*limit_high)) ||
           unbounded_high();
  }
  // An upper end of 10^9 or more is no statement's: gamebatch reads that far where the original
  // names no limit (doublemove's and wallgame's T), so neither end is a limit to test.
  bool unbounded_high() const { return limit_high && *limit_high >= 1'000'000'000; }
};

struct GroupBounds {
  std::string group;
  std::size_t tests = 0;                    // read
  std::size_t unread = 0;                   // tests that could not be read (left out of the bounds)
  std::vector<ParameterBounds> parameters;  // in the order first seen
};

// The bounds of each group's tests (read from disk), in the groups' order.
std::vector<GroupBounds> data_bounds(std::string_view game, const std::vector<GroupTests>& groups);

// One line per group: "group small (8 tests): N 1..64 of 1..80, C 0..100 of 0..10000".
std::vector<std::string> bounds_lines(const std::vector<GroupBounds>& bounds);
// One line per parameter with an end of its limit no test reaches (the sample's left out: its
// examples are small on purpose): "group small: N reaches 1..64 of 1..80".
std::vector<std::string> bounds_warnings(const std::vector<GroupBounds>& bounds);
// The reports' "bounds": [{"group", "tests", "parameters": [{"parameter", "min", "max",
// "limit_min", "limit_max", "limit_owner", "min_reached", "max_reached"}]}].
nlohmann::json bounds_json(const std::vector<GroupBounds>& bounds);

}  // namespace gamebatch::pipeline
