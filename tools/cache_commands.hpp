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

// "500000", "200k", "64M", "2G", "1T" (powers of 1000) or "64Mi", "2Gi" (powers of 1024) as
// bytes; nullopt when the text is not such a size.
std::optional<std::uint64_t> parse_size(std::string_view text);

// Adds the `cache` subcommand and its subcommands to `app`.
void add_cache_commands(CLI::App& app, CacheArguments& arguments);

// Runs whichever cache subcommand was parsed; returns the exit status.
int run_cache_command(const CLI::App& app, const CacheArguments& arguments);

}  // namespace gamebatch::cli
