// End-to-end: the gamebatch binary run as a user runs it, each test in a fresh directory.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <concepts>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "cli_fixture.hpp"

namespace {

using namespace gamebatch::testing;

// Rejected willow inputs: content, the line the message must name, and what it must say.
struct BadInput {
  std::string name;
  std::string text;
  int line;
  std::string expected;
};

const std::vector<BadInput>& bad_inputs() {
  static const std::vector<BadInput> inputs = {
      {"truncated.in", "1\n3\n5\n7\n", 4, "expected C_3 of case 1"},
      {"not-a-number.in", "1\n2\n5\nabc\n1\n", 4, "expected C_2 of case 1"},
      {"j-not-above-i.in", "1\n3\n1\n2\n3\n1\n3\n", 6, "expected j_1 of case 1"},
      {"j-above-n.in", "1\n2\n1\n1\n3\n", 5, "expected j_1 of case 1"},
      {"negative-coin.in", "1\n2\n-5\n1\n2\n", 3, "expected C_1 of case 1"},
      {"trailing-garbage.in", "1\n2\n1\n1\n2\nxyz\n", 6, "expected end of file"},
      {"no-cases.in", "0\n", 1, "expected the number of cases T"},
      {"huge-n.in", "1\n1000000000\n5\n", 3, "expected C_2 of case 1"},
      {"case-missing.in", "2\n2\n1\n1\n2\n", 5, "expected the number of cities N of case 2"},
  };
  return inputs;
}

// ---------------------------------------------------------------- answers and where they go

TEST_F(CliTest, SolvesSampleBesideInput) {
  copy_data("sample.in", at("sample.in"));
  const Result result = solve({"sample.in"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(read_text(at("sample.ans")), read_text(data_file("sample.ans")));
  EXPECT_EQ(read_text(at("sample.ans")), "Case #1: 200\nCase #2: -2\nCase #3: 5100\n");
  EXPECT_TRUE(error_lines(result.err).empty()) << result.err;
}

// "-" is one input read from stdin: solve answers on stdout, validate and explain read it too,
// and a message names it "-".
TEST_F(CliTest, DashReadsOneInputFromStdin) {
  write_text(at("sample.in"), read_test_file("willow/sample.in"));
  write_text(at("bad.in"), "1\n3\n1\n2\n");
  const auto shell = [&](const std::string& line) {
    return finish(start_program({"/bin/sh", "-c", std::string(GAMEBATCH_BINARY) + " " + line}));
  };
  const Result solved = shell("solve -p willow --no-cache - < sample.in");
  EXPECT_EQ(solved.status, 0) << solved.err;
  EXPECT_EQ(solved.out, read_test_file("willow/sample.ans"));
  EXPECT_EQ(summary_of(solved).cases, 3u);
  const Result elsewhere = shell("solve -p willow --no-cache --out answers - < sample.in");
  EXPECT_EQ(elsewhere.out, read_test_file("willow/sample.ans")) << elsewhere.err;
  EXPECT_EQ(files_under(work_), (std::set<std::string>{"bad.in", "sample.in"}));

  const Result rejected = shell("solve -p willow --no-cache - < bad.in");
  EXPECT_EQ(rejected.status, 1);
  EXPECT_EQ(rejected.out, "");
  EXPECT_NE(rejected.err.find("-:4: expected C_3 of case 1"), std::string::npos) << rejected.err;
  const Result validated = shell("validate -p willow - < bad.in");
  EXPECT_EQ(validated.status, 1);
  EXPECT_EQ(validated.out,
            "-:4:2: complete input: expected C_3 of case 1, found the end of the file\n");
  const Result explained = shell("explain -p willow - < sample.in");
  EXPECT_EQ(explained.status, 0) << explained.err;
  EXPECT_EQ(explained.out, run({"explain", "-p", "willow", "sample.in"}).out);
}

TEST_F(CliTest, ShortOptionsWork) {
  copy_data("sample.in", at("in/sample.in"));
  const Result result = run({"solve", "-p", "willow", "-j", "1", "-o", "out", "in"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(read_text(at("out/sample.ans")), read_text(data_file("sample.ans")));
}

TEST_F(CliTest, SmallPracticeMatchesOfficialOutput) {
  copy_data("D-small-practice.in", at("D-small-practice.in"));
  const Result result = solve({"D-small-practice.in"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(read_text(at("D-small-practice.ans")),
            read_text(data_file("D-small-practice.correct")));
}

TEST_F(CliTest, LargePracticeMatchesOfficialOutput) {
  copy_data("D-large-practice.in", at("D-large-practice.in"));
  const Result result = solve({"D-large-practice.in"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(read_text(at("D-large-practice.ans")),
            read_text(data_file("D-large-practice.correct")));
}

TEST_F(CliTest, DirectoryIsWalkedRecursivelyForDotInOnly) {
  copy_data("sample.in", at("dir/a.in"));
  copy_data("sample.in", at("dir/sub/b.in"));
  copy_data("sample.in", at("dir/sub/deeper/c.in"));
  copy_data("sample.in", at("dir/folder.in/d.in"));  // a directory named *.in is walked
  // Not inputs, and not valid either: reading any of them would reject it.
  write_text(at("dir/notes.txt"), "not an input\n");
  write_text(at("dir/sub/e.in.bak"), "garbage\n");
  write_text(at("dir/sub/f.inx"), "garbage\n");
  write_text(at("dir/sub/g.IN"), "garbage\n");
  write_text(at("dir/noext"), "garbage\n");
  const Result result = solve({"dir"});
  EXPECT_EQ(result.status, 0) << result.err;
  const std::string sample = read_text(data_file("sample.ans"));
  for (const char* answer :
       {"dir/a.ans", "dir/sub/b.ans", "dir/sub/deeper/c.ans", "dir/folder.in/d.ans"}) {
    EXPECT_EQ(read_text(at(answer)), sample) << answer;
  }
  const std::set<std::string> expected = {"a.in",           "a.ans",           "sub/b.in",
                                          "sub/b.ans",      "sub/deeper/c.in", "sub/deeper/c.ans",
                                          "folder.in/d.in", "folder.in/d.ans", "notes.txt",
                                          "sub/e.in.bak",   "sub/f.inx",       "sub/g.IN",
                                          "noext"};
  EXPECT_EQ(files_under(at("dir")), expected);
}

TEST_F(CliTest, ExplicitFileWithAnyNameIsAnInput) {
  copy_data("sample.in", at("x.txt"));
  copy_data("sample.in", at("noext"));
  copy_data("sample.in", at("y.in.bak"));
  const Result result = solve({"x.txt", "noext", "y.in.bak"});
  EXPECT_EQ(result.status, 0) << result.err;
  const std::string sample = read_text(data_file("sample.ans"));
  EXPECT_EQ(read_text(at("x.txt.ans")), sample);
  EXPECT_EQ(read_text(at("noext.ans")), sample);
  EXPECT_EQ(read_text(at("y.in.bak.ans")), sample);
}

TEST_F(CliTest, OutDirKeepsRelativePaths) {
  copy_data("sample.in", at("data/a.in"));
  copy_data("D-small-practice.in", at("data/sub/b.in"));
  copy_data("sample.in", at("data/sub/deeper/c.in"));
  const Result result = solve({"--out", "out/nested", "data"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(read_text(at("out/nested/a.ans")), read_text(data_file("sample.ans")));
  EXPECT_EQ(read_text(at("out/nested/sub/b.ans")),
            read_text(data_file("D-small-practice.correct")));
  EXPECT_EQ(read_text(at("out/nested/sub/deeper/c.ans")), read_text(data_file("sample.ans")));
  const std::set<std::string> inputs_only = {"a.in", "sub/b.in", "sub/deeper/c.in"};
  EXPECT_EQ(files_under(at("data")), inputs_only);  // nothing written beside the inputs
}

TEST_F(CliTest, OutDirTakesJustTheNameOfAFileArgument) {
  copy_data("sample.in", at("data/sub/b.in"));
  copy_data("sample.in", at("data/sub/x.txt"));
  const Result result = solve({"--out", "out", "data/sub/b.in", "data/sub/x.txt"});
  EXPECT_EQ(result.status, 0) << result.err;
  const std::set<std::string> expected = {"b.ans", "x.txt.ans"};
  EXPECT_EQ(files_under(at("out")), expected);
  EXPECT_EQ(read_text(at("out/b.ans")), read_text(data_file("sample.ans")));
}

TEST_F(CliTest, AbsolutePathsWork) {
  copy_data("sample.in", at("data/sub/b.in"));
  const Result result = solve({"--out", at("out").string(), at("data").string()});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(read_text(at("out/sub/b.ans")), read_text(data_file("sample.ans")));
}

TEST_F(CliTest, ExistingAnswerFileIsReplacedWhole) {
  copy_data("sample.in", at("sample.in"));
  write_text(at("sample.ans"), std::string(10'000, 'x') + "\n");
  const Result result = solve({"sample.in"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(read_text(at("sample.ans")), read_text(data_file("sample.ans")));
}

TEST_F(CliTest, SameFileNamedTwiceIsSolvedOnce) {
  copy_data("sample.in", at("d/sample.in"));
  const Result result = solve({"d/sample.in", "d", "d/./sample.in"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(read_text(at("d/sample.ans")), read_text(data_file("sample.ans")));
  EXPECT_NE(result.err.find("files: 1 cases: 3 solved: 3"), std::string::npos) << result.err;
}

TEST_F(CliTest, DoubleDashEndsOptions) {
  copy_data("sample.in", at("-x.in"));
  const Result result = solve({"--", "-x.in"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(read_text(at("-x.ans")), read_text(data_file("sample.ans")));
}

// ---------------------------------------------------------------- rejected inputs

TEST_F(CliTest, MixedGoodAndBadFilesExitOneAndSolveTheGoodOnes) {
  copy_data("sample.in", at("dir/good-sample.in"));
  copy_data("D-small-practice.in", at("dir/sub/good-small.in"));
  for (const BadInput& bad : bad_inputs())
    write_text(at("dir/" + bad.name), bad.text);
  write_text(at("dir/sub/empty.in"), "");
  const Result result = solve({"dir"});
  EXPECT_EQ(result.status, 1) << result.err;

  EXPECT_EQ(read_text(at("dir/good-sample.ans")), read_text(data_file("sample.ans")));
  EXPECT_EQ(read_text(at("dir/sub/good-small.ans")),
            read_text(data_file("D-small-practice.correct")));
  const std::vector<std::string> errors = error_lines(result.err);
  EXPECT_EQ(errors.size(), bad_inputs().size() + 1) << result.err;
  for (const BadInput& bad : bad_inputs()) {
    const std::string file = "dir/" + bad.name;
    EXPECT_FALSE(fs::exists(at("dir/" + fs::path(bad.name).replace_extension(".ans").string())))
        << bad.name;
    EXPECT_EQ(count_containing(errors, file + ":"), 1u) << file << "\n" << result.err;
    const std::string prefix = cat("gamebatch: error: ", file, ":", bad.line, ": ", bad.expected);
    EXPECT_EQ(count_containing(errors, prefix), 1u) << "no line starting '" << prefix << "' in\n"
                                                    << result.err;
    for (const std::string& error : errors) {
      if (error.find(file + ":") != std::string::npos) {
        EXPECT_TRUE(starts_with(error, prefix)) << error;
      }
    }
  }
  EXPECT_EQ(count_containing(errors, "dir/sub/empty.in:1: expected the number of cases T"), 1u)
      << result.err;
  EXPECT_FALSE(fs::exists(at("dir/sub/empty.ans")));
}

TEST_F(CliTest, BadFileNamedExplicitlyExitsOne) {
  write_text(at("bad.txt"), "1\n2\n1\n1\n");
  const Result result = solve({"bad.txt"});
  EXPECT_EQ(result.status, 1) << result.err;
  EXPECT_FALSE(fs::exists(at("bad.txt.ans")));
  const auto errors = error_lines(result.err);
  ASSERT_EQ(errors.size(), 1u) << result.err;
  EXPECT_TRUE(starts_with(errors[0], "gamebatch: error: bad.txt:4: expected j_1 of case 1"))
      << errors[0];
}

TEST_F(CliTest, StaleAnswerOfBadInputIsRemoved) {
  write_text(at("d/bad.in"), "1\n3\n5\n7\n");
  write_text(at("d/bad.ans"), "Case #1: 12\n");
  copy_data("sample.in", at("d/good.in"));
  write_text(at("d/good.ans"), "Case #1: stale\n");
  const Result result = solve({"d"});
  EXPECT_EQ(result.status, 1) << result.err;
  EXPECT_FALSE(fs::exists(at("d/bad.ans")));
  EXPECT_EQ(read_text(at("d/good.ans")), read_text(data_file("sample.ans")));
}

TEST_F(CliTest, StaleAnswerUnderOutDirOfBadInputIsRemoved) {
  write_text(at("d/sub/bad.in"), "1\n2\n1\n1\n2\ntrailing\n");
  write_text(at("out/sub/bad.ans"), "Case #1: 12\n");
  const Result result = solve({"-o", "out", "d"});
  EXPECT_EQ(result.status, 1) << result.err;
  EXPECT_FALSE(fs::exists(at("out/sub/bad.ans")));
}

TEST_F(CliTest, UnreadableFileIsRejected) {
  if (::geteuid() == 0)
    GTEST_SKIP() << "root can read a file of mode 000";
  copy_data("sample.in", at("d/locked.in"));
  copy_data("sample.in", at("d/open.in"));
  fs::permissions(at("d/locked.in"), fs::perms::none);
  const Result result = solve({"d"});
  fs::permissions(at("d/locked.in"), fs::perms::owner_all);
  EXPECT_EQ(result.status, 1) << result.err;
  EXPECT_FALSE(fs::exists(at("d/locked.ans")));
  EXPECT_EQ(read_text(at("d/open.ans")), read_text(data_file("sample.ans")));
  const auto errors = error_lines(result.err);
  ASSERT_EQ(errors.size(), 1u) << result.err;
  EXPECT_NE(errors[0].find("d/locked.in"), std::string::npos) << errors[0];
}

TEST_F(CliTest, NoTemporaryFilesLeftBehind) {
  std::mt19937_64 rng(11);
  std::set<std::string> expected;
  for (int k = 0; k < 12; ++k) {
    const std::string name = cat("f", k);
    if (k % 4 == 1) {
      write_text(at("d/" + name + ".in"), bad_inputs()[static_cast<std::size_t>(k) % 9].text);
      expected.insert("d/" + name + ".in");
      continue;
    }
    write_text(at("d/" + name + ".in"),
               willow_file({willow_case(Shape::random, 1 + k * 7, 100, rng)}));
    expected.insert("d/" + name + ".in");
    expected.insert("d/" + name + ".ans");
    expected.insert("out/" + name + ".ans");
  }
  const Result beside = solve({"d"});
  const Result under_out = solve({"--out", "out", "d"});
  EXPECT_EQ(beside.status, 1) << beside.err;
  EXPECT_EQ(under_out.status, 1) << under_out.err;
  EXPECT_EQ(files_under(work_), expected);
  // Nor beside the default cache: its file alone (no log, index or lock file).
  EXPECT_EQ(files_under(root_ / "xdg-cache"), std::set<std::string>{"gamebatch/answers.cache"});
}

// ---------------------------------------------------------------- threads

TEST_F(CliTest, JobsOneAndTwoWriteIdenticalBytes) {
  copy_data("D-small-practice.in", at("set/D-small-practice.in"));
  copy_data("D-large-practice.in", at("set/D-large-practice.in"));
  copy_data("sample.in", at("set/sample.in"));
  std::mt19937_64 rng(12);
  write_text(at("set/gen/random.in"), willow_file({willow_case(Shape::random, 700, 10'000, rng),
                                                   willow_case(Shape::random, 1, 10'000, rng),
                                                   willow_case(Shape::random, 2, 10'000, rng)}));
  write_text(at("set/gen/path.in"), willow_file({willow_case(Shape::path, 900, 10'000, rng)}));
  write_text(at("set/gen/star.in"), willow_file({willow_case(Shape::star, 900, 10'000, rng)}));
  for (int k = 0; k < 8; ++k) {
    std::vector<std::string> cases;
    for (int c = 0; c < 5; ++c)
      cases.push_back(willow_case(Shape::random, 1 + (k * 37 + c * 11) % 90, 10'000, rng));
    write_text(at(cat("set/gen/small", k, ".in")), willow_file(cases));
  }
  write_text(at("set/gen/bad.in"), bad_inputs()[1].text);

  const Result one = solve({"--jobs", "1", "--out", "one", "set"});
  const Result two = solve({"--jobs", "2", "--out", "two", "set"});
  EXPECT_EQ(one.status, 1) << one.err;
  EXPECT_EQ(two.status, 1) << two.err;
  EXPECT_EQ(error_lines(one.err), error_lines(two.err));
  const std::set<std::string> answers = files_under(at("one"));
  EXPECT_EQ(answers.size(), 14u);
  EXPECT_EQ(files_under(at("two")), answers);
  for (const std::string& answer : answers) {
    EXPECT_EQ(read_text(at("one") / answer), read_text(at("two") / answer)) << answer;
  }
  EXPECT_EQ(read_text(at("two/D-large-practice.ans")),
            read_text(data_file("D-large-practice.correct")));
}

TEST_F(CliTest, LargeCaseBeyondOfficialLimitIsSolved) {
  std::mt19937_64 rng(13);
  // A path of 6000 cities (official limit: 4000), then one where only the end city has coins:
  // A starts there and B can win nothing.
  std::string lonely_coin = "6000\n10000\n";
  for (int city = 2; city <= 6000; ++city)
    lonely_coin += "0\n";
  for (int city = 1; city < 6000; ++city)
    lonely_coin += cat(city + 1, "\n");
  write_text(at("big.in"), willow_file({willow_case(Shape::path, 6000, 10'000, rng), lonely_coin}));
  const Result all_threads = solve({"--out", "all", "big.in"});
  const Result one_thread = solve({"--jobs", "1", "--out", "one", "big.in"});
  EXPECT_EQ(all_threads.status, 0) << all_threads.err;
  EXPECT_EQ(one_thread.status, 0) << one_thread.err;
  const std::string answers = read_text(at("all/big.ans"));
  EXPECT_EQ(answers, read_text(at("one/big.ans")));
  const std::vector<std::string> lines = lines_of(answers);
  ASSERT_EQ(lines.size(), 2u) << answers;
  EXPECT_TRUE(std::regex_match(lines[0], std::regex(R"(Case #1: -?\d+)"))) << lines[0];
  EXPECT_EQ(lines[1], "Case #2: 10000");
}

// ---------------------------------------------------------------- the summary

TEST_F(CliTest, SummaryLineHasTheDocumentedShape) {
  copy_data("sample.in", at("d/a.in"));
  copy_data("D-small-practice.in", at("d/b.in"));
  write_text(at("d/c.in"), bad_inputs()[0].text);
  const Result result = solve({"d"});
  EXPECT_EQ(result.status, 1) << result.err;
  const std::vector<std::string> lines = lines_of(result.err);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(count_containing(lines, "files: "), 1u) << result.err;
  std::smatch match;
  ASSERT_TRUE(std::regex_match(lines.back(), match, summary_pattern())) << lines.back();
  EXPECT_EQ(match[1], "3");   // files
  EXPECT_EQ(match[2], "53");  // cases of the accepted files: 3 + 50
  // D-small-practice begins with the sample's cases: those may be answered by the cache.
  EXPECT_EQ(std::stoi(match[3]) + std::stoi(match[4]), 53);  // solved + cached
  EXPECT_EQ(match[5], "1");                                  // rejected
}

TEST_F(CliTest, SummaryLineEndsACleanRun) {
  copy_data("sample.in", at("a.in"));
  const Result result = solve({"a.in"});
  EXPECT_EQ(result.status, 0) << result.err;
  const std::vector<std::string> lines = lines_of(result.err);
  ASSERT_FALSE(lines.empty());
  std::smatch match;
  ASSERT_TRUE(std::regex_match(lines.back(), match, summary_pattern())) << lines.back();
  EXPECT_EQ(match[1], "1");
  EXPECT_EQ(match[2], "3");
  EXPECT_EQ(match[3], "3");
  EXPECT_EQ(match[5], "0");
}

// ---------------------------------------------------------------- usage errors

TEST_F(CliTest, UnknownProblemIsUsageError) {
  copy_data("sample.in", at("sample.in"));
  const Result result = run({"solve", "--problem", "chess", "sample.in"});
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_FALSE(fs::exists(at("sample.ans")));
  EXPECT_NE(result.err.find("chess"), std::string::npos) << result.err;
}

TEST_F(CliTest, MissingProblemIsUsageError) {
  copy_data("sample.in", at("sample.in"));
  const Result result = run({"solve", "sample.in"});
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_FALSE(fs::exists(at("sample.ans")));
}

TEST_F(CliTest, MissingPathIsUsageError) {
  copy_data("sample.in", at("sample.in"));
  const Result result = solve({"sample.in", "missing.in"});
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_NE(result.err.find("missing.in"), std::string::npos) << result.err;
}

TEST_F(CliTest, NoPathIsUsageError) {
  const Result result = solve({});
  EXPECT_EQ(result.status, 2) << result.err;
}

TEST_F(CliTest, NoSubcommandIsUsageError) {
  copy_data("sample.in", at("sample.in"));
  EXPECT_EQ(run({}).status, 2);
  EXPECT_EQ(run({"--problem", "willow", "sample.in"}).status, 2);
  EXPECT_EQ(run({"frobnicate", "sample.in"}).status, 2);
  EXPECT_FALSE(fs::exists(at("sample.ans")));
}

TEST_F(CliTest, UnknownOptionIsUsageError) {
  copy_data("sample.in", at("sample.in"));
  const Result result = solve({"--frobnicate", "sample.in"});
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_FALSE(fs::exists(at("sample.ans")));
}

TEST_F(CliTest, ZeroJobsMeansAllCoresAsInConfigs) {
  copy_data("sample.in", at("sample.in"));
  const Result result = solve({"--jobs", "0", "--no-cache", "sample.in"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(read_text(at("sample.ans")), read_text(data_file("sample.ans")));
  const Result gen =
      run({"gen", "willow", "--count", "3", "--seed", "1", "--out", "gen", "--jobs", "0"});
  EXPECT_EQ(gen.status, 0) << gen.err;
  EXPECT_TRUE(fs::exists(at("gen/willow-000003.in")));
}

TEST_F(CliTest, GenRemovesTheTemporariesOfAKilledGen) {
  // A gen killed while writing leaves NAME.tmp.PID.N; the next gen into the directory removes
  // those of processes that have ended (this one's child has), and nothing else.
  const pid_t child = ::fork();
  if (child == 0)
    ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  write_text(at(cat("gen/willow-000002.in.tmp.", child, ".0")), "half a file");
  write_text(at("gen/notes.tmp.txt"), "not ours");
  const Result gen =
      run({"gen", "willow", "--count", "2", "--seed", "1", "--out", "gen", "--jobs", "1"});
  ASSERT_EQ(gen.status, 0) << gen.err;
  EXPECT_NE(gen.err.find("removed 1 temporary files left by an interrupted run"), std::string::npos)
      << gen.err;
  std::set<std::string> names;
  for (const auto& item : fs::directory_iterator(at("gen")))
    names.insert(item.path().filename().string());
  EXPECT_EQ(names,
            (std::set<std::string>{"notes.tmp.txt", "willow-000001.in", "willow-000002.in"}));
}

TEST_F(CliTest, NegativeOrNonNumericJobsIsUsageError) {
  copy_data("sample.in", at("sample.in"));
  EXPECT_EQ(solve({"--jobs", "-3", "sample.in"}).status, 2);
  EXPECT_EQ(solve({"--jobs", "two", "sample.in"}).status, 2);
  EXPECT_EQ(solve({"--jobs", "1.5", "sample.in"}).status, 2);
  EXPECT_FALSE(fs::exists(at("sample.ans")));
}

TEST_F(CliTest, BadCacheThresholdIsUsageError) {
  copy_data("sample.in", at("sample.in"));
  for (const char* bad : {"-1", "ten", "2e9"}) {
    SCOPED_TRACE(bad);
    const Result result = solve({"--cache-min-solve-us", bad, "sample.in"});
    EXPECT_EQ(result.status, 2) << result.err;
    EXPECT_NE(result.err.find("--cache-min-solve-us"), std::string::npos) << result.err;
  }
  EXPECT_FALSE(fs::exists(at("sample.ans")));
  EXPECT_FALSE(fs::exists(root_ / "xdg-cache"));
}

TEST_F(CliTest, ClashingAnswerFilesAreUsageError) {
  copy_data("sample.in", at("x"));
  copy_data("sample.in", at("x.in"));  // x -> x.ans and x.in -> x.ans
  const Result result = solve({"x", "x.in"});
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_FALSE(fs::exists(at("x.ans")));
  EXPECT_NE(result.err.find("x.ans"), std::string::npos) << result.err;
}

TEST_F(CliTest, SameNamesUnderOutDirAreUsageError) {
  copy_data("sample.in", at("one/a.in"));
  copy_data("sample.in", at("two/a.in"));
  const Result result = solve({"--out", "out", "one/a.in", "two/a.in"});
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_FALSE(fs::exists(at("out/a.ans")));
}

TEST_F(CliTest, OutDirThroughASymlinkLoopIsAnErrorNotACrash) {
  copy_data("sample.in", at("sample.in"));
  fs::create_symlink("loop", at("loop"));  // resolving loop/... fails with ELOOP
  const Result result = solve({"--out", "loop/answers", "sample.in"});
  EXPECT_TRUE(result.status == 1 || result.status == 2) << "status " << result.status << "\n"
                                                        << result.err;
  EXPECT_EQ(count_containing(error_lines(result.err), "loop"), 1u) << result.err;
}

TEST_F(CliTest, OutDirThatIsAFileIsAnErrorNotACrash) {
  copy_data("sample.in", at("sample.in"));
  write_text(at("plain"), "a file, not a directory\n");
  const Result result = solve({"--out", "plain", "sample.in"});
  EXPECT_TRUE(result.status == 1 || result.status == 2) << "status " << result.status << "\n"
                                                        << result.err;
  EXPECT_FALSE(error_lines(result.err).empty()) << result.err;
  EXPECT_EQ(read_text(at("plain")), "a file, not a directory\n");
}

// ---------------------------------------------------------------- help

TEST_F(CliTest, HelpExitsZeroAndMentionsOptions) {
  const Result top = run({"--help"});
  EXPECT_EQ(top.status, 0) << top.err;
  const std::string top_text = top.out + top.err;
  for (const char* needle : {"solve", "willow", "Exit status", "0", "1", "2"})
    EXPECT_NE(top_text.find(needle), std::string::npos) << needle << "\n" << top_text;

  const Result solve_help = run({"solve", "--help"});
  EXPECT_EQ(solve_help.status, 0) << solve_help.err;
  const std::string text = solve_help.out + solve_help.err;
  for (const char* needle : {"--problem", "--jobs", "--out", "PATH", "willow", ".in", ".ans", "--",
                             "rename", "--cache-min-solve-us", "--checkpoint"}) {
    EXPECT_NE(text.find(needle), std::string::npos) << needle << "\n" << text;
  }
}

TEST_F(CliTest, HelpListsTheGamesInOneColumn) {
  const Result top = run({"--help"});
  ASSERT_EQ(top.status, 0) << top.err;
  const std::string text = top.out + top.err;
  const std::size_t from = text.find("Games:\n");
  const std::size_t to = text.find("\nUsage:");
  ASSERT_NE(from, std::string::npos) << text;
  ASSERT_NE(to, std::string::npos) << text;
  std::istringstream list(text.substr(from + 7, to - from - 7));
  std::set<std::size_t> summary_columns;
  std::size_t games = 0;
  for (std::string line; std::getline(list, line);) {
    EXPECT_LE(line.size(), 100U) << line;
    const std::size_t column = line.find_first_not_of(' ', line.find(' ', 2));
    if (line.compare(0, 2, "  ") == 0 && line[2] != ' ') {
      ++games;
      summary_columns.insert(column);  // after the name and its padding
    } else {
      summary_columns.insert(line.find_first_not_of(' '));  // a summary's next line
    }
  }
  EXPECT_EQ(games, 4U) << text;
  EXPECT_EQ(summary_columns.size(), 1U) << text;
}

TEST_F(CliTest, ByteOrderMarkNulAndControlBytesAreNamed) {
  write_text(at("bom.in"),
             "\xef\xbb\xbf"
             "1\n2\n1 1\n1 2\n");
  write_text(at("nul.in"), std::string("1\0\n2\n1 1\n1 2\n", 13));
  write_text(at("esc.in"), "\x1b[2J\n2\n1 1\n1 2\n");
  const Result result = run({"solve", "--problem", "willow", "--no-cache", at("bom.in").string(),
                             at("nul.in").string(), at("esc.in").string()});
  EXPECT_EQ(result.status, 1) << result.err;
  EXPECT_NE(result.err.find("bom.in:1: expected the number of cases T (an integer from 1 to "),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("found a UTF-8 byte-order mark before '1'"), std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find(R"(found '1\x00' (a NUL byte))"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(R"(found '\x1b[2J' (byte 0x1b))"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find('\x1b'), std::string::npos) << result.err;
  for (const char* name : {"bom.ans", "nul.ans", "esc.ans"})
    EXPECT_FALSE(fs::exists(at(name))) << name;
}

TEST_F(CliTest, HelpWritesNoFiles) {
  copy_data("sample.in", at("sample.in"));
  EXPECT_EQ(run({"solve", "--problem", "willow", "--help", "sample.in"}).status, 0);
  EXPECT_FALSE(fs::exists(at("sample.ans")));
}

}  // namespace
