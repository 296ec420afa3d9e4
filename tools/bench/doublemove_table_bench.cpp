// doublemove_table_bench: the offline precomputation of doublemove, timed.
//
//   doublemove_table_bench [--threads 1] [--budget-seconds 60] [--skip-baseline]
//
// 1. The tables of n = 1..35 built one after another, against a baseline measured in the same
//    run: a straightforward memoised minimax over the same states, keyed by sorted vectors in a
//    hash map. Both must agree on every k = 0 answer. Target: the tables in under one second.
// 2. One table per n from 1 upwards (each dropped before the next): states, table bytes, build
//    time, process RSS after the build and peak RSS, until a build takes longer than the budget,
//    the largest supported n (kMaxN, set by memory) is done, or memory runs out.
// Prints Markdown on stdout. --threads caps oneTBB's threads (default 1: one core).
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include <oneapi/tbb/global_control.h>
#include <CLI/CLI.hpp>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/state_table.hpp"

namespace {

namespace game = gamebatch::doublemove;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double megabytes(std::uint64_t bytes) {
  return static_cast<double>(bytes) / 1e6;
}

// Resident set now (/proc/self/statm) and at its highest (getrusage), in bytes.
std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0;
  std::uint64_t resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

std::uint64_t peak_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

// The baseline: the rules' recursion as one would first write it. A state is its sorted tree
// sizes with the one-cycle count appended; every pair of trees and every tree is tried as a
// move, and values are memoised in an unordered_map.
class HashMapMinimax {
 public:
  explicit HashMapMinimax(int n) : n_(n) {}

  std::uint64_t initial_value() {
    return value(std::vector<int>(static_cast<std::size_t>(n_), 1), 0);
  }
  std::size_t states() const { return memo_.size(); }

 private:
  struct KeyHash {
    std::size_t operator()(const std::vector<int>& key) const {
      std::size_t hash = key.size();
      for (const int part : key)
        hash = hash * 1'000'003u + static_cast<std::size_t>(part);
      return hash;
    }
  };

  std::uint64_t value(const std::vector<int>& trees, int cycles) {
    std::vector<int> key = trees;
    key.push_back(cycles);
    if (const auto found = memo_.find(key); found != memo_.end())
      return found->second;
    const int turn = n_ - static_cast<int>(trees.size());
    const bool bob = (turn + 1) % 2 == 0;
    const std::uint64_t alive = orientations(trees, cycles) << (n_ + 1 - turn);
    std::uint64_t best = bob ? UINT64_MAX : 0;
    auto consider = [&](std::vector<int> next, int next_cycles) {
      std::sort(next.begin(), next.end());
      const std::uint64_t next_alive = orientations(next, next_cycles) << (n_ - turn);
      const std::uint64_t total = (bob ? alive - next_alive : 0) + value(next, next_cycles);
      best = bob ? std::min(best, total) : std::max(best, total);
    };
    for (std::size_t i = 0; i < trees.size(); ++i) {
      for (std::size_t j = i + 1; j < trees.size(); ++j) {
        std::vector<int> joined;
        for (std::size_t k = 0; k < trees.size(); ++k) {
          if (k != i && k != j)
            joined.push_back(trees[k]);
        }
        joined.push_back(trees[i] + trees[j]);
        consider(std::move(joined), cycles);
      }
      std::vector<int> rest = trees;
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
      consider(rest, cycles + 1);
      if (cycles > 0)
        consider(std::move(rest), cycles);
    }
    if (cycles > 0)
      best = bob ? std::min(best, alive) : best;  // a two-cycle component ends the game
    memo_.emplace(std::move(key), best);
    return best;
  }

  static std::uint64_t orientations(const std::vector<int>& trees, int cycles) {
    std::uint64_t product = std::uint64_t{1} << cycles;
    for (const int size : trees)
      product *= static_cast<std::uint64_t>(size);
    return product;
  }

  int n_;
  std::unordered_map<std::vector<int>, std::uint64_t, KeyHash> memo_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Times doublemove's state tables: n = 1..35 against a hash-map minimax, then one "
      "table per n upwards. Markdown on stdout.",
      "doublemove_table_bench"};
  int threads = 1;
  double budget_s = 60;
  bool skip_baseline = false;
  int first_section_max_n = 35;
  app.add_option("--threads", threads, "oneTBB threads (1: one core)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  app.add_option("--budget-seconds", budget_s, "stop the upward scan after a build this long")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--compare-max-n", first_section_max_n, "largest n of the comparison section")
      ->check(CLI::Range(1, 40))
      ->capture_default_str();
  app.add_flag("--skip-baseline", skip_baseline, "time only the tables in the first section");
  CLI11_PARSE(app, argc, argv);

  tbb::global_control thread_limit(tbb::global_control::max_allowed_parallelism,
                                   static_cast<std::size_t>(threads));
  const std::string cpu = [] {
    std::ifstream info("/proc/cpuinfo");
    std::string line;
    while (std::getline(info, line)) {
      if (line.rfind("model name", 0) == 0)
        return line.substr(line.find(':') + 2);
    }
    return std::string("unknown CPU");
  }();
  std::printf("## doublemove state tables\n\n");
  std::printf("%s; oneTBB threads: %d; machine: %ld cores. MB = 10^6 bytes.\n\n", cpu.c_str(),
              threads, sysconf(_SC_NPROCESSORS_ONLN));

  // 1. n = 1..35 against the baseline.
  int failures = 0;
  std::vector<game::Value> answers;
  const auto tables_start = Clock::now();
  std::uint64_t table_states = 0;
  for (int n = 1; n <= first_section_max_n; ++n) {
    const auto table = game::StateTable::build(n);
    answers.push_back(table->initial_value());
    table_states += table->state_count();
  }
  const double tables_s = seconds_since(tables_start);
  std::printf(
      "### Tables for n = 1..%d, all states (k = 0 answers checked against the baseline)\n\n",
      first_section_max_n);
  std::printf("| method | states | seconds | speed-up |\n| :-- | --: | --: | --: |\n");
  std::printf("| state tables (ranked partitions, turn by turn) | %" PRIu64
              " | %.3f | (candidate) |\n",
              table_states, tables_s);
  if (!skip_baseline) {
    const auto baseline_start = Clock::now();
    std::size_t baseline_states = 0;
    for (int n = 1; n <= first_section_max_n; ++n) {
      HashMapMinimax baseline(n);
      const std::uint64_t answer = baseline.initial_value();
      baseline_states += baseline.states();
      if (game::Value{answer} != answers[static_cast<std::size_t>(n - 1)]) {
        std::fprintf(stderr, "doublemove_table_bench: n = %d: baseline %s, table %s\n", n,
                     std::to_string(answer).c_str(),
                     game::to_decimal(answers[static_cast<std::size_t>(n - 1)]).c_str());
        ++failures;
      }
    }
    const double baseline_s = seconds_since(baseline_start);
    malloc_trim(0);  // give the baseline's freed hash maps back, or they count in every RSS below
    std::printf("| hash-map minimax over sorted vectors (baseline) | %zu | %.3f | %.1fx |\n",
                baseline_states, baseline_s, baseline_s / tables_s);
  }
  std::printf("\nTarget: the tables of n = 1..35 in under 1 s on one core: %s.\n\n",
              first_section_max_n == 35 ? (tables_s < 1.0 ? "met" : "MISSED") : "not measured");
  std::fflush(stdout);

  // 2. One table per n upwards.
  std::printf("### One table per n (built alone, then dropped)\n\n");
  std::printf(
      "| n | states | bytes/value | table MB | build s | ns/state | RSS after build MB | peak RSS "
      "MB | k = 0 answer |\n");
  std::printf("| --: | --: | --: | --: | --: | --: | --: | --: | --: |\n");
  int last_n = 0;
  for (int n = 1; n <= game::kMaxN; ++n) {
    double build_s = 0;
    std::uint64_t states = 0;
    std::uint64_t table_bytes = 0;
    std::uint64_t resident = 0;
    std::string answer;
    try {
      const auto start = Clock::now();
      const auto table = game::StateTable::build(n);
      build_s = seconds_since(start);
      states = table->state_count();
      table_bytes = table->value_bytes();
      resident = resident_bytes();
      answer = game::to_decimal(table->initial_value());
    } catch (const std::bad_alloc&) {
      std::printf("\nn = %d: out of memory (a table of %.1f MB).\n", n,
                  megabytes(game::table_bytes_for(n)));
      break;
    }
    std::printf("| %d | %" PRIu64 " | %d | %.1f | %.3f | %.0f | %.1f | %.1f | %s |\n", n, states,
                static_cast<int>(table_bytes / states), megabytes(table_bytes), build_s,
                build_s * 1e9 / static_cast<double>(states), megabytes(resident),
                megabytes(peak_resident_bytes()), answer.c_str());
    std::fflush(stdout);
    last_n = n;
    if (build_s > budget_s) {
      std::printf("\nStopped: n = %d took more than %.0f s.\n", n, budget_s);
      break;
    }
  }
  if (last_n == game::kMaxN) {
    std::printf(
        "\nStopped at the largest supported n, %d: n = %d would take %.1f MB, above the "
        "%.1f MB limit per table.\n",
        game::kMaxN, game::kMaxN + 1, megabytes(game::table_bytes_for(game::kMaxN + 1)),
        megabytes(game::kMaxTableBytes));
  }
  if (failures > 0) {
    std::fprintf(stderr, "doublemove_table_bench: %d answers disagree with the baseline\n",
                 failures);
    return 1;
  }
  return 0;
}
