// io/files/problem_package: layouts and their names, recognising a Kattis, Polygon or CMS package
// by its marks, reading problem.yaml, problem.xml and task.yaml, the test groups, the submissions
// with their expected verdicts and rules (submissions.yaml, @check- lines); and
// io::collect_input_list over packages (LayoutInputSet). Every package is made by the test in a
// fresh directory.
#include "io/files/problem_package.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/files/input_set.hpp"
#include "tests/test_data.hpp"

namespace gamebatch::io {
namespace {

namespace fs = std::filesystem;
using gamebatch::testing::TestDirectory;
using gamebatch::testing::write_text;

// ---------------------------------------------------------------- names

TEST(LayoutName, RoundTripsThroughParseLayout) {
  for (const Layout layout : {Layout::kattis, Layout::polygon, Layout::cms})
    EXPECT_EQ(parse_layout(layout_name(layout)), layout);
  EXPECT_EQ(layout_name(Layout::kattis), "kattis");
  EXPECT_EQ(layout_name(Layout::polygon), "polygon");
  EXPECT_EQ(layout_name(Layout::cms), "cms");
}

TEST(LayoutName, ParseRejectsAnyOtherText) {
  for (const char* name : {"", "Kattis", "POLYGON", "icpc", "cms ", "task-maker", "italian"})
    EXPECT_EQ(parse_layout(name), std::nullopt) << name;
}

TEST(ExpectationName, IsTheKattisDirectoryName) {
  EXPECT_EQ(expectation_name(Expectation::accepted), "accepted");
  EXPECT_EQ(expectation_name(Expectation::wrong_answer), "wrong_answer");
  EXPECT_EQ(expectation_name(Expectation::time_limit_exceeded), "time_limit_exceeded");
  EXPECT_EQ(expectation_name(Expectation::run_time_error), "run_time_error");
  EXPECT_EQ(expectation_name(Expectation::stated), "stated");
}

TEST(AggregationName, IsTheTestGroupYamlSpelling) {
  EXPECT_EQ(aggregation_name(ScoreAggregation::min), "min");
  EXPECT_EQ(aggregation_name(ScoreAggregation::pass_fail), "pass-fail");
  EXPECT_EQ(aggregation_name(ScoreAggregation::sum), "sum");
}

TEST(GlobMatches, StarAndQuestionMarkStopAtSlashes) {
  EXPECT_TRUE(glob_matches("partial/*", "partial/brute.cpp"));
  EXPECT_FALSE(glob_matches("partial/*", "partial/sub/brute.cpp"));
  EXPECT_TRUE(glob_matches("*/brute*", "time_limit_exceeded/brute.py"));
  EXPECT_FALSE(glob_matches("*", "a/b"));
  EXPECT_TRUE(glob_matches("*", ""));
  EXPECT_TRUE(glob_matches("a?c", "abc"));
  EXPECT_FALSE(glob_matches("a?c", "a/c"));
  EXPECT_FALSE(glob_matches("a?c", "ac"));
  EXPECT_TRUE(glob_matches("accepted/sol.cpp", "accepted/sol.cpp"));
  EXPECT_FALSE(glob_matches("accepted/sol.cpp", "accepted/sol.cpp2"));
  EXPECT_TRUE(glob_matches("*a*b*", "xxaxxbxx"));
  EXPECT_FALSE(glob_matches("*a*b*", "xxbxxaxx"));
}

TEST(GlobMatches, BracesGiveAlternatives) {
  for (const char* name : {"accepted/a.cpp", "accepted/b.py", "wrong_answer/a.cpp"})
    EXPECT_TRUE(glob_matches("{accepted,wrong_answer}/{a.cpp,b.*}", name)) << name;
  EXPECT_FALSE(glob_matches("{accepted,wrong_answer}/{a.cpp,b.*}", "accepted/c.cpp"));
  EXPECT_TRUE(glob_matches("x{a,{b,c}d}", "xcd"));
  EXPECT_FALSE(glob_matches("x{a,{b,c}d}", "xc"));
  EXPECT_TRUE(glob_matches("{,pre}fix", "fix"));
  EXPECT_TRUE(glob_matches("a{b", "a{b"));  // no closing brace: a character
}

TEST(GroupPatternMatches, NamesPathsAndSecret) {
  TestGroup sample{"sample", "sample", 0, ScoreAggregation::pass_fail, {}, "", {}};
  TestGroup small{"small", "secret/small", 30, ScoreAggregation::min, {}, "", {}};
  EXPECT_TRUE(group_pattern_matches("small", small));
  EXPECT_TRUE(group_pattern_matches("secret/small", small));
  EXPECT_TRUE(group_pattern_matches("secret/*", small));
  EXPECT_TRUE(group_pattern_matches("secret", small));
  EXPECT_TRUE(group_pattern_matches("s*", small));
  EXPECT_TRUE(group_pattern_matches("*", small));
  EXPECT_FALSE(group_pattern_matches("secret", sample));
  EXPECT_FALSE(group_pattern_matches("secret/*", sample));
  EXPECT_TRUE(group_pattern_matches("sample", sample));
  EXPECT_TRUE(group_pattern_matches("*", sample));
  EXPECT_FALSE(group_pattern_matches("smal", small));
  EXPECT_FALSE(group_pattern_matches("large", small));
}

TEST(IsLayoutInput, KattisTakesDotInFiles) {
  EXPECT_TRUE(is_layout_input(Layout::kattis, "a.in"));
  EXPECT_TRUE(is_layout_input(Layout::kattis, "data/secret/x.y.in"));
  EXPECT_FALSE(is_layout_input(Layout::kattis, ".in"));  // hidden, no extension
  EXPECT_FALSE(is_layout_input(Layout::kattis, "a.ans"));
  EXPECT_FALSE(is_layout_input(Layout::kattis, "a.IN"));
  EXPECT_FALSE(is_layout_input(Layout::kattis, "a.in/b"));  // only the last component counts
}

TEST(IsLayoutInput, PolygonTakesNamesOfDigitsOnly) {
  for (const char* name : {"01", "1", "007", "tests/12", "/abs/tests/3"})
    EXPECT_TRUE(is_layout_input(Layout::polygon, name)) << name;
  for (const char* name : {"01.a", "a1", "1a", "", "tests/", "-1", " 1", "１"})
    EXPECT_FALSE(is_layout_input(Layout::polygon, name)) << name;
}

TEST(IsLayoutInput, CmsTakesInputStarDotTxt) {
  for (const char* name : {"input0.txt", "input12.txt", "input.txt", "input/input_a.txt"})
    EXPECT_TRUE(is_layout_input(Layout::cms, name)) << name;
  for (const char* name :
       {"output0.txt", "input0.txt.bak", "Input0.txt", "input0", "input0.TXT", "in.txt", "x.in"})
    EXPECT_FALSE(is_layout_input(Layout::cms, name)) << name;
}

// ---------------------------------------------------------------- answer names

struct AnswerCase {
  Layout layout;
  const char* input;
  const char* answer;
};

TEST(LayoutAnswerPath, NamesEachLayoutsAnswers) {
  const std::vector<AnswerCase> cases = {
      {Layout::kattis, "data/secret/a.in", "data/secret/a.ans"},
      {Layout::kattis, "/abs/x.y.in", "/abs/x.y.ans"},
      {Layout::kattis, "noext", "noext.ans"},
      {Layout::kattis, "d/.in", "d/.in.ans"},
      {Layout::kattis, "dir.in/case", "dir.in/case.ans"},
      {Layout::polygon, "tests/01", "tests/01.a"},
      {Layout::polygon, "/abs/tests/7", "/abs/tests/7.a"},
      {Layout::polygon, "01", "01.a"},
      {Layout::polygon, "other.txt", "other.txt.a"},
      {Layout::cms, "input/input0.txt", "output/output0.txt"},
      {Layout::cms, "/p/input/input13.txt", "/p/output/output13.txt"},
      {Layout::cms, "pkg/input/input.txt", "pkg/output/output.txt"},
      // Not in a directory called "input": outputN.txt beside it.
      {Layout::cms, "input5.txt", "output5.txt"},
      {Layout::cms, "x/input5.txt", "x/output5.txt"},
      {Layout::cms, "inputs/input1.txt", "inputs/output1.txt"},
      {Layout::cms, "myinput/input1.txt", "myinput/output1.txt"},
      {Layout::cms, "/input1.txt", "/output1.txt"},
      // Only the directory holding it is renamed.
      {Layout::cms, "input/input/input1.txt", "input/output/output1.txt"},
      // Not named as a CMS input: ".ans" appended, never the input itself.
      {Layout::cms, "input/notes.txt", "input/notes.txt.ans"},
      {Layout::cms, "input/output0.txt", "input/output0.txt.ans"},
  };
  for (const AnswerCase& one : cases) {
    EXPECT_EQ(layout_answer_path(one.layout, one.input), fs::path(one.answer))
        << layout_name(one.layout) << " " << one.input;
    EXPECT_EQ(layout_answer_text(one.layout, one.input), one.answer)
        << layout_name(one.layout) << " " << one.input;
  }
}

TEST(LayoutAnswerPath, KattisAgreesWithAnswerName) {
  for (const char* name : {"a.in", "d/.in", "..in", "x.txt", "a.in.txt", "/.in", "a/b/.x.in"})
    EXPECT_EQ(layout_answer_path(Layout::kattis, name), answer_name(name)) << name;
}

// ---------------------------------------------------------------- recognising packages

class ProblemPackageTest : public ::testing::Test {
 protected:
  fs::path at(const fs::path& relative) const { return root_ / relative; }
  void touch(const fs::path& relative, const std::string& content = "1\n1\n0\n") const {
    write_text(at(relative), content);
  }
  void make_directory(const fs::path& relative) const { fs::create_directories(at(relative)); }
  ProblemPackage recognised(const fs::path& relative,
                            std::optional<Layout> layout = std::nullopt) const {
    std::optional<ProblemPackage> package = recognise_package(at(relative), layout);
    if (!package) {
      ADD_FAILURE() << relative << " is not recognised as a package";
      return {};
    }
    return *package;
  }
  // The message of the UsageError that recognising `relative` throws ("" when it throws none).
  std::string error_of(const fs::path& relative) const {
    try {
      recognise_package(at(relative), std::nullopt);
    } catch (const UsageError& error) {
      return error.what();
    }
    return "";
  }

  TestDirectory scratch_{"gamebatch_problem_package"};
  const fs::path root_ = scratch_.path();
};

std::vector<std::string> names_of(const ProblemPackage& package) {
  std::vector<std::string> names;
  for (const PackageSubmission& submission : package.submissions)
    names.push_back(submission.name);
  return names;
}

bool has_warning_containing(const ProblemPackage& package, const std::string& needle) {
  return std::any_of(
      package.warnings.begin(), package.warnings.end(),
      [&](const std::string& line) { return line.find(needle) != std::string::npos; });
}

std::string all_warnings(const ProblemPackage& package) {
  std::string text;
  for (const std::string& line : package.warnings)
    text += line + "\n";
  return text;
}

TEST_F(ProblemPackageTest, KattisIsRecognisedByEachOfItsMarks) {
  touch("by-yaml/problem.yaml", "name: x\n");
  make_directory("by-sample/data/sample");
  make_directory("by-secret/data/secret");
  const ProblemPackage by_yaml = recognised("by-yaml");
  EXPECT_EQ(by_yaml.layout, Layout::kattis);
  EXPECT_EQ(by_yaml.recognised_by, "problem.yaml");
  // No data/: the root holds the inputs.
  EXPECT_EQ(by_yaml.input_roots, std::vector<fs::path>{at("by-yaml")});
  const ProblemPackage by_sample = recognised("by-sample");
  EXPECT_EQ(by_sample.layout, Layout::kattis);
  EXPECT_EQ(by_sample.recognised_by, "data/sample/");
  EXPECT_EQ(by_sample.input_roots, std::vector<fs::path>{at("by-sample/data")});
  const ProblemPackage by_secret = recognised("by-secret");
  EXPECT_EQ(by_secret.recognised_by, "data/secret/");
  EXPECT_EQ(by_secret.input_roots, std::vector<fs::path>{at("by-secret/data")});
}

TEST_F(ProblemPackageTest, PolygonIsRecognisedByProblemXmlOrANumberedTest) {
  touch("by-xml/problem.xml", "<problem/>\n");
  touch("by-test/tests/02");
  touch("by-test/tests/01");
  touch("by-test/tests/01.a");
  const ProblemPackage by_xml = recognised("by-xml");
  EXPECT_EQ(by_xml.layout, Layout::polygon);
  EXPECT_EQ(by_xml.recognised_by, "problem.xml");
  EXPECT_TRUE(by_xml.input_roots.empty());  // no tests/ yet: no inputs
  const ProblemPackage by_test = recognised("by-test");
  EXPECT_EQ(by_test.layout, Layout::polygon);
  EXPECT_EQ(by_test.recognised_by, "tests/01");
  EXPECT_EQ(by_test.input_roots, std::vector<fs::path>{at("by-test/tests")});
}

TEST_F(ProblemPackageTest, CmsIsRecognisedByTaskYamlOrAnInputFile) {
  touch("by-yaml/task.yaml", "name: x\n");
  touch("by-input/input/input1.txt");
  touch("by-input/input/input0.txt");
  const ProblemPackage by_yaml = recognised("by-yaml");
  EXPECT_EQ(by_yaml.layout, Layout::cms);
  EXPECT_EQ(by_yaml.recognised_by, "task.yaml");
  const ProblemPackage by_input = recognised("by-input");
  EXPECT_EQ(by_input.layout, Layout::cms);
  EXPECT_EQ(by_input.recognised_by, "input/input0.txt");
  EXPECT_EQ(by_input.input_roots, std::vector<fs::path>{at("by-input/input")});
}

TEST_F(ProblemPackageTest, DirectoriesWithoutMarksAreNoPackage) {
  touch("plain/a.in");
  touch("plain/sub/b.in");
  touch("tests-without-numbers/tests/01.a");
  touch("tests-without-numbers/tests/readme");
  make_directory("tests-with-a-numbered-directory/tests/01");
  touch("input-without-inputs/input/notes.txt");
  touch("data-without-sample/data/x.in");
  make_directory("empty");
  for (const char* name : {"plain", "tests-without-numbers", "tests-with-a-numbered-directory",
                           "input-without-inputs", "data-without-sample", "empty"})
    EXPECT_EQ(recognise_package(at(name), std::nullopt), std::nullopt) << name;
}

TEST_F(ProblemPackageTest, TwoLayoutsClaimingADirectoryIsAUsageErrorNamingBoth) {
  touch("both/problem.yaml");
  touch("both/problem.xml");
  touch("both/tests/1");
  const std::string message = error_of("both");
  EXPECT_EQ(message, at("both").string() +
                         " holds the marks of more than one problem package layout: kattis "
                         "(problem.yaml) and polygon (problem.xml, tests/1); choose one with "
                         "--layout kattis|polygon|cms");
}

TEST_F(ProblemPackageTest, ThreeLayoutsAreAllNamed) {
  make_directory("all/data/secret");
  touch("all/task.yaml");
  touch("all/tests/3");
  const std::string message = error_of("all");
  EXPECT_NE(message.find("kattis (data/secret/), polygon (tests/3) and cms (task.yaml)"),
            std::string::npos)
      << message;
}

TEST_F(ProblemPackageTest, AForcedLayoutSettlesAnAmbiguity) {
  touch("both/problem.yaml", "limits:\n  time_limit: 2\n");
  touch("both/problem.xml", "<time-limit>5000</time-limit>");
  const ProblemPackage polygon = recognised("both", Layout::polygon);
  EXPECT_EQ(polygon.layout, Layout::polygon);
  EXPECT_EQ(polygon.recognised_by, "problem.xml");
  EXPECT_EQ(polygon.time_limit_seconds, 5.0);
  const ProblemPackage kattis = recognised("both", Layout::kattis);
  EXPECT_EQ(kattis.layout, Layout::kattis);
  EXPECT_EQ(kattis.time_limit_seconds, 2.0);
}

TEST_F(ProblemPackageTest, AForcedLayoutWithoutItsMarksReadsTheDirectoryItself) {
  touch("plain/1");
  touch("plain/problem.yaml");  // another layout's mark
  touch("plain/sol/solution.cpp");
  for (const Layout layout : {Layout::polygon, Layout::cms}) {
    const ProblemPackage package = recognised("plain", layout);
    EXPECT_EQ(package.layout, layout);
    EXPECT_EQ(package.recognised_by, "");
    EXPECT_EQ(package.input_roots, std::vector<fs::path>{at("plain")});
    EXPECT_TRUE(package.submissions.empty());
    EXPECT_FALSE(package.time_limit_seconds);
    EXPECT_EQ(package.time_multiplier, 5);
  }
  make_directory("empty");
  const ProblemPackage empty = recognised("empty", Layout::kattis);
  EXPECT_EQ(empty.layout, Layout::kattis);
  EXPECT_EQ(empty.input_roots, std::vector<fs::path>{at("empty")});
}

TEST_F(ProblemPackageTest, RootIsAbsoluteAndNormal) {
  touch("pkg/problem.yaml");
  const std::optional<ProblemPackage> package =
      recognise_package(at("pkg/../pkg/./").string() + "/", std::nullopt);
  ASSERT_TRUE(package);
  EXPECT_EQ(package->root, at("pkg"));
  EXPECT_EQ(package->input_roots, std::vector<fs::path>{at("pkg")});
}

TEST_F(ProblemPackageTest, NotADirectoryIsAUsageError) {
  touch("file.in");
  EXPECT_THROW(recognise_package(at("file.in"), std::nullopt), UsageError);
  EXPECT_THROW(recognise_package(at("missing"), Layout::kattis), UsageError);
}

// ---------------------------------------------------------------- problem.yaml

TEST_F(ProblemPackageTest, ProblemYamlGivesTheTimeLimitAndMultiplier) {
  touch("pkg/problem.yaml",
        "# A comment: limits: time_limit: 99\n"
        "name: 'Willow'  # the title\n"
        "source: https://example.org/a:b\n"
        "limits:\n"
        "    # indented comment\n"
        "    memory: 1024\n"
        "    time_limit: \"2.5\"   # seconds\n"
        "    time_multiplier: 3\n"
        "validation: default\n"
        "time_limit: 77\n");
  const ProblemPackage package = recognised("pkg");
  EXPECT_EQ(package.time_limit_seconds, 2.5);
  EXPECT_EQ(package.time_limit_source, "problem.yaml limits.time_limit");
  EXPECT_EQ(package.time_multiplier, 3);
  EXPECT_EQ(package.memory_limit_mb, 1024.0);
  EXPECT_EQ(package.memory_limit_source, "problem.yaml limits.memory");
  EXPECT_TRUE(package.warnings.empty()) << all_warnings(package);
}

TEST_F(ProblemPackageTest, ProblemYamlReadsOnlyTheLimitsMappingsOwnKeys) {
  touch("pkg/problem.yaml",
        "other:\n"
        "  time_limit: 9\n"
        "limits:\n"
        "  time_multipliers:\n"
        "    time_limit: 7\n"
        "    time_multiplier: 8\n"
        "  time_limit: 1\n"
        "after:\n"
        "  time_multiplier: 6\n");
  const ProblemPackage package = recognised("pkg");
  EXPECT_EQ(package.time_limit_seconds, 1.0);
  EXPECT_EQ(package.time_multiplier, 5);
}

TEST_F(ProblemPackageTest, ProblemYamlTakesAFlowMapping) {
  touch("pkg/problem.yaml", "limits: {time_multiplier: 2, time_limit: 4}\n");
  const ProblemPackage package = recognised("pkg");
  EXPECT_EQ(package.time_limit_seconds, 4.0);
  EXPECT_EQ(package.time_multiplier, 2);
}

TEST_F(ProblemPackageTest, ProblemYamlWithoutLimitsGivesNoTimeLimit) {
  touch("pkg/problem.yaml", "name: x\nlimits:\n  memory: 512\n");
  const ProblemPackage package = recognised("pkg");
  EXPECT_FALSE(package.time_limit_seconds);
  EXPECT_EQ(package.time_limit_source, "");
  EXPECT_EQ(package.time_multiplier, 5);
  EXPECT_TRUE(package.warnings.empty()) << all_warnings(package);
}

TEST_F(ProblemPackageTest, ProblemYamlBadNumbersAreWarnedAboutAndIgnored) {
  touch("pkg/problem.yaml",
        "limits:\n"
        "  time_limit: fast\n"
        "  time_multiplier: -2\n");
  const ProblemPackage package = recognised("pkg");
  EXPECT_FALSE(package.time_limit_seconds);
  EXPECT_EQ(package.time_multiplier, 5);
  ASSERT_EQ(package.warnings.size(), 2u) << all_warnings(package);
  EXPECT_EQ(package.warnings[0],
            "problem.yaml:2: limits.time_limit must be a positive number, found 'fast'; ignored");
  EXPECT_EQ(package.warnings[1],
            "problem.yaml:3: limits.time_multiplier must be a positive number, found '-2'; "
            "ignored");
}

// ---------------------------------------------------------------- problem.xml

const char* const kProblemXml = R"(<?xml version="1.0" encoding="utf-8" standalone="no"?>
<!-- <time-limit>99</time-limit> in a comment does not count -->
<problem revision="3" short-name="willow">
  <judging input-file="" output-file="">
    <testset name="tests">
      <time-limit>2500</time-limit>
      <memory-limit>268435456</memory-limit>
    </testset>
    <testset name="pretests">
      <time-limit>1000</time-limit>
    </testset>
  </judging>
  <assets>
    <checker name="std::wcmp.cpp" type="testlib"/>
    <solutions>
      <solution tag="main">
        <source path="solutions/main.cpp" type="cpp.g++17"/>
        <binary path="solutions/main.exe" type="exe.win32"/>
      </solution>
      <solution tag='accepted'><source path='solutions/alt.py' type='python.3'/></solution>
      <solution tag="wrong-answer">
        <source path="solutions/wa.cpp" type="cpp.g++17"/>
      </solution>
      <solution tag="time-limit-exceeded">
        <source type="cpp.g++17" path="solutions/slow.cpp"/>
      </solution>
      <solution tag="failed">
        <source path="solutions/crash.cpp" type="cpp.g++17"/>
      </solution>
      <solution tag="rejected">
        <source path="solutions/rejected.cpp" type="cpp.g++17"/>
      </solution>
      <solution tag="time-limit-exceeded-or-accepted">
        <source path="solutions/maybe.cpp" type="cpp.g++17"/>
      </solution>
      <solution tag="accepted">
        <source path="solutions/absent.cpp" type="cpp.g++17"/>
      </solution>
      <solution tag="accepted">
        <source path="../outside.cpp" type="cpp.g++17"/>
      </solution>
    </solutions>
  </assets>
</problem>
)";

TEST_F(ProblemPackageTest, ProblemXmlGivesTheFirstTimeLimitInMilliseconds) {
  touch("pkg/problem.xml", kProblemXml);
  const ProblemPackage package = recognised("pkg");
  EXPECT_EQ(package.time_limit_seconds, 2.5);
  EXPECT_EQ(package.time_limit_source, "problem.xml <time-limit>");
  EXPECT_EQ(package.memory_limit_mb, 256.0);  // 268435456 bytes
  EXPECT_EQ(package.memory_limit_source, "problem.xml <memory-limit>");
}

TEST_F(ProblemPackageTest, ProblemXmlSolutionsGetTheirTagsVerdicts) {
  touch("pkg/problem.xml", kProblemXml);
  for (const char* name :
       {"main.cpp", "alt.py", "wa.cpp", "slow.cpp", "crash.cpp", "rejected.cpp", "maybe.cpp"})
    touch(fs::path("pkg/solutions") / name, "int main() {}\n");
  touch("outside.cpp");
  const ProblemPackage package = recognised("pkg");
  const std::vector<std::string> expected_names = {"solutions/alt.py", "solutions/crash.cpp",
                                                   "solutions/main.cpp", "solutions/slow.cpp",
                                                   "solutions/wa.cpp"};
  EXPECT_EQ(names_of(package), expected_names);
  ASSERT_EQ(package.submissions.size(), 5u);
  EXPECT_EQ(package.submissions[0].expected, Expectation::accepted);
  EXPECT_EQ(package.submissions[1].expected, Expectation::run_time_error);
  EXPECT_EQ(package.submissions[2].expected, Expectation::accepted);
  EXPECT_EQ(package.submissions[3].expected, Expectation::time_limit_exceeded);
  EXPECT_EQ(package.submissions[4].expected, Expectation::wrong_answer);
  EXPECT_EQ(package.submissions[2].path, at("pkg/solutions/main.cpp"));
  EXPECT_TRUE(has_warning_containing(package, "solutions/rejected.cpp: the Polygon tag 'rejected'"))
      << all_warnings(package);
  EXPECT_TRUE(has_warning_containing(
      package, "solutions/maybe.cpp: the Polygon tag 'time-limit-exceeded-or-accepted'"))
      << all_warnings(package);
  EXPECT_TRUE(
      has_warning_containing(package, "solutions/absent.cpp: named by problem.xml but missing"))
      << all_warnings(package);
  EXPECT_TRUE(has_warning_containing(package, "'../outside.cpp' is not inside the package"))
      << all_warnings(package);
  EXPECT_EQ(package.warnings.size(), 4u) << all_warnings(package);
}

TEST_F(ProblemPackageTest, ProblemXmlRuntimeErrorTagIsTakenToo) {
  touch("pkg/problem.xml",
        "<solutions><solution tag=\"runtime-error\"><source path=\"s/re.c\"/></solution>"
        "<solution tag=\"main\"/></solutions>");
  touch("pkg/s/re.c");
  const ProblemPackage package = recognised("pkg");
  ASSERT_EQ(package.submissions.size(), 1u);
  EXPECT_EQ(package.submissions[0].name, "s/re.c");
  EXPECT_EQ(package.submissions[0].expected, Expectation::run_time_error);
  EXPECT_EQ(package.warnings,
            std::vector<std::string>{
                "problem.xml: a <solution tag=\"main\"> without a <source path=...>; skipped"});
}

TEST_F(ProblemPackageTest, ProblemXmlBadTimeLimitIsWarnedAbout) {
  touch("pkg/problem.xml", "<problem><time-limit>two seconds</time-limit></problem>");
  const ProblemPackage package = recognised("pkg");
  EXPECT_FALSE(package.time_limit_seconds);
  EXPECT_EQ(package.warnings,
            std::vector<std::string>{"problem.xml: <time-limit> (milliseconds) must be a positive "
                                     "number, found 'two seconds'; ignored"});
}

TEST_F(ProblemPackageTest, ProblemXmlEntitiesInAttributesAreDecoded) {
  touch("pkg/problem.xml",
        "<solution tag=\"main\"><source path=\"solutions/a&amp;b.cpp\"/></solution>");
  touch("pkg/solutions/a&b.cpp");
  const ProblemPackage package = recognised("pkg");
  EXPECT_EQ(names_of(package), std::vector<std::string>{"solutions/a&b.cpp"});
}

// ---------------------------------------------------------------- task.yaml

TEST_F(ProblemPackageTest, TaskYamlGivesTheTopLevelTimeLimit) {
  touch("pkg/task.yaml",
        "name: willow\n"
        "title: 'Willow'\n"
        "subtask:\n"
        "  time_limit: 9\n"
        "time_limit: 1.5  # seconds\n"
        "memory_limit: 256\n");
  const ProblemPackage package = recognised("pkg");
  EXPECT_EQ(package.time_limit_seconds, 1.5);
  EXPECT_EQ(package.time_limit_source, "task.yaml time_limit");
  EXPECT_EQ(package.memory_limit_mb, 256.0);
  EXPECT_EQ(package.memory_limit_source, "task.yaml memory_limit");
  EXPECT_TRUE(package.warnings.empty()) << all_warnings(package);
}

TEST_F(ProblemPackageTest, TaskYamlBadTimeLimitIsWarnedAbout) {
  touch("pkg/task.yaml", "name: x\ntime_limit: 0\n");
  const ProblemPackage package = recognised("pkg");
  EXPECT_FALSE(package.time_limit_seconds);
  EXPECT_EQ(package.warnings,
            std::vector<std::string>{
                "task.yaml:2: time_limit must be a positive number, found '0'; ignored"});
}

// ---------------------------------------------------------------- submissions

TEST_F(ProblemPackageTest, KattisSubmissionsComeFromTheVerdictDirectories) {
  touch("pkg/problem.yaml");
  touch("pkg/submissions/accepted/sol.cpp");
  touch("pkg/submissions/accepted/multi/main.py");  // a directory is one submission
  touch("pkg/submissions/accepted/.hidden.cpp");
  touch("pkg/submissions/accepted/sol.cpp~");
  touch("pkg/submissions/wrong_answer/wa.py");
  touch("pkg/submissions/time_limit_exceeded/slow.java");
  touch("pkg/submissions/run_time_error/crash.c");
  touch("pkg/submissions/brute_force/brute.cpp");
  touch("pkg/submissions/README.md");
  touch("pkg/submissions/.git/config");
  const ProblemPackage package = recognised("pkg");
  const std::vector<std::string> expected_names = {
      "accepted/multi", "accepted/sol.cpp", "run_time_error/crash.c",
      "time_limit_exceeded/slow.java", "wrong_answer/wa.py"};
  EXPECT_EQ(names_of(package), expected_names);
  ASSERT_EQ(package.submissions.size(), 5u);
  EXPECT_EQ(package.submissions[0].path, at("pkg/submissions/accepted/multi"));
  EXPECT_EQ(package.submissions[0].expected, Expectation::accepted);
  EXPECT_EQ(package.submissions[1].expected, Expectation::accepted);
  EXPECT_EQ(package.submissions[2].expected, Expectation::run_time_error);
  EXPECT_EQ(package.submissions[3].expected, Expectation::time_limit_exceeded);
  EXPECT_EQ(package.submissions[4].expected, Expectation::wrong_answer);
  ASSERT_EQ(package.warnings.size(), 2u) << all_warnings(package);
  EXPECT_EQ(package.warnings[0],
            "submissions/README.md: 'README.md' is no verdict directory of the Kattis format "
            "(accepted, wrong_answer, time_limit_exceeded, run_time_error); skipped");
  EXPECT_EQ(package.warnings[1].substr(0, 50),
            "submissions/brute_force: 'brute_force' is no verdi");
}

TEST_F(ProblemPackageTest, CmsSubmissionsAreTheSolutionFiles) {
  touch("pkg/task.yaml");
  touch("pkg/sol/solution.cpp");
  touch("pkg/sol/soluzione.py");
  touch("pkg/sol/grader.cpp");
  touch("pkg/sol/.solution.cpp.swp");
  touch("pkg/sol/solution.cpp~");
  touch("pkg/sol/old/solution.cpp");
  const ProblemPackage package = recognised("pkg");
  const std::vector<std::string> expected_names = {"sol/solution.cpp", "sol/soluzione.py"};
  EXPECT_EQ(names_of(package), expected_names);
  for (const PackageSubmission& submission : package.submissions)
    EXPECT_EQ(submission.expected, Expectation::accepted);
  EXPECT_EQ(package.submissions[0].path, at("pkg/sol/solution.cpp"));
  ASSERT_EQ(package.warnings.size(), 2u) << all_warnings(package);
  EXPECT_EQ(package.warnings[0],
            "sol/grader.cpp: the CMS format does not say what it must get (only "
            "sol/solution.* and sol/soluzione.* are accepted); skipped");
  EXPECT_EQ(package.warnings[1],
            "sol/old: a directory in sol/, no submission of the CMS format; skipped");
}

TEST_F(ProblemPackageTest, PolygonWithoutSolutionsHasNone) {
  touch("pkg/problem.xml",
        "<problem><judging><testset><time-limit>1000</time-limit>"
        "</testset></judging></problem>");
  const ProblemPackage package = recognised("pkg");
  EXPECT_TRUE(package.submissions.empty());
  EXPECT_TRUE(package.warnings.empty()) << all_warnings(package);
  EXPECT_EQ(package.time_limit_seconds, 1.0);
}

// ---------------------------------------------------------------- malformed files

TEST_F(ProblemPackageTest, MalformedProblemYamlIsAWarningNamingItsLine) {
  touch("pkg/problem.yaml",
        "name: x\n"
        "limits:\n"
        "  time_limit: [1, 2\n"
        "  memory: 3\n");
  const ProblemPackage package = recognised("pkg");
  EXPECT_FALSE(package.time_limit_seconds);
  ASSERT_EQ(package.warnings.size(), 1u) << all_warnings(package);
  EXPECT_TRUE(package.warnings[0].starts_with("problem.yaml:4: not valid YAML ("))
      << package.warnings[0];
  EXPECT_TRUE(package.warnings[0].ends_with("); its settings are not used")) << package.warnings[0];
}

TEST_F(ProblemPackageTest, MalformedTaskYamlAndProblemXmlAreWarningsNamingTheirLines) {
  touch("cms/task.yaml", "name: x\ntime_limit: 1\n  memory_limit: : 2\n");
  const ProblemPackage cms = recognised("cms");
  ASSERT_EQ(cms.warnings.size(), 1u) << all_warnings(cms);
  EXPECT_TRUE(cms.warnings[0].starts_with("task.yaml:3: not valid YAML")) << cms.warnings[0];
  EXPECT_FALSE(cms.time_limit_seconds);
  touch("polygon/problem.xml", "<problem>\n<judging>\n<time-limit>1000</judging>\n</problem>\n");
  const ProblemPackage polygon = recognised("polygon");
  ASSERT_EQ(polygon.warnings.size(), 1u) << all_warnings(polygon);
  EXPECT_TRUE(polygon.warnings[0].starts_with("problem.xml:3: not valid XML ("))
      << polygon.warnings[0];
  EXPECT_FALSE(polygon.time_limit_seconds);
}

TEST_F(ProblemPackageTest, TaskYamlTakesItalyYamlsOlderNames) {
  touch("pkg/task.yaml", "name: x\ntimeout: 3\nmemlimit: 64\n");
  const ProblemPackage package = recognised("pkg");
  EXPECT_EQ(package.time_limit_seconds, 3.0);
  EXPECT_EQ(package.time_limit_source, "task.yaml timeout");
  EXPECT_EQ(package.memory_limit_mb, 64.0);
  EXPECT_EQ(package.memory_limit_source, "task.yaml memlimit");
  EXPECT_TRUE(package.warnings.empty()) << all_warnings(package);
}

// ---------------------------------------------------------------- test groups

std::vector<std::string> group_names(const ProblemPackage& package) {
  std::vector<std::string> names;
  for (const TestGroup& group : package.groups)
    names.push_back(group.name);
  return names;
}

TEST_F(ProblemPackageTest, KattisGroupsAreTheSecretDirectoriesWithTestGroupYaml) {
  touch("pkg/problem.yaml", "name: x\n");
  touch("pkg/data/sample/1.in");
  touch("pkg/data/sample/1.ans");
  touch("pkg/data/secret/small/test_group.yaml", "max_score: 30\nscore_aggregation: min\n");
  touch("pkg/data/secret/small/2.in");
  touch("pkg/data/secret/small/10.in");
  touch("pkg/data/secret/small/sub/1.in");
  touch("pkg/data/secret/small/2.ans");
  touch("pkg/data/secret/large/test_group.yaml", "max_score: 70\n");
  touch("pkg/data/secret/large/a.in");
  touch("pkg/data/secret/old/testdata.yaml", "grader_flags: first_error sum\naccept_score: 5\n");
  touch("pkg/data/secret/old/x.in");
  touch("pkg/data/secret/open/test_group.yaml", "# a comment\nmax_score: unbounded\n");
  touch("pkg/data/secret/plain/y.in");  // no test_group.yaml: no group
  touch("pkg/data/secret/loose.in");
  const ProblemPackage package = recognised("pkg");
  const std::vector<std::string> expected_names = {"sample", "large", "old", "open", "small"};
  ASSERT_EQ(group_names(package), expected_names);
  const TestGroup& sample = package.groups[0];
  EXPECT_EQ(sample.path, "sample");
  EXPECT_EQ(sample.max_score, 0);
  EXPECT_EQ(sample.aggregation, ScoreAggregation::pass_fail);
  EXPECT_EQ(sample.tests, std::vector<fs::path>{at("pkg/data/sample/1.in")});
  EXPECT_EQ(sample.source, "data/sample/");
  const TestGroup& large = package.groups[1];
  EXPECT_EQ(large.path, "secret/large");
  EXPECT_EQ(large.max_score, 70);
  EXPECT_EQ(large.aggregation, ScoreAggregation::pass_fail);  // the format's default
  EXPECT_EQ(large.source, "data/secret/large/test_group.yaml");
  const TestGroup& old = package.groups[2];
  EXPECT_EQ(old.aggregation, ScoreAggregation::sum);
  EXPECT_EQ(old.max_score, 5);  // legacy: accept_score per test, summed over its one test
  EXPECT_EQ(old.source, "data/secret/old/testdata.yaml");
  EXPECT_EQ(old.tests, std::vector<fs::path>{at("pkg/data/secret/old/x.in")});
  EXPECT_EQ(package.groups[3].max_score, 0);
  const TestGroup& small = package.groups[4];
  EXPECT_EQ(small.path, "secret/small");
  EXPECT_EQ(small.max_score, 30);
  EXPECT_EQ(small.aggregation, ScoreAggregation::min);
  // input_set's order: fs::path's, component by component.
  const std::vector<fs::path> small_tests = {at("pkg/data/secret/small/10.in"),
                                             at("pkg/data/secret/small/2.in"),
                                             at("pkg/data/secret/small/sub/1.in")};
  EXPECT_EQ(small.tests, small_tests);
  const std::vector<std::string> expected_warnings = {
      "data/secret/open/test_group.yaml:2: max_score must be a non-negative integer, found "
      "'unbounded'; the group counts 0 points"};
  EXPECT_EQ(package.warnings, expected_warnings);
}

TEST_F(ProblemPackageTest, KattisLegacyGraderFlagsGiveTheAggregation) {
  touch("pkg/data/secret/a/testdata.yaml", "max_score: 5\ngrader_flags: min\n");
  touch("pkg/data/secret/b/testdata.yaml", "max_score: 5\ngrader_flags: ignore_sample\n");
  touch("pkg/data/secret/c/testdata.yaml", "max_score: 5\n");
  const ProblemPackage package = recognised("pkg");
  ASSERT_EQ(group_names(package), (std::vector<std::string>{"a", "b", "c"}));  // no sample input
  EXPECT_EQ(package.groups[0].aggregation, ScoreAggregation::min);
  EXPECT_EQ(package.groups[1].aggregation, ScoreAggregation::pass_fail);
  EXPECT_EQ(package.groups[2].aggregation, ScoreAggregation::pass_fail);
  EXPECT_TRUE(package.groups[0].tests.empty());
  EXPECT_TRUE(package.warnings.empty()) << all_warnings(package);
}

// A legacy testdata.yaml (no max_score) is scored as problemtools' default grader scores it:
// accept_score per AC test (default 1), aggregated by grader_flags' score word (min: the group's
// accept_score when all are AC; sum, the default; avg), its missing keys inherited from
// data/secret/testdata.yaml, then data/testdata.yaml.
TEST_F(ProblemPackageTest, KattisLegacyTestdataYamlScoresAsTheDefaultGrader) {
  touch("pkg/data/testdata.yaml", "on_reject: continue\ngrader_flags: ignore_sample min\n");
  touch("pkg/data/secret/testdata.yaml", "accept_score: 7\n");
  touch("pkg/data/secret/a/testdata.yaml",
        "grading: default\ngrader_flags: min\naccept_score: 20\n");
  touch("pkg/data/secret/b/testdata.yaml", "accept_score: 3\ngrader_flags: always_accept sum\n");
  touch("pkg/data/secret/c/testdata.yaml", "grader_flags: avg\n");
  touch("pkg/data/secret/d/testdata.yaml", "");
  touch("pkg/data/secret/e/testdata.yaml", "accept_score: lots\n");
  for (const char* group : {"a", "b", "c", "d", "e"}) {
    touch(std::string("pkg/data/secret/") + group + "/1.in");
    touch(std::string("pkg/data/secret/") + group + "/2.in");
  }
  const ProblemPackage package = recognised("pkg");
  ASSERT_EQ(group_names(package), (std::vector<std::string>{"a", "b", "c", "d", "e"}));
  EXPECT_EQ(package.groups[0].aggregation, ScoreAggregation::min);
  EXPECT_EQ(package.groups[0].max_score, 20);
  EXPECT_EQ(package.groups[1].aggregation, ScoreAggregation::sum);
  EXPECT_EQ(package.groups[1].max_score, 6);  // 3 per test, 2 tests
  EXPECT_EQ(package.groups[2].aggregation, ScoreAggregation::sum);
  EXPECT_EQ(package.groups[2].max_score, 7);                        // the average of 7 per AC test
  EXPECT_EQ(package.groups[3].aggregation, ScoreAggregation::min);  // all inherited
  EXPECT_EQ(package.groups[3].max_score, 7);
  EXPECT_EQ(package.groups[4].max_score, 0);
  EXPECT_EQ(package.warnings,
            (std::vector<std::string>{"data/secret/e/testdata.yaml: accept_score must be a "
                                      "non-negative number, found 'lots'; the group counts 0 "
                                      "points"}));
}

TEST_F(ProblemPackageTest, KattisMetadataGivesTheFormatVersionAndWhatTheLayoutNeeds) {
  const KattisMetadata legacy =
      parse_kattis_metadata("name: x\ntype: scoring\nlimits:\n  memory: 512\n  time_limit: 2\n");
  EXPECT_EQ(legacy.format, KattisFormat::legacy);
  EXPECT_TRUE(legacy.has_type);
  EXPECT_TRUE(legacy.scoring);
  EXPECT_FALSE(legacy.has_uuid);
  EXPECT_EQ(legacy.time_limit_line, 5);
  const KattisMetadata draft = parse_kattis_metadata(
      "problem_format_version: 2023-07-draft\ntype: [scoring, interactive]\nuuid: 1\n");
  EXPECT_EQ(draft.format, KattisFormat::draft_2023_07);
  EXPECT_TRUE(draft.scoring);
  EXPECT_TRUE(draft.has_uuid);
  EXPECT_EQ(parse_kattis_metadata("problem_format_version: 2025-09\n").format,
            KattisFormat::v2025_09);
  EXPECT_EQ(parse_kattis_metadata("problem_format_version: legacy\n").format, KattisFormat::legacy);
  EXPECT_FALSE(parse_kattis_metadata("type: pass-fail\n").scoring);
  EXPECT_FALSE(parse_kattis_metadata("").has_type);
  const auto error_of_text = [](const std::string& text) -> std::string {
    try {
      parse_kattis_metadata(text);
    } catch (const UsageError& error) {
      return error.what();
    }
    return "";
  };
  EXPECT_EQ(error_of_text("problem_format_version: 2030-01\n"),
            "problem.yaml:1: problem_format_version '2030-01' is none that gamebatch writes "
            "(legacy, 2023-07-draft, 2025-09)");
  EXPECT_EQ(error_of_text("- a list\n"),
            "problem.yaml:1: must be a mapping of keys, found '- a list'");
  EXPECT_TRUE(error_of_text("a: [\n").starts_with("problem.yaml:")) << error_of_text("a: [\n");
  EXPECT_FALSE(read_kattis_metadata(at("none")).exists);
}

TEST_F(ProblemPackageTest, TheBuildRecordSettlesTwoLayoutsMarks) {
  touch("pkg/problem.yaml", "name: x\n");
  touch("pkg/task.yaml", "name: x\n");
  touch("pkg/input/input0.txt");
  EXPECT_THROW(recognised("pkg"), UsageError);
  touch("pkg/.gamebatch-build.json",
        "{\n \"schema\": \"gamebatch-build/1\",\n \"layout\": \"cms\"}\n");
  EXPECT_EQ(built_layout(at("pkg")), Layout::cms);
  const ProblemPackage old_record = recognised("pkg");
  EXPECT_EQ(old_record.layout, Layout::cms);
  touch("pkg/gamebatch-build.json", "{\"schema\": \"gamebatch-build/1\", \"layout\": \"kattis\"}");
  const ProblemPackage package = recognised("pkg");
  EXPECT_EQ(package.layout, Layout::kattis);
  ASSERT_EQ(package.warnings.size(), 1u);
  EXPECT_NE(package.warnings[0].find("holds the marks of cms too; read as kattis, the layout its "
                                     "build record (gamebatch-build.json) names"),
            std::string::npos)
      << package.warnings[0];
  // A record naming neither leaves the choice to --layout.
  touch("pkg/gamebatch-build.json", "{\"layout\": \"polygon\"}");
  EXPECT_THROW(recognised("pkg"), UsageError);
  EXPECT_EQ(recognise_package(at("pkg"), Layout::cms)->layout, Layout::cms);
}

// Found by the task_yaml fuzz target (tests/data/fuzz/task_yaml-group-min-without-parameters):
// a GroupMin without score_type_parameters threw yaml-cpp's InvalidNode while naming the line.
TEST_F(ProblemPackageTest, CmsGroupMinWithoutParametersIsAUsageErrorNamingTheLine) {
  touch("cms/task.yaml", "name: x\nscore_type: GroupMin\n");
  touch("cms/input/input0.txt");
  EXPECT_EQ(error_of("cms"),
            "task.yaml:2: score_type GroupMin needs score_type_parameters: a list of [points, "
            "target]");
}

TEST_F(ProblemPackageTest, KattisWithoutGroupDirectoriesHasNoGroups) {
  touch("pkg/data/sample/1.in");
  touch("pkg/data/secret/a.in");
  touch("pkg/data/secret/more/b.in");
  EXPECT_TRUE(recognised("pkg").groups.empty());
}

const char* const kCmsTask =
    "name: x\n"
    "score_type: GroupMin\n"
    "score_type_parameters:\n"
    "  - [10, 2]\n"
    "  - [20, '0(03|10)']\n"
    "  - [30, ['001', '004']]\n"
    "  - [40, 2]\n"
    "  - [0, '0[01]']\n";

TEST_F(ProblemPackageTest, CmsGroupMinGroupsTakeCountsRegexesAndLists) {
  touch("pkg/task.yaml", kCmsTask);
  for (const int n : {0, 1, 2, 3, 4, 10})
    touch("pkg/input/input" + std::to_string(n) + ".txt");
  const ProblemPackage package = recognised("pkg");
  const std::vector<std::string> expected_names = {"subtask1", "subtask2", "subtask3", "subtask4",
                                                   "subtask5"};
  ASSERT_EQ(group_names(package), expected_names);
  const auto input = [&](int n) { return at("pkg/input/input" + std::to_string(n) + ".txt"); };
  EXPECT_EQ(package.groups[0].tests, (std::vector<fs::path>{input(0), input(1)}));
  // In the package's input order: input10.txt before input3.txt.
  EXPECT_EQ(package.groups[1].tests, (std::vector<fs::path>{input(10), input(3)}));
  EXPECT_EQ(package.groups[2].tests, (std::vector<fs::path>{input(1), input(4)}));
  EXPECT_EQ(package.groups[3].tests, (std::vector<fs::path>{input(2), input(3)}));
  // The regex must match the whole codename: "0[01]" matches no three-digit name.
  EXPECT_TRUE(package.groups[4].tests.empty());
  EXPECT_EQ(package.warnings,
            std::vector<std::string>{"task.yaml:8: score_type_parameters[4] takes no testcase"});
  EXPECT_EQ(package.groups[1].path, "secret/subtask2");
  EXPECT_EQ(package.groups[1].max_score, 20);
  EXPECT_EQ(package.groups[1].aggregation, ScoreAggregation::min);
  EXPECT_EQ(package.groups[1].source, "task.yaml score_type_parameters[1]");
}

TEST_F(ProblemPackageTest, CmsGroupMulIsMinAndSumHasNoGroups) {
  touch("mul/task.yaml", "score_type: GroupMul\nscore_type_parameters: [[100, '.*']]\n");
  touch("mul/input/input0.txt");
  const ProblemPackage mul = recognised("mul");
  ASSERT_EQ(mul.groups.size(), 1u);
  EXPECT_EQ(mul.groups[0].aggregation, ScoreAggregation::min);
  EXPECT_EQ(mul.groups[0].tests, std::vector<fs::path>{at("mul/input/input0.txt")});
  touch("sum/task.yaml", "score_type: Sum\nscore_type_parameters: 10\n");
  touch("sum/input/input0.txt");
  EXPECT_TRUE(recognised("sum").groups.empty());
}

TEST_F(ProblemPackageTest, CmsMalformedParametersAreUsageErrorsNamingTheLine) {
  touch("short/task.yaml", "score_type: GroupMin\nscore_type_parameters:\n  - [10]\n");
  EXPECT_EQ(error_of("short").substr(0, 43), "task.yaml:3: score_type_parameters[0] must ");
  touch("many/task.yaml", "score_type: GroupMin\nscore_type_parameters:\n  - [10, 3]\n");
  touch("many/input/input0.txt");
  EXPECT_EQ(error_of("many"),
            "task.yaml:3: score_type_parameters[0] takes the next 3 testcases but 1 remain");
  touch("regex/task.yaml", "score_type: GroupMin\nscore_type_parameters:\n  - [10, '(']\n");
  EXPECT_TRUE(error_of("regex").starts_with("task.yaml:3: score_type_parameters[0] '(' is no "))
      << error_of("regex");
  touch("name/task.yaml", "score_type: GroupMin\nscore_type_parameters:\n  - [1, ['000', '7']]\n");
  touch("name/input/input0.txt");
  EXPECT_TRUE(error_of("name").starts_with("task.yaml:3: score_type_parameters[0] names '7'"))
      << error_of("name");
  touch("points/task.yaml", "score_type: GroupMin\nscore_type_parameters:\n  - [many, 1]\n");
  EXPECT_TRUE(error_of("points").starts_with("task.yaml:3: score_type_parameters[0] points"))
      << error_of("points");
}

// ---------------------------------------------------------------- expectations

// A Kattis package with the groups sample, large and small.
class ExpectationTest : public ProblemPackageTest {
 protected:
  void SetUp() override {
    touch("pkg/problem.yaml", "name: x\n");
    touch("pkg/data/sample/1.in");
    touch("pkg/data/secret/small/test_group.yaml", "max_score: 30\n");
    touch("pkg/data/secret/small/1.in");
    touch("pkg/data/secret/large/test_group.yaml", "max_score: 70\n");
    touch("pkg/data/secret/large/1.in");
  }
  const PackageSubmission& submission(const ProblemPackage& package, const std::string& name) {
    for (const PackageSubmission& one : package.submissions) {
      if (one.name == name)
        return one;
    }
    ADD_FAILURE() << "no submission " << name;
    static const PackageSubmission none;
    return none;
  }
};

using Verdicts = std::vector<std::string>;

TEST_F(ExpectationTest, SubmissionsYamlGivesTopLevelAndGroupRules) {
  touch("pkg/submissions/submissions.yaml",
        "accepted/sol.cpp:\n"
        "  language: cpp\n"
        "  permitted: [AC]\n"
        "partial/*:\n"
        "  score: [10, 40]\n"
        "  authors: [someone]\n"
        "  secret/small:\n"
        "    permitted: [AC]\n"
        "  large:\n"
        "    required: [RTE, TLE]\n"
        "    score: 0\n"
        "'*/brute{1,2}.py':\n"
        "  required: [TLE, MLE, RE]\n"
        "wrong_answer/nothing.cpp:\n"
        "  permitted: [WA]\n");
  touch("pkg/submissions/accepted/sol.cpp");
  touch("pkg/submissions/partial/p.cpp");
  touch("pkg/submissions/partial/multi/main.py");
  touch("pkg/submissions/partial/deeper/x/y.cpp");
  touch("pkg/submissions/time_limit_exceeded/brute1.py");
  touch("pkg/submissions/wrong_answer/brute3.py");
  touch("pkg/submissions/other/none.cpp");
  const ProblemPackage package = recognised("pkg");
  const std::vector<std::string> expected_names = {"accepted/sol.cpp",
                                                   "partial/deeper",
                                                   "partial/multi",
                                                   "partial/p.cpp",
                                                   "time_limit_exceeded/brute1.py",
                                                   "wrong_answer/brute3.py"};
  EXPECT_EQ(names_of(package), expected_names);

  const PackageSubmission& sol = submission(package, "accepted/sol.cpp");
  EXPECT_EQ(sol.expected, Expectation::accepted);
  ASSERT_EQ(sol.rules.size(), 1u);
  EXPECT_EQ(sol.rules[0].groups, "");
  EXPECT_EQ(sol.rules[0].permitted, Verdicts{"AC"});
  EXPECT_FALSE(sol.rules[0].required);
  EXPECT_FALSE(sol.rules[0].score);
  EXPECT_EQ(sol.rules[0].source, "submissions/submissions.yaml:1");

  const PackageSubmission& partial = submission(package, "partial/p.cpp");
  EXPECT_EQ(partial.expected, Expectation::stated);
  EXPECT_EQ(partial.path, at("pkg/submissions/partial/p.cpp"));
  ASSERT_EQ(partial.rules.size(), 3u);
  EXPECT_EQ(partial.rules[0].groups, "");
  EXPECT_EQ(partial.rules[0].score, std::make_pair(10.0, 40.0));
  EXPECT_EQ(partial.rules[0].source, "submissions/submissions.yaml:4");
  EXPECT_EQ(partial.rules[1].groups, "secret/small");
  EXPECT_EQ(partial.rules[1].permitted, Verdicts{"AC"});
  EXPECT_EQ(partial.rules[1].source, "submissions/submissions.yaml:7");
  EXPECT_EQ(partial.rules[2].groups, "large");
  // RTE is our RE or MLE.
  EXPECT_EQ(partial.rules[2].required, (Verdicts{"RE", "MLE", "TLE"}));
  EXPECT_EQ(partial.rules[2].score, std::make_pair(0.0, 0.0));
  EXPECT_EQ(partial.rules[2].source, "submissions/submissions.yaml:9");
  EXPECT_EQ(submission(package, "partial/multi").rules.size(), 3u);  // a directory is one

  const PackageSubmission& brute = submission(package, "time_limit_exceeded/brute1.py");
  EXPECT_EQ(brute.expected, Expectation::time_limit_exceeded);
  ASSERT_EQ(brute.rules.size(), 1u);
  EXPECT_EQ(brute.rules[0].required, (Verdicts{"TLE", "MLE", "RE"}));
  EXPECT_TRUE(submission(package, "wrong_answer/brute3.py").rules.empty());

  const std::vector<std::string> expected_warnings = {
      "submissions/other: 'other' is no verdict directory of the Kattis format (accepted, "
      "wrong_answer, time_limit_exceeded, run_time_error); give expectations in "
      "submissions/submissions.yaml or @check- lines; skipped",
      "submissions/submissions.yaml:14: 'wrong_answer/nothing.cpp' matches no submission"};
  EXPECT_EQ(package.warnings, expected_warnings);
}

TEST_F(ExpectationTest, UnknownKeysAndVerdictsAreUsageErrorsNamingTheLine) {
  touch("pkg/submissions/accepted/sol.cpp");
  touch("pkg/submissions/submissions.yaml", "accepted/*:\n  permitted: [AC]\n  colour: blue\n");
  EXPECT_TRUE(error_of("pkg").starts_with(
      "submissions/submissions.yaml:3: unknown key 'colour': no key of submissions.yaml and no "
      "group of the package (groups: sample, large, small)"))
      << error_of("pkg");
  touch("pkg/submissions/submissions.yaml", "accepted/*:\n  small:\n    required: [AC, XX]\n");
  EXPECT_EQ(error_of("pkg"),
            "submissions/submissions.yaml:3: required: unknown verdict 'XX' (AC, WA, TLE, RTE, "
            "MLE, RE)");
  touch("pkg/submissions/submissions.yaml", "accepted/*:\n  small:\n    colour: red\n");
  EXPECT_TRUE(error_of("pkg").starts_with("submissions/submissions.yaml:3: unknown key 'colour'"))
      << error_of("pkg");
  touch("pkg/submissions/submissions.yaml", "accepted/*: [\n");
  EXPECT_TRUE(error_of("pkg").starts_with("submissions/submissions.yaml:2: not valid YAML"))
      << error_of("pkg");
}

TEST_F(ExpectationTest, AGroupPatternNamingNoGroupIsAUsageError) {
  touch("pkg/submissions/accepted/sol.cpp");
  touch("pkg/submissions/submissions.yaml",
        "accepted/*:\n  permitted: [AC]\n  secret/huge:\n    permitted: [AC]\n");
  EXPECT_EQ(error_of("pkg"),
            "submissions/submissions.yaml:3: the group pattern 'secret/huge' names no group of the "
            "package (groups: sample, large, small)");
  touch("pkg/submissions/submissions.yaml", "accepted/*:\n  secret/*:\n    permitted: [AC]\n");
  EXPECT_EQ(error_of("pkg"), "");
  touch("pkg/submissions/accepted/sol.cpp", "int main() {}\n// @check-accepted: small huge\n");
  EXPECT_EQ(error_of("pkg"),
            "accepted/sol.cpp:2 @check-accepted: the group pattern 'huge' names no group of the "
            "package (groups: sample, large, small)");
}

TEST_F(ProblemPackageTest, RulesOnGroupsOfAPackageWithoutGroupsAreUsageErrors) {
  touch("pkg/problem.yaml", "name: x\n");
  touch("pkg/submissions/accepted/sol.cpp", "// @check-accepted: *\n");
  EXPECT_EQ(error_of("pkg"),
            "accepted/sol.cpp:1 @check-accepted: the group pattern '*' names no group of the "
            "package (the package has no groups)");
}

TEST_F(ExpectationTest, CheckLinesGiveRulesOnGroups) {
  touch("pkg/submissions/partial/brute.cpp",
        "// @check-accepted: sample small\n"
        "int main() {}  /* @check-zero: l* */\n"
        "# @check-partial-score: secret\n"
        "// @check-wrong-answer:\n"
        "// mentions @check-accepted without a colon\n"
        "// @check-nonsense: small\n");
  touch("pkg/submissions/partial/multi/a.py", "# @check-time-limit-exceeded: large\n");
  touch("pkg/submissions/partial/multi/b.py",
        "# @check-runtime-error: large\n# @check-memory-limit-exceeded: {large,small}\n");
  touch("pkg/submissions/accepted/sol.cpp");
  const ProblemPackage package = recognised("pkg");
  const PackageSubmission& brute = submission(package, "partial/brute.cpp");
  EXPECT_EQ(brute.expected, Expectation::stated);
  ASSERT_EQ(brute.rules.size(), 4u);
  EXPECT_EQ(brute.rules[0].groups, "sample");
  EXPECT_EQ(brute.rules[0].permitted, Verdicts{"AC"});
  EXPECT_FALSE(brute.rules[0].required);
  EXPECT_EQ(brute.rules[0].source, "partial/brute.cpp:1 @check-accepted");
  EXPECT_EQ(brute.rules[1].groups, "small");
  EXPECT_EQ(brute.rules[2].groups, "l*");
  EXPECT_EQ(brute.rules[2].required, (Verdicts{"WA", "TLE", "MLE", "RE"}));
  EXPECT_EQ(brute.rules[2].source, "partial/brute.cpp:2 @check-zero");
  EXPECT_EQ(brute.rules[3].groups, "secret");
  EXPECT_EQ(brute.rules[3].permitted, Verdicts{"AC"});
  EXPECT_EQ(brute.rules[3].source, "partial/brute.cpp:3 @check-partial-score");
  EXPECT_EQ(package.warnings,
            std::vector<std::string>{
                "partial/brute.cpp:6: unknown @check-nonsense (accepted, wrong-answer, "
                "time-limit-exceeded, runtime-error, memory-limit-exceeded, zero, "
                "partial-score); ignored"});
  const PackageSubmission& multi = submission(package, "partial/multi");
  ASSERT_EQ(multi.rules.size(), 3u);
  EXPECT_EQ(multi.rules[0].required, Verdicts{"TLE"});
  EXPECT_EQ(multi.rules[0].source, "partial/multi/a.py:1 @check-time-limit-exceeded");
  EXPECT_EQ(multi.rules[1].required, Verdicts{"RE"});
  EXPECT_EQ(multi.rules[2].required, Verdicts{"MLE"});
  EXPECT_EQ(multi.rules[2].groups, "{large,small}");
  EXPECT_TRUE(submission(package, "accepted/sol.cpp").rules.empty());
}

TEST_F(ProblemPackageTest, CmsSolFilesWithCheckLinesAreKeptAsStated) {
  touch("pkg/task.yaml", "score_type: GroupMin\nscore_type_parameters: [[10, 1], [90, 1]]\n");
  touch("pkg/input/input0.txt");
  touch("pkg/input/input1.txt");
  touch("pkg/sol/solution.cpp", "// @check-accepted: *\n");
  touch("pkg/sol/brute.cpp",
        "// @check-accepted: subtask1\n// @check-time-limit-exceeded: subtask2\n");
  touch("pkg/sol/grader.cpp");
  const ProblemPackage package = recognised("pkg");
  EXPECT_EQ(names_of(package), (std::vector<std::string>{"sol/brute.cpp", "sol/solution.cpp"}));
  ASSERT_EQ(package.submissions.size(), 2u);
  EXPECT_EQ(package.submissions[0].expected, Expectation::stated);
  ASSERT_EQ(package.submissions[0].rules.size(), 2u);
  EXPECT_EQ(package.submissions[0].rules[1].groups, "subtask2");
  EXPECT_EQ(package.submissions[0].rules[1].source, "sol/brute.cpp:2 @check-time-limit-exceeded");
  EXPECT_EQ(package.submissions[1].expected, Expectation::accepted);
  EXPECT_EQ(package.submissions[1].rules.size(), 1u);
  EXPECT_EQ(package.warnings,
            std::vector<std::string>{"sol/grader.cpp: the CMS format does not say what it must "
                                     "get (only sol/solution.* and sol/soluzione.* are accepted); "
                                     "skipped"});
}

TEST_F(ProblemPackageTest, LargeFilesAreNotReadForCheckLines) {
  touch("pkg/problem.yaml", "name: x\n");
  touch("pkg/submissions/other/big.cpp",
        "// @check-accepted: *\n" + std::string(1 << 20, 'x') + "\n");
  const ProblemPackage package = recognised("pkg");
  EXPECT_TRUE(package.submissions.empty());
  EXPECT_EQ(package.warnings.size(), 1u) << all_warnings(package);
}

// ---------------------------------------------------------------- collect_input_list

class LayoutInputSetTest : public ProblemPackageTest {
 protected:
  std::string arg(const fs::path& relative) const { return at(relative).string(); }
};

std::vector<std::pair<fs::path, fs::path>> pairs_of(const std::vector<InputFile>& files) {
  std::vector<std::pair<fs::path, fs::path>> pairs;
  for (const InputFile& file : files)
    pairs.emplace_back(file.input, file.answer);
  return pairs;
}

TEST_F(LayoutInputSetTest, PolygonPackageGivesItsNumberedTests) {
  touch("pkg/problem.xml", "<problem/>");
  touch("pkg/tests/02");
  touch("pkg/tests/01");
  touch("pkg/tests/01.a");
  touch("pkg/tests/10");
  touch("pkg/stray.in");  // not an input of the layout
  touch("pkg/files/03");  // outside tests/
  const std::vector<InputFile> files = collect_inputs({arg("pkg")}, std::nullopt);
  const std::vector<std::pair<fs::path, fs::path>> expected = {
      {at("pkg/tests/01"), at("pkg/tests/01.a")},
      {at("pkg/tests/02"), at("pkg/tests/02.a")},
      {at("pkg/tests/10"), at("pkg/tests/10.a")}};
  EXPECT_EQ(pairs_of(files), expected);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].relative, fs::path("tests/01"));
  const InputList list = collect_input_list({arg("pkg")}, std::nullopt);
  EXPECT_EQ(list.relative_name(2), "tests/10");
  EXPECT_EQ(list.answer_directories(), std::vector<fs::path>{at("pkg/tests")});
}

TEST_F(LayoutInputSetTest, CmsPackageAnswersGoToOutput) {
  touch("pkg/task.yaml");
  touch("pkg/input/input1.txt");
  touch("pkg/input/input0.txt");
  touch("pkg/input/readme.md");
  const std::vector<InputFile> files = collect_inputs({arg("pkg")}, std::nullopt);
  const std::vector<std::pair<fs::path, fs::path>> expected = {
      {at("pkg/input/input0.txt"), at("pkg/output/output0.txt")},
      {at("pkg/input/input1.txt"), at("pkg/output/output1.txt")}};
  EXPECT_EQ(pairs_of(files), expected);
  const InputList list = collect_input_list({arg("pkg")}, std::nullopt);
  EXPECT_EQ(list.answer_directories(), std::vector<fs::path>{at("pkg/output")});
}

TEST_F(LayoutInputSetTest, KattisPackageWalksOnlyData) {
  touch("pkg/problem.yaml");
  touch("pkg/data/sample/1.in");
  touch("pkg/data/secret/big.in");
  touch("pkg/data/secret/big.ans");
  touch("pkg/submissions/accepted/gen.in");  // not under data/
  const std::vector<InputFile> files = collect_inputs({arg("pkg")}, std::nullopt);
  const std::vector<std::pair<fs::path, fs::path>> expected = {
      {at("pkg/data/sample/1.in"), at("pkg/data/sample/1.ans")},
      {at("pkg/data/secret/big.in"), at("pkg/data/secret/big.ans")}};
  EXPECT_EQ(pairs_of(files), expected);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[1].relative, fs::path("data/secret/big.in"));
}

TEST_F(LayoutInputSetTest, OutDirTakesTheLayoutsAnswerOfTheRelativePath) {
  touch("poly/tests/01");
  touch("cms/input/input0.txt");
  touch("kattis/data/secret/a.in");
  const fs::path out = at("out");
  const std::vector<InputFile> files =
      collect_inputs({arg("poly"), arg("cms"), arg("kattis")}, out);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].answer, out / "tests/01.a");
  EXPECT_EQ(files[1].answer, out / "output/output0.txt");
  EXPECT_EQ(files[2].answer, out / "data/secret/a.ans");
  const InputList list = collect_input_list({arg("poly"), arg("cms"), arg("kattis")}, out);
  const std::vector<fs::path> directories = {out / "data/secret", out / "output", out / "tests"};
  EXPECT_EQ(list.answer_directories(), directories);
}

TEST_F(LayoutInputSetTest, ForcedLayoutReadsAPlainDirectory) {
  touch("plain/2");
  touch("plain/sub/1");
  touch("plain/x.in");
  touch("plain/input0.txt");
  const std::vector<InputFile> polygon =
      collect_inputs({arg("plain")}, std::nullopt, Layout::polygon);
  const std::vector<std::pair<fs::path, fs::path>> expected = {
      {at("plain/2"), at("plain/2.a")}, {at("plain/sub/1"), at("plain/sub/1.a")}};
  EXPECT_EQ(pairs_of(polygon), expected);
  const std::vector<InputFile> cms = collect_inputs({arg("plain")}, std::nullopt, Layout::cms);
  ASSERT_EQ(cms.size(), 1u);
  EXPECT_EQ(cms[0].answer, at("plain/output0.txt"));
  const std::vector<InputFile> kattis =
      collect_inputs({arg("plain")}, std::nullopt, Layout::kattis);
  ASSERT_EQ(kattis.size(), 1u);
  EXPECT_EQ(kattis[0].answer, at("plain/x.ans"));
}

TEST_F(LayoutInputSetTest, TheInputDirectoryOfACmsPackageNamedDirectly) {
  touch("pkg/input/input0.txt");
  const fs::path out = at("out");
  const std::vector<InputFile> beside =
      collect_inputs({arg("pkg/input")}, std::nullopt, Layout::cms);
  ASSERT_EQ(beside.size(), 1u);
  EXPECT_EQ(beside[0].answer, at("pkg/output/output0.txt"));
  EXPECT_EQ(beside[0].relative, fs::path("input0.txt"));
  const std::vector<InputFile> under_out = collect_inputs({arg("pkg/input")}, out, Layout::cms);
  ASSERT_EQ(under_out.size(), 1u);
  EXPECT_EQ(under_out[0].answer, out / "output0.txt");
}

TEST_F(LayoutInputSetTest, FileArgumentsTakeTheForcedLayoutsAnswerName) {
  touch("pkg/input/input3.txt");
  touch("pkg/tests/7");
  touch("pkg/notes");
  const std::vector<InputFile> cms =
      collect_inputs({arg("pkg/input/input3.txt"), arg("pkg/notes")}, std::nullopt, Layout::cms);
  ASSERT_EQ(cms.size(), 2u);
  EXPECT_EQ(cms[0].answer, at("pkg/output/output3.txt"));
  EXPECT_EQ(cms[1].answer, at("pkg/notes.ans"));
  const std::vector<InputFile> polygon =
      collect_inputs({arg("pkg/tests/7")}, std::nullopt, Layout::polygon);
  ASSERT_EQ(polygon.size(), 1u);
  EXPECT_EQ(polygon[0].answer, at("pkg/tests/7.a"));
  const fs::path out = at("out");
  const std::vector<InputFile> under_out =
      collect_inputs({arg("pkg/input/input3.txt")}, out, Layout::cms);
  ASSERT_EQ(under_out.size(), 1u);
  EXPECT_EQ(under_out[0].answer, out / "output3.txt");
  // Without a forced layout a file is named as ever.
  const std::vector<InputFile> plain = collect_inputs({arg("pkg/tests/7")}, std::nullopt);
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0].answer, at("pkg/tests/7.ans"));
}

TEST_F(LayoutInputSetTest, AmbiguousPackageIsAUsageError) {
  touch("both/problem.yaml");
  touch("both/task.yaml");
  EXPECT_THROW(collect_inputs({arg("both")}, std::nullopt), UsageError);
  EXPECT_EQ(collect_inputs({arg("both")}, std::nullopt, Layout::cms).size(), 0u);
}

TEST_F(LayoutInputSetTest, PackagesClashingUnderOutDirAreAUsageError) {
  touch("a/input/input0.txt");
  touch("b/input/input0.txt");
  try {
    collect_inputs({arg("a"), arg("b")}, at("out"));
    FAIL() << "no UsageError";
  } catch (const UsageError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("two inputs would write the same answer file " +
                           (at("out") / "output/output0.txt").string()),
              std::string::npos)
        << message;
  }
}

TEST_F(LayoutInputSetTest, AnAnswerThatIsAnInputIsAUsageError) {
  // input0's answer output/output0.txt is named as an input too (its own answer: .ans appended).
  touch("d/input/input0.txt");
  touch("d/output/output0.txt");
  EXPECT_THROW(collect_inputs({arg("d/input/input0.txt"), arg("d/output/output0.txt")},
                              std::nullopt, Layout::cms),
               UsageError);
}

TEST_F(LayoutInputSetTest, CmsOutputBehindALinkToInputIsCheckedByWhereItLeads) {
  touch("pkg/input/input0.txt");
  touch("pkg/input/output0.txt");  // what the answer would overwrite, through the link
  fs::create_directory_symlink("input", at("pkg/output"));
  EXPECT_THROW(collect_inputs({arg("pkg/input/input0.txt"), arg("pkg/input/output0.txt")},
                              std::nullopt, Layout::cms),
               UsageError);
}

TEST_F(LayoutInputSetTest, AFileAlsoReachedThroughItsPackageIsKeptOnce) {
  touch("pkg/tests/01");
  touch("pkg/tests/02");
  const std::vector<InputFile> files =
      collect_inputs({arg("pkg"), arg("pkg/tests/01")}, std::nullopt, Layout::polygon);
  const std::vector<std::pair<fs::path, fs::path>> expected = {
      {at("pkg/tests/01"), at("pkg/tests/01.a")}, {at("pkg/tests/02"), at("pkg/tests/02.a")}};
  EXPECT_EQ(pairs_of(files), expected);
}

TEST_F(LayoutInputSetTest, PlainDirectoriesBesidePackagesAreReadAsEver) {
  touch("plain/a.in");
  touch("plain/7");
  touch("pkg/tests/7");
  const std::vector<InputFile> files = collect_inputs({arg("plain"), arg("pkg")}, std::nullopt);
  const std::vector<std::pair<fs::path, fs::path>> expected = {
      {at("plain/a.in"), at("plain/a.ans")}, {at("pkg/tests/7"), at("pkg/tests/7.a")}};
  EXPECT_EQ(pairs_of(files), expected);
}

}  // namespace
}  // namespace gamebatch::io
