// doublemove's optimal play: each declaration still to come is chosen by valuing every kind of
// move from the current components. Two pairs whose ends lie in components of the same kinds (a
// tree of one size, or a one-cycle component) lead to the same state, so a turn values a few kinds
// of moves, each a look-up in what solve() valued the game with (the table of n, or its search's
// memo), and the pairs are then read in order for the first best one.
#include "core/doublemove/play.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <utility>

#include "core/doublemove/state_space.hpp"
#include "core/doublemove/state_table.hpp"
#include "core/doublemove/state_values.hpp"

namespace gamebatch::doublemove {
namespace {

// Union-find over the values with the number of edges of each component.
struct Graph {
  std::vector<int> parent, vertices, edges;

  explicit Graph(const Instance& instance)
      : parent(static_cast<std::size_t>(instance.n)),
        vertices(static_cast<std::size_t>(instance.n), 1),
        edges(static_cast<std::size_t>(instance.n), 0) {
    std::iota(parent.begin(), parent.end(), 0);
    for (const Declaration& pair : instance.declarations)
      join(pair.a - 1, pair.b - 1);
  }
  int find(int v) {
    while (parent[static_cast<std::size_t>(v)] != v)
      v = parent[static_cast<std::size_t>(v)] =
          parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(v)])];
    return v;
  }
  void join(int a, int b) {
    const auto ra = static_cast<std::size_t>(find(a));
    const auto rb = static_cast<std::size_t>(find(b));
    ++edges[ra];
    if (ra == rb)
      return;
    parent[rb] = static_cast<int>(ra);
    vertices[ra] += vertices[rb];
    edges[ra] += edges[rb];
  }
  int cycles(int root) const {  // edges - vertices + 1: 0 a tree, 1 one cycle, more ends the game
    return edges[static_cast<std::size_t>(root)] - vertices[static_cast<std::size_t>(root)] + 1;
  }
};

// The game between declarations, as solve()'s replay counts it: the pick sequences Alice has won
// so far and those still running (alive = f(G) * 2^(n + 1 - turns declared)).
struct Progress {
  Value decided = 0;
  Value alive = 0;
};

// The components' kinds: 0 for a one-cycle component, 1 + r for a tree of the r-th smallest size.
struct Kinds {
  SizeRuns trees;
  int one_cycle = 0;
  Value product = 1;          // of the tree sizes
  std::vector<int> of_value;  // the kind of each value's component
  std::vector<int> root_of_value;

  int size(int kind) const { return trees.size[static_cast<std::size_t>(kind - 1)]; }
};

Kinds kinds_of(Graph& graph, int n) {
  Kinds kinds;
  std::vector<int> sizes;
  kinds.root_of_value.resize(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) {
    const int root = graph.find(v);
    kinds.root_of_value[static_cast<std::size_t>(v)] = root;
    if (root == v && graph.cycles(v) == 0)
      sizes.push_back(graph.vertices[static_cast<std::size_t>(v)]);
    else if (root == v)
      ++kinds.one_cycle;
  }
  kinds.trees = SizeRuns::of(sizes);
  for (const int size : sizes)
    kinds.product *= static_cast<Value>(size);
  // The kind of each root, then of each value by its root.
  std::vector<int> kind_of_root(static_cast<std::size_t>(n), 0);
  for (int run = 0; run < kinds.trees.runs; ++run) {
    for (int v = 0; v < n; ++v) {
      if (kinds.root_of_value[static_cast<std::size_t>(v)] == v && graph.cycles(v) == 0 &&
          graph.vertices[static_cast<std::size_t>(v)] ==
              kinds.trees.size[static_cast<std::size_t>(run)])
        kind_of_root[static_cast<std::size_t>(v)] = run + 1;
    }
  }
  kinds.of_value.resize(static_cast<std::size_t>(n));
  for (std::size_t v = 0; v < kinds.of_value.size(); ++v)
    kinds.of_value[v] = kind_of_root[static_cast<std::size_t>(kinds.root_of_value[v])];
  return kinds;
}

// f(G) = the product over components of (size, for a tree; 2, for one cycle; 0 for more), as
// solve()'s replay counts the pick sequences still alive.
Value orientations(Graph& graph, int n) {
  Value product = 1;
  for (int v = 0; v < n; ++v) {
    if (graph.find(v) != v)
      continue;
    const int cycles = graph.cycles(v);
    if (cycles >= 2)
      return 0;
    product *=
        cycles == 1 ? Value{2} : static_cast<Value>(graph.vertices[static_cast<std::size_t>(v)]);
  }
  return product;
}

// What the declaration at `turn` of a pair joining components of kinds `kind_a` <= `kind_b` (the
// same component when `same`) leads to: the game's progress after it, the state left when the
// game goes on, and the value (filled by value_of_move).
struct MoveValue {
  Progress after;
  std::optional<std::pair<SizeRuns, int>> state;
  Value value = 0;
};

MoveValue successor(const Kinds& kinds, int kind_a, int kind_b, bool same, int n, int turn,
                    const Progress& before) {
  // f(G) after the move (0: a component with two cycles), and the state left otherwise.
  Value f_after = 0;
  std::optional<std::pair<SizeRuns, int>> state;
  if (same && kind_a != 0) {  // a tree closed into a one-cycle component
    const int s = kinds.size(kind_a);
    f_after = kinds.product / static_cast<Value>(s) << (kinds.one_cycle + 1);
    state.emplace(with_move(kinds.trees, kind_a - 1, -1, 0), kinds.one_cycle + 1);
  } else if (!same && kind_a != 0 && kind_b != 0) {  // two trees joined
    const int s = kinds.size(kind_a);
    const int t = kinds.size(kind_b);
    f_after = kinds.product / static_cast<Value>(s * t) * static_cast<Value>(s + t)
              << kinds.one_cycle;
    state.emplace(with_move(kinds.trees, kind_a - 1, kind_b - 1, s + t), kinds.one_cycle);
  } else if (!same && (kind_a != 0 || kind_b != 0)) {  // a tree hung on a one-cycle component
    const int kind = std::max(kind_a, kind_b);
    f_after = kinds.product / static_cast<Value>(kinds.size(kind)) << kinds.one_cycle;
    state.emplace(with_move(kinds.trees, kind - 1, -1, 0), kinds.one_cycle);
  }
  MoveValue result;
  result.after.alive = f_after << (n + 1 - turn);
  result.after.decided =
      before.decided + (turn % 2 == 0 ? before.alive - result.after.alive : Value{0});
  result.state = std::move(state);
  return result;
}

MoveValue value_of_move(const Kinds& kinds, int kind_a, int kind_b, bool same, int n, int turn,
                        const Progress& before, const StateValues& values) {
  MoveValue result = successor(kinds, kind_a, kind_b, same, n, turn, before);
  result.value = result.after.decided;
  if (result.state)
    result.value += values.remaining_value(result.state->first, result.state->second);
  return result;
}

// The lexicographically first pair (a <= b) among those best for the owner of `turn`, and the
// progress after it.
std::pair<PlayedDeclaration, Progress> best_declaration(Graph& graph, int n, int turn,
                                                        const Progress& before,
                                                        const StateValues& values) {
  const bool alice = turn % 2 == 1;
  PlayedDeclaration best;
  best.turn = turn;
  if (before.alive == 0) {  // every pair leaves the same count: the first is taken
    best.pair = {1, 1};
    best.alice_wins_after = before.decided;
    return {best, Progress{before.decided, 0}};
  }
  const Kinds kinds = kinds_of(graph, n);
  // Every kind of move there is: (smaller kind, larger kind, same component), valued once.
  const int kind_count = kinds.trees.runs + 1;
  auto key = [kind_count](int low, int high, bool same) {
    return static_cast<std::size_t>((low * kind_count + high) * 2 + (same ? 1 : 0));
  };
  auto components = [&kinds](int kind) {
    return kind == 0 ? kinds.one_cycle : kinds.trees.count[static_cast<std::size_t>(kind - 1)];
  };
  constexpr std::size_t kKinds = kMaxDistinctSizes + 1;
  std::array<Value, kKinds * kKinds * 2> value_of;
  bool found = false;
  Value best_value = 0;
  auto consider = [&](int low, int high, bool same) {
    const Value value = value_of_move(kinds, low, high, same, n, turn, before, values).value;
    value_of[key(low, high, same)] = value;
    if (!found || (alice ? value > best_value : value < best_value))
      best_value = value;
    found = true;
  };
  for (int low = 0; low < kind_count; ++low) {
    if (components(low) == 0)
      continue;
    consider(low, low, true);
    for (int high = low; high < kind_count; ++high) {
      if (components(high) >= (high == low ? 2 : 1))
        consider(low, high, false);
    }
  }
  // The first pair in order whose move is worth the best value.
  for (int a = 1; a <= n; ++a) {
    for (int b = a; b <= n; ++b) {
      const auto va = static_cast<std::size_t>(a - 1);
      const auto vb = static_cast<std::size_t>(b - 1);
      const bool same = kinds.root_of_value[va] == kinds.root_of_value[vb];
      const int low = std::min(kinds.of_value[va], kinds.of_value[vb]);
      const int high = std::max(kinds.of_value[va], kinds.of_value[vb]);
      if (value_of[key(low, high, same)] == best_value) {
        best.pair = {a, b};
        best.alice_wins_after = best_value;
        return {best, successor(kinds, low, high, same, n, turn, before).after};
      }
    }
  }
  throw std::logic_error("doublemove: no pair is worth the best move's value");
}

ComponentSummary summary_of(Graph& graph, int n) {
  ComponentSummary summary;
  for (int v = 0; v < n; ++v) {
    if (graph.find(v) != v)
      continue;
    const int cycles = graph.cycles(v);
    if (cycles == 0)
      summary.tree_sizes.push_back(graph.vertices[static_cast<std::size_t>(v)]);
    else if (cycles == 1)
      ++summary.one_cycle;
    else
      summary.ended = true;
  }
  std::sort(summary.tree_sizes.begin(), summary.tree_sizes.end(), std::greater<>());
  return summary;
}

std::string summary_text(const ComponentSummary& summary) {
  if (summary.ended)
    return "a component with two cycles: every pick sequence has ended";
  std::string text = "trees";
  if (summary.tree_sizes.empty())
    text += " none";
  for (std::size_t k = 0; k < summary.tree_sizes.size(); ++k)
    text.append(k == 0 ? " " : "+").append(std::to_string(summary.tree_sizes[k]));
  return text + ", one-cycle components " + std::to_string(summary.one_cycle);
}

}  // namespace

ComponentSummary summarise_components(const Instance& instance) {
  Graph graph(instance);
  return summary_of(graph, instance.n);
}

Play optimal_play(const Instance& instance, StateTableStore& store) {
  if (const std::string problem = check_instance(instance); !problem.empty())
    throw std::invalid_argument("doublemove: " + problem);
  Play play;
  StateValues values;
  play.value = solve_keeping(instance, store, SolveMethod::automatic, values);
  const int n = instance.n;
  // The given declarations replayed as solve() does, then one turn at a time.
  Instance none;
  none.n = n;
  Graph graph(none);
  Progress progress{0, Value{1} << (n + 1)};
  int turn = 0;
  for (const Declaration& pair : instance.declarations) {
    graph.join(pair.a - 1, pair.b - 1);
    ++turn;
    const Value alive = orientations(graph, n) << (n + 1 - turn);
    if (turn % 2 == 0)
      progress.decided += progress.alive - alive;  // sequences ending at this even turn: Alice's
    progress.alive = alive;
  }
  for (++turn; turn <= n + 1; ++turn) {
    auto [move, after] = best_declaration(graph, n, turn, progress, values);
    progress = after;
    graph.join(move.pair.a - 1, move.pair.b - 1);
    move.after = summary_of(graph, n);
    play.declarations.push_back(std::move(move));
  }
  return play;
}

Play optimal_play(const Instance& instance) {
  return optimal_play(instance, default_store());
}

std::string describe_play(const Instance& instance, const Play& play) {
  std::string text = "n = " + std::to_string(instance.n) + ", " +
                     std::to_string(instance.declarations.size()) +
                     (instance.declarations.size() == 1 ? " declaration" : " declarations") +
                     " given: " + summary_text(summarise_components(instance)) + "; Alice wins " +
                     to_decimal(play.value) + " of 2^" + std::to_string(instance.n + 1) +
                     " pick sequences with best play\n";
  for (const PlayedDeclaration& move : play.declarations) {
    text += "declaration " + std::to_string(move.turn) + " (" +
            (move.turn % 2 == 1 ? "Alice" : "Bob") + "): (" + std::to_string(move.pair.a) + ", " +
            std::to_string(move.pair.b) + ") -> " + summary_text(move.after) +
            "; Alice's winning sequences: " + to_decimal(move.alice_wins_after) + "\n";
  }
  return text + "answer: " + to_decimal(play.value) + "\n";
}

}  // namespace gamebatch::doublemove
