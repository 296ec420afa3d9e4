// The fast solver: replay the given declarations, then look the state they lead to up in the
// table of n. The answer is what the given turns already decided (the spec's g(i) for even
// i <= k) plus the table's value of the rest of the game.
#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/state_space.hpp"
#include "core/doublemove/state_table.hpp"

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

Value solve(const Instance& instance, StateTableStore& store) {
  if (const std::string problem = check_instance(instance); !problem.empty())
    throw std::invalid_argument("doublemove::solve: " + problem);
  const int n = instance.n;
  Components components(n);
  // alive = f(G_i) * 2^(n+1-i): pick sequences still running after turn i.
  Value alive = Value{1} << (n + 1);
  Value decided = 0;
  int turn = 0;
  for (const auto& [a, b] : instance.declarations) {
    components.add_edge(a - 1, b - 1);
    ++turn;
    const Value still_alive = components.orientations() << (n + 1 - turn);
    if (turn % 2 == 0)
      decided += alive - still_alive;  // sequences ending at this even turn are Alice's
    alive = still_alive;
  }
  // Every sequence has ended (a two-cycle component; always so after n + 1 declarations).
  if (alive == 0)
    return decided;
  const auto table = store.get(n);
  return decided + table->remaining_value(SizeRuns::of(components.tree_sizes()),
                                          components.one_cycle_components());
}

Value solve(const Instance& instance) {
  return solve(instance, default_store());
}

}  // namespace gamebatch::doublemove
