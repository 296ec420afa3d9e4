// willow's pruned search (core/willow/pruned.cpp) against the forest walk on larger trees, on the
// golden files, with its budget forced to run out, and on one and two threads. Its agreement with
// the brute force on small trees is in willow_differential_test.
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <oneapi/tbb/task_arena.h>

#include "core/willow/arrival_table.hpp"
#include "core/willow/generators.hpp"
#include "core/willow/play.hpp"
#include "core/willow/row_order.hpp"
#include "core/willow/willow.hpp"
#include "io/willow/format.hpp"
#include "tests/test_data.hpp"
#include "tests/willow/path_like_trees.hpp"
#include "tests/willow/random_recipes.hpp"

namespace gamebatch::willow {
namespace {

using gamebatch::testing::read_test_file;

// The pruned search with a budget it never runs out of.
SolverOptions pruned_only() {
  SolverOptions options;
  options.pruned_budget_scale = 1e12;
  return options;
}

SolverOptions walk_only() {
  SolverOptions options;
  options.allow_pruned = false;
  return options;
}

std::string describe(TreeShape shape, CoinPattern pattern, std::int32_t cities) {
  return std::string(to_string(shape)) + ", " + std::string(to_string(pattern)) +
         ", N = " + std::to_string(cities);
}

// 504 trees: 28 of each shape and coin pattern, mostly of 2..1,000 cities (log-uniform), and one
// of 5,000 (2,000 with uniform coins) per combination. About 1 s in a Release build; a tenth of
// the sizes under the sanitizers.
TEST(WillowPruned, MatchesTheWalkOnEveryShapeAndCoinPattern) {
#ifdef GAMEBATCH_SANITIZED
  constexpr double kScale = 0.1;
#else
  constexpr double kScale = 1.0;
#endif
  constexpr int kTreesPerCombination = 28;
  int checked = 0;
  std::uint64_t combination = 0;
  for (const TreeShape shape : kAllShapes) {
    for (const CoinPattern pattern : kAllCoinPatterns) {
      std::mt19937_64 rng(0x9e0 + combination++);
      std::uniform_real_distribution<double> log_size(std::log(2.0), std::log(1000.0 * kScale));
      for (int tree = 0; tree < kTreesPerCombination; ++tree) {
        const double largest = pattern == CoinPattern::mixed ? 5000 : 2000;
        const auto cities = static_cast<std::int32_t>(
            tree == 0 ? largest * kScale : std::round(std::exp(log_size(rng))));
        const Instance instance = generate_instance(shape, cities, pattern, 10000, rng);
        const SolveReport pruned = solve_with_report(instance, pruned_only());
        ASSERT_FALSE(pruned.walked) << describe(shape, pattern, cities);
        ASSERT_EQ(pruned.value, solve(instance, walk_only())) << describe(shape, pattern, cities);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 504);
}

// Pruefer trees (long distances: diameter about sqrt(N)), paths (solved by prefix sums), trees of
// long bare paths and leafy spines (long paths whose chains resume from their siblings'), combs
// and tripods (whose far B starts the lower bounds skip, or not) against the walk: 30 of each
// kind, 2..3,000 cities (log-uniform), 32-bit and 64-bit, the search on the calling thread and on
// all threads. A few seconds in a Release build.
TEST(WillowPruned, MatchesTheWalkOnPrueferTreesAndLongPaths) {
#ifdef GAMEBATCH_SANITIZED
  constexpr double kLargest = 300;
#else
  constexpr double kLargest = 3000;
#endif
  enum class Kind {
    prufer,
    path,
    caterpillar,
    broom,
    few_branches,
    hanging_chain,
    leafy_spine,
    comb,
    tripod
  };
  std::mt19937_64 rng(0x7a7);
  std::uniform_real_distribution<double> log_size(std::log(2.0), std::log(kLargest));
  for (const Kind kind :
       {Kind::prufer, Kind::path, Kind::caterpillar, Kind::broom, Kind::few_branches,
        Kind::hanging_chain, Kind::leafy_spine, Kind::comb, Kind::tripod}) {
    for (int tree = 0; tree < 30; ++tree) {
      const auto cities =
          static_cast<std::int32_t>(tree == 0 ? kLargest : std::round(std::exp(log_size(rng))));
      const Coins max_coin = tree % 5 == 4 ? 1'000'000'000 : 10000;
      const auto shaped = [&](TreeShape shape) {
        return generate_instance(shape, cities, CoinPattern::mixed, max_coin, rng);
      };
      const auto path_like = [&](testing::PathLike like) {
        return testing::path_like_instance(like, cities, max_coin, rng);
      };
      const Instance instance =
          kind == Kind::prufer          ? shaped(TreeShape::prufer)
          : kind == Kind::path          ? shaped(TreeShape::path)
          : kind == Kind::caterpillar   ? shaped(TreeShape::caterpillar)
          : kind == Kind::broom         ? shaped(TreeShape::broom)
          : kind == Kind::few_branches  ? path_like(testing::PathLike::few_branches)
          : kind == Kind::hanging_chain ? path_like(testing::PathLike::hanging_chain)
          : kind == Kind::leafy_spine   ? path_like(testing::PathLike::leafy_spine)
          : kind == Kind::comb          ? shaped(TreeShape::comb)
                                        : shaped(TreeShape::tripod);
      const std::string what =
          "kind " + std::to_string(static_cast<int>(kind)) + ", N = " + std::to_string(cities);
      SolverOptions options = pruned_only();
      options.parallel_from_cities = tree % 2 == 0 ? 1 : 1 << 30;
      const SolveReport pruned = solve_with_report(instance, options);
      ASSERT_FALSE(pruned.walked) << what;
      ASSERT_EQ(pruned.value, solve(instance, walk_only())) << what;
    }
  }
}

// The spiders and trees of random recipes (where the search settles rows least lower bound
// first) against the walk: 120 trees of 2..3,000 cities (log-uniform), 32-bit and 64-bit coins,
// on the calling thread and on all threads.
TEST(WillowPruned, MatchesTheWalkOnTheSlowShapes) {
#ifdef GAMEBATCH_SANITIZED
  constexpr double kLargest = 300;
#else
  constexpr double kLargest = 3000;
#endif
  std::mt19937_64 rng(0x5b1d);
  std::uniform_real_distribution<double> log_size(std::log(2.0), std::log(kLargest));
  constexpr TreeShape kSpiders[] = {TreeShape::tripod, TreeShape::comb_spider,
                                    TreeShape::lopsided_spider, TreeShape::rich_teeth_spider};
  for (int tree = 0; tree < 120; ++tree) {
    const auto cities =
        static_cast<std::int32_t>(tree < 8 ? kLargest : std::round(std::exp(log_size(rng))));
    const Coins max_coin = tree % 5 == 4 ? 1'000'000'000 : 10000;
    const TreeRecipe recipe = willow::testing::random_recipe(rng);
    const bool spider = tree % 3 == 0;
    const Instance instance =
        spider ? generate_instance(kSpiders[tree % 4], cities, CoinPattern::mixed, max_coin, rng)
               : generate_recipe_instance(recipe, cities, max_coin, rng);
    const std::string what =
        (spider ? std::string(to_string(kSpiders[tree % 4])) : describe(recipe)) +
        ", N = " + std::to_string(cities);
    SolverOptions options = pruned_only();
    options.parallel_from_cities = tree % 2 == 0 ? 1 : 1 << 30;
    const SolveReport pruned = solve_with_report(instance, options);
    ASSERT_FALSE(pruned.walked) << what;
    ASSERT_EQ(pruned.value, solve(instance, walk_only())) << what;
  }
}

// Recipes name their trees: describe() and parse_recipe() round-trip, words left out keep their
// defaults, and unknown words or values are refused.
TEST(WillowGenerators, RecipesRoundTripThroughTheirText) {
  std::mt19937_64 rng(0x7ec);
  for (int k = 0; k < 50; ++k) {
    const TreeRecipe recipe = willow::testing::random_recipe(rng);
    EXPECT_EQ(describe(parse_recipe(describe(recipe))), describe(recipe));
  }
  EXPECT_EQ(describe(parse_recipe("legs=5 gap=4")),
            describe(TreeRecipe{5, ArmKind::comb, 1, 4, false, 0, CoinLayout::uniform}));
  EXPECT_THROW(parse_recipe("legs=5 colour=red"), std::invalid_argument);
  EXPECT_THROW(parse_recipe("arm=tree"), std::invalid_argument);
  EXPECT_THROW(parse_recipe("legs"), std::invalid_argument);
  std::mt19937_64 draw(1);
  const Instance instance = generate_recipe_instance(parse_recipe("legs=3"), 40, 100, draw);
  EXPECT_EQ(check_instance(instance), "");
  EXPECT_EQ(instance.city_count(), 40);
}

// The 64-bit search where the coins total 2^30 or more.
TEST(WillowPruned, MatchesTheWalkWithLargeCoins) {
  std::mt19937_64 rng(0x64b);
  for (const TreeShape shape : kAllShapes) {
    const Instance instance = generate_instance(shape, 400, CoinPattern::mixed, 1'000'000'000, rng);
    SolverOptions options = pruned_only();
    options.allow_32_bit = false;
    EXPECT_EQ(solve(instance, options), solve(instance, walk_only())) << to_string(shape);
    EXPECT_EQ(solve(instance, pruned_only()), solve(instance, walk_only())) << to_string(shape);
  }
}

// The official files' answers, every case by the pruned search alone.
std::string solve_file_pruned(const std::string& input_name) {
  std::string output;
  int case_number = 0;
  for (const Instance& instance : io::willow::parse_file(read_test_file(input_name))) {
    const SolveReport report = solve_with_report(instance, pruned_only());
    EXPECT_FALSE(report.walked) << input_name << " case " << case_number + 1;
    output += "Case #" + std::to_string(++case_number) + ": " + std::to_string(report.value) + "\n";
  }
  return output;
}

TEST(WillowPruned, GoldenFiles) {
  EXPECT_EQ(solve_file_pruned("willow/sample.in"), read_test_file("willow/sample.ans"));
  EXPECT_EQ(solve_file_pruned("willow/D-small-practice.in"),
            read_test_file("willow/D-small-practice.correct"));
  EXPECT_EQ(solve_file_pruned("willow/D-large-practice.in"),
            read_test_file("willow/D-large-practice.correct"));
}

// Past its budget the search gives the case to the walk: same answer, and the report says so.
TEST(WillowPruned, BudgetRunOutFallsBackOnTheWalk) {
  std::mt19937_64 rng(0xb0d);
  for (const TreeShape shape : kBenchShapes) {
    for (const std::int32_t cities : {9, 300}) {
      const Instance instance = generate_instance(shape, cities, CoinPattern::mixed, 10000, rng);
      const Coins expected = solve(instance, walk_only());
      SolverOptions tiny_budget;
      tiny_budget.pruned_budget_scale = 1e-9;
      const SolveReport fell_back = solve_with_report(instance, tiny_budget);
      EXPECT_TRUE(fell_back.walked) << to_string(shape) << ", N = " << cities;
      EXPECT_GT(fell_back.chain_steps, 0) << to_string(shape) << ", N = " << cities;
      EXPECT_EQ(fell_back.value, expected) << to_string(shape) << ", N = " << cities;
      if (cities <= 9) {
        EXPECT_EQ(fell_back.value, solve_brute_force(instance)) << to_string(shape);
      }
      const SolveReport pruned = solve_with_report(instance, pruned_only());
      EXPECT_FALSE(pruned.walked) << to_string(shape) << ", N = " << cities;
      EXPECT_EQ(pruned.value, expected) << to_string(shape) << ", N = " << cities;
    }
  }
}

// The default budget is large enough for the typical trees, where the search does far less work
// than the walk's N^2 start pairs.
TEST(WillowPruned, DefaultBudgetLeavesTypicalTreesToThePrunedSearch) {
  std::mt19937_64 rng(0xdef);
  for (const TreeShape shape : kBenchShapes) {
    const Instance instance = generate_instance(shape, 2000, CoinPattern::mixed, 10000, rng);
    const SolveReport report = solve_with_report(instance);
    EXPECT_FALSE(report.walked) << to_string(shape);
    EXPECT_LT(report.chain_steps, std::int64_t{2000} * 2000) << to_string(shape);
    EXPECT_GE(report.rows_whole, 1) << to_string(shape);
  }
}

// Neither the answer nor the work depends on the number of threads: batches are split the same
// way on any schedule, and each part's chains start afresh.
TEST(WillowPruned, AnswerIsTheSameOnOneAndTwoThreads) {
  std::mt19937_64 rng(0x2a);
  tbb::task_arena one_thread(1);
  tbb::task_arena two_threads(2);
  for (const TreeShape shape : kBenchShapes) {
    for (const CoinPattern pattern : kAllCoinPatterns) {
      const Instance instance = generate_instance(shape, 1500, pattern, 10000, rng);
      SolverOptions options = pruned_only();
      options.parallel_from_cities = 1;
      SolveReport on_one;
      SolveReport on_two;
      one_thread.execute([&] { on_one = solve_with_report(instance, options); });
      two_threads.execute([&] { on_two = solve_with_report(instance, options); });
      EXPECT_EQ(on_one.value, on_two.value) << describe(shape, pattern, 1500);
      EXPECT_EQ(on_one.chain_steps, on_two.chain_steps) << describe(shape, pattern, 1500);
      EXPECT_EQ(on_two.value, solve(instance, walk_only())) << describe(shape, pattern, 1500);
    }
  }
}

// The lower bound the search skips B starts by (LeaveAtOnceBound) never exceeds the pair's value,
// played out by the brute force, for every start pair of every shape and coin pattern up to 10
// cities; and it is not idle: it is finite for most pairs and equal to the value for some.
TEST(WillowPruned, LowerBoundsNeverExceedThePairsValue) {
  std::mt19937_64 rng(0x1b);
  std::int64_t pairs = 0;
  std::int64_t bounded = 0;
  std::int64_t tight = 0;
  for (const TreeShape shape : kBenchShapes) {
    for (const CoinPattern pattern : kAllCoinPatterns) {
      for (std::int32_t cities = 2; cities <= 10; ++cities) {
        const Instance instance = generate_instance(shape, cities, pattern, 20, rng);
        const detail::ArrivalTable<Coins> table(instance);
        detail::RowOrder<Coins> order(table);
        detail::LeaveAtOnceBound<Coins> bound(table);
        for (std::int32_t i = 0; i < cities; ++i) {
          order.reach(i, cities);
          // Made in two parts, as the search makes them batch by batch.
          bound.reach(order, i, cities / 2);
          bound.reach(order, i, cities);
          ASSERT_EQ(bound.made(i), cities);
          ASSERT_EQ(bound.made((i + 1) % cities), 0);
          for (std::int32_t j = 0; j < cities; ++j) {
            LiteralPosition start;
            start.a = i;
            start.b = j;
            start.coins_left = (1U << cities) - 1U;
            const Coins value = solve_brute_force_from(instance, start);
            ASSERT_LE(bound.at(j), value)
                << describe(shape, pattern, cities) << ": " << i << " against " << j;
            ++pairs;
            bounded += bound.at(j) > detail::kNoWay ? 1 : 0;
            tight += bound.at(j) == value ? 1 : 0;
          }
        }
      }
    }
  }
  EXPECT_GT(bounded, pairs / 2);
  EXPECT_GT(tight, pairs / 20);
}

// The halfway bounds (HalfwayBound, raised into LeaveAtOnceBound once a row's whole order is
// made) never exceed the pair's value, played out by the brute force, on trees of random recipes
// (spiders, brooms, caterpillars, combs of combs) and every shape of 2..12 cities with coins up
// to 1, 5, 20 and 10,000: about 80,000 start pairs. And they are not idle: where leaving at once
// falls short of the value, they raise the bound to it for some pairs.
TEST(WillowPruned, HalfwayBoundsNeverExceedThePairsValue) {
  std::mt19937_64 rng(0x4a1f);
  constexpr Coins kMaxCoins[] = {1, 5, 20, 10000};
  std::int64_t pairs = 0;
  std::int64_t raised_to_value = 0;
  for (int tree = 0; tree < 1200; ++tree) {
    const auto cities = static_cast<std::int32_t>(2 + tree % 11);
    const Coins max_coin = kMaxCoins[tree % 4];
    const TreeRecipe recipe = willow::testing::random_recipe(rng);
    const Instance instance = tree % 4 == 3
                                  ? generate_instance(kBenchShapes[tree % std::size(kBenchShapes)],
                                                      cities, CoinPattern::mixed, max_coin, rng)
                                  : generate_recipe_instance(recipe, cities, max_coin, rng);
    const detail::ArrivalTable<Coins> table(instance);
    detail::RowOrder<Coins> order(table);
    detail::LeaveAtOnceBound<Coins> leave_only(table);
    detail::LeaveAtOnceBound<Coins> bound(table);
    for (std::int32_t i = 0; i < cities; ++i) {
      leave_only.reach(order, i, cities - 1);  // not the whole order: no halfway bounds
      bound.reach(order, i, cities);
      ASSERT_TRUE(bound.whole(i));
      for (std::int32_t j = 0; j < cities; ++j) {
        LiteralPosition start;
        start.a = i;
        start.b = j;
        start.coins_left = (1U << cities) - 1U;
        const Coins value = solve_brute_force_from(instance, start);
        ASSERT_LE(bound.at(j), value) << describe(recipe) << ", N = " << cities << ", coins up to "
                                      << max_coin << ": " << i << " against " << j;
        ++pairs;
        const bool below = order.queue()[cities - 1] == j || leave_only.at(j) < value;
        raised_to_value += below && bound.at(j) == value ? 1 : 0;
      }
    }
  }
  EXPECT_GT(pairs, 50'000);
  EXPECT_GT(raised_to_value, pairs / 50);
}

// The search extends a row's bounds after the order has been another row's (the row came back
// from the queue of rows): the bounds are those of a fresh order, whatever the order held before
// and however far it was made for the row again.
TEST(WillowPruned, LowerBoundsDoNotDependOnTheOrdersPast) {
  std::mt19937_64 rng(0x5a1e);
  for (const TreeShape shape : kBenchShapes) {
    const std::int32_t cities = 3000;
    const Instance instance = generate_instance(shape, cities, CoinPattern::mixed, 1000, rng);
    const detail::ArrivalTable<Coins> table(instance);
    const std::int32_t row = static_cast<std::int32_t>(rng() % cities);
    detail::RowOrder<Coins> fresh_order(table);
    detail::LeaveAtOnceBound<Coins> fresh(table);
    fresh.reach(fresh_order, row, cities);
    // The row's bounds made for a batch, the order taken by another row in full, then the row's
    // bounds extended to the whole order from an order made only as far as its next batch.
    detail::RowOrder<Coins> order(table);
    detail::LeaveAtOnceBound<Coins> bound(table);
    order.reach(row, 100);
    bound.reach(order, row, 100);
    order.reach((row + 1) % cities, cities);
    order.reach(row, 200);
    bound.reach(order, row, cities);
    ASSERT_EQ(bound.made(row), cities);
    for (std::int32_t j = 0; j < cities; ++j)
      ASSERT_EQ(bound.at(j), fresh.at(j)) << to_string(shape) << ", row " << row << ", B on " << j;
  }
}

// Trees far beyond the walk's reach (N^2 = 4 * 10^10 start pairs) at a size a test can afford:
// the search's work is a small part of N^2, and it needs no N x N table.
TEST(WillowPruned, LargeTreesNeedFarLessThanQuadraticWork) {
#ifdef GAMEBATCH_SANITIZED
  constexpr std::int32_t kCities = 20'000;
#else
  constexpr std::int32_t kCities = 200'000;
#endif
  std::mt19937_64 rng(0x5a);
  for (const TreeShape shape : {TreeShape::star, TreeShape::binary}) {
    const Instance instance = generate_instance(shape, kCities, CoinPattern::mixed, 10000, rng);
    const SolveReport report = solve_with_report(instance);
    EXPECT_FALSE(report.walked) << to_string(shape);
    EXPECT_LT(static_cast<double>(report.chain_steps),
              0.05 * static_cast<double>(kCities) * kCities)
        << to_string(shape);
  }
}

}  // namespace
}  // namespace gamebatch::willow
