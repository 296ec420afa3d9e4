// A row of the pruned search (pruned.cpp): the breadth-first order of the cities from A's start,
// and lower bounds of the row's start pairs read off it. Internal to core/willow.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
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

// The suffix extremes of terms pushed by depth along a root path that a depth-first walk keeps:
// the least (or greatest, `Better` std::greater) term from any depth on by a binary search. The
// candidates (terms better than every one pushed deeper) get worse with depth; a push overwrites
// one of them, which `Undo` restores when the walk leaves the city. Memory O(the depth).
template <typename Better>
class SuffixBest {
 public:
  struct Undo {
    std::int32_t at;
    std::int32_t depth;
    Coins term;
    std::int32_t count;
  };

  SuffixBest() = default;

  void clear() { count_ = 0; }

  Undo push(std::int32_t depth, Coins term) {
    const auto end = term_.begin() + count_;
    const auto at = static_cast<std::size_t>(
        std::partition_point(term_.begin(), end,
                             [term](Coins candidate) { return Better{}(candidate, term); }) -
        term_.begin());
    if (at == term_.size()) {  // as deep as the walk goes
      depth_.push_back(0);
      term_.push_back(0);
    }
    const Undo undo{static_cast<std::int32_t>(at), depth_[at], term_[at], count_};
    depth_[at] = depth;
    term_[at] = term;
    count_ = static_cast<std::int32_t>(at) + 1;
    return undo;
  }

  void undo(const Undo& undo) {
    depth_[static_cast<std::size_t>(undo.at)] = undo.depth;
    term_[static_cast<std::size_t>(undo.at)] = undo.term;
    count_ = undo.count;
  }

  // The depth of the candidate below the last one pushed (the deepest one above it with a better
  // term), -1 where there is none.
  std::int32_t depth_below_top() const {
    return count_ >= 2 ? depth_[static_cast<std::size_t>(count_) - 2] : -1;
  }

  // The best term pushed at `from` or deeper, `none` where there is none.
  Coins best_from(std::int32_t from, Coins none) const {
    const auto end = depth_.begin() + count_;
    const auto first = std::partition_point(depth_.begin(), end,
                                            [from](std::int32_t depth) { return depth < from; });
    return first == end ? none : term_[static_cast<std::size_t>(first - depth_.begin())];
  }

 private:
  std::vector<std::int32_t> depth_;  // per candidate
  std::vector<Coins> term_;
  std::int32_t count_ = 0;
};

// The best term (least, or greatest with `Better` std::greater) and its depth over a range of
// depths of the root path a depth-first walk keeps: a segment tree over depths whose leaf of
// depth b the walk sets on its way down through depth b. Deeper leaves may still hold another
// branch's terms; ranges never reach below the city queried. Memory O(the depth), O(log N) a step.
template <typename Better>
class DepthTree {
 public:
  struct Best {
    Coins term;
    std::int32_t depth;
  };

  explicit DepthTree(Coins none) : none_(none), nodes_(2, Best{none, -1}) {}

  void set(std::int32_t depth, Coins term) {
    if (static_cast<std::size_t>(depth) >= leaves_)
      grow(static_cast<std::size_t>(depth) + 1);
    std::size_t at = leaves_ + static_cast<std::size_t>(depth);
    nodes_[at] = Best{term, depth};
    for (at /= 2; at >= 1; at /= 2)
      nodes_[at] = better(nodes_[2 * at], nodes_[2 * at + 1]);
  }

  // The best term of depths [from, to] (`none` and depth -1 where the range is empty).
  Best best(std::int32_t from, std::int32_t to) const {
    Best found{none_, -1};
    if (from > to)
      return found;
    std::size_t low = leaves_ + static_cast<std::size_t>(from);
    std::size_t high = leaves_ + static_cast<std::size_t>(to) + 1;
    for (; low < high; low /= 2, high /= 2) {
      if ((low & 1U) != 0)
        found = better(found, nodes_[low++]);
      if ((high & 1U) != 0)
        found = better(found, nodes_[--high]);
    }
    return found;
  }

 private:
  static Best better(const Best& a, const Best& b) { return Better{}(b.term, a.term) ? b : a; }

  // Room for `depths` leaves (as deep as the walk goes), keeping those set.
  void grow(std::size_t depths) {
    std::size_t leaves = leaves_;
    while (leaves < depths)
      leaves *= 2;
    std::vector<Best> nodes(2 * leaves, Best{none_, -1});
    std::copy(nodes_.begin() + static_cast<std::ptrdiff_t>(leaves_), nodes_.end(),
              nodes.begin() + static_cast<std::ptrdiff_t>(leaves));
    for (std::size_t at = leaves - 1; at >= 1; --at)
      nodes[at] = better(nodes[2 * at], nodes[2 * at + 1]);
    leaves_ = leaves;
    nodes_ = std::move(nodes);
  }

  Coins none_;
  std::size_t leaves_ = 1;
  std::vector<Best> nodes_;
};

// The halfway bounds: lower bounds of V(i, j) for a whole row at once. On the path
// i = v_0 ... v_d = j: P(b) the coins of v_0 ... v_b, off(v) v's richest branch off the path and
// off2(v) the next (0 where none; for j, every branch but the path's), h = floor(d / 2). A's
// states on the way in are (a, d - a) (her move, after a steps each), B's (d - b + 1, b).
//
// A walks in (lower bounds). A never leaves the path first; when B leaves it from v_b, A (on
// v_a, a = d - b + 1) has at least her walk on to any v_k, a <= k < b, and off(v_k); B at most
// P(b, d) + off(v_b). B walking in too ends in the meeting, A with P(h) and B with the rest and
// at most off(v_(h + 1)). With a pivot k <= h: B leaving from b > d - k leaves A v_k's branch,
// A - B >= P(k) + off(v_k) - P(b, d) - off(v_b); from b <= d - k, and in the meeting, A has the
// path up to v_(b - 1): A - B >= P(b - 1) - P(b, d) - off(v_b), b > h. V(i, j) is at least the
// least of these (without a pivot, the latter for every b > h).
// In the chain's terms (pruned.cpp): A's states keep only the step inwards (V falls, every state
// being monotone in the next one), and B's "leave" is set against one of A's ways off.
//
// A walks to a pivot v_k, 2k <= d, and leaves by off(v_k) whatever B does. B moves k - 1 times
// before A reaches v_k and k times before A leaves it, so she never walks a road of A's way or
// her branch's only road in: A has at least P(k) + off(v_k); B's simple path leaves the path at
// some v_b, k < b <= d (P(b, d) + off(v_b)), or goes on to v_k, whose coins are gone, and by its
// next branch (P(k + 1, d) + off2(v_k)).
//
// The pivots tried are the last few k <= h whose P(k) + off(v_k) is more than every later one's up
// to h (a later pivot with as much leaves B less).
//
// Where B far along a comb's spine threatens to walk in and take another leg (a tripod or a
// spider of combs), A meets her halfway, and that leg stays unwalked, or reaches the joint
// first and takes the leg herself: these bounds are about the pairs' values there, where
// leaving at once is far below them. Made
// by a depth-first walk of the tree from i that keeps the root path's terms (each with off
// excluding the path's next city, set on the way down): O(N log N) a row, memory O(the depth).
template <typename Value>
class HalfwayBound {
 public:
  explicit HalfwayBound(const ArrivalTable<Value>& table)
      : table_(&table), rows_(table.rows()), frames_(1), walk_in_terms_(kAboveAll) {}

  // Raises bound[j] to these bounds of V(i, j) wherever they are higher, for every j but i; a
  // bound that is above `enough` is not raised further (it stays above it, as the whole bound
  // would).
  void raise(City i, std::vector<Coins>& bound, Coins enough) {
    const ArrivalId first = table_->arrivals_begin(i);
    if (first == table_->arrivals_end(i))
      return;  // a single city
    frames_[0] = Frame{i, kNone, first, Coins{rows_[first].head_coins}};
    pivot_terms_.clear();
    leave_terms_.clear();
    std::int32_t top = 0;
    while (top >= 0) {
      Frame& frame = frames_[static_cast<std::size_t>(top)];
      if (frame.next == table_->arrivals_end(frame.city)) {
        if (top > 0)
          leave(frames_[static_cast<std::size_t>(top) - 1]);
        --top;
        continue;
      }
      const ArrivalId in = frame.next++;  // from a child to frame.city
      if (top > 0 && table_->tail(in) == frames_[static_cast<std::size_t>(top) - 1].city)
        continue;
      descend(top, in);
      ++top;
      const auto j = static_cast<std::size_t>(table_->tail(in));
      if (bound[j] <= enough)
        bound[j] = a_halfway(ends_of(top), bound[j], enough);
    }
  }

 private:
  static constexpr Coins kAboveAll = std::numeric_limits<Coins>::max() / 4;
  static constexpr std::int32_t kPivotsTried = 8;

  // A city of the root path: its way up, the next of its arrivals to go down by, P of the path
  // through it; for the way down to its child now walked: off and off2 without the child,
  // P + off as a pivot and the depth of the last city above with more (-1: none), and what the
  // pivot's push overwrote.
  struct Frame {
    City city;
    ArrivalId up;
    ArrivalId next;
    Coins prefix;
    Coins off = 0;
    Coins off2 = 0;
    Coins pivot_value = 0;
    std::int32_t richer_pivot = -1;
    typename SuffixBest<std::greater<>>::Undo pivot_undo{};
    typename SuffixBest<std::greater<>>::Undo leave_undo{};
  };

  // Back up from `parent`'s child: its terms for that way are taken back.
  void leave(const Frame& parent) {
    pivot_terms_.undo(parent.pivot_undo);
    if (&parent != &frames_[0])
      leave_terms_.undo(parent.leave_undo);
  }

  // What the bounds of the city at depth d read of d and of its own row.
  struct Ends {
    std::int32_t d;
    std::int32_t h;
    Coins prefix;   // P(d)
    Coins leave;    // off(j) - P(d - 1), off(j) every branch of j's but the path's
    Coins walk_in;  // 2 P(d - 1) - off(j)
  };

  Ends ends_of(std::int32_t top) const {
    const Frame& own = frames_[static_cast<std::size_t>(top)];
    const Coins before = frames_[static_cast<std::size_t>(top) - 1].prefix;
    const Coins off = rows_[own.up].best;
    return Ends{top, top / 2, own.prefix, off - before, 2 * before - off};
  }

  // Goes down from the city at depth `top` over the arrival `in` (from its child): sets the
  // city's terms for that way and makes the child's frame.
  void descend(std::int32_t top, ArrivalId in) {
    if (frames_.size() == static_cast<std::size_t>(top) + 1)
      frames_.emplace_back();  // as deep as the walk goes
    Frame& frame = frames_[static_cast<std::size_t>(top)];
    // The city's branches that avoid the child (and its parent, over its way up).
    const ArrivalRow<Value>& row = rows_[top == 0 ? rows_[in].reverse : frame.up];
    frame.off = row.best_arrival == in ? row.second : row.best;
    frame.off2 = row.best_arrival == in || row.second_arrival == in ? row.third : row.second;
    frame.pivot_value = frame.prefix + frame.off;
    frame.pivot_undo = pivot_terms_.push(top, frame.pivot_value);
    frame.richer_pivot = pivot_terms_.depth_below_top();
    if (top > 0) {
      const Coins before = frames_[static_cast<std::size_t>(top) - 1].prefix;  // P(top - 1)
      walk_in_terms_.set(top, 2 * before - frame.off);
      frame.leave_undo = leave_terms_.push(top, frame.off - before);
    }
    Frame& child = frames_[static_cast<std::size_t>(top) + 1];
    child.city = table_->tail(in);
    child.up = in;
    child.next = table_->arrivals_begin(child.city);
    child.prefix = frame.prefix + rows_[in].tail_coins;
  }

  // The most of off(v_b) - P(b - 1) over b in [from, d].
  Coins leave_from(std::int32_t from, const Ends& ends) const {
    return std::max(leave_terms_.best_from(from, kNoWay), ends.leave);
  }

  // A's lower bounds, and `floor`: walking in without a pivot and with each pivot tried, and
  // walking to it. Stops once above `enough`; skips a pivot that cannot raise the bound (neither
  // of its bounds is more than P(k) + off(v_k) - P(d) - off(j) + P(d - 1)).
  Coins a_halfway(const Ends& ends, Coins floor, Coins enough) const {
    const auto walk_in_up_to = [&](std::int32_t last) {  // the least B leaving in [h + 1, last]
      const Coins inner = walk_in_terms_.best(ends.h + 1, std::min(last, ends.d - 1)).term;
      return (last >= ends.d ? std::min(inner, ends.walk_in) : inner) - ends.prefix;
    };
    Coins best = std::max(floor, walk_in_up_to(ends.d));
    std::int32_t k = ends.h;
    for (std::int32_t tried = 0; tried < kPivotsTried && k >= 0 && best <= enough; ++tried) {
      const Frame& pivot = frames_[static_cast<std::size_t>(k)];
      if (pivot.pivot_value - ends.prefix - ends.leave <= best) {
        k = pivot.richer_pivot;
        continue;
      }
      if (k >= 1) {
        const Coins late = pivot.pivot_value - ends.prefix - leave_from(ends.d - k + 1, ends);
        best = std::max(best, std::min(late, walk_in_up_to(std::max(ends.h + 1, ends.d - k))));
      }
      const Coins b_most =
          std::max(ends.prefix + leave_from(k + 1, ends), ends.prefix - pivot.prefix + pivot.off2);
      best = std::max(best, pivot.pivot_value - b_most);
      k = pivot.richer_pivot;
    }
    return best;
  }

  const ArrivalTable<Value>* table_;
  const ArrivalRow<Value>* rows_;
  std::vector<Frame> frames_;               // per depth
  SuffixBest<std::greater<>> pivot_terms_;  // P(a) + off(v_a) by depth a
  DepthTree<std::less<>> walk_in_terms_;    // 2 P(b - 1) - off(v_b)
  SuffixBest<std::greater<>> leave_terms_;  // off(v_b) - P(b - 1)
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
// Once made for the whole order, each bound is raised to HalfwayBound's where those are higher.
template <typename Value>
class LeaveAtOnceBound {
 public:
  explicit LeaveAtOnceBound(const ArrivalTable<Value>& table)
      : table_(&table),
        rows_(table.rows()),
        bound_(static_cast<std::size_t>(table.city_count())),
        up_walk_(static_cast<std::size_t>(table.city_count())),
        branch_(static_cast<std::size_t>(table.city_count())),
        halfway_(table) {}

  // How many cities of the order of the row from `start` have their bounds (0 where the bounds
  // are another row's).
  std::int32_t made(City start) const { return start == row_ ? made_ : 0; }
  Coins at(City j) const { return bound_[static_cast<std::size_t>(j)]; }
  // Whether the row of `start` has its whole order's bounds (HalfwayBound's among them).
  bool whole(City start) const { return start == row_ && halfway_made_; }

  // Makes the bounds of the first `count` cities of the order of the row from `start`, keeping
  // those made before for the same row. The order is made that far first: `order` may have been
  // another row's since this row's bounds were last extended, and then holds only what it made
  // for this row again.
  // Bounds above `enough` once the whole order's are made may stay below their halfway bounds
  // (they stay above `enough`): the search's row bound, which only falls.
  void reach(RowOrder<Value>& order, City start, std::int32_t count,
             Coins enough = std::numeric_limits<Coins>::max()) {
    order.reach(start, count);
    if (start != row_)
      start_row(start);
    for (; made_ < count; ++made_)
      bound_one(order.links(), order.queue()[made_]);
    if (made_ == table_->city_count() && !halfway_made_) {
      halfway_.raise(start, bound_, enough);
      halfway_made_ = true;
    }
  }

 private:
  // Where A, starting on i, leaves from, and the branches there she may take.
  void start_row(City i) {
    row_ = i;
    made_ = 0;
    halfway_made_ = false;
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
  // The halfway bound, raised into bound_ once the row's whole order is made.
  HalfwayBound<Value> halfway_;
  bool halfway_made_ = false;
};

}  // namespace gamebatch::willow::detail
