// gen's game options (--cities, --shape, --n, ...), as `gamebatch gen` and `gamebatch stress` take
// them on their command lines and a plan's `gen = "..."` entries spell them (package_plan.hpp):
// the one option table of io/files/generate.hpp's generators. The only part of pipeline/ that
// speaks CLI11, because a plan entry is gen's command line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "io/files/generate.hpp"

namespace gamebatch::pipeline {

// An option that only some games take: given for another game, it is a usage error.
struct GameOption {
  std::string name;
  CLI::Option* option = nullptr;
  std::vector<std::string> games;
};

// The generator options of every game (`gen` and `stress` take the same), as typed; several games
// share the option table, so they are checked against the game only once parsing is done.
struct GameOptionArguments {
  std::string cities;
  std::string shape;  // willow's or boigame's
  std::string coins;
  std::int64_t max_coin = 0;
  std::string n;
  std::string k;
  std::string pattern;
  std::string height;
  std::string width;
  std::string costs;
  std::string digits;
  std::string size;
  std::int32_t density = 0;
  std::string placement;
  std::vector<GameOption> registered;  // filled by add_game_options
};

// Adds every game's generator options to `command`, in their own help group.
void add_game_options(CLI::App& command, GameOptionArguments& arguments);

// `options` (seed, count, cases per file, directory) with the game options of `game` as given on
// top of its defaults, all checked by io::check_generate_options. Throws CLI::ValidationError
// naming the option at fault, also for an option of another game.
io::GenerateOptions checked_generate_options(const std::string& game,
                                             const GameOptionArguments& arguments,
                                             io::GenerateOptions options);

// The names of the games gen can generate.
std::vector<std::string> generated_games();

// CLI11 2.1 takes "-1" and "2^64" for a std::uint64_t, wrapped around or cut: a check of the text
// for --seed options.
std::string seed_problem(const std::string& text);

}  // namespace gamebatch::pipeline
