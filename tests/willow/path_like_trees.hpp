// Trees made of long paths, for the willow differential tests: a path with a few side branches,
// a path with one long chain hanging off it, and a leafy spine (a caterpillar whose spine cities
// all have a leaf, some a longer branch, so that no city of the spine is bare). Cities are
// relabelled at random.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "core/willow/willow.hpp"

namespace gamebatch::willow::testing {

enum class PathLike { few_branches, hanging_chain, leafy_spine };

// `city_count` >= 1 cities, coins drawn from 0..max_coin (a quarter of the trees: mostly empty
// cities and a few rich ones).
inline Instance path_like_instance(PathLike kind, std::int32_t city_count, Coins max_coin,
                                   std::mt19937_64& rng) {
  const auto below = [&rng](std::int32_t bound) {
    return static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(bound));
  };
  // The spine: cities 0 .. spine - 1 in a row; at least half the cities, all but at most 8 of
  // them where the rest are short branches; a leafy spine has a leaf on each of its cities and
  // a third to a half of the cities.
  const std::int32_t off_spine_most =
      kind == PathLike::few_branches ? std::min(city_count / 2, 8) : city_count / 2;
  const std::int32_t spine = kind == PathLike::leafy_spine
                                 ? std::max(1, city_count / 3 + below(city_count / 6 + 1))
                                 : city_count - below(off_spine_most + 1);
  std::vector<std::pair<std::int32_t, std::int32_t>> roads;
  for (std::int32_t city = 1; city < spine; ++city)
    roads.emplace_back(city - 1, city);
  if (kind == PathLike::hanging_chain) {
    // One chain of the other cities, from a random spine city.
    for (std::int32_t city = spine; city < city_count; ++city)
      roads.emplace_back(city == spine ? below(spine) : city - 1, city);
  } else {
    // A leaf on each spine city (as far as the cities go), then a few short branches (1 to 3
    // cities each) at random spine cities.
    std::int32_t city = spine;
    for (; kind == PathLike::leafy_spine && city < std::min(city_count, 2 * spine); ++city)
      roads.emplace_back(city - spine, city);
    while (city < city_count) {
      const std::int32_t length = 1 + below(3);
      for (std::int32_t k = 0; k < length && city < city_count; ++k, ++city)
        roads.emplace_back(k == 0 ? below(spine) : city - 1, city);
    }
  }
  std::vector<std::int32_t> label(static_cast<std::size_t>(city_count));
  for (std::int32_t city = 0; city < city_count; ++city)
    label[city] = city;
  for (std::int32_t k = city_count - 1; k > 0; --k)
    std::swap(label[k], label[below(k + 1)]);
  Instance instance;
  for (auto& [u, v] : roads)
    instance.roads.emplace_back(label[u], label[v]);
  const bool skewed = below(4) == 0;
  instance.coins.resize(static_cast<std::size_t>(city_count));
  for (Coins& amount : instance.coins) {
    const auto draw = static_cast<Coins>(rng() % static_cast<std::uint64_t>(max_coin + 1));
    amount = skewed ? (below(5) == 0 ? draw : 0) : draw;
  }
  return instance;
}

}  // namespace gamebatch::willow::testing
