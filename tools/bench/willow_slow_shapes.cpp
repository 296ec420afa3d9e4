// willow_slow_shapes: a search for the trees that cost willow's pruned search the most work, in
// chain steps per N^2 (SolveReport::chain_steps, which does not depend on the thread count).
//
//   willow_slow_shapes --seed 1 --cities 3000 --climbs 12 --steps 40 --edits 200
//
// Two phases, deterministic by seed:
// - a hill climb over TreeRecipe (core/willow/generators.hpp: arms of combs, brooms or
//   caterpillars joined at a hub, tooth length and spacing, combs of combs, one long arm, coin
//   layouts) from the tripod and from random recipes: a neighbour (one parameter changed) that
//   costs more per N^2 at --cities, averaged over two coin draws, is taken;
// - local edits of the worst tree found (move a subtree, reattach a leaf, change a city's coins),
//   each kept where the cost rises: whether the family's tree is a local maximum, or how far
//   from one.
// Then the worst distinct recipes with their cost per N^2 at each of --sizes, as the
// make_willow_case command that writes them (--recipe). See tools/bench/README.md.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <oneapi/tbb/task_arena.h>
#include <CLI/CLI.hpp>

#include "core/random.hpp"
#include "core/willow/generators.hpp"
#include "core/willow/willow.hpp"
#include "io/willow/format.hpp"
#include "tools/bench/case_output.hpp"

namespace willow = gamebatch::willow;
using gamebatch::uniform_below;

namespace {

constexpr willow::Coins kMaxCoin = 10000;

// Chain steps per N^2 of one instance, on one thread, the pruned search never giving up.
double cost_per_square(const willow::Instance& instance) {
  willow::SolverOptions options;
  options.pruned_budget_scale = 1e12;
  tbb::task_arena one_thread(1);
  const willow::SolveReport report =
      one_thread.execute([&] { return willow::solve_with_report(instance, options); });
  const double n = instance.city_count();
  return static_cast<double>(report.chain_steps) / (n * n);
}

// The mean over `draws` coin draws (seeds 1, 2, ...) of a recipe's cost at `cities`.
double recipe_cost(const willow::TreeRecipe& recipe, std::int32_t cities, int draws) {
  double total = 0;
  for (int draw = 1; draw <= draws; ++draw) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(draw));
    total += cost_per_square(willow::generate_recipe_instance(recipe, cities, kMaxCoin, rng));
  }
  return total / draws;
}

willow::TreeRecipe random_recipe(std::mt19937_64& rng) {
  willow::TreeRecipe recipe;
  recipe.legs = 1 + static_cast<std::int32_t>(uniform_below(rng, 8));
  recipe.arm = static_cast<willow::ArmKind>(uniform_below(rng, 3));
  recipe.tooth = 1 + static_cast<std::int32_t>(uniform_below(rng, 8));
  recipe.gap = 1 + static_cast<std::int32_t>(uniform_below(rng, 4));
  recipe.nested_teeth = uniform_below(rng, 2) == 0;
  recipe.long_arm_percent = 50 * static_cast<std::int32_t>(uniform_below(rng, 5));
  recipe.layout = static_cast<willow::CoinLayout>(uniform_below(rng, 5));
  return recipe;
}

// One parameter of `recipe` changed at random, within the ranges the search covers.
willow::TreeRecipe neighbour(willow::TreeRecipe recipe, std::mt19937_64& rng) {
  const auto up_or_down = [&rng](std::int32_t value, std::int32_t step, std::int32_t low,
                                 std::int32_t high) {
    const std::int32_t moved = uniform_below(rng, 2) == 0 ? value - step : value + step;
    return std::clamp(moved, low, high);
  };
  switch (uniform_below(rng, 7)) {
    case 0:
      recipe.legs = up_or_down(recipe.legs, 1, 1, 12);
      break;
    case 1:
      recipe.arm = static_cast<willow::ArmKind>(uniform_below(rng, 3));
      break;
    case 2:
      recipe.tooth = uniform_below(rng, 2) == 0 ? up_or_down(recipe.tooth, 1, 1, 64)
                                                : up_or_down(recipe.tooth, recipe.tooth, 1, 64);
      break;
    case 3:
      recipe.gap = up_or_down(recipe.gap, 1, 1, 16);
      break;
    case 4:
      recipe.nested_teeth = !recipe.nested_teeth;
      break;
    case 5:
      recipe.long_arm_percent = up_or_down(recipe.long_arm_percent, 50, 0, 400);
      break;
    default:
      recipe.layout = static_cast<willow::CoinLayout>(uniform_below(rng, 5));
      break;
  }
  return recipe;
}

struct Options {
  std::uint64_t seed = 1;
  std::int32_t cities = 3000;
  int climbs = 12;
  int steps = 40;
  int edits = 200;
  int top = 5;
  std::vector<std::int32_t> sizes = {1000, 10000, 100000};
  std::string edited_out;  // where the edited tree goes (official format), if anywhere
};

// Every recipe costed so far, by its description (a climb revisits many).
using Costed = std::map<std::string, std::pair<willow::TreeRecipe, double>>;

double costed(Costed& seen, const willow::TreeRecipe& recipe, const Options& options) {
  const std::string name = willow::describe(recipe);
  if (const auto found = seen.find(name); found != seen.end())
    return found->second.second;
  const double cost = recipe_cost(recipe, options.cities, 2);
  seen.emplace(name, std::make_pair(recipe, cost));
  return cost;
}

// Climb 0 starts from the tripod (three comb arms), the others from random recipes.
void climb(Costed& seen, const Options& options, std::mt19937_64& rng) {
  for (int start = 0; start < options.climbs; ++start) {
    willow::TreeRecipe at = start == 0 ? willow::TreeRecipe{} : random_recipe(rng);
    double cost = costed(seen, at, options);
    for (int step = 0; step < options.steps; ++step) {
      const willow::TreeRecipe next = neighbour(at, rng);
      const double next_cost = costed(seen, next, options);
      if (next_cost > cost) {
        at = next;
        cost = next_cost;
      }
    }
    std::printf("climb %d: %.6f per N^2, %s\n", start, cost, willow::describe(at).c_str());
    std::fflush(stdout);
  }
}

// The tree as parents of a rooting at city 0 (parent[0] = -1).
std::vector<std::int32_t> parents_of(const willow::Instance& instance) {
  const auto n = static_cast<std::size_t>(instance.city_count());
  std::vector<std::vector<std::int32_t>> next(n);
  for (const auto& [a, b] : instance.roads) {
    next[static_cast<std::size_t>(a)].push_back(b);
    next[static_cast<std::size_t>(b)].push_back(a);
  }
  std::vector<std::int32_t> parent(n, -2);
  std::vector<std::int32_t> stack = {0};
  parent[0] = -1;
  while (!stack.empty()) {
    const std::int32_t city = stack.back();
    stack.pop_back();
    for (const std::int32_t other : next[static_cast<std::size_t>(city)]) {
      if (parent[static_cast<std::size_t>(other)] == -2) {
        parent[static_cast<std::size_t>(other)] = city;
        stack.push_back(other);
      }
    }
  }
  return parent;
}

willow::Instance from_parents(const std::vector<std::int32_t>& parent,
                              const std::vector<willow::Coins>& coins) {
  willow::Instance instance;
  instance.coins = coins;
  for (std::size_t city = 1; city < parent.size(); ++city)
    instance.roads.emplace_back(parent[city], static_cast<std::int32_t>(city));
  return instance;
}

// One local edit: a subtree moved under a city outside it, a leaf moved, or a city's coins.
void edit(std::vector<std::int32_t>& parent, std::vector<willow::Coins>& coins,
          std::mt19937_64& rng) {
  const auto n = parent.size();
  const auto city = static_cast<std::int32_t>(1 + uniform_below(rng, n - 1));
  if (uniform_below(rng, 3) == 0) {
    coins[static_cast<std::size_t>(city)] =
        static_cast<willow::Coins>(uniform_below(rng, kMaxCoin + 1));
    return;
  }
  const auto target = static_cast<std::int32_t>(uniform_below(rng, n));
  for (std::int32_t at = target; at != -1; at = parent[static_cast<std::size_t>(at)]) {
    if (at == city)
      return;  // inside the subtree: no edit
  }
  parent[static_cast<std::size_t>(city)] = target;
}

void edit_locally(const willow::TreeRecipe& recipe, const Options& options, std::mt19937_64& rng) {
  std::mt19937_64 draw(1);
  const willow::Instance start =
      willow::generate_recipe_instance(recipe, options.cities, kMaxCoin, draw);
  std::vector<std::int32_t> parent = parents_of(start);
  std::vector<willow::Coins> coins = start.coins;
  const double first = cost_per_square(start);
  double cost = first;
  int kept = 0;
  for (int round = 0; round < options.edits; ++round) {
    std::vector<std::int32_t> next_parent = parent;
    std::vector<willow::Coins> next_coins = coins;
    edit(next_parent, next_coins, rng);
    const double next_cost = cost_per_square(from_parents(next_parent, next_coins));
    if (next_cost > cost) {
      parent = std::move(next_parent);
      coins = std::move(next_coins);
      cost = next_cost;
      ++kept;
    }
  }
  std::printf("local edits of the worst (draw 1): %.6f -> %.6f per N^2, %d of %d edits kept\n",
              first, cost, kept, options.edits);
  if (!options.edited_out.empty()) {
    const std::string text = gamebatch::io::willow::format_file(
        {willow::to_official_labels(from_parents(parent, coins))});
    gamebatch::bench::write_case_file("willow_slow_shapes", options.edited_out, text);
  }
}

void report(const Costed& seen, const Options& options) {
  std::vector<std::pair<double, willow::TreeRecipe>> ranked;
  for (const auto& [name, entry] : seen)
    ranked.emplace_back(entry.second, entry.first);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::printf("\n| recipe | N = %d (search) |", options.cities);
  for (const std::int32_t size : options.sizes)
    std::printf(" N = %d |", size);
  std::string rule = "|---|---|";
  for (std::size_t s = 0; s < options.sizes.size(); ++s)
    rule += "---|";
  std::printf("\n%s\n", rule.c_str());
  const auto shown = std::min<std::size_t>(ranked.size(), static_cast<std::size_t>(options.top));
  for (std::size_t r = 0; r < shown; ++r) {
    std::printf("| `make_willow_case --recipe '%s'` | %.6f |",
                willow::describe(ranked[r].second).c_str(), ranked[r].first);
    for (const std::int32_t size : options.sizes)
      std::printf(" %.6f |", recipe_cost(ranked[r].second, size, 1));
    std::printf("\n");
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Searches for willow trees that cost the pruned search the most chain steps per "
      "N^2 (hill climbs over tree recipes, then local edits); deterministic by seed.",
      "willow_slow_shapes"};
  Options options;
  app.add_option("--seed", options.seed, "seed of the search")->capture_default_str();
  app.add_option("--cities", options.cities, "cities of the trees searched")
      ->check(CLI::Range(10, 1'000'000))
      ->capture_default_str();
  app.add_option("--climbs", options.climbs, "hill climbs")->capture_default_str();
  app.add_option("--steps", options.steps, "neighbours tried per climb")->capture_default_str();
  app.add_option("--edits", options.edits, "local edits of the worst tree")->capture_default_str();
  app.add_option("--top", options.top, "recipes reported")->capture_default_str();
  app.add_option("--write-edited", options.edited_out,
                 "write the worst tree after the local edits here (a willow input file)");
  app.add_option("--sizes", options.sizes, "sizes the reported recipes are costed at")
      ->delimiter(',')
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  try {
    std::mt19937_64 rng(options.seed);
    Costed seen;
    climb(seen, options, rng);
    const auto worst = std::max_element(seen.begin(), seen.end(), [](const auto& a, const auto& b) {
      return a.second.second < b.second.second;
    });
    edit_locally(worst->second.first, options, rng);
    report(seen, options);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "willow_slow_shapes: " << e.what() << "\n";
    return 1;
  }
}
