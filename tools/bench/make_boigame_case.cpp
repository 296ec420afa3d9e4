// make_boigame_case: writes a boigame input file in the official format with random boards of one
// shape and size (or all shapes in turn), for benchmarks beyond the official limits.
//
//   make_boigame_case --shape mixed --placement mixed -n 300 -T 10 --seed 1 > mixed-300.in
//
// "mixed" shape and placement give test k (0-based) shape k mod 5 (open, sparse, dense, snake,
// maze) and the placement (k / 5) mod 2 (corners, random): ten tests cover every combination.
// The same options give the same file on every platform (the generators avoid the standard
// distributions), so a benchmark input can be named by its command line instead of checked in.
#include <cstdint>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/boigame/generators.hpp"
#include "io/boigame/format.hpp"
#include "tools/bench/case_options.hpp"
#include "tools/bench/case_output.hpp"

namespace {

namespace boigame = gamebatch::boigame;

constexpr const char* kMixed = "mixed";

// Name -> value, from the generators' own names plus "mixed" (nullopt: cycle through all).
template <typename Enum, std::size_t Count>
std::map<std::string, std::optional<Enum>> names_of(const Enum (&all)[Count]) {
  std::map<std::string, std::optional<Enum>> names;
  for (const auto& [name, value] : gamebatch::bench::enum_names(all))
    names.emplace(name, value);
  names.emplace(kMixed, std::nullopt);
  return names;
}

using gamebatch::bench::to_lower;

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Writes a boigame input file (official format) of random boards of one shape and size.\n"
      "Deterministic: the same options give the same bytes. Every board has a white path\n"
      "between A and B.",
      "make_boigame_case"};

  const auto shapes = names_of(boigame::kAllShapes);
  const auto placements = names_of(boigame::kAllPlacements);
  std::string shape_name;
  std::string placement_name = "corners";
  std::int32_t n = 0;
  std::uint64_t seed = 1;
  int tests = 1;
  std::string out_path;

  app.add_option("--shape", shape_name,
                 "open, sparse (10% black), dense (35% black), snake, maze, or mixed (each in "
                 "turn)")
      ->required()
      ->transform(to_lower)
      ->check(CLI::IsMember(shapes));
  app.add_option("--placement", placement_name,
                 "corners (A and B in opposite corners), random, or mixed (five tests of each "
                 "in turn)")
      ->transform(to_lower)
      ->check(CLI::IsMember(placements))
      ->capture_default_str();
  app.add_option("-n,--size", n, "board side n")
      ->required()
      ->check(CLI::Range(2, boigame::kMaxBoardSize));
  app.add_option("--seed", seed, "seed of the random generator")->capture_default_str();
  app.add_option("-T,--tests", tests, "number of tests in the file (each a new draw)")
      ->check(CLI::Range(1, 1'000'000))
      ->capture_default_str();
  app.add_option("-o,--output", out_path, "write here instead of stdout");
  CLI11_PARSE(app, argc, argv);

  const std::optional<boigame::BoardShape> shape = shapes.at(shape_name);
  const std::optional<boigame::Placement> placement = placements.at(placement_name);
  try {
    std::mt19937_64 rng(seed);
    std::vector<boigame::Board> boards;
    for (int k = 0; k < tests; ++k) {
      const std::size_t shape_count = std::size(boigame::kAllShapes);
      boards.push_back(boigame::generate_board(
          shape.value_or(boigame::kAllShapes[static_cast<std::size_t>(k) % shape_count]), n,
          placement.value_or(
              boigame::kAllPlacements[(static_cast<std::size_t>(k) / shape_count) % 2]),
          rng));
    }
    const std::string text = gamebatch::io::boigame::format_file(boards);
    return gamebatch::bench::write_case_file("make_boigame_case", out_path, text);
  } catch (const std::exception& e) {
    std::cerr << "make_boigame_case: " << e.what() << "\n";
    return 1;
  }
}
