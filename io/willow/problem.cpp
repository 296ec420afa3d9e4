#include "io/willow/problem.hpp"

#include "core/willow/willow.hpp"
#include "io/willow/format.hpp"

namespace gamebatch::io::willow {
namespace {

std::string solve_instance(const Instance& instance) {
  return std::to_string(gamebatch::willow::solve(instance));
}

class WillowProblem final : public Problem {
 public:
  std::string_view name() const override { return "willow"; }
  std::string_view summary() const override {
    return "Code Jam 2014 R3 D: coins on a tree, minimax over both players' start cities";
  }
  std::uint32_t solver_version() const override { return 1; }
  std::vector<std::unique_ptr<Case>> parse(std::string_view text) const override {
    return make_cases(parse_file(text), &solve_instance, &format_case);
  }
  std::string answer_line(std::size_t case_number, std::string_view answer) const override {
    std::string line = "Case #" + std::to_string(case_number) + ": ";
    line += answer;
    line += '\n';
    return line;
  }
};

}  // namespace

const Problem& problem() {
  static const WillowProblem instance;
  return instance;
}

}  // namespace gamebatch::io::willow
