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
  // 32-bit arithmetic where the total of all coins is below 2^30 (every official case).
  bool allow_32_bit = true;
  // The AVX2 copy of the walk (eight states at a time), on CPUs that have AVX2; 32-bit only.
  bool allow_avx2 = true;
  // From this many cities a case is walked on all threads of the current oneTBB arena.
  std::int32_t parallel_from_cities = 256;
};

// The exact game value from A's point of view (max over A's start of min over B's start).
// O(N^2) time, O(N) memory per worker thread, no recursion. Runs in parallel on the current
// oneTBB arena when the tree is large; the result does not depend on the schedule. Throws
// StopRequested (core/stop_request.hpp) when a stop is requested while it runs.
Coins solve(const Instance& instance, const SolverOptions& options = {});

// The same value by playing the game out literally: every start pair, every move, no shared
// ideas with solve(). Exponential: meant for N <= 9.
Coins solve_brute_force(const Instance& instance);

}  // namespace gamebatch::willow
