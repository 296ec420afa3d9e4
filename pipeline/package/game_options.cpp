#include "pipeline/package/game_options.hpp"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "io/problem.hpp"

namespace gamebatch::pipeline {
namespace {

constexpr std::string_view kMixed = "mixed";

io::IntRange range_named(const std::string& option, const std::string& text) {
  if (const std::optional<io::IntRange> range = io::parse_int_range(text))
    return *range;
  throw CLI::ValidationError(option, "expected A..B or A (integers), got '" + text + "'");
}

// The value of `all` called `name`; `also` lists further accepted names in the message.
template <typename Enum, std::size_t Count>
Enum value_named(const std::string& option, const std::string& name, const Enum (&all)[Count],
                 std::string_view also = "") {
  if (const std::optional<Enum> value = io::enum_named(name, all))
    return *value;
  throw CLI::ValidationError(option, "expected one of " + io::enum_names(all) + std::string(also) +
                                         ", got '" + name + "'");
}

// nullopt for "mixed": a new random value for every case.
template <typename Enum, std::size_t Count>
std::optional<Enum> mixable_value_named(const std::string& option, const std::string& name,
                                        const Enum (&all)[Count]) {
  if (name == kMixed)
    return std::nullopt;
  return value_named(option, name, all, "|mixed");
}

std::string joined(const std::vector<std::string>& parts, std::string_view separator) {
  std::string text;
  for (const std::string& part : parts) {
    if (!text.empty())
      text += separator;
    text += part;
  }
  return text;
}

}  // namespace

std::vector<std::string> generated_games() {
  std::vector<std::string> games;
  for (const io::Problem* problem : io::all_problems()) {
    if (io::default_game_options(problem->name()))
      games.emplace_back(problem->name());
  }
  return games;
}

std::string seed_problem(const std::string& text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end)
    return "expected an integer from 0 to 2^64 - 1, got '" + text + "'";
  return "";
}

namespace {

// The game options of `game` as given, on top of its defaults.
io::GameOptions checked_game_options(const std::string& game,
                                     const GameOptionArguments& arguments) {
  for (const GameOption& entry : arguments.registered) {
    if (entry.option->count() != 0 &&
        std::find(entry.games.begin(), entry.games.end(), game) == entry.games.end()) {
      throw CLI::ValidationError(
          entry.name, "an option of " + joined(entry.games, " and ") + ", not of " + game);
    }
  }
  const auto given = [&](std::string_view name) {
    return std::any_of(
        arguments.registered.begin(), arguments.registered.end(),
        [&](const GameOption& entry) { return entry.name == name && entry.option->count() != 0; });
  };

  // The game was checked against the games gen knows.
  io::GameOptions options = io::default_game_options(game).value();
  if (auto* willow_options = std::get_if<io::WillowGenOptions>(&options)) {
    if (given("--cities"))
      willow_options->cities = range_named("--cities", arguments.cities);
    if (given("--shape"))
      willow_options->shape = mixable_value_named("--shape", arguments.shape, willow::kAllShapes);
    if (given("--coins"))
      willow_options->coins = value_named("--coins", arguments.coins, willow::kAllCoinPatterns);
    if (given("--max-coin"))
      willow_options->max_coin = arguments.max_coin;
  } else if (auto* doublemove_options = std::get_if<io::DoublemoveGenOptions>(&options)) {
    if (given("--n"))
      doublemove_options->n = range_named("--n", arguments.n);
    if (given("--k"))
      doublemove_options->declarations = range_named("--k", arguments.k);
    if (given("--pattern")) {
      doublemove_options->pattern =
          value_named("--pattern", arguments.pattern, doublemove::kAllPatterns);
    }
  } else if (auto* wallgame_options = std::get_if<io::WallgameGenOptions>(&options)) {
    if (given("--height"))
      wallgame_options->height = range_named("--height", arguments.height);
    if (given("--width"))
      wallgame_options->width = range_named("--width", arguments.width);
    if (given("--costs")) {
      wallgame_options->costs =
          mixable_value_named("--costs", arguments.costs, wallgame::kAllCostPatterns);
    }
    if (given("--digits"))
      wallgame_options->digits = range_named("--digits", arguments.digits);
  } else if (auto* boigame_options = std::get_if<io::BoigameGenOptions>(&options)) {
    if (given("--size"))
      boigame_options->size = range_named("--size", arguments.size);
    if (given("--shape"))
      boigame_options->shape = mixable_value_named("--shape", arguments.shape, boigame::kAllShapes);
    if (given("--density"))
      boigame_options->density = arguments.density;
    if (given("--placement")) {
      boigame_options->placement =
          mixable_value_named("--placement", arguments.placement, boigame::kAllPlacements);
    }
  }
  return options;
}

}  // namespace

io::GenerateOptions checked_generate_options(const std::string& game,
                                             const GameOptionArguments& arguments,
                                             io::GenerateOptions options) {
  options.game = checked_game_options(game, arguments);
  if (const std::string problem = io::check_generate_options(options); !problem.empty())
    throw CLI::ValidationError(problem);
  return options;
}

void add_game_options(CLI::App& command, GameOptionArguments& arguments) {
  const io::WillowGenOptions willow_defaults;
  const io::DoublemoveGenOptions doublemove_defaults;
  const io::WallgameGenOptions wallgame_defaults;
  const io::BoigameGenOptions boigame_defaults;
  const std::string game_group = "Game options (each for the games it names)";
  const auto add_game_option = [&](const std::string& name, auto& value, const std::string& help,
                                   const std::string& type_name,
                                   std::vector<std::string> option_games) {
    CLI::Option* option =
        command.add_option(name, value, help)->type_name(type_name)->group(game_group);
    arguments.registered.push_back({name, option, std::move(option_games)});
  };
  add_game_option("--cities", arguments.cities,
                  "willow: cities per case (default " + io::to_string(willow_defaults.cities) + ")",
                  "A..B", {"willow"});
  add_game_option("--shape", arguments.shape,
                  "willow: " + io::enum_names(willow::kAllShapes) +
                      "|mixed (default mixed);\nboigame: " + io::enum_names(boigame::kAllShapes) +
                      "|mixed (default mixed)",
                  "NAME", {"willow", "boigame"});
  add_game_option("--coins", arguments.coins,
                  "willow: " + io::enum_names(willow::kAllCoinPatterns) + " (default " +
                      std::string(to_string(willow_defaults.coins)) + ")",
                  "NAME", {"willow"});
  add_game_option("--max-coin", arguments.max_coin,
                  "willow: coins per city are drawn from 0..C (default " +
                      std::to_string(willow_defaults.max_coin) + ", at most " +
                      std::to_string(io::kMaxGeneratedCoin) + ")",
                  "C", {"willow"});
  add_game_option("--n", arguments.n,
                  "doublemove: values n per case (default " + io::to_string(doublemove_defaults.n) +
                      ", at most " + std::to_string(doublemove::kMaxN) + ")",
                  "A..B", {"doublemove"});
  add_game_option("--k", arguments.k,
                  "doublemove: given declarations per case, clamped to n + 1 (default: 0 or n + 1\n"
                  "a quarter of the time each, else uniform over 0..n+1)",
                  "A..B", {"doublemove"});
  add_game_option("--pattern", arguments.pattern,
                  "doublemove: " + io::enum_names(doublemove::kAllPatterns) + " (default " +
                      std::string(to_string(doublemove_defaults.pattern)) + ")",
                  "NAME", {"doublemove"});
  add_game_option(
      "--height", arguments.height,
      "wallgame: rows per board (default " + io::to_string(wallgame_defaults.height) + ")", "A..B",
      {"wallgame"});
  add_game_option(
      "--width", arguments.width,
      "wallgame: columns per board (default " + io::to_string(wallgame_defaults.width) + ")",
      "A..B", {"wallgame"});
  add_game_option("--costs", arguments.costs,
                  "wallgame: " + io::enum_names(wallgame::kAllCostPatterns) + "|mixed (default " +
                      std::string(to_string(*wallgame_defaults.costs)) + ")",
                  "NAME", {"wallgame"});
  add_game_option("--digits", arguments.digits,
                  "wallgame: every cost drawn uniformly from these digits, within 0..9\n"
                  "(overrides --costs)",
                  "A..B", {"wallgame"});
  add_game_option("--size", arguments.size,
                  "boigame: board side n (default " + io::to_string(boigame_defaults.size) + ")",
                  "A..B", {"boigame"});
  add_game_option("--density", arguments.density,
                  "boigame: percent of black squares, 0..100 (overrides --shape)", "P",
                  {"boigame"});
  add_game_option("--placement", arguments.placement,
                  "boigame: " + io::enum_names(boigame::kAllPlacements) + "|mixed (default mixed)",
                  "NAME", {"boigame"});
}

}  // namespace gamebatch::pipeline
