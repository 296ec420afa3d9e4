// explain against solve on the largest official case of each game: one solve, then the
// reconstruction of the optimal play with its text (what `gamebatch explain` adds), each the best
// of a few runs on one thread. The target: explain at most 1.5 x solve.
//   explain_bench WILLOW_FILE   (the official large practice file,
//   tests/data/willow/D-large-practice.in)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>

#include <oneapi/tbb/global_control.h>

#include "core/boigame/generators.hpp"
#include "core/boigame/play.hpp"
#include "core/doublemove/play.hpp"
#include "core/doublemove/state_table.hpp"
#include "core/wallgame/generators.hpp"
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

void report(const char* name, double solve, double explain) {
  std::printf("%-44s solve %9.4f s  explain %9.4f s  ratio %5.2f\n", name, solve, explain,
              explain / solve);
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

void doublemove_row() {
  doublemove::Instance instance;
  instance.n = 35;
  // Both with the table of n = 35 built once before (it is shared by every case of n = 35).
  doublemove::solve(instance);
  const double solve = best_seconds([&] { doublemove::solve(instance); });
  const double explain = best_seconds(
      [&] { doublemove::describe_play(instance, doublemove::optimal_play(instance)); });
  report("doublemove: n = 35, k = 0 (table built)", solve, explain);
}

void wallgame_row() {
  std::mt19937_64 rng(1);
  const wallgame::Board board =
      wallgame::generate_board(50, 50, wallgame::CostPattern::uniform, rng);
  report("wallgame: 50 x 50, uniform digits", best_seconds([&] { wallgame::solve(board); }),
         best_seconds([&] { wallgame::describe_play(board, wallgame::optimal_play(board)); }));
}

void boigame_rows() {
  for (const boigame::BoardShape shape : {boigame::BoardShape::open, boigame::BoardShape::maze}) {
    std::mt19937_64 rng(1);
    const boigame::Board board =
        boigame::generate_board(shape, 300, boigame::Placement::corners, rng);
    const std::string name =
        "boigame: n = 300, " + std::string(boigame::to_string(shape)) + ", corners";
    report(name.c_str(), best_seconds([&] { boigame::solve(board); }),
           best_seconds([&] { boigame::describe_play(board, boigame::optimal_play(board)); }));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s WILLOW_LARGE_FILE\n", argv[0]);
    return 2;
  }
  const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  willow_rows(argv[1]);
  doublemove_row();
  wallgame_row();
  boigame_rows();
  return 0;
}
