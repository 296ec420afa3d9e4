// solve_cost_bench: what solving a case costs on one core against what its Case says it will
// cost (io::Case::estimated_solve_microseconds), for every game over many sizes; the data the
// games' cost formulas are fitted to. Also what the answer cache pays per case for its key
// (canonical() and io::case_key), the other side of the cache's threshold.
//
//   solve_cost_bench [--game all|keys|willow|doublemove|wallgame|boigame] [--quick]
//                    [--batch-us 2000] [--batches 7] [--max-doublemove-n 55]
//
// Cases come from the project's generators (io::generate_file_text) and are parsed by the game's
// own Problem (io::find_problem(game)->parse), so the Case objects are the pipeline's. A case is
// solved in batches of repetitions lasting about --batch-us each and the median batch gives its
// time; a case longer than that is solved three times (once past a second). oneTBB runs one
// thread, and times are that thread's CPU time (the machine may be shared). A doublemove case also
// builds its n's state table on first use in a process: those times are taken in a fresh process
// per measurement (this program run with --first-case-of-n).
//
// Prints Markdown on stdout: per game, per size, the measured median, the estimate and their
// ratio (estimate / measured; the cache needs it near 1 for small cases and never far below 1).
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <oneapi/tbb/global_control.h>
#include <CLI/CLI.hpp>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/state_table.hpp"
#include "io/cache/answer_cache.hpp"
#include "io/doublemove/format.hpp"
#include "io/files/generate.hpp"
#include "io/problem.hpp"

namespace {

namespace io = gamebatch::io;
using Cases = std::vector<std::unique_ptr<io::Case>>;

// Times are the calling thread's CPU time: oneTBB runs one thread here, so that is the solve's cost
// on one core, and unlike wall time it does not count the share of a busy machine that other
// processes take (their cache and memory traffic still shows).
struct Clock {
  static double now() {
    timespec time{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time);
    return static_cast<double>(time.tv_sec) * 1e6 + static_cast<double>(time.tv_nsec) / 1e3;
  }
};

double microseconds_since(double start) {
  return Clock::now() - start;
}

double median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

// Keeps the answers observable so that no solve can be optimised away.
std::size_t g_answer_bytes = 0;

struct Timing {
  double batch_us = 2000;  // how long one batch of repetitions should last
  int batches = 7;
};

// One solve of `a_case` on the calling thread, in µs: the median of batches of repetitions, or
// of three single solves (one past a second) when a solve lasts longer than a batch.
double solve_microseconds(const io::Case& a_case, const Timing& timing) {
  auto start = Clock::now();
  g_answer_bytes += a_case.solve().size();
  const double first = microseconds_since(start);
  if (first >= timing.batch_us) {
    std::vector<double> runs{first};
    for (int run = 1; run < 3 && first < 1e6; ++run) {
      start = Clock::now();
      g_answer_bytes += a_case.solve().size();
      runs.push_back(microseconds_since(start));
    }
    return median(runs);
  }
  // Repetitions per batch: doubled until a batch lasts a quarter of the target, then scaled.
  std::int64_t repetitions = 1;
  double elapsed = 0;
  while (true) {
    start = Clock::now();
    for (std::int64_t k = 0; k < repetitions; ++k)
      g_answer_bytes += a_case.solve().size();
    elapsed = microseconds_since(start);
    if (elapsed >= timing.batch_us / 4)
      break;
    repetitions *= 2;
  }
  repetitions = std::max<std::int64_t>(
      1, static_cast<std::int64_t>(static_cast<double>(repetitions) * timing.batch_us / elapsed));
  std::vector<double> per_solve;
  for (int batch = 0; batch < timing.batches; ++batch) {
    start = Clock::now();
    for (std::int64_t k = 0; k < repetitions; ++k)
      g_answer_bytes += a_case.solve().size();
    per_solve.push_back(microseconds_since(start) / static_cast<double>(repetitions));
  }
  return median(per_solve);
}

Cases generate_cases(const io::GameOptions& options, std::uint64_t seed, std::int64_t count) {
  const std::string text = io::generate_file_text(options, seed, 1, count);
  return io::find_problem(io::game_name(options))->parse(text);
}

// One line of a game's table: the cases of one size (and kind).
struct Row {
  std::string size;
  std::string kind;
  std::vector<double> measured;   // µs per case
  std::vector<double> estimated;  // µs per case, same order
  bool summarised = true;         // counted in the table's closing lines

  void add(double measured_us, double estimated_us) {
    measured.push_back(measured_us);
    estimated.push_back(estimated_us);
  }
  std::vector<double> ratios() const {
    std::vector<double> ratios;
    for (std::size_t k = 0; k < measured.size(); ++k)
      ratios.push_back(estimated[k] / measured[k]);
    return ratios;
  }
};

std::string number(double value) {
  char text[32];
  if (value >= 100)
    std::snprintf(text, sizeof text, "%.0f", value);
  else if (value >= 1)
    std::snprintf(text, sizeof text, "%.2f", value);
  else
    std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

std::string range(const std::vector<double>& values) {
  if (values.size() < 2)
    return "";
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  return number(*low) + "–" + number(*high);
}

// The game's table, then how far the estimates stray: over the cases of 0.1..100 µs (where the
// cache's threshold lies) and over the larger ones.
void print_table(std::string_view title, std::string_view size_name, const std::vector<Row>& rows) {
  std::printf("\n### %.*s\n\n", static_cast<int>(title.size()), title.data());
  std::printf(
      "| %.*s | kind | cases | measured µs (median) | measured min–max | estimated µs "
      "(median) | est/measured (median) | est/measured min–max |\n",
      static_cast<int>(size_name.size()), size_name.data());
  std::printf("| --: | :-- | --: | --: | --: | --: | --: | --: |\n");
  std::vector<double> small_ratios;
  std::vector<double> large_ratios;
  for (const Row& row : rows) {
    const std::vector<double> ratios = row.ratios();
    std::printf("| %s | %s | %zu | %s | %s | %s | %s | %s |\n", row.size.c_str(), row.kind.c_str(),
                row.measured.size(), number(median(row.measured)).c_str(),
                range(row.measured).c_str(), number(median(row.estimated)).c_str(),
                number(median(ratios)).c_str(), range(ratios).c_str());
    for (std::size_t k = 0; k < ratios.size() && row.summarised; ++k)
      (row.measured[k] <= 100 ? small_ratios : large_ratios).push_back(ratios[k]);
  }
  // `within`: the factor the cache can live with (2 for the cases near its threshold, 3 above).
  const auto summary = [](const char* what, const std::vector<double>& ratios, double within) {
    if (ratios.empty())
      return;
    const auto [low, high] = std::minmax_element(ratios.begin(), ratios.end());
    const auto close = std::count_if(ratios.begin(), ratios.end(), [within](double ratio) {
      return ratio >= 1 / within && ratio <= within;
    });
    std::printf("\n%s: %zu cases, est/measured median %s, min %s, max %s; within %.0fx: %td", what,
                ratios.size(), number(median(ratios)).c_str(), number(*low).c_str(),
                number(*high).c_str(), within, close);
  };
  summary("Cases measured up to 100 µs", small_ratios, 2);
  summary("Cases measured above 100 µs", large_ratios, 3);
  std::printf("\n");
  std::fflush(stdout);
}

// --- willow: N cities, every tree shape.

void bench_willow(const Timing& timing, bool quick) {
  std::vector<std::int64_t> sizes = {1,  2,  3,   4,   6,   8,   12,  16,  24,   32,
                                     48, 64, 100, 150, 255, 256, 400, 700, 1000, 2000};
  if (!quick)
    sizes.push_back(4000);
  std::vector<Row> rows;
  for (const std::int64_t cities : sizes) {
    Row row{std::to_string(cities), "all shapes", {}, {}};
    for (const auto shape : gamebatch::willow::kAllShapes) {
      io::WillowGenOptions options;
      options.cities = {cities, cities};
      options.shape = shape;
      const std::int64_t count = cities <= 256 ? 3 : 1;
      for (const auto& a_case : generate_cases(options, 1, count))
        row.add(solve_microseconds(*a_case, timing), a_case->estimated_solve_microseconds());
    }
    rows.push_back(std::move(row));
  }
  print_table("willow (N cities; 6 tree shapes, random coins)", "N", rows);
}

// --- wallgame: h x w boards.

void bench_wallgame(const Timing& timing, bool quick) {
  std::vector<std::pair<std::int64_t, std::int64_t>> sizes = {
      {1, 1},     {1, 50},    {2, 1},    {2, 2},    {3, 3},     {2, 8},      {5, 5},    {8, 8},
      {50, 2},    {2, 50},    {12, 12},  {20, 20},  {30, 30},   {50, 50},    {100, 10}, {10, 100},
      {100, 100}, {200, 200}, {400, 50}, {50, 400}, {500, 500}, {1000, 1000}};
  if (!quick)
    sizes.push_back({2000, 2000});
  std::vector<Row> rows;
  for (const auto& [height, width] : sizes) {
    Row row{std::to_string(height) + " x " + std::to_string(width), "uniform, mixed", {}, {}};
    for (const bool mixed : {false, true}) {
      io::WallgameGenOptions options;
      options.height = {height, height};
      options.width = {width, width};
      if (mixed)
        options.costs.reset();
      const std::int64_t count = height * width <= 10'000 ? 3 : 1;
      for (const auto& a_case : generate_cases(options, 1, count))
        row.add(solve_microseconds(*a_case, timing), a_case->estimated_solve_microseconds());
    }
    rows.push_back(std::move(row));
  }
  print_table("wallgame (h x w boards; uniform and mixed cost patterns)", "h x w", rows);
}

// --- boigame: n x n boards, every shape and placement.

void bench_boigame(const Timing& timing, bool quick) {
  std::vector<std::int64_t> sizes = {2,  3,  4,  5,   6,   8,   10,  12,  16,
                                     24, 32, 50, 100, 200, 400, 700, 1000};
  if (!quick)
    sizes.push_back(2000);
  std::vector<Row> rows;
  for (const std::int64_t n : sizes) {
    for (const auto shape : gamebatch::boigame::kAllShapes) {
      for (const auto placement : gamebatch::boigame::kAllPlacements) {
        io::BoigameGenOptions options;
        options.size = {n, n};
        options.shape = shape;
        options.placement = placement;
        Row row{std::to_string(n),
                std::string(to_string(shape)) + ", " + std::string(to_string(placement)),
                {},
                {}};
        const std::int64_t count = n <= 100 ? 4 : 1;
        for (const auto& a_case : generate_cases(options, 1, count))
          row.add(solve_microseconds(*a_case, timing), a_case->estimated_solve_microseconds());
        rows.push_back(std::move(row));
      }
    }
  }
  print_table("boigame (n x n boards; 5 shapes x 2 placements)", "n", rows);
}

// --- doublemove: the first case of an n builds n's table; later ones replay and look up.

// Run as a child: one k = 0 case of n (which needs the table) parsed and solved in this fresh
// process on one thread; prints "measured_us estimated_us".
int first_case_of_n(int n) {
  io::DoublemoveGenOptions options;
  options.n = {n, n};
  options.declarations = io::IntRange{0, 0};
  const Cases cases = generate_cases(options, 1, 1);
  // What a process pays once, whatever the n, before its first table: oneTBB's scheduler started
  // (about 1.5 ms), a first table built (0.7 ms more, even of n = 1) and the store's first table
  // (another 20 µs). Paid here with another n's table, so that what is timed is the table of n.
  g_answer_bytes += gamebatch::doublemove::default_store().get(n == 1 ? 2 : 1)->state_count();
  const auto start = Clock::now();
  g_answer_bytes += cases.front()->solve().size();
  const double measured = microseconds_since(start);
  std::printf("%.3f %.3f\n", measured, cases.front()->estimated_solve_microseconds());
  return 0;
}

// Runs this program as a child in first_case_of_n mode.
std::optional<std::pair<double, double>> first_case_in_fresh_process(int n) {
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0)
    return std::nullopt;
  self[length] = '\0';
  const std::string command = std::string("'") + self + "' --first-case-of-n " + std::to_string(n);
  FILE* child = popen(command.c_str(), "r");
  if (child == nullptr)
    return std::nullopt;
  double measured = 0;
  double estimated = 0;
  const int read = std::fscanf(child, "%lf %lf", &measured, &estimated);
  if (pclose(child) != 0 || read != 2)
    return std::nullopt;
  return std::pair{measured, estimated};
}

void bench_doublemove(const Timing& timing, int max_n) {
  namespace game = gamebatch::doublemove;
  // 1. The first case of each n, fresh processes.
  std::vector<Row> first_rows;
  for (const int n : {1,  2,  3,  4,  5,  6,  8,  10, 12, 15, 18, 20, 22, 25, 28,
                      30, 32, 35, 38, 40, 42, 45, 48, 50, 52, 55, 58, 60, 62, 64}) {
    if (n > max_n || n > game::kMaxN)
      break;
    Row row{std::to_string(n), std::to_string(game::state_count_for(n)) + " states", {}, {}};
    const int runs = n <= 45 ? 5 : 1;
    for (int run = 0; run < runs; ++run) {
      const auto result = first_case_in_fresh_process(n);
      if (!result) {
        std::fprintf(stderr, "solve_cost_bench: the child process for n = %d failed\n", n);
        continue;
      }
      row.add(result->first, result->second);
    }
    first_rows.push_back(std::move(row));
  }
  print_table(
      "doublemove, the first case of an n in a process (k = 0: builds the table; one fresh "
      "process per run)",
      "n", first_rows);

  // 2. Random cases (random k and patterns), in this process. Which of them need the table is
  // found independently with a fresh store each; the others only replay their declarations.
  std::vector<Row> rows;
  std::size_t cheap_but_needs_table = 0;
  std::size_t needing_table = 0;
  for (const int n : {1, 2, 5, 10, 20, 30, 40, 50}) {
    if (n > max_n)
      break;
    io::DoublemoveGenOptions options;
    options.n = {n, n};
    const std::string text = io::generate_file_text(options, 7, 1, 40);
    const Cases cases = io::find_problem("doublemove")->parse(text);
    const std::vector<game::Instance> instances = io::doublemove::parse_file(text);
    Row replay_only{std::to_string(n), "ends before the table", {}, {}};
    Row table_held{std::to_string(n),
                   "table already held (not summarised: estimates cost the build)",
                   {},
                   {},
                   false};
    const double build_estimate = [&] {
      io::DoublemoveGenOptions zero = options;
      zero.declarations = io::IntRange{0, 0};
      return generate_cases(zero, 1, 1).front()->estimated_solve_microseconds();
    }();
    for (std::size_t k = 0; k < cases.size(); ++k) {
      game::StateTableStore store;
      game::solve(instances[k], store);
      const double estimate = cases[k]->estimated_solve_microseconds();
      if (store.builds() > 0) {
        ++needing_table;
        if (estimate < build_estimate / 2)
          ++cheap_but_needs_table;
        game::solve(instances[k]);  // the process-wide store now holds n's table
        table_held.add(solve_microseconds(*cases[k], timing), estimate);
      } else {
        replay_only.add(solve_microseconds(*cases[k], timing), estimate);
      }
    }
    rows.push_back(std::move(replay_only));
    rows.push_back(std::move(table_held));
  }
  print_table("doublemove, random cases (40 per n, random k and patterns)", "n", rows);
  std::printf(
      "\nOf %zu random cases that need their table, %zu were estimated below half of their "
      "table's build estimate (must be 0).\n",
      needing_table, cheap_but_needs_table);
}

// --- What the answer cache pays per case before it can skip a solve: canonical() and the key.

void bench_keys(const Timing& timing) {
  std::printf("\n### The answer cache's per-case key: canonical() + io::case_key\n\n");
  std::printf(
      "| game | cases | canonical bytes (median) | canonical() µs | case_key µs | both µs | "
      "solve µs (median) |\n");
  std::printf("| :-- | :-- | --: | --: | --: | --: | --: |\n");
  struct Set {
    const char* what;
    io::GameOptions options;
  };
  io::WillowGenOptions tiny_willow;
  tiny_willow.cities = {2, 12};
  io::WallgameGenOptions tiny_wallgame;
  tiny_wallgame.height = {2, 6};
  tiny_wallgame.width = {1, 6};
  io::BoigameGenOptions tiny_boigame;
  tiny_boigame.size = {2, 6};
  io::DoublemoveGenOptions tiny_doublemove;
  tiny_doublemove.n = {1, 8};
  const std::vector<Set> sets = {
      {"gen defaults (2..50 cities)", io::WillowGenOptions{}},    {"2..12 cities", tiny_willow},
      {"gen defaults (n 1..20)", io::DoublemoveGenOptions{}},     {"n 1..8", tiny_doublemove},
      {"gen defaults (2..50 x 1..50)", io::WallgameGenOptions{}}, {"2..6 x 1..6", tiny_wallgame},
      {"gen defaults (n 2..12)", io::BoigameGenOptions{}},        {"n 2..6", tiny_boigame},
  };
  for (const Set& set : sets) {
    const std::string_view game = io::game_name(set.options);
    const io::Problem& problem = *io::find_problem(game);
    const Cases cases = generate_cases(set.options, 3, 200);
    std::vector<double> bytes;
    std::vector<std::string> texts;
    for (const auto& a_case : cases) {
      texts.push_back(a_case->canonical());
      bytes.push_back(static_cast<double>(texts.back().size()));
    }
    // Whole passes over the 200 cases, as the cache meets them: one canonical() and one key each.
    const auto per_case = [&](const auto& body) {
      std::vector<double> passes;
      for (int pass = 0; pass < std::max(timing.batches, 5); ++pass) {
        const auto start = Clock::now();
        for (std::size_t k = 0; k < cases.size(); ++k)
          body(k);
        passes.push_back(microseconds_since(start) / static_cast<double>(cases.size()));
      }
      return median(passes);
    };
    std::uint64_t key_bits = 0;
    const double canonical_us =
        per_case([&](std::size_t k) { g_answer_bytes += cases[k]->canonical().size(); });
    const double key_us = per_case([&](std::size_t k) {
      key_bits ^= io::case_key(game, problem.solver_version(), texts[k]).low;
    });
    const double both_us = per_case([&](std::size_t k) {
      const std::string text = cases[k]->canonical();
      key_bits ^= io::case_key(game, problem.solver_version(), text).low;
    });
    g_answer_bytes += static_cast<std::size_t>(key_bits & 1);
    std::vector<double> solves;
    for (std::size_t k = 0; k < cases.size(); k += 10)
      solves.push_back(solve_microseconds(*cases[k], {timing.batch_us / 4, 3}));
    std::printf("| %.*s | %s | %s | %s | %s | %s | %s |\n", static_cast<int>(game.size()),
                game.data(), set.what, number(median(bytes)).c_str(), number(canonical_us).c_str(),
                number(key_us).c_str(), number(both_us).c_str(), number(median(solves)).c_str());
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Measures solve() of generated cases of every size on one core against the cases' own "
      "estimates (io::Case::estimated_solve_microseconds), and the answer cache's per-case key "
      "cost. Markdown on stdout.",
      "solve_cost_bench"};
  std::string game = "all";
  bool quick = false;
  Timing timing;
  int max_doublemove_n = 55;
  int first_case_of = 0;
  app.add_option("--game", game, "one game, or all")
      ->check(CLI::IsMember({"all", "willow", "doublemove", "wallgame", "boigame", "keys"}))
      ->capture_default_str();
  app.add_flag("--quick", quick, "leave out the largest size of each game");
  app.add_option("--batch-us", timing.batch_us, "target length of one batch of repetitions")
      ->check(CLI::Range(10.0, 1e6))
      ->capture_default_str();
  app.add_option("--batches", timing.batches, "batches per case (the median is taken)")
      ->check(CLI::Range(1, 101))
      ->capture_default_str();
  app.add_option("--max-doublemove-n", max_doublemove_n,
                 "largest n whose table build is timed (n = 55 takes about 2 s, 60 about 5 s)")
      ->check(CLI::Range(1, gamebatch::doublemove::kMaxN))
      ->capture_default_str();
  app.add_option("--first-case-of-n", first_case_of,
                 "(internal) time the first doublemove case of this n in this process")
      ->check(CLI::Range(1, gamebatch::doublemove::kMaxN))
      ->group("");
  CLI11_PARSE(app, argc, argv);

  const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  if (first_case_of > 0)
    return first_case_of_n(first_case_of);

  std::printf("## solve() on one core against Case::estimated_solve_microseconds()\n");
  std::printf("\nbatch %.0f µs, %d batches per case, median taken\n", timing.batch_us,
              timing.batches);
  if (game == "all" || game == "keys")
    bench_keys(timing);
  if (game == "all" || game == "willow")
    bench_willow(timing, quick);
  if (game == "all" || game == "wallgame")
    bench_wallgame(timing, quick);
  if (game == "all" || game == "boigame")
    bench_boigame(timing, quick);
  if (game == "all" || game == "doublemove")
    bench_doublemove(timing, max_doublemove_n);
  return g_answer_bytes == 0 ? 1 : 0;
}
