// willow's optimal play, reconstructed (`gamebatch explain`): A's start, B's reply and every move,
// from the same model the solvers use (core/willow/solver.cpp: while the players can still reach
// each other, the mover steps towards the other or leaves the path between them for good; once
// one has left, each walks her richest remaining way).
#pragma once

#include <cstdint>
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

// Refused beyond this many path steps (each start pair costs its distance + 1): A's start is the
// lowest-numbered city whose every B start gives the answer, which costs one pass over all B
// starts for that city and cheap refutations of the cities before it. A path of N cities costs
// about N^2 / 2 steps, so paths beyond about 28,000 cities are refused; random trees of
// N = 100,000 take about 10^8.
inline constexpr std::int64_t kMaxPlaySteps = 400'000'000;

// The optimal play; ties go to the lowest-numbered city (A's start, B's reply, each move).
// Throws std::invalid_argument for an invalid instance or one beyond `max_steps` path steps.
Play optimal_play(const Instance& instance, std::int64_t max_steps = kMaxPlaySteps);

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

}  // namespace gamebatch::willow
