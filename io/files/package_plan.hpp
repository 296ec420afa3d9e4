// A package's test plan, PACKAGE/gamebatch.toml: every group (subtask) of its tests, their points
// and limits, and how each test is made. `gamebatch build` makes the package's data from it;
// check, validate and stress read its groups' limits.
//
//   game = "doublemove"   # required: a game of gamebatch
//   seed = 7              # optional (0): a generated test's seed derives from it, its group's
//                         # name and its place in the group, so adding a test moves no other
//   layout = "kattis"     # optional: kattis (default) | cms
//   [[group]]
//   name = "small"        # [a-z0-9_-]+, unique; "sample" is the samples' group (no points)
//   score = 20            # points; the package's total is the sum
//   limits = { n = "1..10" }   # a number or "A..B" per parameter of the game
//   include = ["tiny"]    # earlier groups whose tests count in this one too
//   [[group.test]]
//   gen = "--n 1..10 --cases-per-file 5"   # gamebatch gen's options of the game; or
//   copy = "manual/x.in"  # a file of the package, as it is; or
//   run = "gen/worst.cpp 10"   # a generator program: its stdout is the test, the seed its last
//   count = 8             # argument; tests from this entry (default 1)
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "io/files/problem_package.hpp"
#include "io/format/official_limits.hpp"

namespace gamebatch::io {

struct PlanEntry {
  enum class Kind { copy, gen, run };
  Kind kind = Kind::gen;
  std::string text;  // the path copied, gen's options, or the program and its arguments
  std::int64_t count = 1;
  std::size_t number = 0;  // 1-based, within its group
  std::size_t line = 0;    // of gamebatch.toml
};

// "copy", "gen", "run".
std::string_view entry_kind_name(PlanEntry::Kind kind);

struct PlanGroup {
  std::string name;
  double score = 0;
  std::vector<ParameterRange> limits;  // its own, in the parameters' order
  std::vector<std::size_t> include;    // indices of earlier groups
  std::vector<PlanEntry> tests;
  std::size_t line = 0;
};

struct PackagePlan {
  std::filesystem::path file;  // PACKAGE/gamebatch.toml
  std::string game;
  std::uint64_t seed = 0;
  Layout layout = Layout::kattis;
  std::vector<PlanGroup> groups;  // in the file's order
};

// The plan's file name in a package.
inline constexpr const char* kPlanFileName = "gamebatch.toml";

// Reads `file`. Throws UsageError "FILE:LINE: what is wrong" for a file that cannot be read or
// parsed, an unknown key, game, layout or parameter, a limit that is no number or range (or is
// wider than nothing: A > B), a group name that is not [a-z0-9_-]+ or not unique, an include of a
// group not before it, a test entry without exactly one of copy, gen and run, or a count below 1.
PackagePlan read_package_plan(const std::filesystem::path& file);

// The groups whose tests include group `group`'s: itself and every group that includes it,
// directly or through others, in plan order.
std::vector<std::size_t> groups_holding(const PackagePlan& plan, std::size_t group);

// The limits a test of group `group` must meet: those of every group holding it, each named
// "group NAME" for messages.
std::vector<NarrowLimit> test_limits(const PackagePlan& plan, std::size_t group);

// The seed of test `index` (1-based) of entry `entry` of group `group`: derived from the plan's
// seed, the group's name and the test's place in it, so that adding a test or a group moves no
// other test.
std::uint64_t test_seed(const PackagePlan& plan, std::size_t group, std::size_t entry,
                        std::int64_t index);

}  // namespace gamebatch::io
