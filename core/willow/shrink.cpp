// Shrink candidates for willow: cut the tree, contract roads, lower coins (see shrink.hpp).
#include "core/willow/shrink.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace gamebatch::willow {
namespace {

using City = std::int32_t;
constexpr City kNoCity = -1;

std::size_t at(City city) {
  return static_cast<std::size_t>(city);
}

// The tree rooted at city 0 in depth-first preorder, so that the subtree of v is the run of
// cities preorder[position[v]] .. preorder[position[v] + subtree_size[v] - 1]. Every city but
// the root names a road: the one to its parent.
struct RootedTree {
  std::vector<City> parent;
  std::vector<City> preorder;
  std::vector<City> position;
  std::vector<City> subtree_size;
};

RootedTree root_at_city_zero(const Instance& instance) {
  const std::size_t count = instance.coins.size();
  std::vector<std::size_t> first_neighbour(count + 1, 0);
  for (const auto& [from, to] : instance.roads) {
    ++first_neighbour[at(from) + 1];
    ++first_neighbour[at(to) + 1];
  }
  std::partial_sum(first_neighbour.begin(), first_neighbour.end(), first_neighbour.begin());
  std::vector<City> neighbours(first_neighbour.back());
  std::vector<std::size_t> next_slot(first_neighbour.begin(), first_neighbour.end() - 1);
  for (const auto& [from, to] : instance.roads) {
    neighbours[next_slot[at(from)]++] = to;
    neighbours[next_slot[at(to)]++] = from;
  }

  RootedTree tree;
  tree.parent.assign(count, kNoCity);
  tree.position.assign(count, 0);
  tree.subtree_size.assign(count, 1);
  tree.preorder.reserve(count);
  std::vector<City> stack{0};
  while (!stack.empty()) {
    const City city = stack.back();
    stack.pop_back();
    tree.position[at(city)] = static_cast<City>(tree.preorder.size());
    tree.preorder.push_back(city);
    for (std::size_t slot = first_neighbour[at(city)]; slot < first_neighbour[at(city) + 1];
         ++slot) {
      const City neighbour = neighbours[slot];
      if (neighbour != tree.parent[at(city)]) {
        tree.parent[at(neighbour)] = city;
        stack.push_back(neighbour);
      }
    }
  }
  // Children come after their parents in preorder: sum the sizes bottom up.
  for (std::size_t rank = count; rank-- > 1;) {
    const City city = tree.preorder[rank];
    tree.subtree_size[at(tree.parent[at(city)])] += tree.subtree_size[at(city)];
  }
  return tree;
}

// Builds candidates in official labelling straight from the rooted tree: listing the kept cities
// in preorder and labelling them from the last label down gives every city but the first a
// parent with a larger label, which is what the format asks of road i (i < j_i).
class OfficialBuilder {
 public:
  OfficialBuilder(const Instance& instance, const RootedTree& tree)
      : instance_(instance), tree_(tree), new_label_(instance.coins.size(), kNoCity) {}

  // The cities of preorder ranks [first, end) (a subtree) or, with `inside` false, all others.
  Instance keep_ranks(City first, City end, bool inside) {
    std::vector<City> cities;
    for (City rank = 0; rank < static_cast<City>(tree_.preorder.size()); ++rank) {
      if ((rank >= first && rank < end) == inside)
        cities.push_back(tree_.preorder[at(rank)]);
    }
    return build(cities, kNoCity, kNoCity, 0);
  }

  // All cities but `removed`, whose children hang off its parent, which holds `merged_coins`.
  Instance contract(City removed, Coins merged_coins) {
    std::vector<City> cities;
    for (const City city : tree_.preorder) {
      if (city != removed)
        cities.push_back(city);
    }
    return build(cities, removed, tree_.parent[at(removed)], merged_coins);
  }

  Instance whole_tree() { return build(tree_.preorder, kNoCity, kNoCity, 0); }

 private:
  // `cities` in preorder, each one's parent among them (but for the first); `removed`'s children
  // go to `survivor`, which holds `survivor_coins`.
  Instance build(const std::vector<City>& cities, City removed, City survivor,
                 Coins survivor_coins) {
    const auto count = static_cast<City>(cities.size());
    Instance candidate;
    candidate.coins.resize(cities.size());
    candidate.roads.resize(cities.size() - 1);
    for (City rank = 0; rank < count; ++rank) {
      const City city = cities[at(rank)];
      const City label = count - 1 - rank;
      new_label_[at(city)] = label;
      candidate.coins[at(label)] = city == survivor ? survivor_coins : instance_.coins[at(city)];
      if (rank > 0) {
        City parent = tree_.parent[at(city)];
        if (parent == removed)
          parent = survivor;
        candidate.roads[at(label)] = {label, new_label_[at(parent)]};
      }
    }
    return candidate;
  }

  const Instance& instance_;
  const RootedTree& tree_;
  std::vector<City> new_label_;  // scratch, indexed by the input's cities
};

// The roads (named by their child city) whose cuts and contractions are offered: all of them on
// small trees; on large ones kMaxVariedPerKind spread evenly from the most lopsided cut to the
// most balanced, so that big trees still get both fine and coarse cuts in a list of bounded size.
std::vector<City> roads_to_cut(const RootedTree& tree) {
  const auto count = static_cast<City>(tree.preorder.size());
  std::vector<City> roads;
  for (City city = 1; city < count; ++city)
    roads.push_back(city);
  const auto limit = static_cast<std::size_t>(kMaxVariedPerKind);
  if (roads.size() <= limit)
    return roads;
  const auto smaller_side = [&](City city) {
    const City below = tree.subtree_size[at(city)];
    return std::min(below, count - below);
  };
  std::stable_sort(roads.begin(), roads.end(),
                   [&](City x, City y) { return smaller_side(x) < smaller_side(y); });
  std::vector<City> spread;
  for (std::size_t pick = 0; pick < limit; ++pick)
    spread.push_back(roads[pick * (roads.size() - 1) / (limit - 1)]);
  return spread;
}

void add_structural_candidates(const Instance& instance, const RootedTree& tree,
                               OfficialBuilder& builder, std::vector<Instance>& candidates) {
  const City count = instance.city_count();
  if (count < 3)
    return;  // any cut or contraction would leave one city, below the official minimum of two
  const std::vector<City> roads = roads_to_cut(tree);

  // Kind 1: one side of a road. `keep_below` keeps the subtree of the road's child city.
  struct Cut {
    City size;
    City child;
    bool keep_below;
  };
  std::vector<Cut> cuts;
  for (const City child : roads) {
    const City below = tree.subtree_size[at(child)];
    if (below >= 2)
      cuts.push_back({below, child, true});
    if (count - below >= 2)
      cuts.push_back({count - below, child, false});
  }
  std::stable_sort(cuts.begin(), cuts.end(),
                   [](const Cut& x, const Cut& y) { return x.size < y.size; });
  for (const Cut& cut : cuts) {
    const City first = tree.position[at(cut.child)];
    candidates.push_back(
        builder.keep_ranks(first, first + tree.subtree_size[at(cut.child)], cut.keep_below));
  }

  // Kind 2: contract a road, the merged city keeping either end's coins.
  for (const City child : roads) {
    const Coins child_coins = instance.coins[at(child)];
    const Coins parent_coins = instance.coins[at(tree.parent[at(child)])];
    candidates.push_back(builder.contract(child, std::max(child_coins, parent_coins)));
    if (child_coins != parent_coins)
      candidates.push_back(builder.contract(child, std::min(child_coins, parent_coins)));
  }
}

void add_coin_candidates(const Instance& base, std::vector<Instance>& candidates) {
  // Coins do not change the tree: vary the coins of one relabelled copy.
  const auto with_coins = [&](const std::vector<Coins>& coins) {
    Instance candidate;
    candidate.coins = coins;
    candidate.roads = base.roads;
    candidates.push_back(std::move(candidate));
  };

  if (std::any_of(base.coins.begin(), base.coins.end(), [](Coins c) { return c > 0; })) {
    std::vector<Coins> halved = base.coins;
    for (Coins& amount : halved)
      amount /= 2;
    with_coins(halved);
  }

  std::vector<City> richest_first(base.coins.size());
  std::iota(richest_first.begin(), richest_first.end(), City{0});
  std::stable_sort(richest_first.begin(), richest_first.end(),
                   [&](City x, City y) { return base.coins[at(x)] > base.coins[at(y)]; });
  richest_first.resize(std::min(richest_first.size(), static_cast<std::size_t>(kMaxVariedPerKind)));
  std::vector<Coins> coins = base.coins;
  const auto one_city_changed = [&](City city, Coins amount) {
    coins[at(city)] = amount;
    with_coins(coins);
    coins[at(city)] = base.coins[at(city)];
  };
  // Each kind skips the amounts an earlier kind already offered (halving 1 or 2 gives 0 or 1).
  for (const City city : richest_first) {
    if (base.coins[at(city)] > 0)
      one_city_changed(city, 0);
  }
  for (const City city : richest_first) {
    if (base.coins[at(city)] >= 2)
      one_city_changed(city, base.coins[at(city)] / 2);
  }
  for (const City city : richest_first) {
    if (base.coins[at(city)] >= 3)
      one_city_changed(city, base.coins[at(city)] - 1);
  }
}

}  // namespace

std::vector<Instance> shrink_candidates(const Instance& instance) {
  std::vector<Instance> candidates;
  if (!check_instance(instance).empty())
    return candidates;
  const RootedTree tree = root_at_city_zero(instance);
  OfficialBuilder builder(instance, tree);
  add_structural_candidates(instance, tree, builder, candidates);
  add_coin_candidates(builder.whole_tree(), candidates);
  return candidates;
}

}  // namespace gamebatch::willow
