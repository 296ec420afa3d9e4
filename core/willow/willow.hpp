// willow (Code Jam 2014 Round 3 D): two players collect coins on a tree.
// The instance type and the solvers; pure functions, no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gamebatch::willow {

using Coins = std::int64_t;

// One case: city v (0-based) holds coins[v]; roads are the undirected pairs in `roads`.
// A valid instance is a tree: coins.size() >= 1, roads.size() == coins.size() - 1, connected.
struct Instance {
  std::vector<Coins> coins;
  std::vector<std::pair<std::int32_t, std::int32_t>> roads;

  std::int32_t city_count() const { return static_cast<std::int32_t>(coins.size()); }
};

// Returns an empty string for a valid tree with non-negative coins, else what is wrong.
std::string check_instance(const Instance& instance);

// How solve() may compute; the defaults pick the fastest way that is exact. The switches exist so
// that tests can check every way against every other.
struct SolverOptions {
  // The pruned search first (core/willow/pruned.cpp): each start pair evaluated alone along the
  // path between the two starts, A's starts best first by an upper bound of their value, B's
  // nearest first, and a start of A left as soon as another one's bound is higher. false: the
  // forest walk alone.
  bool allow_pruned = true;
  // The pruned search's budget, as a multiple of what the forest walk would cost for the case:
  // once it has spent that, the walk answers. Tests force the fallback with a tiny one.
  double pruned_budget_scale = 1.0;
  // 32-bit arithmetic where the total of all coins is below 2^30 (every official case).
  bool allow_32_bit = true;
  // The AVX2 copy of the walk (eight states at a time), on CPUs that have AVX2; 32-bit only.
  bool allow_avx2 = true;
  // From this many cities a case is searched or walked on all threads of the current oneTBB
  // arena.
  std::int32_t parallel_from_cities = 256;
  // Also find A's lowest-numbered optimal start and B's lowest-numbered best reply to it
  // (SolveReport::a_start, b_start; what `explain` plays from). Rows of equal bound are then
  // searched in city order instead of most-evaluated first, which costs more only where several
  // starts tie with the answer. Found by the pruned search only: not where the walk answers.
  bool find_optimal_starts = false;
};

// The exact game value from A's point of view (max over A's start of min over B's start).
// The pruned search costs about N x (the distance between typical start pairs); the forest walk
// it falls back on O(N^2). O(N) memory per worker thread, no recursion. Runs in parallel on the
// current oneTBB arena when the tree is large; the result does not depend on the schedule (the
// work may). Throws StopRequested (core/stop_request.hpp) when a stop is requested while it runs.
Coins solve(const Instance& instance, const SolverOptions& options = {});

// What one solve did, for tests and benchmarks.
struct SolveReport {
  Coins value = 0;
  // The forest walk gave the value: the pruned search was off or ran past its budget.
  bool walked = false;
  // The pruned search's work: cities of the start pairs' paths it went along (a pair at distance
  // d counts d + 1, less where its chain resumes from the last pair's or its path crosses long
  // runs of cities with two roads, one step a run; 1 where the tree is a path, whose pairs take a
  // few prefix sums; nothing for a pair its lower bound skips); A's starts it evaluated against
  // more B starts than their neighbours, and of those the ones it evaluated against every B start.
  std::int64_t chain_steps = 0;
  std::int64_t rows_searched = 0;
  std::int64_t rows_whole = 0;
  // With SolverOptions::find_optimal_starts and the pruned search answering: A's lowest-numbered
  // start of the answer's value and B's lowest-numbered start that holds A to it (0-based input
  // numbering); else -1.
  std::int32_t a_start = -1;
  std::int32_t b_start = -1;
};
SolveReport solve_with_report(const Instance& instance, const SolverOptions& options = {});

// The same value by playing the game out literally: every start pair, every move, no shared
// ideas with solve(). Exponential: meant for N <= 9.
Coins solve_brute_force(const Instance& instance);

}  // namespace gamebatch::willow
