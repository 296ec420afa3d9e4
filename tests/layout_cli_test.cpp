// End-to-end: `solve` and `run` over problem packages (Kattis, Polygon, CMS): where the answers
// go with and without --layout, under --out, from a config's `layout`, and the error for a
// directory two layouts claim. The packages are copies of tests/data/packages/ and one made here
// from tests/data/willow.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace {

using namespace gamebatch::testing;

// The checked-in files may be read-only: copies are ordinary files.
void copy_tree(const fs::path& from, const fs::path& to) {
  for (const auto& entry : fs::recursive_directory_iterator(from)) {
    if (entry.is_regular_file())
      write_text(to / entry.path().lexically_relative(from), read_text(entry.path()));
  }
}

class LayoutCliTest : public CliTest {
 protected:
  // tests/data/packages/NAME copied to `destination` (under the work directory).
  void copy_package(const std::string& name, const fs::path& destination) const {
    copy_tree(test_data("packages/" + name), at(destination));
  }
  void make_polygon(const fs::path& destination) const {
    copy_package("polygon-willow", destination);
  }
  void make_cms(const fs::path& destination) const { copy_package("cms-willow", destination); }
  // A Kattis package of the same inputs: data/secret/sample.in, data/secret/D-small-practice.in.
  void make_kattis(const fs::path& destination) const {
    write_text(at(destination / "problem.yaml"), "name: Willow\nlimits:\n  time_limit: 2\n");
    copy_data("sample.in", at(destination / "data/secret/sample.in"));
    copy_data("D-small-practice.in", at(destination / "data/secret/D-small-practice.in"));
  }
  Result solve_quietly(std::vector<std::string> args) const {
    args.insert(args.begin(), "--no-cache");
    return solve(std::move(args));
  }
};

// The answers of sample.in's first case alone (polygon-willow's tests/03).
const std::string kFirstSampleAnswer = "Case #1: 200\n";

TEST_F(LayoutCliTest, PolygonLayoutWritesTestsNumberDotA) {
  make_polygon("poly");
  const Result result = solve_quietly({"--layout", "polygon", "poly"});
  ASSERT_EQ(result.status, 0) << result.err;
  const std::set<std::string> expected = {"problem.xml", "tests/01", "tests/01.a", "tests/02",
                                          "tests/02.a",  "tests/03", "tests/03.a"};
  EXPECT_EQ(files_under(at("poly")), expected);
  EXPECT_EQ(read_text(at("poly/tests/01.a")), read_text(data_file("sample.ans")));
  EXPECT_EQ(read_text(at("poly/tests/02.a")), read_text(data_file("D-small-practice.correct")));
  EXPECT_EQ(read_text(at("poly/tests/03.a")), kFirstSampleAnswer);
  EXPECT_EQ(summary_of(result).files, 3u);
}

TEST_F(LayoutCliTest, CmsLayoutWritesOutputOutputN) {
  make_cms("cms");
  const Result result = solve_quietly({"--layout", "cms", "cms"});
  ASSERT_EQ(result.status, 0) << result.err;
  const std::set<std::string> expected = {"task.yaml", "input/input0.txt", "input/input1.txt",
                                          "output/output0.txt", "output/output1.txt"};
  EXPECT_EQ(files_under(at("cms")), expected);
  EXPECT_EQ(read_text(at("cms/output/output0.txt")), read_text(data_file("sample.ans")));
  EXPECT_EQ(read_text(at("cms/output/output1.txt")),
            read_text(data_file("D-small-practice.correct")));
}

TEST_F(LayoutCliTest, LayoutsAreDetectedWithoutTheOption) {
  make_polygon("poly");
  make_cms("cms");
  make_kattis("kattis");
  const Result result = solve_quietly({"poly", "cms", "kattis"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(summary_of(result).files, 7u);
  EXPECT_EQ(read_text(at("poly/tests/02.a")), read_text(data_file("D-small-practice.correct")));
  EXPECT_EQ(read_text(at("cms/output/output1.txt")),
            read_text(data_file("D-small-practice.correct")));
  // The same inputs give byte-identical answers in every layout.
  EXPECT_EQ(read_text(at("poly/tests/01.a")), read_text(at("kattis/data/secret/sample.ans")));
  EXPECT_EQ(read_text(at("cms/output/output0.txt")),
            read_text(at("kattis/data/secret/sample.ans")));
  EXPECT_EQ(read_text(at("poly/tests/02.a")),
            read_text(at("kattis/data/secret/D-small-practice.ans")));
  EXPECT_EQ(read_text(at("cms/output/output1.txt")),
            read_text(at("kattis/data/secret/D-small-practice.ans")));
  EXPECT_EQ(read_text(at("kattis/data/secret/sample.ans")), read_text(data_file("sample.ans")));
  EXPECT_FALSE(fs::exists(at("poly/tests/01.ans")));
  EXPECT_FALSE(fs::exists(at("cms/input/input0.txt.ans")));
}

TEST_F(LayoutCliTest, DetectionAndTheOptionGiveTheSameAnswers) {
  make_polygon("detected/poly");
  make_cms("detected/cms");
  make_polygon("forced/poly");
  make_cms("forced/cms");
  ASSERT_EQ(solve_quietly({"detected/poly", "detected/cms"}).status, 0);
  ASSERT_EQ(solve_quietly({"--layout", "polygon", "forced/poly"}).status, 0);
  ASSERT_EQ(solve_quietly({"--layout", "cms", "forced/cms"}).status, 0);
  EXPECT_EQ(answers_under(at("detected")), answers_under(at("forced")));
}

TEST_F(LayoutCliTest, ADirectoryTwoLayoutsClaimIsAUsageErrorNamingBoth) {
  make_polygon("both");
  write_text(at("both/problem.yaml"), "name: Willow\n");
  const Result result = solve_quietly({"both"});
  EXPECT_EQ(result.status, 2) << result.err;
  const std::vector<std::string> errors = error_lines(result.err);
  ASSERT_EQ(errors.size(), 1u) << result.err;
  for (const char* needle :
       {"kattis (problem.yaml)", "polygon (problem.xml, tests/01)", "--layout kattis|polygon|cms"})
    EXPECT_NE(errors[0].find(needle), std::string::npos) << errors[0];
  EXPECT_FALSE(fs::exists(at("both/tests/01.a")));

  // --layout settles it.
  const Result forced = solve_quietly({"--layout", "polygon", "both"});
  EXPECT_EQ(forced.status, 0) << forced.err;
  EXPECT_EQ(read_text(at("both/tests/01.a")), read_text(data_file("sample.ans")));
}

TEST_F(LayoutCliTest, OutDirKeepsEachLayoutsNames) {
  make_polygon("poly");
  make_cms("cms");
  make_kattis("kattis");
  const std::set<std::string> polygon_before = files_under(at("poly"));
  const std::set<std::string> cms_before = files_under(at("cms"));
  for (const std::string layout : {"polygon", "cms", "kattis"}) {
    const std::string package = layout == "polygon" ? "poly" : layout;
    const Result result = solve_quietly({"--layout", layout, "--out", "out-" + layout, package});
    ASSERT_EQ(result.status, 0) << layout << ": " << result.err;
  }
  EXPECT_EQ(files_under(at("out-polygon")),
            (std::set<std::string>{"tests/01.a", "tests/02.a", "tests/03.a"}));
  EXPECT_EQ(files_under(at("out-cms")),
            (std::set<std::string>{"output/output0.txt", "output/output1.txt"}));
  EXPECT_EQ(files_under(at("out-kattis")),
            (std::set<std::string>{"data/secret/D-small-practice.ans", "data/secret/sample.ans"}));
  EXPECT_EQ(read_text(at("out-cms/output/output1.txt")),
            read_text(data_file("D-small-practice.correct")));
  EXPECT_EQ(read_text(at("out-polygon/tests/01.a")), read_text(data_file("sample.ans")));
  // Nothing was written into the packages.
  EXPECT_EQ(files_under(at("poly")), polygon_before);
  EXPECT_EQ(files_under(at("cms")), cms_before);
}

TEST_F(LayoutCliTest, PlainDirectoryIsReadAsEverWithoutTheOption) {
  copy_data("sample.in", at("plain/sample.in"));
  copy_data("sample.in", at("plain/01"));  // a Polygon name, not an input here
  const Result result = solve_quietly({"plain"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(files_under(at("plain")), (std::set<std::string>{"01", "sample.ans", "sample.in"}));
}

TEST_F(LayoutCliTest, FileArgumentIsNamedByTheLayout) {
  make_cms("cms");
  const Result result = solve_quietly({"--layout", "cms", "cms/input/input1.txt"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(files_under(at("cms/output")), std::set<std::string>{"output1.txt"});
}

TEST_F(LayoutCliTest, WrongLayoutNameIsAUsageError) {
  make_polygon("poly");
  const Result result = solve_quietly({"--layout", "codeforces", "poly"});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("--layout: codeforces not in {kattis,polygon,cms}"), std::string::npos)
      << result.err;
}

TEST_F(LayoutCliTest, ReportRecordsTheLayout) {
  make_polygon("poly");
  ASSERT_EQ(solve_quietly({"--layout", "polygon", "--report", "report.json", "poly"}).status, 0);
  const nlohmann::json report = nlohmann::json::parse(read_text(at("report.json")));
  EXPECT_EQ(report["options"]["layout"], "polygon");
}

TEST_F(LayoutCliTest, RunConfigLayoutAppliesToJobsThatNameNone) {
  make_polygon("poly");
  make_cms("cms");
  // Both packages forced: the top-level layout for the first job, the job's own for the second.
  write_text(at("both/problem.yaml"), "name: x\n");
  copy_tree(at("poly"), at("both"));
  write_text(at("run.toml"),
             "cache = false\n"
             "layout = \"polygon\"\n"
             "\n"
             "[[job]]\n"
             "game = \"willow\"\n"
             "inputs = [\"both\"]\n"
             "out = \"answers/both\"\n"
             "\n"
             "[[job]]\n"
             "game = \"willow\"\n"
             "inputs = [\"cms\"]\n"
             "layout = \"cms\"\n");
  const Result result = run({"run", "run.toml"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(files_under(at("answers/both")),
            (std::set<std::string>{"tests/01.a", "tests/02.a", "tests/03.a"}));
  EXPECT_EQ(read_text(at("answers/both/tests/02.a")),
            read_text(data_file("D-small-practice.correct")));
  EXPECT_EQ(read_text(at("cms/output/output0.txt")), read_text(data_file("sample.ans")));
}

TEST_F(LayoutCliTest, RunConfigWithoutLayoutDetectsIt) {
  make_cms("cms");
  write_text(at("run.toml"),
             "cache = false\n[[job]]\ngame = \"willow\"\ninputs = [\"cms\"]\nout = \"out\"\n");
  const Result result = run({"run", "run.toml"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(files_under(at("out")),
            (std::set<std::string>{"output/output0.txt", "output/output1.txt"}));
}

TEST_F(LayoutCliTest, RunConfigWrongLayoutNamesTheFileLineAndKey) {
  make_cms("cms");
  write_text(at("top.toml"),
             "layout = \"italian\"\n[[job]]\ngame = \"willow\"\n"
             "inputs = [\"cms\"]\n");
  const Result top = run({"run", "top.toml"});
  EXPECT_EQ(top.status, 2);
  EXPECT_NE(top.err.find("top.toml:1: 'layout' must be \"kattis\", \"polygon\" or \"cms\" (leave "
                         "it out to detect each package's layout), found \"italian\""),
            std::string::npos)
      << top.err;
  write_text(at("job.toml"), "[[job]]\ngame = \"willow\"\ninputs = [\"cms\"]\nlayout = 3\n");
  const Result job = run({"run", "job.toml"});
  EXPECT_EQ(job.status, 2);
  EXPECT_NE(job.err.find("job.toml:4: job 1: 'layout' must be"), std::string::npos) << job.err;
  EXPECT_FALSE(fs::exists(at("cms/output")));
}

}  // namespace
