#include "io/willow/problem.hpp"

#include "core/willow/play.hpp"
#include "core/willow/shrink.hpp"
#include "core/willow/strength.hpp"
#include "core/willow/willow.hpp"
#include "io/willow/format.hpp"
#include "io/willow/picture.hpp"

namespace gamebatch::io::willow {
namespace {

std::string solve_instance(const Instance& instance) {
  return std::to_string(gamebatch::willow::solve(instance));
}

// What solving a case costs on one core, in µs, from its N cities alone:
//   0.3 + 0.08 N + 0.0006 N^2.
// The pruned search (issue 36) evaluates a few rows of N start pairs along their paths on typical
// trees (N x dist), on top of O(N) set-up (the arrival rows, the renumbering, each row's bound);
// the N^2 term is the paths' and brooms' (about N^2 / 4 path steps), random trees grow slower.
// Fitted to tools/bench/solve_cost_bench (six tree shapes, one thread, N = 1..2000; the walk's
// fit before it, 0.3 + 0.06 N + 0.004 N^2, was 3x to 10x high from N = 100): the shapes spread
// about 0.3x..3x around it at N >= 400, a star or a binary tree cheapest, a broom dearest. From 256
// cities a case runs in parallel; this is still the cost on one core.
double estimated_cost_us(const Instance& instance) {
  const auto cities = static_cast<double>(instance.coins.size());
  return 0.3 + 0.08 * cities + 0.0006 * cities * cities;
}

// The optimal play of one case, as `gamebatch explain` prints it.
std::string explain_instance(const Instance& instance) {
  return gamebatch::willow::describe_play(instance, gamebatch::willow::optimal_play(instance));
}

// The text and the picture of one optimal play.
Problem::Explained explain_and_draw_instance(const Instance& instance) {
  const gamebatch::willow::Play play = gamebatch::willow::optimal_play(instance);
  return {gamebatch::willow::describe_play(instance, play), draw_play(instance, play)};
}

// The wrong ideas' answers as Case::solve writes them (core/willow/strength.hpp).
std::string b_near_a_answer(const Instance& instance) {
  return std::to_string(gamebatch::willow::b_near_a(instance));
}
std::string richest_start_answer(const Instance& instance) {
  return std::to_string(gamebatch::willow::richest_start(instance));
}
std::string greedy_paths_answer(const Instance& instance) {
  return std::to_string(gamebatch::willow::greedy_paths(instance));
}

std::vector<std::string> shapes_of_instance(const Instance& instance) {
  return gamebatch::willow::shapes_of(instance);
}

class WillowProblem final : public Problem {
 public:
  std::string_view name() const override { return "willow"; }
  std::string_view summary() const override {
    return "Code Jam 2014 R3 D: coins on a tree, minimax over both players' start cities";
  }
  std::uint32_t solver_version() const override { return 1; }
  std::vector<std::string_view> parameters() const override { return {"T", "N", "C"}; }

  void check_limits(std::string_view text, OfficialLimitCheck& check) const override {
    willow::check_limits(text, check);
  }
  std::vector<std::string> shrink_candidates(std::string_view canonical) const override {
    return shrink_canonical_case<Instance>(*this, canonical, &parse_file,
                                           &gamebatch::willow::shrink_candidates, &format_case);
  }
  std::vector<WrongIdea> wrong_ideas() const override {
    return {
        {"b-near-a", "B answers only from A's start or a neighbour of it",
         [this](std::string_view canonical) {
           return on_canonical_case<Instance>(*this, canonical, &parse_file, &b_near_a_answer);
         }},
        {"richest-start", "A starts on the richest city, B answers her perfectly",
         [this](std::string_view canonical) {
           return on_canonical_case<Instance>(*this, canonical, &parse_file, &richest_start_answer);
         }},
        {"greedy-paths", "A takes the richest path, B the richest path of what is left",
         [this](std::string_view canonical) {
           return on_canonical_case<Instance>(*this, canonical, &parse_file, &greedy_paths_answer);
         }},
    };
  }
  std::vector<std::string> shapes() const override {
    return {"random", "path",   "star",           "caterpillar",
            "broom",  "binary", "coins all_zero", "coins all_equal"};
  }
  std::vector<std::string> shapes_of(std::string_view canonical) const override {
    return on_canonical_case<Instance, std::vector<std::string>>(*this, canonical, &parse_file,
                                                                 &shapes_of_instance);
  }
  std::vector<std::string_view> size_parameters() const override { return {"N"}; }
  std::vector<std::unique_ptr<Case>> parse(std::string_view text) const override {
    return make_cases(parse_file(text), &solve_instance, &format_case, &estimated_cost_us);
  }
  std::string explain(std::string_view canonical) const override {
    return on_canonical_case<Instance>(*this, canonical, &parse_file, &explain_instance);
  }
  std::string draw(std::string_view canonical) const override {
    return on_canonical_case<Instance>(*this, canonical, &parse_file, &draw_play);
  }
  Explained explain_and_draw(std::string_view canonical) const override {
    return on_canonical_case<Instance, Explained>(*this, canonical, &parse_file,
                                                  &explain_and_draw_instance);
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
