// willow's optimal play, reconstructed (`gamebatch explain`): A's start, B's reply and every move,
// from the same model the solvers use (core/willow/solver.cpp: while the players can still reach
// each other, the mover steps towards the other or leaves the path between them for good; once
// one has left, each walks her richest remaining way).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/willow/willow.hpp"

namespace gamebatch::willow {

// One move: `player` ('A' or 'B') walks the road from `from` to `to` and takes `taken` coins
// there (0 where the other player stood or had passed).
struct Move {
  char player = 'A';
  std::int32_t from = 0;
  std::int32_t to = 0;
  Coins taken = 0;
  Coins score = 0;  // A's coins minus B's after the move
};

struct Play {
  Coins value = 0;  // the answer
  std::int32_t a_start = 0;
  std::int32_t b_start = 0;
  Coins score_after_starts = 0;  // A's start coins minus B's (0 for B on A's start)
  // Every walk in order; between two moves of one player the other passes (no road left).
  std::vector<Move> moves;
  std::vector<std::int32_t> roads_left;  // indices into Instance::roads never walked
};

// A's start is the lowest-numbered city whose every B start gives the answer, and B's reply the
// lowest-numbered city that holds A to it: the pruned search of solve() finds both when it takes
// rows of equal bound in city order (SolverOptions::find_optimal_starts), at about the cost of a
// solve. Where that search gives up and the forest walk answers, the starts are found pair by
// pair (each start pair costs its distance + 1 path steps: one pass over all B starts for A's
// start, cheap refutations of the cities before it), and refused beyond this many steps.
inline constexpr std::int64_t kMaxPlaySteps = 400'000'000;

// The optimal play; ties go to the lowest-numbered city (A's start, B's reply, each move).
// `options`: how the value and starts are searched (tests force the pair-by-pair way with a tiny
// pruned_budget_scale). Throws std::invalid_argument for an invalid instance or one whose
// pair-by-pair search would pass `max_fallback_steps`.
Play optimal_play(const Instance& instance, const SolverOptions& options = {},
                  std::int64_t max_fallback_steps = kMaxPlaySteps);

// The play as text (cities 1-based, as in the input), one line per move, ending with
// "answer: VALUE".
std::string describe_play(const Instance& instance, const Play& play);

// The literal game from a position in its middle, for checking a played line: A's coins minus
// B's from here on. Same limits as solve_brute_force (N <= 12). `used_roads`: bit r for road r of
// instance.roads; `coins_left`: bit v for a city that still holds its coins; the mover takes the
// coins of her city first, as on every turn.
struct LiteralPosition {
  std::int32_t a = 0;
  std::int32_t b = 0;
  bool a_to_move = true;
  std::uint32_t used_roads = 0;
  std::uint32_t coins_left = 0;
  bool previous_turn_was_pass = false;
};
Coins solve_brute_force_from(const Instance& instance, const LiteralPosition& position);

// V(a, b): the game's value with A started on city a and B on city b (0-based), both playing on
// perfectly; each pair in O(dist(a, b)) after O(N) of set-up (the chain optimal_play values).
// For test strength's wrong ideas (core/willow/strength.hpp), which value some pairs only. Not
// thread-safe: one per thread.
class PairValues {
 public:
  explicit PairValues(const Instance& instance);
  Coins operator()(std::int32_t a, std::int32_t b) const { return value_(a, b); }

 private:
  std::function<Coins(std::int32_t, std::int32_t)> value_;
};

}  // namespace gamebatch::willow
