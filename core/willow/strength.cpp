#include "core/willow/strength.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "core/willow/generators.hpp"
#include "core/willow/play.hpp"

namespace gamebatch::willow {
// Not an anonymous namespace: the unity batches hold other files' helpers of the same names.
namespace strength_parts {

using City = std::int32_t;

struct Adjacency {
  std::vector<std::vector<City>> neighbours;
  explicit Adjacency(const Instance& instance) : neighbours(instance.coins.size()) {
    for (const auto& [u, v] : instance.roads) {
      neighbours[static_cast<std::size_t>(u)].push_back(v);
      neighbours[static_cast<std::size_t>(v)].push_back(u);
    }
  }
  std::size_t degree(City v) const { return neighbours[static_cast<std::size_t>(v)].size(); }
};

// The cities of degree > 1 form a path (none, one, or a chain), as a caterpillar's spine does.
bool spine_is_path(const Adjacency& tree) {
  const auto n = static_cast<City>(tree.neighbours.size());
  std::size_t spine = 0, ends = 0;
  for (City v = 0; v < n; ++v) {
    if (tree.degree(v) <= 1)
      continue;
    ++spine;
    std::size_t inner = 0;
    for (const City w : tree.neighbours[static_cast<std::size_t>(v)])
      inner += tree.degree(w) > 1 ? 1 : 0;
    if (inner > 2)
      return false;
    ends += inner <= 1 ? 1 : 0;
  }
  return spine <= 1 || ends == 2;
}

// A path whose one end holds every other leaf: a broom (a star and a path are brooms too).
bool is_broom(const Adjacency& tree) {
  const auto n = static_cast<City>(tree.neighbours.size());
  City hub = -1;
  for (City v = 0; v < n; ++v) {
    if (tree.degree(v) > 2) {
      if (hub >= 0)
        return false;
      hub = v;
    }
  }
  if (hub < 0)
    return true;
  // At most one of the hub's branches is longer than one city.
  std::size_t long_branches = 0;
  for (const City w : tree.neighbours[static_cast<std::size_t>(hub)])
    long_branches += tree.degree(w) > 1 ? 1 : 0;
  return long_branches <= 1;
}

// The richest path of the forest `neighbours` restricted to `alive` roads, with its cities:
// DP down a rooting of each component, the best path through each city.
struct RichestPath {
  Coins sum = 0;
  std::vector<City> cities;
};

RichestPath richest_path(const std::vector<Coins>& coins,
                         const std::vector<std::vector<City>>& neighbours) {
  const auto n = static_cast<City>(coins.size());
  std::vector<City> parent(static_cast<std::size_t>(n), -2), order;
  std::vector<Coins> down(static_cast<std::size_t>(n), 0);
  std::vector<City> down_child(static_cast<std::size_t>(n), -1);
  for (City root = 0; root < n; ++root) {
    if (parent[static_cast<std::size_t>(root)] != -2)
      continue;
    parent[static_cast<std::size_t>(root)] = -1;
    std::vector<City> stack{root};
    while (!stack.empty()) {
      const City v = stack.back();
      stack.pop_back();
      order.push_back(v);
      for (const City w : neighbours[static_cast<std::size_t>(v)]) {
        if (parent[static_cast<std::size_t>(w)] == -2) {
          parent[static_cast<std::size_t>(w)] = v;
          stack.push_back(w);
        }
      }
    }
  }
  RichestPath best;
  best.sum = -1;
  City best_top = -1, best_second = -1;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const City v = *it;
    Coins first = 0, second = 0;
    City first_child = -1, second_child = -1;
    for (const City w : neighbours[static_cast<std::size_t>(v)]) {
      if (w == parent[static_cast<std::size_t>(v)])
        continue;
      const Coins value = down[static_cast<std::size_t>(w)];
      if (first_child < 0 || value > first) {
        second = first, second_child = first_child;
        first = value, first_child = w;
      } else if (second_child < 0 || value > second) {
        second = value, second_child = w;
      }
    }
    down[static_cast<std::size_t>(v)] = coins[static_cast<std::size_t>(v)] + first;
    down_child[static_cast<std::size_t>(v)] = first_child;
    const Coins through = coins[static_cast<std::size_t>(v)] + first + second;
    if (through > best.sum) {
      best.sum = through;
      best_top = v;
      best_second = second_child;
    }
  }
  if (best_top < 0)
    return {0, {}};
  // Down the first branch, back up through the top, down the second.
  std::vector<City> left;
  for (City v = down_child[static_cast<std::size_t>(best_top)]; v >= 0;
       v = down_child[static_cast<std::size_t>(v)])
    left.push_back(v);
  std::reverse(left.begin(), left.end());
  best.cities = std::move(left);
  best.cities.push_back(best_top);
  for (City v = best_second; v >= 0; v = down_child[static_cast<std::size_t>(v)])
    best.cities.push_back(v);
  return best;
}

}  // namespace strength_parts

std::vector<std::string> shapes_of(const Instance& instance) {
  const strength_parts::Adjacency tree(instance);
  const auto n = static_cast<std::int32_t>(instance.coins.size());
  std::size_t max_degree = 0, centres = 0;
  for (std::int32_t v = 0; v < n; ++v) {
    max_degree = std::max(max_degree, tree.degree(v));
    centres += tree.degree(v) + 1 == static_cast<std::size_t>(n) ? 1 : 0;
  }
  std::vector<std::string> shapes;
  const bool path = max_degree <= 2;
  const bool star = n <= 2 || centres > 0;
  const bool caterpillar = strength_parts::spine_is_path(tree);
  const bool broom = strength_parts::is_broom(tree);
  const bool binary = max_degree <= 3;
  if (path)
    shapes.emplace_back(to_string(TreeShape::path));
  if (star)
    shapes.emplace_back(to_string(TreeShape::star));
  if (caterpillar)
    shapes.emplace_back(to_string(TreeShape::caterpillar));
  if (broom)
    shapes.emplace_back(to_string(TreeShape::broom));
  if (binary)
    shapes.emplace_back(to_string(TreeShape::binary));
  if (!path && !star && !caterpillar && !broom && !binary)
    shapes.emplace_back(to_string(TreeShape::random));
  const bool all_zero = std::all_of(instance.coins.begin(), instance.coins.end(),
                                    [](Coins coins) { return coins == 0; });
  const bool all_equal = std::all_of(instance.coins.begin(), instance.coins.end(),
                                     [&](Coins coins) { return coins == instance.coins.front(); });
  if (all_zero)
    shapes.push_back("coins " + std::string(to_string(CoinPattern::all_zero)));
  else if (all_equal && n > 1)
    shapes.push_back("coins " + std::string(to_string(CoinPattern::all_equal)));
  return shapes;
}

Coins b_near_a(const Instance& instance) {
  const PairValues value(instance);
  const strength_parts::Adjacency tree(instance);
  Coins answer = 0;
  for (std::int32_t a = 0; a < instance.city_count(); ++a) {
    Coins row = value(a, a);
    for (const std::int32_t b : tree.neighbours[static_cast<std::size_t>(a)])
      row = std::min(row, value(a, b));
    answer = a == 0 ? row : std::max(answer, row);
  }
  return answer;
}

Coins richest_start(const Instance& instance) {
  const PairValues value(instance);
  const auto richest = static_cast<std::int32_t>(
      std::max_element(instance.coins.begin(), instance.coins.end()) - instance.coins.begin());
  Coins row = value(richest, richest);
  for (std::int32_t b = 0; b < instance.city_count(); ++b)
    row = std::min(row, value(richest, b));
  return row;
}

Coins greedy_paths(const Instance& instance) {
  const std::string problem = check_instance(instance);
  if (!problem.empty())
    throw std::invalid_argument("willow: " + problem);
  strength_parts::Adjacency tree(instance);
  std::vector<Coins> coins = instance.coins;
  const strength_parts::RichestPath a = strength_parts::richest_path(coins, tree.neighbours);
  // A's cities emptied and her roads gone: B's path lies in what is left.
  for (std::size_t k = 0; k < a.cities.size(); ++k) {
    const std::int32_t v = a.cities[k];
    coins[static_cast<std::size_t>(v)] = 0;
    if (k + 1 < a.cities.size()) {
      const std::int32_t w = a.cities[k + 1];
      std::erase(tree.neighbours[static_cast<std::size_t>(v)], w);
      std::erase(tree.neighbours[static_cast<std::size_t>(w)], v);
    }
  }
  const strength_parts::RichestPath b = strength_parts::richest_path(coins, tree.neighbours);
  return a.sum - b.sum;
}

}  // namespace gamebatch::willow
