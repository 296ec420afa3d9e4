// End-to-end: `gamebatch validate`, `check` and `stress` as a setter runs them, with real
// programs as the solutions under test (tests/solutions/: gamebatch's own solvers, a plausibly
// wrong solver per game, and faulty_solution's crashes, loops, hogs and floods).
#include <algorithm>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"
#include "cli_solutions.hpp"

namespace {

using namespace gamebatch::testing;

class SetterCliTest : public CliTest {
 protected:
  // tests/data/willow/sample.in and the small practice file (50 cases, N <= 80) under set/.
  void write_willow_set() const {
    write_text(at("set/sample.in"), read_test_file("willow/sample.in"));
    write_text(at("set/small.in"), read_test_file("willow/D-small-practice.in"));
  }
};

// ---------------------------------------------------------------- validate

// Strict by default: the first fault of each file, with its line, column and rule.
TEST_F(SetterCliTest, ValidateReadsTheExactFormat) {
  write_text(at("in/good.in"), read_test_file("willow/sample.in"));
  write_text(at("in/crlf.in"), "1\r\n2\n5\n7\n2\n");
  write_text(at("in/joined.in"), "1\n2\n5 7\n2\n");
  write_text(at("in/zero.in"), "1\n02\n5\n7\n2\n");
  write_text(at("in/limits.in"), "51\n");
  write_text(at("in/broken.in"), "1\n3\n1\n2\n");
  const Result result = run({"validate", "--problem", "willow", "in"});
  EXPECT_EQ(result.status, 1) << result.err;
  // solve names the same line for the same fault: the last, where the file ends.
  const Result solved = run({"solve", "-p", "willow", "--no-cache", "in/broken.in"});
  EXPECT_NE(solved.err.find("in/broken.in:4: expected C_3 of case 1"), std::string::npos)
      << solved.err;
  EXPECT_EQ(lines_of(result.out),
            (std::vector<std::string>{
                "in/broken.in:4:2: complete input: expected C_3 of case 1, found the end of the "
                "file",
                "in/crlf.in:1:2: LF line ends: expected '\\n' after T, found a CR ('\\r\\n' line "
                "end)",
                "in/joined.in:3:2: one line as the statement gives it: expected the line's end "
                "after C_1 of case 1, found another token '7' on the same line",
                "in/limits.in:1:1: T: the number of cases T is 51; the statement allows 1..50",
                "in/zero.in:2:1: integer form: expected N of case 1 (an integer), found '02' (a "
                "leading zero)",
            }));
  EXPECT_NE(result.err.find("validate: 6 files: 1 valid, 5 not"), std::string::npos) << result.err;
  // --lenient: solve's parser reads CRLF, joined lines and leading zeros.
  const Result lenient = run({"validate", "--lenient", "--problem", "willow", "in"});
  EXPECT_NE(lenient.err.find("validate: 6 files: 4 valid, 2 not"), std::string::npos)
      << lenient.err;
}

// --lenient: every violation of the statement's limits, with its line.
TEST_F(SetterCliTest, ValidateLenientNamesEveryViolationWithItsLine) {
  write_text(at("in/good.in"), read_test_file("willow/sample.in"));
  // T = 51; case 1 has N = 1; case 2's city 2 holds 10001 coins (line 6).
  std::string bad = "51\n1\n5\n3\n1\n10001\n2\n2\n3\n";
  for (int k = 0; k < 49; ++k)
    bad += "2\n0\n0\n2\n";
  write_text(at("in/limits.in"), bad);
  write_text(at("in/broken.in"), "1\n3\n1\n2\n");
  const Result result = run({"validate", "--lenient", "--problem", "willow", "in"});
  EXPECT_EQ(result.status, 1) << result.err;
  EXPECT_EQ(lines_of(result.out),
            (std::vector<std::string>{
                "in/broken.in:4: expected C_3 of case 1, the coins of city 3 (an integer from 0 to "
                "1000000000), found end of file (case 1 declares N = 3 on line 2)",
                "in/limits.in:1: the number of cases T is 51; the statement requires 1 <= T <= 50",
                "in/limits.in:2: the number of cities N of case 1 is 1; the statement requires "
                "2 <= N <= 4000",
                "in/limits.in:6: C_2 of case 2, the coins of city 2 is 10001; the statement "
                "requires 0 <= C_i <= 10000",
            }));
  EXPECT_NE(result.err.find("validate: 3 files: 1 valid, 2 not"), std::string::npos) << result.err;
}

TEST_F(SetterCliTest, ValidateAcceptsEveryGamesOfficialData) {
  for (const auto& [game, file] :
       std::vector<std::pair<std::string, std::string>>{{"willow", "willow/D-large-practice.in"},
                                                        {"wallgame", "wallgame/examples.in"},
                                                        {"doublemove", "doublemove/examples.in"},
                                                        {"boigame", "boigame/sample.in"}}) {
    SCOPED_TRACE(game);
    write_text(at(file), read_test_file(file));
    const Result result = run({"validate", "-p", game, file});
    EXPECT_EQ(result.status, 0) << result.out << result.err;
    EXPECT_EQ(result.out, "");
  }
}

// ---------------------------------------------------------------- validator

TEST_F(SetterCliTest, ValidatorPrintsAProgramWithTheGroupsLimits) {
  const Result plain = run({"validator", "willow"});
  EXPECT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.out.rfind("// The input validator of willow", 0), 0U) << plain.out.substr(0, 200);
  EXPECT_NE(plain.out.find("int main("), std::string::npos);
  const Result group = run({"validator", "doublemove", "--limits", "n=1..10, k=0"});
  EXPECT_EQ(group.status, 0) << group.err;
  EXPECT_NE(group.out.find("{\"--n\", \"1..10\", \"--k\", \"0..0\"}"), std::string::npos)
      << group.out.substr(0, 400);
  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
           {"validator", "chess"},
           {"validator", "willow", "--limits", "n=1..10"},  // willow's is N
           {"validator", "willow", "--limits", "N=80..2"},
           {"validator", "willow", "--limits", "N"},
           {"validator"}}) {
    const Result result = run(bad);
    EXPECT_EQ(result.status, 2) << bad.back();
    EXPECT_EQ(result.out, "") << bad.back();
  }
  EXPECT_NE(run({"validator", "willow", "--limits", "n=1"}).err.find("its parameters: C, N, T"),
            std::string::npos);
  // --help names each game's parameters with the statement's ranges.
  const std::string help = run({"validator", "--help"}).out;
  EXPECT_NE(help.find("willow: --T 1..50 --N 2..4000 --C 0..10000"), std::string::npos) << help;
  EXPECT_NE(help.find("doublemove: --T"), std::string::npos) << help;
}

TEST_F(SetterCliTest, ValidateUsageErrors) {
  EXPECT_EQ(run({"validate", "-p", "willow", "missing.in"}).status, 2);
  EXPECT_EQ(run({"validate", "-p", "chess", "."}).status, 2);
  EXPECT_EQ(run({"validate", "-p", "willow"}).status, 2);
}

// ---------------------------------------------------------------- check

TEST_F(SetterCliTest, CheckGivesEachSolutionItsVerdicts) {
  write_willow_set();
  const std::vector<std::string> solutions = {
      kReference + " willow",                 // AC
      "cat >/dev/null; echo 'Case #1: 200'",  // WA: case 2 missing, or case 1 wrong
      kFaulty + " segfault",                  // RE
      kFaulty + " exit 3",                    // RE
      kFaulty + " loop",                      // TLE
      kFaulty + " hog-forever",               // MLE
      kFaulty + " flood",                     // WA: output over the limit
  };
  std::vector<std::string> args = {"check",          "-p",  "willow",         "--no-cache",
                                   "--time-limit",   "0.5", "--memory-limit", "64",
                                   "--output-limit", "1",   "--report",       "report.json",
                                   "--jobs",         "2",   "--all-runs"};  // every verdict
  for (const std::string& solution : solutions) {
    args.push_back("--solution");
    args.push_back(solution);
  }
  args.push_back("set");
  const Result result = run(args);
  EXPECT_EQ(result.status, 1) << result.err;

  const nlohmann::json report = nlohmann::json::parse(read_text(at("report.json")));
  EXPECT_EQ(report["schema"], "gamebatch-check/1");
  ASSERT_EQ(report["solutions"].size(), solutions.size());
  const std::vector<std::string> wanted = {"AC", "WA", "RE", "RE", "TLE", "MLE", "WA"};
  for (std::size_t s = 0; s < solutions.size(); ++s) {
    SCOPED_TRACE(solutions[s]);
    const nlohmann::json& solution = report["solutions"][s];
    EXPECT_EQ(solution["command"], solutions[s]);
    ASSERT_EQ(solution["verdicts"].size(), 2u);
    EXPECT_EQ(solution["counts"][wanted[s]], 2);
    for (const nlohmann::json& verdict : solution["verdicts"]) {
      EXPECT_EQ(verdict["verdict"], wanted[s]) << verdict.dump();
      for (const char* key : {"path", "seconds", "peak_mb", "case", "expected", "got"})
        EXPECT_TRUE(verdict.contains(key)) << key;
    }
  }
  const nlohmann::json& sample_wa = report["solutions"][1]["verdicts"][0];
  EXPECT_EQ(sample_wa["path"], "set/sample.in");
  EXPECT_EQ(sample_wa["case"], 2);
  EXPECT_EQ(sample_wa["expected"], "Case #2: -2");
  EXPECT_EQ(sample_wa["got"], "(end of output)");
  EXPECT_TRUE(report["solutions"][0]["verdicts"][0]["case"].is_null());
  EXPECT_NE(report["solutions"][2]["verdicts"][0]["detail"].get<std::string>().find("SIGSEGV"),
            std::string::npos);
  EXPECT_GE(report["solutions"][5]["verdicts"][0]["peak_mb"].get<double>(), 64.0);
  EXPECT_NE(report["solutions"][6]["verdicts"][0]["detail"].get<std::string>().find(
                "output over the limit"),
            std::string::npos);

  // The table: a header and one row per solution with its counts (the last: skipped runs), then the
  // failed runs.
  const std::vector<std::string> lines = lines_of(result.out);
  ASSERT_GE(lines.size(), 1 + solutions.size());
  EXPECT_TRUE(starts_with(lines[0], "solution")) << lines[0];
  EXPECT_NE(lines[1].find("     2      0      0      0      0      0  set/"), std::string::npos)
      << lines[1];
  EXPECT_EQ(count_containing(lines,
                             "set/sample.in: WA on case 2: expected 'Case #2: -2', got "
                             "'(end of output)'"),
            1u)
      << result.out;
}

TEST_F(SetterCliTest, CheckExitsZeroWhenEverySolutionIsAccepted) {
  write_willow_set();
  // The practice cases (N <= 80) are cheaper to solve than to look up; this one is not.
  std::mt19937_64 rng(4);
  write_text(at("set/big.in"), willow_file({willow_case(Shape::random, 400, 1000, rng)}));
  const Result result =
      run({"check", "-p", "willow", "--cache", "answers.cache", "-s", kReference + " willow", "-s",
           kReference + " willow --burn 0.01", "set"});
  EXPECT_EQ(result.status, 0) << result.out << result.err;
  // A second check takes the expected answers of the cases worth caching (all but those cheaper
  // to solve than to look up: --cache-min-solve-us) from the cache.
  const Result again = run(
      {"check", "-p", "willow", "--cache", "answers.cache", "-s", kReference + " willow", "set"});
  EXPECT_EQ(again.status, 0) << again.err;
  std::smatch counts;
  ASSERT_TRUE(std::regex_search(again.err, counts,
                                std::regex(R"(54 cases, (\d+) solved, (\d+) from the cache)")))
      << again.err;
  EXPECT_GT(std::stoi(counts[2]), 0);
  EXPECT_NE(result.err.find("54 cases, 54 solved, 0 from the cache"), std::string::npos)
      << result.err;
}

TEST_F(SetterCliTest, CheckRerunsARunNearTheLimitAloneBeforeATimeLimit) {
  write_text(at("set/sample.in"), read_test_file("willow/sample.in"));
#ifdef GAMEBATCH_SANITIZED
  // The instrumented solution's own start-up (about 0.1 s of CPU) would take a 0.55 s burn past
  // 1.25 times a 0.5 s limit, where it is no longer rerun: the same ratios on a longer limit.
  const double limit = 1.0;
  const std::string limit_text = "1", slow_burn = "1.05";
#else
  const double limit = 0.5;
  const std::string limit_text = "0.5", slow_burn = "0.55";
#endif
  const Result result = run({"check", "-p", "willow", "--no-cache", "--time-limit", limit_text,
                             "--report", "r.json", "-s", kReference + " willow --burn " + slow_burn,
                             "-s", kReference + " willow --burn 0.05", "set"});
  EXPECT_EQ(result.status, 1) << result.err;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("r.json")));
  const nlohmann::json& slow = report["solutions"][0]["verdicts"][0];
  EXPECT_EQ(slow["verdict"], "TLE");
  EXPECT_EQ(slow["rerun_alone"], true);
  EXPECT_GE(slow["seconds"].get<double>(), limit);
  EXPECT_EQ(report["solutions"][1]["verdicts"][0]["verdict"], "AC");
  EXPECT_EQ(report["solutions"][1]["verdicts"][0]["rerun_alone"], false);
  EXPECT_NE(result.err.find("1 runs again alone"), std::string::npos) << result.err;
}

TEST_F(SetterCliTest, CheckSkipsARejectedInputAndJudgesTheOthers) {
  write_willow_set();
  write_text(at("set/bad.in"), "1\n2\n5\n");
  const Result result = run({"check", "-p", "willow", "--no-cache", "--report", "r.json", "-s",
                             kReference + " willow", "set"});
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(count_containing(error_lines(result.err), "set/bad.in:3: expected C_2 of case 1"), 1u)
      << result.err;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("r.json")));
  EXPECT_EQ(report["solutions"][0]["counts"]["AC"], 2);
  ASSERT_EQ(report["rejected_inputs"].size(), 1u);
  EXPECT_EQ(report["rejected_inputs"][0]["path"], "set/bad.in");
  EXPECT_EQ(report["rejected_inputs"][0]["line"], 3);
}

TEST_F(SetterCliTest, CheckUsageErrors) {
  write_willow_set();
  EXPECT_EQ(run({"check", "-p", "willow", "set"}).status, 2);  // no --solution
  EXPECT_EQ(run({"check", "-p", "willow", "-s", "true", "nowhere"}).status, 2);
  EXPECT_EQ(run({"check", "-p", "willow", "-s", "true", "--time-limit", "0", "set"}).status, 2);
}

// ---------------------------------------------------------------- stress

// The counterexample stress wrote, parsed: its cases.
std::size_t count_of_first_line(const std::string& text) {
  return std::stoul(text.substr(0, text.find('\n')));
}

TEST_F(SetterCliTest, StressShrinksAWrongWillowSolutionToAFewCitiesWithSmallCoins) {
  const std::vector<std::string> args = {"stress",   "-p",     "willow",  "-s",  kWrong + " willow",
                                         "--cities", "20..40", "--count", "200", "--seed",
                                         "5",        "--out",  "found"};
  const Result result = run(args);
  ASSERT_EQ(result.status, 1) << result.out << result.err;
  const std::string input = read_text(at("found/counterexample.in"));
  const std::vector<std::string> lines = lines_of(input);
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0], "1");
  const int cities = std::stoi(lines[1]);
  EXPECT_GE(cities, 3);
  EXPECT_LE(cities, 4) << input;
  for (int city = 1; city <= cities; ++city)
    EXPECT_LE(std::stoi(lines[1 + static_cast<std::size_t>(city)]), 10) << input;
  // The .ans is the exact answer, and the solution's output differs from it.
  write_text(at("exact.in"), input);
  ASSERT_EQ(run({"solve", "-p", "willow", "--no-cache", "exact.in"}).status, 0);
  EXPECT_EQ(read_text(at("found/counterexample.ans")), read_text(at("exact.ans")));
  EXPECT_NE(result.out.find("shrunk in "), std::string::npos);
  EXPECT_NE(result.out.find("== the solution's output\nCase #1: "), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find(input), std::string::npos);

  // The same seed finds the same counterexample, whatever --jobs.
  std::vector<std::string> one_job = args;
  one_job.back() = "again";
  one_job.insert(one_job.end(), {"--jobs", "1"});
  ASSERT_EQ(run(one_job).status, 1);
  EXPECT_EQ(read_text(at("again/counterexample.in")), input);
}

TEST_F(SetterCliTest, StressShrinksEveryGame) {
  struct Game {
    std::string name;
    std::vector<std::string> options;
    std::size_t max_bytes;  // of the shrunk input file
  };
  for (const Game& game : std::vector<Game>{
           {"wallgame", {"--height", "6..10", "--width", "6..10", "--costs", "mixed"}, 20},
           {"doublemove", {"--n", "6..10", "--pattern", "loops"}, 16},
           {"boigame", {"--size", "8..12"}, 40}}) {
    SCOPED_TRACE(game.name);
    std::vector<std::string> args = {
        "stress",  "-p",  game.name, "-s",     kWrong + " " + game.name,
        "--count", "300", "--out",   game.name};
    args.insert(args.end(), game.options.begin(), game.options.end());
    const Result result = run(args);
    ASSERT_EQ(result.status, 1) << result.out << result.err;
    const std::string input = read_text(at(game.name + "/counterexample.in"));
    EXPECT_EQ(count_of_first_line(input), 1u);
    EXPECT_LE(input.size(), game.max_bytes) << input;
    EXPECT_NE(result.out.find("fails: WA"), std::string::npos) << result.out;
  }
}

TEST_F(SetterCliTest, StressShrinksACrashToTheSmallestCase) {
  const Result result = run(
      {"stress", "-p", "willow", "-s", kFaulty + " segfault", "--count", "5", "--cities", "30"});
  ASSERT_EQ(result.status, 1) << result.err;
  // Crashes on every input: two cities with no coins is as small as willow gets.
  EXPECT_EQ(read_text(at("counterexample.in")), "1\n2\n0\n0\n2\n");
  EXPECT_NE(result.out.find("RE: killed by signal 11 (SIGSEGV)"), std::string::npos) << result.out;
}

TEST_F(SetterCliTest, StressPassesACorrectSolution) {
  const Result result =
      run({"stress", "-p", "boigame", "-s", kReference + " boigame", "--count", "20"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.out, "stress: the solution passed all 20 cases (seed 1)\n");
  EXPECT_FALSE(fs::exists(at("counterexample.in")));
}

// A solution that answers with terminal escapes (ESC ] 0 ; title BEL retitles the judge's
// terminal, ESC [ 2 J clears it): the text outputs show them escaped, the report keeps the bytes.
constexpr const char* kEscapingSolution =
    "cat >/dev/null; printf 'Case #1: \\033]0;pwned\\007\\033[2J\\nCase #2: 1\\n'";

bool has_control_bytes(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7f;
  });
}

TEST_F(SetterCliTest, CheckShowsNoRawControlCharactersFromASolution) {
  write_willow_set();
  const Result result = run({"check", "-p", "willow", "--no-cache", "--report", "report.json", "-s",
                             kEscapingSolution, "set"});
  EXPECT_EQ(result.status, 1) << result.err;
  EXPECT_FALSE(has_control_bytes(result.out)) << result.out;
  EXPECT_FALSE(has_control_bytes(result.err)) << result.err;
  // The table's WA line names what was received, escaped.
  EXPECT_NE(result.out.find(R"(got 'Case #1: \x1b]0;pwned\x07\x1b[2J')"), std::string::npos)
      << result.out;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("report.json")));
  bool exact = false;
  for (const nlohmann::json& verdict : report["solutions"][0]["verdicts"])
    exact = exact || (verdict["got"].is_string() &&
                      verdict["got"].get<std::string>() == "Case #1: \x1b]0;pwned\a\x1b[2J");
  EXPECT_TRUE(exact) << report.dump();
}

TEST_F(SetterCliTest, StressShowsNoRawControlCharactersFromASolution) {
  const Result result = run({"stress", "-p", "willow", "-s",
                             "cat >/dev/null; printf 'Case #1: \\033[2J\\033]0;x\\007\\n'",
                             "--count", "3", "--cities", "2..4"});
  ASSERT_EQ(result.status, 1) << result.err;
  EXPECT_FALSE(has_control_bytes(result.out)) << result.out;
  EXPECT_FALSE(has_control_bytes(result.err)) << result.err;
  // The counterexample's output, as the solution wrote it, escaped.
  EXPECT_NE(result.out.find("== the solution's output\nCase #1: \\x1b[2J\\x1b]0;x\\x07\n"),
            std::string::npos)
      << result.out;
}

TEST_F(SetterCliTest, StressShowsACompileErrorWithoutRawControlCharacters) {
  // A compiler's messages are other people's text too: here, a source whose error line holds ESC.
  write_text(at("broken.cpp"), "int main() { \x1b[2J }\n");
  const Result result =
      run({"stress", "-p", "willow", "--no-sandbox", "-s", "broken.cpp", "--count", "1"});
  EXPECT_EQ(result.status, 1) << result.err;
  EXPECT_NE(result.out.find("does not compile (CE)"), std::string::npos) << result.out;
  EXPECT_FALSE(has_control_bytes(result.out)) << result.out;
  EXPECT_FALSE(has_control_bytes(result.err)) << result.err;
}

TEST_F(SetterCliTest, StressUsageErrors) {
  EXPECT_EQ(run({"stress", "-p", "willow", "--count", "5"}).status, 2);  // no --solution
  EXPECT_EQ(run({"stress", "-p", "boigame", "-s", "true", "--cities", "5"}).status, 2);
  EXPECT_EQ(run({"stress", "-p", "willow", "-s", "true", "--cities", "9..3"}).status, 2);
  EXPECT_EQ(run({"stress", "-p", "willow", "-s", "true", "--count", "0"}).status, 2);
}

}  // namespace
