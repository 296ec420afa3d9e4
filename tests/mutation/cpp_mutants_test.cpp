// The mutants of a C++ source (io/mutation/cpp_mutants.hpp): each operator makes the mutants it
// names, where it should and nowhere else; the schema, compiled once, runs each mutant alike to
// that mutant compiled on its own (all single mutants are compiled in one program, each in a
// namespace of its own, so the test costs two compiles).
#include "io/mutation/cpp_mutants.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include "io/run/limited_process.hpp"

namespace gamebatch::io {
namespace {

namespace fs = std::filesystem;

// Every operator on operands that no mutant can turn into undefined behaviour but a loop that a
// time limit ends: no division but by input, no index, small values.
constexpr const char* kProgram = R"(#include <algorithm>
#include <cstdio>
static int twice(int x) { return x * 2 + 1; }
int main() {
  int n = 0, k = 1;
  if (std::scanf("%d %d", &n, &k) != 2) return 3;
  long long total = 0;
  int steps = 0;
  for (int i = 0; i < n && steps < 50; i++) {
    ++steps;
    total += twice(i) - 1;
    if (i % k == 0 || total > 40) total -= 2;
  }
  int a = std::min(n, 7), b = std::max(n, 2);
  int c = n > 5 ? a : b;
  while (c > 0 && steps < 100) {
    c--;
    steps++;
  }
  std::printf("%lld %d %d %d %d\n", total, a, b, c, steps);
  return 0;
}
)";

std::multiset<std::string> made_by(const MutantSchema& schema, MutationOperator op) {
  std::multiset<std::string> edits;
  for (const SourceMutant& mutant : schema.mutants) {
    if (mutant.op == op)
      edits.insert(mutant.original + " -> " + mutant.replacement);
  }
  return edits;
}

TEST(CppMutants, EachOperatorMakesTheMutantsItNames) {
  const MutantSchema schema = make_mutant_schema("program.cpp", kProgram);
  const auto has = [&](MutationOperator op, const std::string& edit) {
    return made_by(schema, op).count(edit) != 0;
  };
  EXPECT_TRUE(has(MutationOperator::relational, "< -> <="));
  EXPECT_TRUE(has(MutationOperator::relational, "> -> >="));
  EXPECT_TRUE(has(MutationOperator::relational, "!= -> =="));
  EXPECT_TRUE(has(MutationOperator::relational, "== -> !="));
  EXPECT_TRUE(has(MutationOperator::arithmetic, "* -> +"));
  EXPECT_TRUE(has(MutationOperator::arithmetic, "% -> /"));
  EXPECT_TRUE(has(MutationOperator::arithmetic, "- -> %"));
  EXPECT_TRUE(has(MutationOperator::assignment, "+= -> -="));
  EXPECT_TRUE(has(MutationOperator::assignment, "-= -> *="));
  EXPECT_TRUE(has(MutationOperator::logical, "&& -> ||"));
  EXPECT_TRUE(has(MutationOperator::logical, "|| -> &&"));
  EXPECT_TRUE(has(MutationOperator::constant, "50 -> 51"));
  EXPECT_TRUE(has(MutationOperator::constant, "50 -> 49"));
  EXPECT_TRUE(has(MutationOperator::constant, "7 -> 0"));
  EXPECT_TRUE(has(MutationOperator::constant, "2 -> (-1)"));
  EXPECT_TRUE(has(MutationOperator::negated_condition, "n > 5 -> !(n > 5)"));
  EXPECT_TRUE(
      has(MutationOperator::negated_condition, "c > 0 && steps < 100 -> !(c > 0 && steps < 100)"));
  EXPECT_TRUE(has(MutationOperator::min_max, "min -> max"));
  EXPECT_TRUE(has(MutationOperator::min_max, "max -> min"));
  EXPECT_TRUE(has(MutationOperator::increment, "i++ -> (void)0"));
  EXPECT_TRUE(has(MutationOperator::increment, "++ -> --"));
  EXPECT_TRUE(has(MutationOperator::increment, "c-- -> (void)0"));
  // Five relational operators replace each one; % is made on integers only (none else here).
  for (const MutationOperator op : kAllMutationOperators)
    EXPECT_FALSE(made_by(schema, op).empty()) << short_name(op);
  // Ids follow the source, one per mutant.
  for (std::size_t k = 0; k < schema.mutants.size(); ++k)
    EXPECT_EQ(schema.mutants[k].id, static_cast<int>(k) + 1);
}

TEST(CppMutants, NothingIsMutatedWhereAChoiceCannotBeMadeAtRunTime) {
  const std::string text = R"(#include <array>
#include <cstdio>
#define TWICE(x) ((x) + (x))
constexpr int kSize = 10 + 1;
constexpr int square(int x) { return x * x; }
template <int N> int width() { return N; }
enum Colour { red = 1 + 1 };
int table[kSize + 2];
static_assert(kSize > 3, "too small");
int main() {
  const int bound = 4 + 1;
  int local[3 + 1] = {0};
  std::array<int, 5> five{};
  switch (bound) {
    case 2 + 3:
      break;
  }
  if constexpr (kSize > 2) {
    local[0] = TWICE(bound);
  }
  std::printf("%d %d %d\n", local[0], width<7>(), static_cast<int>(five.size()) + square(2));
}
)";
  // And it compiles: nothing of a constant expression was made a run-time choice.
  const fs::path dir =
      fs::temp_directory_path() / ("gamebatch-constant-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const MutantSchema schema = make_mutant_schema("constant.cpp", text);
  for (const SourceMutant& mutant : schema.mutants) {
    // Only run-time code: the index on line 19 (not the macro's +) and printf's arguments.
    EXPECT_TRUE(mutant.line == 21u || (mutant.line == 19u && mutant.original == "0"))
        << mutant.original << " -> " << mutant.replacement << " at " << mutant.line << ":"
        << mutant.column;
  }
  std::string left;
  for (const std::string& line : schema.left_out)
    left += line + "; ";
  EXPECT_NE(left.find("constants in constant expressions"), std::string::npos) << left;
  std::ofstream(dir / "constant.cpp") << schema.source;
  const std::string command = std::string(GAMEBATCH_TEST_CXX) + " -std=gnu++20 -fsyntax-only '" +
                              (dir / "constant.cpp").string() + "'";
  EXPECT_EQ(std::system(command.c_str()), 0) << schema.source;
  std::error_code ignored;
  fs::remove_all(dir, ignored);
}

TEST(CppMutants, ASourceThatIsNotCppIsRefused) {
  EXPECT_THROW(make_mutant_schema("broken.cpp", "int main() { return nope; }\n"), MutationError);
  EXPECT_THROW(make_mutant_schema("python.cpp", "print(int(input()) * 2)\n"), MutationError);
}

// C++17 is tried first (its headers parse quicker); a source of C++20 alone parses in C++20, and
// its points are found as in any other.
TEST(CppMutants, ASourceOfCpp20AloneIsParsedAsCpp20) {
  const std::string text =
      "#include <compare>\n"
      "struct Pair { int a, b; auto operator<=>(const Pair&) const = default; };\n"
      "int main() { Pair x{1, 2}, y{2, 1}; return x < y ? 0 : 1; }\n";
  const MutantSchema schema = make_mutant_schema("cpp20.cpp", text);
  EXPECT_FALSE(schema.mutants.empty());
  MutationOptions only_17;
  only_17.standards = {"-std=gnu++17"};
  EXPECT_THROW(make_mutant_schema("cpp20.cpp", text, only_17), MutationError);
}

TEST(CppMutants, TheSameSourceGivesTheSameMutants) {
  const MutantSchema first = make_mutant_schema("program.cpp", kProgram);
  const MutantSchema second = make_mutant_schema("program.cpp", kProgram);
  EXPECT_EQ(first.source, second.source);
  ASSERT_EQ(first.mutants.size(), second.mutants.size());
}

TEST(CppMutants, LinesLeftOutHaveNoMutants) {
  MutationOptions options;
  options.lines_left_out = {12};  // total += twice(i) - 1;
  const MutantSchema schema = make_mutant_schema("program.cpp", kProgram, options);
  for (const SourceMutant& mutant : schema.mutants)
    EXPECT_NE(mutant.line, 12u);
  EXPECT_EQ(error_lines("p.cpp: In function 'int main()':\np.cpp:12:7: error: no match\n"
                        "x.cpp:3:1: error: other\nschema.cpp:90:5:   required from here\n"
                        "p.cpp:30:2:   required from here\n",
                        "p.cpp"),
            (std::vector<std::size_t>{12, 30}));
}

// ---- the schema against each mutant alone

// The program without its includes, in a namespace of its own, main renamed.
std::string wrapped(const std::string& source, int id) {
  std::string body;
  std::size_t start = 0;
  while (start < source.size()) {
    const std::size_t end = source.find('\n', start);
    const std::string line = source.substr(start, end - start);
    if (line.rfind("#include", 0) != 0)
      body += line + "\n";
    start = end == std::string::npos ? source.size() : end + 1;
  }
  const std::size_t main = body.find("int main()");
  body.replace(main, 10, "int main_of()");
  return "namespace m" + std::to_string(id) + " {\n" + body + "}\n";
}

struct Ran {
  ProcessEnd end;
  int status;
  int signal;
  std::string output;
  friend bool operator==(const Ran&, const Ran&) = default;
};

Ran run(const std::string& command, const std::string& input) {
  ProcessLimits limits;
  limits.cpu_seconds = 0.5;
  limits.wall_seconds = 5;
  const ProcessResult result = run_limited(command, StdinText{input}, limits);
  const ProcessEnd end =
      result.end == ProcessEnd::wall_limit ? ProcessEnd::cpu_limit : result.end;  // both loop
  return {end, result.exit_status, result.signal, result.output};
}

void compile(const fs::path& source, const fs::path& binary) {
  const std::string command = std::string(GAMEBATCH_TEST_CXX) + " -std=gnu++20 -O1 -w -o '" +
                              binary.string() + "' '" + source.string() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
}

TEST(CppMutants, TheSchemaRunsEachMutantAsItsOwnCompileDoes) {
  const MutantSchema schema = make_mutant_schema("program.cpp", kProgram);
  ASSERT_GT(schema.mutants.size(), 60u);
  const fs::path dir =
      fs::temp_directory_path() / ("gamebatch-mutants-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "schema.cpp") << schema.source;
  std::string singles =
      "#include <algorithm>\n#include <cstdio>\n#include <cstdlib>\n" + wrapped(kProgram, 0);
  std::string dispatch =
      "int main(int argc, char** argv) {\n  switch (std::atoi(argv[1])) {\n"
      "    case 0: return m0::main_of();\n";
  for (const SourceMutant& mutant : schema.mutants) {
    singles += wrapped(single_mutant_source(kProgram, mutant), mutant.id);
    dispatch += "    case " + std::to_string(mutant.id) + ": return m" + std::to_string(mutant.id) +
                "::main_of();\n";
  }
  std::ofstream(dir / "singles.cpp") << singles + dispatch + "  }\n  return 99;\n}\n";
  compile(dir / "schema.cpp", dir / "schema");
  compile(dir / "singles.cpp", dir / "singles");
  const std::string schema_binary = "'" + (dir / "schema").string() + "'";
  const std::string singles_binary = "'" + (dir / "singles").string() + "'";
  std::size_t differing_from_original = 0;
  for (const char* input : {"7 3\n", "0 1\n", "12 5\n", "3 1\n"}) {
    const Ran original = run(singles_binary + " 0", input);
    EXPECT_EQ(run(schema_binary, input), original) << input;
    for (const SourceMutant& mutant : schema.mutants) {
      const std::string id = std::to_string(mutant.id);
      const Ran alone = run(singles_binary + " " + id, input);
      const Ran chosen = run("env GAMEBATCH_MUTANT=" + id + " " + schema_binary, input);
      EXPECT_EQ(chosen, alone) << "mutant " << id << " (" << short_name(mutant.op) << " "
                               << mutant.original << " -> " << mutant.replacement << " at line "
                               << mutant.line << ") on input " << input;
      differing_from_original += alone == original ? 0 : 1;
    }
  }
  // The mutants do change the program.
  EXPECT_GT(differing_from_original, schema.mutants.size());
  std::error_code ignored;
  fs::remove_all(dir, ignored);
}

}  // namespace
}  // namespace gamebatch::io
