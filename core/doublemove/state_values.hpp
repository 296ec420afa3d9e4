// What solve() valued the rest of the game with, kept for the explained play
// (core/doublemove/play.cpp): the values of the states the play passes through are then look-ups.
#pragma once

#include <memory>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/search.hpp"
#include "core/doublemove/state_space.hpp"
#include "core/doublemove/state_table.hpp"

namespace gamebatch::doublemove {

// The table of n, or the search from the case's state with its memo (which holds every state
// reachable from there); neither when the given declarations ended the game.
struct StateValues {
  std::shared_ptr<const StateTable> table;
  std::unique_ptr<KeptSearch> search;

  // The value still to be won from a state of n reachable from the case's state.
  Value remaining_value(const SizeRuns& trees, int one_cycle_components) const {
    return table ? table->remaining_value(trees, one_cycle_components)
                 : search->remaining_value(trees, one_cycle_components);
  }
};

// solve(instance, store, method), keeping in `kept` what valued the rest of the game.
Value solve_keeping(const Instance& instance, StateTableStore& store, SolveMethod method,
                    StateValues& kept);

}  // namespace gamebatch::doublemove
