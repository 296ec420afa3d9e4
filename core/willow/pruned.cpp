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
// order from i, nearest first, in batches that grow, as long as it stays ahead of every other
// row's bound; once it has cost about as much as making the row's whole order, the row also
// tries the far end of its order (the far probe) and then, before each batch, samples B starts
// spread over the rest of its order (a row whose minimum lies far away, as in uniformly random
// trees, is cut there). A row evaluated against every j while ahead of every other bound is the
// answer: every other row is worth at most its bound. Nearest first and killers first were
// measured to need far fewer pairs than "rows in bound order, each cut at the best row so far"
// (random trees of N = 30,000: 0.001 to 0.065 N^2 chain steps against about 0.3 N^2).
//
// Lower bounds. The B starts of a far-probed row's costly batches (N chain steps or more) also get
// a cheap lower bound of their pair, O(1) each in the row's order (row_order.hpp's
// LeaveAtOnceBound: A leaves at once into a branch that B cannot enter, B takes the richest walk
// left to her); those whose bound lies above the row's bound when the batch began are skipped,
// since they cannot bring the row down. Once a far-probed row has cost 4N chain steps (or a batch
// would), every B start gets its bound, raised by the halfway bounds (row_order.hpp's
// HalfwayBound, O(N log N) a row): A walks towards B and either meets her halfway or, where B
// leaves first, takes a branch on the way (a pivot), or walks to a pivot and leaves there. On
// trees of long legs joined at a city (three combs, "tripod"; spiders of combs), where B far along
// one leg threatens to walk in and take another, leaving at once is far below the pairs' values
// and the halfway bounds are about them. From then on the row is settled least bound first
// (settle_by_bounds): the starts whose bound does not lie above the row's, in batches that double,
// until the next one's bound lies above the row's, when so do all the rest's. The B starts that
// hold the rows near a spider's joint to their values lie far along another leg, late in the
// breadth-first order, and their bounds equal their values: the first batch settles such a row.
// The tripod of 10^5 cities went from 0.036 N^2 chain steps to 0.0003 N^2, the worst spiders the
// search for slow trees found (tools/bench/willow_slow_shapes) from 0.33 N^2 to 0.004 N^2.
//
// Siblings. Consecutive B starts of a breadth-first order are mostly children of one city, whose
// paths from i differ only in their last city (and their parent's branch towards it): the chain
// of such a pair reads the same states as the last one's until B reaches the parent, so it
// resumes from the last chain's checkpoint there and evaluates only its last few states (on a
// caterpillar, whose spine cities all have leaves, a whole layer of the order costs one chain a
// side). A batch's B starts are taken grouped by the branch of i they lie in, which the order
// interleaves layer by layer; the suffix sums are kept from v_0 on, which the shared part keeps.
//
// Paths. When the tree is a path, a pair's value is a few prefix sums (PathLine), one step of
// work instead of d + 1, and the same search runs on those values. Where the tree has long runs
// of cities with two roads (BareChains: a broom's handle), a pair's path crosses each run in one
// step: a player who walks into such a city must walk on, so the chain's states there only add
// up coins (prefix sums of the run) until a mover reaches a city with a branch.
//
// Threads. The cheap bounds are computed on all threads; a batch of a row's j's is spread over the
// threads once it is large (a parallel reduction of the least value, ties to the lowest city), in
// parts split the same way on any schedule, each starting its chains afresh. The order of the
// search depends only on values, never on the schedule, so neither the answer nor the work
// depends on the thread count (but for the moment a budget run-out is noticed: the threads add
// their steps to the shared count in chunks).
//
// Budget. Each pair costs d + 1 chain steps (the states it evaluates, plus one); once the steps
// spent pass the caller's budget (about what the forest walk would cost for the case), the search
// gives up and the walk answers.
#include "core/willow/pruned.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <vector>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <oneapi/tbb/task_arena.h>

#include "core/stop_request.hpp"
#include "core/willow/row_order.hpp"

namespace gamebatch::willow::detail {
namespace {

// One city v_k of the path between the starts, as the chain reads it.
template <typename Value>
struct PathCity {
  // The coins of v_k ... v_d, less a constant the same for every k (the chain needs only their
  // differences): reused_path_value keeps minus the coins of v_0 ... v_(k-1), which do not
  // depend on B's start.
  Value suffix = 0;
  // The richest and next richest branch at v_k that leave the path (0 where none); the richest
  // again, but kNoBranch where there is none.
  Value leave = 0;
  Value leave_next = 0;
  Value leave_or_none = 0;
  Value coins = 0;  // v_k's own
};

// The work of one search, shared by its threads.
struct SearchState {
  explicit SearchState(const PrunedLimits& limits) : budget(limits.budget_chain_steps) {}

  std::atomic<std::int64_t> steps{0};
  std::atomic<bool> over_budget{false};
  std::int64_t budget;
};

// A tree that is a path, laid out as a line: V(i, j) in O(1) from prefix sums instead of a chain
// of dist(i, j) + 1 states. On a path each player's route is a direction chosen on her first
// move, A's first: away from the other or towards her. With A at a < b (positions on the line):
//   A away, B away:     A gets [0, a], B gets [b, end];
//   A away, B towards:  A gets [0, a], B gets [a + 1, b] (she stops on A's start);
//   A towards, B away:  A gets [a, b - 1], B gets [b, end];
//   A towards, both:    they meet; A gets [a, m], B gets [m + 1, b] with m = floor((a + b) / 2)
//                       (A, who moves first, reaches the middle city of an odd stretch first).
// V = max over A's direction of min over B's. A on an end of the line cannot move away, nor B
// on the other end, but each of those options is never better for its player than the other
// one (A's "away" gets less than "towards" against either reply; B's "away" from the end gives A
// more), so the formulas need no special case. Equal starts: A's city, then the richer side.
class PathLine {
 public:
  // The line of `table`'s tree, or an empty one (is_path() false) when some city has three
  // roads or more.
  template <typename Value>
  explicit PathLine(const ArrivalTable<Value>& table) {
    const City n = table.city_count();
    City end = n == 1 ? 0 : kNone;
    for (City city = 0; city < n; ++city) {
      const std::int32_t degree = table.arrivals_end(city) - table.arrivals_begin(city);
      if (degree > 2)
        return;
      if (degree == 1 && end == kNone)
        end = city;
    }
    position_.assign(static_cast<std::size_t>(n), 0);
    prefix_.assign(static_cast<std::size_t>(n) + 1, 0);
    City previous = kNone;
    City city = end;
    for (std::int32_t k = 0; k < n; ++k) {
      position_[city] = k;
      const ArrivalId in = table.arrivals_begin(city);
      prefix_[k + 1] =
          prefix_[k] + (n == 1 ? table.same_start_value(city) : Coins{table.rows()[in].head_coins});
      City next = kNone;
      for (ArrivalId road = in; road < table.arrivals_end(city); ++road) {
        if (table.tail(road) != previous)
          next = table.tail(road);
      }
      previous = city;
      city = next;
    }
  }

  bool is_path() const { return !position_.empty(); }

  Coins value(City i, City j) const {
    const std::int32_t a = position_[i];
    const std::int32_t b = position_[j];
    const std::int32_t last = static_cast<std::int32_t>(position_.size()) - 1;
    if (a == b) {
      const Coins left = sum(0, a - 1);
      const Coins right = sum(a + 1, last);
      return sum(a, a) + (left > right ? left - right : right - left);
    }
    if (a < b)
      return facing_value(a, b, [this](std::int32_t x, std::int32_t y) { return sum(x, y); });
    // Mirrored: position p becomes last - p.
    return facing_value(last - a, last - b, [this, last](std::int32_t x, std::int32_t y) {
      return sum(last - y, last - x);
    });
  }

 private:
  // The coins of positions [x, y] (0 where y < x).
  Coins sum(std::int32_t x, std::int32_t y) const {
    return y < x ? 0 : prefix_[y + 1] - prefix_[x];
  }

  // V for A at a < b, with `range_sum` the coins of positions [x, y] along this orientation.
  template <typename RangeSum>
  Coins facing_value(std::int32_t a, std::int32_t b, RangeSum range_sum) const {
    const std::int32_t last = static_cast<std::int32_t>(position_.size()) - 1;
    const std::int32_t middle = a + (b - a) / 2;
    const Coins a_away = range_sum(0, a) - std::max(range_sum(b, last), range_sum(a + 1, b));
    const Coins a_towards = std::min(range_sum(a, b - 1) - range_sum(b, last),
                                     range_sum(a, middle) - range_sum(middle + 1, b));
    return std::max(a_away, a_towards);
  }

  std::vector<std::int32_t> position_;  // per city
  std::vector<Coins> prefix_;           // the coins of positions [0, k)
};

// The maximal runs of cities with exactly two roads ("bare" cities: a player who walks into one
// can only walk on), each run's cities in a row in one array with their coins' prefix sums, so
// that a start pair's path crosses a run in O(1) (ChainEvaluator's sparse paths). Used only
// where the runs are long (a broom's handle, paths with a few branches or hanging chains).
class BareChains {
 public:
  template <typename Value>
  explicit BareChains(const ArrivalTable<Value>& table)
      : slot_(static_cast<std::size_t>(table.city_count()), kNone) {
    const auto bare = [&table](City city) {
      return table.arrivals_end(city) - table.arrivals_begin(city) == 2;
    };
    // The neighbour of a bare city other than `from`.
    const auto other = [&table](City city, City from) {
      const City first = table.tail(table.arrivals_begin(city));
      return first == from ? table.tail(table.arrivals_begin(city) + 1) : first;
    };
    prefix_.push_back(0);
    for (City city = 0; city < table.city_count(); ++city) {
      if (!bare(city) || slot_[city] != kNone)
        continue;
      // Out to one end of the run (`beyond` the first city past it), then along the run.
      City end = city;
      City beyond = table.tail(table.arrivals_begin(city));
      while (bare(beyond)) {
        const City next = other(beyond, end);
        end = beyond;
        beyond = next;
      }
      const auto first = static_cast<std::int32_t>(cities_.size());
      for (City at = end, from = beyond; bare(at);) {
        slot_[at] = static_cast<std::int32_t>(cities_.size());
        cities_.push_back(at);
        prefix_.push_back(prefix_.back() + table.rows()[table.arrivals_begin(at)].head_coins);
        const City next = other(at, from);
        from = at;
        at = next;
      }
      runs_.resize(cities_.size(), Run{first, static_cast<std::int32_t>(cities_.size())});
    }
  }

  // Whether the runs are long enough to pay for themselves: four cities to a run on average.
  bool worth_it() const {
    std::int64_t runs = 0;
    for (std::size_t s = 0; s < runs_.size(); s = static_cast<std::size_t>(runs_[s].end))
      ++runs;
    return runs > 0 && static_cast<std::int64_t>(cities_.size()) >= 4 * runs;
  }

  // The slot of a bare city, kNone for any other.
  std::int32_t slot(City city) const { return slot_[city]; }
  City city(std::int32_t slot) const { return cities_[static_cast<std::size_t>(slot)]; }
  // The coins of the slots between a and b, both included.
  Coins coins(std::int32_t a, std::int32_t b) const {
    return a <= b ? prefix_[b + 1] - prefix_[a] : prefix_[a + 1] - prefix_[b];
  }
  // From `slot`, how the slots go towards its run's neighbour `next` (+1 or -1, 0 where `next`
  // is not in the run), and how many slots there are that way, `slot` included.
  std::pair<std::int32_t, std::int32_t> towards(std::int32_t slot, City next) const {
    const Run run = runs_[static_cast<std::size_t>(slot)];
    if (slot + 1 < run.end && cities_[slot + 1] == next)
      return {1, run.end - slot};
    if (slot > run.begin && cities_[slot - 1] == next)
      return {-1, slot - run.begin + 1};
    return {0, 1};
  }

 private:
  struct Run {
    std::int32_t begin;
    std::int32_t end;
  };
  std::vector<std::int32_t> slot_;  // per city
  std::vector<City> cities_;        // per slot, run after run
  std::vector<Coins> prefix_;       // the coins of slots [0, s)
  std::vector<Run> runs_;           // per slot, its run's slots
};

// Evaluates start pairs along their paths; one per thread (it owns the path buffer).
template <typename Value>
class ChainEvaluator {
 public:
  // `line`: the tree as a line where it is a path (pairs in O(1)), else nullptr; `bare`: its
  // bare runs where they are long, else nullptr.
  ChainEvaluator(const ArrivalTable<Value>& table, const PathLine* line, const BareChains* bare,
                 SearchState& state)
      : table_(&table),
        line_(line),
        bare_(bare),
        rows_(table.rows()),
        state_(&state),
        path_(static_cast<std::size_t>(table.city_count()) + 2),
        up_(static_cast<std::size_t>(table.city_count())),
        flush_every_(std::clamp<std::int64_t>(state.budget / 16, 1, std::int64_t{1} << 15)),
        path_cities_(static_cast<std::size_t>(table.city_count()) + 1) {}

  // V(i, j), whose way from j to i the links of i's breadth-first order give.
  Coins pair_value(const Link* links, City i, City j) {
    if (line_ != nullptr)
      return line_value(i, j);
    if (bare_ != nullptr)
      return sparse_pair_value(links, j, links[j].depth);
    return reused_path_value(links, i, j);
  }

  // V(i, j) for a neighbour j of i, where `into_i` is the arrival j -> i.
  Coins neighbour_value(ArrivalId into_i) {
    if (line_ != nullptr)
      return line_value(table_->head(into_i), table_->tail(into_i));
    return path_value(1, [into_i] { return into_i; });
  }

  // V(i, j) for any i and j, their path found through the links of the tree's rooting (the
  // breadth-first order from any city): up from j to the meeting of the two ways to the root,
  // then down to i.
  Coins value_by_root(const Link* rooted, City i, City j) {
    if (line_ != nullptr)
      return line_value(i, j);
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

  // Forgets the last pair's path, so that the work of the pairs that follow does not depend on
  // which pairs this thread evaluated before.
  void forget_last_path() { reused_depth_ = -1; }

  // The positions [begin, end) of a row's breadth-first order (`at(p)` the p-th), grouped by the
  // branch of the row's start that their city lies in, in order within each branch: the order
  // interleaves the branches layer by layer, and consecutive pairs in one branch share most of
  // their paths (reused_path_value), siblings all but the last cities of their chains.
  template <typename PositionAt>
  const std::vector<std::int32_t>& grouped_by_branch(const Link* links, const City* queue,
                                                     std::size_t begin, std::size_t end,
                                                     PositionAt at) {
    positions_.clear();
    if (line_ != nullptr || bare_ != nullptr) {  // pairs that share nothing: as they come
      for (std::size_t p = begin; p != end; ++p)
        positions_.push_back(at(p));
      return positions_;
    }
    keys_.clear();
    for (std::size_t p = begin; p != end; ++p) {
      const std::int32_t k = at(p);
      const auto branch = static_cast<std::uint32_t>(links[queue[k]].branch);
      keys_.push_back(std::uint64_t{branch} << 32 | static_cast<std::uint32_t>(k));
    }
    std::sort(keys_.begin(), keys_.end());
    for (const std::uint64_t key : keys_)
      positions_.push_back(static_cast<std::int32_t>(key & 0xffffffffU));
    return positions_;
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
  // pair_value along the links of i's order, keeping the part of the last pair's path that this
  // one shares: consecutive B starts of a breadth-first order mostly share all but the last few
  // cities of their ways to i, and the cities of those (their rows, far apart in memory) cost
  // most of a pair's time. Once the way up from j meets the last path's city at the same
  // distance from i, the rest down to i is that path's (only that city's branch towards j may
  // differ). The suffix sums are kept as minus the coins from v_0 on, which the shared part keeps,
  // and the chain resumes where it last read only shared cities (chain_value's checkpoints).
  Coins reused_path_value(const Link* links, City i, City j) {
    const std::int32_t depth = links[j].depth;
    if (reused_start_ != i)
      reused_depth_ = -1;
    reused_start_ = i;
    City city = j;
    ArrivalId after = kNone;  // the arrival at `city` from the path's next city towards j
    std::int32_t k = depth;
    for (; k > 0; --k) {
      const Link& link = links[city];
      const bool known = k <= reused_depth_ && path_cities_[static_cast<std::size_t>(k)] == city;
      path_cities_[static_cast<std::size_t>(k)] = city;
      set_city(path_[static_cast<std::size_t>(k)], rows_[link.up], after, 0);
      if (known)
        break;
      after = link.up;
      city = link.parent;
    }
    if (k == 0)  // A's start: its branches that avoid v_1, from the arrival v_0 -> v_1.
      set_city(path_[0], rows_[rows_[after].reverse], kNone, 0);
    reused_depth_ = depth;
    if (k == 0)
      path_[0].suffix = 0;
    for (std::int32_t x = std::max(k, 1); x <= depth; ++x) {
      const PathCity<Value>& before = path_[static_cast<std::size_t>(x) - 1];
      path_[static_cast<std::size_t>(x)].suffix = static_cast<Value>(before.suffix - before.coins);
    }
    return chain_value(depth, k);
  }

  // A pair on a line: one step of work.
  Coins line_value(City i, City j) {
    last_depth_ = 0;
    return line_->value(i, j);
  }

  // V(v_0, v_d) for the path whose arrivals towards v_0, from v_d's on (v_d -> v_(d-1) first),
  // `next_up()` gives one by one.
  template <typename NextUp>
  Coins path_value(std::int32_t depth, NextUp next_up) {
    reused_depth_ = -1;
    ArrivalId after = kNone;  // the arrival at the current city from the next one towards v_d
    Coins suffix = 0;
    for (std::int32_t k = depth; k > 0; --k) {
      const ArrivalId up = next_up();
      suffix = set_city(path_[static_cast<std::size_t>(k)], rows_[up], after, suffix);
      after = up;
    }
    // A's start: its branches that avoid v_1, from the arrival v_0 -> v_1.
    set_city(path_[0], rows_[rows_[after].reverse], kNone, suffix);
    return chain_value(depth, 0);
  }

  // Fills `city` (v_k) from the row of the arrival v_k -> v_(k-1) (v_k's branches that avoid
  // v_(k-1)), leaving out also the branch over the arrival `after` (from v_(k+1), kNone at the
  // path's ends). Returns the suffix sum through v_k.
  Coins set_city(PathCity<Value>& city, const ArrivalRow<Value>& row, ArrivalId after,
                 Coins suffix) {
    suffix += row.tail_coins;
    city.suffix = static_cast<Value>(suffix);
    city.coins = row.tail_coins;
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

  // V(v_0, v_d) from path_[0..depth] (path_[depth + 1] is past the end: suffix 0 up to the
  // constant). Positions [0, unchanged) of path_ are those of the last call's path; where that one
  // had the same depth, the states that read only them are not evaluated again: the chain resumes
  // from the checkpoint of the last one. Sets last_depth_ to the states it evaluated.
  Coins chain_value(std::int32_t depth, std::int32_t unchanged) {
    const PathCity<Value>* path = path_.data();
    path_[static_cast<std::size_t>(depth) + 1].suffix =
        static_cast<Value>(path[depth].suffix - path[depth].coins);
    const auto suffix = [path](std::int32_t k) { return Coins{path[k].suffix}; };
    const auto coins = [&suffix](std::int32_t k) { return suffix(k) - suffix(k + 1); };
    last_depth_ = depth;
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
    std::int32_t t = depth - 1;
    if (checkpoint_depth_ == depth && unchanged - 1 >= a_at) {
      // B about to move on from b_at: state t = 2 (depth - b_at) - 1, A on depth - b_at.
      b_at = unchanged - 1;
      const Checkpoint& resume = checkpoints_[static_cast<std::size_t>(b_at)];
      value = resume.value;
      b_walks_best = resume.b_walks_best;
      a_walks_best = resume.a_walks_best;
      a_at = depth - b_at;
      t = 2 * a_at - 1;
      last_depth_ = t + 1;
    }
    checkpoint_depth_ = depth;
    if (checkpoints_.size() < static_cast<std::size_t>(depth))
      checkpoints_.resize(static_cast<std::size_t>(depth));  // as deep as the paths go
    const auto now_between = [&](std::int32_t k) __attribute__((always_inline)) {
      b_walks_best = std::max(b_walks_best, path[k].leave + suffix(k));
      a_walks_best = std::max(a_walks_best, path[k].leave - suffix(k + 1));
    };
    // A's states (t even) and B's (t odd), apart so that each reads only its mover's side (inlined:
    // called, they took about twice the time on a caterpillar). Only the first state from the
    // meeting lands next to the other player (a step without coins).
    const auto a_state = [&]() __attribute__((always_inline)) {
      if (a_at != b_at)
        now_between(a_at);
      --a_at;
      const Coins step = a_at + 1 == b_at ? 0 : coins(a_at + 1);
      const Coins other = std::max({Coins{path[b_at].leave}, b_walks_best - suffix(b_at),
                                    suffix(a_at + 1) - suffix(b_at) + path[a_at].leave_next});
      value = std::max(step - value, path[a_at].leave_or_none - other);
    };
    const auto b_state = [&]() __attribute__((always_inline)) {
      checkpoints_[static_cast<std::size_t>(b_at)] = Checkpoint{value, b_walks_best, a_walks_best};
      if (a_at != b_at)
        now_between(b_at);
      ++b_at;
      const Coins step = a_at + 1 == b_at ? 0 : coins(b_at - 1);
      const Coins other = std::max({Coins{path[a_at].leave}, a_walks_best + suffix(a_at + 1),
                                    suffix(a_at + 1) - suffix(b_at) + path[b_at].leave_next});
      value = std::max(step - value, path[b_at].leave_or_none - other);
    };
    if ((t & 1) != 0) {
      b_state();
      --t;
    }
    for (; t > 0; t -= 2) {
      a_state();
      b_state();
    }
    a_state();
    return coins(0) - coins(depth) + value;
  }

  // Sparse paths (where the tree has long bare runs). A city of the path that is an end or not
  // bare is a mark, with what set_city gives it; the bare cities between two marks are one run
  // of BareChains' slots: the one at position `position - 1` is `gap_slot`, and the slots step
  // by `gap_step` as the positions go down.
  struct Mark {
    std::int32_t position;
    PathCity<Value> city;
    std::int32_t gap_slot;
    std::int32_t gap_step;
  };

  // Where marks would cost more than a plain path (more than one mark in kSparseShare cities of
  // the path), the plain path and chain.
  static constexpr std::int32_t kSparseShare = 4;

  // V(i, j) along the path of `depth` roads from j up the links to i, its bare runs crossed in
  // one step each.
  // Counts as many chain steps as marks and runs it went along.
  Coins sparse_pair_value(const Link* links, City j, std::int32_t depth) {
    const std::int32_t steps = gather_marks(links, j, depth);
    if (static_cast<std::int64_t>(marks_.size()) * kSparseShare > depth) {
      unfold_marks();
      return chain_value(depth, 0);
    }
    last_depth_ = steps;
    return sparse_chain_value(depth);
  }

  // Returns the marks and runs it went along.
  std::int32_t gather_marks(const Link* links, City j, std::int32_t depth) {
    marks_.clear();
    std::int32_t runs = 0;
    City city = j;
    ArrivalId after = kNone;  // the arrival at `city` from the path's next city towards j
    Coins suffix = 0;
    std::int32_t k = depth;
    while (k > 0) {
      const std::int32_t slot = bare_->slot(city);
      if (slot != kNone && k < depth) {
        // A bare city inside the path: its run, as far as it goes towards i (not to i itself).
        const auto [step, slots] = bare_->towards(slot, links[city].parent);
        const std::int32_t length = std::min(k, slots);
        const std::int32_t last = slot + (length - 1) * step;
        suffix += bare_->coins(slot, last);
        marks_.back().gap_slot = slot;
        marks_.back().gap_step = step;
        const City last_city = bare_->city(last);
        after = links[last_city].up;
        city = links[last_city].parent;
        k -= length;
        ++runs;
        continue;
      }
      const ArrivalId up = links[city].up;
      marks_.push_back(Mark{k, {}, kNone, 0});
      suffix = set_city(marks_.back().city, rows_[up], after, suffix);
      after = up;
      city = links[city].parent;
      --k;
    }
    marks_.push_back(Mark{0, {}, kNone, 0});
    set_city(marks_.back().city, rows_[rows_[after].reverse], kNone, suffix);
    return static_cast<std::int32_t>(marks_.size()) + runs;
  }

  // The marks and their runs into path_, for chain_value.
  void unfold_marks() {
    reused_depth_ = -1;
    for (std::size_t m = 0; m < marks_.size(); ++m) {
      const Mark& mark = marks_[m];
      path_[static_cast<std::size_t>(mark.position)] = mark.city;
      Coins suffix = mark.city.suffix;
      const std::int32_t below = m + 1 < marks_.size() ? marks_[m + 1].position : -1;
      for (std::int32_t x = mark.position - 1, slot = mark.gap_slot; x > below;
           --x, slot += mark.gap_step) {
        suffix += bare_->coins(slot, slot);
        path_[static_cast<std::size_t>(x)] = bare_city(suffix);
      }
    }
  }

  // A bare city inside the path: no branch to leave by.
  static PathCity<Value> bare_city(Coins suffix) {
    return PathCity<Value>{static_cast<Value>(suffix), 0, 0, kNoBranch<Value>};
  }

  // The mark at `x` or the nearest one above it (marks_ goes down from position `depth`).
  std::size_t mark_at_or_above(std::int32_t x) const {
    const auto it = std::partition_point(marks_.begin(), marks_.end(),
                                         [x](const Mark& mark) { return mark.position >= x; });
    return static_cast<std::size_t>(it - marks_.begin()) - 1;
  }

  // Position x of the sparse path as chain_value reads it (suffix 0 past the end).
  PathCity<Value> sparse_city(std::int32_t x, std::int32_t depth) const {
    if (x > depth)
      return PathCity<Value>{};
    const Mark& mark = marks_[mark_at_or_above(x)];
    if (mark.position == x)
      return mark.city;
    const std::int32_t first = mark.gap_slot;
    return bare_city(mark.city.suffix +
                     bare_->coins(first, first + (mark.position - 1 - x) * mark.gap_step));
  }

  // chain_value on the sparse path. A player who walks into a bare city must walk on, so while
  // every move lands on one the value only adds the coins walked over (each state's value is
  // its step's coins minus the one before), and a stretch of such moves is one step here: the
  // running maxima over the cities between take the stretch's ends (a bare city has no branch,
  // so its terms are the suffix sums, monotone along the stretch).
  Coins sparse_chain_value(std::int32_t depth) {
    const auto at = [this, depth](std::int32_t x) { return sparse_city(x, depth); };
    const auto suffix = [&at](std::int32_t x) { return Coins{at(x).suffix}; };
    const auto coins = [&suffix](std::int32_t x) { return suffix(x) - suffix(x + 1); };
    std::int32_t a_at = (depth + 1) / 2;
    std::int32_t b_at = a_at;
    Coins value = Coins{at(a_at).leave} - at(a_at).leave_next;
    Coins b_walks_best = kNoWay;
    Coins a_walks_best = kNoWay;
    const auto now_between = [&](std::int32_t k) {
      const PathCity<Value> city = at(k);
      b_walks_best = std::max(b_walks_best, city.leave + suffix(k));
      a_walks_best = std::max(a_walks_best, city.leave - suffix(k + 1));
    };
    for (std::int32_t t = depth - 1; t >= 0;) {
      const bool a_moves = (t & 1) == 0;
      if (a_at != b_at) {
        const std::int32_t a_bare =
            a_at == 0 ? 0 : a_at - 1 - marks_[mark_at_or_above(a_at) + 1].position;
        const std::int32_t b_bare =
            b_at == depth ? 0 : marks_[mark_at_or_above(b_at + 1)].position - b_at - 1;
        if (a_moves ? a_bare > 0 : b_bare > 0) {
          // Forced moves, alternating, until the next mover's city is not bare.
          const bool a_runs_out_first = a_moves ? a_bare <= b_bare : !(b_bare <= a_bare);
          const std::int32_t shorter = std::min(a_bare, b_bare);
          const std::int32_t a_steps = a_moves && !a_runs_out_first ? shorter + 1 : shorter;
          const std::int32_t b_steps = !a_moves && a_runs_out_first ? shorter + 1 : shorter;
          if (a_steps > 0) {
            now_between(a_at);
            now_between(a_at - a_steps + 1);
          }
          if (b_steps > 0) {
            now_between(b_at);
            now_between(b_at + b_steps - 1);
          }
          const Coins a_gets = suffix(a_at - a_steps + 1) - suffix(a_at + 1);
          const Coins b_gets = suffix(b_at) - suffix(b_at + b_steps);
          const std::int32_t states = a_steps + b_steps;
          const bool a_last = a_moves == (states % 2 == 1);
          value = (a_last ? a_gets - b_gets : b_gets - a_gets) + (states % 2 == 1 ? -value : value);
          a_at -= a_steps;
          b_at += b_steps;
          t -= states;
          continue;
        }
        now_between(a_moves ? a_at : b_at);
      }
      a_moves ? --a_at : ++b_at;
      const bool adjacent = a_at + 1 == b_at;
      const Coins between = suffix(a_at + 1) - suffix(b_at);
      const PathCity<Value> mover = at(a_moves ? a_at : b_at);
      const PathCity<Value> other_city = at(a_moves ? b_at : a_at);
      const Coins step = adjacent ? 0 : coins(a_moves ? a_at + 1 : b_at - 1);
      const Coins other_walks =
          a_moves ? b_walks_best - suffix(b_at) : a_walks_best + suffix(a_at + 1);
      const Coins other =
          std::max({Coins{other_city.leave}, other_walks, between + mover.leave_next});
      value = std::max(step - value, mover.leave_or_none - other);
      --t;
    }
    return coins(0) - coins(depth) + value;
  }

  const ArrivalTable<Value>* table_;
  const PathLine* line_;
  const BareChains* bare_;
  const ArrivalRow<Value>* rows_;
  SearchState* state_;
  std::vector<PathCity<Value>> path_;
  std::vector<ArrivalId> up_;  // value_by_root's path
  std::vector<Mark> marks_;    // the sparse path
  std::int64_t flush_every_;
  std::int64_t unflushed_ = 0;
  std::int32_t last_depth_ = 0;
  // The cities of the last path reused_path_value gathered (v_0 ... v_d, d = reused_depth_, -1
  // when path_ holds another path) for A's start reused_start_.
  std::vector<City> path_cities_;
  std::int32_t reused_depth_ = -1;
  City reused_start_ = kNone;
  // chain_value's states each time B was about to move on from position b (per b), for a path of
  // checkpoint_depth_ roads: the next B start of a breadth-first order is mostly a sibling or a
  // cousin of the last, whose path differs only in its last cities, so that all but the last few
  // states of its chain are the last one's (a caterpillar's leaves, one spine city's children).
  struct Checkpoint {
    Coins value;
    Coins b_walks_best;
    Coins a_walks_best;
  };
  std::vector<Checkpoint> checkpoints_;
  std::int32_t checkpoint_depth_ = -1;
  std::vector<std::uint64_t> keys_;      // grouped_by_branch's
  std::vector<std::int32_t> positions_;  // grouped_by_branch's
};

// A row (A's start) as far as it has been evaluated: the minimum over its first `evaluated` B
// starts in breadth-first order, an upper bound of its value (the value once all are evaluated).
struct Row {
  Coins bound;
  std::int32_t evaluated;
  City start;
  City least_at;  // a B start of value `bound`
  bool far_probed = false;
  std::uint64_t killers_tried = 0;  // Killers::last_added() when the row last tried them
  std::uint64_t sampled = 0;        // the B starts sampled beyond the batches so far
};

// The least of some start pairs' values, and the lowest B start that has it (lowest by
// `tie_order` where one is given).
struct Least {
  Coins value = std::numeric_limits<Coins>::max();
  City at = kNone;
  const City* tie_order = nullptr;

  void add(Coins other_value, City other_at) {
    if (other_value < value || (other_value == value && (at == kNone || lower(other_at, at)))) {
      value = other_value;
      at = other_at;
    }
  }
  void add(const Least& other) { add(other.value, other.at); }

 private:
  bool lower(City a, City b) const {
    return tie_order == nullptr
               ? a < b
               : tie_order[static_cast<std::size_t>(a)] < tie_order[static_cast<std::size_t>(b)];
  }
};

// B starts that brought rows down recently, most recent first: a row that stays high against
// the nearby B starts often falls to a far one that felled a row before (a rich region that A
// must give up), so these are tried before the row's own order goes far.
class Killers {
 public:
  struct Killer {
    City city;
    std::uint64_t added;  // when it came into the list (1, 2, ...)
  };
  const std::vector<Killer>& cities() const { return cities_; }
  std::uint64_t last_added() const { return added_; }
  // To the front; a city still in the list keeps when it came in (rows that tried it since need
  // not try it again).
  void add(City city) {
    const auto it = std::find_if(cities_.begin(), cities_.end(),
                                 [city](const Killer& killer) { return killer.city == city; });
    Killer moved{city, ++added_};
    if (it != cities_.end()) {
      moved = *it;
      cities_.erase(it);
    }
    cities_.insert(cities_.begin(), moved);
    if (cities_.size() > kKept)
      cities_.pop_back();
  }

 private:
  static constexpr std::size_t kKept = 8;
  std::vector<Killer> cities_;
  std::uint64_t added_ = 0;
};

// The order of the search: the highest bound first; of equal ones the more evaluated (a finished
// row before an unfinished one), then the lower city; or, given a tie order, the lower city in
// it (so that the first finished row taken is the lowest optimal start). As a "less than" for
// std::push_heap.
struct ComesLater {
  const City* tie_order = nullptr;

  bool operator()(const Row& a, const Row& b) const {
    if (a.bound != b.bound)
      return a.bound < b.bound;
    if (tie_order != nullptr)
      return tie_order[static_cast<std::size_t>(a.start)] >
             tie_order[static_cast<std::size_t>(b.start)];
    if (a.evaluated != b.evaluated)
      return a.evaluated < b.evaluated;
    return a.start > b.start;
  }
};

// The first batch of a row's B starts beyond its neighbours; each later batch adds an eighth of
// the count evaluated (at least kFirstBatch), so that a row whose bound falls below another's in
// the middle of a batch has not evaluated many more starts than it needed (batches that doubled
// the count cost 17% more chain steps on a Pruefer tree of N = 300,000).
constexpr std::int32_t kFirstBatch = 16;
constexpr std::int32_t kBatchGrowthDivisor = 8;
// sample_beyond: a batch's count over this many B starts beyond it, at 2^64 / the golden ratio
// apart (mod 2^64) in its order.
constexpr std::int32_t kSampleShareDivisor = 8;
constexpr std::uint64_t kGoldenFraction = 0x9e3779b97f4a7c15;
// From this many B starts a batch is spread over the threads, in parts of more than half
// kParallelGrain and at most kParallelGrain (kSampleGrain for sample_beyond's) B starts: each part
// starts with a path of its own (ChainEvaluator::forget_last_path), whatever the thread did before.
constexpr std::int32_t kParallelBatch = 256;
constexpr std::int32_t kParallelGrain = 1024;
constexpr std::size_t kSampleGrain = 256;

// Once a row has spent about as many chain steps as making its whole breadth-first order costs
// (N), it tries the far end of its order and a few starts spread over the rest (once per row):
// a row whose minimum lies far away (a long way to a rich region, as in uniformly random trees,
// whose diameter is about sqrt(N)) can be cut there instead of after its last, largest batches.
// The probes cost a few dozen pairs.
constexpr std::int32_t kFarEndProbes = 16;
// A far-probed row's lower bounds for its whole order (LeaveAtOnceBound and HalfwayBound) once it
// has spent this many N chain steps, or a batch of it would cost as much: a row that costs more
// than that has long paths whose halfway bounds pay for their O(N log N), and from then on it is
// settled least bound first (settle_by_bounds). From every far-probed row on, the bounds cost a
// random tree of 10^6 cities two and a half times the time; from 8N, 5% more chain steps.
constexpr std::int64_t kWholeFrom = 4;
// One spread probe per this many starts not yet evaluated, at least kFarEndProbes and at most
// kMostSpreadProbes (256 instead of 16 saved 13% of the chain steps on a Pruefer tree of
// N = 300,000).
constexpr std::int32_t kStartsPerSpreadProbe = 1024;
constexpr std::int32_t kMostSpreadProbes = 256;

// One search: the rows, the orders they are evaluated in and the threads' evaluators.
template <typename Value>
class PrunedSearch {
 public:
  PrunedSearch(const ArrivalTable<Value>& table, const PrunedLimits& limits)
      : table_(table),
        n_(table.city_count()),
        parallel_(n_ >= limits.parallel_from_cities),
        state_(limits),
        line_(table),
        bare_(table),
        use_bare_(!line_.is_path() && bare_.worth_it()),
        chains_([this] {
          return ChainEvaluator<Value>(table_, line_.is_path() ? &line_ : nullptr,
                                       use_bare_ ? &bare_ : nullptr, state_);
        }),
        order_(table),
        rooting_(table),
        leave_bound_(table),
        tie_order_(limits.tie_order),
        comes_later_{limits.tie_order} {}

  bool run(SolveReport& report) {
    bool finished = false;
    if (parallel_) {
      // Isolated: a thread waiting in one of these loops must not pick up another case's work and
      // re-enter its own chain evaluator.
      tbb::this_task_arena::isolate([&] {
        tbb::parallel_for(tbb::blocked_range<City>(0, n_, 256),
                          [this](const tbb::blocked_range<City>& starts) { bound_rows(starts); });
        finished = search(report);
      });
    } else {
      bound_rows(tbb::blocked_range<City>(0, n_));
      finished = search(report);
    }
    for (ChainEvaluator<Value>& own : chains_)
      own.flush();
    report.chain_steps = state_.steps.load();
    return finished;
  }

 private:
  std::int32_t first_count(City start) const {
    return 1 + table_.arrivals_end(start) - table_.arrivals_begin(start);
  }

  // Every row with its start and its neighbours as B's starts: the first 1 + degree cities of its
  // breadth-first order.
  void bound_rows(const tbb::blocked_range<City>& starts) {
    ChainEvaluator<Value>& own = chains_.local();
    for (City i = starts.begin(); i != starts.end(); ++i) {
      Least least = no_least();
      least.add(table_.same_start_value(i), i);
      for (ArrivalId in = table_.arrivals_begin(i); in < table_.arrivals_end(i); ++in)
        least.add(own.neighbour_value(in), table_.tail(in));
      rows_[static_cast<std::size_t>(i)] = Row{least.value, first_count(i), i, least.at};
    }
  }

  Least no_least() const { return Least{std::numeric_limits<Coins>::max(), kNone, tie_order_}; }

  // B's starts [ks.begin(), ks.end()) of the order's row.
  Least evaluate(const tbb::blocked_range<std::int32_t>& ks, Least least) {
    ChainEvaluator<Value>& own = chains_.local();
    own.forget_last_path();
    const City start = order_.queue()[0];
    const bool marked = marked_row_ == start;
    const std::int32_t bounded = leave_bound_.made(start);
    const std::vector<std::int32_t>& by_branch =
        own.grouped_by_branch(order_.links(), order_.queue(), static_cast<std::size_t>(ks.begin()),
                              static_cast<std::size_t>(ks.end()),
                              [](std::size_t k) { return static_cast<std::int32_t>(k); });
    for (const std::int32_t k : by_branch) {
      if (marked && marked_at_[static_cast<std::size_t>(k)])
        continue;  // sampled before: its value is in the row's bound
      const City j = order_.queue()[k];
      if (k < bounded && leave_bound_.at(j) > skip_above_)
        continue;  // B starting there cannot bring the row down
      least.add(own.pair_value(order_.links(), start, j), j);
      if (!own.account())
        break;
    }
    return least;
  }

  // Split the same way on any schedule (simple_partitioner), so that the work does not depend on
  // it.
  Least evaluate_batch(std::int32_t begin, std::int32_t end) {
    const tbb::blocked_range<std::int32_t> batch(begin, end, kParallelGrain);
    const auto part = [this](const tbb::blocked_range<std::int32_t>& ks, Least least) {
      return evaluate(ks, least);
    };
    if (parallel_ && end - begin >= kParallelBatch) {
      return tbb::parallel_reduce(
          batch, no_least(), part,
          [](Least a, const Least& b) {
            a.add(b);
            return a;
          },
          tbb::simple_partitioner{});
    }
    return part(batch, no_least());
  }

  // The B starts that brought earlier rows down, against `row`.
  // Only those that came in since the row last tried them: their values are in its bound.
  void try_killers(Row& row, Least& least) {
    ChainEvaluator<Value>& own = chains_.local();
    for (const Killers::Killer& killer : killers_.cities()) {
      if (killer.city == row.start || killer.added <= row.killers_tried)
        continue;
      least.add(own.value_by_root(rooting_.links(), row.start, killer.city), killer.city);
      own.account();
    }
    row.killers_tried = killers_.last_added();
  }

  // The last B starts of the row's order and a few spread over the rest not yet evaluated.
  void probe_far(const Row& row, Least& least) {
    order_.reach(row.start, n_);
    ChainEvaluator<Value>& own = chains_.local();
    own.forget_last_path();
    const auto probe = [&](std::int32_t k) {
      const City j = order_.queue()[k];
      least.add(own.pair_value(order_.links(), row.start, j), j);
      own.account();
    };
    const std::int32_t far_end = std::max(row.evaluated, n_ - kFarEndProbes);
    for (std::int32_t k = n_ - 1; k >= far_end; --k)
      probe(k);
    const std::int32_t spread = far_end - row.evaluated;
    const std::int32_t probes =
        std::clamp(spread / kStartsPerSpreadProbe, kFarEndProbes, kMostSpreadProbes);
    for (std::int32_t p = 0; p < probes && spread > probes; ++p)
      probe(row.evaluated + static_cast<std::int32_t>(std::int64_t{spread} * p / probes));
  }

  // Before each batch of a row that has been far probed, an eighth as many B starts (at least
  // kFirstBatch) beyond the batch, not sampled before, spread over the rest of its order by a Weyl
  // sequence (the golden ratio's fractions: each new one falls in the largest gap), so that a row
  // whose minimum lies in the middle of its order (a region about as large as the part evaluated so
  // far) meets it early. The batches skip them.
  void sample_beyond(Row& row, std::int32_t end, Least& least) {
    order_.reach(row.start, n_);
    const std::int32_t count = std::max((end - row.evaluated) / kSampleShareDivisor, kFirstBatch);
    const auto rest = static_cast<std::uint64_t>(n_ - end);
    if (marked_row_ != row.start) {
      for (const std::int32_t k : marked_)
        marked_at_[static_cast<std::size_t>(k)] = false;
      marked_.clear();
      marked_row_ = row.start;
    }
    samples_.clear();
    for (std::int32_t c = 0; c < count; ++c) {
      const std::uint64_t fraction = (row.sampled++ + 1) * kGoldenFraction;
      const std::int32_t k = end + static_cast<std::int32_t>(((fraction >> 32) * rest) >> 32);
      if (marked_at_[static_cast<std::size_t>(k)])
        continue;
      marked_at_[static_cast<std::size_t>(k)] = true;
      marked_.push_back(k);
      samples_.push_back(k);
    }
    std::sort(samples_.begin(), samples_.end());
    skip_above_ = least.value;
    least.add(evaluate_positions(row.start, samples_, 0, samples_.size()));
  }

  // B starts [begin, end) of `positions` (in order_ from `start`), spread over the threads in
  // parts split the same way on any schedule; those whose lower bound lies above skip_above_ are
  // skipped.
  Least evaluate_positions(City start, const std::vector<std::int32_t>& positions,
                           std::size_t begin, std::size_t end) {
    const std::int32_t bounded = leave_bound_.made(start);
    const auto part = [this, start, bounded, &positions](
                          const tbb::blocked_range<std::size_t>& range, Least part_least) {
      ChainEvaluator<Value>& own = chains_.local();
      own.forget_last_path();
      for (const std::int32_t k :
           own.grouped_by_branch(order_.links(), order_.queue(), range.begin(), range.end(),
                                 [&positions](std::size_t s) { return positions[s]; })) {
        const City j = order_.queue()[k];
        if (k < bounded && leave_bound_.at(j) > skip_above_)
          continue;
        part_least.add(own.pair_value(order_.links(), start, j), j);
        if (!own.account())
          break;
      }
      return part_least;
    };
    const tbb::blocked_range<std::size_t> all(begin, end, kSampleGrain);
    return parallel_ ? tbb::parallel_reduce(
                           all, no_least(), part,
                           [](Least a, const Least& b) {
                             a.add(b);
                             return a;
                           },
                           tbb::simple_partitioner{})
                     : part(all, no_least());
  }

  // A row with the lower bounds of all its B starts (LeaveAtOnceBound::whole): the starts not
  // evaluated yet whose bound does not lie above the row's, least bound first, in batches that
  // double, while the row stays ahead of every other. Once the next one's bound lies above the
  // row's, so do all the rest's: the row's bound is its value. Where the halfway bounds meet the
  // pairs' values (the rows near a spider's joint, whose least B starts lie far along another
  // leg, late in the breadth-first order), the first batch settles the row. False: over the
  // budget.
  bool settle_by_bounds(Row& row, Least& least) {
    order_.reach(row.start, n_);
    const bool marked = marked_row_ == row.start;
    const auto bound_at = [this](std::int32_t k) { return leave_bound_.at(order_.queue()[k]); };
    settling_.clear();
    for (std::int32_t k = row.evaluated; k < n_; ++k) {
      if ((!marked || !marked_at_[static_cast<std::size_t>(k)]) && bound_at(k) <= least.value)
        settling_.push_back(k);
    }
    std::sort(settling_.begin(), settling_.end(), [&bound_at](std::int32_t a, std::int32_t b) {
      return bound_at(a) != bound_at(b) ? bound_at(a) < bound_at(b) : a < b;
    });
    std::size_t next = 0;
    for (std::size_t count = kFirstBatch; next < settling_.size(); count *= 2) {
      if (bound_at(settling_[next]) > least.value)
        break;
      if (!rows_.empty() && comes_later_(row, rows_.front()))
        return true;  // behind another row: settled later, if ever
      const std::size_t end = std::min(settling_.size(), next + count);
      skip_above_ = least.value;
      least.add(evaluate_positions(row.start, settling_, next, end));
      row.bound = least.value;
      next = end;
      if (state_.over_budget.load(std::memory_order_relaxed))
        return false;
    }
    row.evaluated = n_;
    return true;
  }

  // About the chain steps of the B starts at positions [begin, end) of the row's order (made that
  // far): their count times the distance of the last one, plus one.
  std::int64_t steps_of(std::int32_t begin, std::int32_t end) const {
    const City last = order_.queue()[end - 1];
    const std::int64_t steps = line_.is_path() ? 1 : order_.links()[last].depth + 1;
    return std::int64_t{end - begin} * steps;
  }

  // Evaluates `row` further while it stays ahead of every other row. False: over the budget.
  bool advance(Row& row) {
    Least least{row.bound, row.least_at, tie_order_};
    try_killers(row, least);
    row.bound = least.value;
    while (row.evaluated < n_ && (rows_.empty() || !comes_later_(row, rows_.front()))) {
      if (leave_bound_.whole(row.start)) {
        if (!settle_by_bounds(row, least))
          return false;
        break;
      }
      const std::int32_t end =
          std::min(n_, row.evaluated + std::max(row.evaluated / kBatchGrowthDivisor, kFirstBatch));
      order_.reach(row.start, end);
      if (!row.far_probed && end < n_ && steps_of(0, row.evaluated) >= n_) {
        row.far_probed = true;
        probe_far(row, least);
        row.bound = least.value;
        continue;
      }
      // A far-probed row's bounds where the batch costs N chain steps or more: the batch's, and
      // from 4N the whole order's (for the samples beyond it). Bounds for every row cost more than
      // they saved on a random tree of 10^6 cities, whose rows mostly fall to probes and samples.
      if (const std::int64_t steps = steps_of(row.evaluated, end); row.far_probed && steps >= n_)
        leave_bound_.reach(order_, row.start, steps >= kWholeFrom * std::int64_t{n_} ? n_ : end,
                           row.bound);
      if (row.far_probed && steps_of(0, row.evaluated) >= kWholeFrom * std::int64_t{n_})
        leave_bound_.reach(order_, row.start, n_, row.bound);
      if (leave_bound_.whole(row.start))
        continue;
      if (row.far_probed && end < n_) {
        sample_beyond(row, end, least);
        row.bound = least.value;
        if (!rows_.empty() && comes_later_(row, rows_.front()))
          break;
      }
      skip_above_ = row.bound;
      const Least batch = evaluate_batch(row.evaluated, end);
      least.add(batch);
      row.bound = least.value;
      row.evaluated = end;
      if (state_.over_budget.load(std::memory_order_relaxed))
        return false;
    }
    row.least_at = least.at;
    killers_.add(least.at);
    return true;
  }

  // Best first: the row with the highest bound is evaluated further, batch by batch, while it
  // stays ahead of every other row; a finished row ahead of all is the answer, since every other
  // row's value is at most its bound.
  bool search(SolveReport& report) {
    rooting_.reach(0, n_);  // the tree rooted anywhere, for the paths to the killers
    std::make_heap(rows_.begin(), rows_.end(), comes_later_);
    for (;;) {
      std::pop_heap(rows_.begin(), rows_.end(), comes_later_);
      Row row = rows_.back();
      rows_.pop_back();
      if (row.evaluated == n_) {
        report.value = row.bound;
        if (tie_order_ != nullptr) {
          report.a_start = row.start;
          report.b_start = row.least_at;
        }
        return true;
      }
      if (row.evaluated == first_count(row.start))
        ++report.rows_searched;
      if (!advance(row))
        return false;
      if (row.evaluated == n_)
        ++report.rows_whole;
      rows_.push_back(row);
      std::push_heap(rows_.begin(), rows_.end(), comes_later_);
    }
  }

  const ArrivalTable<Value>& table_;
  const std::int32_t n_;
  const bool parallel_;
  SearchState state_;
  const PathLine line_;
  const BareChains bare_;
  const bool use_bare_;
  tbb::enumerable_thread_specific<ChainEvaluator<Value>> chains_;
  std::vector<Row> rows_ = std::vector<Row>(static_cast<std::size_t>(n_));
  RowOrder<Value> order_;               // the breadth-first order of the row being evaluated
  std::vector<std::int32_t> samples_;   // sample_beyond's positions in order_
  std::vector<std::int32_t> settling_;  // settle_by_bounds' positions in order_
  // The positions in order_ sampled for the row of marked_row_ (their values are in its bound,
  // so its batches skip them), as flags and as a list.
  std::vector<bool> marked_at_ = std::vector<bool>(static_cast<std::size_t>(n_), false);
  std::vector<std::int32_t> marked_;
  City marked_row_ = kNone;
  RowOrder<Value> rooting_;  // from city 0: the paths to the killers
  // The lower bounds of the last far-probed row with a costly batch, as far as made; its B starts
  // above skip_above_ (the row's bound when the batch began, the same on every schedule) are not
  // evaluated.
  LeaveAtOnceBound<Value> leave_bound_;
  Coins skip_above_ = std::numeric_limits<Coins>::max();
  Killers killers_;
  const City* tie_order_;
  const ComesLater comes_later_;
};

}  // namespace

template <typename Value>
bool pruned_search(const ArrivalTable<Value>& table, const PrunedLimits& limits,
                   SolveReport& report) {
  PrunedSearch<Value> search(table, limits);
  return search.run(report);
}

template bool pruned_search(const ArrivalTable<std::int32_t>&, const PrunedLimits&, SolveReport&);
template bool pruned_search(const ArrivalTable<Coins>&, const PrunedLimits&, SolveReport&);

}  // namespace gamebatch::willow::detail
