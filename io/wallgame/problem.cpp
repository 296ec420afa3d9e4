#include "io/wallgame/problem.hpp"

#include "core/wallgame/wallgame.hpp"
#include "io/wallgame/format.hpp"

namespace gamebatch::io::wallgame {
namespace {

class WallgameCase final : public Case {
 public:
  explicit WallgameCase(Board board) : board_(std::move(board)) {}
  std::string solve() const override { return std::to_string(gamebatch::wallgame::solve(board_)); }
  std::string canonical() const override { return format_case(board_); }

 private:
  Board board_;
};

class WallgameProblem final : public Problem {
 public:
  std::string_view name() const override { return "wallgame"; }
  std::string_view summary() const override {
    return "TopCoder SRM 580 WallGameDiv1: Rabbit walks a token down a board, Eel builds walls";
  }
  std::uint32_t solver_version() const override { return 1; }
  std::vector<std::unique_ptr<Case>> parse(std::string_view text) const override {
    std::vector<std::unique_ptr<Case>> cases;
    for (Board& board : parse_file(text)) {
      cases.push_back(std::make_unique<WallgameCase>(std::move(board)));
    }
    return cases;
  }
  // The answer alone on its line (spec/wallgame.md, "Output").
  std::string answer_line(std::size_t /*case_number*/, std::string_view answer) const override {
    std::string line(answer);
    line += '\n';
    return line;
  }
};

}  // namespace

const Problem& problem() {
  static const WallgameProblem instance;
  return instance;
}

}  // namespace gamebatch::io::wallgame
