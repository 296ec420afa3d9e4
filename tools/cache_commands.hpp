// `gamebatch cache ...`: look into, export, merge and verify answer cache files.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace gamebatch::cli {

struct CacheArguments {
  std::string file;
  std::string format = "jsonl";
  std::string merge_output;
  std::vector<std::string> merge_inputs;
};

// Adds the `cache` subcommand and its four subcommands to `app`.
void add_cache_commands(CLI::App& app, CacheArguments& arguments);

// Runs whichever cache subcommand was parsed; returns the exit status.
int run_cache_command(const CLI::App& app, const CacheArguments& arguments);

}  // namespace gamebatch::cli
