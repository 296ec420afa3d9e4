// Strict validation (io/format/strict_format.hpp): the official files pass, every rule and limit is
// enforced and named, what strict accepts the lenient parser reads back to the same bytes, the
// mutants break what they say, and the written validator, compiled as a setter would, gives the
// same verdict and message as `gamebatch validate` on 10,000 valid and mutated inputs per game.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <oneapi/tbb/parallel_for.h>

#include "io/files/generate.hpp"
#include "io/files/input_set.hpp"
#include "io/format/strict_format.hpp"
#include "io/problem.hpp"

namespace {

namespace fs = std::filesystem;
namespace io = gamebatch::io;

const std::vector<std::string> kGames = {"willow", "doublemove", "wallgame", "boigame"};

// The rule strict_check names for `text`, or "valid".
std::string rule_of(const std::string& game, const std::string& text,
                    const std::vector<io::NarrowLimit>& limits = {}) {
  const std::optional<io::StrictRejection> rejection = io::strict_check(game, text, limits);
  return rejection ? rejection->rule : "valid";
}

// A generated file of `cases` cases of `game` (gen's default options: within the statement).
std::string generated(const std::string& game, std::uint64_t seed, std::int64_t cases) {
  return io::generate_file_text(*io::default_game_options(game), seed, 1, cases);
}

// The official files are valid; the files of tests/data beyond the statement's limits (late
// doublemove cases, n up to 62) are rejected for a limit, where the lenient check finds them.
TEST(StrictFormat, OfficialFilesAreValid) {
  std::size_t official = 0;
  for (const std::string& game : kGames) {
    for (const fs::directory_entry& entry :
         fs::directory_iterator(fs::path(GAMEBATCH_TEST_DATA) / game)) {
      if (entry.path().extension() != ".in")
        continue;
      const std::string text = io::read_file(entry.path());
      const std::optional<io::StrictRejection> rejection = io::strict_check(game, text);
      const io::OfficialLimitReport lenient = io::find_problem(game)->check_official_limits(text);
      if (lenient.count == 0) {
        ++official;
        EXPECT_FALSE(rejection) << entry.path() << ": " << io::describe(*rejection);
      } else {
        ASSERT_TRUE(rejection) << entry.path();
        EXPECT_EQ(rejection->line, lenient.violations.front().line) << entry.path();
        EXPECT_EQ(io::statement_ranges(game).count(rejection->rule), 1U) << rejection->rule;
      }
    }
  }
  EXPECT_GE(official, 7U);
}

// The nine variants the issue found `validate` accepting, each rejected with its rule and place.
TEST(StrictFormat, WillowVariantsAreRejectedWithTheirRule) {
  const std::string valid = "1\n2\n5\n7\n2\n";
  ASSERT_EQ(rule_of("willow", valid), "valid");
  const std::vector<std::array<std::string, 3>> variants = {
      {"1\n2\n5 7\n2\n", "one line as the statement gives it", "line 3, column 2"},
      {"1\r\n2\n5\n7\n2\n", "LF line ends", "line 1, column 2"},
      {"1\n02\n5\n7\n2\n", "integer form", "line 2, column 1"},
      {"1\n+2\n5\n7\n2\n", "integer form", "line 2, column 1"},
      {"1\n\n2\n5\n7\n2\n", "no blank lines", "line 2, column 1"},
      {"1\n2\n5\n7\n2\n\n", "no blank lines", "line 6, column 1"},
      {"1\n2 \n5\n7\n2\n", "no trailing spaces", "line 2, column 2"},
      {"1\n2\n5\n7\n2", "final newline", "line 5, column 2"},
      {" 1\n2\n5\n7\n2\n", "no leading spaces", "line 1, column 1"},
      {"1\n2\n-0\n7\n2\n", "integer form", "line 3, column 1"},
      {"1\n2\n5\n7\n1\n", "i < j_i <= N", "line 5, column 1"},
      {"1\n2\n5\n10001\n2\n", "C", "line 4, column 1"},
      {"1\n1\n5\n", "N", "line 2, column 1"},
      {"1\n2\n5\n7\n2\n1\n", "nothing after the last case", "line 6, column 1"},
      {"1\n2\n5\n7\n", "complete input", "line 4, column 2"},  // after the last byte, as solve
      {"1\n2\n5\n", "complete input", "line 3, column 2"},
      {"1\n2\n5x\n7\n2\n", "integer", "line 3, column 1"},
  };
  for (const auto& [text, rule, place] : variants) {
    const std::optional<io::StrictRejection> rejection = io::strict_check("willow", text);
    ASSERT_TRUE(rejection) << text;
    EXPECT_EQ(rejection->rule, rule) << text;
    EXPECT_EQ(io::describe(*rejection).substr(0, place.size()), place) << io::describe(*rejection);
  }
}

TEST(StrictFormat, GroupLimitsNarrowTheStatementsAndIntersect) {
  const std::string text = generated("willow", 3, 1);
  const std::int64_t cities = std::stoll(text.substr(2));
  EXPECT_EQ(rule_of("willow", text, {{"N", 2, cities - 1, "group small"}}), "N");
  EXPECT_EQ(rule_of("willow", text, {{"N", 2, cities, "group small"}}), "valid");
  // Two groups hold the test (one includes the other): both ranges apply.
  EXPECT_EQ(rule_of("willow", text, {{"N", 2, 4000, "a"}, {"N", cities + 1, 4000, "b"}}), "N");
  EXPECT_THROW(io::strict_check("willow", text, {{"n", 1, 2, "g"}}), std::invalid_argument);
  EXPECT_THROW(io::strict_check("chess", text), std::invalid_argument);
}

// What strict accepts, the parser solve uses reads, and writes back byte for byte.
void expect_canonical(const std::string& game, const std::string& text) {
  const io::Problem& problem = *io::find_problem(game);
  std::vector<std::string> canonical;
  for (const auto& parsed : problem.parse(text))
    canonical.push_back(parsed->canonical());
  EXPECT_EQ(problem.file_of_cases(canonical), text);
  EXPECT_EQ(problem.check_official_limits(text).count, 0U) << text;
}

TEST(StrictFormat, MutantsBreakWhatTheySayAndOnlyThat) {
  const std::map<std::string, std::vector<io::NarrowLimit>> group = {
      {"willow", {{"N", 2, 60, "g"}, {"C", 0, 9000, "g"}, {"T", 1, 3, "g"}}},
      {"doublemove", {{"n", 1, 25, "g"}, {"k", 0, 20, "g"}, {"T", 1, 3, "g"}}},
      {"wallgame", {{"h", 2, 60, "g"}, {"w", 1, 60, "g"}, {"T", 1, 3, "g"}}},
      {"boigame", {{"n", 2, 20, "g"}, {"t", 1, 3, "g"}}},
  };
  for (const std::string& game : kGames) {
    std::set<std::string> rules;
    io::GameOptions options = *io::default_game_options(game);
    ASSERT_EQ(io::narrow_to_limits(options, group.at(game)), "");
    std::size_t made = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      const std::string text =
          io::generate_file_text(options, seed, 1, 1 + static_cast<std::int64_t>(seed % 3));
      expect_canonical(game, text);
      if (rule_of(game, text, group.at(game)) != "valid")
        continue;  // gen cannot aim at every limit (a willow coin's largest value)
      ++made;
      for (const io::Mutant& mutant : io::make_mutants(game, text, group.at(game), seed)) {
        ASSERT_EQ(rule_of(game, mutant.text, group.at(game)), mutant.rule)
            << game << ": " << mutant.what << "\n"
            << mutant.text;
        // A group-limit mutant is an official input, outside the group alone.
        EXPECT_EQ(rule_of(game, mutant.text) == "valid", mutant.breaks_group_limit)
            << game << ": " << mutant.what;
        if (mutant.breaks_group_limit)
          expect_canonical(game, mutant.text);
        rules.insert(mutant.rule);
      }
    }
    EXPECT_GE(made, 20U) << game;
    for (const char* rule :
         {"LF line ends", "no trailing spaces", "no leading spaces", "no blank lines",
          "final newline", "nothing after the last case", "complete input",
          "one line as the statement gives it", "integer form", "integer"})
      EXPECT_EQ(rules.count(rule), 1U) << game << " has no mutant for " << rule;
    for (const auto& [parameter, range] : io::statement_ranges(game))
      EXPECT_EQ(rules.count(parameter), 1U) << game << " has no mutant for " << parameter;
  }
}

// `gamebatch validator GAME`'s program, compiled as a setter would; the path of the program.
fs::path compile_validator(const std::string& game, const fs::path& directory) {
  const fs::path source = directory / (game + ".cpp");
  std::ofstream(source) << io::validator_source(game);
  const fs::path program = directory / game;
  const std::string command = std::string(GAMEBATCH_TEST_CXX) +
                              " -std=c++17 -O2 -Wall -Wextra -Wpedantic -Werror -o " +
                              program.string() + " " + source.string() + " 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return program;
}

// Runs `program` with `text` on stdin; its exit status and what it wrote on stderr. posix_spawn
// (no copy of this large process's page tables) keeps 40,000 runs cheap.
std::pair<int, std::string> run_validator(const fs::path& program, const std::string& text,
                                          const std::vector<std::string>& arguments = {}) {
  // A validator that stops reading (a usage error) must not end the test with SIGPIPE.
  static const bool ignoring_broken_pipes = std::signal(SIGPIPE, SIG_IGN) != SIG_ERR;
  EXPECT_TRUE(ignoring_broken_pipes);
  int input[2];
  int errors[2];
  if (pipe2(input, O_CLOEXEC) != 0 || pipe2(errors, O_CLOEXEC) != 0)
    return {-1, "pipe failed"};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, input[0], 0);
  posix_spawn_file_actions_adddup2(&actions, errors[1], 2);
  std::vector<char*> argv{const_cast<char*>(program.c_str())};
  for (const std::string& argument : arguments)
    argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  pid_t child = 0;
  const int spawned = posix_spawn(&child, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(input[0]);
  close(errors[1]);
  if (spawned != 0) {
    close(input[1]);
    close(errors[0]);
    return {-1, "posix_spawn failed"};
  }
  // The inputs are small (a pipe holds 64 KiB), and the validator reads all before writing.
  for (std::size_t written = 0; written < text.size();) {
    const ssize_t count = write(input[1], text.data() + written, text.size() - written);
    if (count <= 0)
      break;
    written += static_cast<std::size_t>(count);
  }
  close(input[1]);
  std::string said;
  char buffer[4096];
  for (ssize_t count; (count = read(errors[0], buffer, sizeof buffer)) > 0;)
    said.append(buffer, static_cast<std::size_t>(count));
  close(errors[0]);
  int status = 0;
  waitpid(child, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, said};
}

// A random edit of `text`: a byte replaced, inserted or removed, from the bytes that matter.
std::string edited(std::string text, std::mt19937_64& random) {
  const std::string bytes = "0123456789 \n\r\t-+x.#AB";
  const std::size_t at = random() % (text.size() + 1);
  const char byte = bytes[random() % bytes.size()];
  switch (random() % 3) {
    case 0:
      if (at < text.size())
        text[at] = byte;
      break;
    case 1:
      text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), byte);
      break;
    default:
      if (at < text.size())
        text.erase(at, 1);
  }
  return text;
}

// 10,000 inputs of `game`: generated files, their mutants and random edits of both.
std::vector<std::string> inputs_of(const std::string& game) {
  std::vector<std::string> inputs;
  std::mt19937_64 random(std::hash<std::string>()(game));
  for (std::uint64_t seed = 1; inputs.size() < 10'000; ++seed) {
    const std::string text = generated(game, seed, 1 + static_cast<std::int64_t>(seed % 3));
    inputs.push_back(text);
    const std::vector<io::Mutant> mutants = io::make_mutants(game, text, {}, seed);
    for (std::size_t k = 0; k < 3; ++k) {
      const io::Mutant& mutant = mutants[random() % mutants.size()];
      if (mutant.text.size() < 60'000)
        inputs.push_back(k == 0 ? mutant.text : edited(mutant.text, random));
    }
    inputs.push_back(edited(text, random));
    inputs.push_back(edited(edited(text, random), random));
  }
  inputs.resize(10'000);
  for (const fs::directory_entry& entry :
       fs::directory_iterator(fs::path(GAMEBATCH_TEST_DATA) / game)) {
    if (entry.path().extension() == ".in")
      inputs.push_back(io::read_file(entry.path()));
  }
  return inputs;
}

TEST(StrictFormat, WrittenValidatorAgreesWithValidateOnTenThousandInputsPerGame) {
  const fs::path directory =
      fs::temp_directory_path() / ("strict-validators-" + std::to_string(getpid()));
  fs::create_directories(directory);
  for (const std::string& game : kGames) {
    const fs::path program = compile_validator(game, directory);
    ASSERT_TRUE(fs::exists(program));
    const std::vector<std::string> inputs = inputs_of(game);
    std::vector<std::string> disagreements(inputs.size());
    tbb::parallel_for(std::size_t{0}, inputs.size(), [&](std::size_t k) {
      const std::optional<io::StrictRejection> rejection = io::strict_check(game, inputs[k]);
      const auto [status, said] = run_validator(program, inputs[k]);
      const int expected_status = rejection ? 43 : 42;
      const std::string expected_said = rejection ? io::describe(*rejection) + "\n" : "";
      if (status != expected_status || said != expected_said)
        disagreements[k] = "exit " + std::to_string(status) + " '" + said +
                           "', validate: " + std::to_string(expected_status) + " '" +
                           expected_said + "'";
    });
    std::size_t valid = 0;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      EXPECT_EQ(disagreements[k], "") << game << " input " << k << ":\n" << inputs[k];
      valid += io::strict_check(game, inputs[k]) ? 0 : 1;
    }
    // Both verdicts are well represented.
    EXPECT_GT(valid, inputs.size() / 10) << game;
    EXPECT_LT(valid, inputs.size() * 9 / 10) << game;
  }
  fs::remove_all(directory);
}

TEST(StrictFormat, WrittenValidatorTakesAGroupsLimitsAsArgumentsAndDefaults) {
  const fs::path directory =
      fs::temp_directory_path() / ("strict-group-" + std::to_string(getpid()));
  fs::create_directories(directory);
  const fs::path plain = compile_validator("doublemove", directory);
  const std::string text = "1\n12 0\n";
  EXPECT_EQ(run_validator(plain, text).first, 42);
  EXPECT_EQ(run_validator(plain, text, {"--n", "1..10"}).first, 43);
  EXPECT_EQ(run_validator(plain, text, {"--n=1..12"}).first, 42);
  EXPECT_EQ(run_validator(plain, text, {"--k", "0"}).first, 42);
  EXPECT_EQ(run_validator(plain, text, {"--N", "1..10"}).first, 2);  // doublemove's n is lower case
  EXPECT_EQ(run_validator(plain, text, {"--n", "10..1"}).first, 2);
  // --limits "n=1..10": the group's limits as the program's defaults.
  std::ofstream(directory / "group.cpp")
      << io::validator_source("doublemove", {{"n", 1, 10, "--limits"}});
  const std::string command = std::string(GAMEBATCH_TEST_CXX) + " -std=c++17 -O2 -o " +
                              (directory / "group").string() + " " +
                              (directory / "group.cpp").string();
  ASSERT_EQ(std::system(command.c_str()), 0);
  const auto [status, said] = run_validator(directory / "group", text);
  EXPECT_EQ(status, 43);
  EXPECT_NE(said.find("this group allows 1..10"), std::string::npos) << said;
  // --help lists every parameter with the statement's range and the one checked by default.
  const std::string help = (directory / "help.txt").string();
  EXPECT_EQ(std::system(((directory / "group").string() + " --help > " + help).c_str()), 0);
  std::ifstream help_file(help);
  const std::string help_text{std::istreambuf_iterator<char>(help_file), {}};
  EXPECT_NE(help_text.find("--n  the statement's 1..35; checked here: 1..10"), std::string::npos)
      << help_text;
  EXPECT_NE(help_text.find("--k  the statement's 0..36; checked here: 0..36"), std::string::npos)
      << help_text;
  fs::remove_all(directory);
}

}  // namespace
