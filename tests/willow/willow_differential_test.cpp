// willow: the brute-force oracle on hand-checked cases, then the fast solver against the oracle
// on many random trees, the generators and the official relabelling.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/willow/generators.hpp"
#include "core/willow/willow.hpp"
#include "tests/willow/path_like_trees.hpp"
#include "tests/willow/random_recipes.hpp"

namespace gamebatch::willow {
namespace {

Instance make_instance(std::vector<Coins> coins,
                       std::vector<std::pair<std::int32_t, std::int32_t>> roads) {
  Instance instance;
  instance.coins = std::move(coins);
  instance.roads = std::move(roads);
  return instance;
}

// The official format names, for each city i < N, the other end j_i of one road (1-based).
Instance from_official(std::vector<Coins> coins, const std::vector<std::int32_t>& road_ends) {
  std::vector<std::pair<std::int32_t, std::int32_t>> roads;
  for (std::size_t i = 0; i < road_ends.size(); ++i) {
    roads.emplace_back(static_cast<std::int32_t>(i), road_ends[i] - 1);
  }
  return make_instance(std::move(coins), std::move(roads));
}

std::string describe(const Instance& instance) {
  std::ostringstream text;
  text << "N=" << instance.coins.size() << " coins={";
  for (std::size_t city = 0; city < instance.coins.size(); ++city) {
    text << (city == 0 ? "" : ", ") << instance.coins[city];
  }
  text << "} roads={";
  for (std::size_t road = 0; road < instance.roads.size(); ++road) {
    text << (road == 0 ? "" : ", ") << "{" << instance.roads[road].first << ", "
         << instance.roads[road].second << "}";
  }
  text << "}";
  return text.str();
}

std::vector<std::int32_t> degrees(const Instance& instance) {
  std::vector<std::int32_t> degree(instance.coins.size(), 0);
  for (const auto& [from, to] : instance.roads) {
    ++degree[static_cast<std::size_t>(from)];
    ++degree[static_cast<std::size_t>(to)];
  }
  return degree;
}

// ---------------------------------------------------------------------------------------------
// The oracle on cases worked out by hand from the rules.

TEST(WillowBruteForce, SingleCityGoesToA) {
  // Both start on the only city; A collects first, B gets nothing, nobody can move.
  EXPECT_EQ(solve_brute_force(make_instance({7}, {})), 7);
  EXPECT_EQ(solve_brute_force(make_instance({0}, {})), 0);
}

TEST(WillowBruteForce, TwoCities) {
  // A on 0: B on 0 lets A walk to 1 and take 3 as well (8); B on 1 takes 3 herself while A's
  // forced walk into 1 finds it empty (5 - 3 = 2). So A on 0 is worth 2.
  // A on 1: B on 0 takes 5 (3 - 5 = -2). Best for A: 2.
  EXPECT_EQ(solve_brute_force(make_instance({5, 3}, {{0, 1}})), 2);
  EXPECT_EQ(solve_brute_force(make_instance({5, 3}, {{1, 0}})), 2);
}

TEST(WillowBruteForce, PathOfThreeWithRichMiddle) {
  // A on the middle takes 10; whatever B does, A also gets one end (B on an end: A walks to the
  // other end). 11 - 1 = 10. A on an end loses the middle to B starting there.
  EXPECT_EQ(solve_brute_force(make_instance({1, 10, 1}, {{0, 1}, {1, 2}})), 10);
}

TEST(WillowBruteForce, PathOfThreeWithRichEnd) {
  // Path 4 - 1 - 2. A on the 4: B on the 1 takes it and walks on to the 2, A's walk into the
  // middle finds it empty: 4 - 3 = 1 (B elsewhere does worse). A on the middle: B on the 4 wins
  // it, A gets 1 + 2: -1. A on the 2: B on the middle walks to the 4 first: 2 - 5 = -3.
  EXPECT_EQ(solve_brute_force(make_instance({4, 1, 2}, {{0, 1}, {1, 2}})), 1);
}

TEST(WillowBruteForce, StarOfFour) {
  // Centre 0 (1 coin), leaves with 5, 6, 7. A on the 7-leaf: she walks to the centre first and
  // takes 1 there unless B started on it; B's best is to start on the centre, take 1 and run to
  // the 6, leaving A the 5: 7 + 5 - (1 + 6) = 5. A on the centre can be held to -5 (B starts on
  // the 7 and later also takes a second leaf), A on a smaller leaf to at most 3.
  EXPECT_EQ(solve_brute_force(make_instance({1, 5, 6, 7}, {{0, 1}, {0, 2}, {0, 3}})), 5);
}

// The official sample (samples/willow/sample.in) as instances, with its expected answers.
std::vector<std::pair<Instance, Coins>> official_samples() {
  return {
      {from_official({1000, 200, 1000}, {2, 3}), 200},
      {from_official({8, 0, 8, 0, 0, 0, 0, 10}, {2, 5, 4, 5, 6, 7, 8}), -2},
      {from_official({150, 200, 0, 5000, 0, 100, 0, 0, 0, 10000}, {10, 3, 8, 5, 8, 7, 8, 9, 10}),
       5100}};
}

TEST(WillowBruteForce, OfficialSamples) {
  for (const auto& [instance, answer] : official_samples()) {
    EXPECT_EQ(solve_brute_force(instance), answer) << describe(instance);
  }
}

TEST(WillowBruteForce, DoesNotDependOnRoadOrderOrOrientation) {
  const Instance forward = make_instance({3, 0, 9, 4, 2}, {{0, 1}, {1, 2}, {1, 3}, {3, 4}});
  const Instance shuffled = make_instance({3, 0, 9, 4, 2}, {{4, 3}, {3, 1}, {2, 1}, {1, 0}});
  EXPECT_EQ(solve_brute_force(forward), solve_brute_force(shuffled));
}

TEST(WillowBruteForce, RejectsTooLargeAndInvalidInstances) {
  std::mt19937_64 rng(13);
  EXPECT_THROW(
      solve_brute_force(generate_instance(TreeShape::path, 13, CoinPattern::mixed, 5, rng)),
      std::invalid_argument);
  EXPECT_NO_THROW(
      solve_brute_force(generate_instance(TreeShape::star, 12, CoinPattern::mixed, 5, rng)));
  EXPECT_THROW(solve_brute_force(make_instance({1, 2, 3}, {{0, 1}})), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// The fast solver against the oracle.

// Every way solve() can compute: the pruned search (with a budget it never runs out of) and the
// forest walk, each 32-bit (the walk with AVX2 where the CPU has it, or scalar) and 64-bit, each on
// the calling thread and on all threads (which small trees only take when told to).
std::vector<std::pair<std::string, SolverOptions>> every_way() {
  std::vector<std::pair<std::string, SolverOptions>> ways;
  for (const bool parallel : {false, true}) {
    const std::string where = parallel ? ", parallel" : "";
    SolverOptions options;
    options.parallel_from_cities = parallel ? 1 : std::numeric_limits<std::int32_t>::max();
    options.pruned_budget_scale = 1e12;
    ways.emplace_back("pruned, 32-bit" + where, options);
    options.allow_32_bit = false;
    ways.emplace_back("pruned, 64-bit" + where, options);
    options.allow_pruned = false;
    options.allow_32_bit = true;
    ways.emplace_back("walk, 32-bit, AVX2 if the CPU has it" + where, options);
    options.allow_avx2 = false;
    ways.emplace_back("walk, 32-bit, scalar" + where, options);
    options.allow_32_bit = false;
    ways.emplace_back("walk, 64-bit" + where, options);
  }
  return ways;
}

// solve() the way `options` says, checking that the pruned search answered where it was asked
// to (its budget is never reached in these tests) and the walk elsewhere.
Coins solve_checked(const Instance& instance, const SolverOptions& options) {
  const SolveReport report = solve_with_report(instance, options);
  EXPECT_EQ(report.walked, !options.allow_pruned);
  return report.value;
}

TEST(WillowDifferential, FastSolverMatchesBruteForceOnEveryShapeAndCoinPattern) {
  // Sizes 1..9 in bulk; 10..12 (the oracle's limit, still about 1 ms a tree) more sparingly.
  // About 17,000 trees, under 2 s in a Release build.
  constexpr std::int32_t kBulkMaxCities = 9;
  constexpr std::int32_t kMaxCities = 12;
  constexpr int kBulkTreesPerSize = 100;
  constexpr int kLargeTreesPerSize = 15;
  constexpr Coins kMaxCoinChoices[] = {1, 4, 20, 10000};
  constexpr int kMaxReportedFailures = 10;

  const auto ways = every_way();
  int checked = 0;
  int failures = 0;
  std::uint64_t combination = 0;
  for (const TreeShape shape : kAllShapes) {
    for (const CoinPattern pattern : kAllCoinPatterns) {
      ++combination;
      std::mt19937_64 rng(0x5eed'0000 + combination);
      for (std::int32_t city_count = 1; city_count <= kMaxCities; ++city_count) {
        const int trees = city_count <= kBulkMaxCities ? kBulkTreesPerSize : kLargeTreesPerSize;
        for (int tree = 0; tree < trees; ++tree) {
          const Coins max_coin = kMaxCoinChoices[tree % std::size(kMaxCoinChoices)];
          const Instance instance = generate_instance(shape, city_count, pattern, max_coin, rng);
          const Coins expected = solve_brute_force(instance);
          ++checked;
          for (const auto& [way, options] : ways) {
            const Coins actual = solve_checked(instance, options);
            if (actual != expected && ++failures <= kMaxReportedFailures) {
              ADD_FAILURE() << "shape " << to_string(shape) << ", coins " << to_string(pattern)
                            << ", " << way << ": solve() = " << actual
                            << ", brute force = " << expected << "\n  " << describe(instance);
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(failures, 0) << "mismatches among " << checked << " instances";
  constexpr int kCombinations =
      static_cast<int>(std::size(kAllShapes) * std::size(kAllCoinPatterns));
  EXPECT_EQ(checked, kCombinations * (kBulkMaxCities * kBulkTreesPerSize +
                                      (kMaxCities - kBulkMaxCities) * kLargeTreesPerSize));
}

// The shapes beyond gen's (the Pruefer tree, the comb, the tripod and the spiders the search for
// slow trees found) and trees of random recipes of its families, every way against the brute
// force: sizes 1..12, many seeds, every coin pattern. About 6,000 trees.
TEST(WillowDifferential, EveryWayMatchesBruteForceOnTheSlowShapes) {
  constexpr std::int32_t kMaxCities = 12;
  constexpr Coins kMaxCoinChoices[] = {1, 4, 20, 10000};
  const auto ways = every_way();
  int checked = 0;
  std::mt19937_64 rng(0x51a0);
  const auto check = [&](const Instance& instance, const std::string& what) {
    const Coins expected = solve_brute_force(instance);
    ++checked;
    for (const auto& [way, options] : ways)
      ASSERT_EQ(solve_checked(instance, options), expected) << what << ", " << way;
  };
  for (const TreeShape shape : kBenchShapes) {
    if (std::find(std::begin(kAllShapes), std::end(kAllShapes), shape) != std::end(kAllShapes))
      continue;
    for (const CoinPattern pattern : kAllCoinPatterns) {
      for (std::int32_t cities = 1; cities <= kMaxCities; ++cities) {
        for (int tree = 0; tree < 30; ++tree) {
          const Coins max_coin = kMaxCoinChoices[tree % std::size(kMaxCoinChoices)];
          check(generate_instance(shape, cities, pattern, max_coin, rng),
                std::string(to_string(shape)) + ", " + std::string(to_string(pattern)));
        }
      }
    }
  }
  for (int tree = 0; tree < 1500; ++tree) {
    const TreeRecipe recipe =
        willow::testing::random_recipe(rng, {6, 4, 5});  // small trees: smaller parts
    const auto cities = static_cast<std::int32_t>(1 + tree % kMaxCities);
    check(generate_recipe_instance(recipe, cities, kMaxCoinChoices[tree % 4], rng),
          describe(recipe) + ", N = " + std::to_string(cities));
  }
  EXPECT_GT(checked, 5000);
}

// Every tree of up to 8 cities (as every way of hanging city v off one of the cities before it:
// each unlabelled tree many times over, in many labellings), with no coins, equal coins and
// drawn coins, against the oracle.
TEST(WillowDifferential, EveryWayMatchesBruteForceOnEveryTreeUpTo8Cities) {
  constexpr std::int32_t kMaxCities = 8;
  const auto ways = every_way();
  std::mt19937_64 rng(0xa11);
  int checked = 0;
  int failures = 0;
  for (std::int32_t city_count = 1; city_count <= kMaxCities; ++city_count) {
    // parent[v] < v for v >= 1, counted like an odometer: (city_count - 1)! trees.
    std::vector<std::int32_t> parent(static_cast<std::size_t>(city_count), 0);
    for (;;) {
      Instance instance;
      for (std::int32_t city = 1; city < city_count; ++city)
        instance.roads.emplace_back(parent[static_cast<std::size_t>(city)], city);
      for (const CoinPattern pattern : kAllCoinPatterns) {
        instance.coins.assign(static_cast<std::size_t>(city_count), 0);
        for (Coins& coins : instance.coins) {
          coins = pattern == CoinPattern::all_zero    ? 0
                  : pattern == CoinPattern::all_equal ? 3
                                                      : static_cast<Coins>(rng() % 21);
        }
        const Coins expected = solve_brute_force(instance);
        ++checked;
        for (const auto& [way, options] : ways) {
          const Coins actual = solve_checked(instance, options);
          if (actual != expected && ++failures <= 10) {
            ADD_FAILURE() << way << ": solve() = " << actual << ", brute force = " << expected
                          << "\n  " << describe(instance);
          }
        }
      }
      std::int32_t city = city_count - 1;
      while (city >= 1 && parent[static_cast<std::size_t>(city)] == city - 1)
        parent[static_cast<std::size_t>(city--)] = 0;
      if (city < 1)
        break;
      ++parent[static_cast<std::size_t>(city)];
    }
  }
  EXPECT_EQ(failures, 0) << "mismatches among " << checked << " instances";
  EXPECT_EQ(checked, 3 * (1 + 1 + 2 + 6 + 24 + 120 + 720 + 5040));
}

// Paths (which the pruned search solves by prefix sums) and trees of long paths: every path of
// 1..12 cities with many coin draws, and Pruefer trees, caterpillars, brooms, paths with a few
// short branches, paths with one long hanging chain and leafy spines of 4..12 cities, every way
// against the oracle. About 5,500 trees.
TEST(WillowDifferential, EveryWayMatchesBruteForceOnPathsAndPathLikeTrees) {
  constexpr std::int32_t kMaxCities = 12;
  constexpr Coins kMaxCoinChoices[] = {0, 1, 4, 20, 10000};
  const auto ways = every_way();
  std::mt19937_64 rng(0x9a7);
  int checked = 0;
  int failures = 0;
  const auto check = [&](const Instance& instance, const std::string& kind) {
    const Coins expected = solve_brute_force(instance);
    ++checked;
    for (const auto& [way, options] : ways) {
      const Coins actual = solve_checked(instance, options);
      if (actual != expected && ++failures <= 10) {
        ADD_FAILURE() << kind << ", " << way << ": solve() = " << actual
                      << ", brute force = " << expected << "\n  " << describe(instance);
      }
    }
  };
  for (std::int32_t city_count = 1; city_count <= kMaxCities; ++city_count) {
    const int trees = city_count <= 9 ? 120 : 40;
    for (int tree = 0; tree < trees; ++tree) {
      const Coins max_coin = kMaxCoinChoices[tree % std::size(kMaxCoinChoices)];
      check(generate_instance(TreeShape::path, city_count, CoinPattern::mixed, max_coin, rng),
            "path");
      if (city_count < 4 || tree % 2 == 1)
        continue;
      check(generate_instance(TreeShape::prufer, city_count, CoinPattern::mixed, max_coin, rng),
            "prufer");
      check(
          generate_instance(TreeShape::caterpillar, city_count, CoinPattern::mixed, max_coin, rng),
          "caterpillar");
      check(generate_instance(TreeShape::broom, city_count, CoinPattern::mixed, max_coin, rng),
            "broom");
      check(testing::path_like_instance(testing::PathLike::few_branches, city_count, max_coin, rng),
            "path with a few branches");
      check(
          testing::path_like_instance(testing::PathLike::hanging_chain, city_count, max_coin, rng),
          "path with a hanging chain");
      check(testing::path_like_instance(testing::PathLike::leafy_spine, city_count, max_coin, rng),
            "leafy spine");
    }
  }
  EXPECT_EQ(failures, 0) << "mismatches among " << checked << " instances";
}

// The 32-bit walk is used while the coins total less than 2^30, where every value it forms is
// the largest; at 2^30 the 64-bit walk takes over.
TEST(WillowDifferential, FastSolverMatchesBruteForceAtTheEdgeOf32Bits) {
  std::mt19937_64 rng(0x32b1);
  for (const Coins total : {(Coins{1} << 30) - 1, Coins{1} << 30}) {
    for (int round = 0; round < 200; ++round) {
      const auto shape = kAllShapes[round % std::size(kAllShapes)];
      const auto cities = static_cast<std::int32_t>(2 + round % 7);
      Instance instance = generate_instance(shape, cities, CoinPattern::mixed, 1000, rng);
      // Scale the coins to the total, the rounding's remainder on a random city.
      const Coins drawn = std::accumulate(instance.coins.begin(), instance.coins.end(), Coins{1});
      Coins sum = 0;
      for (Coins& coins : instance.coins) {
        coins = coins * total / drawn;
        sum += coins;
      }
      instance.coins[rng() % instance.coins.size()] += total - sum;
      const Coins expected = solve_brute_force(instance);
      for (const auto& [way, options] : every_way()) {
        ASSERT_EQ(solve_checked(instance, options), expected)
            << "total " << total << ", " << way << ": " << describe(instance);
      }
    }
  }
}

// Beyond the oracle's reach, every way of computing against every other.
TEST(WillowDifferential, EveryWayOfSolvingAgreesOnLargeTrees) {
  std::mt19937_64 rng(0xb16);
  const auto ways = every_way();
  for (const std::int32_t cities : {40, 300, 1200}) {
    for (const TreeShape shape : kAllShapes) {
      const Instance instance =
          generate_instance(shape, cities, CoinPattern::mixed, cities == 40 ? 30 : 10000, rng);
      const Coins expected = solve(instance, ways.back().second);
      for (const auto& [way, options] : ways) {
        EXPECT_EQ(solve_checked(instance, options), expected)
            << way << ", " << to_string(shape) << ", N = " << cities;
      }
    }
  }
}

TEST(WillowDifferential, FastSolverMatchesBruteForceOnOfficialSamples) {
  for (const auto& [instance, answer] : official_samples()) {
    EXPECT_EQ(solve(instance), answer) << describe(instance);
  }
}

// An arbitrary tree of 1..max_cities cities: city v > 0 hangs off a city chosen among 0..v-1,
// then the labels are permuted (every labelled tree can come out). Built from plain integers so
// that RapidCheck shrinks towards small, simply labelled trees.
Instance arbitrary_tree(std::int32_t max_cities, Coins max_coin) {
  const auto city_count = *rc::gen::inRange<std::int32_t>(1, max_cities + 1);
  std::vector<std::int32_t> label(static_cast<std::size_t>(city_count));
  for (std::int32_t city = 0; city < city_count; ++city) {
    label[static_cast<std::size_t>(city)] = city;
  }
  for (std::int32_t city = 0; city + 1 < city_count; ++city) {
    const auto other = *rc::gen::inRange<std::int32_t>(city, city_count);
    std::swap(label[static_cast<std::size_t>(city)], label[static_cast<std::size_t>(other)]);
  }
  Instance instance;
  for (std::int32_t city = 1; city < city_count; ++city) {
    const auto parent = *rc::gen::inRange<std::int32_t>(0, city);
    instance.roads.emplace_back(label[static_cast<std::size_t>(parent)],
                                label[static_cast<std::size_t>(city)]);
  }
  instance.coins = *rc::gen::container<std::vector<Coins>>(
      static_cast<std::size_t>(city_count), rc::gen::inRange<Coins>(0, max_coin + 1));
  return instance;
}

RC_GTEST_PROP(WillowProperty, FastSolverEqualsBruteForce, ()) {
  const Instance instance = arbitrary_tree(8, 20);
  RC_LOG() << describe(instance) << "\n";
  RC_ASSERT(solve(instance) == solve_brute_force(instance));
}

RC_GTEST_PROP(WillowProperty, PrunedSearchEqualsBruteForce, ()) {
  const Instance instance = arbitrary_tree(10, 20);
  RC_LOG() << describe(instance) << "\n";
  SolverOptions options;
  options.pruned_budget_scale = 1e12;
  const SolveReport report = solve_with_report(instance, options);
  RC_ASSERT(!report.walked);
  RC_ASSERT(report.value == solve_brute_force(instance));
}

RC_GTEST_PROP(WillowProperty, OfficialLabelsKeepTheValueAndPointUpwards, ()) {
  const Instance instance = arbitrary_tree(8, 20);
  const Instance official = to_official_labels(instance);
  RC_LOG() << describe(instance) << "\n -> " << describe(official) << "\n";
  RC_ASSERT(check_instance(official).empty());
  RC_ASSERT(official.roads.size() == instance.roads.size());
  for (std::size_t i = 0; i < official.roads.size(); ++i) {
    RC_ASSERT(official.roads[i].first == static_cast<std::int32_t>(i));
    RC_ASSERT(official.roads[i].second > official.roads[i].first);
  }
  RC_ASSERT(solve_brute_force(official) == solve_brute_force(instance));
}

// ---------------------------------------------------------------------------------------------
// Relabelling into the official format.

TEST(WillowOfficialLabels, SingleCityHasNoRoads) {
  const Instance official = to_official_labels(make_instance({42}, {}));
  EXPECT_EQ(official.coins, std::vector<Coins>{42});
  EXPECT_TRUE(official.roads.empty());
}

TEST(WillowOfficialLabels, EveryCityButTheLastHasALargerNeighbourAndCoinsTravelWithCities) {
  std::mt19937_64 rng(2014);
  for (const TreeShape shape : kAllShapes) {
    for (std::int32_t city_count = 1; city_count <= 60; ++city_count) {
      const Instance instance = generate_instance(shape, city_count, CoinPattern::mixed, 1000, rng);
      const Instance official = to_official_labels(instance);
      ASSERT_EQ(check_instance(official), "") << describe(official);
      ASSERT_EQ(official.roads.size(), static_cast<std::size_t>(city_count - 1));
      for (std::size_t i = 0; i < official.roads.size(); ++i) {
        EXPECT_EQ(official.roads[i].first, static_cast<std::int32_t>(i));
        EXPECT_GT(official.roads[i].second, official.roads[i].first);
      }
      // Same multiset of (coins, degree): a relabelling, not some other tree.
      std::multiset<std::pair<Coins, std::int32_t>> before;
      std::multiset<std::pair<Coins, std::int32_t>> after;
      const auto degree_before = degrees(instance);
      const auto degree_after = degrees(official);
      for (std::size_t city = 0; city < instance.coins.size(); ++city) {
        before.emplace(instance.coins[city], degree_before[city]);
        after.emplace(official.coins[city], degree_after[city]);
      }
      EXPECT_EQ(before, after) << describe(instance);
    }
  }
}

TEST(WillowOfficialLabels, OfficialInstancesKeepTheirValue) {
  const Instance sample = from_official({8, 0, 8, 0, 0, 0, 0, 10}, {2, 5, 4, 5, 6, 7, 8});
  EXPECT_EQ(solve_brute_force(to_official_labels(sample)), -2);
  const Instance reversed_path = make_instance({4, 1, 2}, {{2, 1}, {1, 0}});
  EXPECT_EQ(solve_brute_force(to_official_labels(reversed_path)), 1);
}

TEST(WillowOfficialLabels, RejectsAnInvalidInstance) {
  EXPECT_THROW(to_official_labels(make_instance({1, 2, 3}, {{0, 1}, {0, 1}})),
               std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Instance checking.

TEST(WillowCheckInstance, AcceptsTrees) {
  EXPECT_EQ(check_instance(make_instance({0}, {})), "");
  EXPECT_EQ(check_instance(make_instance({1, 2, 3}, {{2, 1}, {0, 1}})), "");
}

TEST(WillowCheckInstance, ReportsProblems) {
  // No cities at all.
  EXPECT_NE(check_instance(make_instance({}, {})), "");
  // A triangle: one road too many.
  EXPECT_NE(check_instance(make_instance({1, 1, 1}, {{0, 1}, {1, 2}, {2, 0}})), "");
  // A triangle plus a lone city: the right number of roads, but a cycle and two components.
  EXPECT_EQ(check_instance(make_instance({1, 1, 1, 1}, {{0, 1}, {1, 2}, {2, 0}})),
            "road 2 (2-0) closes a cycle (the roads do not form a tree)");
  // The same road twice.
  EXPECT_EQ(check_instance(make_instance({1, 1, 1}, {{0, 1}, {1, 0}})),
            "road 1 (1-0) closes a cycle (the roads do not form a tree)");
  // Two components of two cities plus one road too few.
  EXPECT_NE(check_instance(make_instance({1, 1, 1, 1}, {{0, 1}, {2, 3}})), "");
  // Negative coins.
  EXPECT_NE(check_instance(make_instance({1, -1, 1}, {{0, 1}, {1, 2}})), "");
  // A self loop, an endpoint out of range, a negative endpoint.
  EXPECT_EQ(check_instance(make_instance({1, 1}, {{1, 1}})), "road 0 (1-1) is a self loop");
  EXPECT_EQ(check_instance(make_instance({1, 1}, {{0, 2}})),
            "road 0 (0-2) names a city out of range");
  EXPECT_EQ(check_instance(make_instance({1, 1}, {{-1, 0}})),
            "road 0 (-1-0) names a city out of range");
}

// ---------------------------------------------------------------------------------------------
// Generators.

TEST(WillowGenerators, EveryShapeAndPatternGivesAValidTreeWithinTheCoinLimit) {
  std::mt19937_64 rng(7);
  for (const TreeShape shape : kBenchShapes) {
    for (const CoinPattern pattern : kAllCoinPatterns) {
      for (std::int32_t city_count = 1; city_count <= 40; ++city_count) {
        const Instance instance = generate_instance(shape, city_count, pattern, 100, rng);
        ASSERT_EQ(instance.city_count(), city_count);
        ASSERT_EQ(check_instance(instance), "")
            << to_string(shape) << "/" << to_string(pattern) << ": " << describe(instance);
        for (const Coins amount : instance.coins) {
          EXPECT_LE(amount, 100);
        }
        if (pattern == CoinPattern::all_zero) {
          EXPECT_EQ(std::count(instance.coins.begin(), instance.coins.end(), 0), city_count);
        }
        if (pattern == CoinPattern::all_equal) {
          EXPECT_EQ(std::count(instance.coins.begin(), instance.coins.end(), instance.coins[0]),
                    city_count);
        }
      }
    }
  }
}

TEST(WillowGenerators, ShapesHaveTheirDegrees) {
  std::mt19937_64 rng(11);
  for (std::int32_t city_count = 3; city_count <= 30; ++city_count) {
    const auto max_degree = [&](TreeShape shape) {
      const auto degree = degrees(generate_instance(shape, city_count, CoinPattern::mixed, 9, rng));
      return *std::max_element(degree.begin(), degree.end());
    };
    EXPECT_EQ(max_degree(TreeShape::path), 2);
    EXPECT_EQ(max_degree(TreeShape::star), city_count - 1);
    EXPECT_LE(max_degree(TreeShape::binary), 3);
  }
}

TEST(WillowGenerators, SameSeedSameInstance) {
  for (const TreeShape shape : kAllShapes) {
    std::mt19937_64 first(99);
    std::mt19937_64 second(99);
    const Instance a = generate_instance(shape, 25, CoinPattern::mixed, 10000, first);
    const Instance b = generate_instance(shape, 25, CoinPattern::mixed, 10000, second);
    EXPECT_EQ(a.coins, b.coins);
    EXPECT_EQ(a.roads, b.roads);
  }
}

TEST(WillowGenerators, FixedSeedGivesTheseInstancesOnEveryPlatform) {
  // Pinned output (recorded before the draws moved to core/random.hpp): a change of the
  // generator, or a platform-dependent draw, shows up here and would change every benchmark file
  // named by its seed.
  std::mt19937_64 rng(1);
  const Instance mixed = generate_instance(TreeShape::random, 8, CoinPattern::mixed, 100, rng);
  EXPECT_EQ(mixed.coins, (std::vector<Coins>{47, 27, 88, 86, 75, 93, 28, 45}));
  EXPECT_EQ(mixed.roads, (std::vector<std::pair<std::int32_t, std::int32_t>>{
                             {7, 1}, {4, 6}, {2, 3}, {0, 2}, {7, 5}, {6, 2}, {0, 5}}));
  const Instance caterpillar =
      generate_instance(TreeShape::caterpillar, 6, CoinPattern::all_equal, 1000, rng);
  EXPECT_EQ(caterpillar.coins, (std::vector<Coins>(6, 276)));
  EXPECT_EQ(caterpillar.roads, (std::vector<std::pair<std::int32_t, std::int32_t>>{
                                   {0, 1}, {0, 5}, {2, 0}, {4, 0}, {3, 0}}));
}

TEST(WillowGenerators, RejectsBadArguments) {
  std::mt19937_64 rng(1);
  EXPECT_THROW(generate_instance(TreeShape::path, 0, CoinPattern::mixed, 5, rng),
               std::invalid_argument);
  EXPECT_THROW(generate_instance(TreeShape::path, 3, CoinPattern::mixed, -1, rng),
               std::invalid_argument);
}

TEST(WillowGenerators, NamesAreDistinct) {
  std::set<std::string_view> names;
  for (const TreeShape shape : kAllShapes) {
    names.insert(to_string(shape));
  }
  for (const CoinPattern pattern : kAllCoinPatterns) {
    names.insert(to_string(pattern));
  }
  EXPECT_EQ(names.size(), std::size(kAllShapes) + std::size(kAllCoinPatterns));
}

}  // namespace
}  // namespace gamebatch::willow
