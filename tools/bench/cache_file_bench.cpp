// Saves and loads an answer cache of many entries and compares with writing and reading the same
// number of bytes raw (the floor any format pays), measured in the same run.
//
//   cache_file_bench [--entries N] [--repeat R] [--dir DIR] [--max-seconds S]
//
// Entries look like a big set's: small wallgame and boigame boards as canonical cases (30 to 300
// bytes) with short answers. Prints a Markdown table; exits 1 when the median save or load
// (cache file to usable map, everything included) takes longer than --max-seconds (default 1).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "io/answer_cache.hpp"
#include "io/atomic_file.hpp"
#include "io/input_set.hpp"

namespace {

namespace fs = std::filesystem;
using gamebatch::io::AnswerCache;
using gamebatch::io::CacheEntry;

// A random board of `rows` lines of `columns` characters drawn from `alphabet`.
std::string board(std::mt19937_64& random, int rows, int columns, const std::string& alphabet) {
  std::string text = std::to_string(rows) + " " + std::to_string(columns) + "\n";
  for (int row = 0; row < rows; ++row) {
    for (int column = 0; column < columns; ++column)
      text += alphabet[random() % alphabet.size()];
    text += '\n';
  }
  return text;
}

void fill(AnswerCache& cache, std::size_t entries) {
  std::mt19937_64 random(2026);
  while (cache.size() < entries) {  // distinct entries: tiny boards repeat
    const bool wall = random() % 4 != 0;
    const int rows = 2 + static_cast<int>(random() % (wall ? 6 : 12));
    const int columns = 2 + static_cast<int>(random() % (wall ? 6 : 12));
    CacheEntry entry;
    entry.game = wall ? "wallgame" : "boigame";
    entry.solver_version = 1;
    entry.canonical_case = board(random, rows, columns, wall ? "0123456789" : "..#");
    entry.answer = wall ? std::to_string(random() % 500) : (random() % 2 ? "A" : "B");
    const auto key =
        gamebatch::io::case_key(entry.game, entry.solver_version, entry.canonical_case);
    cache.insert(key, std::move(entry));
  }
}

double seconds_of(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("Times saving and loading an answer cache against raw file I/O of the same size");
  std::size_t entries = 1'000'000;
  int repeat = 3;
  std::string dir = fs::temp_directory_path().string();
  double max_seconds = 1.0;
  app.add_option("--entries", entries, "Entries in the cache")->check(CLI::Range(1, 100'000'000));
  app.add_option("--repeat", repeat, "Measured repetitions (median reported)")
      ->check(CLI::Range(1, 100));
  app.add_option("--dir", dir, "Where the files go (a real disk, not tmpfs, to count fsync)")
      ->check(CLI::ExistingDirectory);
  app.add_option("--max-seconds", max_seconds, "Fail when a median save or load exceeds this");
  CLI11_PARSE(app, argc, argv);

  AnswerCache cache;
  const double fill_seconds = seconds_of([&] { fill(cache, entries); });
  const fs::path cache_path = fs::path(dir) / "cache_file_bench.cache";
  const fs::path raw_path = fs::path(dir) / "cache_file_bench.raw";
  const std::string raw_bytes(gamebatch::io::encode_cache(cache).size(), 'x');

  std::vector<double> save, load, raw_write, raw_read;
  std::size_t loaded_entries = 0;
  for (int k = 0; k < repeat; ++k) {
    save.push_back(seconds_of([&] { gamebatch::io::save_cache_file(cache_path, cache); }));
    raw_write.push_back(
        seconds_of([&] { gamebatch::io::write_file_durably(raw_path, raw_bytes); }));
    // Freeing the map is not part of loading (gamebatch leaves that to the process exit).
    auto loaded = std::make_unique<AnswerCache>();
    load.push_back(seconds_of([&] { gamebatch::io::load_cache_file(cache_path, *loaded); }));
    loaded_entries = loaded->size();
    loaded.reset();
    raw_read.push_back(seconds_of([&] { (void)gamebatch::io::read_file(raw_path); }));
  }
  const auto file_bytes = fs::file_size(cache_path);
  if (std::getenv("KEEP_CACHE") == nullptr)
    fs::remove(cache_path);
  fs::remove(raw_path);
  if (loaded_entries != cache.size()) {
    std::fprintf(stderr, "cache_file_bench: loaded %zu entries of %zu\n", loaded_entries,
                 cache.size());
    return 1;
  }

  std::printf("Cache of %zu entries, %.1f MB on disk (MB = 10^6 bytes), in %s; median of %d.\n",
              cache.size(), static_cast<double>(file_bytes) / 1e6, dir.c_str(), repeat);
  std::printf("(Building the entries in memory took %.2f s; not part of either.)\n\n",
              fill_seconds);
  std::printf("| operation | median s | raw I/O of the same bytes, s | ratio |\n");
  std::printf("|---|---|---|---|\n");
  std::printf("| save (encode, write, fsync, rename) | %.3f | %.3f | %.1fx |\n", median(save),
              median(raw_write), median(save) / median(raw_write));
  std::printf("| load (read, verify, decode into the map) | %.3f | %.3f | %.1fx |\n", median(load),
              median(raw_read), median(load) / median(raw_read));
  const bool met = median(save) <= max_seconds && median(load) <= max_seconds;
  std::fprintf(stderr, "cache_file_bench: %s (target: save and load <= %.2f s each)\n",
               met ? "target met" : "TARGET MISSED", max_seconds);
  return met ? 0 : 1;
}
