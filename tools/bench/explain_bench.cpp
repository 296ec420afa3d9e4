// explain against solve on the largest official case of each game: one solve, then the
// reconstruction of the optimal play with its text (what `gamebatch explain` adds), each the best
// of a few runs on one thread (doublemove, wallgame and boigame: of a few rounds, each a loop
// long enough to time, so that a solve of microseconds gets a real figure). The target:
// explain at most 1.5 x solve.
//   explain_bench WILLOW_FILE   (the official large practice file,
//   tests/data/willow/D-large-practice.in)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <utility>

#include <oneapi/tbb/global_control.h>

#include "core/boigame/generators.hpp"
#include "core/boigame/play.hpp"
#include "core/doublemove/generators.hpp"
#include "core/doublemove/play.hpp"
#include "core/doublemove/state_table.hpp"
#include "core/wallgame/generators.hpp"
#include "core/wallgame/kept_solve.hpp"
#include "core/wallgame/play.hpp"
#include "core/willow/play.hpp"
#include "io/willow/format.hpp"

namespace {

using namespace gamebatch;

double best_seconds(const std::function<void()>& work) {
  double best = 1e30;
  for (int run = 0; run < 3; ++run) {
    const auto start = std::chrono::steady_clock::now();
    work();
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

// Seconds of CPU time (the process's: the machine may be shared) per run of `solve` and of
// `explain`: the best of seven rounds each, a solve round and an explain round in turn, each
// round as many runs as take 20 ms or more.
std::pair<double, double> seconds_per_run(const std::function<void()>& solve,
                                          const std::function<void()>& explain) {
  auto cpu_seconds = [] {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
  };
  auto round = [&](const std::function<void()>& work, int runs) {
    const double start = cpu_seconds();
    for (int run = 0; run < runs; ++run)
      work();
    return (cpu_seconds() - start) / runs;
  };
  auto runs_for = [](double once) {
    return once >= 0.02 ? 1 : static_cast<int>(0.02 / std::max(once, 1e-9)) + 1;
  };
  std::pair<double, double> best{round(solve, 1), round(explain, 1)};
  const int solve_runs = runs_for(best.first);
  const int explain_runs = runs_for(best.second);
  for (int k = 0; k < 7; ++k) {
    best.first = std::min(best.first, round(solve, solve_runs));
    best.second = std::min(best.second, round(explain, explain_runs));
  }
  return best;
}

void report(const char* name, double solve, double explain) {
  std::printf("%-44s solve %9.4f s  explain %9.4f s  ratio %5.2f\n", name, solve, explain,
              explain / solve);
}

// The same for rows timed by seconds_per_run, in microseconds.
void report_runs(const std::string& name, std::pair<double, double> seconds) {
  const auto [solve, explain] = seconds;
  std::printf("%-48s solve %10.1f us  explain %10.1f us  ratio %5.2f\n", name.c_str(), solve * 1e6,
              explain * 1e6, explain / solve);
}

void willow_rows(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  const auto cases = io::willow::parse_file(text.str());
  double solve = 0;
  double explain = 0;
  for (const willow::Instance& instance : cases) {
    if (instance.city_count() < 4000)
      continue;
    solve += best_seconds([&] { willow::solve(instance); });
    explain +=
        best_seconds([&] { willow::describe_play(instance, willow::optimal_play(instance)); });
  }
  report("willow: the N = 4000 cases of the large file", solve, explain);
}

// seconds_per_run of a doublemove case with a fresh table store for each run: none is held.
std::pair<double, double> seconds_with_no_table(const doublemove::Instance& instance) {
  return seconds_per_run(
      [&] {
        doublemove::StateTableStore store;
        doublemove::solve(instance, store);
      },
      [&] {
        doublemove::StateTableStore store;
        doublemove::describe_play(instance, doublemove::optimal_play(instance, store));
      });
}

void doublemove_rows() {
  doublemove::Instance instance;
  instance.n = 35;
  // The table of n = 35 built once before (it is shared by every case of n = 35 in a run).
  doublemove::solve(instance);
  report_runs(
      "doublemove: n = 35, k = 0, table built",
      seconds_per_run(
          [&] { doublemove::solve(instance); },
          [&] { doublemove::describe_play(instance, doublemove::optimal_play(instance)); }));
  // A fresh store for each run: the solve builds the table (a file's first case of n = 35).
  report_runs("doublemove: n = 35, k = 0, table not built", seconds_with_no_table(instance));
  // A late case with no table held: the solve searches from the case's state.
  std::mt19937_64 rng(1);
  const doublemove::Instance late =
      doublemove::generate_running_instance(35, 23, doublemove::DeclarationPattern::uniform, rng);
  report_runs("doublemove: n = 35, k = 23, searched", seconds_with_no_table(late));
}

void wallgame_rows() {
  for (const wallgame::CostPattern pattern :
       {wallgame::CostPattern::uniform, wallgame::CostPattern::all_nine}) {
    std::mt19937_64 rng(1);
    const wallgame::Board board = wallgame::generate_board(50, 50, pattern, rng);
    report_runs(
        "wallgame: 50 x 50, " + std::string(wallgame::to_string(pattern)),
        seconds_per_run([&] { wallgame::solve(board); },
                        [&] { wallgame::describe_play(board, wallgame::optimal_play(board)); }));
    // Where explain's time goes: the solve keeping its tables, the play, its text alone.
    const wallgame::Play play = wallgame::optimal_play(board);
    const auto [kept, line] = seconds_per_run([&] { wallgame::KeptSolve kept_solve(board); },
                                              [&] { wallgame::optimal_play(board); });
    const double text = seconds_per_run([&] { wallgame::describe_play(board, play); }, [] {}).first;
    std::printf(
        "  %zu moves, %zu bytes of text: the solve keeping its tables %.1f us, the play "
        "%.1f us, its text %.1f us\n",
        play.moves.size(), wallgame::describe_play(board, play).size(), kept * 1e6, line * 1e6,
        text * 1e6);
  }
}

void boigame_rows() {
  for (const auto& [shape, placement] :
       {std::pair{boigame::BoardShape::open, boigame::Placement::corners},
        std::pair{boigame::BoardShape::maze, boigame::Placement::corners},
        std::pair{boigame::BoardShape::open, boigame::Placement::random},
        std::pair{boigame::BoardShape::sparse, boigame::Placement::random}}) {
    std::mt19937_64 rng(1);
    const boigame::Board board = boigame::generate_board(shape, 300, placement, rng);
    const boigame::Play play = boigame::optimal_play(board);
    report_runs(
        "boigame: n = 300, " + std::string(boigame::to_string(shape)) + ", " +
            std::string(boigame::to_string(placement)) + " (D = " + std::to_string(play.distance) +
            ")",
        seconds_per_run([&] { boigame::solve(board); },
                        [&] { boigame::describe_play(board, boigame::optimal_play(board)); }));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s WILLOW_LARGE_FILE [GAME]\n", argv[0]);
    return 2;
  }
  // GAME: only that game's rows.
  const std::string only = argc == 3 ? argv[2] : "";
  const auto wanted = [&only](const char* game) { return only.empty() || only == game; };
  const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  if (wanted("willow"))
    willow_rows(argv[1]);
  if (wanted("doublemove"))
    doublemove_rows();
  if (wanted("wallgame"))
    wallgame_rows();
  if (wanted("boigame"))
    boigame_rows();
  return 0;
}
