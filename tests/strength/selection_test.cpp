// --select's set cover (pipeline/strength/selection.hpp): GLPK's cover equals the smallest found by
// trying every set, on random small matrices; ties go to the least weight; a budget too small
// still gives a cover and a bound.
#include "pipeline/strength/selection.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace gamebatch::pipeline {
namespace {

bool covers(const CoverProblem& problem, const std::vector<std::size_t>& chosen) {
  return std::all_of(problem.rows.begin(), problem.rows.end(), [&](const auto& row) {
    return row.empty() || std::any_of(row.begin(), row.end(), [&](std::size_t t) {
             return std::find(chosen.begin(), chosen.end(), t) != chosen.end();
           });
  });
}

double weight_of(const CoverProblem& problem, const std::vector<std::size_t>& chosen) {
  double weight = 0;
  for (const std::size_t t : chosen)
    weight += problem.weight[t];
  return weight;
}

RC_GTEST_PROP(Selection, EqualsTheSmallestCoverFoundByTryingEverySet, ()) {
  CoverProblem problem;
  problem.tests = *rc::gen::inRange<std::size_t>(1, 11);
  for (std::size_t t = 0; t < problem.tests; ++t)
    problem.weight.push_back(*rc::gen::inRange(0, 5));  // whole seconds: ties are common
  const auto rows = *rc::gen::inRange(0, 14);
  for (int r = 0; r < rows; ++r) {
    std::vector<std::size_t> row;
    for (std::size_t t = 0; t < problem.tests; ++t) {
      if (*rc::gen::inRange(0, 3) == 0)
        row.push_back(t);
    }
    problem.rows.push_back(row);
  }
  const Selection exact = select_tests(problem, 10);
  const Selection tried = select_tests_by_enumeration(problem);
  RC_ASSERT(exact.optimal);
  RC_ASSERT(covers(problem, exact.tests));
  RC_ASSERT(exact.tests.size() == tried.tests.size());
  RC_ASSERT(std::abs(weight_of(problem, exact.tests) - weight_of(problem, tried.tests)) < 1e-9);
  RC_ASSERT(exact.bound == exact.tests.size());
  RC_ASSERT(std::is_sorted(exact.tests.begin(), exact.tests.end()));
}

TEST(Selection, RowsThatHoldOthersAndDuplicatesAreLeftOut) {
  CoverProblem problem;
  problem.tests = 4;
  problem.weight = {1, 1, 1, 1};
  problem.rows = {{0, 1}, {1, 0}, {0, 1, 2}, {3}, {}};
  const Selection selection = select_tests(problem, 1);
  EXPECT_EQ(selection.rows, 2u);  // {0, 1} and {3}
  EXPECT_EQ(selection.tests.size(), 2u);
  EXPECT_TRUE(covers(problem, selection.tests));
}

TEST(Selection, ATestOnItsOwnRowIsAlwaysChosen) {
  CoverProblem problem;
  problem.tests = 3;
  problem.weight = {0, 0, 9};
  problem.rows = {{2}, {0, 1, 2}};
  const Selection selection = select_tests(problem, 1);
  EXPECT_EQ(selection.tests, (std::vector<std::size_t>{2}));
}

TEST(Selection, ALargeMatrixIsCoveredAndBounded) {
  // 300 tests, 600 rows: each row three tests from a band; an optimum or a stated bound.
  CoverProblem problem;
  problem.tests = 300;
  std::mt19937_64 rng(3);
  for (std::size_t t = 0; t < problem.tests; ++t)
    problem.weight.push_back(static_cast<double>(rng() % 100) / 10);
  for (int r = 0; r < 600; ++r) {
    const std::size_t base = rng() % 290;
    problem.rows.push_back({base + rng() % 10, base + rng() % 10, base + rng() % 10});
  }
  const Selection selection = select_tests(problem, 5);
  EXPECT_TRUE(covers(problem, selection.tests));
  EXPECT_LE(selection.bound, selection.tests.size());
  EXPECT_GT(selection.bound, 0u);
}

}  // namespace
}  // namespace gamebatch::pipeline
