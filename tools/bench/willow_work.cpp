// willow_work: the pruned search's work on each case of a willow input file, as
// willow::solve_with_report counts it (the counts do not depend on the thread count), one
// Markdown table row per case:
//
//   willow_work NAME FILE   ->   | NAME | N | chain steps | per N^2 | per N | rows searched | rows
//   whole | walked |
//
// For tools/bench/README.md's work tables (see willow_pruned_bench.sh's cases).
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "core/willow/willow.hpp"
#include "io/willow/format.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: willow_work NAME FILE\n";
    return 2;
  }
  try {
    std::ifstream in(argv[2], std::ios::binary);
    if (!in) {
      std::cerr << "willow_work: cannot read " << argv[2] << "\n";
      return 1;
    }
    std::ostringstream text;
    text << in.rdbuf();
    for (const gamebatch::willow::Instance& instance :
         gamebatch::io::willow::parse_file(text.str())) {
      const gamebatch::willow::SolveReport report = gamebatch::willow::solve_with_report(instance);
      const double n = instance.city_count();
      const auto steps = static_cast<double>(report.chain_steps);
      std::printf("| %s | %d | %lld | %.6f | %.1f | %lld | %lld | %s |\n", argv[1],
                  instance.city_count(), static_cast<long long>(report.chain_steps),
                  steps / (n * n), steps / n, static_cast<long long>(report.rows_searched),
                  static_cast<long long>(report.rows_whole), report.walked ? "yes" : "no");
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "willow_work: " << e.what() << "\n";
    return 1;
  }
}
