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

// What the walk needs of one city, in one cache line: the forest walk visits cities in no useful
// order, so each state should cost one cache miss, not four. It keeps the city's four richest
// branches because a query excludes two neighbours and asks for the best two branches left.
struct alignas(64) CityRecord {
  Coins coins = 0;
  std::int32_t neighbours_begin = 0;
  std::int32_t neighbours_end = 0;
  City branch_first[4] = {kNone, kNone, kNone, kNone};  // richest first
  Coins branch_coins[4] = {0, 0, 0, 0};

  // The richest and the second richest branch whose first cities are neither excluded neighbour;
  // a missing branch has first == kNone and no coins.
  std::pair<Branch, Branch> best_two(City excluded1, City excluded2) const {
    std::pair<Branch, Branch> found;
    int k = 0;
    for (; k < 4 && branch_first[k] != kNone; ++k) {
      if (branch_first[k] != excluded1 && branch_first[k] != excluded2) {
        found.first = {branch_first[k], branch_coins[k]};
        ++k;
        break;
      }
    }
    for (; k < 4 && branch_first[k] != kNone; ++k) {
      if (branch_first[k] != excluded1 && branch_first[k] != excluded2) {
        found.second = {branch_first[k], branch_coins[k]};
        break;
      }
    }
    return found;
  }
};

// The tree: a record per city and the neighbour lists they point into.
class BranchTable {
 public:
  explicit BranchTable(const Instance& instance);

  std::int32_t size() const { return static_cast<std::int32_t>(cities_.size()); }
  const CityRecord& city(City city) const { return cities_[city]; }
  Coins coins(City city) const { return cities_[city].coins; }
  const City* neighbours_begin(City city) const {
    return neighbours_.data() + cities_[city].neighbours_begin;
  }
  const City* neighbours_end(City city) const {
    return neighbours_.data() + cities_[city].neighbours_end;
  }

 private:
  std::vector<CityRecord> cities_;
  std::vector<City> neighbours_;
};

BranchTable::BranchTable(const Instance& instance) : cities_(instance.coins.size()) {
  const std::int32_t n = size();
  for (City v = 0; v < n; ++v)
    cities_[v].coins = instance.coins[v];
  std::vector<std::int32_t> degree(n, 0);
  for (const auto& [u, v] : instance.roads) {
    ++degree[u];
    ++degree[v];
  }
  std::int32_t offset = 0;
  for (City v = 0; v < n; ++v) {
    cities_[v].neighbours_begin = cities_[v].neighbours_end = offset;
    offset += degree[v];
  }
  neighbours_.resize(static_cast<std::size_t>(offset));
  for (const auto& [u, v] : instance.roads) {
    neighbours_[cities_[u].neighbours_end++] = v;
    neighbours_[cities_[v].neighbours_end++] = u;
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
    down[v] = coins(v) + best_child;
  }
  for (const City v : order) {
    CityRecord& record = cities_[v];
    for (const City* w = neighbours_begin(v); w != neighbours_end(v); ++w) {
      const Coins branch = parent[*w] == v ? down[*w] : up[v];
      for (int k = 0; k < 4; ++k) {
        if (record.branch_first[k] == kNone || branch > record.branch_coins[k]) {
          std::copy_backward(record.branch_first + k, record.branch_first + 3,
                             record.branch_first + 4);
          std::copy_backward(record.branch_coins + k, record.branch_coins + 3,
                             record.branch_coins + 4);
          record.branch_first[k] = *w;
          record.branch_coins[k] = branch;
          break;
        }
      }
    }
    // The best walk from v that avoids a child's subtree: v's richest branch other than it.
    for (const City* w = neighbours_begin(v); w != neighbours_end(v); ++w) {
      if (*w == parent[v])
        continue;
      const int richest_other = record.branch_first[0] == *w ? 1 : 0;
      up[*w] = record.coins + record.branch_coins[richest_other];
    }
  }
}

// One game state  from - at ... other_at - other_from  with the player on `at` to move, and the
// numbers its outer neighbours in the forest need.
struct State {
  City from, at, other_at, other_from;
  Coins at_coins, other_at_coins;  // copied here so that a state touches one city record only
  Coins value;                     // R: the mover's coins minus the other's, from here on
  Coins interior;                  // coins strictly between `at` and `other_at`
  // For the states one step further out, where the player now on `other_at` moves next from
  // `other_from` and the player on `at` stands still, walking towards her:
  Coins walker_before;   // best the walker gets branching off before reaching `other_from`
  Coins walker_through;  // best walk that starts just before `other_at`, takes its coins, and
                         // branches off anywhere up to and including `at` (for two steps out)
};

// The meeting state: both players stand on `at`; the mover arrived from `from`, the other from
// `other_from`. The mover takes the richest free branch, the other the next one.
State meeting_state(City from, City at, const CityRecord& at_record, City other_from) {
  const auto [first, second] = at_record.best_two(from, other_from);
  return State{from,
               at,
               at,
               other_from,
               at_record.coins,
               at_record.coins,
               first.coins - second.coins,
               0,
               first.coins,
               at_record.coins + first.coins};
}

// The state one step further out: the player who stood on inner.other_at had stood on
// inner.other_from (whose record is `at_record`), arrived there from `from`, and is to move; the
// other stands on inner.at.
[[gnu::always_inline]] inline State outer_state(const State& inner, const CityRecord& at_record,
                                                City from) {
  const City towards = inner.other_at;  // the mover's next city on the path to the other player
  const bool meeting = inner.at == inner.other_at;
  const Coins interior = meeting ? 0 : inner.other_at_coins + inner.interior;

  const Coins step_coins = meeting ? 0 : inner.other_at_coins;  // nothing left where she stands
  Coins value = step_coins - inner.value;                       // step towards the other player
  const auto [leave, next_free] = at_record.best_two(from, towards);
  if (leave.first != kNone) {
    // Leave the path: take the richest side branch; the other walks towards us and branches off
    // before us, or reaches us and takes the richest branch still free here.
    const Coins walker_at_us = interior + next_free.coins;
    value = std::max(value, leave.coins - std::max(inner.walker_before, walker_at_us));
  }
  const Coins walker_through =
      inner.at_coins + std::max(inner.walker_before, interior + at_record.coins + leave.coins);
  return State{from,          inner.other_from, inner.at,
               inner.from,    at_record.coins,  inner.at_coins,
               value,         interior,         std::max(leave.coins, inner.walker_through),
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
      const State start = meeting_state(kNone, city, tree_->city(city), kNone);
      best_against_[city] = std::min(best_against_[city], tree_->coins(city) + start.value);
    }
    for (const City* other_from = tree_->neighbours_begin(city);
         other_from != tree_->neighbours_end(city); ++other_from) {
      if (*other_from != arrived_from) {
        pending_.push_back(meeting_state(arrived_from, city, tree_->city(city), *other_from));
      }
    }
  }

  // Pushes every state one step further out of `inner` (the player on inner.other_at had come
  // from inner.other_from) and records the start pairs among them.
  void expand(const State& inner) {
    const City at = inner.other_from;
    if (at == kNone)
      return;  // the other player is still on her start: nothing lies further out
    const CityRecord& at_record = tree_->city(at);
    if (inner.from != kNone) {
      // The mover of the outer state arrived over a real road other than the one she left by.
      for (const City* from = tree_->neighbours_begin(at); from != tree_->neighbours_end(at);
           ++from) {
        if (*from != inner.other_at)
          pending_.push_back(outer_state(inner, at_record, *from));
      }
      // Or she stood on her start: B's first move, A having made one step from her start
      // inner.from. The only state further out is the start pair itself, so it is folded now.
      const State b_first_move = outer_state(inner, at_record, kNone);
      record_start_pair(b_first_move, tree_->city(inner.from));
    } else {
      // inner's mover is still on her start (B before her first move), so the outer state is the
      // start pair. An outer mover who had moved while her opponent had not is unreachable.
      record_start_pair(inner, at_record);
    }
  }

  // Folds the start pair one step out of `b_first_move` (A on her start, whose record is given,
  // B on hers) into A's running minimum.
  void record_start_pair(const State& b_first_move, const CityRecord& a_start_record) {
    const State start = outer_state(b_first_move, a_start_record, kNone);
    const Coins value = start.at_coins - start.other_at_coins + start.value;
    Coins& best = best_against_[start.at];
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
