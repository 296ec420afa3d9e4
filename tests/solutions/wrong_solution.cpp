// A plausibly wrong solution program for `gamebatch check` and `gamebatch stress` tests: reads an
// input file of GAME on stdin and prints the answers of the game's wrong solver
// (tests/solutions/wrong_solvers.hpp: a misread rule, a missed payment, a forgotten case).
//   wrong_solution GAME
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>

#include "io/boigame/format.hpp"
#include "io/doublemove/format.hpp"
#include "io/format/input_error.hpp"
#include "io/problem.hpp"
#include "io/wallgame/format.hpp"
#include "io/willow/format.hpp"
#include "tests/solutions/wrong_solvers.hpp"

namespace {

// The wrong answers of every case of `input`, as the game prints them.
template <typename Instance>
std::string answer_lines(const gamebatch::io::Problem& problem, const std::vector<Instance>& cases,
                         std::string (*wrong)(const Instance&)) {
  std::string output;
  for (std::size_t k = 0; k < cases.size(); ++k)
    output += problem.answer_line(k + 1, wrong(cases[k]));
  return output;
}

std::string wrong_answers(const std::string& game, const std::string& input) {
  namespace io = gamebatch::io;
  using namespace gamebatch::testing;
  const io::Problem& problem = *io::find_problem(game);
  if (game == "willow")
    return answer_lines(problem, io::willow::parse_file(input), &wrong_willow);
  if (game == "wallgame")
    return answer_lines(problem, io::wallgame::parse_file(input), &wrong_wallgame);
  if (game == "doublemove")
    return answer_lines(problem, io::doublemove::parse_file(input), &wrong_doublemove);
  return answer_lines(problem, io::boigame::parse_file(input), &wrong_boigame);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || gamebatch::io::find_problem(argv[1]) == nullptr) {
    std::fprintf(stderr, "usage: wrong_solution willow|wallgame|doublemove|boigame\n");
    return 2;
  }
  const std::string input{std::istreambuf_iterator<char>(std::cin),
                          std::istreambuf_iterator<char>()};
  try {
    std::fputs(wrong_answers(argv[1], input).c_str(), stdout);
  } catch (const gamebatch::io::InputError& error) {
    std::fprintf(stderr, "wrong_solution: line %zu: %s\n", error.line(), error.what());
    return 1;
  }
  return 0;
}
