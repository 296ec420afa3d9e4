// `gamebatch gen GAME --count N --seed S --out DIR ...`: writes a reproducible set of random input
// files of a game (io/generate.hpp does the work).
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "io/generate.hpp"

namespace gamebatch::cli {

struct GenArguments {
  std::string game;
  std::int64_t count = 0;
  std::uint64_t seed = 0;
  std::string out_dir;
  std::int64_t cases_per_file = 1;
  int jobs = 0;  // 0: all cores

  // The game options as typed; several games share the option table, so they are checked against
  // GAME only once parsing is done.
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

  // All of the above, checked: filled in at the end of parsing (a bad option is a CLI11
  // ValidationError, so the parse fails with exit status 2).
  io::GenerateOptions options;
};

// Adds the "gen" subcommand with its options to `app`.
void add_gen_command(CLI::App& app, GenArguments& arguments);

// Runs it after parsing; returns the exit status: 0 written, 1 a file could not be written,
// 2 usage error.
int run_gen_command(const GenArguments& arguments);

}  // namespace gamebatch::cli
