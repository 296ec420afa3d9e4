// End-to-end: Ctrl-C (SIGINT) and SIGTERM in the middle of solve, gen, check and stress. The first
// signal stops the command cleanly: it exits with 128 + the signal within a second, its summary
// says "interrupted", the answer files it leaves are whole (and right), no temporary is left, the
// cache holds every answer solved and stays sound, and a rerun solves only the rest. A second
// SIGINT exits at once, the cache still sound.
#include <sys/wait.h>

#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"
#include "cli_solutions.hpp"

namespace {

using namespace gamebatch::testing;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// From the signal to the exit: the issue's second; the sanitizers make everything several times
// slower.
#if defined(__SANITIZE_ADDRESS__)
constexpr auto kStopWithin = 3s;
#else
constexpr auto kStopWithin = 1s;
#endif

std::size_t count_files(const fs::path& dir, const std::string& suffix) {
  std::size_t count = 0;
  std::error_code error;
  for (fs::directory_iterator entry(dir, error), end; !error && entry != end;
       entry.increment(error)) {
    const std::string name = entry->path().filename().string();
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      ++count;
  }
  return count;
}

// Names under `dir` of what an interrupted write could leave: NAME.tmp.PID.N.
std::vector<std::string> temporaries_under(const fs::path& dir) {
  std::vector<std::string> found;
  for (const std::string& name : files_under(dir)) {
    if (name.find(".tmp") != std::string::npos)
      found.push_back(name);
  }
  return found;
}

nlohmann::json read_json(const fs::path& path) {
  return nlohmann::json::parse(read_text(path));
}

class InterruptionCliTest : public CliTest {
 protected:
  struct Stopped {
    Result result;
    Clock::duration to_exit{};  // from the (first) signal to the exit
  };

  // Sends `signals` to `gamebatch` one after another, `between` apart, and waits for it.
  Stopped stop(pid_t gamebatch, const std::vector<int>& signals,
               Clock::duration between = 0ms) const {
    const Clock::time_point sent = Clock::now();
    for (std::size_t k = 0; k < signals.size(); ++k) {
      if (k != 0)
        std::this_thread::sleep_for(between);
      EXPECT_EQ(::kill(gamebatch, signals[k]), 0);
    }
    // Polled without reaping, every millisecond, so the time is the exit's, not the wait's.
    Clock::time_point ended = sent;
    for (;;) {
      siginfo_t info{};
      if (::waitid(P_PID, static_cast<id_t>(gamebatch), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
          info.si_pid == gamebatch) {
        ended = Clock::now();
        break;
      }
      if (Clock::now() - sent > 60s) {
        ADD_FAILURE() << "still running 60 s after the signal";
        ::kill(gamebatch, SIGKILL);
        break;
      }
      std::this_thread::sleep_for(1ms);
    }
    return {finish(gamebatch), ended - sent};
  }

  // Many one-case willow files of 200..400 cities under `dir`: a few milliseconds each.
  std::size_t write_small_files(const fs::path& dir, std::size_t count) const {
    std::mt19937_64 rng(11);
    fs::create_directories(dir);
    for (std::size_t k = 0; k < count; ++k) {
      const int cities = 200 + static_cast<int>(rng() % 201);
      write_text(dir / cat("f", 100000 + k, ".in"),
                 willow_file({willow_case(Shape::random, cities, 1000, rng)}));
    }
    return count;
  }

  void expect_cache_sound(const std::string& cache) const {
    const Result verify = cache_command({"verify", cache});
    EXPECT_EQ(verify.status, 0) << verify.out << verify.err;
  }

  void expect_stopped_in_time(const Stopped& stopped, int signal_number) const {
    EXPECT_EQ(stopped.result.status, 128 + signal_number) << stopped.result.err;
    EXPECT_LE(stopped.to_exit, kStopWithin)
        << std::chrono::duration<double>(stopped.to_exit).count() << " s after the signal";
  }
};

// The same tests for SIGINT (Ctrl-C) and SIGTERM (kill, a batch system's end of a job).
class EitherSignalTest : public InterruptionCliTest, public ::testing::WithParamInterface<int> {};

INSTANTIATE_TEST_SUITE_P(Signals, EitherSignalTest, ::testing::Values(SIGINT, SIGTERM),
                         [](const ::testing::TestParamInfo<int>& signal) {
                           return std::string(signal.param == SIGINT ? "Sigint" : "Sigterm");
                         });

// The summary line of an interrupted solve: "... unfinished: U time: T s (interrupted)".
std::optional<std::size_t> unfinished_in_summary(const Result& result) {
  static const std::regex pattern(
      R"(^files: \d+ cases: \d+ solved: \d+ cached: \d+ rejected: \d+ unfinished: (\d+))"
      R"( time: \d+(\.\d+)? s \(interrupted\)$)");
  const std::vector<std::string> lines = lines_of(result.err);
  std::smatch match;
  if (lines.empty() || !std::regex_match(lines.back(), match, pattern))
    return std::nullopt;
  return std::stoul(match[1]);
}

TEST_P(EitherSignalTest, StopsABigWillowCaseInProgressAndKeepsTheFinishedFile) {
  std::mt19937_64 rng(3);
  std::vector<std::string> small;
  for (int k = 0; k < 8; ++k)
    small.push_back(willow_case(Shape::random, 300, 1000, rng));
  write_text(at("set/a.in"), willow_file(small));
  // A few seconds of work (a spider of combs: willow's pruned search makes short work of a random
  // tree or a path): it is in progress when the signal comes.
  write_text(at("set/big.in"), willow_file({willow_case(Shape::spider, 300'000, 1000, rng)}));

  const pid_t gamebatch =
      start({"solve", "-p", "willow", "--jobs", "2", "--cache", "c.cache", "--cache-min-solve-us",
             "0", "--report", "r.json", "--html", "page.html", "set"});
  ASSERT_TRUE(wait_until([&] { return fs::exists(at("set/a.ans")); }, 30s));
  std::this_thread::sleep_for(300ms);  // well inside the big case
  const Stopped stopped = stop(gamebatch, {GetParam()});
  expect_stopped_in_time(stopped, GetParam());
  EXPECT_EQ(unfinished_in_summary(stopped.result), 1u) << stopped.result.err;
  EXPECT_NE(stopped.result.err.find("interrupted: stopping cleanly"), std::string::npos);

  EXPECT_EQ(files_under(at("set")), (std::set<std::string>{"a.in", "a.ans", "big.in"}));
  const nlohmann::json report = read_json(at("r.json"));
  EXPECT_EQ(report["totals"]["interrupted"], true);
  EXPECT_EQ(report["totals"]["unfinished"], 1);
  EXPECT_EQ(report["totals"]["solved"], 8);
  ASSERT_EQ(report["files"].size(), 2u) << report.dump();
  EXPECT_EQ(report["files"][0]["status"], "solved");
  EXPECT_EQ(report["files"][1]["status"], "interrupted");
  EXPECT_EQ(report["files"][1]["solved"], 0);
  EXPECT_NE(read_text(at("page.html")).find("<b>Interrupted.</b>"), std::string::npos);
  expect_cache_sound("c.cache");

  // The finished file's answers are right and all in the cache.
  const std::string answers = read_text(at("set/a.ans"));
  const Result fresh = run({"solve", "-p", "willow", "--no-cache", "--out", "fresh", "set/a.in"});
  ASSERT_EQ(fresh.status, 0) << fresh.err;
  EXPECT_EQ(answers, read_text(at("fresh/a.ans")));
  const Result rerun =
      run({"solve", "-p", "willow", "--cache", "c.cache", "--cache-min-solve-us", "0", "set/a.in"});
  EXPECT_EQ(rerun.status, 0) << rerun.err;
  EXPECT_EQ(summary_of(rerun).cached, 8u) << rerun.err;
}

TEST_F(InterruptionCliTest, SigtermStopsManySmallFilesAndTheRerunSolvesOnlyTheRest) {
  const std::size_t files = write_small_files(at("set"), 3000);
  const std::vector<std::string> args = {"solve", "-p",      "willow",  "--jobs",
                                         "2",     "--cache", "c.cache", "--cache-min-solve-us",
                                         "0",     "--report"};
  std::vector<std::string> first = args;
  first.insert(first.end(), {"first.json", "set"});
  const pid_t gamebatch = start(first);
  ASSERT_TRUE(wait_until([&] { return count_files(at("set"), ".ans") >= 300; }, 60s));
  const Stopped stopped = stop(gamebatch, {SIGTERM});
  expect_stopped_in_time(stopped, SIGTERM);
  const std::optional<std::size_t> unfinished = unfinished_in_summary(stopped.result);
  ASSERT_TRUE(unfinished.has_value()) << stopped.result.err;
  EXPECT_GT(*unfinished, 0u) << "every file was done before the signal: nothing was tested";
  EXPECT_TRUE(temporaries_under(at("set")).empty());
  expect_cache_sound("c.cache");

  const nlohmann::json report = read_json(at("first.json"));
  EXPECT_EQ(report["totals"]["interrupted"], true);
  EXPECT_EQ(report["totals"]["unfinished"], *unfinished);
  const std::size_t solved_first = report["totals"]["solved"];
  const std::size_t answered = count_files(at("set"), ".ans");
  EXPECT_EQ(answered, files - *unfinished);
  std::map<std::string, std::string> kept;
  for (const auto& [name, text] : answers_under(at("set"))) {
    if (name.ends_with(".ans"))
      kept[name] = text;
  }

  std::vector<std::string> second = args;
  second.insert(second.end(), {"second.json", "set"});
  const Result rerun = run(second);
  ASSERT_EQ(rerun.status, 0) << rerun.err;
  const nlohmann::json totals = read_json(at("second.json"))["totals"];
  EXPECT_EQ(totals["interrupted"], false);
  EXPECT_EQ(totals["cached"], solved_first);
  EXPECT_EQ(totals["solved"], files - solved_first);
  // What the interrupted run left is what the whole run writes.
  for (const auto& [name, text] : kept)
    EXPECT_EQ(read_text(at("set") / name), text) << name;
}

TEST_F(InterruptionCliTest, SecondSigintExitsAtOnceAndTheCacheStaysSound) {
  const std::size_t files = write_small_files(at("set"), 2000);
  // Checkpoints every 0.1 s: an exit at once keeps what the last one committed, as kill -9 does.
  const pid_t gamebatch = start({"solve", "-p", "willow", "--jobs", "2", "--cache", "c.cache",
                                 "--cache-min-solve-us", "0", "--checkpoint", "0.1", "set"});
  ASSERT_TRUE(wait_until([&] { return count_files(at("set"), ".ans") >= 100; }, 60s));
  std::this_thread::sleep_for(200ms);
  const Stopped stopped = stop(gamebatch, {SIGINT, SIGINT}, 1ms);
  expect_stopped_in_time(stopped, SIGINT);
  expect_cache_sound("c.cache");
  // Whatever it left, the next run ends the job: every file answered, what was cached reused.
  const Result rerun = run({"solve", "-p", "willow", "--jobs", "2", "--cache", "c.cache",
                            "--cache-min-solve-us", "0", "set"});
  ASSERT_EQ(rerun.status, 0) << rerun.err;
  EXPECT_EQ(count_files(at("set"), ".ans"), files);
  EXPECT_TRUE(temporaries_under(at("set")).empty());
  EXPECT_GT(summary_of(rerun).cached, 0u) << rerun.err;
}

TEST_P(EitherSignalTest, StopsGenWithWholeFilesOnly) {
  const pid_t gamebatch = start({"gen", "willow", "--count", "200000", "--seed", "4", "--cities",
                                 "100..200", "--jobs", "2", "--out", "gen"});
  ASSERT_TRUE(wait_until([&] { return count_files(at("gen"), ".in") >= 300; }, 60s));
  const Stopped stopped = stop(gamebatch, {GetParam()});
  expect_stopped_in_time(stopped, GetParam());
  static const std::regex pattern(R"(^wrote (\d+) of 200000 files to gen \(interrupted\)\n$)");
  std::smatch match;
  ASSERT_TRUE(std::regex_match(stopped.result.out, match, pattern)) << stopped.result.out;
  const std::size_t written = std::stoul(match[1]);
  EXPECT_LT(written, 200000u);
  EXPECT_EQ(count_files(at("gen"), ".in"), written);
  EXPECT_TRUE(temporaries_under(at("gen")).empty());
  // Whole: every file is a valid official input.
  const Result validate = run({"validate", "-p", "willow", "gen"});
  EXPECT_EQ(validate.status, 0) << validate.err.substr(0, 2000);
}

TEST_P(EitherSignalTest, StopsCheckWithAReportOfWhatWasJudged) {
  std::mt19937_64 rng(8);
  for (int k = 0; k < 40; ++k)
    write_text(at(cat("set/c", k + 10, ".in")),
               willow_file({willow_case(Shape::random, 50, 100, rng)}));
  const std::string slow_reference = "sleep 0.2; " + kReference + " willow";
  const pid_t gamebatch =
      start({"check", "-p", "willow", "--no-cache", "--jobs", "2", "-s", slow_reference, "--report",
             "check.json", "--html", "check.html", "set"});
  std::this_thread::sleep_for(1500ms);  // a few runs judged, most not
  const Stopped stopped = stop(gamebatch, {GetParam()});
  expect_stopped_in_time(stopped, GetParam());
  EXPECT_NE(stopped.result.err.find("(interrupted)"), std::string::npos) << stopped.result.err;
  const nlohmann::json report = read_json(at("check.json"));
  EXPECT_EQ(report["interrupted"], true);
  const std::size_t judged = report["solutions"][0]["verdicts"].size();
  EXPECT_GT(judged, 0u) << report.dump();
  EXPECT_EQ(report["runs_not_judged"], 40 - judged);
  EXPECT_GT(report["runs_not_judged"].get<std::size_t>(), 0u);
  for (const nlohmann::json& verdict : report["solutions"][0]["verdicts"])
    EXPECT_EQ(verdict["verdict"], "AC") << verdict.dump();
  EXPECT_NE(read_text(at("check.html")).find("<b>Interrupted.</b>"), std::string::npos);
}

TEST_F(InterruptionCliTest, SigtermStopsStressAfterTheCasesJudgedInOrder) {
  const pid_t gamebatch = start({"stress", "-p", "willow", "--solution", kReference + " willow",
                                 "--count", "1000000", "--jobs", "2", "--cities", "20..40"});
  std::this_thread::sleep_for(1500ms);
  const Stopped stopped = stop(gamebatch, {SIGTERM});
  expect_stopped_in_time(stopped, SIGTERM);
  static const std::regex pattern(
      R"(^stress: interrupted after (\d+) cases, all passed \(seed \d+\)\n$)");
  std::smatch match;
  ASSERT_TRUE(std::regex_match(stopped.result.out, match, pattern)) << stopped.result.out;
  EXPECT_GT(std::stoul(match[1]), 0u);
  EXPECT_FALSE(fs::exists(at("counterexample.in")));
}

}  // namespace
