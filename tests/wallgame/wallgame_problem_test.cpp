// wallgame as the pipeline sees it: found in the registry, the original examples solved through
// the Problem interface byte for byte, the answer line and the canonical form of a case.
#include <gtest/gtest.h>

#include <string>

#include "io/format/input_error.hpp"
#include "io/problem.hpp"
#include "tests/test_data.hpp"

namespace gamebatch::io {
namespace {

const Problem& wallgame_problem() {
  const Problem* problem = find_problem("wallgame");
  if (problem == nullptr)
    throw std::runtime_error("wallgame is not in the registry");
  return *problem;
}

// The whole answer file for `input`, as the pipeline writes it.
std::string answers_for(const std::string& input) {
  const Problem& problem = wallgame_problem();
  std::string answers;
  std::size_t case_number = 0;
  for (const auto& each : problem.parse(input))
    answers += problem.answer_line(++case_number, each->solve());
  return answers;
}

TEST(WallgameProblem, IsRegisteredUnderItsName) {
  const Problem* problem = find_problem("wallgame");
  ASSERT_NE(problem, nullptr);
  EXPECT_EQ(problem->name(), "wallgame");
  EXPECT_FALSE(problem->summary().empty());
  EXPECT_EQ(problem->solver_version(), 1u);
}

TEST(WallgameProblem, SolvesTheOriginalExamplesByteForByte) {
  EXPECT_EQ(answers_for(gamebatch::testing::read_test_file("wallgame/examples.in")),
            gamebatch::testing::read_test_file("wallgame/examples.ans"));
}

TEST(WallgameProblem, AnswerLineIsTheBareNumber) {
  EXPECT_EQ(wallgame_problem().answer_line(3, "7366"), "7366\n");
}

TEST(WallgameProblem, SameCaseHasTheSameCanonicalTextWhateverItsLayout) {
  const auto first = wallgame_problem().parse("2\n2 2\n12\n34\n1 1\n0\n");
  const auto second = wallgame_problem().parse("1\r\n 2\t2\r\n12 34");
  ASSERT_EQ(first.size(), 2u);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(first[0]->canonical(), "2 2\n12\n34\n");
  EXPECT_EQ(second[0]->canonical(), first[0]->canonical());
  EXPECT_NE(first[1]->canonical(), first[0]->canonical());
}

TEST(WallgameProblem, BadInputIsAnInputErrorWithItsLine) {
  try {
    wallgame_problem().parse("1\n2 2\n12\n3\n");
    FAIL() << "accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(error.line(), 4u);
  }
}

}  // namespace
}  // namespace gamebatch::io
