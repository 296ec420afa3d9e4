// wallgame's explained play (core/wallgame/play.hpp) against the literal brute force: replayed
// step by step under the rules (moves left, right or down, never through a wall; Eel's walls
// leave the bottom reachable), every position along it is worth the answer, and the total paid
// is the answer.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/wallgame/generators.hpp"
#include "core/wallgame/kept_solve.hpp"
#include "core/wallgame/play.hpp"
#include "core/wallgame/wallgame.hpp"

namespace gamebatch::wallgame {
namespace {

// Replays the line step by step under the rules, checking with the oracle's position values that
// each side's choice keeps the answer: paid so far plus the value of the position is the answer
// before and after every Rabbit step and every Eel turn.
class Replay {
 public:
  Replay(const Board& board, const Play& play)
      : board_(board),
        play_(play),
        oracle_(solve_brute_force_positions(board)),
        cells_(static_cast<std::size_t>(board.height * board.width)) {}

  void run() {
    RC_ASSERT(oracle_.value == play_.value);
    for (const RabbitMove& move : play_.moves) {
      if (move.kind == RabbitMove::Kind::place) {
        RC_ASSERT((cell_ < 0 && move.row == 0));
        cell_ = move.column;
        paid_ += board_.cost(0, move.column);
        RC_ASSERT(move.paid == paid_);
        if (board_.height > 1)
          eel_turn(move.eel_walls);
        continue;
      }
      const std::int32_t target = move.row * board_.width + move.column;
      const Cost before = paid_;
      while (cell_ != target) {
        RC_ASSERT(paid_ + at(oracle_.rabbit_to_move) == play_.value);
        const std::int32_t step = move.kind == RabbitMove::Kind::down ? board_.width
                                  : target < cell_                    ? -1
                                                                      : 1;
        if (step == board_.width)
          RC_ASSERT(((walls_ >> cell_) & 1U) == 0U);
        cell_ += step;
        paid_ += board_.cost(cell_ / board_.width, cell_ % board_.width);
        if (cell_ != target)
          eel_turn(false);  // walking over walls: Eel has nothing to add
      }
      RC_ASSERT(move.paid == paid_ - before);
      RC_ASSERT(move.total == paid_);
      if (move.row + 1 < board_.height)
        eel_turn(move.eel_walls);
    }
    RC_ASSERT(cell_ / board_.width == board_.height - 1);
    RC_ASSERT(paid_ == play_.value);
  }

 private:
  Cost at(const std::vector<Cost>& table) const {
    return table[static_cast<std::size_t>(walls_) * cells_ + static_cast<std::size_t>(cell_)];
  }
  void eel_turn(bool walls) {
    RC_ASSERT(paid_ + at(oracle_.eel_to_move) == play_.value);
    if (walls) {
      RC_ASSERT(((walls_ >> cell_) & 1U) == 0U);
      walls_ |= 1U << cell_;
    }
    // The walls Eel leaves must be allowed (the oracle marks positions it cannot reach).
    RC_ASSERT(paid_ + at(oracle_.rabbit_to_move) == play_.value);
  }

  const Board& board_;
  const Play& play_;
  BruteForcePositions oracle_;
  std::size_t cells_;
  std::uint32_t walls_ = 0;
  std::int32_t cell_ = -1;
  Cost paid_ = 0;
};

// A board of 1..max_side rows and columns (inclusive) of any cost pattern.
Board arbitrary_board(std::int32_t max_side) {
  const auto height = *rc::gen::inRange<std::int32_t>(1, max_side + 1);
  const auto width = *rc::gen::inRange<std::int32_t>(1, max_side + 1);
  const auto pattern = *rc::gen::elementOf(
      std::vector<CostPattern>(std::begin(kAllCostPatterns), std::end(kAllCostPatterns)));
  std::mt19937_64 rng(*rc::gen::arbitrary<std::uint64_t>());
  return generate_board(height, width, pattern, rng);
}

RC_GTEST_PROP(WallgamePlay, ExplainedLineIsLegalAndAddsUp, ()) {
  const Board board = arbitrary_board(5);
  const Play play = optimal_play(board);
  RC_ASSERT(play.value == solve(board));
  if ((board.height - 1) * board.width <= kMaxBruteForceWallSlots)
    Replay(board, play).run();
}

// What the play reads: the kept solve's value and entries are the solver's, and every row's
// interval values are the same whether all rows' tables were kept from the solve or a row's is
// swept again when used (boards past the bound); each value is the rules' recurrence over the
// longer intervals and the entries of the row below.
RC_GTEST_PROP(WallgamePlay, KeptTablesAreTheSolversAndAgreeWhenSweptAgain, ()) {
  const Board board = arbitrary_board(11);
  const std::int32_t height = board.height;
  const std::int32_t width = board.width;
  KeptSolve kept(board);
  KeptSolve swept(board, /*table_bound=*/0);
  RC_ASSERT(kept.value() == solve(board));
  RC_ASSERT(swept.value() == kept.value());
  for (std::int32_t row = height - 2; row >= 0; --row) {
    kept.use_row(row);
    swept.use_row(row);
    auto down = [&](std::int32_t x) { return board.cost(row + 1, x) + kept.entry(row + 1, x); };
    auto eel = [&](std::int32_t x, std::int32_t len, std::int32_t a, bool left) {
      const Cost walled = len >= width ? -1 : left ? kept.left(len, a) : kept.right(len, a);
      return std::max(down(x), walled);
    };
    for (std::int32_t x = 0; x < width; ++x) {
      RC_ASSERT(swept.entry(row, x) == kept.entry(row, x));
      RC_ASSERT(kept.entry(row, x) == (width == 1 ? down(x) : eel(x, 1, x, true)));
    }
    for (std::int32_t len = 1; len < width; ++len) {
      for (std::int32_t a = 0; a + len <= width; ++a) {
        RC_ASSERT(swept.left(len, a) == kept.left(len, a));
        RC_ASSERT(swept.right(len, a) == kept.right(len, a));
        const std::int32_t b = a + len - 1;
        for (const bool token_left : {true, false}) {
          const std::int32_t from = token_left ? a : b;
          Cost best = std::numeric_limits<Cost>::max();
          if (a > 0) {  // round the left side: cells from - 1 down to a - 1
            Cost walk = 0;
            for (std::int32_t x = a - 1; x < from; ++x)
              walk += board.cost(row, x);
            best = std::min(best, walk + eel(a - 1, len + 1, a - 1, true));
          }
          if (b + 1 < width) {  // round the right side: cells from + 1 up to b + 1
            Cost walk = 0;
            for (std::int32_t x = from + 1; x <= b + 1; ++x)
              walk += board.cost(row, x);
            best = std::min(best, walk + eel(b + 1, len + 1, a, false));
          }
          RC_ASSERT((token_left ? kept.left(len, a) : kept.right(len, a)) == best);
        }
      }
    }
  }
}

TEST(WallgamePlay, TheExamplesAddUp) {
  // 12/34 -> 6 and 11111/90005 -> 10 (the original's examples).
  Board small{2, 2, {1, 2, 3, 4}};
  EXPECT_EQ(optimal_play(small).value, 6);
  Board walls{2, 5, {1, 1, 1, 1, 1, 9, 0, 0, 0, 5}};
  EXPECT_EQ(optimal_play(walls).value, 10);
  // 99999/99999/99999 -> 99: Eel walls, Rabbit walks round.
  Board nines{3, 5, std::vector<std::uint8_t>(15, 9)};
  const Play play = optimal_play(nines);
  EXPECT_EQ(play.value, 99);
  const std::string text = describe_play(nines, play);
  EXPECT_NE(text.find("Eel walls the slot under it"), std::string::npos) << text;
  EXPECT_NE(text.find("round the walls"), std::string::npos) << text;
  EXPECT_EQ(text.substr(text.size() - 11), "answer: 99\n") << text;
}

TEST(WallgamePlay, LargeBoardAddsUp) {
  std::mt19937_64 rng(5);
  const Board board = generate_board(300, 300, CostPattern::uniform, rng);
  EXPECT_EQ(optimal_play(board).value, solve(board));
}

}  // namespace
}  // namespace gamebatch::wallgame
