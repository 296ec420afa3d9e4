// doublemove's optimal play: each declaration still to come is chosen by trying every kind of
// move on the solver. Two pairs whose ends lie in the same two components (or the same one) lead
// to the same state, so one solve per pair of components is enough.
#include "core/doublemove/play.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "core/doublemove/state_table.hpp"

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
};

using StateKey = std::tuple<std::vector<int>, int, bool>;

StateKey key_of(const ComponentSummary& summary) {
  return {summary.tree_sizes, summary.one_cycle, summary.ended};
}

// The lexicographically first pair among those best for the owner of `turn`.
PlayedDeclaration best_declaration(Instance& so_far, int turn, StateTableStore& store) {
  Graph graph(so_far);
  const bool alice = turn % 2 == 1;
  std::map<StateKey, Value> value_of_state;
  std::map<std::pair<int, int>, std::pair<StateKey, Value>> value_of_roots;
  PlayedDeclaration best;
  bool found = false;
  for (int a = 1; a <= so_far.n; ++a) {
    for (int b = a; b <= so_far.n; ++b) {
      const int root_a = graph.find(a - 1);
      const int root_b = graph.find(b - 1);
      const std::pair<int, int> roots{std::min(root_a, root_b), std::max(root_a, root_b)};
      auto known = value_of_roots.find(roots);
      if (known == value_of_roots.end()) {
        so_far.declarations.push_back({a, b});
        const ComponentSummary summary = summarise_components(so_far);
        StateKey key = key_of(summary);
        auto state = value_of_state.find(key);
        if (state == value_of_state.end())
          state = value_of_state.emplace(key, solve(so_far, store)).first;
        so_far.declarations.pop_back();
        known = value_of_roots.emplace(roots, std::pair{key, state->second}).first;
      }
      const Value value = known->second.second;
      if (!found || (alice ? value > best.alice_wins_after : value < best.alice_wins_after)) {
        found = true;
        best.pair = {a, b};
        best.alice_wins_after = value;
      }
    }
  }
  best.turn = turn;
  so_far.declarations.push_back(best.pair);
  best.after = summarise_components(so_far);
  return best;
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
  ComponentSummary summary;
  for (int v = 0; v < instance.n; ++v) {
    if (graph.find(v) != v)
      continue;
    const int cycles =
        graph.edges[static_cast<std::size_t>(v)] - graph.vertices[static_cast<std::size_t>(v)] + 1;
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

Play optimal_play(const Instance& instance, StateTableStore& store) {
  if (const std::string problem = check_instance(instance); !problem.empty())
    throw std::invalid_argument("doublemove: " + problem);
  Play play;
  play.value = solve(instance, store);
  Instance so_far = instance;
  const int given = static_cast<int>(instance.declarations.size());
  for (int turn = given + 1; turn <= instance.n + 1; ++turn)
    play.declarations.push_back(best_declaration(so_far, turn, store));
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
