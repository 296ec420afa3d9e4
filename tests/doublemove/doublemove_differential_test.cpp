// doublemove: the literal brute-force oracle on hand-checked cases, then the fast solver (replay +
// state table) against the oracle on every short declaration prefix of tiny n and on thousands
// of random prefixes (loops, parallel edges, game-ending prefixes, k = 0 and k = n + 1).
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/generators.hpp"
#include "core/random.hpp"
#include "doublemove_test_helpers.hpp"
#include "io/doublemove/format.hpp"

namespace gamebatch::doublemove {
namespace {

using testing::describe;

Instance make_instance(int n, std::vector<Declaration> declarations) {
  Instance instance;
  instance.n = n;
  instance.declarations = std::move(declarations);
  return instance;
}

// ---------------------------------------------------------------------------------------------
// The oracle on cases worked out by hand from the rules.

TEST(DoublemoveBruteForce, OneValueAliceAlwaysWins) {
  // n = 1: both declarations are (1, 1); every sequence repeats 1 at turn 2, Bob's turn: Alice
  // wins all 4 sequences, whatever was given.
  EXPECT_EQ(solve_brute_force(make_instance(1, {})), 4u);
  EXPECT_EQ(solve_brute_force(make_instance(1, {{1, 1}})), 4u);
  EXPECT_EQ(solve_brute_force(make_instance(1, {{1, 1}, {1, 1}})), 4u);
}

TEST(DoublemoveBruteForce, TriplePairEndsAtTurnTwoOrThree) {
  // (1,2) three times: a second pick equal to the first ends the game at turn 2 (Alice's), 2 of
  // the 4 two-pick prefixes, times 2 completions; all others end at turn 3 (Bob's).
  EXPECT_EQ(solve_brute_force(make_instance(2, {{1, 2}, {1, 2}, {1, 2}})), 4u);
}

TEST(DoublemoveBruteForce, GameEndedByGivenDeclarationsIgnoresTheRest) {
  // Two loops on 1: every sequence ends at turn 2, Alice's, whatever follows: all 2^4 of them.
  EXPECT_EQ(solve_brute_force(make_instance(3, {{1, 1}, {1, 1}})), 16u);
  // A loop at turn 1 then a loop at turn 3 on the same value: turn 2 (2,3) cannot end anything,
  // the second loop ends everything at turn 3: Bob wins all.
  EXPECT_EQ(solve_brute_force(make_instance(3, {{1, 1}, {2, 3}, {1, 1}})), 0u);
}

TEST(DoublemoveBruteForce, RejectsTooLargeAndInvalidInstances) {
  EXPECT_THROW(BruteForceOracle(kBruteForceMaxN + 1), std::invalid_argument);
  EXPECT_THROW(solve_brute_force(make_instance(2, {{1, 3}})), std::invalid_argument);
  EXPECT_THROW(solve_brute_force(make_instance(1, {{1, 1}, {1, 1}, {1, 1}})),
               std::invalid_argument);
  BruteForceOracle oracle(3);
  EXPECT_THROW(oracle.solve(make_instance(4, {})), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// The fast solver against the oracle.

// One oracle per n for the whole test program: its memo carries over (n = 8 costs ~1.5 s once).
BruteForceOracle& oracle_for(int n) {
  static std::vector<std::unique_ptr<BruteForceOracle>> oracles(kBruteForceMaxN + 1);
  auto& oracle = oracles[static_cast<std::size_t>(n)];
  if (!oracle)
    oracle = std::make_unique<BruteForceOracle>(n);
  return *oracle;
}

// Every sequence of up to `max_k` ordered pairs on n values.
void for_every_prefix(int n, int max_k, const std::function<void(const Instance&)>& visit) {
  std::vector<Declaration> declarations;
  std::function<void()> extend = [&] {
    visit(make_instance(n, declarations));
    if (static_cast<int>(declarations.size()) == max_k)
      return;
    for (int a = 1; a <= n; ++a) {
      for (int b = 1; b <= n; ++b) {
        declarations.push_back({a, b});
        extend();
        declarations.pop_back();
      }
    }
  };
  extend();
}

TEST(DoublemoveDifferential, EveryShortPrefixOfTinyN) {
  // n = 1..3 with every prefix of up to n + 1 declarations (complete games included), n = 4 with
  // every prefix of up to 2: 7,742 instances.
  const int max_k_of_n[] = {0, 2, 3, 4, 2};
  int checked = 0;
  for (int n = 1; n <= 4; ++n) {
    BruteForceOracle& oracle = oracle_for(n);
    for_every_prefix(n, max_k_of_n[n], [&](const Instance& instance) {
      ++checked;
      ASSERT_EQ(solve(instance), oracle.solve(instance)) << describe(instance);
    });
  }
  // 1+1+1 (n=1), 1+4+16+64 (n=2), 1+9+81+729+6561 (n=3), 1+16+256 (n=4)
  EXPECT_EQ(checked, 3 + 85 + 7381 + 273);
}

TEST(DoublemoveDifferential, RandomPrefixesOfEveryPatternUpToTheOracleLimit) {
  constexpr int kCasesPerCombination = 120;
  std::mt19937_64 rng(20240611);
  int checked = 0;
  int ended_early = 0;
  for (int n = 1; n <= kBruteForceMaxN; ++n) {
    BruteForceOracle& oracle = oracle_for(n);
    for (const DeclarationPattern pattern : kAllPatterns) {
      for (int round = 0; round < kCasesPerCombination; ++round) {
        const int k = random_declaration_count(n, rng);
        const Instance instance = generate_instance(n, k, pattern, rng);
        ASSERT_EQ(solve(instance), oracle.solve(instance))
            << to_string(pattern) << " " << describe(instance);
        ++checked;
        if (pattern == DeclarationPattern::ending && k >= 2)
          ++ended_early;
      }
    }
  }
  EXPECT_EQ(checked,
            kBruteForceMaxN * static_cast<int>(std::size(kAllPatterns)) * kCasesPerCombination);
  EXPECT_GT(ended_early, 300);
}

// The same property with RapidCheck's shrinking, on arbitrary pairs (not the generators').
RC_GTEST_PROP(DoublemoveDifferential, ArbitraryDeclarationsAgreeWithOracle, ()) {
  const int n = *rc::gen::inRange(1, kBruteForceMaxN + 1);
  const int k = *rc::gen::inRange(0, n + 2);
  const auto values = *rc::gen::container<std::vector<int>>(static_cast<std::size_t>(2 * k),
                                                            rc::gen::inRange(1, n + 1));
  Instance instance;
  instance.n = n;
  for (int j = 0; j < k; ++j) {
    instance.declarations.push_back(
        {values[static_cast<std::size_t>(2 * j)], values[static_cast<std::size_t>(2 * j + 1)]});
  }
  RC_ASSERT(solve(instance) == oracle_for(n).solve(instance));
}

// Declaration n + 1 never changes the answer: the game is decided by the n before it.
TEST(DoublemoveDifferential, LastDeclarationNeverChangesTheAnswer) {
  std::mt19937_64 rng(7);
  for (int n = 1; n <= 30; ++n) {
    for (int round = 0; round < 20; ++round) {
      Instance full = generate_instance(n, n + 1, DeclarationPattern::mixed, rng);
      Instance without_last = full;
      without_last.declarations.pop_back();
      ASSERT_EQ(solve(full), solve(without_last)) << describe(full);
    }
  }
}

// Relabelling the values or swapping a pair's sides describes the same game.
TEST(DoublemoveDifferential, RelabellingValuesKeepsTheAnswer) {
  std::mt19937_64 rng(11);
  for (int n = 2; n <= 35; ++n) {
    const Instance instance = generate_instance(n, static_cast<int>(uniform_below(rng, n + 2)),
                                                DeclarationPattern::mixed, rng);
    std::vector<int> label(static_cast<std::size_t>(n) + 1);
    for (int value = 0; value <= n; ++value)
      label[static_cast<std::size_t>(value)] = value;
    for (int value = n; value > 1; --value) {
      std::swap(label[static_cast<std::size_t>(value)],
                label[1 + uniform_below(rng, static_cast<std::uint64_t>(value))]);
    }
    Instance relabelled = instance;
    for (auto& [a, b] : relabelled.declarations) {
      const int new_a = label[static_cast<std::size_t>(a)];
      a = label[static_cast<std::size_t>(b)];
      b = new_a;
    }
    ASSERT_EQ(solve(instance), solve(relabelled)) << describe(instance);
  }
}

TEST(DoublemoveGenerators, FixedSeedGivesTheseInstancesOnEveryPlatform) {
  // Pinned output (recorded before the draws moved to core/random.hpp): a change of the
  // generator, or a platform-dependent draw, shows up here and would change every benchmark file
  // named by its seed.
  std::mt19937_64 rng(1);
  EXPECT_EQ(io::doublemove::format_case(generate_instance(6, 6, DeclarationPattern::mixed, rng)),
            "6 6\n1 1\n1 1\n5 5\n6 6\n3 4\n6 6\n");
  EXPECT_EQ(io::doublemove::format_case(generate_instance(6, 5, DeclarationPattern::ending, rng)),
            "6 5\n3 6\n3 3\n4 6\n3 3\n2 3\n");
}

}  // namespace
}  // namespace gamebatch::doublemove
