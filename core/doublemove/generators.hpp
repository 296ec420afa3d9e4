// Random doublemove instances for differential tests, benchmarks and `gamebatch gen`.
#pragma once

#include <cstdint>
#include <random>
#include <string_view>

#include "core/doublemove/doublemove.hpp"

namespace gamebatch::doublemove {

// How the given declarations are drawn.
enum class DeclarationPattern {
  uniform,  // a and b uniform over 1..n
  loops,    // half of them loops (a, a)
  repeats,  // half of them repeat an earlier pair (parallel edges), sometimes reversed
  forest,   // join two different components while possible: the game stays alive longest
  ending,   // two loops on one value: a two-cycle component ends the game early
  mixed,    // each declaration drawn by one of the above
};

inline constexpr DeclarationPattern kAllPatterns[] = {
    DeclarationPattern::uniform, DeclarationPattern::loops,  DeclarationPattern::repeats,
    DeclarationPattern::forest,  DeclarationPattern::ending, DeclarationPattern::mixed};

std::string_view to_string(DeclarationPattern pattern);

// k given declarations (0 <= k <= n + 1) on values 1..n (1 <= n <= kMaxN) drawn by `pattern`.
// Deterministic for a given rng state, and the same on every platform (core/random.hpp).
Instance generate_instance(int n, int k, DeclarationPattern pattern, std::mt19937_64& rng);

// The same with the game still running after the k declarations (0 <= k <= n): a draw that would
// end it (give a component a second cycle) is drawn again, so n - k trees are left. Late cases of
// this kind (a dozen declarations left or fewer) are what a search answers without the table.
// `pattern` must not be `ending`.
Instance generate_running_instance(int n, int k, DeclarationPattern pattern, std::mt19937_64& rng);

// A k for n: 0 or n + 1 a quarter of the time each, otherwise uniform over 0..n+1.
int random_declaration_count(int n, std::mt19937_64& rng);

}  // namespace gamebatch::doublemove
