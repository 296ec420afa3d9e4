// Plausible WRONG solvers, one per game: the kind of bug a contestant makes, each agreeing with
// the real solver on many cases but not all. The shrink tests find a case where one disagrees with
// GAME::solve and check that shrinking brings it down to a tiny case. Each returns the answer as
// the game prints it (willow: the number without "Case #x:"). Header-only; needs core/ only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/boigame/boigame.hpp"
#include "core/doublemove/doublemove.hpp"
#include "core/wallgame/wallgame.hpp"
#include "core/willow/willow.hpp"

namespace gamebatch::testing {

// ---------------------------------------------------------------------------------------------
// willow. The contestant searches the game literally (fine for small trees) but misreads one
// rule: "if no such road exists she stays (a pass)" as "the game ends". So a player who is stuck
// ends the game for both, and the other loses the coins still on her way.

enum class WillowRules {
  official,               // a stuck player passes; the game ends when neither can move
  stuck_player_ends_game  // the misreading
};

// The game value (max over A's start of min over B's start) by alpha-beta search over the literal
// game under `rules`. A play is fixed by the two routes, so a start pair has O(N^2) positions;
// meant for trees of up to 64 cities (bit sets of cities and roads), about 40 in the tests.
class WillowGameSearch {
 public:
  WillowGameSearch(const willow::Instance& instance, WillowRules rules)
      : coins_(instance.coins), exits_(instance.coins.size()), rules_(rules) {
    if (instance.coins.size() > 64)
      throw std::invalid_argument("WillowGameSearch: at most 64 cities");
    for (std::size_t road = 0; road < instance.roads.size(); ++road) {
      const auto [from, to] = instance.roads[road];
      exits_[static_cast<std::size_t>(from)].push_back({to, static_cast<int>(road)});
      exits_[static_cast<std::size_t>(to)].push_back({from, static_cast<int>(road)});
    }
  }

  willow::Coins value() const {
    const auto cities = static_cast<City>(coins_.size());
    willow::Coins best_for_a = -kUnbounded;
    for (City a_start = 0; a_start < cities; ++a_start) {
      willow::Coins worst_for_a = kUnbounded;
      for (City b_start = 0; b_start < cities && worst_for_a > best_for_a; ++b_start) {
        const Position start{{a_start, b_start}, 0, 0, false};
        worst_for_a = std::min(worst_for_a, search(start, kPlayerA, best_for_a, worst_for_a));
      }
      best_for_a = std::max(best_for_a, worst_for_a);
    }
    return best_for_a;
  }

 private:
  using City = std::int32_t;
  struct Exit {
    City to;
    int road;
  };
  struct Position {
    City standing[2];        // where A (0) and B (1) stand
    std::uint64_t emptied;   // cities whose coins were taken
    std::uint64_t used;      // roads walked by either player
    bool other_just_passed;  // the player who moved last could not move
  };
  static constexpr int kPlayerA = 0;
  static constexpr willow::Coins kUnbounded = std::numeric_limits<willow::Coins>::max() / 4;

  // The rest of the game from A's point of view, `mover` to play: she takes the coins where she
  // stands, then walks an unused road or passes. Fail-soft alpha-beta in the window (alpha, beta).
  willow::Coins search(const Position& position, int mover, willow::Coins alpha,
                       willow::Coins beta) const {
    const City here = position.standing[mover];
    const std::uint64_t here_bit = std::uint64_t{1} << here;
    const willow::Coins taken = (position.emptied & here_bit) != 0 ? 0 : coins_[at(here)];
    const willow::Coins gain = mover == kPlayerA ? taken : -taken;
    Position next = position;
    next.emptied |= here_bit;
    const int other = 1 - mover;

    bool moved = false;
    willow::Coins best = mover == kPlayerA ? -kUnbounded : kUnbounded;
    for (const Exit& exit : exits_[at(here)]) {
      const std::uint64_t road_bit = std::uint64_t{1} << exit.road;
      if ((position.used & road_bit) != 0)
        continue;
      moved = true;
      Position after = next;
      after.standing[mover] = exit.to;
      after.used |= road_bit;
      after.other_just_passed = false;
      const willow::Coins result = gain + search(after, other, alpha - gain, beta - gain);
      if (mover == kPlayerA) {
        best = std::max(best, result);
        alpha = std::max(alpha, best);
      } else {
        best = std::min(best, result);
        beta = std::min(beta, best);
      }
      if (alpha >= beta)
        break;
    }
    if (moved)
      return best;
    if (position.other_just_passed || rules_ == WillowRules::stuck_player_ends_game)
      return gain;
    next.other_just_passed = true;
    return gain + search(next, other, alpha - gain, beta - gain);
  }

  static std::size_t at(City city) { return static_cast<std::size_t>(city); }

  std::vector<willow::Coins> coins_;
  std::vector<std::vector<Exit>> exits_;
  WillowRules rules_;
};

inline std::string wrong_willow(const willow::Instance& instance) {
  return std::to_string(WillowGameSearch(instance, WillowRules::stuck_player_ends_game).value());
}

// ---------------------------------------------------------------------------------------------
// wallgame. The contestant has the editorial's interval DP right but misreads "pays the cost of
// the cell it enters, again on every revisit": walking along a row past the walls already built,
// Rabbit pays only for the new cell at the end of the walk, not for the visited ones it crosses.

enum class WallgameRevisits { paid, free_of_charge };

// The interval DP (Eel walls only under the token; the walls of a row are an interval), swept from
// the bottom row up, O(h * w^2). With WallgameRevisits::paid it equals wallgame::solve.
inline wallgame::Cost wallgame_interval_dp(const wallgame::Board& board,
                                           WallgameRevisits revisits) {
  using wallgame::Cost;
  const std::int32_t height = board.height;
  const std::int32_t width = board.width;
  const auto cost = [&](std::int32_t row, std::int32_t column) -> Cost {
    return board.cost(row, column);
  };
  std::vector<Cost> entering(static_cast<std::size_t>(width));  // from entering a cell of a row on
  for (std::int32_t column = 0; column < width; ++column)
    entering[static_cast<std::size_t>(column)] = cost(height - 1, column);
  if (height == 1)
    return *std::min_element(entering.begin(), entering.end());

  // Per row, for walls under columns [low, high): eel_to_decide[low][high][side] with the token
  // just beside the walls (side 0: at low - 1, side 1: at high), and rabbit_to_move[...][end]
  // with the token on the walls' end cell (end 0: low, end 1: high - 1).
  const auto lines = static_cast<std::size_t>(width) + 1;
  const auto slot = [&](std::int32_t low, std::int32_t high, int side) {
    return (static_cast<std::size_t>(low) * lines + static_cast<std::size_t>(high)) * 2 +
           static_cast<std::size_t>(side);
  };
  constexpr Cost kNever = std::numeric_limits<Cost>::max() / 4;
  std::vector<Cost> eel_to_decide(lines * lines * 2, kNever);
  std::vector<Cost> rabbit_to_move(lines * lines * 2, kNever);

  for (std::int32_t row = height - 2; row >= 0; --row) {
    // What Rabbit pays walking along the row from `from` to `to` (excluding `from`).
    const auto walk = [&](std::int32_t from, std::int32_t to) {
      if (revisits == WallgameRevisits::free_of_charge)
        return cost(row, to);
      Cost paid = 0;
      for (std::int32_t column = std::min(from, to); column <= std::max(from, to); ++column)
        paid += column == from ? 0 : cost(row, column);
      return paid;
    };
    // Eel never walls the last gap of a row: walls of width - 1 cells are the most.
    for (std::int32_t walled = width - 1; walled >= 1; --walled) {
      const bool may_add_wall = walled + 1 <= width - 1;
      for (std::int32_t low = 0; low + walled <= width; ++low) {
        const std::int32_t high = low + walled;
        if (low > 0) {
          const Cost let_down = entering[static_cast<std::size_t>(low - 1)];
          eel_to_decide[slot(low, high, 0)] =
              may_add_wall ? std::max(let_down, rabbit_to_move[slot(low - 1, high, 0)]) : let_down;
        }
        if (high < width) {
          const Cost let_down = entering[static_cast<std::size_t>(high)];
          eel_to_decide[slot(low, high, 1)] =
              may_add_wall ? std::max(let_down, rabbit_to_move[slot(low, high + 1, 1)]) : let_down;
        }
        for (int end = 0; end < 2; ++end) {
          const std::int32_t token = end == 0 ? low : high - 1;
          Cost best = kNever;
          if (low > 0)
            best = std::min(best, walk(token, low - 1) + eel_to_decide[slot(low, high, 0)]);
          if (high < width)
            best = std::min(best, walk(token, high) + eel_to_decide[slot(low, high, 1)]);
          rabbit_to_move[slot(low, high, end)] = best;
        }
      }
    }
    std::vector<Cost> entering_row(static_cast<std::size_t>(width));
    for (std::int32_t column = 0; column < width; ++column) {
      Cost after_entering = entering[static_cast<std::size_t>(column)];  // Eel lets it down
      if (width >= 2)
        after_entering = std::max(after_entering, rabbit_to_move[slot(column, column + 1, 0)]);
      entering_row[static_cast<std::size_t>(column)] = cost(row, column) + after_entering;
    }
    entering = std::move(entering_row);
  }
  return *std::min_element(entering.begin(), entering.end());
}

inline std::string wrong_wallgame(const wallgame::Board& board) {
  return std::to_string(wallgame_interval_dp(board, WallgameRevisits::free_of_charge));
}

// ---------------------------------------------------------------------------------------------
// doublemove. The contestant skips a given loop (a, a) while reading the declarations ("Claire's
// pick is forced, so it changes nothing") and solves the rest with a correct solver. But a loop
// does change the game: its value is picked, and every later declaration changes owner.

inline doublemove::Instance without_given_loops(const doublemove::Instance& instance) {
  doublemove::Instance kept{instance.n, {}};
  for (const doublemove::Declaration& declaration : instance.declarations) {
    if (declaration.a != declaration.b)
      kept.declarations.push_back(declaration);
  }
  return kept;
}

inline std::string wrong_doublemove(const doublemove::Instance& instance) {
  return doublemove::to_decimal(doublemove::solve(without_given_loops(instance)));
}

// ---------------------------------------------------------------------------------------------
// boigame. The contestant gets the odd case right (A, moving first, wins an odd race) but decides
// an even distance for B without the layer analysis, as if B could always step onto A's square in
// the middle of the race.

// The number of steps on a shortest white path from A to B (the board is valid).
inline std::int32_t boigame_distance(const boigame::Board& board) {
  const auto squares = static_cast<std::size_t>(board.square_count());
  std::vector<std::int32_t> distance(squares, -1);
  std::vector<boigame::Square> queue{board.a};
  distance[static_cast<std::size_t>(board.a)] = 0;
  for (std::size_t next = 0; next < queue.size(); ++next) {
    const boigame::Square square = queue[next];
    const std::int32_t row = square / board.n;
    const std::int32_t column = square % board.n;
    const std::pair<bool, boigame::Square> steps[] = {{row > 0, square - board.n},
                                                      {row + 1 < board.n, square + board.n},
                                                      {column > 0, square - 1},
                                                      {column + 1 < board.n, square + 1}};
    for (const auto& [on_board, neighbour] : steps) {
      if (on_board && board.is_white(neighbour) &&
          distance[static_cast<std::size_t>(neighbour)] < 0) {
        distance[static_cast<std::size_t>(neighbour)] =
            distance[static_cast<std::size_t>(square)] + 1;
        queue.push_back(neighbour);
      }
    }
  }
  return distance[static_cast<std::size_t>(board.b)];
}

inline std::string wrong_boigame(const boigame::Board& board) {
  return boigame_distance(board) % 2 == 1 ? "A" : "B";
}

// ---------------------------------------------------------------------------------------------
// The greedy shrink of `gamebatch stress`: replace the failing case by the first candidate that
// still fails, until none does.

template <typename Instance>
struct ShrinkResult {
  Instance smallest;
  int steps = 0;                     // candidates taken
  std::size_t candidates_tried = 0;  // each one a run of the failing solution
};

template <typename Instance, typename CandidatesOf, typename Fails>
ShrinkResult<Instance> shrink_while_failing(Instance failing, CandidatesOf candidates_of,
                                            Fails fails) {
  ShrinkResult<Instance> result{std::move(failing)};
  bool shrunk = true;
  while (shrunk) {
    shrunk = false;
    for (Instance& candidate : candidates_of(result.smallest)) {
      ++result.candidates_tried;
      if (fails(candidate)) {
        result.smallest = std::move(candidate);
        ++result.steps;
        shrunk = true;
        break;
      }
    }
  }
  return result;
}

}  // namespace gamebatch::testing
