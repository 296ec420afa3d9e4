// Random willow instances of named shapes, for differential tests, benchmarks and `gamebatch gen`.
#pragma once

#include <cstdint>
#include <random>
#include <string_view>

#include "core/willow/willow.hpp"

namespace gamebatch::willow {

// prufer: a uniformly random labelled tree (a random Pruefer sequence; diameter about sqrt(N)).
// `random` draws one of those a quarter of the time. comb: a path with a leaf on each of its
// cities. tripod: three combs joined at one city, which the pruned search still walks city by
// city (about N^2 / 28 chain steps): the case of the benchmarks and tests that is in progress for
// seconds.
enum class TreeShape { random, path, star, caterpillar, broom, binary, prufer, comb, tripod };
enum class CoinPattern { all_zero, all_equal, mixed };

// The shapes of `gamebatch gen --shape` (its files depend on this list: keep it as it is).
inline constexpr TreeShape kAllShapes[] = {TreeShape::random, TreeShape::path,
                                           TreeShape::star,   TreeShape::caterpillar,
                                           TreeShape::broom,  TreeShape::binary};
// Every shape, for tests and benchmarks (make_willow_case).
inline constexpr TreeShape kBenchShapes[] = {
    TreeShape::random, TreeShape::path,   TreeShape::star, TreeShape::caterpillar, TreeShape::broom,
    TreeShape::binary, TreeShape::prufer, TreeShape::comb, TreeShape::tripod};
inline constexpr CoinPattern kAllCoinPatterns[] = {CoinPattern::all_zero, CoinPattern::all_equal,
                                                   CoinPattern::mixed};

std::string_view to_string(TreeShape shape);
std::string_view to_string(CoinPattern pattern);

// A tree of `city_count` cities (>= 1) of the given shape, with cities relabelled at random,
// and coins drawn by `pattern` from 0..max_coin. Deterministic for a given rng state.
Instance generate_instance(TreeShape shape, std::int32_t city_count, CoinPattern pattern,
                           Coins max_coin, std::mt19937_64& rng);

// Relabels the cities so that every city i < N-1 (0-based) has a neighbour j > i, as the
// official input format requires (road i <-> j_i with i < j_i). Keeps the game value.
Instance to_official_labels(const Instance& instance);

}  // namespace gamebatch::willow
