// End-to-end: `gamebatch strength` on a willow package whose plan is a first draft
// (tests/data/packages/strength-willow). The draft lets through planted faults of four kinds
// (tests/data/strength/willow-faults: a boundary, a shape, an extreme answer, slow on one shape:
// a time-limit submission quick on random trees, too slow on long paths); strength says the
// tests are weak, --fill adds the tests after which check rejects every fault it never saw, and a
// second --fill adds nothing. --select keeps every submission's score; bad input is refused
// clearly; Ctrl-C keeps what was judged. The mutants are capped (--mutants) to keep the test short.
#include <csignal>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace {

using namespace gamebatch::testing;

// Small budgets: the test asks what the tool does, the benchmarks how fast.
const std::vector<std::string> kBudgets = {"--mutants", "120",     "--stress-cases",
                                           "20",        "--cache", "answers.cache"};

class StrengthCliTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
#ifdef GAMEBATCH_SANITIZED
    GTEST_SKIP() << "hundreds of sandboxed runs: too slow under the sanitizers, and it runs "
                    "nothing that the other tests do not";
#endif
  }

  // A copy of the draft package, built.
  void draft(const std::string& name = "pkg") const {
    fs::copy(fs::path(GAMEBATCH_TEST_DATA) / "packages/strength-willow", at(name),
             fs::copy_options::recursive);
    const Result built = run({"build", name});
    ASSERT_EQ(built.status, 0) << built.err;
  }

  Result strength(std::vector<std::string> args) const {
    args.insert(args.begin(), "strength");
    args.insert(args.end(), kBudgets.begin(), kBudgets.end());
    return run(args);
  }

  // The planted faults as the package's submissions that must fail, for check: their names
  // there ("wrong_answer/boundary.cpp").
  static std::vector<std::string> faults() {
    return {"wrong_answer/boundary.cpp", "wrong_answer/shape.cpp", "wrong_answer/extreme.cpp",
            "time_limit_exceeded/slow.cpp"};
  }
  void plant_faults(const std::string& package) const {
    fs::create_directories(at(package + "/submissions/time_limit_exceeded"));
    for (const std::string& fault : faults()) {
      fs::copy_file(
          fs::path(GAMEBATCH_TEST_DATA) / "strength/willow-faults" / fs::path(fault).filename(),
          at(package + "/submissions/" + fault));
    }
  }

  nlohmann::json check_report(const std::string& package, const std::string& report) const {
    run({"check", "-p", "willow", "--cache", "answers.cache", "--report", report, package});
    return nlohmann::json::parse(read_text(at(report)));
  }

  static nlohmann::json solution(const nlohmann::json& report, const std::string& name) {
    for (const nlohmann::json& s : report["solutions"]) {
      if (s["name"] == name)
        return s;
    }
    ADD_FAILURE() << "no solution " << name;
    return {};
  }
};

TEST_F(StrengthCliTest, TheDraftIsWeakFillClosesItsGapsAndASecondFillAddsNothing) {
  draft();
  // The draft accepts every planted fault: they are what its tests let through.
  fs::copy(at("pkg"), at("faulty"), fs::copy_options::recursive);
  plant_faults("faulty");
  const nlohmann::json before = check_report("faulty", "before.json");
  for (const std::string& fault : faults()) {
    const nlohmann::json s = solution(before, fault);
    EXPECT_TRUE(s["too_weak"].get<bool>()) << fault << " is caught by the draft already";
  }

  const std::set<std::string> outside = files_under(work_);
  const Result first = strength({"pkg", "--report", "first.json", "--html", "first.html"});
  EXPECT_EQ(first.status, 1) << first.out << first.err;  // weak
  EXPECT_TRUE(starts_with(first.out, "strength: ")) << first.out;
  const nlohmann::json weak = nlohmann::json::parse(read_text(at("first.json")));
  EXPECT_FALSE(weak["counts"]["strong"].get<bool>());
  EXPECT_GT(weak["counts"]["coverage_missed"].get<int>(), 0);
  EXPECT_EQ(weak["mutants"][0]["mutants"], 120);
  // Every kind of candidate: the package's wrong answer, mutants, the three ideas.
  std::map<std::string, int> kinds;
  for (const nlohmann::json& c : weak["candidates"])
    ++kinds[c["kind"].get<std::string>()];
  EXPECT_EQ(kinds["submission"], 1);
  EXPECT_EQ(kinds["mutant"], 120);
  EXPECT_EQ(kinds["idea"], 3);
  // A mutant that loops is killed by the time limit, not waited for.
  std::size_t by_time = 0;
  for (const nlohmann::json& c : weak["candidates"])
    by_time += c["verdicts"]["TLE"].get<std::size_t>();
  EXPECT_GT(by_time, 0u);
  // Nothing was written but the report, the page, the cache and the compiled programs beside it.
  std::set<std::string> now = files_under(work_);
  for (const std::string& file : outside)
    now.erase(file);
  for (const std::string& file : now)
    EXPECT_TRUE(file == "first.json" || file == "first.html" ||
                starts_with(file, "answers.cache") || starts_with(file, "compiled/"))
        << file;

  // The extreme answers' search at its default budget: it finds the smallest answer extreme.cpp
  // gets wrong.
  const Result fill = strength({"pkg", "--fill", "--report", "fill.json", "--search-cases", "300"});
  const nlohmann::json filled = nlohmann::json::parse(read_text(at("fill.json")));
  EXPECT_FALSE(filled["filled"].empty()) << fill.out << fill.err;
  EXPECT_FALSE(filled["before_fill"].is_null());
  EXPECT_EQ(filled["counts"]["gaps"], 0) << fill.out;
  EXPECT_TRUE(fs::is_directory(at("pkg/strength")));
  EXPECT_NE(read_text(at("pkg/gamebatch.toml")).find("# gamebatch strength:"), std::string::npos);

  // The filled package rejects every fault it never saw.
  fs::remove_all(at("faulty"));
  fs::copy(at("pkg"), at("faulty"), fs::copy_options::recursive);
  plant_faults("faulty");
  const nlohmann::json after = check_report("faulty", "after.json");
  for (const std::string& fault : faults()) {
    const nlohmann::json s = solution(after, fault);
    EXPECT_TRUE(s["meets"].get<bool>()) << fault << " still passes the filled tests";
  }
  EXPECT_TRUE(solution(after, "accepted/willow.cpp")["meets"].get<bool>());

  // The filled package validates and builds; a second fill adds nothing.
  EXPECT_EQ(run({"validate", "-p", "willow", "pkg"}).status, 0);
  const Result again =
      strength({"pkg", "--fill", "--report", "again.json", "--search-cases", "300"});
  const nlohmann::json second = nlohmann::json::parse(read_text(at("again.json")));
  EXPECT_TRUE(second["filled"].empty()) << again.out;
}

TEST_F(StrengthCliTest, SelectKeepsEverySubmissionsScore) {
  draft();
  plant_faults("pkg");  // submissions that fail: their scores must stay
  const Result select = strength({"pkg", "--select", "--select-out", "picked", "--report",
                                  "select.json", "--search-cases", "60"});
  const nlohmann::json report = nlohmann::json::parse(read_text(at("select.json")));
  ASSERT_FALSE(report["selection"].is_null()) << select.err;
  const std::size_t kept = report["selection"]["count"];
  EXPECT_LT(kept, report["selection"]["of"].get<std::size_t>());
  EXPECT_FALSE(fs::exists(at("picked/gamebatch.toml")));
  const nlohmann::json whole = check_report("pkg", "whole.json");
  const nlohmann::json picked = check_report("picked", "picked.json");
  for (const nlohmann::json& s : whole["solutions"]) {
    const nlohmann::json other = solution(picked, s["name"]);
    EXPECT_EQ(s["score"], other["score"]) << s["name"];
    EXPECT_EQ(s["meets"], other["meets"]) << s["name"];
  }
}

TEST_F(StrengthCliTest, BadInputIsRefusedClearly) {
  draft();
  // An accepted submission that is not C++: its mutants are skipped, naming it.
  fs::copy_file(
      fs::path(GAMEBATCH_TEST_DATA) / "packages/kattis-willow/submissions/accepted/willow.py",
      at("pkg/submissions/accepted/willow.py"));
  const Result python = strength({"pkg", "--search-cases", "60"});
  EXPECT_NE(python.err.find("accepted/willow.py: not one C++ file, its mutants are skipped"),
            std::string::npos)
      << python.err;
  // No accepted submission: a usage error before any work.
  fs::remove_all(at("pkg/submissions/accepted"));
  const Result none = strength({"pkg", "--report", "none.json"});
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("has no accepted submission"), std::string::npos) << none.err;
  EXPECT_FALSE(fs::exists(at("none.json")));
  // --fill without a plan, --select-out without --select, a folder that is no package.
  fs::create_directories(at("plain"));
  const Result plain = strength({"plain", "-p", "willow"});
  EXPECT_EQ(plain.status, 2);
  EXPECT_NE(plain.err.find("plain is not a problem package"), std::string::npos) << plain.err;
  EXPECT_EQ(strength({"pkg", "--select-out", "x"}).status, 2);
}

TEST_F(StrengthCliTest, CtrlCKeepsWhatWasJudged) {
  draft();
  std::vector<std::string> args = {"strength", "pkg", "--report", "stopped.json"};
  args.insert(args.end(), kBudgets.begin(), kBudgets.end());
  const pid_t child = start(args);
  ASSERT_TRUE(wait_until(
      [&] { return read_text(root_ / "capture/main.err").find("mutants on") != std::string::npos; },
      std::chrono::seconds(90)));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::kill(child, SIGINT);
  const Result stopped = finish(child);
  EXPECT_EQ(stopped.status, 130) << stopped.err;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("stopped.json")));
  EXPECT_TRUE(report["interrupted"].get<bool>());
  EXPECT_GT(report["candidates"].size(), 0u);
}

}  // namespace
