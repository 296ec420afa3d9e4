// io/files/validator_settings: the input validators a Kattis, Polygon or task-maker package holds,
// and the arguments each gets on each test (Kattis' inherited input_validator_flags and
// input_validator_args, a list or a map; Polygon's --group; task-maker's subtask number). Every
// package is made by the test in a fresh directory.
#include "io/files/validator_settings.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/test_data.hpp"

namespace gamebatch::io {
namespace {

namespace fs = std::filesystem;
using gamebatch::testing::TestDirectory;
using gamebatch::testing::write_text;
using Arguments = std::vector<std::string>;

std::vector<std::string> names_of(const std::vector<PackageValidator>& validators) {
  std::vector<std::string> names;
  for (const PackageValidator& validator : validators)
    names.push_back(validator.name);
  return names;
}

ProblemPackage read(const fs::path& root, Layout layout) {
  std::optional<ProblemPackage> package = recognise_package(root, layout);
  EXPECT_TRUE(package.has_value());
  return *package;
}

TEST(FindPackageValidators, KattisFoldersByNameTheLegacyOneWithAWarning) {
  TestDirectory directory("validator_settings");
  const fs::path root = directory.path();
  write_text(root / "problem.yaml", "name: x\n");
  write_text(root / "data/secret/1.in", "1\n");
  write_text(root / "input_validators/b.py", "print()\n");
  write_text(root / "input_validators/a/validate.cpp", "int main() {}\n");
  write_text(root / "input_validators/c/build", "true\n");
  write_text(root / "input_validators/c/run", "exit 42\n");
  write_text(root / "input_validators/.hidden.py", "\n");
  write_text(root / "input_format_validators/old.py", "\n");
  std::vector<std::string> warnings;
  const std::vector<PackageValidator> found =
      find_package_validators(read(root, Layout::kattis), warnings);
  EXPECT_EQ(names_of(found), (Arguments{"input_validators/a", "input_validators/b.py",
                                        "input_validators/c", "input_format_validators/old.py"}));
  EXPECT_FALSE(found[0].build_script);
  EXPECT_TRUE(found[2].build_script);
  EXPECT_EQ(found[0].convention, ValidatorConvention::kattis);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("input_format_validators/"), std::string::npos);
}

TEST(ValidatorArguments, LegacyFlagsAreInheritedAndOverriddenBelow) {
  TestDirectory directory("validator_settings");
  const fs::path root = directory.path();
  write_text(root / "problem.yaml", "name: x\n");
  write_text(root / "data/testdata.yaml", "input_validator_flags: --T  1..5\n");
  write_text(root / "data/sample/1.in", "1\n");
  write_text(root / "data/secret/small/testdata.yaml",
             "accept_score: 30\ninput_validator_flags: --N 2..80 --C 0..10\n");
  write_text(root / "data/secret/small/1.in", "1\n");
  write_text(root / "data/secret/large/testdata.yaml", "accept_score: 70\n");
  write_text(root / "data/secret/large/1.in", "1\n");
  write_text(root / "input_validators/v.py", "\n");
  const ProblemPackage package = read(root, Layout::kattis);
  std::vector<std::string> warnings;
  const PackageValidator validator = find_package_validators(package, warnings).at(0);
  const ValidatorArguments arguments(package);
  EXPECT_EQ(arguments.of(validator, root / "data/sample/1.in"), (Arguments{"--T", "1..5"}));
  EXPECT_EQ(arguments.of(validator, root / "data/secret/small/1.in"),
            (Arguments{"--N", "2..80", "--C", "0..10"}));
  EXPECT_EQ(arguments.of(validator, root / "data/secret/large/1.in"), (Arguments{"--T", "1..5"}));
  EXPECT_TRUE(arguments.warnings().empty());
}

TEST(ValidatorArguments, ModernArgsAreAListOrAMapByValidatorName) {
  TestDirectory directory("validator_settings");
  const fs::path root = directory.path();
  write_text(root / "problem.yaml", "name: x\nproblem_format_version: 2025-09\n");
  write_text(root / "data/secret/small/test_group.yaml",
             "max_score: 30\ninput_validator_args: [--N, 2..80]\n");
  write_text(root / "data/secret/small/1.in", "1\n");
  write_text(root / "data/secret/large/test_group.yaml",
             "max_score: 70\ninput_validator_args:\n  strict: [--N, 2..4000]\n  other: [x]\n");
  write_text(root / "data/secret/large/1.in", "1\n");
  write_text(root / "data/secret/broken/test_group.yaml", "input_validator_args: [a\n");
  write_text(root / "data/secret/broken/1.in", "1\n");
  write_text(root / "input_validators/strict.py", "\n");
  write_text(root / "input_validators/lax.py", "\n");
  const ProblemPackage package = read(root, Layout::kattis);
  std::vector<std::string> warnings;
  const std::vector<PackageValidator> found = find_package_validators(package, warnings);
  ASSERT_EQ(names_of(found), (Arguments{"input_validators/lax.py", "input_validators/strict.py"}));
  const ValidatorArguments arguments(package);
  const fs::path small = root / "data/secret/small/1.in";
  const fs::path large = root / "data/secret/large/1.in";
  EXPECT_EQ(arguments.of(found[0], small), (Arguments{"--N", "2..80"}));
  EXPECT_EQ(arguments.of(found[1], small), (Arguments{"--N", "2..80"}));
  EXPECT_EQ(arguments.of(found[0], large), Arguments{});  // the map names it not
  EXPECT_EQ(arguments.of(found[1], large), (Arguments{"--N", "2..4000"}));
  EXPECT_EQ(arguments.of(found[1], root / "data/secret/broken/1.in"), Arguments{});
  ASSERT_EQ(arguments.warnings().size(), 1u);
  EXPECT_NE(arguments.warnings()[0].find("data/secret/broken/test_group.yaml"), std::string::npos);
}

TEST(ValidatorArguments, PolygonGivesTheGroupOfEachTest) {
  TestDirectory directory("validator_settings");
  const fs::path root = directory.path();
  write_text(root / "problem.xml", R"(<problem><judging><testset name="tests"><tests>
<test method="manual" group="small"/><test method="manual"/><test method="manual" group="big"/>
</tests></testset></judging><assets><validators><validator>
<source path="files/val.cpp" type="cpp.g++17"/></validator></validators></assets></problem>)");
  write_text(root / "files/val.cpp", "int main() {}\n");
  for (const char* name : {"01", "02", "03"})
    write_text(root / "tests" / name, "1\n");
  const ProblemPackage package = read(root, Layout::polygon);
  std::vector<std::string> warnings;
  const std::vector<PackageValidator> found = find_package_validators(package, warnings);
  ASSERT_EQ(names_of(found), Arguments{"files/val.cpp"});
  EXPECT_EQ(found[0].convention, ValidatorConvention::testlib);
  const ValidatorArguments arguments(package);
  EXPECT_EQ(arguments.of(found[0], root / "tests/01"), (Arguments{"--group", "small"}));
  EXPECT_EQ(arguments.of(found[0], root / "tests/02"), Arguments{});
  EXPECT_EQ(arguments.of(found[0], root / "tests/03"), (Arguments{"--group", "big"}));
}

TEST(ValidatorArguments, TaskMakerGetsTheSubtaskNumber) {
  TestDirectory directory("validator_settings");
  const fs::path root = directory.path();
  write_text(
      root / "task.yaml",
      "name: x\nscore_type: GroupMin\nscore_type_parameters: [[40, \"000\"], [60, \"001|002\"]]\n");
  for (const char* name : {"input0.txt", "input1.txt", "input2.txt"})
    write_text(root / "input" / name, "1\n");
  write_text(root / "gen/validator.py", "\n");
  const ProblemPackage package = read(root, Layout::cms);
  std::vector<std::string> warnings;
  const std::vector<PackageValidator> found = find_package_validators(package, warnings);
  ASSERT_EQ(names_of(found), Arguments{"gen/validator.py"});
  EXPECT_EQ(found[0].convention, ValidatorConvention::task_maker);
  const ValidatorArguments numbered_from_one(package);
  EXPECT_EQ(numbered_from_one.of(found[0], root / "input/input0.txt"), Arguments{"1"});
  EXPECT_EQ(numbered_from_one.of(found[0], root / "input/input2.txt"), Arguments{"2"});
  write_text(root / "gen/cases.gen", ": SUBTASK 40\n");
  const ValidatorArguments numbered_from_zero(package);
  EXPECT_EQ(numbered_from_zero.of(found[0], root / "input/input1.txt"), Arguments{"1"});
  EXPECT_EQ(numbered_from_zero.of(found[0], root / "input/input0.txt"), Arguments{"0"});
}

TEST(SplitFlags, SplitsAtRunsOfWhitespaceAsPythonDoes) {
  EXPECT_EQ(split_flags("  --N 1..80\t--C\n0..5 "), (Arguments{"--N", "1..80", "--C", "0..5"}));
  EXPECT_EQ(split_flags(""), Arguments{});
}

}  // namespace
}  // namespace gamebatch::io
