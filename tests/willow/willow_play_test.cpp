// willow's explained play (core/willow/play.hpp) against the literal brute force: the starts are
// the lowest-numbered optimal ones, the line is legal under the rules, every position along it is
// worth the answer (nobody could do better), and it adds up to the answer.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/willow/generators.hpp"
#include "core/willow/play.hpp"
#include "core/willow/willow.hpp"

namespace gamebatch::willow {
namespace {

// The road between u and w, or -1.
std::int32_t road_between(const Instance& instance, std::int32_t u, std::int32_t w) {
  for (std::size_t r = 0; r < instance.roads.size(); ++r) {
    const auto [x, y] = instance.roads[r];
    if ((x == u && y == w) || (x == w && y == u))
      return static_cast<std::int32_t>(r);
  }
  return -1;
}

bool has_unused_road(const Instance& instance, std::int32_t city, std::uint32_t used) {
  for (std::size_t r = 0; r < instance.roads.size(); ++r) {
    const auto [x, y] = instance.roads[r];
    if ((x == city || y == city) && ((used >> r) & 1U) == 0)
      return true;
  }
  return false;
}

Coins start_value(const Instance& instance, std::int32_t a, std::int32_t b) {
  LiteralPosition position;
  position.a = a;
  position.b = b;
  position.coins_left = (1U << instance.coins.size()) - 1U;
  return solve_brute_force_from(instance, position);
}

// The starts: A's is optimal and no lower city is; B's reply reaches the answer and no lower
// city does.
void check_starts(const Instance& instance, const Play& play) {
  const auto n = instance.city_count();
  for (std::int32_t a = 0; a <= play.a_start; ++a) {
    Coins worst = std::numeric_limits<Coins>::max();
    for (std::int32_t b = 0; b < n; ++b)
      worst = std::min(worst, start_value(instance, a, b));
    if (a < play.a_start)
      RC_ASSERT(worst < play.value);
    else
      RC_ASSERT(worst == play.value);
  }
  for (std::int32_t b = 0; b < play.b_start; ++b)
    RC_ASSERT(start_value(instance, play.a_start, b) > play.value);
  RC_ASSERT(start_value(instance, play.a_start, play.b_start) == play.value);
}

// Replays the line turn by turn under the literal rules (the mover takes her city's coins, then
// walks an unused road or, having none, passes); before every turn the score so far plus the
// brute force's value of the position is the answer.
void replay(const Instance& instance, const Play& play) {
  LiteralPosition at;
  at.a = play.a_start;
  at.b = play.b_start;
  at.coins_left = (1U << instance.coins.size()) - 1U;
  Coins score = 0;  // A's minus B's
  std::size_t next = 0;
  bool passed_before = false;
  while (true) {
    at.previous_turn_was_pass = passed_before;
    RC_ASSERT(score + solve_brute_force_from(instance, at) == play.value);
    std::int32_t& mover = at.a_to_move ? at.a : at.b;
    if ((at.coins_left >> mover) & 1U) {
      score += at.a_to_move ? instance.coins[static_cast<std::size_t>(mover)]
                            : -instance.coins[static_cast<std::size_t>(mover)];
      at.coins_left &= ~(1U << mover);
    }
    const char player = at.a_to_move ? 'A' : 'B';
    const bool can_walk = has_unused_road(instance, mover, at.used_roads);
    if (next < play.moves.size() && play.moves[next].player == player) {
      const Move& move = play.moves[next++];
      RC_ASSERT(move.from == mover);
      const std::int32_t road = road_between(instance, move.from, move.to);
      RC_ASSERT(road >= 0);
      RC_ASSERT(((at.used_roads >> road) & 1U) == 0U);
      at.used_roads |= 1U << road;
      mover = move.to;
      passed_before = false;
    } else {
      RC_ASSERT(!can_walk);  // the line may leave out only passes
      if (passed_before)
        break;
      passed_before = true;
    }
    at.a_to_move = !at.a_to_move;
  }
  RC_ASSERT(next == play.moves.size());
  RC_ASSERT(score == play.value);
  RC_ASSERT((play.moves.empty() || play.moves.back().score == play.value));
}

// A tree of 1 to cities_below - 1 cities of any generator shape and coin pattern, its coins up to a
// maximum drawn by `max_coins`. Called inside a property.
Instance arbitrary_instance(std::int32_t cities_below, const rc::Gen<Coins>& max_coins) {
  const auto cities = *rc::gen::inRange<std::int32_t>(1, cities_below);
  const auto shape =
      *rc::gen::elementOf(std::vector<TreeShape>(std::begin(kBenchShapes), std::end(kBenchShapes)));
  const auto pattern = *rc::gen::elementOf(
      std::vector<CoinPattern>(std::begin(kAllCoinPatterns), std::end(kAllCoinPatterns)));
  const auto max_coin = *max_coins;
  std::mt19937_64 rng(*rc::gen::arbitrary<std::uint64_t>());
  return generate_instance(shape, cities, pattern, max_coin, rng);
}

RC_GTEST_PROP(WillowPlay, ExplainedLineIsOptimalAndLegal, ()) {
  const Instance instance = arbitrary_instance(8, rc::gen::element<Coins>(1, 3, 20, 10000));
  const Play play = optimal_play(instance);
  RC_ASSERT(play.value == solve_brute_force(instance));
  check_starts(instance, play);
  replay(instance, play);
}

TEST(WillowPlay, DescribesTheLine) {
  Instance instance;
  instance.coins = {100, 100};
  instance.roads = {{0, 1}};
  const Play play = optimal_play(instance);
  EXPECT_EQ(play.value, solve_brute_force(instance));
  const std::string text = describe_play(instance, play);
  EXPECT_NE(text.find("A starts on city 1"), std::string::npos) << text;
  EXPECT_NE(text.find("answer: " + std::to_string(play.value)), std::string::npos) << text;
}

TEST(WillowPlay, LargeTreesAddUp) {
  // Beyond the brute force: the line still adds up to the solver's answer (optimal_play checks
  // that itself and throws otherwise) and is the same on a second call.
  for (const TreeShape shape : kBenchShapes) {
    std::mt19937_64 rng(7);
    const Instance instance = generate_instance(shape, 3000, CoinPattern::mixed, 10000, rng);
    const Play play = optimal_play(instance);
    EXPECT_EQ(play.value, solve(instance)) << to_string(shape);
    EXPECT_EQ(describe_play(instance, play), describe_play(instance, optimal_play(instance)));
  }
}

// The pruned search given no budget: the walk answers and the starts are found pair by pair.
SolverOptions pair_by_pair() {
  SolverOptions options;
  options.pruned_budget_scale = 1e-12;
  return options;
}

RC_GTEST_PROP(WillowPlay, PairByPairStartsAreTheSearchsStarts, ()) {
  // Few coin values: many starts tie with the answer.
  const Instance instance = arbitrary_instance(60, rc::gen::element<Coins>(0, 1, 3, 10000));
  SolverOptions parallel;  // the search on every thread even for small trees
  parallel.parallel_from_cities = 1;
  const Play searched = optimal_play(instance);
  // Tiny trees finish the search before the budget is looked at.
  RC_CLASSIFY(solve_with_report(instance, pair_by_pair()).walked, "walked");
  const Play by_pairs = optimal_play(instance, pair_by_pair());
  RC_ASSERT(searched.a_start == by_pairs.a_start);
  RC_ASSERT(searched.b_start == by_pairs.b_start);
  RC_ASSERT(describe_play(instance, searched) == describe_play(instance, by_pairs));
  RC_ASSERT(describe_play(instance, searched) ==
            describe_play(instance, optimal_play(instance, parallel)));
}

TEST(WillowPlay, SearchFindsTheStartsOfLongPaths) {
  // A path of 100,000 cities: the pruned search values each start pair from prefix sums, so the
  // starts cost what a solve costs; pair by pair they would cost about 2.5 * 10^9 path steps.
  std::mt19937_64 rng(3);
  const Instance path = generate_instance(TreeShape::path, 100'000, CoinPattern::mixed, 100, rng);
  const SolveReport report = solve_with_report(path);
  EXPECT_FALSE(report.walked);
  EXPECT_EQ(optimal_play(path).value, report.value);
}

TEST(WillowPlay, RefusesWhatCostsTooMuchPairByPair) {
  // A path of 2,000 cities, the walk answering: A's start alone costs about 10^6 path steps.
  std::mt19937_64 rng(3);
  const Instance path = generate_instance(TreeShape::path, 2'000, CoinPattern::all_equal, 1, rng);
  EXPECT_THROW(optimal_play(path, pair_by_pair(), 100'000), std::invalid_argument);
  EXPECT_EQ(optimal_play(path, pair_by_pair()).value, solve(path));
  EXPECT_EQ(optimal_play(path, pair_by_pair()).a_start, optimal_play(path).a_start);
}

}  // namespace
}  // namespace gamebatch::willow
