#include "io/files/generate.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <system_error>
#include <variant>
#include <vector>

#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/task_arena.h>

#include "core/random.hpp"
#include "io/boigame/format.hpp"
#include "io/doublemove/format.hpp"
#include "io/files/atomic_file.hpp"
#include "io/wallgame/format.hpp"
#include "io/willow/format.hpp"

namespace gamebatch::io {

namespace fs = std::filesystem;

namespace {

// In the order of GameOptions' alternatives; the registry's names.
constexpr std::string_view kGameNames[] = {"willow", "doublemove", "wallgame", "boigame"};
static_assert(std::size(kGameNames) == std::variant_size_v<GameOptions>);

// "" when low <= range.min <= range.max <= high, else the message for `option`.
std::string check_range(std::string_view option, const IntRange& range, std::int64_t low,
                        std::int64_t high, std::string_view note = "") {
  if (range.min <= range.max && range.min >= low && range.max <= high)
    return "";
  std::string message(option);
  message += ": expected A..B (or A) with " + std::to_string(low) +
             " <= A <= B <= " + std::to_string(high);
  message += note;
  message += ", got " + to_string(range);
  return message;
}

std::string check_value(std::string_view option, std::int64_t value, std::int64_t low,
                        std::int64_t high) {
  if (value >= low && value <= high)
    return "";
  std::string message(option);
  message += ": expected a value from " + std::to_string(low) + " to " + std::to_string(high) +
             ", got " + std::to_string(value);
  return message;
}

// The first non-empty message, or "".
template <typename... Messages>
std::string first_problem(const Messages&... messages) {
  std::string found;
  ((found.empty() ? (void)(found = messages) : void()), ...);
  return found;
}

std::string check_game(const WillowGenOptions& options) {
  return first_problem(check_range("--cities", options.cities, 1, kMaxGeneratedCities),
                       check_value("--max-coin", options.max_coin, 0, kMaxGeneratedCoin));
}

std::string check_game(const DoublemoveGenOptions& options) {
  const std::string n_problem = check_range("--n", options.n, 1, gamebatch::doublemove::kMaxN);
  if (!n_problem.empty() || !options.declarations)
    return n_problem;
  // A k above n + 1 of a small n is clamped, but no n of the range may take the whole range.
  return check_range("--k", *options.declarations, 0, options.n.max + 1,
                     " (n + 1 for the largest n of --n)");
}

std::string check_game(const WallgameGenOptions& options) {
  return first_problem(
      check_range("--height", options.height, io::wallgame::kMinHeight, io::wallgame::kMaxHeight),
      check_range("--width", options.width, io::wallgame::kMinWidth, io::wallgame::kMaxWidth),
      options.digits ? check_range("--digits", *options.digits, 0, 9) : "");
}

std::string check_game(const BoigameGenOptions& options) {
  return first_problem(check_range("--size", options.size, 2, gamebatch::boigame::kMaxBoardSize),
                       options.density ? check_value("--density", *options.density, 0, 100) : "");
}

std::string check_game_options(const GameOptions& game) {
  return std::visit([](const auto& options) { return check_game(options); }, game);
}

std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

std::int64_t draw_in(std::mt19937_64& rng, const IntRange& range) {
  const auto span = static_cast<std::uint64_t>(range.max - range.min) + 1;
  return range.min + static_cast<std::int64_t>(uniform_below(rng, span));
}

template <typename Enum, std::size_t Count>
Enum draw_one_of(std::mt19937_64& rng, const Enum (&all)[Count]) {
  return all[uniform_below(rng, Count)];
}

// Each case draws its choices in the order written here; changing it changes every file (the
// pinned files in tests/files/gen_test.cpp say so).
std::string file_text(const WillowGenOptions& options, std::int64_t cases, std::mt19937_64& rng) {
  std::vector<gamebatch::willow::Instance> instances;
  instances.reserve(static_cast<std::size_t>(cases));
  for (std::int64_t index = 0; index < cases; ++index) {
    const gamebatch::willow::TreeShape shape =
        options.shape ? *options.shape : draw_one_of(rng, gamebatch::willow::kAllShapes);
    const auto cities = static_cast<std::int32_t>(draw_in(rng, options.cities));
    instances.push_back(gamebatch::willow::to_official_labels(
        gamebatch::willow::generate_instance(shape, cities, options.coins, options.max_coin, rng)));
  }
  return io::willow::format_file(instances);
}

std::string file_text(const DoublemoveGenOptions& options, std::int64_t cases,
                      std::mt19937_64& rng) {
  std::vector<gamebatch::doublemove::Instance> instances;
  instances.reserve(static_cast<std::size_t>(cases));
  for (std::int64_t index = 0; index < cases; ++index) {
    const auto n = static_cast<int>(draw_in(rng, options.n));
    int declared = 0;
    if (options.declarations) {
      const std::int64_t most = n + 1;
      declared = static_cast<int>(draw_in(rng, {std::min(options.declarations->min, most),
                                                std::min(options.declarations->max, most)}));
    } else {
      declared = gamebatch::doublemove::random_declaration_count(n, rng);
    }
    instances.push_back(
        gamebatch::doublemove::generate_instance(n, declared, options.pattern, rng));
  }
  return io::doublemove::format_file(instances);
}

std::string file_text(const WallgameGenOptions& options, std::int64_t cases, std::mt19937_64& rng) {
  const gamebatch::wallgame::SizeRange sizes{
      static_cast<std::int32_t>(options.height.min), static_cast<std::int32_t>(options.height.max),
      static_cast<std::int32_t>(options.width.min), static_cast<std::int32_t>(options.width.max)};
  std::vector<gamebatch::wallgame::Board> boards;
  boards.reserve(static_cast<std::size_t>(cases));
  for (std::int64_t index = 0; index < cases; ++index) {
    if (options.digits) {
      gamebatch::wallgame::Board board;
      board.height = static_cast<std::int32_t>(draw_in(rng, options.height));
      board.width = static_cast<std::int32_t>(draw_in(rng, options.width));
      board.costs.resize(static_cast<std::size_t>(board.height) *
                         static_cast<std::size_t>(board.width));
      for (std::uint8_t& cost : board.costs)
        cost = static_cast<std::uint8_t>(draw_in(rng, *options.digits));
      boards.push_back(std::move(board));
      continue;
    }
    const gamebatch::wallgame::CostPattern costs =
        options.costs ? *options.costs : draw_one_of(rng, gamebatch::wallgame::kAllCostPatterns);
    boards.push_back(gamebatch::wallgame::generate_board(sizes, costs, rng));
  }
  return io::wallgame::format_file(boards);
}

std::string file_text(const BoigameGenOptions& options, std::int64_t cases, std::mt19937_64& rng) {
  std::vector<gamebatch::boigame::Board> boards;
  boards.reserve(static_cast<std::size_t>(cases));
  for (std::int64_t index = 0; index < cases; ++index) {
    const auto n = static_cast<std::int32_t>(draw_in(rng, options.size));
    const gamebatch::boigame::Placement placement =
        options.placement ? *options.placement
                          : draw_one_of(rng, gamebatch::boigame::kAllPlacements);
    if (options.density) {
      boards.push_back(
          gamebatch::boigame::generate_random_board(n, *options.density, placement, rng));
    } else {
      const gamebatch::boigame::BoardShape shape =
          options.shape ? *options.shape : draw_one_of(rng, gamebatch::boigame::kAllShapes);
      boards.push_back(gamebatch::boigame::generate_board(shape, n, placement, rng));
    }
  }
  return io::boigame::format_file(boards);
}

// The names in `directory` now (none if it cannot be read).
NamesOnDisk names_in(const fs::path& directory) {
  NamesOnDisk names;
  std::error_code error;
  for (fs::directory_iterator entry(directory, error), end; !error && entry != end;
       entry.increment(error)) {
    names.add(directory, entry->path().filename().native());
  }
  names.seal();
  return names;
}

// Writes file k's text (made by generate_file_text) to paths[k], for every k, unless the file
// holds it already. Texts are made and compared in parallel, one file per task (sizes are drawn,
// so files differ widely in cost); files are created by kDefaultFileWriters threads at most
// (io/files/atomic_file.hpp says why); the limiter keeps the texts made but not yet written to a
// few per thread. The first file (in file order) that could not be written is thrown as
// GenerateWriteError once no write is under way. A stop request (core/stop_request.hpp) ends it
// early: no file is made after it, and GenerateInterrupted says how many were finished. Returns
// the number of files that held their text already.
std::size_t write_generated_files(const GenerateOptions& options,
                                  const std::vector<fs::path>& paths) {
  namespace flow = tbb::flow;
  struct MadeFile {
    std::size_t index = 0;
    std::shared_ptr<const std::string> text;  // shared: flow graph messages are copied; null:
                                              // the file holds it already, or `skipped`
    bool skipped = false;                     // not made: a stop was requested
  };
  std::atomic<std::size_t> finished{0};   // files written, or found holding their text
  std::atomic<std::size_t> unchanged{0};  // found holding their text
  const NamesOnDisk names_on_disk = names_in(options.out_dir);
  std::mutex failure_mutex;
  std::optional<std::size_t> failed_index;
  std::string failure;

  flow::graph graph;
  std::size_t next_file = 0;
  std::atomic<bool> stop{false};
  flow::input_node<std::size_t> numbers(graph, [&](tbb::flow_control& control) {
    if (next_file == paths.size() || stop.load(std::memory_order_relaxed) || stop_requested()) {
      control.stop();
      return std::size_t{0};
    }
    return next_file++;
  });
  const auto threads = static_cast<std::size_t>(tbb::this_task_arena::max_concurrency());
  flow::limiter_node<std::size_t> limiter(graph, 4 * threads + 4);
  flow::function_node<std::size_t, MadeFile> maker(graph, flow::unlimited, [&](std::size_t index) {
    if (stop_requested())
      return MadeFile{index, nullptr, true};
    auto text = std::make_shared<const std::string>(
        generate_file_text(options.game, options.seed, index + 1, options.cases_per_file));
    if (names_on_disk.may_hold(paths[index]) && file_holds(paths[index], *text))
      text.reset();
    return MadeFile{index, std::move(text)};
  });
  flow::function_node<MadeFile, flow::continue_msg> writer(
      graph, kDefaultFileWriters, [&](const MadeFile& made) {
        if (made.skipped)
          return flow::continue_msg();
        if (!made.text) {
          finished.fetch_add(1, std::memory_order_relaxed);
          unchanged.fetch_add(1, std::memory_order_relaxed);
          return flow::continue_msg();
        }
        try {
          write_file_atomically(paths[made.index], *made.text);
          finished.fetch_add(1, std::memory_order_relaxed);
        } catch (const std::system_error& write_error) {
          stop = true;
          const std::lock_guard lock(failure_mutex);
          if (!failed_index || made.index < *failed_index) {
            failed_index = made.index;
            failure =
                "cannot write " + paths[made.index].string() + ": " + write_error.code().message();
          }
        }
        return flow::continue_msg();
      });
  flow::make_edge(numbers, limiter);
  flow::make_edge(limiter, maker);
  flow::make_edge(maker, writer);
  flow::make_edge(writer, limiter.decrementer());
  numbers.activate();
  graph.wait_for_all();
  if (failed_index)
    throw GenerateWriteError(failure);
  if (finished.load() != paths.size() && stop_requested())
    throw GenerateInterrupted(finished.load());
  return unchanged.load();
}

}  // namespace

std::string to_string(const IntRange& range) {
  if (range.min == range.max)
    return std::to_string(range.min);
  return std::to_string(range.min) + ".." + std::to_string(range.max);
}

std::optional<IntRange> parse_int_range(std::string_view text) {
  const auto parse_number = [](std::string_view part) -> std::optional<std::int64_t> {
    std::int64_t value = 0;
    const char* end = part.data() + part.size();
    const auto [stop, error] = std::from_chars(part.data(), end, value);
    if (part.empty() || error != std::errc() || stop != end)
      return std::nullopt;
    return value;
  };
  const std::size_t dots = text.find("..");
  const std::optional<std::int64_t> first = parse_number(text.substr(0, dots));
  const std::optional<std::int64_t> second =
      dots == std::string_view::npos ? first : parse_number(text.substr(dots + 2));
  if (!first || !second)
    return std::nullopt;
  return IntRange{*first, *second};
}

std::string_view game_name(const GameOptions& game) {
  return kGameNames[game.index()];
}

std::optional<GameOptions> default_game_options(std::string_view name) {
  if (name == game_name(WillowGenOptions{}))
    return WillowGenOptions{};
  if (name == game_name(DoublemoveGenOptions{}))
    return DoublemoveGenOptions{};
  if (name == game_name(WallgameGenOptions{}))
    return WallgameGenOptions{};
  if (name == game_name(BoigameGenOptions{}))
    return BoigameGenOptions{};
  return std::nullopt;
}

namespace {

// `range` narrowed to [limit.min, limit.max]; what is wrong when nothing is left.
std::string narrow_range(IntRange& range, const NarrowLimit& limit, std::string_view option) {
  const IntRange narrowed{std::max(range.min, limit.min), std::min(range.max, limit.max)};
  if (narrowed.min > narrowed.max)
    return limit.owner + "'s " + limit.parameter + " = " + std::to_string(limit.min) + ".." +
           std::to_string(limit.max) + " and " + std::string(option) + " " + to_string(range) +
           " have nothing in common";
  range = narrowed;
  return "";
}

}  // namespace

std::string narrow_to_limits(GameOptions& game, const std::vector<NarrowLimit>& limits) {
  for (const NarrowLimit& limit : limits) {
    std::string problem;
    if (limit.parameter == "T" || limit.parameter == "t") {
      if (limit.min > 1 || limit.max < 1)
        problem = limit.owner + " requires " + limit.parameter + " = " + std::to_string(limit.min) +
                  ".." + std::to_string(limit.max) +
                  " cases per file, and stress gives one case at a time";
    } else if (auto* willow = std::get_if<WillowGenOptions>(&game)) {
      if (limit.parameter == "N")
        problem = narrow_range(willow->cities, limit, "--cities");
      else if (limit.parameter == "C")
        willow->max_coin = std::min(willow->max_coin, limit.max);
    } else if (auto* doublemove = std::get_if<DoublemoveGenOptions>(&game)) {
      if (limit.parameter == "n") {
        problem = narrow_range(doublemove->n, limit, "--n");
      } else if (limit.parameter == "k") {
        IntRange k = doublemove->declarations.value_or(IntRange{0, doublemove->n.max + 1});
        problem = narrow_range(k, limit, "--k");
        doublemove->declarations = k;
      }
    } else if (auto* wallgame = std::get_if<WallgameGenOptions>(&game)) {
      if (limit.parameter == "h")
        problem = narrow_range(wallgame->height, limit, "--height");
      else if (limit.parameter == "w")
        problem = narrow_range(wallgame->width, limit, "--width");
    } else if (auto* boigame = std::get_if<BoigameGenOptions>(&game)) {
      if (limit.parameter == "n")
        problem = narrow_range(boigame->size, limit, "--size");
    }
    if (!problem.empty())
      return problem;
  }
  return "";
}

bool set_parameter_range(GameOptions& game, std::string_view parameter, std::int64_t min,
                         std::int64_t max) {
  const IntRange range{min, max};
  if (auto* willow = std::get_if<WillowGenOptions>(&game)) {
    if (parameter == "N")
      willow->cities = range;
    else if (parameter == "C")
      willow->max_coin = max;
    else
      return false;
  } else if (auto* doublemove = std::get_if<DoublemoveGenOptions>(&game)) {
    if (parameter == "n")
      doublemove->n = range;
    else if (parameter == "k")
      doublemove->declarations = range;
    else
      return false;
  } else if (auto* wallgame = std::get_if<WallgameGenOptions>(&game)) {
    if (parameter == "h")
      wallgame->height = range;
    else if (parameter == "w")
      wallgame->width = range;
    else
      return false;
  } else if (auto* boigame = std::get_if<BoigameGenOptions>(&game)) {
    if (parameter != "n")
      return false;
    boigame->size = range;
  }
  return true;
}

namespace {

// The value of an enum named `name` among `all`, if any.
template <typename Enum, std::size_t N>
std::optional<Enum> named(const Enum (&all)[N], std::string_view name) {
  for (const Enum value : all) {
    if (to_string(value) == name)
      return value;
  }
  return std::nullopt;
}

}  // namespace

bool set_shape(GameOptions& game, std::string_view shape) {
  if (auto* willow = std::get_if<WillowGenOptions>(&game)) {
    if (shape.starts_with("coins ")) {
      const auto coins = named(gamebatch::willow::kAllCoinPatterns, shape.substr(6));
      if (coins)
        willow->coins = *coins;
      return coins.has_value();
    }
    const auto tree = named(gamebatch::willow::kAllShapes, shape);
    if (tree)
      willow->shape = *tree;
    return tree.has_value();
  }
  if (auto* doublemove = std::get_if<DoublemoveGenOptions>(&game)) {
    const auto pattern = named(gamebatch::doublemove::kAllPatterns, shape);
    if (pattern)
      doublemove->pattern = *pattern;
    return pattern.has_value();
  }
  if (auto* wallgame = std::get_if<WallgameGenOptions>(&game)) {
    const auto costs = named(gamebatch::wallgame::kAllCostPatterns, shape);
    if (costs) {
      wallgame->costs = *costs;
      wallgame->digits.reset();
    }
    return costs.has_value();
  }
  auto& boigame = std::get<BoigameGenOptions>(game);
  const auto board = named(gamebatch::boigame::kAllShapes, shape);
  if (board) {
    boigame.shape = *board;
    boigame.density.reset();
  }
  return board.has_value();
}

std::string check_generate_options(const GenerateOptions& options) {
  return first_problem(check_value("--count", options.file_count, 1, kMaxGeneratedFiles),
                       check_value("--cases-per-file", options.cases_per_file, 1, kMaxCasesPerFile),
                       options.out_dir.empty() ? "--out: the directory name must not be empty" : "",
                       check_game_options(options.game));
}

std::uint64_t file_seed(std::uint64_t seed, std::uint64_t file_number) {
  // Output number `file_number` of a splitmix64 stream started at the mixed seed.
  constexpr std::uint64_t kGoldenGamma = 0x9e3779b97f4a7c15u;
  return splitmix64_mix(splitmix64_mix(seed) + file_number * kGoldenGamma);
}

std::string generate_file_text(const GameOptions& game, std::uint64_t seed,
                               std::uint64_t file_number, std::int64_t cases_per_file) {
  const std::string problem =
      first_problem(check_value("--cases-per-file", cases_per_file, 1, kMaxCasesPerFile),
                    check_game_options(game));
  if (!problem.empty())
    throw std::invalid_argument(problem);
  std::mt19937_64 rng(file_seed(seed, file_number));
  return std::visit([&](const auto& options) { return file_text(options, cases_per_file, rng); },
                    game);
}

std::string generated_file_name(std::string_view game, std::uint64_t file_number,
                                std::uint64_t file_count) {
  std::string number = std::to_string(file_number);
  const std::size_t width = std::max<std::size_t>(6, std::to_string(file_count).size());
  if (number.size() < width)
    number.insert(0, width - number.size(), '0');
  return std::string(game) + "-" + number + ".in";
}

GeneratedSet generate_input_set(const GenerateOptions& options) {
  const std::string problem = check_generate_options(options);
  if (!problem.empty())
    throw std::invalid_argument(problem);
  std::error_code error;
  fs::create_directories(options.out_dir, error);
  if (error) {
    throw GenerateWriteError("cannot create the directory " + options.out_dir.string() + ": " +
                             error.message());
  }
  const auto file_count = static_cast<std::uint64_t>(options.file_count);
  GeneratedSet set;
  set.paths.reserve(file_count);
  for (std::uint64_t number = 1; number <= file_count; ++number) {
    set.paths.push_back(options.out_dir /
                        generated_file_name(game_name(options.game), number, file_count));
  }
  set.unchanged = write_generated_files(options, set.paths);
  return set;
}

}  // namespace gamebatch::io
