// End-to-end: a problem package's own input validators under `gamebatch validate` and `gamebatch
// build`: each runs in the sandbox on every test with its group's flags and is compared with
// gamebatch's verdict; a validator that crashes, hangs or prints megabytes is contained and named;
// data/invalid_input/ must be rejected by every validator, and `validate --invalid` gives each
// validator mutants of the groups' tests at every rule and limit (a validator that forgets one is
// caught with the rule named); the bounds the data reaches per group. The validators are small
// Python programs (tests/data/validators/willow_strict.py and ones the tests write).
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace {

using namespace gamebatch::testing;

fs::path validator_fixture(const std::string& name) {
  return fs::path(GAMEBATCH_TEST_DATA) / "validators" / name;
}

// A willow case from its coins and roads (j_i of city i, 1-based).
std::string city_case(const std::vector<int>& coins, const std::vector<int>& roads) {
  std::string text = std::to_string(coins.size()) + "\n";
  for (const int coin : coins)
    text += std::to_string(coin) + "\n";
  for (const int road : roads)
    text += std::to_string(road) + "\n";
  return text;
}

// A path of n cities with coins 0, 1, 2, ... (city i's road to i + 1).
std::string willow_path(int cities) {
  std::vector<int> coins, roads;
  for (int i = 1; i <= cities; ++i) {
    coins.push_back(i - 1);
    if (i < cities)
      roads.push_back(i + 1);
  }
  return city_case(coins, roads);
}

class PackageValidatorsCliTest : public CliTest {
 protected:
  // A hand-made willow package "pkg" (Kattis legacy layout): the sample, group small (N <= 80,
  // its validator flags --N 2..80) and group large, each with one test; its plan gives small's
  // limit. The validator willow_strict.py with FORGET set to `forget`, as input_validators/
  // strict.py.
  void make_package(const std::string& forget = "") const {
    write_text(at("pkg/problem.yaml"), "name: willow\ntype: scoring\n");
    write_text(at("pkg/gamebatch.toml"),
               "game = \"willow\"\nlayout = \"kattis\"\n"
               "[[group]]\nname = \"sample\"\n[[group.test]]\ncopy = \"manual/sample.in\"\n"
               "[[group]]\nname = \"small\"\nscore = 30\nlimits = { N = \"2..80\" }\n"
               "[[group.test]]\ncopy = \"manual/small.in\"\n"
               "[[group]]\nname = \"large\"\nscore = 70\n"
               "[[group.test]]\ncopy = \"manual/large.in\"\n");
    write_test("sample", "data/sample/1.in", willow_file({city_case({5, 1}, {2})}));
    write_text(at("pkg/data/secret/small/testdata.yaml"),
               "accept_score: 30\ninput_validator_flags: --N 2..80\n");
    write_test("small", "data/secret/small/1.in",
               willow_file({willow_path(3), city_case({1, 2, 3, 4}, {4, 4, 4})}));
    write_text(at("pkg/data/secret/large/testdata.yaml"), "accept_score: 70\n");
    write_test("large", "data/secret/large/1.in", willow_file({willow_path(100)}));
    add_validator("strict.py", forget);
  }

  // A test as the package holds it, and the plan's copy of it (manual/GROUP.in).
  void write_test(const std::string& group, const std::string& path,
                  const std::string& text) const {
    write_text(at("pkg/manual/" + group + ".in"), text);
    write_text(at("pkg") / path, text);
  }

  void add_validator(const std::string& name, const std::string& forget) const {
    std::string source = read_text(validator_fixture("willow_strict.py"));
    const std::string marker = "FORGET = \"\"";
    source.replace(source.find(marker), marker.size(), "FORGET = \"" + forget + "\"");
    write_text(at("pkg/input_validators/" + name), source);
  }

  // Every file under the package with its bytes.
  std::map<std::string, std::string> contents(const std::string& package = "pkg") const {
    std::map<std::string, std::string> files;
    for (const std::string& name : files_under(at(package)))
      files[name] = read_text(at(package) / name);
    return files;
  }
};

TEST_F(PackageValidatorsCliTest, AValidatorThatAgreesWithGamebatchPassesAndTheBoundsAreShown) {
  make_package();
  const Result result =
      run({"validate", "-p", "willow", "--report", "report.json", "--html", "page.html", "pkg"});
  EXPECT_EQ(result.status, 0) << result.out << result.err;
  EXPECT_EQ(result.out, "");
  const nlohmann::json report = nlohmann::json::parse(read_text(at("report.json")));
  EXPECT_EQ(report["schema"], "gamebatch-validate/1");
  ASSERT_EQ(report["packages"].size(), 1u);
  const nlohmann::json& checks = report["packages"][0]["package_checks"];
  EXPECT_EQ(checks["validators"], nlohmann::json::array({"input_validators/strict.py"}));
  ASSERT_EQ(checks["bounds"].size(), 3u);  // sample, small, large
  EXPECT_EQ(checks["bounds"][1]["group"], "small");
  const nlohmann::json& n_of_small = checks["bounds"][1]["parameters"][1];
  EXPECT_EQ(n_of_small["parameter"], "N");
  EXPECT_EQ(n_of_small["min"], 3);
  EXPECT_EQ(n_of_small["limit_max"], 80);
  EXPECT_EQ(n_of_small["max_reached"], false);
  const std::string page = read_text(at("page.html"));
  EXPECT_NE(page.find("Bounds the data reaches"), std::string::npos);
  EXPECT_NE(page.find("input_validators/strict.py"), std::string::npos);
  EXPECT_NE(result.err.find("validators: 1 validator (input_validators/strict.py) on 3 tests: "
                            "3 runs, 0 problems"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("bounds: group small (1 test): "), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("N 3..4 of 2..80"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("group small: N reaches 3..4 of 2..80"), std::string::npos)
      << result.err;
}

TEST_F(PackageValidatorsCliTest, ATestOneSideRejectsIsNamedWithBothMessages) {
  make_package("group");  // the validator ignores --N 2..80
  write_text(at("pkg/data/secret/small/2.in"), willow_file({willow_path(81)}));
  const std::map<std::string, std::string> before = contents();
  const Result result = run({"validate", "-p", "willow", "pkg"});
  EXPECT_EQ(result.status, 1) << result.out << result.err;
  const std::vector<std::string> lines = lines_of(result.out);
  const std::size_t named =
      count_containing(lines,
                       "pkg/data/secret/small/2.in: input_validators/strict.py accepts it; "
                       "gamebatch rejects it: ");
  EXPECT_EQ(named, 1u) << result.out;
  EXPECT_EQ(count_containing(lines, "N of case 1 is 81; group small allows 2..80"), 2u)
      << result.out;
  EXPECT_EQ(contents(), before);
}

TEST_F(PackageValidatorsCliTest, AValidatorStricterThanGamebatchIsNamedWithItsMessage) {
  make_package();
  write_text(at("pkg/data/secret/small/testdata.yaml"), "input_validator_flags: --C 0..1\n");
  const Result result = run({"validate", "-p", "willow", "pkg"});
  EXPECT_EQ(result.status, 1) << result.out << result.err;
  EXPECT_EQ(result.out,
            "pkg/data/secret/small/1.in: input_validators/strict.py rejects it (line 5: C_i = 2 "
            "outside 0..1); gamebatch accepts it\n");
}

TEST_F(PackageValidatorsCliTest, ValidatorsThatCrashHangOrFloodAreContainedAndNamed) {
  make_package();
  write_text(at("pkg/input_validators/crash.py"),
             "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n");
  write_text(at("pkg/input_validators/hang.py"), "while True:\n    pass\n");
  write_text(at("pkg/input_validators/flood.py"),
             "import sys\nsys.stdout.write('x' * (8 << 20))\nsys.exit(42)\n");
  write_text(at("pkg/input_validators/exit3.py"), "import sys\nsys.exit(3)\n");
  const std::map<std::string, std::string> before = contents();
  const Result result = run({"validate", "-p", "willow", "--time-limit", "0.5", "pkg"});
  EXPECT_EQ(result.status, 1) << result.out << result.err;
  const std::vector<std::string> lines = lines_of(result.out);
  EXPECT_EQ(count_containing(lines, "input_validators/crash.py failed on it (killed by signal 11"),
            3u)
      << result.out;
  // CPU time, or the wall clock where the machine is loaded.
  std::size_t hung = 0;
  for (const std::string& line : lines) {
    if (line.find("input_validators/hang.py failed on it (") == std::string::npos)
      continue;
    ++hung;
    EXPECT_NE(line.find("time limit ("), std::string::npos) << line;
  }
  EXPECT_EQ(hung, 3u) << result.out;
  EXPECT_EQ(count_containing(lines, "input_validators/flood.py failed on it (output limit"), 3u)
      << result.out;
  EXPECT_EQ(count_containing(lines,
                             "input_validators/exit3.py failed on it (exit status 3, "
                             "neither 42 (valid) nor 43"),
            3u)
      << result.out;
  EXPECT_EQ(count_containing(lines, "input_validators/strict.py"), 0u) << result.out;
  EXPECT_EQ(contents(), before);
}

TEST_F(PackageValidatorsCliTest, ADirectoryWithBuildAndRunScriptsIsBuiltInTheSandbox) {
  make_package();
  fs::remove(at("pkg/input_validators/strict.py"));
  // `build` makes the program (a copy standing for a compiler), `run` runs it.
  write_text(at("pkg/input_validators/scripted/check.txt"),
             read_text(validator_fixture("willow_strict.py")));
  write_text(at("pkg/input_validators/scripted/build"), "cp check.txt check.py\n");
  write_text(at("pkg/input_validators/scripted/run"), "exec python3 check.py \"$@\"\n");
  const std::map<std::string, std::string> before = contents();
  const Result result = run({"validate", "-p", "willow", "pkg"});
  EXPECT_EQ(result.status, 0) << result.out << result.err;
  EXPECT_NE(result.err.find("validators: 1 validator (input_validators/scripted) on 3 tests: 3 "
                            "runs, 0 problems"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(contents(), before) << "built in a copy, not in the package";
  // A test with N = 81 in small: the built validator gets the group's flags and rejects it too.
  write_text(at("pkg/data/secret/small/2.in"), willow_file({willow_path(81)}));
  const Result agreed = run({"validate", "-p", "willow", "pkg"});
  EXPECT_EQ(agreed.status, 1) << agreed.out << agreed.err;
  EXPECT_EQ(count_containing(lines_of(agreed.out), "N of case 1 is 81; group small allows 2..80"),
            1u)
      << agreed.out;
  EXPECT_EQ(agreed.out.find("input_validators/scripted"), std::string::npos) << agreed.out;
  write_text(at("pkg/input_validators/scripted/build"), "exit 1\n");
  const Result broken = run({"validate", "-p", "willow", "pkg"});
  EXPECT_EQ(broken.status, 1) << broken.out << broken.err;
  EXPECT_NE(broken.out.find("input_validators/scripted: cannot be run: its build failed: exit "
                            "status 1"),
            std::string::npos)
      << broken.out;
}

TEST_F(PackageValidatorsCliTest, AValidatorThatCannotBeBuiltIsNamed) {
  make_package();
  write_text(at("pkg/input_validators/broken.cpp"), "int main( {\n");
  write_text(at("pkg/input_validators/notes.txt"), "not a program\n");
  const Result result = run({"validate", "-p", "willow", "pkg"});
  EXPECT_EQ(result.status, 1) << result.out << result.err;
  const std::vector<std::string> lines = lines_of(result.out);
  EXPECT_EQ(count_containing(lines, "input_validators/broken.cpp: cannot be run: compile error"),
            1u)
      << result.out;
  EXPECT_EQ(count_containing(lines, "input_validators/notes.txt: cannot be run: neither a program"),
            1u)
      << result.out;
}

TEST_F(PackageValidatorsCliTest, InvalidInputsMustBeRejectedByEveryValidatorAndByGamebatch) {
  make_package();
  write_text(at("pkg/data/invalid_input/one-city.in"), willow_file({city_case({1}, {})}));
  write_text(at("pkg/data/invalid_input/valid.in"), willow_file({willow_path(2)}));
  const Result plain = run({"validate", "-p", "willow", "pkg"});
  EXPECT_EQ(plain.status, 0) << "invalid inputs are no tests: " << plain.out << plain.err;
  const Result result = run({"validate", "-p", "willow", "--invalid", "pkg"});
  EXPECT_EQ(result.status, 1) << result.out << result.err;
  const std::vector<std::string> lines = lines_of(result.out);
  EXPECT_EQ(count_containing(lines, "one-city.in"), 0u) << result.out;
  EXPECT_EQ(count_containing(lines,
                             "pkg/data/invalid_input/valid.in: gamebatch accepts it; it must "
                             "be rejected"),
            1u)
      << result.out;
  EXPECT_EQ(count_containing(lines,
                             "pkg/data/invalid_input/valid.in: input_validators/strict.py "
                             "accepts it; it must be rejected"),
            1u)
      << result.out;
}

// The blind-spot lines of validator `name` in `out`.
std::vector<std::string> blind_spots_of(const std::string& out, const std::string& name) {
  std::vector<std::string> lines;
  for (const std::string& line : lines_of(out)) {
    if (starts_with(line, name + " accepts a mutant breaking '"))
      lines.push_back(line);
  }
  return lines;
}

// The mutant file a blind-spot line names ("...: FILE" or "...: FILE (and N more of that rule)").
std::string mutant_file_of(const std::string& line) {
  const std::size_t start = line.rfind(": ") + 2;
  return line.substr(start, std::min(line.find(" (and ", start), line.find("; ", start)) - start);
}

TEST_F(PackageValidatorsCliTest, MutantsCatchAValidatorThatIgnoresItsGroupsFlags) {
  make_package("group");
  const Result result = run({"validate", "-p", "willow", "--invalid", "--out", "mutants", "pkg"});
  EXPECT_EQ(result.status, 1) << result.out << result.err;
  const std::vector<std::string> missed = blind_spots_of(result.out, "input_validators/strict.py");
  // Only group small narrows N; the statement's own limits the validator keeps.
  ASSERT_FALSE(missed.empty()) << result.out;
  for (const std::string& line : missed) {
    EXPECT_NE(line.find("' in group small ("), std::string::npos) << line;
    EXPECT_NE(line.find("N"), std::string::npos) << line;
    const std::string file = mutant_file_of(line);
    EXPECT_TRUE(starts_with(file, "mutants/")) << line;
    // The mutant is a valid input but for group small's limit: N = 81.
    const std::vector<std::string> mutant = lines_of(read_text(at(file)));
    ASSERT_GE(mutant.size(), 2u) << file;
    EXPECT_TRUE(std::find(mutant.begin(), mutant.end(), "81") != mutant.end()) << file;
  }
  EXPECT_NE(result.err.find("mutants in mutants"), std::string::npos) << result.err;
}

TEST_F(PackageValidatorsCliTest, MutantsCatchAPackageThatGivesAGroupNoFlags) {
  make_package();
  write_text(at("pkg/data/secret/small/testdata.yaml"), "accept_score: 30\n");
  const Result result = run({"validate", "-p", "willow", "--invalid", "pkg"});
  EXPECT_EQ(result.status, 1) << result.out << result.err;
  const std::vector<std::string> missed = blind_spots_of(result.out, "input_validators/strict.py");
  ASSERT_EQ(missed.size(), 1u) << result.out;
  EXPECT_TRUE(starts_with(missed[0],
                          "input_validators/strict.py accepts a mutant breaking 'N "
                          "(the group's limit)' in group small (N = 81"))
      << missed[0];
  EXPECT_NE(missed[0].find("; the package gives it no flags in this group"), std::string::npos)
      << missed[0];
}

TEST_F(PackageValidatorsCliTest, MutantsCatchAValidatorThatForgetsARuleInEveryGroup) {
  make_package("order");  // it accepts j_i <= i
  const Result result = run({"validate", "-p", "willow", "--invalid", "pkg"});
  EXPECT_EQ(result.status, 1) << result.out << result.err;
  const std::vector<std::string> missed = blind_spots_of(result.out, "input_validators/strict.py");
  std::set<std::string> groups;
  for (const std::string& line : missed) {
    EXPECT_NE(line.find("j_i"), std::string::npos) << line;
    EXPECT_NE(line.find("(--out DIR keeps the mutants)"), std::string::npos) << line;
    const std::size_t group = line.find("' in group ") + 11;
    groups.insert(line.substr(group, line.find(' ', group) - group));
  }
  EXPECT_EQ(groups, (std::set<std::string>{"sample", "small", "large"})) << result.out;
}

TEST_F(PackageValidatorsCliTest, ACorrectValidatorHasNoBlindSpot) {
  make_package();
  const Result result = run({"validate", "-p", "willow", "--invalid", "pkg"});
  EXPECT_EQ(result.status, 0) << result.out << result.err;
  EXPECT_EQ(result.out, "");
  const std::regex summary(
      "validators: 1 validator \\(input_validators/strict.py\\) on 3 tests, 0 invalid inputs "
      "and ([0-9]+) mutants: ([0-9]+) runs, 0 problems");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(result.err, match, summary)) << result.err;
  EXPECT_GE(std::stoul(match[1]), 3u * 10) << "some ten rules and limits per group";
}

// The validator gamebatch writes (`gamebatch validator willow`), compiled as check compiles a
// source: no mutant gets past it, in any group, with the groups' flags.
TEST_F(PackageValidatorsCliTest, TheWrittenValidatorHasNoBlindSpot) {
  make_package();
  fs::remove(at("pkg/input_validators/strict.py"));
  const Result written = run({"validator", "willow"});
  ASSERT_EQ(written.status, 0) << written.err;
  write_text(at("pkg/input_validators/gamebatch.cpp"), written.out);
  const Result result = run({"validate", "-p", "willow", "--invalid", "pkg"});
  EXPECT_EQ(result.status, 0) << result.out << result.err;
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("validators: 1 validator (input_validators/gamebatch.cpp) on 3 tests, "
                            "0 invalid inputs and "),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find(" runs, 0 problems"), std::string::npos) << result.err;
}

TEST_F(PackageValidatorsCliTest, PolygonAndTaskMakerValidatorsGetTheirGroups) {
  write_text(at("poly/problem.xml"), R"(<problem><judging><testset name="tests"><tests>
<test method="manual" group="small"/><test method="manual" group="large"/>
</tests></testset></judging><assets><validators><validator>
<source path="files/validator.py" type="python.3"/></validator></validators></assets></problem>)");
  write_text(at("poly/files/validator.py"),
             "import sys\nsys.stderr.write('args ' + ' '.join(sys.argv[1:]) + '\\n')\n"
             "sys.exit(0 if sys.argv[1:] == ['--group', 'small'] else 3)\n");
  write_text(at("poly/tests/01"), willow_file({willow_path(3)}));
  write_text(at("poly/tests/02"), willow_file({willow_path(4)}));
  const Result polygon = run({"validate", "-p", "willow", "poly"});
  EXPECT_EQ(polygon.status, 1) << polygon.out << polygon.err;
  EXPECT_EQ(
      polygon.out,
      "poly/tests/02: files/validator.py rejects it (args --group large); gamebatch accepts it\n");

  write_text(at("cms/task.yaml"),
             "name: willow\nscore_type: GroupMin\nscore_type_parameters: [[40, \"000\"], [60, "
             "\"001\"]]\n");
  write_text(at("cms/input/input0.txt"), willow_file({willow_path(3)}));
  write_text(at("cms/input/input1.txt"), willow_file({willow_path(4)}));
  write_text(at("cms/gen/validator.py"),
             "import sys\nsys.stderr.write('subtask ' + sys.argv[2] + ' of ' + sys.argv[1] + "
             "'\\n')\nsys.exit(1 if open(sys.argv[1]).read().startswith('1\\n4') else 0)\n");
  const Result task_maker = run({"validate", "-p", "willow", "cms"});
  EXPECT_EQ(task_maker.status, 1) << task_maker.out << task_maker.err;
  EXPECT_EQ(task_maker.out, "cms/input/input1.txt: gen/validator.py rejects it (subtask 2 of " +
                                at("cms/input/input1.txt").string() + "); gamebatch accepts it\n");
}

TEST_F(PackageValidatorsCliTest, BuildRunsEveryValidatorOnEveryTestAndReportsTheBounds) {
  make_package();
  fs::remove_all(at("pkg/data"));  // build makes it
  const Result built =
      run({"build", "--no-cache", "--report", "report.json", "--html", "page.html", "pkg"});
  EXPECT_EQ(built.status, 0) << built.out << built.err;
  // build writes gamebatch's own validator beside the package's (input_validators/gamebatch/).
  EXPECT_NE(built.out.find("validators: 2 validators (input_validators/gamebatch, "
                           "input_validators/strict.py) on 3 tests: 6 runs, 0 problems\n"),
            std::string::npos)
      << built.out;
  EXPECT_NE(built.out.find("bounds: group small (1 test): T 2 of 1..50, N 3..4 of 2..80"),
            std::string::npos)
      << built.out;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("report.json")));
  const nlohmann::json& checks = report["package_checks"];
  EXPECT_EQ(checks["validators"],
            nlohmann::json::array({"input_validators/gamebatch", "input_validators/strict.py"}));
  EXPECT_EQ(checks["problems"], nlohmann::json::array());
  bool small_seen = false;
  for (const nlohmann::json& group : checks["bounds"]) {
    if (group["group"] != "small")
      continue;
    small_seen = true;
    ASSERT_FALSE(group["parameters"].empty());
    EXPECT_EQ(group["parameters"][0]["parameter"], "T");
  }
  EXPECT_TRUE(small_seen) << checks.dump(2);
  const std::string page = read_text(at("page.html"));
  EXPECT_NE(page.find("Bounds the data reaches"), std::string::npos);

  // A validator that rejects every test fails the build, test by test.
  write_text(at("pkg/input_validators/none.py"), "import sys\nsys.exit(43)\n");
  const Result rejected = run({"build", "--no-cache", "pkg"});
  EXPECT_EQ(rejected.status, 1) << rejected.out << rejected.err;
  EXPECT_NE(rejected.err.find("input_validators/none.py rejects it; gamebatch accepts it"),
            std::string::npos)
      << rejected.err;
}

}  // namespace
