// Shrinking a failing doublemove case for `gamebatch stress`: smaller variants of an instance,
// tried in order until one still makes the user's program fail. Pure functions, no I/O.
#pragma once

#include <vector>

#include "core/doublemove/doublemove.hpp"

namespace gamebatch::doublemove {

// Smaller variants of `instance`, the largest cuts first (the stress loop takes the first variant
// that still fails, then asks again). Empty for an instance check_instance rejects. No two
// candidates are equal.
//
// Every candidate passes check_instance: n >= 1, at most n + 1 declarations, values in 1..n. None
// has a larger n, more declarations or a larger value than the input, so a case within the
// official limits (n <= 35, 0 <= k <= n + 1) stays within them.
//
// Measure: (n, then the number of declarations k, then the sum of all declared values), compared
// lexicographically. Every candidate is strictly smaller than the input, so shrinking repeatedly
// always ends. In order, fewest values first, then fewest declarations:
//   1. smaller n: any n' < n - 1 with the declarations naming a larger value dropped; n / 2 with
//      the larger values folded into range (v -> (v - 1) mod n' + 1); n - 1 with one value removed
//      (declarations naming it dropped) or merged into the next lower one, larger values
//      renumbered down; in each case declarations past the first n' + 1 dropped;
//   2. fewer declarations: none, the first half, all but one (the last one first);
//   3. lower values: all values renamed 1, 2, 3, ... in order of first appearance (when that
//      lowers the sum); one declaration's two values lowered together until the smaller is 1;
//      one declared value lowered to 1, or by 1.
std::vector<Instance> shrink_candidates(const Instance& instance);

}  // namespace gamebatch::doublemove
