// End-to-end: what large runs need — the JSON run report, shards (by hand and from Slurm) merged
// back into one cache, and the progress line (only on a terminal, never with --quiet).
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace {

using namespace gamebatch::testing;

// A willow file that takes about a second on one thread (12 spiders of combs of 30,000 cities: on
// a spider the pruned search still walks long chains, where a random tree or a path takes a
// hundredth of that), so that the progress line is drawn.
void write_slow_willow_file(const fs::path& path) {
  std::mt19937_64 rng(7);
  std::vector<std::string> cases;
  for (int k = 0; k < 12; ++k)
    cases.push_back(willow_case(Shape::spider, 30000, 10000, rng));
  write_text(path, willow_file(cases));
}

class ScaleCliTest : public CliTest {
 protected:
  // `count` small willow files spread over nested directories under `dir`.
  void write_willow_set(const fs::path& dir, int count) const {
    std::mt19937_64 rng(42);
    for (int k = 0; k < count; ++k) {
      const fs::path file = dir / cat("part", k % 3) / cat("sub", k % 2) / cat("case", k, ".in");
      write_text(file, willow_file({willow_case(Shape::random, 2 + k % 9, 50, rng),
                                    willow_case(Shape::path, 3 + k % 5, 9, rng)}));
    }
  }

  // The cache's entries, as `cache export` prints them (sorted JSON lines).
  std::string exported(const fs::path& cache) const {
    const Result result = run({"cache", "export", cache.string()});
    EXPECT_EQ(result.status, 0) << result.err;
    return result.out;
  }

  // Runs gamebatch under a pseudo-terminal (util-linux `script`), so that stderr is a terminal.
  Result run_on_terminal(const std::string& arguments) const {
    const std::string command =
        "script -qefc '" + std::string(GAMEBATCH_BINARY) + " " + arguments + "' /dev/null";
    return run_shell(command);
  }

  Result run_shell(const std::string& command) const {
    const fs::path out = root_ / "capture" / "shell.out";
    const std::string line =
        "cd '" + work_.string() + "' && " + command + " > '" + out.string() + "' 2>&1";
    const int status = std::system(line.c_str());
    Result result;
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.err = read_text(out);
    return result;
  }
};

TEST_F(ScaleCliTest, ReportListsEveryFileWithItsStatusAndTotals) {
  write_willow_set(at("set"), 4);
  write_text(at("set/bad.in"), "1\n3\n5\n7\n");
  // Every case cached: these small cases are below the default --cache-min-solve-us.
  const Result cold = run({"solve", "--problem", "willow", "--cache", "c.cache",
                           "--cache-min-solve-us", "0", "--report", "reports/cold.json", "set"});
  EXPECT_EQ(cold.status, 1) << cold.err;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("reports/cold.json")));
  EXPECT_EQ(report.at("schema"), "gamebatch-report/1");
  EXPECT_EQ(report.at("command"), "solve");
  EXPECT_TRUE(starts_with(report.at("gamebatch_version").get<std::string>(), "0."));
  EXPECT_EQ(report.at("options").at("problem"), "willow");
  EXPECT_EQ(report.at("options").at("cache"), "c.cache");
  EXPECT_EQ(report.at("options").at("paths"), nlohmann::json({"set"}));
  ASSERT_EQ(report.at("files").size(), 5u);
  std::size_t rejected = 0;
  for (const nlohmann::json& file : report.at("files")) {
    EXPECT_EQ(file.at("game"), "willow");
    if (file.at("path") == "set/bad.in") {
      ++rejected;
      EXPECT_EQ(file.at("status"), "rejected");
      EXPECT_EQ(file.at("error").at("line"), 4);
      EXPECT_NE(file.at("error").at("message").get<std::string>().find("expected C_3 of case 1"),
                std::string::npos);
    } else {
      EXPECT_EQ(file.at("status"), "solved");
      EXPECT_EQ(file.at("cases"), 2);
      EXPECT_EQ(file.at("solved"), 2);
      EXPECT_GE(file.at("solve_seconds").get<double>(), 0.0);
      EXPECT_TRUE(fs::exists(at(file.at("answer").get<std::string>())));
    }
  }
  EXPECT_EQ(rejected, 1u);
  const Summary summary = summary_of(cold);
  const nlohmann::json& totals = report.at("totals");
  EXPECT_EQ(totals.at("files"), summary.files);
  EXPECT_EQ(totals.at("cases"), summary.cases);
  EXPECT_EQ(totals.at("solved"), summary.solved);
  EXPECT_EQ(totals.at("rejected"), 1);

  fs::remove(at("set/bad.in"));
  const Result warm = run({"solve", "--problem", "willow", "--cache", "c.cache",
                           "--cache-min-solve-us", "0", "--report", "reports/warm.json", "set"});
  EXPECT_EQ(warm.status, 0) << warm.err;
  const nlohmann::json again = nlohmann::json::parse(read_text(at("reports/warm.json")));
  ASSERT_EQ(again.at("files").size(), 4u);
  for (const nlohmann::json& file : again.at("files")) {
    EXPECT_EQ(file.at("status"), "cached");
    EXPECT_EQ(file.at("cached"), 2);
    EXPECT_EQ(file.at("solve_seconds"), 0.0);
  }
}

TEST_F(ScaleCliTest, AnswersAreTheSameForEveryThreadCountWithHugeAndSmallCasesMixed) {
  write_willow_set(at("set"), 40);
  std::mt19937_64 rng(3);
  // Cases big enough to run their own outer loop in parallel, between the small files.
  write_text(at("set/part1/big-a.in"), willow_file({willow_case(Shape::random, 1500, 10000, rng)}));
  write_text(at("set/part2/big-b.in"), willow_file({willow_case(Shape::path, 1200, 10000, rng),
                                                    willow_case(Shape::star, 1300, 10000, rng)}));
  std::map<std::string, std::string> first;
  for (const char* jobs : {"1", "2", "3"}) {
    const std::string out = cat("out-", jobs);
    const Result result =
        run({"solve", "--problem", "willow", "--no-cache", "--jobs", jobs, "--out", out, "set"});
    ASSERT_EQ(result.status, 0) << result.err;
    EXPECT_EQ(summary_of(result).files, 42u);
    const auto answers = answers_under(at(out));
    if (first.empty()) {
      first = answers;
    } else {
      EXPECT_EQ(answers, first) << "--jobs " << jobs;
    }
  }
}

// gen's line without its time ("; time: 0.012 s" before the newline), which varies.
std::string without_time(const std::string& line) {
  return std::regex_replace(line, std::regex("; time: [0-9.]+ s\n$"), "\n");
}

TEST_F(ScaleCliTest, GeneratedSetsAreReproducibleAndSolvable) {
  for (const char* game : {"willow", "doublemove", "wallgame", "boigame"}) {
    SCOPED_TRACE(game);
    const std::string first = cat("gen-", game, "-1"), second = cat("gen-", game, "-2");
    for (const std::string& out : {first, second}) {
      const Result result =
          run({"gen", game, "--count", "12", "--seed", "5", "--cases-per-file", "3", "--out", out});
      ASSERT_EQ(result.status, 0) << result.err;
      EXPECT_EQ(without_time(result.out), cat("wrote 12 files (36 cases) to ", out, "\n"));
    }
    EXPECT_EQ(answers_under(at(first)), answers_under(at(second)));
    // Again into the first: nothing changes, and the line says so; one file edited is written.
    EXPECT_EQ(
        without_time(run({"gen", game, "--count", "12", "--seed", "5", "--cases-per-file", "3",
                          "--out", first})
                         .out),
        cat("wrote nothing: the 12 files (36 cases) in ", first, " hold the same bytes already\n"));
    write_text(at(first) / cat(game, "-000004.in"), "edited\n");
    EXPECT_EQ(
        without_time(run({"gen", game, "--count", "12", "--seed", "5", "--cases-per-file", "3",
                          "--out", first})
                         .out),
        cat("wrote 1 of 12 files (36 cases) to ", first, "; 11 held the same bytes already\n"));
    EXPECT_EQ(answers_under(at(first)), answers_under(at(second)));
    EXPECT_EQ(files_under(at(first)).size(), 12u);
    EXPECT_EQ(*files_under(at(first)).begin(), cat(game, "-000001.in"));
    const Result solved = run({"solve", "--problem", game, "--no-cache", first});
    EXPECT_EQ(solved.status, 0) << solved.err;
    EXPECT_EQ(summary_of(solved).cases, 36u);
  }
  const Result wrong_game =
      run({"gen", "willow", "--count", "1", "--seed", "1", "--out", "x", "--size", "3"});
  EXPECT_EQ(wrong_game.status, 2);
  EXPECT_NE(wrong_game.err.find("--size"), std::string::npos) << wrong_game.err;
  EXPECT_FALSE(fs::exists(at("x")));
}

TEST_F(ScaleCliTest, RunConfigSolvesEveryJobAndReportsThem) {
  write_willow_set(at("project/sets/willow"), 3);
  EXPECT_EQ(run({"gen", "boigame", "--count", "4", "--seed", "1", "--out", "project/sets/boigame"})
                .status,
            0);
  write_text(at("project/run.toml"), R"(jobs = 2
cache = "state/answers.cache"
cache_min_solve_us = 0
report = "state/report.json"

[[job]]
game = "willow"
inputs = ["sets/willow/**/*.in"]
out = "answers/willow"

[[job]]
game = "boigame"
inputs = ["sets/boigame"]
out = "answers/boigame"
)");
  // From another working directory: paths are the config's.
  const Result result = run({"run", "project/run.toml"});
  ASSERT_EQ(result.status, 0) << result.err;
  const std::vector<std::string> lines = lines_of(result.err);
  ASSERT_EQ(lines.size(), 3u) << result.err;
  EXPECT_TRUE(starts_with(lines[0], "job 1 (willow): files: 3 cases: 6 solved: 6")) << lines[0];
  EXPECT_TRUE(starts_with(lines[1], "job 2 (boigame): files: 4 cases: 4")) << lines[1];
  EXPECT_EQ(summary_of(result).files, 7u);
  EXPECT_EQ(files_under(at("project/answers/willow")).size(), 3u);
  EXPECT_EQ(files_under(at("project/answers/boigame")).size(), 4u);
  const nlohmann::json report = nlohmann::json::parse(read_text(at("project/state/report.json")));
  EXPECT_EQ(report.at("command"), "run");
  EXPECT_EQ(report.at("files").size(), 7u);
  EXPECT_EQ(report.at("files")[6].at("job"), 2);
  EXPECT_EQ(report.at("files")[6].at("game"), "boigame");

  const Result warm = run({"run", "project/run.toml", "--quiet"});
  EXPECT_EQ(summary_of(warm).solved, 0u) << warm.err;
  EXPECT_EQ(summary_of(warm).cached, 10u) << warm.err;
  // The command line overrides the config's threshold: above every case, nothing is looked up.
  const Result overridden =
      run({"run", "project/run.toml", "--quiet", "--cache-min-solve-us", "1e9"});
  EXPECT_EQ(summary_of(overridden).solved, 10u) << overridden.err;
  EXPECT_EQ(summary_of(overridden).cached, 0u) << overridden.err;

  write_text(at("project/bad.toml"), "jobs = 2\n[[job]]\ngame = \"willow\"\ninputz = []\n");
  const Result bad = run({"run", "project/bad.toml"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("bad.toml:4: job 1: unknown key 'inputz'"), std::string::npos) << bad.err;
}

TEST_F(ScaleCliTest, ProgressLineSpansTheJobsOfARunAndYieldsToTheirSummaries) {
  write_slow_willow_file(at("project/slow/big.in"));
  write_willow_set(at("project/small"), 2);
  write_text(at("project/run.toml"), R"(cache = false
jobs = 1
[[job]]
game = "willow"
inputs = ["slow"]
[[job]]
game = "willow"
inputs = ["small"]
)");
  const Result result = run_on_terminal("run project/run.toml");
  ASSERT_EQ(result.status, 0) << result.err;
  // The files of both jobs count towards one line: 3 in all.
  EXPECT_NE(result.err.find("\rfiles 0/3  cases "), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("\r\033[Kjob 1 (willow): files: 1 cases: 12"), std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("\r\033[Kjob 2 (willow): files: 2 cases: 4"), std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("\r\033[Kfiles: 3 cases: 16 solved: 16"), std::string::npos)
      << result.err;
}

TEST_F(ScaleCliTest, ReportThatCannotBeCreatedIsAUsageError) {
  write_willow_set(at("set"), 1);
  write_text(at("blocker"), "a file, not a directory");
  const Result result =
      run({"solve", "--problem", "willow", "--no-cache", "--report", "blocker/run.json", "set"});
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_NE(result.err.find("blocker"), std::string::npos) << result.err;
}

TEST_F(ScaleCliTest, ThreeShardsThenMergeEqualOneRun) {
  write_willow_set(at("set"), 30);
  // Every case cached (these small cases are below the default --cache-min-solve-us).
  const Result whole = run({"solve", "--problem", "willow", "--cache", "whole.cache",
                            "--cache-min-solve-us", "0", "--out", "whole", "set"});
  ASSERT_EQ(whole.status, 0) << whole.err;

  std::size_t files = 0;
  for (int shard = 1; shard <= 3; ++shard) {
    const Result part =
        run({"solve", "--problem", "willow", "--cache", "shared.cache", "--cache-min-solve-us", "0",
             "--out", "sharded", "--shard", cat(shard, "/3"), "set"});
    ASSERT_EQ(part.status, 0) << part.err;
    const Summary summary = summary_of(part);
    EXPECT_GT(summary.files, 0u) << "shard " << shard << " got no input";
    EXPECT_EQ(summary.solved, summary.cases) << "shards overlap";
    files += summary.files;
    EXPECT_TRUE(fs::exists(at(cat("shared.cache.shard-", shard, "-of-3"))));
  }
  EXPECT_EQ(files, 30u);
  EXPECT_FALSE(fs::exists(at("shared.cache"))) << "shards write only their own cache files";
  EXPECT_EQ(answers_under(at("sharded")), answers_under(at("whole")));

  const Result merge = run({"cache", "merge", "merged.cache", "shared.cache.shard-1-of-3",
                            "shared.cache.shard-2-of-3", "shared.cache.shard-3-of-3"});
  ASSERT_EQ(merge.status, 0) << merge.err;
  const std::string whole_entries = exported(at("whole.cache"));
  EXPECT_GT(lines_of(whole_entries).size(), 30u);
  EXPECT_EQ(exported(at("merged.cache")), whole_entries);

  // The same shard again is warm from its own cache file.
  const Result again =
      run({"solve", "--problem", "willow", "--cache", "shared.cache", "--cache-min-solve-us", "0",
           "--out", "sharded", "--shard", "2/3", "set"});
  EXPECT_EQ(summary_of(again).solved, 0u) << again.err;
  EXPECT_GT(summary_of(again).cached, 0u) << again.err;
}

TEST_F(ScaleCliTest, SlurmArrayTaskChoosesTheShard) {
  write_willow_set(at("set"), 12);
  const Result by_option = run({"solve", "--problem", "willow", "--no-cache", "--out", "by-option",
                                "--shard", "2/3", "set"});
  ASSERT_EQ(by_option.status, 0) << by_option.err;
  ::setenv("SLURM_ARRAY_TASK_ID", "6", 1);  // --array=5-7: the second of three tasks
  ::setenv("SLURM_ARRAY_TASK_MIN", "5", 1);
  ::setenv("SLURM_ARRAY_TASK_COUNT", "3", 1);
  const Result by_slurm =
      run({"solve", "--problem", "willow", "--no-cache", "--out", "by-slurm", "set"});
  const Result option_wins =
      run({"solve", "--problem", "willow", "--no-cache", "--out", "all", "--shard", "1/1", "set"});
  ::setenv("SLURM_ARRAY_TASK_ID", "9", 1);  // --array=1,5,9: not contiguous
  ::setenv("SLURM_ARRAY_TASK_MIN", "1", 1);
  const Result gappy = run({"solve", "--problem", "willow", "--no-cache", "set"});
  ::unsetenv("SLURM_ARRAY_TASK_ID");
  ::unsetenv("SLURM_ARRAY_TASK_MIN");
  ::unsetenv("SLURM_ARRAY_TASK_COUNT");
  ASSERT_EQ(by_slurm.status, 0) << by_slurm.err;
  EXPECT_NE(by_slurm.err.find("shard 2/3"), std::string::npos) << by_slurm.err;
  EXPECT_EQ(answers_under(at("by-slurm")), answers_under(at("by-option")));
  EXPECT_EQ(summary_of(option_wins).files, 12u) << "--shard overrides the Slurm variables";
  EXPECT_EQ(gappy.status, 2);
  EXPECT_NE(gappy.err.find("--shard I/N"), std::string::npos) << gappy.err;
}

TEST_F(ScaleCliTest, BadShardIsAUsageError) {
  write_willow_set(at("set"), 1);
  for (const char* shard : {"0/3", "4/3", "3", "x/y", "1/0"}) {
    const Result result =
        run({"solve", "--problem", "willow", "--no-cache", "--shard", shard, "set"});
    EXPECT_EQ(result.status, 2) << shard;
    EXPECT_NE(result.err.find("I/N"), std::string::npos) << result.err;
  }
}

TEST_F(ScaleCliTest, NoProgressLineWhenStderrIsNotATerminal) {
  write_willow_set(at("set"), 20);
  const Result result = run({"solve", "--problem", "willow", "--no-cache", "set"});
  EXPECT_EQ(result.status, 0);
  EXPECT_EQ(result.err.find('\r'), std::string::npos) << result.err;
  EXPECT_EQ(lines_of(result.err).size(), 1u) << "only the summary line:\n" << result.err;
}

TEST_F(ScaleCliTest, ProgressLineOnATerminalUnlessQuiet) {
  write_slow_willow_file(at("slow/big.in"));
  const Result shown = run_on_terminal("solve --problem willow --no-cache --jobs 1 slow");
  ASSERT_EQ(shown.status, 0) << shown.err;
  EXPECT_NE(shown.err.find("\rfiles 0/1  cases "), std::string::npos) << shown.err;
  EXPECT_NE(shown.err.find("cases/s  cached 0  errors 0  ETA "), std::string::npos) << shown.err;
  // Erased before the summary, which stands on a line of its own.
  EXPECT_NE(shown.err.find("\r\033[Kfiles: 1 cases: 12 solved: 12"), std::string::npos)
      << shown.err;

  const Result quiet = run_on_terminal("solve --problem willow --no-cache --jobs 1 --quiet slow");
  ASSERT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_EQ(quiet.err.find("cases/s"), std::string::npos) << quiet.err;
  EXPECT_NE(quiet.err.find("files: 1 cases: 12 solved: 12"), std::string::npos) << quiet.err;
}

}  // namespace
