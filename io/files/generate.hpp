// Reproducible input sets (`gamebatch gen`): random cases of one game written as numbered input
// files in the game's official format. File k's bytes depend only on the game's options, the seed,
// k and the cases per file (not on the number of files, the thread count or the order of work),
// so a set can be regenerated or extended byte for byte, and its files made in parallel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/boigame/generators.hpp"
#include "core/doublemove/generators.hpp"
#include "core/stop_request.hpp"
#include "core/wallgame/generators.hpp"
#include "core/willow/generators.hpp"
#include "io/format/official_limits.hpp"

namespace gamebatch::io {

// An inclusive range of integers, written "A..B" or "A" (A..A) on the command line.
struct IntRange {
  std::int64_t min = 0;
  std::int64_t max = 0;
  friend bool operator==(const IntRange&, const IntRange&) = default;
};

// "A..B", or "A" when A == B.
std::string to_string(const IntRange& range);

// Parses "A" or "A..B" (decimal integers, nothing else). nullopt for anything else; whether the
// numbers are sensible (A <= B, limits) is for check_generate_options.
std::optional<IntRange> parse_int_range(std::string_view text);

// The value of `all` whose name (the game's to_string, found by argument-dependent lookup) is
// `name`, or nullopt.
template <typename Enum, std::size_t Count>
std::optional<Enum> enum_named(std::string_view name, const Enum (&all)[Count]) {
  for (const Enum value : all) {
    if (to_string(value) == name)
      return value;
  }
  return std::nullopt;
}

// The names of `all` joined by '|', for messages and help texts.
template <typename Enum, std::size_t Count>
std::string enum_names(const Enum (&all)[Count]) {
  std::string names;
  for (const Enum value : all) {
    if (!names.empty())
      names += '|';
    names += to_string(value);
  }
  return names;
}

// The options of each game; the defaults are gen's. An empty optional is the command line's
// "mixed": a new random choice for every case. (Core names are spelled gamebatch::GAME:: because
// io::GAME is the namespace of the game's text format.)
struct WillowGenOptions {
  IntRange cities{2, 50};
  std::optional<gamebatch::willow::TreeShape> shape;  // mixed by default
  gamebatch::willow::CoinPattern coins = gamebatch::willow::CoinPattern::mixed;
  gamebatch::willow::Coins max_coin = 10000;
};

struct DoublemoveGenOptions {
  IntRange n{1, 20};
  // The number k of given declarations, clamped to n + 1 for each case; nullopt: drawn by
  // gamebatch::doublemove::random_declaration_count (0 and n + 1 a quarter of the time each).
  std::optional<IntRange> declarations;
  gamebatch::doublemove::DeclarationPattern pattern =
      gamebatch::doublemove::DeclarationPattern::mixed;
};

struct WallgameGenOptions {
  IntRange height{2, 50};
  IntRange width{1, 50};
  std::optional<gamebatch::wallgame::CostPattern> costs =
      gamebatch::wallgame::CostPattern::uniform;  // nullopt: mixed
  // Every cost drawn uniformly from this range of digits; when set, `costs` is not used.
  std::optional<IntRange> digits;
};

struct BoigameGenOptions {
  IntRange size{2, 12};
  std::optional<gamebatch::boigame::BoardShape> shape;  // mixed by default
  // Percent of black squares (generate_random_board); when set, `shape` is not used.
  std::optional<std::int32_t> density;
  std::optional<gamebatch::boigame::Placement> placement;  // mixed by default
};

// Which game, with its options.
using GameOptions =
    std::variant<WillowGenOptions, DoublemoveGenOptions, WallgameGenOptions, BoigameGenOptions>;

// The registry name of the game (io::find_problem), used in file names.
std::string_view game_name(const GameOptions& game);

// The default options of the game called `name`, or nullopt for a game gen cannot generate.
std::optional<GameOptions> default_game_options(std::string_view name);

// Narrows the game's options to `limits` (a group's: n <= 10 makes gen draw n from 1..10 at most),
// for files of one case (stress). Returns what makes that impossible ("group small's n = 40..50 and
// gen's --n 1..20 have nothing in common"), or an empty string. Limits gen cannot aim at (a
// willow coin's least value) are left to the caller to check on each case.
std::string narrow_to_limits(GameOptions& game, const std::vector<NarrowLimit>& limits);

// Sets the range gen draws the statement's parameter `parameter` from to min..max (willow N, and
// C as the largest coin; doublemove n and k; wallgame h and w; boigame n): what `gamebatch
// strength` aims its cases with. False for a parameter gen draws no value of.
bool set_parameter_range(GameOptions& game, std::string_view parameter, std::int64_t min,
                         std::int64_t max);

// Makes gen draw only cases of `shape` (io::Problem::shapes' names: willow's --shape values and
// "coins all_zero", "coins all_equal"; doublemove's --pattern; wallgame's --costs; boigame's
// --shape). False for a name the game's gen does not know.
bool set_shape(GameOptions& game, std::string_view shape);

// Limits of what gen makes, besides each format's own. Each file's text is built in memory, and
// generate_input_set returns every path.
inline constexpr std::int64_t kMaxGeneratedFiles = 10'000'000;
inline constexpr std::int64_t kMaxCasesPerFile = 10'000'000;
inline constexpr std::int64_t kMaxGeneratedCities = 100'000'000;
// The willow parser's limit.
inline constexpr gamebatch::willow::Coins kMaxGeneratedCoin = 1'000'000'000;

struct GenerateOptions {
  GameOptions game;
  std::uint64_t seed = 1;
  std::int64_t file_count = 1;
  std::int64_t cases_per_file = 1;
  std::filesystem::path out_dir;
};

// What is wrong with the options, named by gen's command-line option ("--cities: expected ..."),
// or an empty string when they are fine.
std::string check_generate_options(const GenerateOptions& options);

// The seed of file `file_number`'s generator: a splitmix64 mix of (seed, file_number), so that
// neighbouring seeds and files get unrelated streams.
std::uint64_t file_seed(std::uint64_t seed, std::uint64_t file_number);

// The text of input file `file_number` (1-based): `cases_per_file` cases in the game's official
// format, drawn from std::mt19937_64(file_seed(seed, file_number)). Throws std::invalid_argument
// for options that check_generate_options rejects.
std::string generate_file_text(const GameOptions& game, std::uint64_t seed,
                               std::uint64_t file_number, std::int64_t cases_per_file);

// "GAME-000042.in": the number zero-padded to 6 digits, or to the digits of file_count when more.
std::string generated_file_name(std::string_view game, std::uint64_t file_number,
                                std::uint64_t file_count);

// A generated file could not be written (or the directory not made); what() names the file.
class GenerateWriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A stop was requested (core/stop_request.hpp) before every file was written; the files written
// are whole, the others were not started or their temporaries removed.
class GenerateInterrupted : public StopRequested {
 public:
  explicit GenerateInterrupted(std::size_t files_finished) : files_finished_(files_finished) {}
  std::size_t files_finished() const { return files_finished_; }

 private:
  std::size_t files_finished_;
};

// What generate_input_set did.
struct GeneratedSet {
  std::vector<std::filesystem::path> paths;  // in file order
  std::size_t unchanged = 0;  // files that held their bytes already, left as they were
};

// Creates out_dir and writes files 1..file_count into it, each whole (write_file_atomically), in
// parallel on the current oneTBB arena; files of the same names are replaced unless they hold
// the same bytes already (then they are left as they are), nothing else in out_dir is touched.
// Returns the paths and how many were left as they were. Throws std::invalid_argument for bad
// options (before writing anything), GenerateWriteError when a file cannot be written, and
// GenerateInterrupted when a stop was requested first.
GeneratedSet generate_input_set(const GenerateOptions& options);

}  // namespace gamebatch::io
