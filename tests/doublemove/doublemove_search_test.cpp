// doublemove: the search from a case's own state against the state table. Every state of small n
// searched alone, every case kind up to n = 20 through all three methods of solve(), random late
// cases against the table up to n = 36 (beyond, tests/data/doublemove/late-cases.ans, made with
// the tables, is checked by the golden tests), and the choice itself: late cases of the largest n
// build no table, early ones do, a search gives up at its limit, a stop request ends it.
#include <cstdint>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/generators.hpp"
#include "core/doublemove/search.hpp"
#include "core/doublemove/state_table.hpp"
#include "core/stop_request.hpp"
#include "doublemove_test_helpers.hpp"

namespace gamebatch::doublemove {
namespace {

using testing::describe;
using testing::for_every_state;

constexpr double kNoEarlyStop = 1e300;

TEST(DoublemoveSearch, EveryStateOfSmallNSearchedAloneMatchesTheTableWithinItsBounds) {
  std::uint64_t checked = 0;
  std::uint64_t states = 0;
  for (int n = 1; n <= 14; ++n) {
    states += state_count_for(n);
    const auto table = StateTable::build(n);
    for_every_state(n, [&](const std::vector<int>& sizes, int cycles) {
      ++checked;
      const SizeRuns trees = SizeRuns::of(sizes);
      const auto searched = search_remaining_value(n, trees, cycles);
      ASSERT_TRUE(searched.has_value());
      ASSERT_EQ(searched->remaining_value, table->remaining_value(trees, cycles))
          << "n = " << n << ", " << sizes.size() << " trees, c = " << cycles;
      ASSERT_LE(static_cast<double>(searched->states),
                reachable_states_at_most(n, trees, kNoEarlyStop));
      ASSERT_GE(static_cast<double>(searched->states),
                reachable_states_at_least(trees, cycles, kNoEarlyStop));
      ASSERT_GE(searched->moves, searched->states);
    });
  }
  EXPECT_EQ(checked, states);
}

TEST(DoublemoveSearch, AllMethodsAgreeOnEveryCaseKindUpToTwenty) {
  std::mt19937_64 rng(20260101);
  StateTableStore tables;     // the table method's
  StateTableStore automatic;  // the automatic method's: tables built only for early cases
  int checked = 0;
  for (int n = 1; n <= 20; ++n) {
    for (const DeclarationPattern pattern : kAllPatterns) {
      for (int k = 0; k <= n + 1; ++k) {
        const Instance instance = generate_instance(n, k, pattern, rng);
        const Value by_table = solve(instance, tables, SolveMethod::table);
        ASSERT_EQ(solve(instance, tables, SolveMethod::search), by_table)
            << to_string(pattern) << " " << describe(instance);
        ASSERT_EQ(solve(instance, automatic), by_table)
            << to_string(pattern) << " " << describe(instance);
        ++checked;
      }
      // The running games of every length too: the patterns above end most long ones.
      if (pattern == DeclarationPattern::ending)
        continue;
      for (int k = 0; k <= n; ++k) {
        const Instance instance = generate_running_instance(n, k, pattern, rng);
        const Value by_table = solve(instance, tables, SolveMethod::table);
        ASSERT_EQ(solve(instance, tables, SolveMethod::search), by_table)
            << to_string(pattern) << " running " << describe(instance);
        ASSERT_EQ(solve(instance, automatic), by_table)
            << to_string(pattern) << " running " << describe(instance);
        ++checked;
      }
    }
  }
  // k = 0..n+1 for six patterns, k = 0..n for five, n = 1..20.
  EXPECT_EQ(checked, 6 * 250 + 5 * 230);
}

TEST(DoublemoveSearch, RandomLateCasesAgreeWithTheTable) {
  std::mt19937_64 rng(42);
  StateTableStore tables;
  const DeclarationPattern patterns[] = {DeclarationPattern::forest, DeclarationPattern::mixed,
                                         DeclarationPattern::uniform, DeclarationPattern::loops,
                                         DeclarationPattern::repeats};
  for (int n = 21; n <= 36; ++n) {
    for (int round = 0; round < 10; ++round) {
      const int left = 3 + static_cast<int>(rng() % 11);  // 3..13 declarations left
      const DeclarationPattern pattern = patterns[static_cast<std::size_t>(round) % 5];
      const Instance instance = generate_running_instance(n, n + 1 - left, pattern, rng);
      // A fresh store: the automatic method searches unless the table of n is the cheaper.
      StateTableStore fresh;
      ASSERT_EQ(solve(instance, fresh), solve(instance, tables, SolveMethod::table))
          << to_string(pattern) << " " << describe(instance);
      ASSERT_EQ(solve(instance, tables, SolveMethod::search),
                solve(instance, tables, SolveMethod::table))
          << to_string(pattern) << " " << describe(instance);
    }
  }
}

TEST(DoublemoveSearch, LateCasesOfTheLargestNBuildNoTableAndEarlyCasesDo) {
  std::mt19937_64 rng(7);
  StateTableStore store;
  for (int left = 3; left <= 13; ++left) {
    const Instance instance =
        generate_running_instance(kMaxN, kMaxN + 1 - left, DeclarationPattern::forest, rng);
    EXPECT_NE(plan_solve(instance).path, SolvePlan::Path::table) << describe(instance);
    ASSERT_EQ(solve(instance, store), solve(instance, store, SolveMethod::search));
  }
  EXPECT_EQ(store.builds(), 0u);
  EXPECT_TRUE(store.tables().empty());

  // k = 0 and a few declarations: the table, surely (its bounds say so before any search).
  for (const int k : {0, 1, 3}) {
    const Instance early = generate_running_instance(kMaxN, k, DeclarationPattern::mixed, rng);
    EXPECT_EQ(plan_solve(early).path, SolvePlan::Path::table) << describe(early);
  }
  const Instance small_k0{12, {}};
  EXPECT_EQ(plan_solve(small_k0).path, SolvePlan::Path::table);
  EXPECT_EQ(solve(small_k0, store), 2816u);  // the table's k = 0 answer for n = 12
  EXPECT_EQ(store.builds(), 1u);
  // Every case of n uses the table once the store holds it.
  const Instance late = generate_running_instance(12, 10, DeclarationPattern::forest, rng);
  EXPECT_EQ(solve(late, store), solve(late, store, SolveMethod::search));
  EXPECT_EQ(store.builds(), 1u);
}

TEST(DoublemoveSearch, GivesUpAtItsMoveLimitAndTheAutomaticMethodFallsBackToTheTable) {
  const SizeRuns ones = SizeRuns::of(std::vector<int>(20, 1));  // k = 0 of n = 20
  const auto full = search_remaining_value(20, ones, 0);
  ASSERT_TRUE(full.has_value());
  EXPECT_EQ(full->states, state_count_for(20));  // every state of n is reachable at k = 0
  EXPECT_FALSE(search_remaining_value(20, ones, 0, full->moves - 1).has_value());
  EXPECT_EQ(search_remaining_value(20, ones, 0, full->moves)->remaining_value,
            full->remaining_value);

  // Mid-game cases that try the search and give up: the answer is the table's all the same.
  std::mt19937_64 rng(3);
  int fell_back = 0;
  for (int round = 0; round < 40; ++round) {
    const Instance instance = generate_running_instance(30, 12, DeclarationPattern::forest, rng);
    if (plan_solve(instance).path != SolvePlan::Path::search_then_table)
      continue;
    StateTableStore store;
    const Value answer = solve(instance, store);
    fell_back += static_cast<int>(store.builds());
    EXPECT_EQ(answer, solve(instance, store, SolveMethod::table)) << describe(instance);
  }
  EXPECT_GT(fell_back, 0);
}

TEST(DoublemoveSearch, StopRequestEndsTheSearch) {
  const SizeRuns ones = SizeRuns::of(std::vector<int>(30, 1));  // about 115,000 states
  request_stop();
  EXPECT_THROW(search_remaining_value(30, ones, 0), StopRequested);
  clear_stop_request();
  EXPECT_TRUE(search_remaining_value(30, ones, 0).has_value());
}

TEST(DoublemoveSearch, RejectsWhatIsNotAState) {
  EXPECT_THROW(search_remaining_value(5, SizeRuns::of({3, 3}), 0), std::invalid_argument);
  EXPECT_THROW(search_remaining_value(5, SizeRuns::of({2, 2}), 0), std::invalid_argument);
  EXPECT_THROW(search_remaining_value(5, SizeRuns::of({2, 2}), 2), std::invalid_argument);
  EXPECT_EQ(search_remaining_value(5, SizeRuns::of({2, 2}), 1)->remaining_value,
            StateTable::build(5)->remaining_value(SizeRuns::of({2, 2}), 1));
}

TEST(DoublemoveGenerators, RunningInstancesLeaveTheGameRunning) {
  std::mt19937_64 rng(5);
  for (int n = 1; n <= 40; ++n) {
    for (const DeclarationPattern pattern :
         {DeclarationPattern::uniform, DeclarationPattern::loops, DeclarationPattern::repeats,
          DeclarationPattern::forest, DeclarationPattern::mixed}) {
      const Instance instance = generate_running_instance(n, n, pattern, rng);
      ASSERT_EQ(instance.declarations.size(), static_cast<std::size_t>(n));
      EXPECT_NE(plan_solve(instance).path, SolvePlan::Path::replay) << describe(instance);
    }
  }
  EXPECT_THROW(generate_running_instance(5, 6, DeclarationPattern::mixed, rng),
               std::invalid_argument);
  EXPECT_THROW(generate_running_instance(5, 2, DeclarationPattern::ending, rng),
               std::invalid_argument);
}

}  // namespace
}  // namespace gamebatch::doublemove
