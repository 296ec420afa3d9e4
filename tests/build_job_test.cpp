// `gamebatch build`'s engine without the command line: a plan with an entry of each kind (copy,
// gen, a generator command, a generator source compiled once) built by pipeline::BuildJob, which
// this test program reaches through gamebatch_pipeline alone.
#include "pipeline/package/build_job.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "pipeline/package/test_makers.hpp"
#include "test_data.hpp"

namespace gamebatch::pipeline {
namespace {

namespace fs = std::filesystem;
using testing::read_test_file;
using testing::read_text;
using testing::TestDirectory;
using testing::write_text;

// A willow case of two cities from a generator's seed argument: "1", then N = 2, the coins
// (seed mod 10, then 1) and the road from city 1 to city 2.
constexpr const char* kGeneratorSource =
    "import sys\n"
    "seed = int(sys.argv[-1])\n"
    "print('1\\n2\\n%d\\n1\\n2' % (seed % 10))\n";

class BuildJobTest : public ::testing::Test {
 protected:
  BuildJobTest() : package_("build-job") {
    write_text(root() / "manual/sample.in", read_test_file("willow/sample.in"));
    write_text(root() / "gen/two_cities.py", kGeneratorSource);
    write_text(root() / "gamebatch.toml",
               "game = \"willow\"\n"
               "seed = 3\n"
               "layout = \"kattis\"\n"
               "[[group]]\n"
               "name = \"sample\"\n"
               "[[group.test]]\n"
               "copy = \"manual/sample.in\"\n"
               "[[group]]\n"
               "name = \"all\"\n"
               "score = 100\n"
               "[[group.test]]\n"
               "gen = \"--cities 3..6 --cases-per-file 2\"\n"
               "count = 2\n"
               "[[group.test]]\n"
               "run = \"python3 " +
                   (root() / "gen/two_cities.py").string() +
                   "\"\n"
                   "[[group.test]]\n"
                   "run = \"gen/two_cities.py\"\n");
  }

  const fs::path& root() const { return package_.path(); }

  BuildJobSettings settings() const {
    BuildJobSettings settings;
    settings.package = root().string();
    settings.judge.no_sandbox = true;  // the generators run as the test's user
    settings.judge.jobs = 2;
    settings.no_cache = true;
    return settings;
  }

  TestDirectory package_;
};

TEST_F(BuildJobTest, EveryKindOfPlanEntryMakesItsTests) {
  BuildJob build(settings());
  ASSERT_EQ(build.prepare(), Outcome::done);
  ASSERT_EQ(build.run(), Outcome::done) << ::testing::PrintToString(build.result().failures);
  ASSERT_TRUE(build.built());
  const BuildResult& result = build.result();
  EXPECT_EQ(result.tests, 5u);
  EXPECT_EQ(result.made, 5u);
  EXPECT_TRUE(result.failures.empty());

  // copy: the file as it is, with the sample's known answers.
  EXPECT_EQ(read_text(root() / "data/sample/01-001.in"), read_test_file("willow/sample.in"));
  EXPECT_EQ(read_text(root() / "data/sample/01-001.ans"), read_test_file("willow/sample.ans"));
  // gen: two files of two cases each.
  for (const char* name : {"01-001", "01-002"}) {
    const std::string answers =
        read_text(root() / "data/secret/all" / (std::string(name) + ".ans"));
    EXPECT_NE(answers.find("Case #2: "), std::string::npos) << name;
  }
  // The generator as a command and as a source of the package make the same test from the same
  // seed: only its first coin depends on it, and A takes the richer city.
  const std::string by_command = read_text(root() / "data/secret/all/02-001.in");
  const std::string by_source = read_text(root() / "data/secret/all/03-001.in");
  EXPECT_EQ(by_command.substr(0, 4), "1\n2\n");
  EXPECT_EQ(read_text(root() / "data/secret/all/02-001.ans").substr(0, 9), "Case #1: ");
  EXPECT_EQ(by_command.size(), by_source.size());
}

TEST_F(BuildJobTest, ARebuildMakesNothingAgain) {
  {
    BuildJob build(settings());
    ASSERT_EQ(build.prepare(), Outcome::done);
    ASSERT_EQ(build.run(), Outcome::done);
  }
  BuildJob rebuild(settings());
  ASSERT_EQ(rebuild.prepare(), Outcome::done);
  ASSERT_EQ(rebuild.run(), Outcome::done);
  EXPECT_EQ(rebuild.result().made, 0u);
  EXPECT_EQ(rebuild.result().unchanged, 5u);
  EXPECT_EQ(rebuild.result().written, 0u);
  EXPECT_EQ(rebuild.report()["unchanged"], 5);
}

TEST_F(BuildJobTest, EachEntryKindHasTheRecipeItsTestsDependOn) {
  const io::PackagePlan plan = io::read_package_plan(root() / io::kPlanFileName);
  GeneratorPrograms programs(JudgeLimits{}, io::default_languages(), nullptr, "", true);
  const std::vector<std::vector<EntryMaker>> makers = make_entry_makers(plan, root(), programs);
  ASSERT_EQ(makers.size(), 2u);
  ASSERT_EQ(makers[1].size(), 3u);
  EXPECT_EQ(makers[0][0].recipe.rfind("copy ", 0), 0u);
  EXPECT_EQ(makers[1][0].recipe.rfind("gen ", 0), 0u);
  EXPECT_EQ(makers[1][1].recipe.rfind("run python3 ", 0), 0u);  // a command: its text
  // A source: compiled (for Python, checked) once, named by its key rather than its path.
  EXPECT_EQ(makers[1][2].recipe.rfind("run ", 0), 0u);
  EXPECT_EQ(makers[1][2].recipe.find("two_cities.py"), std::string::npos);
  EXPECT_EQ(makers[1][2].make(7, 1), "1\n2\n7\n1\n2\n");
  EXPECT_EQ(makers[1][1].make(7, 1), "1\n2\n7\n1\n2\n");
}

TEST_F(BuildJobTest, APlanErrorIsAUsageErrorNamingTheLine) {
  write_text(root() / "gamebatch.toml",
             "game = \"willow\"\n[[group]]\nname = \"all\"\nscore = 100\n[[group.test]]\n"
             "gen = \"--cities 3..6 --no-such-option\"\n");
  BuildJob build(settings());
  // The log goes to stdout or stderr, as this test program's default logger does.
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(build.prepare(), Outcome::usage_error);
  const std::string said =
      ::testing::internal::GetCapturedStdout() + ::testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("gamebatch.toml:5: gen = "), std::string::npos) << said;
}

TEST_F(BuildJobTest, AGeneratorThatFailsFailsItsTestByName) {
  write_text(root() / "gen/two_cities.py", "import sys\nsys.exit(3)\n");
  BuildJob build(settings());
  ASSERT_EQ(build.prepare(), Outcome::done);
  EXPECT_EQ(build.run(), Outcome::failed);
  ASSERT_FALSE(build.result().failures.empty());
  bool named = false;
  for (const std::string& failure : build.result().failures)
    named = named || failure.find("exit status 3") != std::string::npos;
  EXPECT_TRUE(named) << ::testing::PrintToString(build.result().failures);
}

}  // namespace
}  // namespace gamebatch::pipeline
