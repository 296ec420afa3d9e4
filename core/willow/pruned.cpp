// The pruned max-min search: the answer is max over A's start i of min over B's start j of V(i, j),
// and most pairs (i, j) need not be evaluated at all.
//
// One pair alone. While the players can still reach each other, the one to move either steps
// towards the other or leaves the path between them for good, after which the other takes her
// best way off the path between them (solver.cpp's model). So V(i, j) is a chain of dist(i, j) + 1
// states along the path i = v_0 ... v_d = j: the meeting on v_ceil(d/2) (the mover takes the
// richest branch there, the other the next), then one state per step outwards, the players'
// stretch [x, y] growing by one city on the side of whoever moves. A state's "leave" option needs
// the other player's best way off: her own branch where she stands, or walking towards the mover
// and branching off at an inner city k (the coins up to k with prefix sums, plus k's branch), or
// at the mover's city (its next branch). The inner cities' best grows by one city per state, so a
// running maximum gives it in O(1): O(d) per pair, two passes over the path (gather the cities'
// branches from j up to i, then evaluate from the meeting outwards).
//
// Search order. A row (A's start i) is worth the minimum of V(i, j) over B's starts j; the answer
// is the largest row. Any j's evaluated so far give an upper bound of the row (their minimum).
// Every row starts with the cheap bound of B starting on i or on a neighbour of i; then the row
// with the highest bound is taken (best first, a priority queue): it is tried against the few B
// starts that brought earlier rows down (the "killers": a far rich region that A must give up
// fells many rows, and nearest-first finds it late), then against its own j's in breadth-first
// order from i, nearest first, in batches that double, as long as it stays ahead of every other
// row's bound. A row evaluated against every j while ahead of every other bound is the answer:
// every other row is worth at most its bound. Nearest first and killers first were measured to
// need far fewer pairs than "rows in bound order, each cut at the best row so far" (random trees
// of N = 30,000: 0.001 to 0.065 N^2 chain steps against about 0.3 N^2).
//
// Threads. The cheap bounds are computed on all threads; a batch of a row's j's is spread over the
// threads once it is large (a parallel reduction of the least value, ties to the lowest city).
// The order of the search depends only on values, never on the schedule, so neither the answer
// nor the work depends on the thread count (but for the moment a budget run-out is noticed: the
// threads add their steps to the shared count in chunks).
//
// Budget. Each pair costs d + 1 chain steps; once the steps spent pass the caller's budget (about
// what the forest walk would cost for the case), the search gives up and the walk answers.
#include "core/willow/pruned.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <oneapi/tbb/task_arena.h>

#include "core/stop_request.hpp"

namespace gamebatch::willow::detail {
namespace {

// Below every value and far enough from the bottom to subtract a coin sum.
constexpr Coins kNoWay = std::numeric_limits<Coins>::min() / 4;

// How a city was reached by the breadth-first search of a row: over the arrival `up` (tail: this
// city, head: `parent`, one road nearer A's start), `depth` roads from A's start.
struct Link {
  ArrivalId up = kNone;
  City parent = kNone;
  std::int32_t depth = 0;
};

// One city v_k of the path between the starts, as the chain reads it.
template <typename Value>
struct PathCity {
  Value suffix = 0;  // the coins of v_k ... v_d
  // The richest and next richest branch at v_k that leave the path (0 where none); the richest
  // again, but kNoBranch where there is none.
  Value leave = 0;
  Value leave_next = 0;
  Value leave_or_none = 0;
};

// The work of one search, shared by its threads.
struct SearchState {
  explicit SearchState(const PrunedLimits& limits) : budget(limits.budget_chain_steps) {}

  std::atomic<std::int64_t> steps{0};
  std::atomic<bool> over_budget{false};
  std::int64_t budget;
};

// Evaluates start pairs along their paths; one per thread (it owns the path buffer).
template <typename Value>
class ChainEvaluator {
 public:
  ChainEvaluator(const ArrivalTable<Value>& table, SearchState& state)
      : rows_(table.rows()),
        state_(&state),
        path_(static_cast<std::size_t>(table.city_count()) + 2),
        up_(static_cast<std::size_t>(table.city_count())),
        flush_every_(std::clamp<std::int64_t>(state.budget / 16, 1, std::int64_t{1} << 15)) {}

  // V(i, j) for j = `j`, whose way to i the links of i's breadth-first order give.
  Coins pair_value(const Link* links, City j) {
    City city = j;
    return path_value(links[j].depth, [&] {
      const Link& link = links[city];
      city = link.parent;
      return link.up;
    });
  }

  // V(i, j) for a neighbour j of i, where `into_i` is the arrival j -> i.
  Coins neighbour_value(ArrivalId into_i) {
    return path_value(1, [into_i] { return into_i; });
  }

  // V(i, j) for any i and j, their path found through the links of the tree's rooting (the
  // breadth-first order from any city): up from j to the meeting of the two ways to the root,
  // then down to i.
  Coins value_by_root(const Link* rooted, City i, City j) {
    std::size_t j_side = 0;
    std::size_t i_side = up_.size();
    while (i != j) {
      if (rooted[j].depth >= rooted[i].depth) {
        up_[j_side++] = rooted[j].up;
        j = rooted[j].parent;
      } else {
        up_[--i_side] = rows_[rooted[i].up].reverse;  // from i's parent down to i
        i = rooted[i].parent;
      }
    }
    const std::size_t depth = j_side + (up_.size() - i_side);
    std::size_t next = 0;
    return path_value(static_cast<std::int32_t>(depth),
                      [&] { return next < j_side ? up_[next++] : up_[i_side++]; });
  }

  // Counts a pair's steps; now and then adds them to the shared count and checks the budget and
  // the stop request. Returns false once the search is over its budget.
  bool account() {
    unflushed_ += last_depth_ + 1;
    if (unflushed_ < flush_every_)
      return true;
    const std::int64_t total =
        state_->steps.fetch_add(unflushed_, std::memory_order_relaxed) + unflushed_;
    unflushed_ = 0;
    if (total > state_->budget)
      state_->over_budget.store(true, std::memory_order_relaxed);
    throw_if_stop_requested();
    return !state_->over_budget.load(std::memory_order_relaxed);
  }
  void flush() {
    state_->steps.fetch_add(unflushed_, std::memory_order_relaxed);
    unflushed_ = 0;
  }

 private:
  // V(v_0, v_d) for the path whose arrivals towards v_0, from v_d's on (v_d -> v_(d-1) first),
  // `next_up()` gives one by one.
  template <typename NextUp>
  Coins path_value(std::int32_t depth, NextUp next_up) {
    last_depth_ = depth;
    ArrivalId after = kNone;  // the arrival at the current city from the next one towards v_d
    Coins suffix = 0;
    for (std::int32_t k = depth; k > 0; --k) {
      const ArrivalId up = next_up();
      suffix = set_city(k, rows_[up], after, suffix);
      after = up;
    }
    // A's start: its branches that avoid v_1, from the arrival v_0 -> v_1.
    set_city(0, rows_[rows_[after].reverse], kNone, suffix);
    return chain_value(depth);
  }

  // Fills path_[k] from the row of the arrival v_k -> v_(k-1) (v_k's branches that avoid
  // v_(k-1)), leaving out also the branch over the arrival `after` (from v_(k+1), kNone at the
  // path's ends). Returns the suffix sum through v_k.
  Coins set_city(std::int32_t k, const ArrivalRow<Value>& row, ArrivalId after, Coins suffix) {
    PathCity<Value>& city = path_[static_cast<std::size_t>(k)];
    suffix += row.tail_coins;
    city.suffix = static_cast<Value>(suffix);
    if (after != kNone && after == row.best_arrival) {
      city.leave = row.second;
      city.leave_next = row.third;
      city.leave_or_none = row.second_or_none;
    } else {
      city.leave = row.best;
      city.leave_next = after != kNone && after == row.second_arrival ? row.third : row.second;
      city.leave_or_none = row.best_or_none;
    }
    return suffix;
  }

  // V(v_0, v_d) from path_[0..depth] (path_[depth + 1] is past the end: suffix 0).
  Coins chain_value(std::int32_t depth) {
    const PathCity<Value>* path = path_.data();
    path_[static_cast<std::size_t>(depth) + 1].suffix = 0;
    const auto suffix = [path](std::int32_t k) { return Coins{path[k].suffix}; };
    const auto coins = [&suffix](std::int32_t k) { return suffix(k) - suffix(k + 1); };
    if (depth == 0)
      return coins(0) + path[0].leave - path[0].leave_next;
    // The meeting: the player to move takes the richest branch, the other the next.
    std::int32_t a_at = (depth + 1) / 2;
    std::int32_t b_at = a_at;
    Coins value = Coins{path[a_at].leave} - path[a_at].leave_next;
    // Over the cities k strictly between the players: B walking to k and leaving there gets
    // leave(k) + suffix(k) - suffix(b_at); A gets leave(k) - suffix(k + 1) + suffix(a_at + 1).
    Coins b_walks_best = kNoWay;
    Coins a_walks_best = kNoWay;
    const auto now_between = [&](std::int32_t k) {
      b_walks_best = std::max(b_walks_best, path[k].leave + suffix(k));
      a_walks_best = std::max(a_walks_best, path[k].leave - suffix(k + 1));
    };
    for (std::int32_t t = depth - 1; t >= 0; --t) {
      const bool a_moves = (t & 1) == 0;
      if (a_at != b_at)
        now_between(a_moves ? a_at : b_at);
      a_moves ? --a_at : ++b_at;
      const bool adjacent = a_at + 1 == b_at;  // a step lands on the other's city: no coins
      const Coins between = suffix(a_at + 1) - suffix(b_at);
      Coins step = 0;
      Coins leave = 0;
      Coins other = 0;
      if (a_moves) {
        step = adjacent ? 0 : coins(a_at + 1);
        leave = path[a_at].leave_or_none;
        other = std::max({Coins{path[b_at].leave}, b_walks_best - suffix(b_at),
                          between + path[a_at].leave_next});
      } else {
        step = adjacent ? 0 : coins(b_at - 1);
        leave = path[b_at].leave_or_none;
        other = std::max({Coins{path[a_at].leave}, a_walks_best + suffix(a_at + 1),
                          between + path[b_at].leave_next});
      }
      value = std::max(step - value, leave - other);
    }
    return coins(0) - coins(depth) + value;
  }

  const ArrivalRow<Value>* rows_;
  SearchState* state_;
  std::vector<PathCity<Value>> path_;
  std::vector<ArrivalId> up_;  // value_by_root's path
  std::int64_t flush_every_;
  std::int64_t unflushed_ = 0;
  std::int32_t last_depth_ = 0;
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
      links_[next] = Link{in, city, link.depth + 1};
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

// A row (A's start) as far as it has been evaluated: the minimum over its first `evaluated` B
// starts in breadth-first order, an upper bound of its value (the value once all are evaluated).
struct Row {
  Coins bound;
  std::int32_t evaluated;
  City start;
  City least_at;  // a B start of value `bound`
};

// The least of some start pairs' values, and the lowest B start that has it.
struct Least {
  Coins value = std::numeric_limits<Coins>::max();
  City at = kNone;

  void add(Coins other_value, City other_at) {
    if (other_value < value || (other_value == value && other_at < at)) {
      value = other_value;
      at = other_at;
    }
  }
};

// B starts that brought rows down recently, most recent first: a row that stays high against
// the nearby B starts often falls to a far one that felled a row before (a rich region that A
// must give up), so these are tried before the row's own order goes far.
class Killers {
 public:
  const std::vector<City>& cities() const { return cities_; }
  void add(City city) {
    const auto it = std::find(cities_.begin(), cities_.end(), city);
    if (it != cities_.end())
      cities_.erase(it);
    cities_.insert(cities_.begin(), city);
    if (cities_.size() > kKept)
      cities_.pop_back();
  }

 private:
  static constexpr std::size_t kKept = 8;
  std::vector<City> cities_;
};

// The order of the search: the highest bound first; of equal ones the more evaluated (a finished
// row before an unfinished one), then the lower city. As a "less than" for std::push_heap.
bool comes_later(const Row& a, const Row& b) {
  if (a.bound != b.bound)
    return a.bound < b.bound;
  if (a.evaluated != b.evaluated)
    return a.evaluated < b.evaluated;
  return a.start > b.start;
}

// The first batch of a row's B starts beyond its neighbours; each later batch doubles the count.
constexpr std::int32_t kFirstBatch = 16;
// From this many B starts a batch is spread over the threads.
constexpr std::int32_t kParallelBatch = 256;

}  // namespace

template <typename Value>
bool pruned_search(const ArrivalTable<Value>& table, const PrunedLimits& limits,
                   SolveReport& report) {
  const std::int32_t n = table.city_count();
  const bool parallel = n >= limits.parallel_from_cities;
  SearchState state(limits);
  tbb::enumerable_thread_specific<ChainEvaluator<Value>> chains(
      [&table, &state] { return ChainEvaluator<Value>(table, state); });

  // Every row with its start and its neighbours as B's starts: the first 1 + degree cities of its
  // breadth-first order.
  std::vector<Row> rows(static_cast<std::size_t>(n));
  const auto bound_rows = [&](const tbb::blocked_range<City>& starts) {
    ChainEvaluator<Value>& own = chains.local();
    for (City i = starts.begin(); i != starts.end(); ++i) {
      Least least;
      least.add(table.same_start_value(i), i);
      for (ArrivalId in = table.arrivals_begin(i); in < table.arrivals_end(i); ++in)
        least.add(own.neighbour_value(in), table.tail(in));
      rows[static_cast<std::size_t>(i)] =
          Row{least.value, 1 + table.arrivals_end(i) - table.arrivals_begin(i), i, least.at};
    }
  };

  // B's starts [begin, end) of the order's row.
  RowOrder<Value> order(table);
  const auto evaluate = [&](const tbb::blocked_range<std::int32_t>& ks, Least least) {
    ChainEvaluator<Value>& own = chains.local();
    for (std::int32_t k = ks.begin(); k != ks.end(); ++k) {
      const City j = order.queue()[k];
      least.add(own.pair_value(order.links(), j), j);
      if (!own.account())
        break;
    }
    return least;
  };
  const auto evaluate_batch = [&](std::int32_t begin, std::int32_t end) {
    const tbb::blocked_range<std::int32_t> batch(begin, end, 32);
    if (parallel && end - begin >= kParallelBatch) {
      return tbb::parallel_reduce(batch, Least{}, evaluate, [](Least a, const Least& b) {
        a.add(b.value, b.at);
        return a;
      });
    }
    return evaluate(batch, Least{});
  };

  // Best first: the row with the highest bound is evaluated further, batch by batch, while it
  // stays ahead of every other row; a finished row ahead of all is the answer, since every other
  // row's value is at most its bound.
  RowOrder<Value> rooting(table);  // the tree rooted anywhere, for the paths to the killers
  Killers killers;
  const auto search = [&] {
    rooting.reach(0, n);
    std::make_heap(rows.begin(), rows.end(), comes_later);
    for (;;) {
      std::pop_heap(rows.begin(), rows.end(), comes_later);
      Row row = rows.back();
      rows.pop_back();
      if (row.evaluated == n) {
        report.value = row.bound;
        return true;
      }
      if (row.evaluated == 1 + table.arrivals_end(row.start) - table.arrivals_begin(row.start))
        ++report.rows_searched;
      Least least{row.bound, row.least_at};
      ChainEvaluator<Value>& own = chains.local();
      for (const City killer : killers.cities()) {
        if (killer == row.start)
          continue;
        least.add(own.value_by_root(rooting.links(), row.start, killer), killer);
        own.account();
      }
      row.bound = least.value;
      while (row.evaluated < n && (rows.empty() || !comes_later(row, rows.front()))) {
        const std::int32_t end =
            std::min(n, std::max(2 * row.evaluated, row.evaluated + kFirstBatch));
        order.reach(row.start, end);
        const Least batch = evaluate_batch(row.evaluated, end);
        least.add(batch.value, batch.at);
        row.bound = least.value;
        row.evaluated = end;
        if (state.over_budget.load(std::memory_order_relaxed))
          return false;
      }
      row.least_at = least.at;
      killers.add(least.at);
      if (row.evaluated == n)
        ++report.rows_whole;
      rows.push_back(row);
      std::push_heap(rows.begin(), rows.end(), comes_later);
    }
  };

  bool finished = false;
  if (parallel) {
    // Isolated: a thread waiting in one of these loops must not pick up another case's work and
    // re-enter its own chain evaluator.
    tbb::this_task_arena::isolate([&] {
      tbb::parallel_for(tbb::blocked_range<City>(0, n, 256), bound_rows);
      finished = search();
    });
  } else {
    bound_rows(tbb::blocked_range<City>(0, n));
    finished = search();
  }
  for (ChainEvaluator<Value>& own : chains)
    own.flush();
  report.chain_steps = state.steps.load();
  return finished;
}

template bool pruned_search(const ArrivalTable<std::int32_t>&, const PrunedLimits&, SolveReport&);
template bool pruned_search(const ArrivalTable<Coins>&, const PrunedLimits&, SolveReport&);

}  // namespace gamebatch::willow::detail
