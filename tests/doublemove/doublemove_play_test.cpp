// doublemove's explained play (core/doublemove/play.hpp) against the literal brute force: every
// declaration of the line keeps the game's value (the owner could do no better: the brute force
// values each prefix, and every other pair is no better for the owner), the first optimal pair
// is chosen, and the full line's value is the answer.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/generators.hpp"
#include "core/doublemove/play.hpp"
#include "core/doublemove/state_table.hpp"

namespace gamebatch::doublemove {
namespace {

RC_GTEST_PROP(DoublemovePlay, ExplainedLineIsOptimal, ()) {
  const int n = *rc::gen::inRange(1, 6);
  std::mt19937_64 rng(*rc::gen::arbitrary<std::uint64_t>());
  const int k = random_declaration_count(n, rng);
  const auto pattern = *rc::gen::elementOf(
      std::vector<DeclarationPattern>(std::begin(kAllPatterns), std::end(kAllPatterns)));
  const Instance instance = generate_instance(n, k, pattern, rng);
  BruteForceOracle oracle(n);
  const Value answer = oracle.solve(instance);
  const Play play = optimal_play(instance);
  RC_ASSERT(play.value == answer);
  RC_ASSERT(play.declarations.size() == static_cast<std::size_t>(n + 1 - k));
  Instance so_far = instance;
  for (const PlayedDeclaration& move : play.declarations) {
    RC_ASSERT(move.turn == static_cast<int>(so_far.declarations.size()) + 1);
    const bool alice = move.turn % 2 == 1;
    // No pair is better for the owner, and no pair before the chosen one is as good.
    for (int a = 1; a <= n; ++a) {
      for (int b = 1; b <= n; ++b) {
        so_far.declarations.push_back({a, b});
        const Value value = oracle.solve(so_far);
        so_far.declarations.pop_back();
        RC_ASSERT((alice ? value <= answer : value >= answer));
        const bool before = a < move.pair.a || (a == move.pair.a && b < move.pair.b);
        if (before)
          RC_ASSERT(value != answer);
      }
    }
    so_far.declarations.push_back(move.pair);
    RC_ASSERT(oracle.solve(so_far) == answer);
    RC_ASSERT(move.alice_wins_after == answer);
  }
}

// The line reads the values of the states it passes through off whatever valued the game in
// solve(): the table of n, or (a late case, no table held) the search's memo. Both give the same
// line, and the same as valuing every pair on the table.
RC_GTEST_PROP(DoublemovePlay, LineIsTheSameFromTheTableAndFromTheSearch, ()) {
  const int n = *rc::gen::inRange(1, 25);
  std::mt19937_64 rng(*rc::gen::arbitrary<std::uint64_t>());
  const int k = *rc::gen::inRange(std::max(0, n - 10), n + 2);
  const Instance instance = k <= n
                                ? generate_running_instance(n, k, DeclarationPattern::uniform, rng)
                                : generate_instance(n, k, DeclarationPattern::uniform, rng);
  StateTableStore fresh;  // a late case is searched: no table of n is held
  const Play searched = optimal_play(instance, fresh);
  StateTableStore with_table;
  with_table.get(n);
  const Play tabled = optimal_play(instance, with_table);
  RC_ASSERT(describe_play(instance, searched) == describe_play(instance, tabled));
  Instance so_far = instance;
  for (const PlayedDeclaration& move : tabled.declarations) {
    // No pair is better for the owner by the table, and none before the chosen one as good.
    for (int a = 1; a <= n; ++a) {
      for (int b = a; b <= n; ++b) {
        so_far.declarations.push_back({a, b});
        const Value value = solve(so_far, with_table, SolveMethod::table);
        so_far.declarations.pop_back();
        const bool before = a < move.pair.a || (a == move.pair.a && b < move.pair.b);
        RC_ASSERT(
            (move.turn % 2 == 1 ? value <= move.alice_wins_after : value >= move.alice_wins_after));
        if (before)
          RC_ASSERT(value != move.alice_wins_after);
      }
    }
    so_far.declarations.push_back(move.pair);
    RC_ASSERT(summarise_components(so_far).tree_sizes == move.after.tree_sizes);
  }
}

TEST(DoublemovePlay, DescribesTheExamples) {
  Instance instance;
  instance.n = 4;
  instance.declarations = {{1, 2}};
  const Play play = optimal_play(instance);
  EXPECT_EQ(play.value, 12u);
  const std::string text = describe_play(instance, play);
  EXPECT_NE(text.find("declaration 2 (Bob)"), std::string::npos) << text;
  EXPECT_NE(text.find("declaration 5 (Alice)"), std::string::npos) << text;
  EXPECT_EQ(text.substr(text.size() - 11), "answer: 12\n") << text;
}

TEST(DoublemovePlay, ComponentsAreSummarised) {
  Instance instance;
  instance.n = 5;
  instance.declarations = {{1, 2}, {3, 3}, {2, 4}};
  const ComponentSummary summary = summarise_components(instance);
  EXPECT_EQ(summary.tree_sizes, (std::vector<int>{3, 1}));
  EXPECT_EQ(summary.one_cycle, 1);
  EXPECT_FALSE(summary.ended);
  instance.declarations.push_back({3, 3});
  EXPECT_TRUE(summarise_components(instance).ended);
}

}  // namespace
}  // namespace gamebatch::doublemove
