// The pruned max-min search over willow's start pairs (pruned.cpp). Internal to core/willow:
// solve() runs it first and falls back on the forest walk when it returns false.
#pragma once

#include <cstdint>

#include "core/willow/arrival_table.hpp"
#include "core/willow/willow.hpp"

namespace gamebatch::willow::detail {

struct PrunedLimits {
  // Give up (return false) once this many chain steps are spent (see SolveReport::chain_steps).
  std::int64_t budget_chain_steps = 0;
  // From this many cities, on all threads of the current oneTBB arena.
  std::int32_t parallel_from_cities = 0;
  // Where set (one entry per city): the order in which ties are broken, lowest first. Rows of
  // equal bound are then taken in this order, so that the first finished row is the lowest
  // optimal start, and its least B start the lowest best reply (SolveReport::a_start, b_start,
  // in the table's numbering). Where null: equal rows most evaluated first, ties to the lowest
  // city, which finishes sooner.
  const City* tie_order = nullptr;
};

// The game value of `table`'s tree into report.value, and its work into report's counters; false
// (value unset) when the budget ran out first. With limits.tie_order also report.a_start, b_start.
// Throws StopRequested when a stop is requested.
template <typename Value>
bool pruned_search(const ArrivalTable<Value>& table, const PrunedLimits& limits,
                   SolveReport& report);

extern template bool pruned_search(const ArrivalTable<std::int32_t>&, const PrunedLimits&,
                                   SolveReport&);
extern template bool pruned_search(const ArrivalTable<Coins>&, const PrunedLimits&, SolveReport&);

}  // namespace gamebatch::willow::detail
