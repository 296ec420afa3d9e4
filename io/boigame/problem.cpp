#include "io/boigame/problem.hpp"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/boigame/boigame.hpp"
#include "io/boigame/format.hpp"

namespace gamebatch::io::boigame {
namespace {

class BoigameCase final : public Case {
 public:
  explicit BoigameCase(Board board) : board_(std::move(board)) {}
  std::string solve() const override {
    return std::string(1, static_cast<char>(gamebatch::boigame::solve(board_)));
  }
  std::string canonical() const override { return format_board(board_); }

 private:
  Board board_;
};

class BoigameProblem final : public Problem {
 public:
  std::string_view name() const override { return "boigame"; }
  std::string_view summary() const override {
    return "Baltic OI 2008 Game: two pieces race to each other's start, jumping over each other; "
           "who wins";
  }
  std::uint32_t solver_version() const override { return 1; }
  std::vector<std::unique_ptr<Case>> parse(std::string_view text) const override {
    std::vector<std::unique_ptr<Case>> cases;
    for (Board& board : parse_file(text))
      cases.push_back(std::make_unique<BoigameCase>(std::move(board)));
    return cases;
  }
  std::string answer_line(std::size_t /*case_number*/, std::string_view answer) const override {
    std::string line(answer);
    line += '\n';
    return line;
  }
};

}  // namespace

const Problem& problem() {
  static const BoigameProblem instance;
  return instance;
}

}  // namespace gamebatch::io::boigame
