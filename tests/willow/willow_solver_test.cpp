// Golden tests of the fast willow solver on the official data, and its scale and schedule
// properties.
#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include "core/stop_request.hpp"
#include "core/willow/generators.hpp"
#include "core/willow/willow.hpp"
#include "io/willow/format.hpp"
#include "io/willow/problem.hpp"
#include "tests/test_data.hpp"

namespace gamebatch::willow {
namespace {

using gamebatch::testing::read_test_file;

std::string solve_file_text(const std::string& input_name) {
  const io::Problem& problem = io::willow::problem();
  std::string output;
  std::size_t case_number = 0;
  for (const auto& parsed : problem.parse(read_test_file(input_name))) {
    output += problem.answer_line(++case_number, parsed->solve());
  }
  return output;
}

TEST(WillowGolden, OfficialSample) {
  EXPECT_EQ(solve_file_text("willow/sample.in"), read_test_file("willow/sample.ans"));
}

TEST(WillowGolden, SmallPracticeFile) {
  EXPECT_EQ(solve_file_text("willow/D-small-practice.in"),
            read_test_file("willow/D-small-practice.correct"));
}

TEST(WillowGolden, LargePracticeFile) {
  EXPECT_EQ(solve_file_text("willow/D-large-practice.in"),
            read_test_file("willow/D-large-practice.correct"));
}

Instance path_of(std::int32_t cities, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Instance instance;
  std::uniform_int_distribution<Coins> coin(0, 10000);
  for (std::int32_t city = 0; city < cities; ++city)
    instance.coins.push_back(coin(rng));
  for (std::int32_t city = 0; city + 1 < cities; ++city)
    instance.roads.emplace_back(city, city + 1);
  return instance;
}

// The game does not care which end of a path is which.
TEST(WillowSolver, MirroredPathHasTheSameValue) {
  Instance path = path_of(300, 7);
  Instance mirrored = path;
  std::reverse(mirrored.coins.begin(), mirrored.coins.end());
  EXPECT_EQ(solve(path), solve(mirrored));
}

TEST(WillowSolver, RelabellingKeepsTheValue) {
  std::mt19937_64 rng(11);
  for (const TreeShape shape : kAllShapes) {
    const Instance instance = generate_instance(shape, 700, CoinPattern::mixed, 10000, rng);
    EXPECT_EQ(solve(instance), solve(to_official_labels(instance))) << to_string(shape);
  }
}

// Large cases run their start-city loop on several threads; the answer must not depend on the
// number of threads or the schedule.
TEST(WillowSolver, AnswerIsTheSameForOneAndTwoThreads) {
  std::mt19937_64 rng(5);
  for (const TreeShape shape : kAllShapes) {
    const Instance instance = generate_instance(shape, 1500, CoinPattern::mixed, 10000, rng);
    Coins one_thread = 0;
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
      one_thread = solve(instance);
    }
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    for (int repeat = 0; repeat < 3; ++repeat) {
      EXPECT_EQ(solve(instance), one_thread) << to_string(shape);
    }
  }
}

struct SmallStackRun {
  const Instance* instance;
  Coins value;
};

// A path of many thousands of cities has a game tree as deep as the path: the solver must not
// recurse that deep: 256 KiB of stack cannot hold a recursion over 5,000 levels of game states.
TEST(WillowSolver, LongPathNeedsNoDeepStack) {
  const Instance path = path_of(5000, 3);
  const Coins expected = solve(path);
  tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  SmallStackRun run{&path, -1};
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, 256 * 1024);
  pthread_t thread;
  ASSERT_EQ(pthread_create(
                &thread, &attributes,
                [](void* argument) -> void* {
                  auto* small_stack_run = static_cast<SmallStackRun*>(argument);
                  small_stack_run->value = solve(*small_stack_run->instance);
                  return nullptr;
                },
                &run),
            0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attributes);
  EXPECT_EQ(run.value, expected);
}

// Coins far above the official 10,000 must not overflow anything.
TEST(WillowSolver, LargeCoinsAgreeWithBruteForce) {
  std::mt19937_64 rng(13);
  for (int round = 0; round < 300; ++round) {
    const auto shape = kAllShapes[round % std::size(kAllShapes)];
    const auto cities = static_cast<std::int32_t>(1 + round % 8);
    const Instance instance =
        generate_instance(shape, cities, CoinPattern::mixed, 1'000'000'000, rng);
    ASSERT_EQ(solve(instance), solve_brute_force(instance)) << "round " << round;
  }
}

// A requested stop ends a solve within a few milliseconds of work with StopRequested, on the
// calling thread and on all threads, in the forest walk (a random tree) and in the pruned search (a
// spider of five combs, where it still goes along long chains for a tenth of a second: on a bare
// path it takes prefix sums, on a comb or a tripod its lower bounds skip most pairs, too quickly
// to poll for a stop); once the request is cleared, solving works again.
TEST(WillowSolver, StopRequestEndsTheSolvePromptly) {
  std::mt19937_64 rng(17);
  for (const bool pruned : {false, true}) {
    const Instance instance =
        pruned ? generate_instance(TreeShape::comb_spider, 30000, CoinPattern::mixed, 10000, rng)
               : generate_instance(TreeShape::random, 5000, CoinPattern::mixed, 10000, rng);
    for (const bool parallel : {false, true}) {
      SolverOptions options;
      options.allow_pruned = pruned;
      options.pruned_budget_scale = 1e12;
      options.parallel_from_cities = parallel ? 256 : std::numeric_limits<std::int32_t>::max();
      const std::string way =
          std::string(pruned ? "pruned" : "walk") + (parallel ? ", parallel" : "");
      const auto full_start = std::chrono::steady_clock::now();
      const Coins expected = solve(instance, options);
      const auto full = std::chrono::steady_clock::now() - full_start;
      {
        struct ClearStopRequest {
          ~ClearStopRequest() { clear_stop_request(); }
        } clear_afterwards;
        request_stop();
        const auto stopped_start = std::chrono::steady_clock::now();
        EXPECT_THROW(solve(instance, options), StopRequested) << way;
        const auto stopped = std::chrono::steady_clock::now() - stopped_start;
        // The first poll comes after some thousands of states or path steps, a solve takes
        // millions: a third of the full time leaves room for a busy machine.
        EXPECT_LT(stopped, full / 3) << way;
      }
      EXPECT_EQ(solve(instance, options), expected) << way;
    }
  }
}

TEST(WillowSolver, SingleCityGivesItsCoinsToA) {
  EXPECT_EQ(solve(Instance{{42}, {}}), 42);
}

}  // namespace
}  // namespace gamebatch::willow
