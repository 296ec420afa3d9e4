// make_doublemove_late_case: writes a doublemove input file of late cases, games still running
// with few declarations left to choose, with the project's own generators and format.
//
//   make_doublemove_late_case --n 45..67 --left 3..13 --cases 40 --seed 1 > late.in
//
// Each case draws n and the declarations left (n + 1 - k) uniformly from their ranges, and its
// k given declarations by generate_running_instance (a draw that would end the game is drawn
// again), the patterns taken in turn: forest (every tree joined, the largest states), mixed,
// uniform, loops, repeats. The same options give the same bytes on every platform.
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/doublemove/generators.hpp"
#include "core/random.hpp"
#include "io/doublemove/format.hpp"
#include "tools/bench/case_output.hpp"

namespace game = gamebatch::doublemove;

namespace {

struct Range {
  int low = 0;
  int high = 0;
};

// "A..B" or "A".
Range parse_range(const std::string& text) {
  const auto dots = text.find("..");
  if (dots == std::string::npos)
    return {std::stoi(text), std::stoi(text)};
  return {std::stoi(text.substr(0, dots)), std::stoi(text.substr(dots + 2))};
}

int draw_in(std::mt19937_64& rng, Range range) {
  return range.low + static_cast<int>(gamebatch::uniform_below(
                         rng, static_cast<std::uint64_t>(range.high - range.low) + 1));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Writes a doublemove input file of late cases (games still running, few declarations left; "
      "spec format). Deterministic: the same options give the same bytes.",
      "make_doublemove_late_case"};
  std::string n_text = "45..67";
  std::string left_text = "3..13";
  int cases = 40;
  std::uint64_t seed = 1;
  std::string out_path;
  app.add_option("-n,--n", n_text, "values per case, A..B")->capture_default_str();
  app.add_option("--left", left_text, "declarations left to choose (n + 1 - k), A..B")
      ->capture_default_str();
  app.add_option("-T,--cases", cases, "cases in the file")
      ->check(CLI::Range(1, 10'000'000))
      ->capture_default_str();
  app.add_option("--seed", seed, "seed of the random generator")->capture_default_str();
  app.add_option("-o,--output", out_path, "write here instead of stdout");
  CLI11_PARSE(app, argc, argv);

  Range n_range;
  Range left_range;
  try {
    n_range = parse_range(n_text);
    left_range = parse_range(left_text);
  } catch (const std::exception&) {
    std::cerr << "make_doublemove_late_case: --n and --left take A..B\n";
    return 2;
  }
  if (n_range.low < 1 || n_range.high > game::kMaxN || n_range.low > n_range.high ||
      left_range.low < 1 || left_range.low > left_range.high || left_range.high > n_range.low + 1) {
    std::cerr << "make_doublemove_late_case: need 1 <= n <= " << game::kMaxN
              << " and 1 <= left <= n + 1 for every n of the range\n";
    return 2;
  }

  constexpr game::DeclarationPattern kPatterns[] = {
      game::DeclarationPattern::forest, game::DeclarationPattern::mixed,
      game::DeclarationPattern::uniform, game::DeclarationPattern::loops,
      game::DeclarationPattern::repeats};
  std::mt19937_64 rng(seed);
  std::vector<game::Instance> instances;
  instances.reserve(static_cast<std::size_t>(cases));
  for (int i = 0; i < cases; ++i) {
    const int n = draw_in(rng, n_range);
    const int left = draw_in(rng, left_range);
    // left = n + 1 leaves k = 0; the generator keeps the game running for k <= n.
    instances.push_back(game::generate_running_instance(
        n, n + 1 - left, kPatterns[static_cast<std::size_t>(i) % std::size(kPatterns)], rng));
  }
  const std::string text = gamebatch::io::doublemove::format_file(instances);
  return gamebatch::bench::write_case_file("make_doublemove_late_case", out_path, text);
}
