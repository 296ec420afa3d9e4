// The willow tree as arrivals (directed roads), the preparation both solvers share: the forest
// walk (solver.cpp) and the pruned search (pruned.cpp). Internal to core/willow.
//
// A directed road "came to head from tail" is an arrival. Its row holds what a player who stands
// on the tail with the head ahead of her needs: the coins of both ends and the three richest
// branches at the tail that avoid the head. Arrival ids are grouped by head city.
#pragma once

#include <cstdint>
#include <vector>

#include "core/willow/willow.hpp"

namespace gamebatch::willow::detail {

using City = std::int32_t;
using ArrivalId = std::int32_t;  // index of a directed road in the arrival table
constexpr std::int32_t kNone = -1;

// What a state reads of one arrival "a player came to `head` from `tail`": one cache line with
// 32-bit values (80 bytes with 64-bit ones).
// Branches are walks that start on a neighbour of the tail other than the head and never come
// back: a player on the tail who leaves the path takes one of them.
template <typename Value>
struct alignas(sizeof(Value) == 4 ? 64 : 16) ArrivalRow {
  Value tail_coins = 0;
  Value head_coins = 0;
  // The coins of the three richest branches, richest first; 0 where there is no such branch.
  Value best = 0;
  Value second = 0;
  Value third = 0;
  // best and second again, but kNoBranch where there is none: a player with no branch to leave
  // by cannot leave, so that choice must lose every max().
  Value best_or_none = 0;
  Value second_or_none = 0;
  // The arrivals at the tail from the first cities of the best and second branch: an outer state
  // whose mover came over one of them has lost that branch. kNone where there is no such branch.
  ArrivalId best_arrival = kNone;
  ArrivalId second_arrival = kNone;
  // The arrivals at the tail: the steps that can come before this one, and among them the
  // one that comes back from the head (which cannot).
  ArrivalId earlier_begin = 0;
  ArrivalId earlier_end = 0;
  ArrivalId reverse = kNone;
};

// Below any real value and its negative, with room to subtract a real value without overflow.
template <typename Value>
constexpr Value kNoBranch = -(Value{1} << (sizeof(Value) * 8 - 2));

// The tree as arrivals: arrival ids are grouped by head city, so the arrivals at a city are a
// contiguous range.
template <typename Value>
class ArrivalTable {
 public:
  explicit ArrivalTable(const Instance& instance);

  std::int32_t city_count() const { return static_cast<std::int32_t>(arrivals_begin_.size()) - 1; }
  const ArrivalRow<Value>* rows() const { return rows_.data(); }
  std::int32_t arrival_count() const { return static_cast<std::int32_t>(rows_.size()); }
  ArrivalId arrivals_begin(City city) const { return arrivals_begin_[city]; }
  ArrivalId arrivals_end(City city) const { return arrivals_begin_[city + 1]; }
  City head(ArrivalId arrival) const { return heads_[arrival]; }
  City tail(ArrivalId arrival) const { return tails_[arrival]; }
  // A's value when both players start on `city`: her coins, then she takes the richest branch
  // and B (who got nothing) the second.
  Value same_start_value(City city) const { return same_start_values_[city]; }

 private:
  std::vector<ArrivalRow<Value>> rows_;
  std::vector<ArrivalId> arrivals_begin_;  // per city, and the total at the end
  std::vector<City> heads_;
  std::vector<City> tails_;
  std::vector<Value> same_start_values_;
};

extern template class ArrivalTable<std::int32_t>;
extern template class ArrivalTable<Coins>;

// Whether every number the walk forms fits in 32 bits. Every value is a difference of two coin
// sums over disjoint sets of cities and every walk is a coin sum, so all lie in [-total, total];
// kNoBranch (-2^30) must lie below them and stay above -2^31 once a walk is subtracted, and a
// start pair's value adds two such differences.
bool fits_32_bits(const Instance& instance);

// The same tree with cities numbered in depth-first preorder from city 0. The walk moves the
// players' ends along tree paths; with input labels (random in general) every step would read a
// row from anywhere in the table, in preorder neighbours on a path are mostly near each other.
// The value does not depend on the labels. `original` (if given) receives each new city's input
// label.
Instance in_preorder(const Instance& instance, std::vector<City>* original = nullptr);

}  // namespace gamebatch::willow::detail
