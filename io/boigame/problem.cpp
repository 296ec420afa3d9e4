#include "io/boigame/problem.hpp"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/boigame/boigame.hpp"
#include "io/boigame/format.hpp"

namespace gamebatch::io::boigame {
namespace {

std::string solve_board(const Board& board) {
  return std::string(1, static_cast<char>(gamebatch::boigame::solve(board)));
}

class BoigameProblem final : public Problem {
 public:
  std::string_view name() const override { return "boigame"; }
  std::string_view summary() const override {
    return "Baltic OI 2008 Game: two pieces race to each other's start, jumping over each other; "
           "who wins";
  }
  std::uint32_t solver_version() const override { return 1; }
  std::vector<std::unique_ptr<Case>> parse(std::string_view text) const override {
    return make_cases(parse_file(text), &solve_board, &format_board);
  }
};

}  // namespace

const Problem& problem() {
  static const BoigameProblem instance;
  return instance;
}

}  // namespace gamebatch::io::boigame
