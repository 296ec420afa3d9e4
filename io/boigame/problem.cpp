#include "io/boigame/problem.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/boigame/boigame.hpp"
#include "core/boigame/play.hpp"
#include "core/boigame/shrink.hpp"
#include "core/boigame/strength.hpp"
#include "io/boigame/format.hpp"
#include "io/boigame/picture.hpp"

namespace gamebatch::io::boigame {
namespace {

std::string solve_board(const Board& board) {
  return std::string(1, static_cast<char>(gamebatch::boigame::solve(board)));
}

// Squares of an n x n board within Manhattan distance `radius` of (row, column).
double squares_within(std::int64_t n, std::int64_t row, std::int64_t column, std::int64_t radius) {
  double squares = 0;
  for (std::int64_t r = std::max<std::int64_t>(0, row - radius); r <= std::min(n - 1, row + radius);
       ++r) {
    const std::int64_t reach = radius - (r > row ? r - row : row - r);
    squares += static_cast<double>(std::min(n - 1, column + reach) -
                                   std::max<std::int64_t>(0, column - reach) + 1);
  }
  return squares;
}

// What solving a board costs on one core, in µs, from its size and shape without searching it:
// n, the start squares (their Manhattan distance m = |dr| + |dc|) and the fraction f of white
// squares. The solver frames the board (n + 2)^2 bytes, searches breadth first from A until it
// reaches B, and when the distance D is even runs the layered DP over D / 2 layers, each layer
// pair a bit matrix. On a grid D has the parity of m, and on an open board D = m, the search
// covers the R squares within m of A and layer p of the DP holds min(p, |dr|, |dc|) + 1 squares.
// So, with L = m / 2 for even m (else 0) and S2 = the sum of the squared layer widths,
//   0.04 + 0.00022 (n + 2)^2 + 0.0023 R + f^3 (0.55 L + 0.000093 S2).
// Walls make the DP cheaper (narrower layers, early ends), roughly as f^3; they can also make D
// far longer than m (a snake), which the formula does not see, so it is never taken below
// 0.002 µs per white square times the fraction of black squares. Fitted to
// tools/bench/solve_cost_bench over 5 shapes x 2 placements, n = 2..2000, one thread (open board,
// opposite corners, n = 1000: about 50 ms). Most cases fall within 0.5x..2x; the worst seen
// are 0.2x (dense boards with random starts, n >= 400) and 6x (sparse boards, corners, n = 2000).
double estimated_cost_us(const Board& board) {
  const std::int64_t n = board.n;
  if (n < 1 || board.a < 0 || board.b < 0)
    return 0.04;  // not a board solve() accepts: it throws at once
  const std::int64_t a_row = board.a / n;
  const std::int64_t a_column = board.a % n;
  const std::int64_t rows_apart = std::abs(a_row - board.b / n);
  const std::int64_t columns_apart = std::abs(a_column - board.b % n);
  const std::int64_t distance = rows_apart + columns_apart;

  std::int64_t white = 0;
  for (const std::uint64_t word : board.white)
    white += std::popcount(word);
  const double squares = static_cast<double>(n * n);
  const double white_fraction = std::min(1.0, static_cast<double>(white) / squares);

  double estimate = 0.04 + 0.00022 * static_cast<double>((n + 2) * (n + 2)) +
                    0.0023 * squares_within(n, a_row, a_column, distance);
  if (distance % 2 == 0) {
    const double layers = static_cast<double>(distance / 2);
    const double widest = static_cast<double>(std::min(rows_apart, columns_apart) + 1);
    // Sum over p < L of (min(p, widest - 1) + 1)^2: squares 1^2..k^2, then the plateau.
    const double ramp = std::min(layers, widest);
    const double squared_widths =
        ramp * (ramp + 1) * (2 * ramp + 1) / 6 + (layers - ramp) * widest * widest;
    estimate += white_fraction * white_fraction * white_fraction *
                (0.55 * layers + 0.000093 * squared_widths);
  }
  return std::max(estimate, 0.002 * static_cast<double>(white) * (1 - white_fraction));
}

// The optimal play of one case, as `gamebatch explain` prints it.
std::string explain_instance(const Board& instance) {
  return gamebatch::boigame::describe_play(instance, gamebatch::boigame::optimal_play(instance));
}

// The text and the picture of one optimal play.
Problem::Explained explain_and_draw_instance(const Board& instance) {
  const gamebatch::boigame::Play play = gamebatch::boigame::optimal_play(instance);
  return {gamebatch::boigame::describe_play(instance, play), draw_play(instance, play)};
}

// The wrong ideas' answers as Case::solve writes them (core/boigame/strength.hpp).
std::string no_jumps_answer(const Board& instance) {
  return std::string(1, static_cast<char>(gamebatch::boigame::no_jumps(instance)));
}
std::string parity_answer(const Board& instance) {
  return std::string(1, static_cast<char>(gamebatch::boigame::parity(instance)));
}
std::string chokepoint_answer(const Board& instance) {
  return std::string(1, static_cast<char>(gamebatch::boigame::chokepoint(instance)));
}

std::vector<std::string> shapes_of_instance(const Board& instance) {
  return gamebatch::boigame::shapes_of(instance);
}

class BoigameProblem final : public Problem {
 public:
  std::string_view name() const override { return "boigame"; }
  std::string_view summary() const override {
    return "Baltic OI 2008 Game: two pieces race to each other's start, jumping over each other; "
           "who wins";
  }
  std::uint32_t solver_version() const override { return 1; }
  std::vector<std::string_view> parameters() const override { return {"t", "n"}; }

  void check_limits(std::string_view text, OfficialLimitCheck& check) const override {
    boigame::check_limits(text, check);
  }
  std::vector<std::string> shrink_candidates(std::string_view canonical) const override {
    return shrink_canonical_case<Board>(*this, canonical, &parse_file,
                                        &gamebatch::boigame::shrink_candidates, &format_board);
  }
  std::vector<WrongIdea> wrong_ideas() const override {
    return {
        {"no-jumps", "the race without jumps: A, who moves first, always arrives first",
         [this](std::string_view canonical) {
           return on_canonical_case<Board>(*this, canonical, &parse_file, &no_jumps_answer);
         }},
        {"parity", "A wins when the starts are an odd distance apart, B when even",
         [this](std::string_view canonical) {
           return on_canonical_case<Board>(*this, canonical, &parse_file, &parity_answer);
         }},
        {"chokepoint", "parity, and B wins an even race only through a one-square middle",
         [this](std::string_view canonical) {
           return on_canonical_case<Board>(*this, canonical, &parse_file, &chokepoint_answer);
         }},
    };
  }
  std::vector<std::string> shapes() const override {
    return {"open", "sparse", "dense", "snake", "maze"};
  }
  std::vector<std::string> shapes_of(std::string_view canonical) const override {
    return on_canonical_case<Board, std::vector<std::string>>(*this, canonical, &parse_file,
                                                              &shapes_of_instance);
  }
  std::vector<std::string_view> size_parameters() const override { return {"n"}; }
  std::optional<double> answer_value(std::string_view answer) const override {
    return answer.starts_with("A") ? 1.0 : 0.0;  // A's win the larger
  }
  std::vector<std::unique_ptr<Case>> parse(std::string_view text) const override {
    return make_cases(parse_file(text), &solve_board, &format_board, &estimated_cost_us);
  }
  std::string explain(std::string_view canonical) const override {
    return on_canonical_case<Board>(*this, canonical, &parse_file, &explain_instance);
  }
  std::string draw(std::string_view canonical) const override {
    return on_canonical_case<Board>(*this, canonical, &parse_file, &draw_play);
  }
  Explained explain_and_draw(std::string_view canonical) const override {
    return on_canonical_case<Board, Explained>(*this, canonical, &parse_file,
                                               &explain_and_draw_instance);
  }
};

}  // namespace

const Problem& problem() {
  static const BoigameProblem instance;
  return instance;
}

}  // namespace gamebatch::io::boigame
