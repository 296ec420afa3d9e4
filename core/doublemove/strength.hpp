// What test strength (`gamebatch strength`) knows of doublemove: which of gen's declaration
// patterns a case shows, and the usual wrong ideas, each a strategy contestants submit
// (docs/games.md draws the smallest case each gets wrong). Pure functions.
#pragma once

#include <string>
#include <vector>

#include "core/doublemove/doublemove.hpp"

namespace gamebatch::doublemove {

// gen's patterns (--pattern) that the given declarations show: "loops" (a third of them or more
// are loops), "repeats" (a pair declared twice), "forest" (two or more, no cycle), "ending" (a
// component with two cycles: every pick sequence has ended), or "uniform" for any other.
std::vector<std::string> shapes_of(const Instance& instance);

// The rules a search values the game by: the statement's, or one of the wrong ideas.
enum class Rules {
  exact,          // the statement's (tests check it against solve())
  no_loops,       // the players never declare a loop (a, a) on a value alone in its component
  both_maximize,  // Bob maximises Alice's count too: the alternation of max and min forgotten
  myopic,         // each player keeps the most pick sequences alive after her own declaration
};

// The number of pick sequences Alice wins under `rules`: the given declarations replayed, then
// a search over component sizes (memoised per n and rules in each thread). Throws
// std::invalid_argument for an instance check_instance rejects.
Value value_under(const Instance& instance, Rules rules);

}  // namespace gamebatch::doublemove
