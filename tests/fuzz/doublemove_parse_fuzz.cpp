// libFuzzer target: any bytes given to the doublemove parser either parse or raise InputError
// (never another exception, a crash or a huge allocation), check_official_limits agrees, parsed
// cases read back from their canonical text, and small parsed cases are solved by the fast solver
// (replay and state table) and the literal brute force with the same answer.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/doublemove/doublemove.hpp"
#include "io/doublemove/format.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

namespace game = gamebatch::doublemove;

// The brute force's first case of n = 7 takes 0.15 s (more under the sanitizers), n = 6 a few
// milliseconds; later cases of the same n reuse its memo.
constexpr int kMaxBruteForceN = 6;

void check_small(const game::Instance& instance) {
  if (instance.n > kMaxBruteForceN)
    return;
  static std::array<std::unique_ptr<game::BruteForceOracle>, kMaxBruteForceN + 1> oracles;
  auto& oracle = oracles[static_cast<std::size_t>(instance.n)];
  if (!oracle)
    oracle = std::make_unique<game::BruteForceOracle>(instance.n);
  const game::Value fast = game::solve(instance);
  const game::Value brute = oracle->solve(instance);
  if (fast != brute) {
    gamebatch::fuzz::fail("doublemove: solve() = " + game::to_decimal(fast) +
                          ", brute force = " + game::to_decimal(brute) + " for\n" +
                          gamebatch::io::doublemove::format_case(instance));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace format = gamebatch::io::doublemove;
  gamebatch::fuzz::check_game_reader<game::Instance>(
      "doublemove", gamebatch::fuzz::as_text(data, size), &format::parse_file,
      &format::check_official_limits, &format::format_case, &check_small);
  return 0;
}
