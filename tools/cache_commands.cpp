#include "tools/cache_commands.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <tuple>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "io/answer_cache.hpp"
#include "io/problem.hpp"
#include "tools/cli.hpp"

namespace gamebatch::cli {
namespace {

namespace fs = std::filesystem;

// Loads a cache file that must be sound; on failure prints "FILE: reason" and returns false.
bool load_sound(const std::string& path, io::AnswerCache& cache) {
  try {
    io::load_cache_file(path, cache);
    return true;
  } catch (const std::exception& error) {
    spdlog::error("{}: {}", path, error.what());
    return false;
  }
}

int cache_stats(const std::string& path) {
  io::AnswerCache cache;
  if (!load_sound(path, cache))
    return kExitRejected;
  struct GameCount {
    std::size_t entries = 0;
    std::size_t outdated = 0;  // made by another solver version than this gamebatch's
  };
  std::map<std::string, GameCount> per_game;
  cache.for_each_entry([&](const io::CacheKey&, const io::CacheEntry& entry) {
    GameCount& count = per_game[entry.game];
    ++count.entries;
    const io::Problem* problem = io::find_problem(entry.game);
    if (problem == nullptr || problem->solver_version() != entry.solver_version)
      ++count.outdated;
  });
  std::printf("file: %s\n", path.c_str());
  std::printf("size: %ju bytes\n", static_cast<std::uintmax_t>(fs::file_size(path)));
  std::printf("format version: %u\n", io::kCacheFormatVersion);
  std::printf("entries: %zu\n", cache.size());
  for (const auto& [game, count] : per_game) {
    std::printf("  %s: %zu", game.c_str(), count.entries);
    if (count.outdated != 0)
      std::printf(" (%zu of another solver version, never reused)", count.outdated);
    std::printf("\n");
  }
  std::size_t artefact_bytes = 0;
  cache.for_each_artefact(
      [&](const io::StoredArtefact& stored) { artefact_bytes += stored.artefact.bytes.size(); });
  std::printf("artefacts: %zu (%zu bytes)\n", cache.artefact_count(), artefact_bytes);
  cache.for_each_artefact([](const io::StoredArtefact& stored) {
    std::printf("  %s: %s (version %u, %zu bytes)\n", stored.game.c_str(),
                stored.artefact.name.c_str(), stored.artefact.version,
                stored.artefact.bytes.size());
  });
  return kExitSolved;
}

int cache_export(const std::string& path) {
  io::AnswerCache cache;
  if (!load_sound(path, cache))
    return kExitRejected;
  // Sorted, so that two exports of caches with the same entries are the same text.
  std::vector<std::tuple<std::string, std::string, const io::CacheEntry*>> rows;
  rows.reserve(cache.size());
  cache.for_each_entry([&](const io::CacheKey& key, const io::CacheEntry& entry) {
    rows.emplace_back(entry.game, key.hex(), &entry);
  });
  std::sort(rows.begin(), rows.end());
  for (const auto& [game, key, entry] : rows) {
    const nlohmann::ordered_json line = {{"game", game},
                                         {"solver_version", entry->solver_version},
                                         {"key", key},
                                         {"case", entry->canonical_case},
                                         {"answer", entry->answer}};
    std::cout << line.dump() << '\n';
  }
  std::cout.flush();
  return std::cout ? kExitSolved : kExitRejected;
}

int cache_merge(const std::string& output, const std::vector<std::string>& inputs) {
  io::AnswerCache merged;
  for (const std::string& input : inputs) {
    io::AnswerCache one;
    if (!load_sound(input, one))
      return kExitRejected;  // a missing shard must not pass for a complete merge
    merged.merge_from(one);
  }
  try {
    const io::CacheFileLock lock(output, [&] {
      spdlog::info("waiting for another gamebatch run to finish writing the cache {}", output);
    });
    io::save_cache_file(output, merged);
  } catch (const std::exception& error) {
    spdlog::error("{}: cannot write: {}", output, error.what());
    return kExitRejected;
  }
  std::fprintf(stderr, "merged %zu caches into %s: entries: %zu artefacts: %zu\n", inputs.size(),
               output.c_str(), merged.size(), merged.artefact_count());
  return kExitSolved;
}

int cache_verify(const std::string& path) {
  io::AnswerCache cache;
  if (!load_sound(path, cache))
    return kExitRejected;
  // Beyond the checksum: every key must be the hash of what its entry says it answers.
  std::size_t mismatched = 0;
  cache.for_each_entry([&](const io::CacheKey& key, const io::CacheEntry& entry) {
    if (io::case_key(entry.game, entry.solver_version, entry.canonical_case) != key)
      ++mismatched;
  });
  if (mismatched != 0) {
    spdlog::error("{}: {} entries are stored under a key that is not their case's hash", path,
                  mismatched);
    return kExitRejected;
  }
  std::printf("%s: sound (format version %u, entries: %zu, artefacts: %zu)\n", path.c_str(),
              io::kCacheFormatVersion, cache.size(), cache.artefact_count());
  return kExitSolved;
}

}  // namespace

void add_cache_commands(CLI::App& app, CacheArguments& arguments) {
  CLI::App* cache = app.add_subcommand("cache", "Inspect, export, merge and verify answer caches");
  cache->require_subcommand(1);
  cache->footer(
      "Cache files are binary (Boost archives) and not portable between platforms or Boost\n"
      "versions; 'export' writes a portable JSON-lines copy.\n"
      "Exit status: 0 done, 1 a cache file is missing or not sound, 2 usage error.");

  CLI::App* stats = cache->add_subcommand("stats", "Entries per game, artefacts, size, version");
  stats->add_option("FILE", arguments.file, "The cache file")->required()->type_name("");

  CLI::App* exporter =
      cache->add_subcommand("export", "Print every entry as one JSON line on stdout");
  exporter->add_option("FILE", arguments.file, "The cache file")->required()->type_name("");
  exporter
      ->add_option("--format", arguments.format,
                   "jsonl: one object per line with game, solver_version, key, case, answer")
      ->check(CLI::IsMember({"jsonl"}))
      ->type_name("FORMAT");

  CLI::App* merge = cache->add_subcommand(
      "merge", "Write the union of several caches (a cluster run's shards) to OUT");
  merge->add_option("OUT", arguments.merge_output, "The cache file to write")
      ->required()
      ->type_name("");
  merge->add_option("IN", arguments.merge_inputs, "Cache files to join; each must be sound")
      ->required()
      ->type_name("");

  CLI::App* verify =
      cache->add_subcommand("verify", "Check a cache file; exit 0 when sound, 1 with the reason");
  verify->add_option("FILE", arguments.file, "The cache file")->required()->type_name("");
}

int run_cache_command(const CLI::App& app, const CacheArguments& arguments) {
  const CLI::App* cache = app.get_subcommand("cache");
  if (cache->got_subcommand("stats"))
    return cache_stats(arguments.file);
  if (cache->got_subcommand("export"))
    return cache_export(arguments.file);
  if (cache->got_subcommand("merge"))
    return cache_merge(arguments.merge_output, arguments.merge_inputs);
  if (cache->got_subcommand("verify"))
    return cache_verify(arguments.file);
  return kExitUsage;
}

}  // namespace gamebatch::cli
