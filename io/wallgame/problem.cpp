#include "io/wallgame/problem.hpp"

#include "core/wallgame/play.hpp"
#include "core/wallgame/shrink.hpp"
#include "core/wallgame/strength.hpp"
#include "core/wallgame/wallgame.hpp"
#include "io/wallgame/format.hpp"
#include "io/wallgame/picture.hpp"

namespace gamebatch::io::wallgame {
namespace {

std::string solve_board(const Board& board) {
  return std::to_string(gamebatch::wallgame::solve(board));
}

// What solving a board costs on one core, in µs, from its size alone. With h >= 2 rows of w:
//   0.076 + 0.0029 (h - 1) + 0.0053 h w + 0.000136 (h - 1) w^2,
// i.e. a fixed part, a per-row part, a per-cell part (reading and checking the board, the row
// set-up) and the interval DP: (h - 1) w^2 / 2 intervals at about 0.27 ns each (32-bit values,
// AVX2). A one-row board is only a minimum over its w cells: 0.007 + 0.0004 w. Fitted to
// tools/bench/solve_cost_bench (1 x 1 to 2000 x 2000, one thread; 1000 x 1000 takes about
// 0.17 s). Without AVX2 the DP runs about twice as long.
double estimated_cost_us(const Board& board) {
  const double h = board.height;
  const double w = board.width;
  if (board.height <= 1)
    return 0.007 + 0.0004 * w;
  return 0.076 + 0.0029 * (h - 1) + 0.0053 * h * w + 0.000136 * (h - 1) * w * w;
}

// The optimal play of one case, as `gamebatch explain` prints it.
std::string explain_instance(const Board& instance) {
  return gamebatch::wallgame::describe_play(instance, gamebatch::wallgame::optimal_play(instance));
}

// The text and the picture of one optimal play.
Problem::Explained explain_and_draw_instance(const Board& instance) {
  const gamebatch::wallgame::Play play = gamebatch::wallgame::optimal_play(instance);
  return {gamebatch::wallgame::describe_play(instance, play), draw_play(instance, play)};
}

// The wrong ideas' answers as Case::solve writes them (core/wallgame/strength.hpp).
std::string no_walls_answer(const Board& instance) {
  return std::to_string(gamebatch::wallgame::no_walls(instance));
}
std::string wall_all_but_last_answer(const Board& instance) {
  return std::to_string(gamebatch::wallgame::wall_all_but_last(instance));
}
std::string one_exit_answer(const Board& instance) {
  return std::to_string(gamebatch::wallgame::one_exit(instance));
}

std::vector<std::string> shapes_of_instance(const Board& instance) {
  return gamebatch::wallgame::shapes_of(instance);
}

class WallgameProblem final : public Problem {
 public:
  std::string_view name() const override { return "wallgame"; }
  std::string_view summary() const override {
    return "TopCoder SRM 580 WallGameDiv1: Rabbit walks a token down a board, Eel builds walls";
  }
  std::uint32_t solver_version() const override { return 1; }
  std::vector<std::string_view> parameters() const override { return {"T", "h", "w"}; }

  void check_limits(std::string_view text, OfficialLimitCheck& check) const override {
    wallgame::check_limits(text, check);
  }
  std::vector<std::string> shrink_candidates(std::string_view canonical) const override {
    return shrink_canonical_case<Board>(*this, canonical, &parse_file,
                                        &gamebatch::wallgame::shrink_candidates, &format_case);
  }
  std::vector<WrongIdea> wrong_ideas() const override {
    return {
        {"no-walls", "Eel never builds a wall: Rabbit's cheapest way down",
         [this](std::string_view canonical) {
           return on_canonical_case<Board>(*this, canonical, &parse_file, &no_walls_answer);
         }},
        {"wall-all-but-last", "Eel walls under the token whenever she may",
         [this](std::string_view canonical) {
           return on_canonical_case<Board>(*this, canonical, &parse_file,
                                           &wall_all_but_last_answer);
         }},
        {"one-exit", "Eel picks one exit per row as Rabbit enters it",
         [this](std::string_view canonical) {
           return on_canonical_case<Board>(*this, canonical, &parse_file, &one_exit_answer);
         }},
    };
  }
  std::vector<std::string> shapes() const override {
    return {"uniform", "all_zero", "all_nine", "all_equal", "low", "sparse", "columns"};
  }
  std::vector<std::string> shapes_of(std::string_view canonical) const override {
    return on_canonical_case<Board, std::vector<std::string>>(*this, canonical, &parse_file,
                                                              &shapes_of_instance);
  }
  std::vector<std::string_view> size_parameters() const override { return {"h", "w"}; }
  std::vector<std::unique_ptr<Case>> parse(std::string_view text) const override {
    return make_cases(parse_file(text), &solve_board, &format_case, &estimated_cost_us);
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
  static const WallgameProblem instance;
  return instance;
}

}  // namespace gamebatch::io::wallgame
