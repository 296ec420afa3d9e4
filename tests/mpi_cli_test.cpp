// End-to-end: the MPI mode under a real `mpirun` on this machine (more ranks than cores:
// --oversubscribe; as root: OMPI_ALLOW_RUN_AS_ROOT). Answers, summary and report must be those of
// one process; one cache serves the whole job and answers a rerun; a heavy file's cases spread.
#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace {

using namespace gamebatch::testing;
using namespace std::chrono_literals;

class MpiCliTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  }

  // `mpirun -np RANKS gamebatch ARGS...`. When a rank exits with a status other than 0, mpirun
  // adds a notice after the summary line: it is cut off, so err ends as a plain run's does.
  Result mpirun(int ranks, const std::vector<std::string>& args) const {
    std::vector<std::string> command = {GAMEBATCH_MPIRUN, "-np", std::to_string(ranks),
                                        "--oversubscribe", GAMEBATCH_BINARY};
    command.insert(command.end(), args.begin(), args.end());
    Result result = finish(start_program(std::move(command)));
    const std::size_t notice = result.err.find("\n-----");
    if (result.status != 0 && notice != std::string::npos) {
      EXPECT_NE(result.err.find("exited with non-zero status", notice), std::string::npos)
          << result.err;
      result.err.resize(notice + 1);
    }
    return result;
  }

  // Small willow files, one with a case of 1500 cities, and a bad file in the middle.
  void write_willow_set(const fs::path& dir) const {
    std::mt19937_64 rng(5);
    for (int k = 0; k < 12; ++k) {
      std::vector<std::string> cases;
      for (int c = 0; c <= k % 4; ++c)
        cases.push_back(
            willow_case(c % 2 == 0 ? Shape::random : Shape::path, 2 + 7 * c + k, 99, rng));
      if (k == 5)
        cases.push_back(willow_case(Shape::random, 1500, 10000, rng));
      write_text(dir / cat("set", k % 2) / cat("w", k, ".in"), willow_file(cases));
    }
    write_text(dir / "set0" / "w99-bad.in", "2\n3\n1\n2\n3\n2\n3\n");  // the file ends early
  }

  // The "rank R: C cases ..." lines rank 0 logs at the end of a job: cases solved per rank.
  static std::vector<std::size_t> cases_per_rank(const std::string& err) {
    std::vector<std::size_t> cases;
    const std::regex line(R"(^gamebatch: info: rank (\d+): (\d+) cases in \d+ batches)");
    for (const std::string& text : lines_of(err)) {
      std::smatch match;
      if (std::regex_search(text, match, line)) {
        const std::size_t rank = std::stoul(match[1]);
        if (cases.size() <= rank)
          cases.resize(rank + 1);
        cases[rank] = std::stoul(match[2]);
      }
    }
    return cases;
  }
};

TEST_F(MpiCliTest, AnswersSummaryAndReportEqualOneProcessForOneTwoAndThreeRanks) {
  write_willow_set(at("in"));
  const Result reference = solve({"--no-cache", "--jobs", "2", "--out", "ref", "in"});
  ASSERT_EQ(reference.status, 1) << reference.err;
  const Summary expected = summary_of(reference);
  ASSERT_EQ(expected.rejected, 1u);
  const auto reference_answers = answers_under(at("ref"));
  ASSERT_EQ(reference_answers.size(), 12u);

  for (int ranks = 1; ranks <= 3; ++ranks) {
    SCOPED_TRACE(cat(ranks, " ranks"));
    const std::string out = cat("mpi", ranks);
    const std::string report = cat("report", ranks, ".json");
    const Result result = mpirun(ranks, {"solve", "--mpi", "--problem", "willow", "--no-cache",
                                         "--jobs", "1", "--report", report, "--out", out, "in"});
    EXPECT_EQ(result.status, 1) << result.err;
    EXPECT_EQ(answers_under(at(out)), reference_answers);
    const Summary summary = summary_of(result);
    EXPECT_EQ(summary.files, expected.files);
    EXPECT_EQ(summary.cases, expected.cases);
    EXPECT_EQ(summary.solved, expected.solved);
    EXPECT_EQ(summary.rejected, 1u);
    // The bad file is reported once, by rank 0, with its line.
    EXPECT_EQ(count_containing(error_lines(result.err), "w99-bad.in:7: "), 1u) << result.err;
    const std::vector<std::size_t> per_rank = cases_per_rank(result.err);
    ASSERT_EQ(per_rank.size(), static_cast<std::size_t>(ranks)) << result.err;
    std::size_t solved = 0;
    for (const std::size_t cases : per_rank)
      solved += cases;
    EXPECT_EQ(solved, expected.solved) << result.err;
    const nlohmann::json json = nlohmann::json::parse(read_text(at(report)));
    EXPECT_EQ(json.at("files").size(), 13u);
    EXPECT_EQ(json.at("totals").at("solved"), expected.solved);
    EXPECT_EQ(json.at("options").at("mpi"), true);
  }
}

TEST_F(MpiCliTest, OneCacheServesAllRanksAndAnswersTheRerunOfEveryGame) {
  // One job per game; `out` and `cache` differ between the plain run and the MPI runs.
  const auto config = [](const std::string& cache, const std::string& out) {
    std::string text = cat("cache = \"", cache, "\"\ncache_min_solve_us = 0\n");
    for (const char* game : {"willow", "doublemove", "wallgame", "boigame"}) {
      text += cat("\n[[job]]\ngame = \"", game, "\"\ninputs = [\"sets/", game, "\"]\nout = \"", out,
                  "/", game, "\"\n");
    }
    return text;
  };
  for (const char* game : {"willow", "doublemove", "wallgame", "boigame"}) {
    ASSERT_EQ(run({"gen", game, "--count", "5", "--cases-per-file", "3", "--seed", "4", "--out",
                   cat("sets/", game)})
                  .status,
              0);
  }
  write_text(at("plain.toml"), config("plain.cache", "plain"));
  write_text(at("mpi.toml"), config("answers.cache", "mpi"));
  const Result plain = run({"run", "plain.toml", "--jobs", "2"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  const Summary expected = summary_of(plain);
  ASSERT_EQ(expected.cases, 60u);

  const Result cold = mpirun(2, {"run", "mpi.toml", "--mpi", "--jobs", "1"});
  ASSERT_EQ(cold.status, 0) << cold.err;
  EXPECT_EQ(answers_under(at("mpi")), answers_under(at("plain")));
  EXPECT_EQ(summary_of(cold).solved, expected.solved) << cold.err;
  // The same entries as one process's cache: rank 0 stored what every rank solved.
  EXPECT_EQ(run({"cache", "export", "answers.cache"}).out,
            run({"cache", "export", "plain.cache"}).out);

  const Result warm = mpirun(3, {"run", "mpi.toml", "--mpi", "--jobs", "1"});
  ASSERT_EQ(warm.status, 0) << warm.err;
  EXPECT_EQ(summary_of(warm).solved, 0u) << warm.err;
  EXPECT_EQ(summary_of(warm).cached, 60u) << warm.err;
  // And a plain run reads the same cache.
  const Result plain_warm = run({"run", "mpi.toml", "--quiet"});
  EXPECT_EQ(summary_of(plain_warm).cached, 60u) << plain_warm.err;
  EXPECT_EQ(answers_under(at("mpi")), answers_under(at("plain")));
}

TEST_F(MpiCliTest, HeavyFilesCasesSpreadOverTheRanks) {
  std::mt19937_64 rng(9);
  std::vector<std::string> heavy;
  // About 0.15 s each on one core: rank 0 alone would take well over a second, long past rank 1's
  // start even on a loaded machine (at 0.1 s each, rank 0 once took all eight under load; eight
  // combs of 12,000 at 0.06 s each, once chains resumed from their siblings', all but one case;
  // rank 1 ran about half as fast as rank 0 on this machine, main's build too). Spiders of combs
  // (combs, then tripods were, until the search's bounds cut them): willow's pruned search takes
  // a hundredth of that on a random tree or a path of the size.
  for (int k = 0; k < 12; ++k)
    heavy.push_back(willow_case(Shape::spider, 40'000, 10000, rng));
  write_text(at("in/heavy.in"), willow_file(heavy));
  for (int k = 0; k < 4; ++k)
    write_text(at(cat("in/small", k, ".in")), willow_file({willow_case(Shape::path, 9, 9, rng)}));
  const Result reference = solve({"--no-cache", "--out", "ref", "in"});
  ASSERT_EQ(reference.status, 0) << reference.err;

  const Result result = mpirun(2, {"solve", "--mpi", "--problem", "willow", "--no-cache", "--jobs",
                                   "1", "--out", "mpi", "in"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(answers_under(at("mpi")), answers_under(at("ref")));
  const std::vector<std::size_t> per_rank = cases_per_rank(result.err);
  ASSERT_EQ(per_rank.size(), 2u) << result.err;
  // Each heavy case takes about a tenth of a second: the file must not sit on one rank.
  EXPECT_GE(per_rank[0], 2u) << result.err;
  EXPECT_GE(per_rank[1], 2u) << result.err;
}

// Ctrl-C at mpirun, which passes it on to every rank: the job ends within seconds, the finished
// files' answers whole and right, the unfinished file without one, the cache sound and holding
// every answer solved.
TEST_F(MpiCliTest, InterruptedJobLeavesWholeAnswersAndASoundCache) {
  std::mt19937_64 rng(12);
  for (int k = 0; k < 3; ++k) {
    std::vector<std::string> cases;
    for (int c = 0; c < 5; ++c)
      cases.push_back(willow_case(Shape::random, 300, 1000, rng));
    write_text(at(cat("in/s", k, ".in")), willow_file(cases));
  }
  // A few seconds on one core (a spider of combs: willow's pruned search makes short work of a
  // random tree or a path): still in progress when the signal comes.
  write_text(at("in/big.in"), willow_file({willow_case(Shape::spider, 300'000, 1000, rng)}));
  const pid_t job =
      start_program({GAMEBATCH_MPIRUN, "-np", "2", "--oversubscribe", GAMEBATCH_BINARY, "solve",
                     "--mpi", "--problem", "willow", "--jobs", "1", "--cache", "c.cache",
                     "--cache-min-solve-us", "0", "in"});
  const bool small_done = wait_until(
      [&] {
        return fs::exists(at("in/s0.ans")) && fs::exists(at("in/s1.ans")) &&
               fs::exists(at("in/s2.ans"));
      },
      60s);
  if (small_done)
    std::this_thread::sleep_for(300ms);  // inside the big case
  ::kill(job, SIGINT);
  const auto sent = std::chrono::steady_clock::now();
  const Result interrupted = finish(job);
  ASSERT_TRUE(small_done) << interrupted.err;
  EXPECT_LT(std::chrono::steady_clock::now() - sent, 30s);
  EXPECT_NE(interrupted.err.find("unfinished: 1 time: "), std::string::npos) << interrupted.err;
  EXPECT_NE(interrupted.err.find("(interrupted)"), std::string::npos) << interrupted.err;
  EXPECT_FALSE(fs::exists(at("in/big.ans")));
  const Result verify = cache_command({"verify", "c.cache"});
  EXPECT_EQ(verify.status, 0) << verify.out << verify.err;

  fs::remove(at("in/big.in"));
  const Result reference = solve({"--no-cache", "--out", "ref", "in"});
  ASSERT_EQ(reference.status, 0) << reference.err;
  for (int k = 0; k < 3; ++k) {
    const std::string name = cat("s", k, ".ans");
    EXPECT_EQ(read_text(at("in") / name), read_text(at("ref") / name)) << name;
  }
  const Result rerun = solve({"--cache", "c.cache", "--cache-min-solve-us", "0", "in"});
  EXPECT_EQ(rerun.status, 0) << rerun.err;
  EXPECT_EQ(summary_of(rerun).cached, 15u) << rerun.err;
}

TEST_F(MpiCliTest, RanksStartedWithoutMpiWarnThatEachSolvesEverything) {
  write_willow_set(at("in"));
  // A rank that exits with 1 makes mpirun end the others: only good files here.
  fs::remove(at("in/set0/w99-bad.in"));
  const Result result = mpirun(
      2, {"solve", "--problem", "willow", "--no-cache", "--jobs", "1", "--out", "out", "in"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(count_containing(lines_of(result.err),
                             "started as one of 2 MPI ranks without --mpi: each rank solves every "
                             "input (add --mpi to share the work)"),
            2u)
      << result.err;
  EXPECT_EQ(count_containing(lines_of(result.err), "files: 12 cases: "), 2u) << result.err;
}

TEST_F(MpiCliTest, MpiWithoutALauncherOrWithShardsIsAUsageError) {
  write_willow_set(at("in"));
  ::unsetenv("OMPI_COMM_WORLD_SIZE");
  const Result alone = solve({"--mpi", "--no-cache", "in"});
  EXPECT_EQ(alone.status, 2);
  EXPECT_NE(alone.err.find("not started by an MPI launcher"), std::string::npos) << alone.err;
  EXPECT_NE(alone.err.find("mpirun -np"), std::string::npos) << alone.err;
  EXPECT_FALSE(fs::exists(at("in/set1/w1.ans")));

  const Result sharded = solve({"--mpi", "--shard", "1/2", "--no-cache", "in"});
  EXPECT_EQ(sharded.status, 2);
  EXPECT_NE(sharded.err.find("--mpi and --shard exclude each other"), std::string::npos)
      << sharded.err;
}

}  // namespace
