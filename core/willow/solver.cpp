// The fast willow solver.
//
// Model. While the two players can still reach each other, each one only ever steps towards the
// other or leaves the path between them for good; once one leaves, both simply take their best
// remaining path. So a game state is a tree path  p - i ... j - q : the player to move stands on
// i having arrived from p, the other stands on j having arrived from q (p or q is kNone while that
// player still stands on her start). Its value R depends only on that path, there are O(N^2)
// such paths, and each is evaluated in O(1) from the state one step further in (the same path
// without p, the other player to move) plus a few running maxima along the path.
//
// Order of evaluation. Every state has exactly one inner state, so the states form a forest whose
// roots are the meetings (i == j) and whose leaves are the start pairs (a, b). We walk that forest
// outwards, depth first, from every root. A state needs only its inner state's record, so a
// depth-first walk keeps O(N) records alive, and any pending record is a self-contained unit of
// work that can be handed to another thread: O(N^2) time, O(N) memory per thread, no recursion,
// no N x N tables. At each leaf we fold the start pair's value into A's running minimum over B's
// starts; min and max do not depend on the order, so the answer does not depend on the schedule.
#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <limits>
#include <vector>

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for_each.h>
#include <oneapi/tbb/task_arena.h>

#include "core/willow/willow.hpp"

namespace gamebatch::willow {
namespace {

using City = std::int32_t;
constexpr City kNone = -1;  // "has not moved yet", or "no such branch"
constexpr Coins kPlusInfinity = std::numeric_limits<Coins>::max();

// A branch leaving a city: the neighbour it starts with and the most coins a walk into it collects.
struct Branch {
  City first = kNone;
  Coins coins = 0;
};

// The tree in adjacency-array form plus, for every city, its four richest branches: a query
// excludes at most three neighbours (arrival road, road towards the opponent, a road just taken).
class BranchTable {
 public:
  explicit BranchTable(const Instance& instance);

  std::int32_t size() const { return static_cast<std::int32_t>(coins_.size()); }
  Coins coins(City city) const { return coins_[city]; }
  const City* neighbours_begin(City city) const { return neighbours_.data() + offsets_[city]; }
  const City* neighbours_end(City city) const { return neighbours_.data() + offsets_[city + 1]; }

  // The richest branch of `city` whose first city is none of the excluded ones (kNone if none).
  Branch best(City city, City excluded1, City excluded2, City excluded3 = kNone) const {
    const Branch* top = &top_[4 * static_cast<std::size_t>(city)];
    for (int k = 0; k < 4; ++k) {
      const City first = top[k].first;
      if (first == kNone)
        break;
      if (first != excluded1 && first != excluded2 && first != excluded3)
        return top[k];
    }
    return Branch{};
  }

 private:
  std::vector<Coins> coins_;
  std::vector<std::int32_t> offsets_;
  std::vector<City> neighbours_;
  std::vector<Branch> top_;  // 4 per city, richest first
};

BranchTable::BranchTable(const Instance& instance) : coins_(instance.coins) {
  const std::int32_t n = size();
  offsets_.assign(n + 1, 0);
  for (const auto& [u, v] : instance.roads) {
    ++offsets_[u + 1];
    ++offsets_[v + 1];
  }
  for (std::int32_t v = 0; v < n; ++v)
    offsets_[v + 1] += offsets_[v];
  neighbours_.resize(offsets_[n]);
  std::vector<std::int32_t> fill(offsets_.begin(), offsets_.end() - 1);
  for (const auto& [u, v] : instance.roads) {
    neighbours_[fill[u]++] = v;
    neighbours_[fill[v]++] = u;
  }

  // Root at city 0; order cities breadth first so children follow parents.
  std::vector<City> parent(n, kNone), order;
  order.reserve(n);
  order.push_back(0);
  parent[0] = 0;
  for (std::size_t head = 0; head < order.size(); ++head) {
    const City v = order[head];
    for (const City* w = neighbours_begin(v); w != neighbours_end(v); ++w) {
      if (parent[*w] == kNone) {
        parent[*w] = v;
        order.push_back(*w);
      }
    }
  }
  parent[0] = kNone;

  // down[v]: best walk starting at v into v's subtree; up[v]: best walk starting at parent(v)
  // that does not enter v's subtree.
  std::vector<Coins> down(n, 0), up(n, 0);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const City v = *it;
    Coins best_child = 0;
    for (const City* w = neighbours_begin(v); w != neighbours_end(v); ++w) {
      if (*w != parent[v])
        best_child = std::max(best_child, down[*w]);
    }
    down[v] = coins_[v] + best_child;
  }
  auto branch_coins = [&](City from, City to) { return parent[to] == from ? down[to] : up[from]; };
  top_.assign(4 * static_cast<std::size_t>(n), Branch{});
  for (const City v : order) {
    // The two richest branches of v let every child learn the best walk from v avoiding it.
    Branch first, second;
    for (const City* w = neighbours_begin(v); w != neighbours_end(v); ++w) {
      const Branch branch{*w, branch_coins(v, *w)};
      Branch* top = &top_[4 * static_cast<std::size_t>(v)];
      for (int k = 0; k < 4; ++k) {
        if (top[k].first == kNone || branch.coins > top[k].coins) {
          std::copy_backward(top + k, top + 3, top + 4);
          top[k] = branch;
          break;
        }
      }
      if (branch.coins > first.coins || first.first == kNone) {
        second = first;
        first = branch;
      } else if (branch.coins > second.coins || second.first == kNone) {
        second = branch;
      }
    }
    for (const City* w = neighbours_begin(v); w != neighbours_end(v); ++w) {
      if (*w == parent[v])
        continue;
      const Branch& other = first.first == *w ? second : first;
      up[*w] = coins_[v] + other.coins;
    }
  }
}

// One game state  from - at ... other_at - other_from  with the player on `at` to move, and the
// numbers its outer neighbours in the forest need.
struct State {
  City from, at, other_at, other_from;
  Coins value;     // R: the mover's coins minus the other's, from here on
  Coins interior;  // coins strictly between `at` and `other_at`
  // For the states one step further out, where the player now on `other_at` moves next from
  // `other_from` and the player on `at` stands still, walking towards her:
  Coins walker_before;   // best the walker gets branching off before reaching `other_from`
  Coins walker_through;  // best walk that starts just before `other_at`, takes its coins, and
                         // branches off anywhere up to and including `at` (for two steps out)
};

// The meeting state: both players stand on `at`; the mover arrived from `from`, the other from
// `other_from`. The mover takes the richest free branch, the other the next one.
State meeting_state(const BranchTable& tree, City from, City at, City other_from) {
  const Branch first = tree.best(at, from, other_from);
  const Branch second = tree.best(at, from, other_from, first.first);
  return State{from,
               at,
               at,
               other_from,
               first.coins - second.coins,
               0,
               first.coins,
               tree.coins(at) + first.coins};
}

// The state one step further out: the player who stood on inner.other_at had stood on
// inner.other_from, arrived there from `from`, and is to move; the other stands on inner.at.
State outer_state(const BranchTable& tree, const State& inner, City from) {
  const City at = inner.other_from;
  const City other_at = inner.at;
  const City towards = inner.other_at;  // the mover's next city on the path to other_at
  const bool meeting = inner.at == inner.other_at;
  const Coins interior = meeting ? 0 : tree.coins(inner.other_at) + inner.interior;

  const Coins step_coins = towards == other_at ? 0 : tree.coins(towards);
  Coins value = step_coins - inner.value;  // step towards the other player
  const Branch leave = tree.best(at, from, towards);
  if (leave.first != kNone) {
    // Leave the path: take the richest side branch; the other walks towards us and branches off
    // before us, or reaches us and takes the richest branch still free here.
    const Coins walker_at_us = interior + tree.best(at, from, towards, leave.first).coins;
    value = std::max(value, leave.coins - std::max(inner.walker_before, walker_at_us));
  }
  const Coins walker_through =
      tree.coins(other_at) + std::max(inner.walker_before, interior + tree.coins(at) + leave.coins);
  return State{from,
               at,
               other_at,
               inner.from,
               value,
               interior,
               std::max(leave.coins, inner.walker_through),
               walker_through};
}

// A pending piece of the walk: either all meetings on `city` whose mover arrived from
// `arrived_from`, or already evaluated states whose outer states are still to be walked.
struct WorkItem {
  City city = kNone;
  City arrived_from = kNone;
  std::vector<State> evaluated;  // empty for a group of meetings
};

// Walks the forest of states outwards depth first from the pieces it is given, folding every start
// pair into best_against()[a] = min over B's starts of the value of A starting on a.
class ForestWalker {
 public:
  explicit ForestWalker(const BranchTable& tree)
      : tree_(&tree), best_against_(static_cast<std::size_t>(tree.size()), kPlusInfinity) {}

  const std::vector<Coins>& best_against() const { return best_against_; }

  // Evaluates `item` and everything further out of it. Now and then asks `sharing.wants_work()`
  // and, if so, hands the older half of its pending states to `sharing.take(...)`: those are the
  // roots of the largest unwalked subtrees, and each is a self-contained piece of work.
  template <typename Sharing>
  void walk(WorkItem& item, Sharing& sharing) {
    pending_.clear();
    if (item.evaluated.empty()) {
      push_meetings(item.city, item.arrived_from);
    } else {
      pending_.swap(item.evaluated);
    }
    std::size_t since_check = 0;
    while (!pending_.empty()) {
      const State state = pending_.back();
      pending_.pop_back();
      expand(state);
      if (++since_check == kCheckEvery) {
        since_check = 0;
        if (pending_.size() >= 2 && sharing.wants_work()) {
          const auto half = static_cast<std::ptrdiff_t>(pending_.size() / 2);
          sharing.take(std::vector<State>(pending_.begin(), pending_.begin() + half));
          pending_.erase(pending_.begin(), pending_.begin() + half);
        }
      }
    }
  }

 private:
  static constexpr std::size_t kCheckEvery = 4096;  // states, some tens of microseconds

  void push_meetings(City city, City arrived_from) {
    if (arrived_from == kNone) {
      // Both players start on `city` (a == b): A moves first from there.
      const State start = meeting_state(*tree_, kNone, city, kNone);
      record_start(city, tree_->coins(city) + start.value);
    }
    for (const City* other_from = tree_->neighbours_begin(city);
         other_from != tree_->neighbours_end(city); ++other_from) {
      if (*other_from != arrived_from) {
        pending_.push_back(meeting_state(*tree_, arrived_from, city, *other_from));
      }
    }
  }

  // Pushes every state one step further out of `inner` (the player on inner.other_at had come
  // from inner.other_from) and records the start pairs among them.
  void expand(const State& inner) {
    const City at = inner.other_from;
    if (at == kNone)
      return;  // the other player is still on her start: nothing lies further out
    if (inner.from != kNone) {
      // The mover of the outer state arrived over a real road other than the one she left by.
      for (const City* from = tree_->neighbours_begin(at); from != tree_->neighbours_end(at);
           ++from) {
        if (*from != inner.other_at)
          pending_.push_back(outer_state(*tree_, inner, *from));
      }
      // Or she stood on her start: B's first move, A having made one step from inner.from.
      pending_.push_back(outer_state(*tree_, inner, kNone));
    } else {
      // inner's mover is still on her start, so the outer mover is A on her start, B on hers.
      // (An outer mover who had already moved while her opponent had not is unreachable.)
      const State start = outer_state(*tree_, inner, kNone);
      record_start(start.at, tree_->coins(start.at) - tree_->coins(start.other_at) + start.value);
    }
  }

  void record_start(City a_start, Coins value) {
    Coins& best = best_against_[a_start];
    best = std::min(best, value);
  }

  const BranchTable* tree_;
  std::vector<Coins> best_against_;
  std::vector<State> pending_;
};

// Below this many cities a case is solved on the calling thread: the work is too small to share.
constexpr std::int32_t kParallelFromCities = 256;

}  // namespace

Coins solve(const Instance& instance) {
  const BranchTable tree(instance);
  const std::int32_t n = tree.size();

  std::vector<WorkItem> groups;
  groups.reserve(3 * static_cast<std::size_t>(n));
  for (City city = 0; city < n; ++city) {
    groups.push_back(WorkItem{city, kNone, {}});
    for (const City* from = tree.neighbours_begin(city); from != tree.neighbours_end(city);
         ++from) {
      groups.push_back(WorkItem{city, *from, {}});
    }
  }

  std::vector<Coins> best_against;
  if (n < kParallelFromCities) {
    struct NoSharing {
      bool wants_work() const { return false; }
      void take(std::vector<State>&&) {}
    } no_sharing;
    ForestWalker walker(tree);
    for (WorkItem& group : groups)
      walker.walk(group, no_sharing);
    best_against = walker.best_against();
  } else {
    tbb::enumerable_thread_specific<ForestWalker> walkers([&tree] { return ForestWalker(tree); });
    // Pieces handed out but not yet started. Sharing only while few are queued keeps the memory
    // at O(N) per thread however unbalanced the forest is.
    std::atomic<int> queued{0};
    const int enough_queued = 2 * tbb::this_task_arena::max_concurrency();
    // Isolated so that a thread of this loop never runs another case's work in the middle of a
    // walk and so never re-enters its own walker.
    tbb::this_task_arena::isolate([&] {
      tbb::parallel_for_each(groups.begin(), groups.end(),
                             [&](WorkItem& item, tbb::feeder<WorkItem>& feeder) {
                               if (!item.evaluated.empty())
                                 queued.fetch_sub(1, std::memory_order_relaxed);
                               struct FeederSharing {
                                 tbb::feeder<WorkItem>& feeder;
                                 std::atomic<int>& queued;
                                 int enough;
                                 bool wants_work() const {
                                   return queued.load(std::memory_order_relaxed) < enough;
                                 }
                                 void take(std::vector<State>&& states) {
                                   queued.fetch_add(1, std::memory_order_relaxed);
                                   feeder.add(WorkItem{kNone, kNone, std::move(states)});
                                 }
                               } sharing{feeder, queued, enough_queued};
                               walkers.local().walk(item, sharing);
                             });
    });
    best_against.assign(static_cast<std::size_t>(n), kPlusInfinity);
    for (const ForestWalker& walker : walkers) {
      for (City a = 0; a < n; ++a) {
        best_against[a] = std::min(best_against[a], walker.best_against()[a]);
      }
    }
  }
  return *std::max_element(best_against.begin(), best_against.end());
}

}  // namespace gamebatch::willow
