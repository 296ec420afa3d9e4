// A case's remaining game answered from its own state: a memoised search over just the states
// reachable from it, instead of the state table of n.
//
// The table holds every state of n (117 million for n = 67, 1.87 GB) because a case with no
// declarations given can reach them all. A late case cannot: each declaration merges or removes a
// tree, so from m trees only groupings of those m trees are left, a few thousand states for m up
// to about 12 whatever n is. The search keys its memo by the state's index in the table's layout
// (StateSpace) and applies the table's recurrence with 128-bit values, so it gives exactly the
// value the table holds.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/state_space.hpp"

namespace gamebatch::doublemove {

// Bounds on the states a search from a state with these trees visits in the game on n values, the
// start included; cheap (at most the trees' parts times n steps, and they stop early once past
// `enough`, returning something above it). The upper bound is about the state count of the table
// of n for n trees of one vertex (k = 0), and loose (up to hundreds of times) for trees of many
// distinct sizes; the lower bound counts only the groupings of the most numerous size, so it is
// about the table's count at k = 0 too and small for late cases. Doubles: the counts the upper
// bound weighs pass 64 bits.
double reachable_states_at_most(int n, const SizeRuns& trees, double enough);
double reachable_states_at_least(const SizeRuns& trees, int one_cycle_components, double enough);

struct SearchResult {
  Value remaining_value = 0;  // what StateTable::remaining_value gives for that state
  std::uint64_t states = 0;   // states visited (and memoised), the start included
  std::uint64_t moves = 0;    // look-ups of a state's value, memoised or not: the work done
};

// The value still to be won from the state with these trees and one-cycle components in the game
// on n values (1 <= n <= kMaxN), by a memoised search from it alone; nullopt when that takes more
// than `max_moves` moves (it stops there; states visited are at most the moves). Throws
// std::invalid_argument when that is not a state of n, and StopRequested (core/stop_request.hpp)
// when a stop is requested while it runs (polled every few thousand states).
std::optional<SearchResult> search_remaining_value(
    int n, const SizeRuns& trees, int one_cycle_components,
    std::uint64_t max_moves = std::numeric_limits<std::uint64_t>::max());

namespace search_internal {
class RemainingGameSearch;
}

// The same search with its memo kept, for the explained play (core/doublemove/play.cpp): once
// start() has valued a state, every state reachable from it is memoised, so the states the play
// passes through are read off the memo.
class KeptSearch {
 public:
  KeptSearch(int n, std::uint64_t max_moves = std::numeric_limits<std::uint64_t>::max());
  ~KeptSearch();
  KeptSearch(const KeptSearch&) = delete;
  KeptSearch& operator=(const KeptSearch&) = delete;

  // What search_remaining_value gives; call it once.
  std::optional<SearchResult> start(const SizeRuns& trees, int one_cycle_components);
  // The value still to be won from a state of n: memoised, or searched from it (with no limit on
  // moves) when start() did not reach it. Throws std::invalid_argument when it is not a state of n.
  Value remaining_value(const SizeRuns& trees, int one_cycle_components);

 private:
  std::unique_ptr<search_internal::RemainingGameSearch> search_;
};

}  // namespace gamebatch::doublemove
