// The fast solver: replay the given declarations, then value the state they lead to, in the table
// of n or by a search from that state alone. The answer is what the given turns already decided
// (the spec's g(i) for even i <= k) plus the value of the rest of the game.
#include <algorithm>
#include <array>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/search.hpp"
#include "core/doublemove/state_space.hpp"
#include "core/doublemove/state_table.hpp"
#include "core/doublemove/state_values.hpp"

namespace gamebatch::doublemove {
namespace {

// Components of the declared graph: size, and edges minus vertices plus one capped at 2 (0: a
// tree, 1: one cycle, 2: at least two cycles, which no orientation survives).
class Components {
 public:
  explicit Components(int n)
      : parent_(static_cast<std::size_t>(n)),
        size_(static_cast<std::size_t>(n), 1),
        cycles_(static_cast<std::size_t>(n), 0) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }

  void add_edge(int a, int b) {
    const int root_a = find(a);
    const int root_b = find(b);
    if (root_a == root_b) {
      raise_cycles(root_a, 1);
      return;
    }
    const auto [big, small] =
        size_[static_cast<std::size_t>(root_a)] >= size_[static_cast<std::size_t>(root_b)]
            ? std::pair{root_a, root_b}
            : std::pair{root_b, root_a};
    parent_[static_cast<std::size_t>(small)] = big;
    size_[static_cast<std::size_t>(big)] += size_[static_cast<std::size_t>(small)];
    raise_cycles(big, cycles_[static_cast<std::size_t>(small)]);
  }

  // f(G): the orientations with every in-degree <= 1 (size per tree, 2 per one-cycle component,
  // 0 if any component has two cycles).
  Value orientations() const {
    Value product = 1;
    for (std::size_t vertex = 0; vertex < parent_.size(); ++vertex) {
      if (parent_[vertex] != static_cast<int>(vertex))
        continue;
      switch (cycles_[vertex]) {
        case 0:
          product *= static_cast<Value>(size_[vertex]);
          break;
        case 1:
          product *= 2;
          break;
        default:
          return 0;
      }
    }
    return product;
  }

  std::vector<int> tree_sizes() const {
    std::vector<int> sizes;
    for (std::size_t vertex = 0; vertex < parent_.size(); ++vertex) {
      if (parent_[vertex] == static_cast<int>(vertex) && cycles_[vertex] == 0)
        sizes.push_back(size_[vertex]);
    }
    return sizes;
  }

  int one_cycle_components() const {
    int count = 0;
    for (std::size_t vertex = 0; vertex < parent_.size(); ++vertex) {
      if (parent_[vertex] == static_cast<int>(vertex) && cycles_[vertex] == 1)
        ++count;
    }
    return count;
  }

 private:
  int find(int vertex) {
    while (parent_[static_cast<std::size_t>(vertex)] != vertex) {
      const int grandparent =
          parent_[static_cast<std::size_t>(parent_[static_cast<std::size_t>(vertex)])];
      parent_[static_cast<std::size_t>(vertex)] = grandparent;
      vertex = grandparent;
    }
    return vertex;
  }

  void raise_cycles(int root, int by) {
    auto& cycles = cycles_[static_cast<std::size_t>(root)];
    cycles = std::min(2, cycles + by);
  }

  std::vector<int> parent_;
  std::vector<int> size_;
  std::vector<int> cycles_;
};

// Where the given declarations leave the game.
struct Position {
  Value decided = 0;       // sequences Alice won at the given turns
  bool game_over = false;  // every sequence has ended (a two-cycle component)
  SizeRuns trees;          // otherwise: the state the rest of the game starts from
  int one_cycle_components = 0;
};

Position replay(const Instance& instance) {
  if (const std::string problem = check_instance(instance); !problem.empty())
    throw std::invalid_argument("doublemove::solve: " + problem);
  const int n = instance.n;
  Components components(n);
  Position position;
  // alive = f(G_i) * 2^(n+1-i): pick sequences still running after turn i.
  Value alive = Value{1} << (n + 1);
  int turn = 0;
  for (const auto& [a, b] : instance.declarations) {
    components.add_edge(a - 1, b - 1);
    ++turn;
    const Value still_alive = components.orientations() << (n + 1 - turn);
    if (turn % 2 == 0)
      position.decided += alive - still_alive;  // sequences ending at this even turn are Alice's
    alive = still_alive;
  }
  // Always so after n + 1 declarations.
  position.game_over = alive == 0;
  if (!position.game_over) {
    position.trees = SizeRuns::of(components.tree_sizes());
    position.one_cycle_components = components.one_cycle_components();
  }
  return position;
}

// A search may try at most this many moves (look-ups of a state's value): an eighth of the
// table's states, and never more than 2^20. A move costs about as much as a state of the table's
// build (a colex rank and a hash probe against the table's shared moves and dense stores), so a
// search within the limit costs a fraction of the table's build, and its memo (at most a state
// per move) a fraction of the table's memory; late cases (a dozen declarations left or fewer)
// try a few hundred thousand moves at most, whatever n. Beyond the limit the case is an early
// one, and the table, shared by every case of n in the run and kept in the answer cache, is the
// better buy: at most an eighth of its build was spent on the way.
constexpr double kSearchMovesPerTableState = 1.0 / 8;
constexpr double kMostSearchMoves = 1 << 20;

constexpr std::array<std::uint64_t, kMaxN + 1> kTableStates = [] {
  std::array<std::uint64_t, kMaxN + 1> states{};
  for (int n = 1; n <= kMaxN; ++n)
    states[static_cast<std::size_t>(n)] = state_count_for(n);
  return states;
}();

double search_move_limit(int n) {
  return std::min(
      static_cast<double>(kTableStates[static_cast<std::size_t>(n)]) * kSearchMovesPerTableState,
      kMostSearchMoves);
}

// A case whose reachable states surely exceed the search's limit (k = 0 and other early cases:
// many trees of a few sizes) goes to the table at once; one whose reachable states are surely
// within it is searched; the others (many trees of distinct sizes, where the upper bound is loose)
// try the search.
SolvePlan plan_position(int n, const Position& position) {
  SolvePlan plan;
  if (position.game_over) {
    plan.path = SolvePlan::Path::replay;
    return plan;
  }
  const double limit = search_move_limit(n);
  const double table_states = static_cast<double>(kTableStates[static_cast<std::size_t>(n)]);
  if (reachable_states_at_least(position.trees, position.one_cycle_components, limit) > limit) {
    plan.path = SolvePlan::Path::table;
    plan.states = table_states;
    return plan;
  }
  // Each state is looked up once per move into it, so the moves are at most the states times the
  // moves out of one, which for m trees are at most m (m - 1) / 2 joins and 2 m removals.
  const int trees = position.trees.parts();
  const double moves_per_state = trees * (trees - 1) / 2.0 + 2.0 * trees + 1;
  const double states = reachable_states_at_most(n, position.trees, limit / moves_per_state);
  if (states * moves_per_state <= limit) {
    plan.path = SolvePlan::Path::search;
    plan.states = states;
  } else {
    plan.path = SolvePlan::Path::search_then_table;
    plan.states = table_states;
  }
  return plan;
}

}  // namespace

std::string check_instance(const Instance& instance) {
  if (instance.n < 1 || instance.n > kMaxN) {
    return "n = " + std::to_string(instance.n) + " outside 1.." + std::to_string(kMaxN);
  }
  if (instance.declarations.size() > static_cast<std::size_t>(instance.n) + 1) {
    return std::to_string(instance.declarations.size()) +
           " declarations, at most n + 1 = " + std::to_string(instance.n + 1);
  }
  for (std::size_t i = 0; i < instance.declarations.size(); ++i) {
    const auto [a, b] = instance.declarations[i];
    if (a < 1 || a > instance.n || b < 1 || b > instance.n) {
      return "declaration " + std::to_string(i + 1) + " (" + std::to_string(a) + ", " +
             std::to_string(b) + ") names a value outside 1.." + std::to_string(instance.n);
    }
  }
  return {};
}

std::string to_decimal(Value value) {
  if (value == 0)
    return "0";
  std::string digits;
  while (value > 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(value % 10)));
    value /= 10;
  }
  std::reverse(digits.begin(), digits.end());
  return digits;
}

Value solve_keeping(const Instance& instance, StateTableStore& store, SolveMethod method,
                    StateValues& kept) {
  const Position position = replay(instance);
  if (position.game_over)
    return position.decided;
  const int n = instance.n;
  if (method == SolveMethod::search) {
    kept.search = std::make_unique<KeptSearch>(n);
    return position.decided +
           kept.search->start(position.trees, position.one_cycle_components)->remaining_value;
  }
  if (method == SolveMethod::automatic) {
    kept.table = store.held(n);
    if (!kept.table && plan_position(n, position).path != SolvePlan::Path::table) {
      kept.search =
          std::make_unique<KeptSearch>(n, static_cast<std::uint64_t>(search_move_limit(n)));
      if (const auto searched = kept.search->start(position.trees, position.one_cycle_components))
        return position.decided + searched->remaining_value;
      kept.search.reset();
    }
  }
  if (!kept.table)
    kept.table = store.get(n);
  return position.decided +
         kept.table->remaining_value(position.trees, position.one_cycle_components);
}

Value solve(const Instance& instance, StateTableStore& store, SolveMethod method) {
  StateValues kept;
  return solve_keeping(instance, store, method, kept);
}

Value solve(const Instance& instance) {
  return solve(instance, default_store());
}

SolvePlan plan_solve(const Instance& instance) {
  return plan_position(instance.n, replay(instance));
}

}  // namespace gamebatch::doublemove
