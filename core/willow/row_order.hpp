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
  // Queues the neighbours of `city` that are one road further from the start. The way back is
  // told by its tail, the parent, not by the arrival row's `reverse`: reading a row of the table
  // for each city (a cache miss on a large tree) was two thirds of the order's time.
  void reach_neighbours(City city) {
    const Link& link = links_[city];
    for (ArrivalId in = table_->arrivals_begin(city); in < table_->arrivals_end(city); ++in) {
      const City next = table_->tail(in);
      if (next == link.parent)
        continue;
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

// A lower bound of V(i, j) for the B starts j of one row, from one strategy of A's: she leaves at
// once into a branch X of her start i that does not hold j, where B can never follow (the only
// road in is spent), so she keeps C_i plus X's richest walk; B, whatever she does, gets at most
// the richest walk from j in the tree without X, i's coins already taken. X is i's richest
// branch, or for j inside that one the next richest. From a leaf, A first walks to its one
// neighbour s (hers before B's first move, unless B starts there) and leaves from s instead.
// Far B starts of a row that wins (along a long caterpillar's spine) mostly lie above the row's
// value by this bound alone, and are skipped instead of costing a chain of their distance each.
// Made in the row's breadth-first order, as far as the row's evaluation has got: O(1) a city.
template <typename Value>
class LeaveAtOnceBound {
 public:
  explicit LeaveAtOnceBound(const ArrivalTable<Value>& table)
      : table_(&table),
        rows_(table.rows()),
        bound_(static_cast<std::size_t>(table.city_count())),
        up_walk_(static_cast<std::size_t>(table.city_count())),
        branch_(static_cast<std::size_t>(table.city_count())) {}

  // How many cities of the order of the row from `start` have their bounds (0 where the bounds
  // are another row's).
  std::int32_t made(City start) const { return start == row_ ? made_ : 0; }
  Coins at(City j) const { return bound_[static_cast<std::size_t>(j)]; }

  // Makes the bounds of the first `count` cities of the order of the row from `start`, keeping
  // those made before for the same row. The order is made that far first: `order` may have been
  // another row's since this row's bounds were last extended, and then holds only what it made
  // for this row again.
  void reach(RowOrder<Value>& order, City start, std::int32_t count) {
    order.reach(start, count);
    if (start != row_)
      start_row(start);
    for (; made_ < count; ++made_)
      bound_one(order.links(), order.queue()[made_]);
  }

 private:
  // Where A, starting on i, leaves from, and the branches there she may take.
  void start_row(City i) {
    row_ = i;
    made_ = 0;
    const std::int32_t degree = table_->arrivals_end(i) - table_->arrivals_begin(i);
    const bool from_leaf = degree == 1;
    pivot_ = from_leaf ? table_->tail(table_->arrivals_begin(i)) : i;
    pivot_depth_ = from_leaf ? 1 : 0;
    taken_ = degree == 0 ? 0 : coins_of(i) + (from_leaf ? coins_of(pivot_) : 0);
    // The pivot's three richest branches away from i (kNone past its degree), by the arrivals
    // from their first cities.
    top_[0] = top_[1] = top_[2] = kNone;
    for (ArrivalId in = table_->arrivals_begin(pivot_); in < table_->arrivals_end(pivot_); ++in) {
      if (table_->tail(in) == i)
        continue;
      ArrivalId candidate = in;
      for (ArrivalId& slot : top_) {
        if (slot == kNone || walk(candidate) > walk(slot))
          std::swap(slot, candidate);
        if (candidate == kNone)
          break;
      }
    }
  }

  // The walk that starts on the tail of `arrival` and stays on its side of the road (0 for none).
  Coins walk(ArrivalId arrival) const {
    return arrival == kNone ? 0 : Coins{rows_[arrival].tail_coins} + rows_[arrival].best;
  }

  void bound_one(const Link* links, City v) {
    const Link& link = links[v];
    const auto at = static_cast<std::size_t>(v);
    if (link.depth <= pivot_depth_) {
      bound_[at] = kNoWay;
      return;
    }
    branch_[at] =
        link.depth == pivot_depth_ + 1 ? link.up : branch_[static_cast<std::size_t>(link.parent)];
    const ArrivalId x = branch_[at] == top_[0] ? top_[1] : top_[0];  // A's branch against v
    if (link.depth == pivot_depth_ + 1) {
      // The pivot's coins are A's: B's walk on from it takes another of its branches.
      ArrivalId other = kNone;
      for (const ArrivalId in : top_) {
        if (in != link.up && in != x && other == kNone)
          other = in;
      }
      up_walk_[at] = walk(other);
    } else {
      const ArrivalRow<Value>& parent_row = rows_[links[link.parent].up];
      const Coins sibling =
          parent_row.best_arrival == link.up ? parent_row.second : parent_row.best;
      up_walk_[at] = Coins{parent_row.tail_coins} +
                     std::max(up_walk_[static_cast<std::size_t>(link.parent)], sibling);
    }
    const ArrivalRow<Value>& own = rows_[link.up];
    const Coins b_most = Coins{own.tail_coins} + std::max(Coins{own.best}, up_walk_[at]);
    bound_[at] = x == kNone ? kNoWay : taken_ + walk(x) - b_most;
  }

  Coins coins_of(City city) const { return rows_[table_->arrivals_begin(city)].head_coins; }

  const ArrivalTable<Value>* table_;
  const ArrivalRow<Value>* rows_;
  std::vector<Coins> bound_;       // per city, kNoWay where the strategy does not apply
  std::vector<Coins> up_walk_;     // per city v: B's richest walk from v's parent away from v
  std::vector<ArrivalId> branch_;  // per city: the arrival at the pivot from its way there
  City row_ = kNone;
  std::int32_t made_ = 0;
  City pivot_ = kNone;  // i, or a leaf's neighbour
  std::int32_t pivot_depth_ = 0;
  Coins taken_ = 0;  // what A has on reaching the pivot
  ArrivalId top_[3] = {kNone, kNone, kNone};
};

}  // namespace gamebatch::willow::detail
