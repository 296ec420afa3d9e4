// Golden tests of the boigame solver on the official example, its bit-matrix transpose, the
// generators, and its scale and schedule properties.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include "core/boigame/bit_matrix.hpp"
#include "core/boigame/boigame.hpp"
#include "core/boigame/generators.hpp"
#include "io/boigame/format.hpp"
#include "io/boigame/problem.hpp"
#include "tests/boigame/boigame_test_helpers.hpp"
#include "tests/test_data.hpp"

namespace gamebatch::boigame {
namespace {

using gamebatch::testing::read_test_file;
using testing::board_from_rows;
using testing::picture;
using testing::solve_by_plain_dp;

TEST(BoigameGolden, OfficialSample) {
  const io::Problem& problem = io::boigame::problem();
  std::string output;
  std::size_t case_number = 0;
  for (const auto& parsed : problem.parse(read_test_file("boigame/sample.in")))
    output += problem.answer_line(++case_number, parsed->solve());
  EXPECT_EQ(output, read_test_file("boigame/sample.ans"));
}

TEST(BoigameBitMatrix, TransposeMatchesBitByBitTransposeOnRaggedSizes) {
  std::mt19937_64 rng(3);
  for (const auto& [rows, columns] : std::vector<std::pair<std::size_t, std::size_t>>{
           {1, 1}, {1, 64}, {64, 1}, {64, 64}, {63, 65}, {65, 63}, {130, 7}, {200, 300}}) {
    BitMatrix matrix;
    matrix.reshape(rows, columns);
    matrix.clear();
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < columns; ++c)
        matrix.set(r, c, rng() % 3 == 0);
    }
    BitMatrix transposed;
    transpose(matrix, transposed);
    ASSERT_EQ(transposed.rows(), columns);
    ASSERT_EQ(transposed.columns(), rows);
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < columns; ++c)
        ASSERT_EQ(transposed.get(c, r), matrix.get(r, c)) << rows << " x " << columns;
    }
    // Padding past the last column stays zero: the solver's tables rely on it.
    const std::size_t padding = transposed.words_per_row() * 64;
    for (std::size_t c = 0; c < columns; ++c) {
      for (std::size_t r = rows; r < padding; ++r)
        ASSERT_FALSE(transposed.get(c, r)) << rows << " x " << columns;
    }
  }
}

TEST(BoigameGenerators, EveryShapeAndPlacementGivesAValidBoard) {
  std::mt19937_64 rng(5);
  for (const BoardShape shape : kAllShapes) {
    for (const Placement placement : kAllPlacements) {
      for (const std::int32_t n : {2, 3, 4, 5, 8, 17, 64, 101}) {
        const Board board = generate_board(shape, n, placement, rng);
        ASSERT_EQ(check_board(board), "") << to_string(shape) << " n " << n;
        if (placement == Placement::corners) {
          const std::int32_t a_row = board.a / n;
          const std::int32_t a_column = board.a % n;
          EXPECT_TRUE(a_row == 0 || a_row == n - 1);
          EXPECT_TRUE(a_column == 0 || a_column == n - 1);
          EXPECT_EQ(board.b, board.square(n - 1 - a_row, n - 1 - a_column));
        }
      }
    }
  }
}

TEST(BoigameGenerators, SameSeedGivesTheSameBoard) {
  for (const BoardShape shape : kAllShapes) {
    std::mt19937_64 first(42);
    std::mt19937_64 second(42);
    EXPECT_EQ(picture(generate_board(shape, 30, Placement::random, first)),
              picture(generate_board(shape, 30, Placement::random, second)));
  }
}

TEST(BoigameGenerators, FixedSeedGivesTheseBoardsOnEveryPlatform) {
  // Pinned output (recorded before the draws moved to core/random.hpp): a change of the
  // generator, or a platform-dependent draw, shows up here and would change every benchmark file
  // named by its seed.
  std::mt19937_64 rng(1);
  EXPECT_EQ(io::boigame::format_board(generate_board(BoardShape::maze, 7, Placement::random, rng)),
            "7\n...#...\n.#.###.\nA#.....\n.#.###.\nB#...#.\n##.#.#.\n...#...\n");
  EXPECT_EQ(io::boigame::format_board(generate_random_board(5, 30, Placement::corners, rng)),
            "5\nA#.#.\n.#.#.\n.##.#\n...#.\n#...B\n");
}

TEST(BoigameGenerators, ShapesLookAsNamed) {
  std::mt19937_64 rng(9);
  auto black_squares = [](const Board& board) {
    int count = 0;
    for (Square square = 0; square < board.square_count(); ++square)
      count += board.is_white(square) ? 0 : 1;
    return count;
  };
  const std::int32_t n = 60;
  EXPECT_EQ(black_squares(generate_board(BoardShape::open, n, Placement::random, rng)), 0);
  const int sparse = black_squares(generate_board(BoardShape::sparse, n, Placement::random, rng));
  const int dense = black_squares(generate_board(BoardShape::dense, n, Placement::random, rng));
  EXPECT_NEAR(sparse, n * n / 10, n * n / 25);
  EXPECT_NEAR(dense, n * n * 35 / 100, n * n / 25);
  // The snake's corridor: every odd row has exactly one white square. (An odd side keeps the
  // corners on open rows, so placing the pieces changes nothing.)
  const std::int32_t snake_side = 61;
  const Board snake = generate_board(BoardShape::snake, snake_side, Placement::corners, rng);
  EXPECT_EQ(black_squares(snake), (snake_side / 2) * (snake_side - 1));
  // The maze: every square with two even coordinates is a corridor square.
  const Board maze = generate_board(BoardShape::maze, n, Placement::random, rng);
  for (std::int32_t row = 0; row < n; row += 2) {
    for (std::int32_t column = 0; column < n; column += 2)
      ASSERT_TRUE(maze.is_white(maze.square(row, column)));
  }
}

TEST(BoigameGenerators, RejectsSizesOutsideTheLimits) {
  std::mt19937_64 rng(1);
  EXPECT_THROW(generate_board(BoardShape::open, 1, Placement::random, rng), std::invalid_argument);
  EXPECT_THROW(generate_random_board(5, 101, Placement::random, rng), std::invalid_argument);
}

// The board mirrored in its main diagonal: the same game.
Board transposed(const Board& board) {
  Board result = Board::all_black(board.n);
  for (std::int32_t row = 0; row < board.n; ++row) {
    for (std::int32_t column = 0; column < board.n; ++column)
      result.set_white(result.square(column, row), board.is_white(board.square(row, column)));
  }
  result.a = result.square(board.a % board.n, board.a / board.n);
  result.b = result.square(board.b % board.n, board.b / board.n);
  return result;
}

TEST(BoigameSolver, MirroredBoardHasTheSameWinner) {
  // The solver orders squares row by row; a mirrored board lists every layer in another order.
  std::mt19937_64 rng(21);
  for (const BoardShape shape : kAllShapes) {
    for (int k = 0; k < 6; ++k) {
      const Board board = generate_board(shape, 90 + k, kAllPlacements[k % 2], rng);
      EXPECT_EQ(solve(board), solve(transposed(board))) << to_string(shape) << "\n"
                                                        << picture(board);
    }
  }
}

TEST(BoigameSolver, SingleCorridorGoesByTheParityOfItsLength) {
  // From (0,0) to (4,4) the serpentine is 16 steps long (B meets A in the middle and jumps); with
  // B one square earlier it is 15 (A arrives first).
  const Board five = board_from_rows({"A....", "####.", ".....", ".####", "....B"});
  EXPECT_EQ(solve(five), Winner::b);
  const Board with_one_more_step = board_from_rows({"A....", "####.", ".....", ".####", "...B."});
  EXPECT_EQ(solve(with_one_more_step), Winner::a);
}

TEST(BoigameSolver, AnswerIsTheSameForOneAndTwoThreads) {
  // Boards wide enough that the solver's row loops and transposes run as parallel tasks
  // (tables of more than 2^14 words).
  std::mt19937_64 rng(8);
  for (const BoardShape shape : {BoardShape::open, BoardShape::sparse}) {
    const Board board = generate_board(shape, 1100, Placement::corners, rng);
    Winner one_thread = Winner::a;
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
      one_thread = solve(board);
    }
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    for (int repeat = 0; repeat < 2; ++repeat)
      EXPECT_EQ(solve(board), one_thread) << to_string(shape);
  }
}

TEST(BoigameSolver, OpenBoardsWithCornerStartsMatchThePlainDp) {
  // The open board with opposite corners is the widest DP there is for its n (every antidiagonal
  // is a layer); both small sides and sizes around the 64-bit word boundary.
  for (const std::int32_t n : {2, 3, 4, 5, 6, 7, 31, 32, 33, 64, 65, 66}) {
    Board board = Board::all_black(n);
    for (Square square = 0; square < n * n; ++square)
      board.set_white(square, true);
    board.a = 0;
    board.b = n * n - 1;
    EXPECT_EQ(solve(board), solve_by_plain_dp(board)) << "n " << n;
  }
}

TEST(BoigameSolver, BoardsOfSide2000MatchThePlainDp) {
  // Beyond the official 300: a snake (one corridor of about n^2 / 2 squares) and a maze with
  // loops, in both placements.
  std::mt19937_64 rng(2000);
  for (const BoardShape shape : {BoardShape::snake, BoardShape::maze}) {
    for (const Placement placement : kAllPlacements) {
      const Board board = generate_board(shape, 2000, placement, rng);
      EXPECT_EQ(solve(board), solve_by_plain_dp(board))
          << to_string(shape) << ", " << to_string(placement);
    }
  }
}

}  // namespace
}  // namespace gamebatch::boigame
