// libFuzzer target: any bytes given to the willow parser either parse or raise InputError (never
// another exception, a crash or a huge allocation), check_official_limits agrees, parsed cases
// read back from their canonical text, and small parsed cases are solved by the fast solver and
// the brute force with the same answer.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/willow/willow.hpp"
#include "io/willow/format.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

namespace game = gamebatch::willow;

// The brute force plays every start pair and move: a few milliseconds up to 8 cities.
constexpr std::int32_t kMaxBruteForceCities = 8;

void check_small(const game::Instance& instance) {
  if (instance.city_count() > kMaxBruteForceCities)
    return;
  const game::Coins fast = game::solve(instance);
  const game::Coins brute = game::solve_brute_force(instance);
  if (fast != brute) {
    gamebatch::fuzz::fail("willow: solve() = " + std::to_string(fast) +
                          ", brute force = " + std::to_string(brute) + " for\n" +
                          gamebatch::io::willow::format_case(instance));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace format = gamebatch::io::willow;
  gamebatch::fuzz::check_game_reader<game::Instance>(
      "willow", gamebatch::fuzz::as_text(data, size), &format::parse_file,
      &format::check_official_limits, &format::format_case, &check_small);
  return 0;
}
