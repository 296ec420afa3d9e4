// Random draws for the generators that are the same on every platform. The standard
// distributions (std::uniform_int_distribution and the rest) leave their algorithms to the
// standard library, so one seed can give different instances with libstdc++, libc++ and MSVC.
// std::mt19937_64 itself is fully specified; drawing through these helpers keeps "same seed, same
// bytes" true everywhere, so a benchmark file or a failing case can be named by its seed.
#pragma once

#include <cstdint>
#include <random>

namespace gamebatch {

// A uniform integer in [0, bound), bound >= 1, by rejection (no modulo bias).
inline std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t bound) {
  const std::uint64_t rejected_below = (0 - bound) % bound;  // 2^64 mod bound
  while (true) {
    const std::uint64_t draw = rng();
    if (draw >= rejected_below)
      return draw % bound;
  }
}

// True with probability 1 / odds, odds >= 1.
inline bool one_in(std::mt19937_64& rng, std::uint64_t odds) {
  return uniform_below(rng, odds) == 0;
}

}  // namespace gamebatch
