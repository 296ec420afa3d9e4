// End-to-end: `gamebatch explain` on every game's examples (each explained case ends with the
// answer solve gives), the same line at every --jobs, and bad input refused with exit 2 and
// nothing printed.
#include "cli_fixture.hpp"

namespace {

using namespace gamebatch::testing;

struct Examples {
  std::string game;
  std::string input;     // under tests/data/GAME/
  std::string expected;  // its answers
};

const std::vector<Examples>& examples() {
  static const std::vector<Examples> all = {
      {"willow", "sample.in", "sample.ans"},
      {"doublemove", "examples.in", "examples.ans"},
      {"wallgame", "examples.in", "examples.ans"},
      {"boigame", "sample.in", "sample.ans"},
  };
  return all;
}

// The answers of an explain's output ("answer: X" lines), or of an answer file (willow's
// "Case #k: X" lines reduced to X).
std::vector<std::string> answers_in(const std::string& text, const std::string& prefix) {
  std::vector<std::string> answers;
  for (const std::string& line : lines_of(text)) {
    if (prefix.empty())
      answers.push_back(
          line.substr(line.find(": ") == std::string::npos ? 0 : line.find(": ") + 2));
    else if (starts_with(line, prefix))
      answers.push_back(line.substr(prefix.size()));
  }
  return answers;
}

class ExplainCliTest : public CliTest {};

TEST_F(ExplainCliTest, EveryGameExplainsItsExamplesUpToTheirAnswers) {
  for (const Examples& files : examples()) {
    SCOPED_TRACE(files.game);
    write_text(at("in"), read_test_file(files.game + "/" + files.input));
    const Result result = run({"explain", "-p", files.game, "in"});
    EXPECT_EQ(result.status, 0) << result.err;
    EXPECT_EQ(answers_in(result.out, "answer: "),
              answers_in(read_test_file(files.game + "/" + files.expected), ""));
    EXPECT_EQ(count_containing(lines_of(result.out), "Case #"),
              answers_in(result.out, "answer: ").size());
  }
}

TEST_F(ExplainCliTest, OneCaseAloneIsTheSameAsInTheWhole) {
  write_text(at("in"), read_test_file("willow/sample.in"));
  const Result whole = run({"explain", "-p", "willow", "in"});
  const Result second = run({"explain", "-p", "willow", "in", "--case", "2"});
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_TRUE(starts_with(second.out, "Case #2:\n")) << second.out;
  EXPECT_NE(whole.out.find(second.out), std::string::npos);
}

TEST_F(ExplainCliTest, TheLineIsTheSameAtEveryJobs) {
  for (const std::string game : {"willow", "doublemove", "wallgame", "boigame"}) {
    SCOPED_TRACE(game);
    const std::string input =
        game == std::string("willow")
            ? "willow/D-large-practice.in"
            : game + (game == std::string("boigame") ? "/sample.in" : "/examples.in");
    write_text(at("in"), read_test_file(input));
    const Result one = run({"explain", "-p", game, "in", "--jobs", "1"});
    const Result many = run({"explain", "-p", game, "in", "--jobs", "4"});
    EXPECT_EQ(one.status, 0) << one.err;
    EXPECT_FALSE(one.out.empty());
    EXPECT_EQ(one.out, many.out);
  }
}

TEST_F(ExplainCliTest, BadInputIsAUsageErrorAndPrintsNothing) {
  write_text(at("walls.in"), read_test_file("wallgame/examples.in"));
  const Result out_of_range = run({"explain", "-p", "wallgame", "walls.in", "--case", "5"});
  EXPECT_EQ(out_of_range.status, 2);
  EXPECT_EQ(out_of_range.out, "");
  EXPECT_NE(out_of_range.err.find("has 4 cases; --case 5 is out of range"), std::string::npos)
      << out_of_range.err;
  const Result wrong_game = run({"explain", "-p", "boigame", "walls.in"});
  EXPECT_EQ(wrong_game.status, 2);
  EXPECT_EQ(wrong_game.out, "");
  EXPECT_NE(wrong_game.err.find("walls.in:2: "), std::string::npos) << wrong_game.err;
  EXPECT_NE(wrong_game.err.find("is it a boigame input?"), std::string::npos) << wrong_game.err;
  const Result missing = run({"explain", "-p", "willow", "missing.in"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.out, "");
  const Result zero = run({"explain", "-p", "wallgame", "walls.in", "--case", "0"});
  EXPECT_EQ(zero.status, 2);
}

}  // namespace
