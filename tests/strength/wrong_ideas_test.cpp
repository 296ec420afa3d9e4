// What test strength knows of each game (core/GAME/strength.hpp, io::Problem's strength members):
// the search the wrong ideas change one rule of agrees with the solver under the statement's
// rules; willow's pair values give the solver's answer; every wrong idea is wrong on some
// generated case and right on another, and wrong on the smallest counterexample docs/games.md
// draws for it (stress's shrunk case); gen's shapes are told from the cases gen makes of them.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>

#include "core/doublemove/generators.hpp"
#include "core/doublemove/strength.hpp"
#include "core/willow/generators.hpp"
#include "core/willow/play.hpp"
#include "core/willow/willow.hpp"
#include "io/files/generate.hpp"
#include "io/problem.hpp"
#include "pipeline/judge/stress_run.hpp"
#include "pipeline/strength/gaps.hpp"
#include "tests/test_data.hpp"

namespace gamebatch {
namespace {

RC_GTEST_PROP(StrengthDoublemove, TheSearchUnderTheStatementsRulesIsTheSolvers, ()) {
  const int n = *rc::gen::inRange(1, 11);
  const int k = *rc::gen::inRange(0, n + 2);
  const auto pattern = *rc::gen::elementOf(std::vector<doublemove::DeclarationPattern>(
      std::begin(doublemove::kAllPatterns), std::end(doublemove::kAllPatterns)));
  std::mt19937_64 rng(*rc::gen::arbitrary<std::uint64_t>());
  const doublemove::Instance instance = doublemove::generate_instance(n, k, pattern, rng);
  RC_ASSERT(doublemove::value_under(instance, doublemove::Rules::exact) ==
            doublemove::solve(instance));
}

RC_GTEST_PROP(StrengthWillow, PairValuesGiveTheSolversAnswer, ()) {
  const auto shape = *rc::gen::elementOf(std::vector<willow::TreeShape>(
      std::begin(willow::kBenchShapes), std::end(willow::kBenchShapes)));
  const int cities = *rc::gen::inRange(1, 40);
  std::mt19937_64 rng(*rc::gen::arbitrary<std::uint64_t>());
  const willow::Instance instance =
      willow::generate_instance(shape, cities, willow::CoinPattern::mixed, 30, rng);
  const willow::PairValues value(instance);
  willow::Coins answer = 0;
  for (std::int32_t a = 0; a < instance.city_count(); ++a) {
    willow::Coins row = value(a, 0);
    for (std::int32_t b = 1; b < instance.city_count(); ++b)
      row = std::min(row, value(a, b));
    answer = a == 0 ? row : std::max(answer, row);
  }
  RC_ASSERT(answer == willow::solve(instance));
}

// Every wrong idea of every game is wrong on a case gen makes, and right on another.
TEST(StrengthIdeas, EachIdeaIsWrongOnSomeCaseAndRightOnAnother) {
  for (const io::Problem* problem : io::all_problems()) {
    const std::vector<io::WrongIdea> ideas = problem->wrong_ideas();
    ASSERT_GE(ideas.size(), 3u) << problem->name();
    std::optional<io::GameOptions> options = io::default_game_options(problem->name());
    ASSERT_TRUE(options);
    for (const std::string_view size : problem->size_parameters())  // wallgame: one column too
      io::set_parameter_range(*options, size, problem->name() == "wallgame" ? 1 : 2, 7);
    std::vector<bool> wrong(ideas.size(), false), right(ideas.size(), false);
    for (std::uint64_t file = 1; file <= 3000; ++file) {
      for (const auto& a_case : problem->parse(io::generate_file_text(*options, 5, file, 1))) {
        const std::string canonical = a_case->canonical();
        const std::string exact = a_case->solve();
        for (std::size_t i = 0; i < ideas.size(); ++i)
          (ideas[i].answer(canonical) == exact ? right : wrong)[i] = true;
      }
      if (std::all_of(wrong.begin(), wrong.end(), [](bool b) { return b; }) &&
          std::all_of(right.begin(), right.end(), [](bool b) { return b; }))
        break;
    }
    for (std::size_t i = 0; i < ideas.size(); ++i) {
      EXPECT_TRUE(wrong[i]) << problem->name() << " " << ideas[i].name << " is never wrong";
      EXPECT_TRUE(right[i]) << problem->name() << " " << ideas[i].name << " is never right";
    }
  }
}

// Where docs/games.md's counterexample of each wrong idea lives: tests/data/strength/ideas/.
std::string counterexample_file(const io::Problem& problem, const io::WrongIdea& idea) {
  return "strength/ideas/" + std::string(problem.name()) + "-" + idea.name + ".in";
}

// Each wrong idea gives another answer than the solver on its documented counterexample, and
// that case is what stress shrinks the idea's first failure to (small sizes, seed 1), so the
// docs show the smallest case the tool itself finds. GAMEBATCH_WRITE_IDEAS=1 writes them anew.
TEST(StrengthIdeas, EachIdeaFailsItsDocumentedCounterexampleStressShrinksTo) {
  const bool write = std::getenv("GAMEBATCH_WRITE_IDEAS") != nullptr;
  for (const io::Problem* problem : io::all_problems()) {
    for (const io::WrongIdea& idea : problem->wrong_ideas()) {
      pipeline::StressOptions options;
      options.problem = problem;
      options.game = *io::default_game_options(problem->name());
      for (const std::string_view size : problem->size_parameters())
        io::set_parameter_range(options.game, size, problem->name() == "wallgame" ? 1 : 2, 7);
      options.count = 3000;
      options.in_process = pipeline::idea_as_solution(*problem, idea);
      const pipeline::StressResult result = pipeline::run_stress(options);
      ASSERT_TRUE(result.shrunk) << problem->name() << " " << idea.name;
      const std::string file = counterexample_file(*problem, idea);
      if (write)
        testing::write_text(testing::test_data(file), result.shrunk->input);
      const std::string documented = testing::read_test_file(file);
      EXPECT_EQ(documented, result.shrunk->input) << file << " is not stress's shrunk case";
      const auto cases = problem->parse(documented);
      ASSERT_EQ(cases.size(), 1u) << file;
      EXPECT_NE(idea.answer(cases[0]->canonical()), cases[0]->solve()) << file;
    }
  }
}

// gen's cases of a shape are told as that shape (but "random" and "uniform", which are what is
// left when nothing else is told).
TEST(StrengthShapes, GensCasesOfAShapeAreToldAsIt) {
  for (const io::Problem* problem : io::all_problems()) {
    for (const std::string& shape : problem->shapes()) {
      if (shape == "random" || shape == "uniform")
        continue;
      std::optional<io::GameOptions> options = io::default_game_options(problem->name());
      ASSERT_TRUE(io::set_shape(*options, shape)) << problem->name() << " " << shape;
      for (const std::string_view size : problem->size_parameters())
        io::set_parameter_range(*options, size, 8, 12);
      if (problem->name() == "doublemove" && shape == "forest")
        io::set_parameter_range(*options, "k", 2, 7);  // a forest of n values has n - 1 edges
      if (problem->name() == "doublemove" && shape != "forest")
        io::set_parameter_range(*options, "k", 4, 9);
      std::size_t told = 0;
      for (std::uint64_t file = 1; file <= 5; ++file) {
        for (const auto& a_case : problem->parse(io::generate_file_text(*options, 9, file, 1))) {
          const std::vector<std::string> shapes = problem->shapes_of(a_case->canonical());
          told += std::find(shapes.begin(), shapes.end(), shape) != shapes.end() ? 1 : 0;
        }
      }
      EXPECT_GE(told, 4u) << problem->name() << " " << shape;
    }
  }
}

}  // namespace
}  // namespace gamebatch
