// `gamebatch gen GAME --count N --seed S --out DIR ...`: writes a reproducible set of random input
// files of a game (io/files/generate.hpp does the work).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "io/files/generate.hpp"

namespace gamebatch::cli {

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

struct GenArguments {
  std::string game;
  std::int64_t count = 0;
  std::uint64_t seed = 0;
  std::string out_dir;
  std::int64_t cases_per_file = 1;
  int jobs = 0;  // 0: all cores
  GameOptionArguments game_options;

  // All of the above, checked: filled in at the end of parsing (a bad option is a CLI11
  // ValidationError, so the parse fails with exit status 2).
  io::GenerateOptions options;
};

// CLI11 2.1 takes "-1" and "2^64" for a std::uint64_t, wrapped around or cut: a check of the text
// for --seed options.
std::string seed_problem(const std::string& text);

// Adds the "gen" subcommand with its options to `app`.
void add_gen_command(CLI::App& app, GenArguments& arguments);

// Runs it after parsing; returns the exit status: 0 written, 1 a file could not be written,
// 2 usage error.
int run_gen_command(const GenArguments& arguments);

}  // namespace gamebatch::cli
