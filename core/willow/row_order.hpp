// A row of the pruned search (pruned.cpp): the breadth-first order of the cities from A's start,
// and lower bounds of the row's start pairs read off it. Internal to core/willow.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "core/willow/arrival_table.hpp"

namespace gamebatch::willow::detail {

// Below every value and far enough from the bottom to subtract a coin sum.
constexpr Coins kNoWay = std::numeric_limits<Coins>::min() / 4;

// How a city was reached by the breadth-first search of a row: over the arrival `up` (tail: this
// city, head: `parent`, one road nearer A's start), `depth` roads from A's start.
struct Link {
  ArrivalId up = kNone;
  City parent = kNone;
  std::int32_t depth = 0;
  City branch = kNone;  // the start's neighbour on the way (kNone for the start)
};

// The breadth-first order of the cities from one row's start (the start first), made only as far
// as the row's evaluation has got and extended from there while the row stays the same.
template <typename Value>
class RowOrder {
 public:
  explicit RowOrder(const ArrivalTable<Value>& table)
      : table_(&table),
        links_(static_cast<std::size_t>(table.city_count())),
        queue_(static_cast<std::size_t>(table.city_count())) {}

  const Link* links() const { return links_.data(); }
  const City* queue() const { return queue_.data(); }

  // Makes at least the first `count` cities (at most the city count) of the order from `start`.
  void reach(City start, std::int32_t count) {
    if (start != start_) {
      start_ = start;
      links_[start] = Link{};
      queue_[0] = start;
      queue_end_ = 1;
      head_ = 0;
    }
    while (queue_end_ < count)
      reach_neighbours(queue_[head_++]);
  }

 private:
  // Queues the neighbours of `city` that are one road further from the start.
  void reach_neighbours(City city) {
    const Link& link = links_[city];
    const ArrivalId back = link.up == kNone ? kNone : table_->rows()[link.up].reverse;
    for (ArrivalId in = table_->arrivals_begin(city); in < table_->arrivals_end(city); ++in) {
      if (in == back)
        continue;
      const City next = table_->tail(in);
      links_[next] = Link{in, city, link.depth + 1, link.depth == 0 ? next : link.branch};
      queue_[queue_end_++] = next;
    }
  }

  const ArrivalTable<Value>* table_;
  std::vector<Link> links_;
  std::vector<City> queue_;
  City start_ = kNone;
  std::int32_t queue_end_ = 0;
  std::int32_t head_ = 0;
};

// A lower bound of V(i, j) for every B start j of one row at once, from one strategy of A's: she
// leaves at once into a branch X of her start i that does not hold j, where B can never follow
// (the only road in is spent), so she keeps C_i plus X's richest walk; B, whatever she does, gets
// at most the richest walk from j in the tree without X, i's coins already taken. X is i's
// richest branch, or for j inside that one the next richest. From a leaf, A first walks to its
// one neighbour s (hers before B's first move, unless B starts there) and leaves from s instead.
// Far B starts of a row that wins (along a long caterpillar's spine) mostly lie above the row's
// value by this bound alone, and are skipped instead of costing a chain of their distance each.
// O(N) for the whole row.
template <typename Value>
class LeaveAtOnceBound {
 public:
  explicit LeaveAtOnceBound(const ArrivalTable<Value>& table)
      : table_(&table),
        bound_(static_cast<std::size_t>(table.city_count())),
        up_walk_(static_cast<std::size_t>(table.city_count())),
        branch_(static_cast<std::size_t>(table.city_count())) {}

  City row() const { return row_; }
  Coins at(City j) const { return bound_[static_cast<std::size_t>(j)]; }

  // The bounds of the row whose whole breadth-first order `links` and `queue` give.
  void compute(const Link* links, const City* queue) {
    const ArrivalRow<Value>* rows = table_->rows();
    const std::int32_t n = table_->city_count();
    const City i = queue[0];
    row_ = i;
    const std::int32_t degree = table_->arrivals_end(i) - table_->arrivals_begin(i);
    if (degree == 0) {  // a single city: B starts on it
      bound_[static_cast<std::size_t>(i)] = kNoWay;
      return;
    }
    // Where A leaves from (i, or a leaf's neighbour), at `pivot_depth` roads from i, and what
    // she has taken on the way there.
    const bool from_leaf = degree == 1;
    const City pivot = from_leaf ? queue[1] : i;
    const std::int32_t pivot_depth = from_leaf ? 1 : 0;
    const Coins taken = coins_of(i) + (from_leaf ? coins_of(pivot) : 0);
    // The walk that starts on a city v and stays on v's side of its road to its parent.
    const auto down = [&](City v) {
      return Coins{rows[links[v].up].tail_coins} + rows[links[v].up].best;
    };
    const auto walk = [&](City c) { return c == kNone ? Coins{0} : down(c); };
    // The pivot's three richest branches away from i (kNone past its degree).
    City top[3] = {kNone, kNone, kNone};
    for (ArrivalId in = table_->arrivals_begin(pivot); in < table_->arrivals_end(pivot); ++in) {
      City c = table_->tail(in);
      if (c == i)
        continue;
      for (City& slot : top) {
        if (slot == kNone || down(c) > down(slot))
          std::swap(slot, c);
        if (c == kNone)
          break;
      }
    }
    for (std::int32_t k = 0; k < n; ++k) {
      const City v = queue[k];
      const Link& link = links[v];
      const auto at = static_cast<std::size_t>(v);
      if (link.depth <= pivot_depth) {
        bound_[at] = kNoWay;
        continue;
      }
      branch_[at] =
          link.depth == pivot_depth + 1 ? v : branch_[static_cast<std::size_t>(link.parent)];
      const City x = branch_[at] == top[0] ? top[1] : top[0];  // A's branch against v
      if (link.depth == pivot_depth + 1) {
        // The pivot's coins are A's: B's walk on from it takes another of its branches.
        City other = kNone;
        for (const City c : top) {
          if (c != v && c != x && other == kNone)
            other = c;
        }
        up_walk_[at] = walk(other);
      } else {
        const ArrivalRow<Value>& parent_row = rows[links[link.parent].up];
        const Coins sibling =
            parent_row.best_arrival == link.up ? parent_row.second : parent_row.best;
        up_walk_[at] = Coins{parent_row.tail_coins} +
                       std::max(up_walk_[static_cast<std::size_t>(link.parent)], sibling);
      }
      const Coins b_most =
          Coins{rows[link.up].tail_coins} + std::max(Coins{rows[link.up].best}, up_walk_[at]);
      bound_[at] = x == kNone ? kNoWay : taken + down(x) - b_most;
    }
  }

 private:
  Coins coins_of(City city) const {
    return table_->rows()[table_->arrivals_begin(city)].head_coins;
  }

  const ArrivalTable<Value>* table_;
  std::vector<Coins> bound_;    // per city, kNoWay where the strategy does not apply
  std::vector<Coins> up_walk_;  // per city v: B's richest walk from v's parent away from v
  std::vector<City> branch_;    // per city: the pivot's neighbour on its way there
  City row_ = kNone;
};

}  // namespace gamebatch::willow::detail
