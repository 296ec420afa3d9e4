// A case travels to another MPI rank as its canonical text: parse_canonical_case must rebuild a
// case with the same canonical text and the same answer, for every game; and refuse what is not
// exactly one case.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "io/files/generate.hpp"
#include "io/format/input_error.hpp"
#include "io/problem.hpp"

namespace {

using namespace gamebatch;

TEST(CanonicalCaseTest, EveryGamesCaseSurvivesTheTripThroughItsCanonicalText) {
  for (const io::Problem* problem : io::all_problems()) {
    const std::optional<io::GameOptions> options = io::default_game_options(problem->name());
    ASSERT_TRUE(options.has_value()) << problem->name();
    std::size_t checked = 0;
    for (std::uint64_t file = 1; file <= 6; ++file) {
      const std::string text = io::generate_file_text(*options, 11, file, 4);
      for (const std::unique_ptr<io::Case>& original : problem->parse(text)) {
        const std::string canonical = original->canonical();
        const std::unique_ptr<io::Case> rebuilt = problem->parse_canonical_case(canonical);
        ASSERT_NE(rebuilt, nullptr);
        EXPECT_EQ(rebuilt->canonical(), canonical) << problem->name();
        EXPECT_EQ(rebuilt->solve(), original->solve()) << problem->name() << ":\n" << canonical;
        ++checked;
      }
    }
    EXPECT_EQ(checked, 24u) << problem->name();
  }
}

TEST(CanonicalCaseTest, TextThatIsNotOneCaseIsRefused) {
  for (const io::Problem* problem : io::all_problems()) {
    const std::optional<io::GameOptions> options = io::default_game_options(problem->name());
    ASSERT_TRUE(options.has_value());
    const std::string one =
        problem->parse(io::generate_file_text(*options, 3, 1, 1)).front()->canonical();
    EXPECT_THROW((void)problem->parse_canonical_case(""), io::InputError) << problem->name();
    EXPECT_THROW((void)problem->parse_canonical_case(one + one), io::InputError)
        << problem->name() << ": two cases";
    EXPECT_THROW((void)problem->parse_canonical_case(one.substr(0, one.size() / 2)), io::InputError)
        << problem->name() << ": half a case";
  }
}

}  // namespace
