// End-to-end: every game through the gamebatch binary (golden answers, a rejected file among good
// ones, the cache), and `gamebatch table`.
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace {

using namespace gamebatch::testing;

struct GameFiles {
  std::string game;
  std::string input;     // under tests/data/GAME/
  std::string expected;  // its answers
  std::string bad_text;  // a file the game's parser rejects
  int bad_line;          // the line its message names
  std::string bad_says;  // part of that message
};

const std::vector<GameFiles>& games() {
  static const std::vector<GameFiles> all = {
      {"willow", "sample.in", "sample.ans", "1\n3\n5\n7\n", 4, "expected C_3 of case 1"},
      {"doublemove", "examples.in", "examples.ans", "1\n3 1\n1 4\n", 3, "expected b_1 of case 1"},
      {"wallgame", "examples.in", "examples.ans", "1\n2 3\n123\n4x6\n", 4, "not a digit"},
      {"boigame", "sample.in", "sample.ans", "1\n3\nA..\n.x.\n..B\n", 4, "'x'"},
  };
  return all;
}

class GamesCliTest : public CliTest {};

TEST_F(GamesCliTest, EveryGameSolvesItsOfficialExamples) {
  for (const GameFiles& files : games()) {
    SCOPED_TRACE(files.game);
    write_text(at(files.game + "/" + files.input), read_test_file(files.game + "/" + files.input));
    const Result result =
        run({"solve", "--problem", files.game, "--no-cache", files.game + "/" + files.input});
    EXPECT_EQ(result.status, 0) << result.err;
    const std::string answer = std::string(fs::path(files.input).stem()) + ".ans";
    EXPECT_EQ(read_text(at(files.game + "/" + answer)),
              read_test_file(files.game + "/" + files.expected));
  }
}

TEST_F(GamesCliTest, EveryGameRejectsABadFileByLineAndSolvesTheRest) {
  for (const GameFiles& files : games()) {
    SCOPED_TRACE(files.game);
    const fs::path dir = at("set-" + files.game);
    write_text(dir / "good.in", read_test_file(files.game + "/" + files.input));
    write_text(dir / "bad.in", files.bad_text);
    const Result result = run({"solve", "--problem", files.game, "--no-cache", dir.string()});
    EXPECT_EQ(result.status, 1) << result.err;
    const std::vector<std::string> errors = error_lines(result.err);
    ASSERT_EQ(errors.size(), 1u) << result.err;
    EXPECT_TRUE(starts_with(
        errors[0], cat("gamebatch: error: ", (dir / "bad.in").string(), ":", files.bad_line, ": ")))
        << errors[0];
    EXPECT_NE(errors[0].find(files.bad_says), std::string::npos) << errors[0];
    EXPECT_FALSE(fs::exists(dir / "bad.ans"));
    EXPECT_EQ(read_text(dir / "good.ans"), read_test_file(files.game + "/" + files.expected));
  }
}

TEST_F(GamesCliTest, EveryGameAnswersARerunFromTheCache) {
  for (const GameFiles& files : games()) {
    SCOPED_TRACE(files.game);
    write_text(at(files.game + ".in"), read_test_file(files.game + "/" + files.input));
    // The examples are small: most are below the default --cache-min-solve-us.
    std::vector<std::string> args = {"solve", "--problem", files.game, "--cache", "all.cache"};
    args.insert(args.end(), {"--cache-min-solve-us", "0", files.game + ".in"});
    ASSERT_EQ(run(args).status, 0);
    const Result warm = run(args);
    EXPECT_EQ(warm.status, 0) << warm.err;
    EXPECT_NE(warm.err.find(" solved: 0 cached: "), std::string::npos) << warm.err;
    EXPECT_EQ(read_text(at(files.game + ".ans")),
              read_test_file(files.game + "/" + files.expected));
  }
  const Result stats = run({"cache", "stats", "all.cache"});
  for (const GameFiles& files : games())
    EXPECT_NE(stats.out.find("\n  " + files.game + ", solver version "), std::string::npos)
        << stats.out;
  EXPECT_NE(stats.out.find("\nstale entries: 0 "), std::string::npos) << stats.out;
}

TEST_F(GamesCliTest, DoublemoveTablesAreStoredAndAdoptedByTheNextRun) {
  write_text(at("k0.in"), "2\n20 0\n21 0\n");
  const std::vector<std::string> args = {"solve",   "--problem", "doublemove",
                                         "--cache", "dm.cache",  "k0.in"};
  ASSERT_EQ(run(args).status, 0);
  const Result stats = run({"cache", "stats", "dm.cache"});
  EXPECT_NE(stats.out.find("doublemove: states n=20 (version"), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("doublemove: states n=21 (version"), std::string::npos) << stats.out;
  // A new case of n = 20 is answered by the adopted table; the answer must still be right.
  write_text(at("k1.in"), "1\n20 1\n1 2\n");
  const Result adopted = run({"solve", "--problem", "doublemove", "--cache", "dm.cache", "k1.in"});
  ASSERT_EQ(adopted.status, 0) << adopted.err;
  ASSERT_EQ(
      run({"solve", "--problem", "doublemove", "--no-cache", "--out", "plain", "k1.in"}).status, 0);
  EXPECT_EQ(read_text(at("k1.ans")), read_text(at("plain/k1.ans")));
}

TEST_F(GamesCliTest, DoublemoveCaseWhoseTableExceedsTheMemoryBudgetIsRejectedNamingIt) {
  // n = 40's table takes 7.6 MiB: over a 4M budget, while n = 30 (0.9 MiB) fits.
  write_text(at("big.in"), "2\n30 0\n40 0\n");
  write_text(at("small.in"), "1\n30 1\n1 2\n");
  const Result result = run({"solve", "--problem", "doublemove", "--no-cache", "--memory-budget",
                             "4M", "big.in", "small.in"});
  EXPECT_EQ(result.status, 1) << result.err;
  EXPECT_NE(result.err.find("big.in: case 2: doublemove: n = 40 needs 7.6 MiB for its state "
                            "table, more than the whole memory budget of 3.8 MiB (raise it with "
                            "--memory-budget or the config key memory_budget)"),
            std::string::npos)
      << result.err;
  EXPECT_FALSE(fs::exists(at("big.ans")));
  EXPECT_TRUE(fs::exists(at("small.ans")));
  // Under a budget that holds one table at a time the answers are those of an unbounded run.
  write_text(at("mixed.in"), "6\n30 0\n31 0\n30 1\n1 2\n32 0\n31 1\n2 3\n30 0\n");
  ASSERT_EQ(run({"solve", "--problem", "doublemove", "--no-cache", "--memory-budget", "1500000",
                 "--jobs", "2", "mixed.in"})
                .status,
            0);
  ASSERT_EQ(run({"solve", "--problem", "doublemove", "--no-cache", "--memory-budget", "0", "--out",
                 "plain", "mixed.in"})
                .status,
            0);
  EXPECT_EQ(read_text(at("mixed.ans")), read_text(at("plain/mixed.ans")));
  const Result bad = run({"solve", "--problem", "doublemove", "--memory-budget", "3X", "k0.in"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("'3X' is not a size"), std::string::npos) << bad.err;
}

// ---------------------------------------------------------------- gamebatch table

TEST_F(GamesCliTest, TableCsvAndJsonHoldTheKZeroAnswers) {
  // n = 2, 3, 4 with k = 0 are the spec's examples: 4, 8, 16.
  const Result csv = run({"table", "doublemove", "--max-n", "5", "--format", "csv"});
  EXPECT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out, "n,answer\n1,4\n2,4\n3,8\n4,16\n5,40\n");

  const Result json = run({"table", "doublemove", "--max-n", "4", "--format", "json"});
  ASSERT_EQ(json.status, 0) << json.err;
  const nlohmann::json parsed = nlohmann::json::parse(json.out);
  ASSERT_EQ(parsed.at("answers").size(), 4u);
  EXPECT_EQ(parsed.at("answers")[3].at("n"), 4);
  EXPECT_EQ(parsed.at("answers")[3].at("answer"), 16);
}

TEST_F(GamesCliTest, TableCppIsAHeaderNamingItsMaker) {
  const Result cpp = run({"table", "doublemove", "--max-n", "3"});
  ASSERT_EQ(cpp.status, 0) << cpp.err;
  EXPECT_NE(cpp.out.find("constexpr"), std::string::npos);
  EXPECT_NE(cpp.out.find("gamebatch 0."), std::string::npos);
  EXPECT_NE(cpp.out.find("8u,  // n = 3"), std::string::npos) << cpp.out;
}

TEST_F(GamesCliTest, TableIsTheSameForEveryJobs) {
  const Result all_cores = run({"table", "doublemove", "--max-n", "20", "--format", "csv"});
  ASSERT_EQ(all_cores.status, 0) << all_cores.err;
  for (const char* jobs : {"1", "3"}) {
    const Result limited =
        run({"table", "doublemove", "--max-n", "20", "--format", "csv", "--jobs", jobs});
    ASSERT_EQ(limited.status, 0) << limited.err;
    EXPECT_EQ(limited.out, all_cores.out) << "--jobs " << jobs;
  }
  EXPECT_EQ(run({"table", "doublemove", "--max-n", "3", "--jobs", "-1"}).status, 2);
}

TEST_F(GamesCliTest, TableRefusesWhatItCannotMake) {
  EXPECT_EQ(run({"table", "doublemove", "--max-n", "68"}).status, 2);
  EXPECT_EQ(run({"table", "doublemove", "--max-n", "0"}).status, 2);
  EXPECT_EQ(run({"table", "willow", "--max-n", "3"}).status, 2);
  EXPECT_EQ(run({"table", "doublemove", "--max-n", "3", "--format", "xml"}).status, 2);
}

}  // namespace
