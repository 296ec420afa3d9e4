// Shrinking a failing willow case for `gamebatch stress`: smaller variants of an instance, tried
// in order until one still makes the user's program fail. Pure functions, no I/O.
#pragma once

#include <vector>

#include "core/willow/willow.hpp"

namespace gamebatch::willow {

// Each kind of candidate below varies at most this many roads or cities, so that a large tree gets
// a list of bounded length (each candidate is a whole tree, tried by running a program).
inline constexpr int kMaxVariedPerKind = 128;

// Smaller variants of `instance`, the largest cuts first (the stress loop takes the first variant
// that still fails, then asks again). Empty for an instance check_instance rejects.
//
// Every candidate is a valid tree in official labelling (see to_official_labels), has at least two
// cities whenever cities were removed, and never holds more coins in any city than some city of
// the input did, so a case within the official limits stays within them.
//
// Measure: (number of cities N, then total coins), compared lexicographically. Every candidate is
// strictly smaller than the input, so shrinking repeatedly always ends. In order:
//   1. keep one side of a road (each side of each road with >= 2 cities), fewest cities first;
//   2. contract a road into one city that keeps the coins of either end (N - 1 cities);
//   3. same tree: all coins halved; then one city's coins set to 0, halved, lowered by 1 (the
//      richest cities first within each kind).
// On trees of more than kMaxVariedPerKind roads, kinds 1 and 2 use that many roads spread evenly
// from the most lopsided cut to the most balanced one, and kind 3 the kMaxVariedPerKind richest
// cities: at most 7 * kMaxVariedPerKind + 1 candidates, whatever N.
std::vector<Instance> shrink_candidates(const Instance& instance);

}  // namespace gamebatch::willow
