// libFuzzer target: any bytes given to the wallgame parser either parse or raise InputError
// (never another exception, a crash or a huge allocation), check_official_limits agrees, parsed
// cases read back from their canonical text, and small parsed boards are solved by the fast
// solver (every SolverOptions) and the brute force with the same answer.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/wallgame/wallgame.hpp"
#include "io/wallgame/format.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

namespace game = gamebatch::wallgame;

// The brute force is exponential in the wall slots ((height - 1) * width): up to 8 it takes
// milliseconds.
constexpr std::int64_t kMaxBruteForceWallSlots = 8;

void check_small(const game::Board& board) {
  if (std::int64_t{board.height - 1} * board.width > kMaxBruteForceWallSlots)
    return;
  const game::Cost brute = game::solve_brute_force(board);
  for (const bool allow_32_bit : {true, false}) {
    for (const bool allow_avx2 : {true, false}) {
      const game::Cost fast = game::solve(board, game::SolverOptions{allow_32_bit, allow_avx2});
      if (fast != brute) {
        gamebatch::fuzz::fail("wallgame: solve() = " + std::to_string(fast) + " (32-bit " +
                              std::to_string(allow_32_bit) + ", AVX2 " +
                              std::to_string(allow_avx2) +
                              "), brute force = " + std::to_string(brute) + " for\n" +
                              gamebatch::io::wallgame::format_case(board));
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace format = gamebatch::io::wallgame;
  gamebatch::fuzz::check_game_reader<game::Board>(
      "wallgame", gamebatch::fuzz::as_text(data, size), &format::parse_file,
      &format::check_official_limits, &format::format_case, &check_small);
  return 0;
}
