// doublemove: the shrinker's contract (valid, within limits, strictly smaller, distinct, big cuts
// first) on many random instances, the wrong solver used to test it, and the quality of a whole
// greedy shrink: a wrong solution caught with n of 6 to 12 comes back as the smallest failing
// case, n = 2 after the loop (1,1).
#include <gtest/gtest.h>

#include <algorithm>
#include <compare>
#include <cstdint>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/generators.hpp"
#include "core/doublemove/shrink.hpp"
#include "core/random.hpp"
#include "tests/solutions/wrong_solvers.hpp"

namespace gamebatch::doublemove {
namespace {

constexpr int kOfficialMaxN = 35;

// The measure shrink.hpp documents: n, then the number of declarations, then the declared values'
// sum.
struct Measure {
  int n;
  std::size_t declarations;
  int value_sum;
  auto operator<=>(const Measure&) const = default;
};

Measure measure_of(const Instance& instance) {
  int sum = 0;
  for (const auto& [a, b] : instance.declarations)
    sum += a + b;
  return {instance.n, instance.declarations.size(), sum};
}

int largest_value(const Instance& instance) {
  int largest = 0;
  for (const auto& [a, b] : instance.declarations)
    largest = std::max({largest, a, b});
  return largest;
}

bool within_official_limits(const Instance& instance) {
  return instance.n >= 1 && instance.n <= kOfficialMaxN &&
         instance.declarations.size() <= static_cast<std::size_t>(instance.n) + 1;
}

std::string describe(const Instance& instance) {
  std::ostringstream text;
  text << "n=" << instance.n << " [";
  for (const auto& [a, b] : instance.declarations)
    text << "(" << a << "," << b << ")";
  text << "]";
  return text.str();
}

Instance random_instance(std::mt19937_64& rng, int max_n) {
  const int n = 1 + static_cast<int>(uniform_below(rng, static_cast<std::uint64_t>(max_n)));
  const DeclarationPattern pattern = kAllPatterns[uniform_below(rng, std::size(kAllPatterns))];
  return generate_instance(n, random_declaration_count(n, rng), pattern, rng);
}

std::string right_answer(const Instance& instance) {
  return to_decimal(solve(instance));
}

bool wrong_solution_fails(const Instance& instance) {
  return gamebatch::testing::wrong_doublemove(instance) != right_answer(instance);
}

TEST(DoublemoveShrink, EveryCandidateIsAValidDistinctInstanceStrictlySmallerThanTheInput) {
  std::mt19937_64 rng(20240603);
  for (int round = 0; round < 400; ++round) {
    const Instance instance = random_instance(rng, round < 300 ? 12 : kOfficialMaxN);
    const Measure measure = measure_of(instance);
    std::set<std::string> seen{describe(instance)};
    for (const Instance& candidate : shrink_candidates(instance)) {
      SCOPED_TRACE(describe(instance) + " -> " + describe(candidate));
      EXPECT_EQ(check_instance(candidate), "");
      EXPECT_LT(measure_of(candidate), measure);
      EXPECT_LE(candidate.declarations.size(), instance.declarations.size());
      EXPECT_LE(largest_value(candidate), largest_value(instance));
      EXPECT_TRUE(seen.insert(describe(candidate)).second) << "offered twice, or the input";
      if (within_official_limits(instance)) {
        EXPECT_TRUE(within_official_limits(candidate));
      }
    }
  }
}

TEST(DoublemoveShrink, BiggestCutsComeFirst) {
  std::mt19937_64 rng(6);
  for (int round = 0; round < 200; ++round) {
    const Instance instance = random_instance(rng, 20);
    const std::vector<Instance> candidates = shrink_candidates(instance);
    for (std::size_t k = 1; k < candidates.size(); ++k) {
      const Measure before = measure_of(candidates[k - 1]);
      const Measure after = measure_of(candidates[k]);
      ASSERT_LE(std::pair(before.n, before.declarations), std::pair(after.n, after.declarations))
          << describe(instance);
    }
  }
}

TEST(DoublemoveShrink, OffersFewerValuesFewerDeclarationsAndLowerValues) {
  // n = 4 after (4,4) and (1,3).
  const Instance instance{4, {{4, 4}, {1, 3}}};
  std::vector<std::string> offered;
  for (const Instance& candidate : shrink_candidates(instance))
    offered.push_back(describe(candidate));
  EXPECT_EQ(offered,
            (std::vector<std::string>{
                // n' = 1 or 2 with the larger values dropped; n / 2 = 2 with them folded
                // (3 -> 1, 4 -> 2).
                "n=1 []", "n=2 []", "n=2 [(2,2)(1,1)]",
                // n - 1 = 3, fewest declarations first: 4 removed, 3 removed, 2 removed
                // (1 removed repeats 3 removed), 4 merged into 3 (merging 3 or 2 repeats
                // 2 removed).
                "n=3 [(1,3)]", "n=3 [(3,3)]", "n=3 [(3,3)(1,2)]", "n=3 [(3,3)(1,3)]",
                // Fewer declarations: none, the first half, each one dropped.
                "n=4 []", "n=4 [(4,4)]", "n=4 [(1,3)]",
                // Lower values: renamed in order of appearance (4 -> 1, 1 -> 2); the
                // loop lowered to (1,1); each 4 to 1 or 3, the 3 to 1 or 2.
                "n=4 [(1,1)(2,3)]", "n=4 [(1,1)(1,3)]", "n=4 [(1,4)(1,3)]", "n=4 [(3,4)(1,3)]",
                "n=4 [(4,1)(1,3)]", "n=4 [(4,3)(1,3)]", "n=4 [(4,4)(1,1)]", "n=4 [(4,4)(1,2)]"}));
}

TEST(DoublemoveShrink, NothingToOfferForTheSmallestCaseOrAnInvalidOne) {
  EXPECT_TRUE(shrink_candidates(Instance{1, {}}).empty());
  EXPECT_TRUE(shrink_candidates(Instance{2, {{1, 3}}}).empty());
}

TEST(DoublemoveShrink, RepeatedShrinkingEndsAtOneValueAndNoDeclaration) {
  std::mt19937_64 rng(88);
  for (int round = 0; round < 50; ++round) {
    Instance instance = random_instance(rng, kOfficialMaxN);
    int steps = 0;
    for (std::vector<Instance> next = shrink_candidates(instance); !next.empty();
         next = shrink_candidates(instance)) {
      instance = next[uniform_below(rng, next.size())];
      ASSERT_LT(++steps, 100000);
    }
    EXPECT_EQ(describe(instance), "n=1 []");
  }
}

TEST(DoublemoveShrink, WrongSolverAgreesOftenButNotAlways) {
  std::mt19937_64 rng(15);
  int agreements = 0;
  constexpr int kRounds = 300;
  for (int round = 0; round < kRounds; ++round) {
    const Instance instance = random_instance(rng, 8);
    const bool fails = wrong_solution_fails(instance);
    agreements += fails ? 0 : 1;
    if (gamebatch::testing::without_given_loops(instance).declarations.size() ==
        instance.declarations.size()) {
      EXPECT_FALSE(fails) << "only a given loop can mislead it: " << describe(instance);
    }
  }
  EXPECT_GE(agreements, kRounds / 5);
  EXPECT_LT(agreements, kRounds);
}

// Only a given loop can mislead the wrong solver, and n = 1 never fails (every declaration there
// is (1,1), whoever owns it): n = 2 after the one declaration (1,1) is the smallest failing case
// under the measure, and the greedy shrink should end exactly there.
TEST(DoublemoveShrink, AWrongSolutionCaughtOnLargerCasesShrinksToATinyCase) {
  std::map<std::string, int> finals;
  std::size_t most_candidates_tried = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    Instance failing;
    int draws = 0;
    do {
      ASSERT_LT(++draws, 1000) << "seed " << seed << ": no failing case drawn";
      const int n = 6 + static_cast<int>(uniform_below(rng, 7));
      const int k = 1 + static_cast<int>(uniform_below(rng, static_cast<std::uint64_t>(n) + 1));
      failing =
          generate_instance(n, k, kAllPatterns[uniform_below(rng, std::size(kAllPatterns))], rng);
    } while (!wrong_solution_fails(failing));

    const auto shrunk = gamebatch::testing::shrink_while_failing(failing, &shrink_candidates,
                                                                 &wrong_solution_fails);
    const Instance& smallest = shrunk.smallest;
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + describe(failing) + " shrank to " +
                 describe(smallest));
    EXPECT_TRUE(wrong_solution_fails(smallest));
    EXPECT_EQ(describe(smallest), "n=2 [(1,1)]");
    for (const Instance& candidate : shrink_candidates(smallest))
      EXPECT_FALSE(wrong_solution_fails(candidate))
          << "not a local minimum: " << describe(candidate);
    EXPECT_LE(shrunk.candidates_tried, 3000u);

    ++finals[describe(smallest)];
    most_candidates_tried = std::max(most_candidates_tried, shrunk.candidates_tried);
  }
  std::cout << "[doublemove] shrunk to:";
  for (const auto& [text, count] : finals)
    std::cout << " " << text << " x" << count;
  std::cout << "; at most " << most_candidates_tried << " candidates tried per shrink\n";
}

}  // namespace
}  // namespace gamebatch::doublemove
