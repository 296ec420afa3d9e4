// `gamebatch table doublemove`: the k = 0 answers as a C++ header that compiles on its own as
// C++17 (and holds the right numbers), as JSON and as CSV that read back to the same numbers.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/state_table.hpp"
#include "io/doublemove/table.hpp"
#include "tests/test_data.hpp"

namespace gamebatch::io::doublemove {
namespace {

namespace game = gamebatch::doublemove;
using game::Value;

constexpr int kMaxTestedN = 36;

// The answers, each from its own table.
const std::vector<Value>& expected_answers() {
  static const std::vector<Value> answers = [] {
    std::vector<Value> computed;
    for (int n = 1; n <= kMaxTestedN; ++n)
      computed.push_back(game::StateTable::build(n)->initial_value());
    return computed;
  }();
  return answers;
}

TEST(DoublemoveTable, AnswersAreTheInitialStatesOfEachN) {
  EXPECT_EQ(k0_answers(kMaxTestedN), expected_answers());
  // The spec's k = 0 examples.
  EXPECT_EQ(expected_answers()[1], 4u);
  EXPECT_EQ(expected_answers()[2], 8u);
  EXPECT_EQ(expected_answers()[3], 16u);
  EXPECT_EQ(expected_answers()[4], 40u);
}

TEST(DoublemoveTable, FormatNamesAndLimits) {
  EXPECT_EQ(parse_table_format("cpp"), TableFormat::cpp);
  EXPECT_EQ(parse_table_format("json"), TableFormat::json);
  EXPECT_EQ(parse_table_format("csv"), TableFormat::csv);
  EXPECT_EQ(parse_table_format("CSV"), std::nullopt);
  EXPECT_THROW(k0_answers(0), std::invalid_argument);
  EXPECT_THROW(k0_answers(game::kMaxN + 1), std::invalid_argument);
  EXPECT_THROW(format_k0_table({4}, TableFormat::csv, "1.0 */ x"), std::invalid_argument);
}

TEST(DoublemoveTable, CsvReadsBackToTheSameNumbers) {
  const std::string csv = k0_table(kMaxTestedN, TableFormat::csv, "0.1.0");
  std::istringstream lines(csv);
  std::string line;
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_EQ(line, "n,answer");
  int n = 0;
  while (std::getline(lines, line)) {
    ++n;
    EXPECT_EQ(line, std::to_string(n) + "," +
                        game::to_decimal(expected_answers()[static_cast<std::size_t>(n - 1)]));
  }
  EXPECT_EQ(n, kMaxTestedN);
}

TEST(DoublemoveTable, JsonReadsBackToTheSameNumbers) {
  const auto json = nlohmann::json::parse(k0_table(kMaxTestedN, TableFormat::json, "0.1.0"));
  EXPECT_EQ(json.at("game"), "doublemove");
  EXPECT_EQ(json.at("generator"), "gamebatch 0.1.0");
  const auto& answers = json.at("answers");
  ASSERT_EQ(answers.size(), static_cast<std::size_t>(kMaxTestedN));
  for (int n = 1; n <= kMaxTestedN; ++n) {
    const auto& entry = answers[static_cast<std::size_t>(n - 1)];
    EXPECT_EQ(entry.at("n").get<int>(), n);
    ASSERT_TRUE(entry.at("answer").is_number_unsigned());
    EXPECT_EQ(Value{entry.at("answer").get<std::uint64_t>()},
              expected_answers()[static_cast<std::size_t>(n - 1)]);
  }
}

// Runs the compiler on `source` with the generated header beside it; returns its exit status
// and (through `output`) what it printed.
int compile_as_cxx17(const std::string& header, const std::string& source, std::string& output) {
#ifdef GAMEBATCH_HEADER_CHECK_CXX
  const auto directory = std::filesystem::temp_directory_path() /
                         ("doublemove_table_test_" + std::to_string(::getpid()));
  gamebatch::testing::write_text(directory / "doublemove_k0.h", header);
  gamebatch::testing::write_text(directory / "check.cpp", source);
  const auto log = directory / "compiler.log";
  const std::string command = std::string(GAMEBATCH_HEADER_CHECK_CXX) +
                              " -std=c++17 -fsyntax-only -Wall -Wextra -Wpedantic -Werror '" +
                              (directory / "check.cpp").string() + "' > '" + log.string() +
                              "' 2>&1";
  const int status = std::system(command.c_str());
  output = gamebatch::testing::read_text(log);
  std::filesystem::remove_all(directory);
  return status;
#else
  (void)header;
  (void)source;
  output = "no compiler";
  return -1;
#endif
}

bool have_compiler() {
#ifdef GAMEBATCH_HEADER_CHECK_CXX
  return std::filesystem::exists(GAMEBATCH_HEADER_CHECK_CXX);
#else
  return false;
#endif
}

TEST(DoublemoveTable, CppHeaderCompilesOnItsOwnAndHoldsTheAnswers) {
  if (!have_compiler())
    GTEST_SKIP() << "no C++ compiler found at configure time: the header is not compiled";
  const std::string header = k0_table(kMaxTestedN, TableFormat::cpp, "0.1.0");
  EXPECT_NE(header.find("gamebatch 0.1.0"), std::string::npos);
  EXPECT_NE(header.find("k = 0"), std::string::npos);
  std::string alone;
  EXPECT_EQ(compile_as_cxx17(header, "#include \"doublemove_k0.h\"\n", alone), 0) << alone;
  // The compiler itself checks every entry: -fsyntax-only still evaluates static_assert.
  std::string source = "#include \"doublemove_k0.h\"\n#include \"doublemove_k0.h\"\n";
  source += "static_assert(sizeof kDoublemoveK0Answers / sizeof kDoublemoveK0Answers[0] == " +
            std::to_string(kMaxTestedN + 1) + ", \"size\");\n";
  for (int n = 1; n <= kMaxTestedN; ++n) {
    source += "static_assert(kDoublemoveK0Answers[" + std::to_string(n) +
              "] == " + game::to_decimal(expected_answers()[static_cast<std::size_t>(n - 1)]) +
              "ull, \"n = " + std::to_string(n) + "\");\n";
  }
  std::string checked;
  EXPECT_EQ(compile_as_cxx17(header, source, checked), 0) << checked;
}

// Above n = 63 the answers need more than 64 bits: the header switches to {high, low} halves.
// Built from given numbers (tables up to n = 64 take too long for a unit test).
TEST(DoublemoveTable, WideCppHeaderCompilesAndSplitsIntoHalves) {
  if (!have_compiler())
    GTEST_SKIP() << "no C++ compiler found at configure time: the header is not compiled";
  std::vector<Value> answers;
  for (int n = 1; n <= 64; ++n)
    answers.push_back((Value{1} << (n + 1)) - static_cast<Value>(n));
  const std::string header = format_k0_table(answers, TableFormat::cpp, "0.1.0");
  std::string source = "#include \"doublemove_k0.h\"\n";
  for (const int n : {1, 62, 63, 64}) {
    const Value answer = answers[static_cast<std::size_t>(n - 1)];
    source += "static_assert(kDoublemoveK0Answers[" + std::to_string(n) +
              "].high == " + game::to_decimal(answer >> 64) + "ull && kDoublemoveK0Answers[" +
              std::to_string(n) +
              "].low == " + game::to_decimal(static_cast<std::uint64_t>(answer)) + "ull, \"n\");\n";
  }
  std::string output;
  EXPECT_EQ(compile_as_cxx17(header, source, output), 0) << output;
  EXPECT_NE(header.find(game::to_decimal(answers[63])), std::string::npos);  // in the comment
}

}  // namespace
}  // namespace gamebatch::io::doublemove
