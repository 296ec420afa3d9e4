// The willow oracle: plays the game turn by turn exactly as the rules say, over every start pair,
// with an exhaustive minimax. It knows nothing about paths or branches; it only knows whose turn
// it is, where both players stand, which roads are used and which cities still hold coins.
// That makes it slow (exponential) but easy to trust, which is all a differential test needs.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/willow/play.hpp"
#include "core/willow/willow.hpp"

namespace gamebatch::willow {

std::string check_instance(const Instance& instance) {
  const std::size_t city_count = instance.coins.size();
  if (city_count == 0) {
    return "no cities";
  }
  if (city_count > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    return "too many cities";
  }
  if (instance.roads.size() != city_count - 1) {
    return "expected " + std::to_string(city_count - 1) + " roads for " +
           std::to_string(city_count) + " cities, got " + std::to_string(instance.roads.size());
  }
  for (std::size_t city = 0; city < city_count; ++city) {
    if (instance.coins[city] < 0) {
      return "city " + std::to_string(city) + " holds a negative number of coins";
    }
  }

  // Union-find: with exactly N-1 roads, "no road closes a cycle" is the same as "connected".
  std::vector<std::size_t> representative(city_count);
  std::iota(representative.begin(), representative.end(), std::size_t{0});
  auto find = [&representative](std::size_t city) {
    while (representative[city] != city) {
      representative[city] = representative[representative[city]];
      city = representative[city];
    }
    return city;
  };
  for (std::size_t road = 0; road < instance.roads.size(); ++road) {
    const auto [from, to] = instance.roads[road];
    // Named only when it is wrong: the strings cost more than the check (half a millisecond on a
    // tree of 4,000 cities, a quarter of its solve, which `explain` checks before).
    const auto road_name = [&instance, road] {
      const auto [u, w] = instance.roads[road];
      return "road " + std::to_string(road) + " (" + std::to_string(u) + "-" + std::to_string(w) +
             ")";
    };
    if (from < 0 || to < 0 || static_cast<std::size_t>(from) >= city_count ||
        static_cast<std::size_t>(to) >= city_count) {
      return road_name() + " names a city out of range";
    }
    if (from == to) {
      return road_name() + " is a self loop";
    }
    const std::size_t from_root = find(static_cast<std::size_t>(from));
    const std::size_t to_root = find(static_cast<std::size_t>(to));
    if (from_root == to_root) {
      return road_name() + " closes a cycle (the roads do not form a tree)";
    }
    representative[from_root] = to_root;
  }
  return "";
}

namespace {

constexpr std::int32_t kMaxBruteForceCities = 12;

// Bit layout of a packed game state (a memo key). Twelve cities fit in 4 bits of position, eleven
// roads and twelve coin flags in their own fields.
constexpr int kPositionBits = 4;
constexpr int kRoadBits = kMaxBruteForceCities - 1;
constexpr int kCoinBits = kMaxBruteForceCities;

// Everything the rest of the game depends on. Scores so far are not part of it: the minimax
// returns the coins still to be won from here, relative to the player to move, and by the same
// token whether the mover is A or B does not matter either (the rules treat both alike).
struct GameState {
  std::int32_t position[2] = {0, 0};  // index 0: the player to move, 1: the other one
  std::uint32_t used_roads = 0;       // bit r: road r has been walked
  std::uint32_t cities_with_coins = 0;
  bool previous_turn_was_pass = false;

  std::uint64_t key() const {
    std::uint64_t packed = static_cast<std::uint64_t>(position[0]);
    packed = (packed << kPositionBits) | static_cast<std::uint64_t>(position[1]);
    packed = (packed << kRoadBits) | used_roads;
    packed = (packed << kCoinBits) | cities_with_coins;
    packed = (packed << 1) | (previous_turn_was_pass ? 1U : 0U);
    return packed;
  }
};

struct RoadEnd {
  std::int32_t neighbour;
  std::int32_t road;
};

class LiteralGame {
 public:
  explicit LiteralGame(const Instance& instance)
      : coins_(instance.coins), roads_at_(instance.coins.size()) {
    for (std::size_t road = 0; road < instance.roads.size(); ++road) {
      const auto [from, to] = instance.roads[road];
      const auto road_index = static_cast<std::int32_t>(road);
      roads_at_[static_cast<std::size_t>(from)].push_back({to, road_index});
      roads_at_[static_cast<std::size_t>(to)].push_back({from, road_index});
    }
  }

  // The mover's coins minus the other's from `state` on.
  Coins value_of(const GameState& state) { return best_for_mover(state); }

  // A's coins minus B's coins when A starts on `a_start`, B on `b_start`, both playing perfectly.
  Coins value_of_start(std::int32_t a_start, std::int32_t b_start) {
    GameState start;
    start.position[0] = a_start;  // A moves first
    start.position[1] = b_start;
    start.cities_with_coins = (1U << coins_.size()) - 1U;
    return best_for_mover(start);
  }

 private:
  // The rules, one turn at a time: the mover takes the coins of her city, then walks along an
  // unused road of her choice, or passes when there is none. Two passes in a row mean neither
  // player can move any more (a player who passed never gets a road back), so the game is over;
  // by then both have collected where they stand. Each call is one turn, so the recursion depth
  // is the number of turns: at most N-1 walks, and no two passes in a row except the last two.
  Coins best_for_mover(const GameState& state) {
    const std::uint64_t key = state.key();
    if (const auto known = memo_.find(key); known != memo_.end()) {
      return known->second;
    }

    GameState after_collecting = state;
    const std::int32_t here = state.position[0];
    const std::uint32_t here_bit = 1U << here;
    Coins collected = 0;
    if ((after_collecting.cities_with_coins & here_bit) != 0) {
      collected = coins_[static_cast<std::size_t>(here)];
      after_collecting.cities_with_coins &= ~here_bit;
    }

    Coins best_rest = std::numeric_limits<Coins>::min();
    bool walked = false;
    for (const RoadEnd& road_end : roads_at_[static_cast<std::size_t>(here)]) {
      const std::uint32_t road_bit = 1U << road_end.road;
      if ((after_collecting.used_roads & road_bit) != 0) {
        continue;
      }
      walked = true;
      GameState next = after_collecting;
      next.used_roads |= road_bit;
      next.position[0] = state.position[1];
      next.position[1] = road_end.neighbour;
      next.previous_turn_was_pass = false;
      best_rest = std::max(best_rest, -best_for_mover(next));
    }

    Coins value = 0;
    if (walked) {
      value = collected + best_rest;
    } else if (state.previous_turn_was_pass) {
      value = collected;  // neither player can move: the game ends
    } else {
      GameState next = after_collecting;
      next.position[0] = state.position[1];
      next.position[1] = here;
      next.previous_turn_was_pass = true;
      value = collected - best_for_mover(next);
    }
    memo_.emplace(key, value);
    return value;
  }

  const std::vector<Coins>& coins_;
  std::vector<std::vector<RoadEnd>> roads_at_;
  // Shared by all start pairs: a state's future does not depend on how it was reached.
  std::unordered_map<std::uint64_t, Coins> memo_;
};

}  // namespace

Coins solve_brute_force(const Instance& instance) {
  if (const std::string problem = check_instance(instance); !problem.empty()) {
    throw std::invalid_argument("willow brute force: invalid instance: " + problem);
  }
  const std::int32_t city_count = instance.city_count();
  if (city_count > kMaxBruteForceCities) {
    throw std::invalid_argument("willow brute force: at most " +
                                std::to_string(kMaxBruteForceCities) + " cities, got " +
                                std::to_string(city_count));
  }

  LiteralGame game(instance);
  Coins best_for_a = std::numeric_limits<Coins>::min();
  for (std::int32_t a_start = 0; a_start < city_count; ++a_start) {
    Coins worst_for_a = std::numeric_limits<Coins>::max();
    for (std::int32_t b_start = 0; b_start < city_count; ++b_start) {
      worst_for_a = std::min(worst_for_a, game.value_of_start(a_start, b_start));
    }
    best_for_a = std::max(best_for_a, worst_for_a);
  }
  return best_for_a;
}

Coins solve_brute_force_from(const Instance& instance, const LiteralPosition& position) {
  if (const std::string problem = check_instance(instance); !problem.empty())
    throw std::invalid_argument("willow brute force: invalid instance: " + problem);
  if (instance.city_count() > kMaxBruteForceCities)
    throw std::invalid_argument("willow brute force: too many cities");
  LiteralGame game(instance);
  GameState state;
  state.position[0] = position.a_to_move ? position.a : position.b;
  state.position[1] = position.a_to_move ? position.b : position.a;
  state.used_roads = position.used_roads;
  state.cities_with_coins = position.coins_left;
  state.previous_turn_was_pass = position.previous_turn_was_pass;
  const Coins for_mover = game.value_of(state);
  return position.a_to_move ? for_mover : -for_mover;
}

}  // namespace gamebatch::willow
