// libFuzzer target: any bytes given to the boigame parser either parse or raise InputError (never
// another exception, a crash or a huge allocation), check_official_limits agrees, parsed boards
// read back from their canonical text, and on small parsed boards the fast solver names the
// winner that the full game's retrograde analysis finds.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/boigame/boigame.hpp"
#include "io/boigame/format.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

namespace game = gamebatch::boigame;

// The full game has (white squares)^2 states: up to 6 x 6 it takes milliseconds.
constexpr std::int32_t kMaxAnalysedSize = 6;

const char* name_of(game::Outcome outcome) {
  switch (outcome) {
    case game::Outcome::a_wins:
      return "A";
    case game::Outcome::b_wins:
      return "B";
    case game::Outcome::draw:
      return "draw";
  }
  return "?";
}

void check_small(const game::Board& board) {
  if (board.n > kMaxAnalysedSize)
    return;
  const game::Winner fast = game::solve(board);
  const game::GameAnalysis full = game::analyse_full_game(board);
  const game::Outcome expected =
      fast == game::Winner::a ? game::Outcome::a_wins : game::Outcome::b_wins;
  if (full.start != expected) {
    gamebatch::fuzz::fail(std::string("boigame: solve() = ") + name_of(expected) +
                          ", full game = " + name_of(full.start) + " for\n" +
                          gamebatch::io::boigame::format_board(board));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace format = gamebatch::io::boigame;
  gamebatch::fuzz::check_game_reader<game::Board>(
      "boigame", gamebatch::fuzz::as_text(data, size), &format::parse_file,
      &format::check_official_limits, &format::format_board, &check_small);
  return 0;
}
