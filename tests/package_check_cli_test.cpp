// End-to-end: `gamebatch check` on problem packages as setters keep them (tests/data/packages/):
// solution sources compiled once and kept by content, each submission judged against what its
// directory says it must get, the time limit taken from the package or derived from its accepted
// submissions.
#include <chrono>
#include <csignal>
#include <regex>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace {

using namespace gamebatch::testing;

class PackageCheckCliTest : public CliTest {
 protected:
  // A copy of tests/data/packages/NAME at DESTINATION (relative to the work directory). The small
  // packages share kattis-willow's accepted solutions: they are copied into them here rather than
  // checked in again.
  void copy_package(const std::string& name, const std::string& destination = "pkg") const {
    fs::copy(fs::path(GAMEBATCH_TEST_DATA) / "packages" / name, at(destination),
             fs::copy_options::recursive);
    if (name == "kattis-willow-weak" || name == "kattis-willow-ce")
      copy_kattis_submission("accepted/willow.cpp",
                             destination + "/submissions/accepted/willow.cpp");
    // kattis-willow-java's multi-file Python solution imports that accepted willow.py.
    if (name == "kattis-willow-java")
      copy_kattis_submission("accepted/willow.py",
                             destination + "/submissions/accepted/multipy/willow.py");
  }

  // kattis-willow's submissions/FROM (accepted/willow.cpp, wrong_answer/greedy.c, ...) at TO.
  void copy_kattis_submission(const std::string& from, const std::string& to) const {
    fs::create_directories(at(to).parent_path());
    fs::copy_file(fs::path(GAMEBATCH_TEST_DATA) / "packages/kattis-willow/submissions" / from,
                  at(to));
  }

  static nlohmann::json solution_named(const nlohmann::json& report, const std::string& name) {
    for (const nlohmann::json& solution : report["solutions"]) {
      if (solution["name"] == name)
        return solution;
    }
    ADD_FAILURE() << "no solution " << name << " in the report";
    return nlohmann::json::object();
  }

  static bool has_javac() { return std::system("command -v javac >/dev/null 2>&1") == 0; }
};

TEST_F(PackageCheckCliTest, EverySubmissionGetsWhatItsDirectorySaysAndASecondCheckCompilesNothing) {
  copy_package("kattis-willow");
  const Result first = run({"check", "-p", "willow", "--cache", "answers.cache", "--report",
                            "first.json", "--html", "first.html", "pkg"});
  EXPECT_EQ(first.status, 0) << first.out << first.err;
  EXPECT_NE(first.err.find("compile: 4 sources: 4 compiled"), std::string::npos) << first.err;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("first.json")));
  EXPECT_TRUE(report["all_met"]);
  EXPECT_EQ(report["package"]["layout"], "kattis");
  ASSERT_EQ(report["solutions"].size(), 4u);
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"accepted/willow.cpp", "accepted"},
      {"accepted/willow.py", "accepted"},
      {"time_limit_exceeded/brute.py", "time_limit_exceeded"},
      {"wrong_answer/greedy.c", "wrong_answer"}};
  for (const auto& [name, expectation] : expected) {
    SCOPED_TRACE(name);
    const nlohmann::json solution = solution_named(report, name);
    EXPECT_EQ(solution["expected"], expectation);
    EXPECT_TRUE(solution["meets"]) << solution.dump(1);
    EXPECT_TRUE(solution["compile_error"].is_null());
  }
  EXPECT_GT(solution_named(report, "time_limit_exceeded/brute.py")["counts"]["TLE"], 0);
  EXPECT_GT(solution_named(report, "wrong_answer/greedy.c")["counts"]["WA"], 0);
  // problem.yaml gives no time limit: it comes from the accepted submissions' slowest run.
  EXPECT_NE(report["time_limit"]["source"].get<std::string>().find("slowest accepted run"),
            std::string::npos)
      << report["time_limit"];
  EXPECT_GE(report["time_limit"]["seconds"].get<double>(), 1.0);
  // The table names what each must get and whether it did.
  EXPECT_NE(first.out.find("expected  met"), std::string::npos) << first.out;
  EXPECT_EQ(count_containing(lines_of(first.out), " yes "), 4u) << first.out;
  const std::string page = read_text(at("first.html"));
  EXPECT_NE(page.find("accepted/willow.py"), std::string::npos);
  EXPECT_NE(page.find("slowest accepted run"), std::string::npos);
  // The last line's time is the whole command's, its compiling shown apart (a part of it).
  std::smatch time;
  const std::string last_line = lines_of(first.err).back();
  ASSERT_TRUE(std::regex_search(last_line, time,
                                std::regex(R"(time: (\d+\.\d+) s \(compiling (\d+\.\d+) s\)$)")))
      << last_line;
  EXPECT_GT(std::stod(time[2]), 0.0);
  EXPECT_LE(std::stod(time[2]), std::stod(time[1]));
  EXPECT_GE(report["time"]["seconds"].get<double>(),
            report["time"]["compiling_seconds"].get<double>());
  EXPECT_GT(report["time"]["compiling_seconds"].get<double>(), 0.0);

  const Result second = run({"check", "-p", "willow", "--cache", "answers.cache", "pkg"});
  EXPECT_EQ(second.status, 0) << second.out << second.err;
  EXPECT_NE(second.err.find("compile: 4 sources: nothing compiled, 4 from the store"),
            std::string::npos)
      << second.err;
}

TEST_F(PackageCheckCliTest, AWrongAnswerSubmissionThatPassesSaysTheTestsAreTooWeak) {
  copy_package("kattis-willow-weak");
  const Result result = run({"check", "-p", "willow", "--no-cache", "--report", "r.json", "pkg"});
  EXPECT_EQ(result.status, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("wrong_answer/maxstart.py: does not get what it must: expected WA on "
                            "some file, got AC on every file: the tests are too weak to catch it"),
            std::string::npos)
      << result.out;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("r.json")));
  EXPECT_FALSE(report["all_met"]);
  const nlohmann::json weak = solution_named(report, "wrong_answer/maxstart.py");
  EXPECT_FALSE(weak["meets"]);
  EXPECT_TRUE(weak["too_weak"]);
  EXPECT_TRUE(solution_named(report, "accepted/willow.cpp")["meets"]);
}

TEST_F(PackageCheckCliTest, ACompileErrorIsItsOwnVerdictAndTheOthersGoOn) {
  copy_package("kattis-willow-ce");
  const Result result =
      run({"check", "-p", "willow", "--no-cache", "--report", "r.json", "--html", "p.html", "pkg"});
  EXPECT_EQ(result.status, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("accepted/broken.cpp: CE (compile error):\n    "), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("broken.cpp:"), std::string::npos) << result.out;
  EXPECT_NE(result.err.find("1 compile error"), std::string::npos) << result.err;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("r.json")));
  const nlohmann::json broken = solution_named(report, "accepted/broken.cpp");
  EXPECT_FALSE(broken["meets"]);
  EXPECT_NE(broken["compile_error"].get<std::string>().find("error"), std::string::npos);
  EXPECT_EQ(broken["verdicts"].size(), 0u);
  const nlohmann::json good = solution_named(report, "accepted/willow.cpp");
  EXPECT_TRUE(good["meets"]);
  EXPECT_EQ(good["counts"]["AC"], 1);
  EXPECT_NE(read_text(at("p.html")).find("compile error (CE)"), std::string::npos);
}

TEST_F(PackageCheckCliTest, MultiFileAndJavaSolutions) {
  copy_package("kattis-willow-java");
  if (!has_javac()) {
    fs::remove(at("pkg/submissions/accepted/Willow.java"));
    std::fprintf(stderr, "no JDK (javac) here: the Java submission is left out\n");
  }
  const Result result = run(
      {"check", "-p", "willow", "--no-cache", "--time-limit", "10", "--report", "r.json", "pkg"});
  EXPECT_EQ(result.status, 0) << result.out << result.err;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("r.json")));
  EXPECT_EQ(report["time_limit"]["source"], "--time-limit");
  EXPECT_TRUE(solution_named(report, "accepted/multi")["meets"]);
  EXPECT_TRUE(solution_named(report, "accepted/multipy")["meets"]);
  if (has_javac())
    EXPECT_TRUE(solution_named(report, "accepted/Willow.java")["meets"]);
  else
    GTEST_SKIP() << "no JDK (javac): the Java submission was not tried";
}

TEST_F(PackageCheckCliTest, ASolutionGivenAsASourceIsCompiledForCheckAndStress) {
  write_text(at("set/sample.in"), read_test_file("willow/sample.in"));
  copy_package("kattis-willow-weak");
  const Result check = run({"check", "-p", "willow", "--cache", "answers.cache", "-s",
                            "pkg/submissions/accepted/willow.cpp", "-s",
                            "pkg/submissions/wrong_answer/maxstart.py", "set"});
  EXPECT_EQ(check.status, 0) << check.out << check.err;
  EXPECT_NE(check.err.find("compile: 2 sources: 2 compiled"), std::string::npos) << check.err;
  // Stress, given the same source, finds where the weak solution is wrong.
  const Result stress = run({"stress", "-p", "willow", "--count", "200", "--cities", "2..8", "-s",
                             "pkg/submissions/wrong_answer/maxstart.py", "-o", "found"});
  EXPECT_EQ(stress.status, 1) << stress.out << stress.err;
  EXPECT_TRUE(fs::exists(at("found/counterexample.in")));
}

TEST_F(PackageCheckCliTest, TheLanguagesTableChangesHowASourceIsCompiled) {
  write_text(at("set/sample.in"), read_test_file("willow/sample.in"));
  copy_package("kattis-willow-weak");
  // A compile command of the user's own: one that fails makes a compile error.
  write_text(at("langs.toml"),
             "[languages.cpp]\ncompile = \"false {files}\"\nrun = \"{binary}\"\n");
  const Result failing = run({"check", "-p", "willow", "--no-cache", "--languages", "langs.toml",
                              "-s", "pkg/submissions/accepted/willow.cpp", "set"});
  EXPECT_EQ(failing.status, 1) << failing.out << failing.err;
  EXPECT_NE(failing.out.find("CE (compile error)"), std::string::npos) << failing.out;
  write_text(at("bad.toml"), "[languages.cpp]\ncompiler = \"g++\"\n");
  const Result bad = run({"check", "-p", "willow", "--no-cache", "--languages", "bad.toml", "-s",
                          "pkg/submissions/accepted/willow.cpp", "set"});
  EXPECT_EQ(bad.status, 2) << bad.err;
  EXPECT_NE(bad.err.find("compiler"), std::string::npos) << bad.err;
}

// A Polygon package names its solutions and their tags in problem.xml; its time limit is there too.
TEST_F(PackageCheckCliTest, APolygonPackagesSolutionsAreJudgedByTheirTags) {
  copy_package("polygon-willow");
  copy_kattis_submission("accepted/willow.cpp", "pkg/solutions/main.cpp");
  copy_kattis_submission("accepted/willow.py", "pkg/solutions/alt.py");
  copy_kattis_submission("wrong_answer/greedy.c", "pkg/solutions/greedy.c");
  std::string xml = read_text(at("pkg/problem.xml"));
  xml.insert(xml.find("</problem>"),
             "    <assets><solutions>\n"
             "      <solution tag=\"main\"><source path=\"solutions/main.cpp\" "
             "type=\"cpp.g++17\"/></solution>\n"
             "      <solution tag=\"accepted\"><source path=\"solutions/alt.py\" "
             "type=\"python.3\"/></solution>\n"
             "      <solution tag=\"wrong-answer\"><source path=\"solutions/greedy.c\" "
             "type=\"c.gcc\"/></solution>\n"
             "    </solutions></assets>\n");
  fs::permissions(at("pkg/problem.xml"), fs::perms::owner_write, fs::perm_options::add);
  write_text(at("pkg/problem.xml"), xml);
  const Result result = run({"check", "-p", "willow", "--no-cache", "--report", "r.json", "pkg"});
  EXPECT_EQ(result.status, 0) << result.out << result.err;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("r.json")));
  EXPECT_EQ(report["package"]["layout"], "polygon");
  EXPECT_EQ(report["time_limit"]["seconds"], 3.0);
  EXPECT_NE(report["time_limit"]["source"].get<std::string>().find("problem.xml"),
            std::string::npos);
  // Its memory limit too (268435456 bytes), which --memory-limit would override.
  EXPECT_EQ(report["limits"]["memory_limit_mb"], 256.0);
  EXPECT_EQ(report["limits"]["memory_limit_source"], "problem.xml <memory-limit>");
  ASSERT_EQ(report["solutions"].size(), 3u);
  for (const nlohmann::json& solution : report["solutions"]) {
    EXPECT_TRUE(solution["meets"]) << solution.dump(1);
    // tests/01, 02, 03, judged or skipped after a failure
    EXPECT_EQ(solution["verdicts"].size() + solution["skipped"].get<std::size_t>(), 3u);
  }
  EXPECT_EQ(solution_named(report, "solutions/greedy.c")["expected"], "wrong_answer");
  // check writes nothing beside the inputs, whatever the layout's answer names.
  EXPECT_FALSE(fs::exists(at("pkg/tests/01.a")));
}

// A CMS package's official solution (sol/solution.*) must be accepted; the others in sol/ have no
// expectation in that format and are left out with a warning.
TEST_F(PackageCheckCliTest, ACmsPackagesOfficialSolutionMustBeAccepted) {
  copy_package("cms-willow");
  copy_kattis_submission("accepted/willow.cpp", "pkg/sol/solution.cpp");
  copy_kattis_submission("wrong_answer/greedy.c", "pkg/sol/greedy.c");
  const Result result = run({"check", "-p", "willow", "--no-cache", "--report", "r.json", "pkg"});
  EXPECT_EQ(result.status, 0) << result.out << result.err;
  EXPECT_NE(result.err.find("sol/greedy.c"), std::string::npos) << result.err;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("r.json")));
  EXPECT_EQ(report["package"]["layout"], "cms");
  EXPECT_EQ(report["time_limit"]["seconds"], 2.5);
  EXPECT_EQ(report["limits"]["memory_limit_source"], "task.yaml memory_limit");
  ASSERT_EQ(report["solutions"].size(), 1u);
  EXPECT_EQ(report["solutions"][0]["name"], "sol/solution.cpp");
  EXPECT_TRUE(report["solutions"][0]["meets"]);
}

TEST_F(PackageCheckCliTest, CtrlCWhileCompilingEndsTheCheckAtOnceAndStoresNothing) {
  using namespace std::chrono_literals;
  write_text(at("set/sample.in"), read_test_file("willow/sample.in"));
  copy_package("kattis-willow-weak");
  write_text(at("slow.toml"),
             "[languages.cpp]\ncompile = \"sleep 30; g++ -O2 -o {binary} {files}\"\n");
  const auto started = std::chrono::steady_clock::now();
  const pid_t gamebatch = start({"check", "-p", "willow", "--cache", "answers.cache", "--languages",
                                 "slow.toml", "-s", "pkg/submissions/accepted/willow.cpp", "set"});
  std::this_thread::sleep_for(1500ms);  // past the start, in the compile's sleep
  ASSERT_EQ(::kill(gamebatch, SIGINT), 0);
  const Result result = finish(gamebatch);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 20s);
  EXPECT_EQ(result.status, 130) << result.err;
  EXPECT_NE(result.err.find("interrupted while compiling"), std::string::npos) << result.err;
  EXPECT_EQ(result.out, "");  // no table: nothing was judged
  // The store holds no entry (an interrupted compile is no compile error) and no temporary: only
  // the lock that keeps `cache trim` away while a check runs its programs.
  std::size_t entries = 0;
  if (fs::exists(at("compiled"))) {
    for (const fs::directory_entry& entry : fs::directory_iterator(at("compiled")))
      entries += entry.path().filename() == ".lock" ? 0 : 1;
  }
  EXPECT_EQ(entries, 0u);
}

TEST_F(PackageCheckCliTest, ACheckWithoutSolutionsIsAUsageError) {
  write_text(at("set/sample.in"), read_test_file("willow/sample.in"));
  const Result result = run({"check", "-p", "willow", "--no-cache", "set"});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("no solution to check"), std::string::npos) << result.err;
}

// Early decisions from the command line: a directory of inputs is one pass-fail set, so a
// failure skips the solution's later runs (listed apart in the report); --all-runs runs them.
TEST_F(PackageCheckCliTest, AFailureSkipsTheLaterRunsUnlessAllRuns) {
  for (const char* name : {"a", "b", "c", "d"})
    write_text(at(std::string("set/") + name + ".in"), read_test_file("willow/sample.in"));
  // Wrong on b.in (its input named by /proc/self/fd/0, without the sandbox's copy).
  write_text(at("sol.sh"),
             "case \"$(readlink /proc/self/fd/0)\" in *b.in) echo x; exit 0;; esac\n"
             "cat '" +
                 (fs::path(GAMEBATCH_TEST_DATA) / "willow/sample.ans").string() + "'\n");
  const std::string solution = "sh " + at("sol.sh").string();
  for (const bool all_runs : {false, true}) {
    SCOPED_TRACE(all_runs);
    std::vector<std::string> arguments = {"check",        "-p",       "willow", "--no-cache",
                                          "--no-sandbox", "--report", "r.json", "-s",
                                          solution,       "set"};
    if (all_runs)
      arguments.insert(arguments.begin() + 1, "--all-runs");
    const Result result = run(arguments);
    EXPECT_EQ(result.status, 1) << result.out << result.err;
    EXPECT_NE(result.out.find(" skip "), std::string::npos) << result.out;
    const nlohmann::json report = nlohmann::json::parse(read_text(at("r.json")));
    EXPECT_EQ(report["all_runs"], all_runs);
    EXPECT_EQ(report["groups"], nlohmann::json::array());
    const nlohmann::json& checked = report["solutions"][0];
    EXPECT_TRUE(checked["score"].is_null());
    EXPECT_TRUE(checked["max_score"].is_null());
    EXPECT_EQ(checked["groups"], nlohmann::json::array());
    EXPECT_EQ(checked["counts"]["WA"], 1);
    if (all_runs) {
      EXPECT_EQ(checked["skipped"], 0);
      EXPECT_EQ(checked["verdicts"].size(), 4u);
    } else {
      EXPECT_EQ(checked["skipped"], 2);
      EXPECT_EQ(checked["skipped_paths"], (nlohmann::json{"set/c.in", "set/d.in"}));
      EXPECT_EQ(checked["verdicts"].size(), 2u);
    }
  }
}

}  // namespace
