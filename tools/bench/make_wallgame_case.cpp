// make_wallgame_case: writes a wallgame input file of random boards with the project's own
// generators and format, for benchmarks and for boards beyond the official limits.
//
//   make_wallgame_case --cases 1000 --height 2..50 --width 1..50 --seed 1 > random-1000.in
//   make_wallgame_case --height 2000 --width 2000 --costs sparse --seed 1 > sparse-2000.in
//
// The same options give the same file on every platform (the generators avoid the standard
// distributions), so a benchmark input can be named by its command line instead of checked in.
#include <charconv>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/wallgame/generators.hpp"
#include "io/wallgame/format.hpp"
#include "tools/bench/case_options.hpp"
#include "tools/bench/case_output.hpp"

namespace {

namespace wallgame = gamebatch::wallgame;

struct Range {
  std::int32_t min = 0;
  std::int32_t max = 0;
};

// "N" or "MIN..MAX"; the result is checked against [low, high]. Empty string when it parses.
std::string parse_range(const std::string& text, std::int64_t low, std::int64_t high,
                        Range& range) {
  const auto parse_number = [](std::string_view part, std::int32_t& value) {
    const auto [stop, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    return !part.empty() && error == std::errc() && stop == part.data() + part.size();
  };
  const std::string_view whole(text);
  const auto dots = whole.find("..");
  const std::string_view first = whole.substr(0, dots);
  const std::string_view second = dots == std::string_view::npos ? first : whole.substr(dots + 2);
  if (!parse_number(first, range.min) || !parse_number(second, range.max)) {
    return "expected N or MIN..MAX, got '" + text + "'";
  }
  if (range.min < low || range.max > high || range.min > range.max) {
    return "expected " + std::to_string(low) + " <= MIN <= MAX <= " + std::to_string(high) +
           ", got '" + text + "'";
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  namespace format = gamebatch::io::wallgame;
  CLI::App app{
      "Writes a wallgame input file of random boards, each of a size drawn uniformly from the\n"
      "given ranges. Deterministic: the same options give the same bytes.",
      "make_wallgame_case"};

  const auto patterns = gamebatch::bench::enum_names(wallgame::kAllCostPatterns);

  std::string height_text;
  std::string width_text;
  std::string pattern_name = "uniform";
  std::uint64_t seed = 1;
  int cases = 1;
  std::string out_path;
  app.add_option("--height", height_text, "rows h per board: N or MIN..MAX")->required();
  app.add_option("--width", width_text, "columns w per board: N or MIN..MAX")->required();
  app.add_option("--costs", pattern_name, "how costs are drawn")
      ->transform(gamebatch::bench::to_lower)
      ->check(CLI::IsMember(patterns))
      ->capture_default_str();
  app.add_option("--seed", seed, "seed of the random generator")->capture_default_str();
  app.add_option("-T,--cases", cases, "number of boards in the file")
      ->check(CLI::Range(1, 10'000'000))
      ->capture_default_str();
  app.add_option("-o,--output", out_path, "write here instead of stdout");
  CLI11_PARSE(app, argc, argv);

  Range heights;
  Range widths;
  const auto parse_side = [](const std::string& text, const char* option, std::int64_t low,
                             std::int64_t high, Range& range) {
    const std::string problem = parse_range(text, low, high, range);
    if (!problem.empty())
      std::cerr << "make_wallgame_case: " << option << ": " << problem << "\n";
    return problem.empty();
  };
  if (!parse_side(height_text, "--height", format::kMinHeight, format::kMaxHeight, heights) ||
      !parse_side(width_text, "--width", format::kMinWidth, format::kMaxWidth, widths)) {
    return 2;
  }

  try {
    std::mt19937_64 rng(seed);
    const wallgame::SizeRange sizes{heights.min, heights.max, widths.min, widths.max};
    std::vector<wallgame::Board> boards;
    boards.reserve(static_cast<std::size_t>(cases));
    for (int i = 0; i < cases; ++i) {
      boards.push_back(wallgame::generate_board(sizes, patterns.at(pattern_name), rng));
    }
    const std::string text = format::format_file(boards);
    return gamebatch::bench::write_case_file("make_wallgame_case", out_path, text);
  } catch (const std::exception& e) {
    std::cerr << "make_wallgame_case: " << e.what() << "\n";
    return 1;
  }
}
