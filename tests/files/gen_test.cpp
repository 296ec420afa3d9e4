// `gamebatch gen`'s library part: generated files parse as their game's inputs, hold the cases
// asked for, keep every option's range, and are the same bytes for the same options whatever the
// number of files or threads.
#include "io/files/generate.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <oneapi/tbb/global_control.h>

#include "io/boigame/format.hpp"
#include "io/doublemove/format.hpp"
#include "io/problem.hpp"
#include "io/wallgame/format.hpp"
#include "io/willow/format.hpp"
#include "tests/test_data.hpp"

namespace gamebatch::io {
namespace {

using gamebatch::testing::read_text;
using gamebatch::testing::write_text;
namespace fs = std::filesystem;

const GameOptions kEveryGame[] = {WillowGenOptions{}, DoublemoveGenOptions{}, WallgameGenOptions{},
                                  BoigameGenOptions{}};

GenerateOptions set_options(const GameOptions& game, const fs::path& out_dir,
                            std::int64_t file_count, std::int64_t cases_per_file,
                            std::uint64_t seed = 1) {
  GenerateOptions options;
  options.game = game;
  options.seed = seed;
  options.file_count = file_count;
  options.cases_per_file = cases_per_file;
  options.out_dir = out_dir;
  return options;
}

std::vector<std::string> contents(const std::vector<fs::path>& paths) {
  std::vector<std::string> texts;
  for (const fs::path& path : paths)
    texts.push_back(read_text(path));
  return texts;
}

std::set<std::string> names_in(const fs::path& directory) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory))
    names.insert(entry.path().filename().string());
  return names;
}

// Files 1..files (seed 5) of `cases` cases each, parsed back by the format's own parse_file.
template <typename Parse>
auto parsed_cases(const GameOptions& game, std::int64_t files, std::int64_t cases, Parse parse) {
  decltype(parse(std::string())) all;
  for (std::int64_t file = 1; file <= files; ++file) {
    const auto some = parse(generate_file_text(game, 5, static_cast<std::uint64_t>(file), cases));
    EXPECT_EQ(static_cast<std::int64_t>(some.size()), cases);
    all.insert(all.end(), some.begin(), some.end());
  }
  return all;
}

class GenerateInputSetTest : public ::testing::Test {
 protected:
  gamebatch::testing::TestDirectory scratch_{"gamebatch_gen"};
  const fs::path dir_ = scratch_.path();
};

TEST_F(GenerateInputSetTest, EveryGameWritesCountFilesOfKCasesThatItsParserAccepts) {
  for (const GameOptions& game : kEveryGame) {
    const std::string name(game_name(game));
    SCOPED_TRACE(name);
    const Problem* problem = find_problem(name);
    ASSERT_NE(problem, nullptr);
    const std::vector<fs::path> paths =
        generate_input_set(set_options(game, dir_ / name, /*file_count=*/3, /*cases=*/4)).paths;
    ASSERT_EQ(paths.size(), 3u);
    for (std::size_t index = 0; index < paths.size(); ++index) {
      EXPECT_EQ(paths[index], dir_ / name / (name + "-00000" + std::to_string(index + 1) + ".in"));
      EXPECT_EQ(problem->parse(read_text(paths[index])).size(), 4u);
    }
    // Nothing else, no temporary file left behind.
    EXPECT_EQ(names_in(dir_ / name).size(), 3u);
  }
}

TEST(GeneratedFileName, IsPaddedToSixDigitsOrToTheDigitsOfTheCount) {
  EXPECT_EQ(generated_file_name("willow", 1, 1), "willow-000001.in");
  EXPECT_EQ(generated_file_name("boigame", 42, 999'999), "boigame-000042.in");
  EXPECT_EQ(generated_file_name("wallgame", 42, 1'000'000), "wallgame-0000042.in");
  EXPECT_EQ(generated_file_name("doublemove", 12'345'678, 12'345'678), "doublemove-12345678.in");
}

TEST_F(GenerateInputSetTest, SameOptionsGiveTheSameBytesWhateverTheThreadCount) {
  for (const GameOptions& game : kEveryGame) {
    const std::string name(game_name(game));
    SCOPED_TRACE(name);
    std::vector<fs::path> one_thread;
    {
      tbb::global_control thread_limit(tbb::global_control::max_allowed_parallelism, 1);
      one_thread = generate_input_set(set_options(game, dir_ / "one" / name, 6, 3)).paths;
    }
    const std::vector<fs::path> all_threads =
        generate_input_set(set_options(game, dir_ / "all" / name, 6, 3)).paths;
    EXPECT_EQ(contents(one_thread), contents(all_threads));
  }
}

TEST_F(GenerateInputSetTest, FileKIsTheSameWhateverTheCount) {
  for (const GameOptions& game : kEveryGame) {
    SCOPED_TRACE(game_name(game));
    const std::vector<std::string> two =
        contents(generate_input_set(set_options(game, dir_, 2, 3)).paths);
    const std::vector<std::string> five =
        contents(generate_input_set(set_options(game, dir_ / "five", 5, 3)).paths);
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(two[0], five[0]);
    EXPECT_EQ(two[1], five[1]);
    EXPECT_EQ(two[1], generate_file_text(game, 1, 2, 3));
  }
}

TEST(GenerateFileText, AnotherSeedOrFileGivesOtherBytes) {
  for (const GameOptions& game : kEveryGame) {
    SCOPED_TRACE(game_name(game));
    const std::string first = generate_file_text(game, 1, 1, 5);
    EXPECT_NE(first, generate_file_text(game, 2, 1, 5));
    EXPECT_NE(first, generate_file_text(game, 1, 2, 5));
  }
}

TEST_F(GenerateInputSetTest, ReplacesFilesOfItsNamesAndLeavesTheRestAlone) {
  write_text(dir_ / "willow-000001.in", "old\n");
  write_text(dir_ / "willow-000003.in", "not ours this time\n");
  write_text(dir_ / "notes.txt", "keep\n");
  generate_input_set(set_options(WillowGenOptions{}, dir_, 2, 1));
  EXPECT_EQ(read_text(dir_ / "willow-000001.in"), generate_file_text(WillowGenOptions{}, 1, 1, 1));
  EXPECT_EQ(read_text(dir_ / "willow-000003.in"), "not ours this time\n");
  EXPECT_EQ(read_text(dir_ / "notes.txt"), "keep\n");
  EXPECT_EQ(names_in(dir_), (std::set<std::string>{"notes.txt", "willow-000001.in",
                                                   "willow-000002.in", "willow-000003.in"}));
}

TEST_F(GenerateInputSetTest, FilesThatHoldTheirBytesAlreadyAreLeftAsTheyAre) {
  const auto options = set_options(WillowGenOptions{}, dir_, 3, 2);
  EXPECT_EQ(generate_input_set(options).unchanged, 0u);
  const auto stamp = [&](const char* name) {
    struct stat status {};
    EXPECT_EQ(::stat((dir_ / name).c_str(), &status), 0) << name;
    return std::pair(status.st_ino, status.st_mtim.tv_nsec + status.st_mtim.tv_sec * 1'000'000'000);
  };
  const auto first = stamp("willow-000001.in");
  const auto third = stamp("willow-000003.in");
  write_text(dir_ / "willow-000002.in", "edited by hand\n");
  EXPECT_EQ(generate_input_set(options).unchanged, 2u);  // the first and the third
  EXPECT_EQ(stamp("willow-000001.in"), first);           // not written again
  EXPECT_EQ(stamp("willow-000003.in"), third);
  EXPECT_EQ(read_text(dir_ / "willow-000002.in"), generate_file_text(WillowGenOptions{}, 1, 2, 2));
  EXPECT_EQ(names_in(dir_),
            (std::set<std::string>{"willow-000001.in", "willow-000002.in", "willow-000003.in"}));
}

TEST_F(GenerateInputSetTest, CreatesMissingDirectories) {
  const fs::path deep = dir_ / "a" / "b" / "c";
  const std::vector<fs::path> paths =
      generate_input_set(set_options(BoigameGenOptions{}, deep, 1, 1)).paths;
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_TRUE(fs::is_regular_file(deep / "boigame-000001.in"));
}

TEST_F(GenerateInputSetTest, AFileThatCannotBeWrittenIsNamed) {
  // A non-empty directory in the way: the rename fails, also for root.
  write_text(dir_ / "wallgame-000002.in" / "blocker", "x");
  try {
    generate_input_set(set_options(WallgameGenOptions{}, dir_, 3, 1));
    FAIL() << "expected GenerateWriteError";
  } catch (const GenerateWriteError& error) {
    EXPECT_NE(std::string(error.what()).find("wallgame-000002.in"), std::string::npos)
        << error.what();
  }
}

TEST_F(GenerateInputSetTest, BadOptionsWriteNothing) {
  WillowGenOptions willow;
  willow.cities = {0, 5};
  EXPECT_THROW(generate_input_set(set_options(willow, dir_ / "out", 2, 1)), std::invalid_argument);
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  EXPECT_THROW(generate_file_text(willow, 1, 1, 1), std::invalid_argument);
}

TEST(CheckGenerateOptions, NamesTheOptionAtFault) {
  const auto problem_with = [](const GameOptions& game, std::int64_t count = 1,
                               std::int64_t cases = 1, const fs::path& out = "out") {
    return check_generate_options(set_options(game, out, count, cases));
  };
  const auto starts_with = [](const std::string& text, const std::string& prefix) {
    return text.rfind(prefix, 0) == 0;
  };
  EXPECT_EQ(problem_with(WillowGenOptions{}), "");
  EXPECT_TRUE(starts_with(problem_with(WillowGenOptions{}, 0), "--count: "));
  EXPECT_TRUE(starts_with(problem_with(WillowGenOptions{}, kMaxGeneratedFiles + 1), "--count: "));
  EXPECT_TRUE(starts_with(problem_with(WillowGenOptions{}, 1, 0), "--cases-per-file: "));
  EXPECT_TRUE(starts_with(problem_with(WillowGenOptions{}, 1, 1, ""), "--out: "));

  WillowGenOptions willow;
  willow.cities = {0, 5};
  EXPECT_EQ(problem_with(willow),
            "--cities: expected A..B (or A) with 1 <= A <= B <= 100000000, got 0..5");
  willow.cities = {9, 3};
  EXPECT_TRUE(starts_with(problem_with(willow), "--cities: ")) << problem_with(willow);
  willow = {};
  willow.max_coin = kMaxGeneratedCoin + 1;
  EXPECT_TRUE(starts_with(problem_with(willow), "--max-coin: ")) << problem_with(willow);
  willow.max_coin = -1;
  EXPECT_TRUE(starts_with(problem_with(willow), "--max-coin: ")) << problem_with(willow);

  DoublemoveGenOptions doublemove;
  doublemove.n = {1, gamebatch::doublemove::kMaxN + 1};
  EXPECT_TRUE(starts_with(problem_with(doublemove), "--n: ")) << problem_with(doublemove);
  doublemove.n = {1, 20};
  doublemove.declarations = IntRange{0, 21};
  EXPECT_EQ(problem_with(doublemove), "");
  doublemove.declarations = IntRange{0, 22};
  EXPECT_EQ(problem_with(doublemove),
            "--k: expected A..B (or A) with 0 <= A <= B <= 21 (n + 1 for the largest n of --n), "
            "got 0..22");
  doublemove.declarations = IntRange{-1, 3};
  EXPECT_TRUE(starts_with(problem_with(doublemove), "--k: ")) << problem_with(doublemove);

  WallgameGenOptions wallgame;
  wallgame.height = {0, 3};
  EXPECT_TRUE(starts_with(problem_with(wallgame), "--height: ")) << problem_with(wallgame);
  wallgame = {};
  wallgame.width = {1, 2001};
  EXPECT_TRUE(starts_with(problem_with(wallgame), "--width: ")) << problem_with(wallgame);

  BoigameGenOptions boigame;
  boigame.size = {1, 3};
  EXPECT_TRUE(starts_with(problem_with(boigame), "--size: ")) << problem_with(boigame);
  boigame = {};
  boigame.density = 101;
  EXPECT_TRUE(starts_with(problem_with(boigame), "--density: ")) << problem_with(boigame);
}

TEST(ParseIntRange, TakesAOrADotDotBAndNothingElse) {
  EXPECT_EQ(parse_int_range("7"), (IntRange{7, 7}));
  EXPECT_EQ(parse_int_range("2..50"), (IntRange{2, 50}));
  EXPECT_EQ(parse_int_range("-3..-1"), (IntRange{-3, -1}));
  EXPECT_EQ(parse_int_range("9..2"), (IntRange{9, 2}));  // order is check_generate_options' job
  for (const char* bad : {"", "..", "3..", "..3", "3...4", "a", "3 ", " 3", "3..4..5", "1e3",
                          "99999999999999999999"}) {
    EXPECT_EQ(parse_int_range(bad), std::nullopt) << "'" << bad << "'";
  }
}

TEST(DefaultGameOptions, KnowsEveryGameOfTheRegistryByName) {
  for (const Problem* problem : all_problems()) {
    const std::optional<GameOptions> game = default_game_options(problem->name());
    ASSERT_TRUE(game.has_value()) << problem->name();
    EXPECT_EQ(game_name(*game), problem->name());
  }
  EXPECT_EQ(default_game_options("chess"), std::nullopt);
}

TEST(GenerateWillow, CitiesAndCoinsStayInTheirRanges) {
  WillowGenOptions options;
  options.cities = {3, 7};
  options.max_coin = 5;
  const auto instances = parsed_cases(options, 4, 50, willow::parse_file);
  std::set<std::int32_t> city_counts;
  for (const willow::Instance& instance : instances) {
    city_counts.insert(instance.city_count());
    for (const gamebatch::willow::Coins coins : instance.coins) {
      EXPECT_GE(coins, 0);
      EXPECT_LE(coins, 5);
    }
  }
  EXPECT_EQ(city_counts, (std::set<std::int32_t>{3, 4, 5, 6, 7}));

  options.cities = {1, 1};  // a lone city is a valid case too
  options.coins = gamebatch::willow::CoinPattern::all_zero;
  for (const willow::Instance& instance : parsed_cases(options, 1, 5, willow::parse_file)) {
    EXPECT_EQ(instance.city_count(), 1);
    EXPECT_EQ(instance.coins, (std::vector<gamebatch::willow::Coins>{0}));
  }
}

TEST(GenerateWillow, ShapeIsTheTreeAskedFor) {
  const auto degrees = [](const willow::Instance& instance) {
    std::vector<int> degree(instance.coins.size(), 0);
    for (const auto& [a, b] : instance.roads) {
      ++degree[static_cast<std::size_t>(a)];
      ++degree[static_cast<std::size_t>(b)];
    }
    return degree;
  };
  WillowGenOptions options;
  options.cities = {6, 9};
  options.shape = gamebatch::willow::TreeShape::star;
  for (const willow::Instance& instance : parsed_cases(options, 2, 10, willow::parse_file)) {
    const std::vector<int> degree = degrees(instance);
    EXPECT_EQ(*std::max_element(degree.begin(), degree.end()), instance.city_count() - 1);
  }
  options.shape = gamebatch::willow::TreeShape::path;
  for (const willow::Instance& instance : parsed_cases(options, 2, 10, willow::parse_file)) {
    const std::vector<int> degree = degrees(instance);
    EXPECT_EQ(*std::max_element(degree.begin(), degree.end()), 2);
  }
}

TEST(GenerateDoublemove, NAndKStayInTheirRanges) {
  DoublemoveGenOptions options;
  options.n = {5, 9};
  options.declarations = IntRange{2, 4};
  std::set<int> ns;
  std::set<std::size_t> ks;
  for (const doublemove::Instance& instance :
       parsed_cases(options, 4, 50, doublemove::parse_file)) {
    ns.insert(instance.n);
    ks.insert(instance.declarations.size());
  }
  EXPECT_EQ(ns, (std::set<int>{5, 6, 7, 8, 9}));
  EXPECT_EQ(ks, (std::set<std::size_t>{2, 3, 4}));

  // k above n + 1 is clamped for the small n of the range.
  options.n = {1, 3};
  options.declarations = IntRange{4, 4};
  for (const doublemove::Instance& instance :
       parsed_cases(options, 2, 20, doublemove::parse_file)) {
    EXPECT_EQ(instance.declarations.size(), static_cast<std::size_t>(std::min(instance.n + 1, 4)));
  }

  // The default k covers 0..n+1, ends included; the largest n is accepted by the parser.
  options.n = {gamebatch::doublemove::kMaxN, gamebatch::doublemove::kMaxN};
  options.declarations.reset();
  ks.clear();
  for (const doublemove::Instance& instance :
       parsed_cases(options, 4, 25, doublemove::parse_file)) {
    EXPECT_EQ(instance.n, gamebatch::doublemove::kMaxN);
    ks.insert(instance.declarations.size());
  }
  EXPECT_EQ(*ks.begin(), 0u);
  EXPECT_EQ(*ks.rbegin(), static_cast<std::size_t>(gamebatch::doublemove::kMaxN + 1));
}

TEST(GenerateWallgame, HeightsWidthsAndCostsStayInTheirRanges) {
  WallgameGenOptions options;
  options.height = {3, 5};
  options.width = {7, 7};
  options.costs = gamebatch::wallgame::CostPattern::all_nine;
  std::set<std::int32_t> heights;
  for (const wallgame::Board& board : parsed_cases(options, 3, 30, wallgame::parse_file)) {
    heights.insert(board.height);
    EXPECT_EQ(board.width, 7);
    EXPECT_TRUE(std::all_of(board.costs.begin(), board.costs.end(),
                            [](std::uint8_t cost) { return cost == 9; }));
  }
  EXPECT_EQ(heights, (std::set<std::int32_t>{3, 4, 5}));

  options.costs.reset();  // mixed: several patterns among the cases
  options.height = {1, 1};
  options.width = {1, 2};
  EXPECT_EQ(parsed_cases(options, 2, 20, wallgame::parse_file).size(), 40u);

  options.digits = IntRange{3, 5};  // every digit of the range, and only those
  options.height = {4, 6};
  options.width = {5, 9};
  std::set<std::uint8_t> digits;
  for (const wallgame::Board& board : parsed_cases(options, 3, 10, wallgame::parse_file)) {
    EXPECT_GE(board.height, 4);
    EXPECT_LE(board.width, 9);
    digits.insert(board.costs.begin(), board.costs.end());
  }
  EXPECT_EQ(digits, (std::set<std::uint8_t>{3, 4, 5}));
  options.digits = IntRange{5, 10};
  GenerateOptions bad;
  bad.game = options;
  bad.out_dir = "set";
  EXPECT_NE(check_generate_options(bad).find("--digits"), std::string::npos);
}

TEST(GenerateBoigame, SidesStayInTheirRangeAndEveryBoardHasAWhitePath) {
  // parse_file rejects a board without a white path between A and B.
  BoigameGenOptions options;
  options.size = {5, 8};
  std::set<std::int32_t> sides;
  for (const boigame::Board& board : parsed_cases(options, 4, 40, boigame::parse_file))
    sides.insert(board.n);
  EXPECT_EQ(sides, (std::set<std::int32_t>{5, 6, 7, 8}));

  for (const gamebatch::boigame::BoardShape shape : gamebatch::boigame::kAllShapes) {
    options.shape = shape;
    options.placement = gamebatch::boigame::Placement::random;
    EXPECT_EQ(parsed_cases(options, 1, 10, boigame::parse_file).size(), 10u) << to_string(shape);
  }
}

TEST(GenerateBoigame, AnyDensityStillHasAWhitePath) {
  BoigameGenOptions options;
  options.size = {2, 10};
  for (const std::int32_t density : {0, 50, 99, 100}) {
    SCOPED_TRACE(density);
    options.density = density;
    options.placement.reset();
    EXPECT_EQ(parsed_cases(options, 2, 10, boigame::parse_file).size(), 20u);
    options.placement = gamebatch::boigame::Placement::corners;
    for (const boigame::Board& board : parsed_cases(options, 2, 10, boigame::parse_file)) {
      const std::int32_t last = board.n - 1;
      EXPECT_EQ(board.a / board.n + board.b / board.n, last);  // opposite corners
      EXPECT_EQ(board.a % board.n + board.b % board.n, last);
      if (density == 0) {
        EXPECT_EQ(boigame::format_board(board).find('#'), std::string::npos);
      }
    }
  }
}

TEST(GenerateFileText, FixedOptionsGiveThesePinnedBytes) {
  // Computed once from this implementation and hard-coded: a change of a generator, of the order
  // of the draws or of file_seed shows up here (and would change every set named by its seed).
  WillowGenOptions willow;
  willow.cities = {2, 4};
  EXPECT_EQ(generate_file_text(willow, 42, 1, 2),
            "2\n"
            "2\n5420\n1554\n2\n"
            "3\n2699\n938\n6025\n2\n3\n");
  DoublemoveGenOptions doublemove;
  doublemove.n = {2, 4};
  EXPECT_EQ(generate_file_text(doublemove, 42, 1, 2),
            "2\n"
            "3 4\n1 2\n1 3\n1 2\n1 1\n"
            "4 5\n2 2\n2 2\n1 2\n1 1\n3 1\n");
  WallgameGenOptions wallgame;
  wallgame.height = {2, 3};
  wallgame.width = {2, 4};
  wallgame.costs.reset();
  EXPECT_EQ(generate_file_text(wallgame, 42, 1, 2),
            "2\n"
            "3 2\n97\n97\n32\n"
            "3 4\n0000\n0900\n0900\n");
  BoigameGenOptions boigame;
  boigame.size = {3, 5};
  EXPECT_EQ(generate_file_text(boigame, 42, 1, 2),
            "2\n"
            "4\n...#\n.#.B\nA..#\n####\n"
            "3\n..A\n...\nB#.\n");
}

}  // namespace
}  // namespace gamebatch::io
