#include "io/willow/problem.hpp"

#include "core/willow/willow.hpp"
#include "io/willow/format.hpp"

namespace gamebatch::io::willow {
namespace {

class WillowCase final : public Case {
 public:
  explicit WillowCase(Instance instance) : instance_(std::move(instance)) {}
  std::string solve() const override { return std::to_string(gamebatch::willow::solve(instance_)); }
  std::string canonical() const override { return format_case(instance_); }

 private:
  Instance instance_;
};

class WillowProblem final : public Problem {
 public:
  std::string_view name() const override { return "willow"; }
  std::string_view summary() const override {
    return "Code Jam 2014 R3 D: coins on a tree, minimax over both players' start cities";
  }
  std::uint32_t solver_version() const override { return 1; }
  std::vector<std::unique_ptr<Case>> parse(std::string_view text) const override {
    std::vector<std::unique_ptr<Case>> cases;
    for (Instance& instance : parse_file(text)) {
      cases.push_back(std::make_unique<WillowCase>(std::move(instance)));
    }
    return cases;
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
