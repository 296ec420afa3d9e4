// `gamebatch cache ...`: look into, trim, export, import, merge and verify answer caches.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace gamebatch::cli {

struct CacheArguments {
  std::string file;
  std::string format = "jsonl";
  std::string output;  // export: where to write (empty: stdout)
  std::string max_size;
  std::string merge_output;
  std::vector<std::string> sources;  // merge: the inputs; import: the bundles or caches
};

// Adds the `cache` subcommand and its subcommands to `app`.
void add_cache_commands(CLI::App& app, CacheArguments& arguments);

// Runs whichever cache subcommand was parsed; returns the exit status.
int run_cache_command(const CLI::App& app, const CacheArguments& arguments);

}  // namespace gamebatch::cli
