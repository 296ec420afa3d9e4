// Random willow instances of named shapes, for differential tests, benchmarks and `gamebatch gen`.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <string_view>

#include "core/willow/willow.hpp"

namespace gamebatch::willow {

// prufer: a uniformly random labelled tree (a random Pruefer sequence; diameter about sqrt(N)).
// `random` draws one of those a quarter of the time. comb: a path with a leaf on each of its
// cities. tripod: three combs joined at one city (B far along one leg can walk in and take a
// third). The spiders are the worst trees tools/bench/willow_slow_shapes found for the pruned
// search (TreeRecipe below; their `mixed` coins are the recipe's): comb_spider, five combs with a
// leaf on every fourth spine city joined at one city; lopsided_spider, four such combs, one half
// as long again as the others; rich_teeth_spider, four such combs whose leaves hold the coins.
enum class TreeShape {
  random,
  path,
  star,
  caterpillar,
  broom,
  binary,
  prufer,
  comb,
  tripod,
  comb_spider,
  lopsided_spider,
  rich_teeth_spider
};
enum class CoinPattern { all_zero, all_equal, mixed };

// The shapes of `gamebatch gen --shape` (its files depend on this list: keep it as it is).
inline constexpr TreeShape kAllShapes[] = {TreeShape::random, TreeShape::path,
                                           TreeShape::star,   TreeShape::caterpillar,
                                           TreeShape::broom,  TreeShape::binary};
// Every shape, for tests and benchmarks (make_willow_case).
inline constexpr TreeShape kBenchShapes[] = {TreeShape::random,
                                             TreeShape::path,
                                             TreeShape::star,
                                             TreeShape::caterpillar,
                                             TreeShape::broom,
                                             TreeShape::binary,
                                             TreeShape::prufer,
                                             TreeShape::comb,
                                             TreeShape::tripod,
                                             TreeShape::comb_spider,
                                             TreeShape::lopsided_spider,
                                             TreeShape::rich_teeth_spider};
inline constexpr CoinPattern kAllCoinPatterns[] = {CoinPattern::all_zero, CoinPattern::all_equal,
                                                   CoinPattern::mixed};

std::string_view to_string(TreeShape shape);
std::string_view to_string(CoinPattern pattern);

// A tree of `city_count` cities (>= 1) of the given shape, with cities relabelled at random,
// and coins drawn by `pattern` from 0..max_coin. Deterministic for a given rng state.
Instance generate_instance(TreeShape shape, std::int32_t city_count, CoinPattern pattern,
                           Coins max_coin, std::mt19937_64& rng);

// A family of trees with parameters, for the search of slow trees (tools/bench/willow_slow_shapes)
// and the shapes it found: `legs` arms joined at a hub city. A comb arm is a spine with a tooth on
// every `gap`-th spine city: a chain of `tooth` cities, or with `nested_teeth` a comb of its own
// (`tooth` spine cities, each with a leaf). A broom arm is a handle of half its cities with the
// rest on its far end; a caterpillar arm a spine of half its cities with the rest on random spine
// cities. The first arm has `long_arm_percent` percent more cities than each other one. Coins by
// `layout`, which knows the hub, spine and tooth cities (and how far along its arm a city is).
enum class ArmKind { comb, broom, caterpillar };
enum class CoinLayout { uniform, spine_rich, teeth_rich, falling, sparse };
struct TreeRecipe {
  std::int32_t legs = 3;
  ArmKind arm = ArmKind::comb;
  std::int32_t tooth = 1;
  std::int32_t gap = 1;
  bool nested_teeth = false;
  std::int32_t long_arm_percent = 0;
  CoinLayout layout = CoinLayout::uniform;
};

// The recipe as `legs=3 arm=comb tooth=1 gap=1 nested=0 long=0 coins=uniform`.
std::string describe(const TreeRecipe& recipe);
// The recipe a describe() text names; words left out keep their defaults. Throws
// std::invalid_argument on an unknown word or value.
TreeRecipe parse_recipe(std::string_view text);

// A tree of the recipe with `city_count` cities (>= 1), its cities relabelled at random, coins
// from 0..max_coin by the recipe's layout. Deterministic for a given rng state.
Instance generate_recipe_instance(const TreeRecipe& recipe, std::int32_t city_count, Coins max_coin,
                                  std::mt19937_64& rng);

// Relabels the cities so that every city i < N-1 (0-based) has a neighbour j > i, as the
// official input format requires (road i <-> j_i with i < j_i). Keeps the game value.
Instance to_official_labels(const Instance& instance);

}  // namespace gamebatch::willow
