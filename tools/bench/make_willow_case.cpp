// make_willow_case: writes a willow input file in the official format with random cases of one
// tree shape and size, for benchmarks beyond the official limits (e.g. N = 20,000).
//
//   make_willow_case --shape path --cities 20000 --seed 1 > path-20000.in
//   make_willow_case --recipe 'legs=5 arm=comb tooth=2' --cities 20000 > spider.in
//
// The same options give the same file on every platform (the generators avoid the standard
// distributions), so a benchmark input can be named by its command line instead of checked in.
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/willow/generators.hpp"
#include "io/willow/format.hpp"
#include "tools/bench/case_options.hpp"
#include "tools/bench/case_output.hpp"

namespace willow = gamebatch::willow;
using gamebatch::bench::enum_names;
using gamebatch::bench::to_lower;

int main(int argc, char** argv) {
  CLI::App app{
      "Writes a willow input file (official format) of random cases of one shape and size.\n"
      "Deterministic: the same options give the same bytes. Cities are relabelled so that every\n"
      "road i <-> j_i has i < j_i, as the format requires.",
      "make_willow_case"};

  const auto shapes = enum_names(willow::kBenchShapes);
  const auto patterns = enum_names(willow::kAllCoinPatterns);
  std::string shape_name;
  std::string recipe_text;
  std::string pattern_name = "mixed";
  std::int32_t cities = 0;
  std::uint64_t seed = 1;
  willow::Coins max_coin = 10000;
  int cases = 1;
  std::string out_path;

  auto* shape_option = app.add_option("--shape", shape_name, "tree shape")
                           ->transform(to_lower)
                           ->check(CLI::IsMember(shapes));
  app.add_option("--recipe", recipe_text,
                 "a tree of willow_slow_shapes' families instead of a shape, as it writes one "
                 "('legs=3 arm=comb tooth=1 gap=1 nested=0 long=0 coins=uniform'; words left "
                 "out keep these); its coins come with it (--coins is ignored)")
      ->excludes(shape_option);
  app.add_option("-n,--cities", cities, "cities per case (N)")
      ->required()
      ->check(CLI::Range(1, 100'000'000));
  app.add_option("--seed", seed, "seed of the random generator")->capture_default_str();
  app.add_option("--max-coin", max_coin, "coins per city are drawn from 0..MAX")
      ->check(CLI::Range(willow::Coins{0}, willow::Coins{1'000'000'000}))
      ->capture_default_str();
  app.add_option("--coins", pattern_name, "how coins are drawn")
      ->transform(to_lower)
      ->check(CLI::IsMember(patterns))
      ->capture_default_str();
  app.add_option("-T,--cases", cases, "number of cases in the file (each a new draw)")
      ->check(CLI::Range(1, 1'000'000))
      ->capture_default_str();
  app.add_option("-o,--output", out_path, "write here instead of stdout");
  CLI11_PARSE(app, argc, argv);
  if (shape_name.empty() == recipe_text.empty()) {
    std::cerr << "make_willow_case: give one of --shape and --recipe\n";
    return 2;
  }

  const auto pattern = patterns.at(pattern_name);
  try {
    const bool by_recipe = !recipe_text.empty();
    const willow::TreeRecipe recipe =
        by_recipe ? willow::parse_recipe(recipe_text) : willow::TreeRecipe{};
    std::mt19937_64 rng(seed);
    std::vector<willow::Instance> instances;
    instances.reserve(static_cast<std::size_t>(cases));
    for (int i = 0; i < cases; ++i) {
      instances.push_back(willow::to_official_labels(
          by_recipe
              ? willow::generate_recipe_instance(recipe, cities, max_coin, rng)
              : willow::generate_instance(shapes.at(shape_name), cities, pattern, max_coin, rng)));
    }
    const std::string text = gamebatch::io::willow::format_file(instances);
    return gamebatch::bench::write_case_file("make_willow_case", out_path, text);
  } catch (const std::exception& e) {
    std::cerr << "make_willow_case: " << e.what() << "\n";
    return 1;
  }
}
