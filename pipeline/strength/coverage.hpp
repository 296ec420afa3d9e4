// Coverage only a game-aware tool can give, per group: both ends of every limit reached (as
// build's bounds: package/data_bounds.hpp), every shape gen knows at the group's largest size
// (io::Problem::shapes_of on each case), and the extreme answers: a local search with the exact
// solver over one-case inputs within the group's limits (gen's cases aimed at the group, then
// one token changed at a time, kept when the answer grows, or shrinks) for the largest and the
// smallest answer the group allows, against the tests' own. Every point not reached comes with
// an input that reaches it, where one was found: what --fill writes into the package.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/files/input_set.hpp"
#include "io/format/official_limits.hpp"
#include "io/problem.hpp"

namespace gamebatch::pipeline {

// One test's cases and their exact answers.
struct TestCases {
  std::vector<std::string> canonical;
  std::vector<std::string> answers;
};

// A group of the package as strength sees it: its tests (indices into the package's tests, those
// of the groups it includes too) and its limits.
struct StrengthGroup {
  std::string name;
  std::vector<std::size_t> tests;
  std::vector<io::NarrowLimit> limits;
  bool sample = false;  // the sample group: no coverage asked of it
};

enum class CoverageKind { limit, shape, answer };

// "limit", "shape", "answer".
std::string_view kind_name(CoverageKind kind);

struct CoveragePoint {
  std::string group;
  CoverageKind kind = CoverageKind::limit;
  std::string name;  // "N = 80 (its limit's max)", "path at N = 80", "the largest answer"
  bool reached = false;
  std::string detail;  // "tests reach N 1..64 of 1..80", "tests' largest 900, found 1200"
  std::string fill;    // an input that reaches it when it is not reached; "" where none was found
  // The tests that reach it (indices), for --select to keep one.
  std::vector<std::size_t> tests;
};

struct CoverageSettings {
  std::uint64_t seed = 1;
  // Answers the extreme-answer search evaluates per group and direction.
  std::size_t search_cases = 300;
};

std::vector<CoveragePoint> measure_coverage(const io::Problem& problem, const io::InputList& tests,
                                            const std::vector<TestCases>& cases,
                                            const std::vector<StrengthGroup>& groups,
                                            const CoverageSettings& settings);

// The report's "coverage": one object per point.
nlohmann::json coverage_json(const std::vector<CoveragePoint>& points);

}  // namespace gamebatch::pipeline
