// Case::estimated_solve_microseconds of every game, through the cases the games' own parsers make:
// monotone in size, tiny cases below the answer cache's threshold, big ones far above it, and
// doublemove's table build counted whenever solve() builds a table.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/state_table.hpp"
#include "io/doublemove/format.hpp"
#include "io/files/generate.hpp"
#include "io/problem.hpp"

namespace gamebatch::io {
namespace {

// The estimate of every case of a generated file, parsed by the game's registered Problem.
std::vector<double> estimates(const GameOptions& options, std::int64_t cases = 1,
                              std::uint64_t seed = 1) {
  const Problem* problem = find_problem(game_name(options));
  if (problem == nullptr)
    throw std::runtime_error("game not registered");
  std::vector<double> costs;
  for (const auto& each : problem->parse(generate_file_text(options, seed, 1, cases)))
    costs.push_back(each->estimated_solve_microseconds());
  return costs;
}

double estimate(const GameOptions& options) {
  return estimates(options).front();
}

// A case of `text` (one case, no count) in `game`'s format.
double estimate_of(std::string_view game, const std::string& text) {
  return find_problem(game)->parse("1\n" + text).front()->estimated_solve_microseconds();
}

WillowGenOptions willow_of(std::int64_t cities) {
  WillowGenOptions options;
  options.cities = {cities, cities};
  options.shape = gamebatch::willow::TreeShape::random;
  return options;
}

WallgameGenOptions wallgame_of(std::int64_t height, std::int64_t width) {
  WallgameGenOptions options;
  options.height = {height, height};
  options.width = {width, width};
  return options;
}

BoigameGenOptions boigame_of(std::int64_t n, gamebatch::boigame::BoardShape shape) {
  BoigameGenOptions options;
  options.size = {n, n};
  options.shape = shape;
  options.placement = gamebatch::boigame::Placement::corners;
  return options;
}

// k = 0: the case needs n's state table.
DoublemoveGenOptions doublemove_of(std::int64_t n, std::int64_t declarations = 0) {
  DoublemoveGenOptions options;
  options.n = {n, n};
  options.declarations = IntRange{declarations, declarations};
  return options;
}

TEST(CostEstimate, EveryEstimateIsPositiveAndFinite) {
  for (const GameOptions& options :
       {GameOptions{WillowGenOptions{}}, GameOptions{DoublemoveGenOptions{}},
        GameOptions{WallgameGenOptions{}}, GameOptions{BoigameGenOptions{}}}) {
    for (const double cost : estimates(options, 200)) {
      EXPECT_GT(cost, 0.0) << game_name(options);
      EXPECT_LT(cost, 1e12) << game_name(options);
    }
  }
}

TEST(CostEstimate, WillowGrowsWithTheCitiesAndABigTreeIsDear) {
  double previous = 0;
  for (const std::int64_t cities : {1, 2, 3, 5, 10, 30, 100, 300, 1000, 4000}) {
    const double cost = estimate(willow_of(cities));
    EXPECT_GT(cost, previous) << cities << " cities";
    previous = cost;
  }
  EXPECT_LT(estimate(willow_of(2)), 1.0);
  // Measured 2 to 60 ms on one core by shape (the pruned search; a path is the slowest).
  EXPECT_GT(estimate(willow_of(4000)), 5'000.0);
  // The shape does not change the estimate: it is the cities alone.
  WillowGenOptions path = willow_of(500);
  path.shape = gamebatch::willow::TreeShape::path;
  EXPECT_EQ(estimate(path), estimate(willow_of(500)));
}

TEST(CostEstimate, WallgameGrowsWithEitherSideAndATinyBoardIsCheap) {
  for (const std::int64_t width : {1, 2, 5, 50, 500}) {
    double previous = 0;
    for (const std::int64_t height : {1, 2, 3, 10, 100, 1000}) {
      const double cost = estimate(wallgame_of(height, width));
      EXPECT_GT(cost, previous) << height << " x " << width;
      previous = cost;
    }
  }
  for (const std::int64_t height : {1, 2, 5, 50, 500}) {
    double previous = 0;
    for (const std::int64_t width : {1, 2, 3, 10, 100, 1000}) {
      const double cost = estimate(wallgame_of(height, width));
      EXPECT_GT(cost, previous) << height << " x " << width;
      previous = cost;
    }
  }
  EXPECT_LT(estimate_of("wallgame", "2 2\n12\n34\n"), 5.0);
  EXPECT_LT(estimate_of("wallgame", "1 1\n7\n"), 1.0);
  EXPECT_GT(estimate(wallgame_of(2000, 2000)), 100'000.0);  // measured about 1.2 s
  // The interval DP is quadratic in the width: a wide board costs more than a tall one.
  EXPECT_GT(estimate(wallgame_of(10, 1000)), 10 * estimate(wallgame_of(1000, 10)));
}

TEST(CostEstimate, BoigameGrowsWithTheBoardAndATinyBoardIsCheap) {
  double previous = 0;
  for (const std::int64_t n : {2, 3, 4, 5, 8, 10, 20, 30, 100, 300, 1000}) {
    const double cost = estimate(boigame_of(n, gamebatch::boigame::BoardShape::open));
    EXPECT_GT(cost, previous) << "open, n = " << n;
    previous = cost;
  }
  // Walls make the estimate depend on their share of the board, which varies on tiny boards (as
  // the solve time does); from n = 10 on, a bigger board of any shape costs more.
  for (const auto shape : gamebatch::boigame::kAllShapes) {
    previous = 0;
    for (const std::int64_t n : {10, 30, 100, 300, 1000}) {
      const double cost = estimate(boigame_of(n, shape));
      EXPECT_GT(cost, previous) << to_string(shape) << ", n = " << n;
      previous = cost;
    }
  }
  EXPECT_LT(estimate_of("boigame", "2\nA.\n.B\n"), 5.0);
  // An open board with the pieces in opposite corners is the dearest kind: about 45 ms at 1000.
  EXPECT_GT(estimate(boigame_of(1000, gamebatch::boigame::BoardShape::open)), 10'000.0);
  // An odd distance ends the game after the search: no layered DP.
  EXPECT_LT(estimate_of("boigame", "4\nA...\n..B.\n....\n....\n"),   // distance 3
            estimate_of("boigame", "4\nA...\n.B..\n....\n....\n"));  // distance 2
}

TEST(CostEstimate, DoublemoveCountsTheTableBuildOfItsN) {
  double previous = 0;
  for (int n = 1; n <= gamebatch::doublemove::kMaxN; ++n) {
    const double cost = estimate(doublemove_of(n));
    EXPECT_GT(cost, previous) << "n = " << n;
    previous = cost;
  }
  // Even the table of n = 1 costs more than a cache look-up; n = 30 takes about 10 ms.
  EXPECT_GT(estimate(doublemove_of(1)), 5.0);
  EXPECT_GT(estimate(doublemove_of(30)), 1000.0);
  EXPECT_GT(estimate(doublemove_of(50)), 100'000.0);
  // After n + 1 declarations the game is always over: no table, a cheap replay.
  EXPECT_LT(estimate(doublemove_of(30, 31)), 5.0);
  // Two loops on one value end the game at once, whatever n.
  EXPECT_LT(estimate_of("doublemove", "40 2\n3 3\n3 3\n"), 5.0);
  // One loop does not.
  EXPECT_GT(estimate_of("doublemove", "40 1\n3 3\n"), 1000.0);
}

TEST(CostEstimate, DoublemoveCountsTheTableWheneverSolveBuildsIt) {
  namespace game = gamebatch::doublemove;
  const Problem& problem = *find_problem("doublemove");
  std::size_t cheap = 0;
  std::size_t dear = 0;
  for (int n = 1; n <= 14; ++n) {
    DoublemoveGenOptions options;
    options.n = {n, n};
    const std::string text = generate_file_text(options, static_cast<std::uint64_t>(n), 1, 60);
    const auto cases = problem.parse(text);
    const std::vector<game::Instance> instances = doublemove::parse_file(text);
    ASSERT_EQ(cases.size(), instances.size());
    const double table_cost = estimate(doublemove_of(n));
    for (std::size_t k = 0; k < cases.size(); ++k) {
      game::StateTableStore store;
      game::solve(instances[k], store);
      const double cost = cases[k]->estimated_solve_microseconds();
      if (store.builds() == 0) {
        ++cheap;
        // The replay alone, or a search from the case's own state: costed as the table at most
        // (a search that might give up for the table is costed as the table, plus its replay).
        EXPECT_LE(cost, table_cost + 1.0)
            << "n = " << n << ", case " << k + 1 << ": no table needed";
        if (game::plan_solve(instances[k]).path == game::SolvePlan::Path::replay) {
          EXPECT_LT(cost, 5.0) << "n = " << n << ", case " << k + 1 << ": the game is over";
        }
      } else {
        ++dear;
        EXPECT_GE(cost, table_cost) << "n = " << n << ", case " << k + 1 << ": builds a table";
      }
    }
  }
  // Both kinds were met (the generator ends a quarter of the games with k = n + 1).
  EXPECT_GT(cheap, 100u);
  EXPECT_GT(dear, 100u);
}

}  // namespace
}  // namespace gamebatch::io
