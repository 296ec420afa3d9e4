// make_doublemove_case: writes a doublemove input file of random cases with the project's own
// generators and format, for benchmarks (e.g. 10,000 cases of n = 35).
//
//   make_doublemove_case --n 35 --cases 10000 --seed 1 > many-35.in
//
// The same options give the same bytes on every platform (the generators avoid the standard
// distributions), so a benchmark input can be named by its command line instead of checked in.
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/doublemove/generators.hpp"
#include "io/doublemove/format.hpp"
#include "tools/bench/case_options.hpp"
#include "tools/bench/case_output.hpp"

namespace game = gamebatch::doublemove;

int main(int argc, char** argv) {
  CLI::App app{
      "Writes a doublemove input file of random cases (spec format). Deterministic: the "
      "same options give the same bytes.",
      "make_doublemove_case"};
  const auto patterns = gamebatch::bench::enum_names(game::kAllPatterns);
  int n = 0;
  int k = -1;
  int cases = 1;
  std::uint64_t seed = 1;
  std::string pattern_name = "mixed";
  std::string out_path;
  app.add_option("-n,--n", n, "values per case")->required()->check(CLI::Range(1, game::kMaxN));
  app.add_option("-k,--k", k, "given declarations per case (default: random, 0..n+1)");
  app.add_option("-T,--cases", cases, "cases in the file")
      ->check(CLI::Range(1, 10'000'000))
      ->capture_default_str();
  app.add_option("--pattern", pattern_name, "how declarations are drawn")
      ->check(CLI::IsMember(patterns))
      ->capture_default_str();
  app.add_option("--seed", seed, "seed of the random generator")->capture_default_str();
  app.add_option("-o,--output", out_path, "write here instead of stdout");
  CLI11_PARSE(app, argc, argv);
  if (k > n + 1) {
    std::cerr << "make_doublemove_case: --k must be at most n + 1 = " << n + 1 << "\n";
    return 2;
  }

  std::mt19937_64 rng(seed);
  std::vector<game::Instance> instances;
  instances.reserve(static_cast<std::size_t>(cases));
  for (int i = 0; i < cases; ++i) {
    const int declared = k >= 0 ? k : game::random_declaration_count(n, rng);
    instances.push_back(game::generate_instance(n, declared, patterns.at(pattern_name), rng));
  }
  const std::string text = gamebatch::io::doublemove::format_file(instances);
  return gamebatch::bench::write_case_file("make_doublemove_case", out_path, text);
}
