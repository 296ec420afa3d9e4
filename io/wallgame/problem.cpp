#include "io/wallgame/problem.hpp"

#include "core/wallgame/wallgame.hpp"
#include "io/wallgame/format.hpp"

namespace gamebatch::io::wallgame {
namespace {

std::string solve_board(const Board& board) {
  return std::to_string(gamebatch::wallgame::solve(board));
}

class WallgameProblem final : public Problem {
 public:
  std::string_view name() const override { return "wallgame"; }
  std::string_view summary() const override {
    return "TopCoder SRM 580 WallGameDiv1: Rabbit walks a token down a board, Eel builds walls";
  }
  std::uint32_t solver_version() const override { return 1; }
  std::vector<std::unique_ptr<Case>> parse(std::string_view text) const override {
    return make_cases(parse_file(text), &solve_board, &format_case);
  }
};

}  // namespace

const Problem& problem() {
  static const WallgameProblem instance;
  return instance;
}

}  // namespace gamebatch::io::wallgame
