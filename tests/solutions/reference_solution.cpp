// A correct solution program for `gamebatch check` and `gamebatch stress` tests: reads an input
// file of GAME on stdin and prints its official output, solved by gamebatch's own solver.
//   reference_solution GAME [--burn SECONDS]
// --burn spins on the CPU for SECONDS first: a correct solution that is slow.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>

#include "io/format/input_error.hpp"
#include "io/problem.hpp"

namespace {

// CPU time, not wall time: what the judge's time limit counts.
void burn_cpu(double seconds) {
  const std::clock_t until = std::clock() + static_cast<std::clock_t>(seconds * CLOCKS_PER_SEC);
  volatile std::uint64_t spin = 0;
  while (std::clock() < until)
    spin = spin + 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && !(argc == 4 && std::string(argv[2]) == "--burn")) {
    std::fprintf(stderr, "usage: reference_solution GAME [--burn SECONDS]\n");
    return 2;
  }
  const gamebatch::io::Problem* problem = gamebatch::io::find_problem(argv[1]);
  if (problem == nullptr) {
    std::fprintf(stderr, "reference_solution: unknown game %s\n", argv[1]);
    return 2;
  }
  if (argc == 4)
    burn_cpu(std::atof(argv[3]));
  const std::string input{std::istreambuf_iterator<char>(std::cin),
                          std::istreambuf_iterator<char>()};
  try {
    const auto cases = problem->parse(input);
    std::string output;
    for (std::size_t k = 0; k < cases.size(); ++k)
      output += problem->answer_line(k + 1, cases[k]->solve());
    std::fputs(output.c_str(), stdout);
  } catch (const gamebatch::io::InputError& error) {
    std::fprintf(stderr, "reference_solution: line %zu: %s\n", error.line(), error.what());
    return 1;
  }
  return 0;
}
