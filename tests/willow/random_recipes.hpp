// Tree recipes of willow_slow_shapes' families (spiders of combs, brooms and caterpillars, combs of
// combs, one long arm, coin layouts) drawn at random, for the differential tests.
#pragma once

#include <cstdint>
#include <random>

#include "core/willow/generators.hpp"

namespace gamebatch::willow::testing {

struct RecipeRanges {
  std::int32_t most_legs = 8;
  std::int32_t longest_tooth = 6;
  std::int32_t widest_gap = 6;
};

// A recipe drawn over `ranges` (the search's by default); deterministic in `rng`.
inline TreeRecipe random_recipe(std::mt19937_64& rng, const RecipeRanges& ranges = {}) {
  TreeRecipe recipe;
  recipe.legs = 1 + static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(ranges.most_legs));
  recipe.arm = static_cast<ArmKind>(rng() % 3);
  recipe.tooth =
      1 + static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(ranges.longest_tooth));
  recipe.gap = 1 + static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(ranges.widest_gap));
  recipe.nested_teeth = rng() % 2 == 0;
  recipe.long_arm_percent = 50 * static_cast<std::int32_t>(rng() % 5);
  recipe.layout = static_cast<CoinLayout>(rng() % 5);
  return recipe;
}

}  // namespace gamebatch::willow::testing
