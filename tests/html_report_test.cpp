// The --html pages as strings (report/html_page.hpp's parts, the pages of solve/, judge/ and
// package/): escaping, the bounded aggregates of the solve page, and what the check and stress
// pages show. The pages in a real browser:
// tests/html_report_cli_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "io/problem.hpp"
#include "pipeline/judge/judge_pages.hpp"
#include "pipeline/package/package_pages.hpp"
#include "pipeline/report/html_page.hpp"
#include "pipeline/solve/solve_page.hpp"
#include "test_data.hpp"

namespace gamebatch::pipeline {
namespace {

using gamebatch::testing::cat;
using gamebatch::testing::occurrences;

// A file's report as the solve run hands it over.
struct FileRecord {
  std::filesystem::path input;
  std::filesystem::path answer;
  FileStatus status = FileStatus::solved;
  std::size_t cases = 1, solved = 1, cached = 0;
  double seconds = 0;
  std::size_t line = 0;
  std::string error{};

  FileReport report(std::string_view game = "willow") const {
    return FileReport{input, answer, game, status, cases, solved, cached, seconds, line, error};
  }
};

TEST(EscapeHtmlTest, ReplacesEveryCharacterWithAMeaningInMarkup) {
  EXPECT_EQ(escape_html("<script>alert(1)</script>.in"),
            "&lt;script&gt;alert(1)&lt;/script&gt;.in");
  EXPECT_EQ(escape_html("a & b \"c\" 'd'"), "a &amp; b &quot;c&quot; &#39;d&#39;");
  EXPECT_EQ(escape_html("plain/path-1.in"), "plain/path-1.in");
  EXPECT_EQ(escape_html(""), "");
}

TEST(TimeBucketTest, PutsTimesOnALogScaleOfFiveBucketsPerDecade) {
  EXPECT_EQ(time_bucket(1e-6), 0u);
  EXPECT_EQ(time_bucket(1e-9), 0u);  // below the scale: the first bucket
  EXPECT_EQ(time_bucket(1e-3), 15u);
  EXPECT_EQ(time_bucket(1.0), 30u);
  EXPECT_EQ(time_bucket(2.0), 31u);               // log10(2) = 0.30: the second fifth of the decade
  EXPECT_EQ(time_bucket(1e9), kTimeBuckets - 1);  // above: the last
}

TEST(SolvePageTest, KeepsOnlyTheSlowestFilesAndTheFirstRejectedOnes) {
  SolvePage page;
  constexpr int kFiles = 5000;
  for (int k = 0; k < kFiles; ++k) {
    FileRecord file{cat("set/", k, ".in"), cat("set/", k, ".ans")};
    // Times spread over the range with no order: k * 7919 mod kFiles.
    file.seconds = 1e-4 * (1 + (k * 7919) % kFiles);
    page.add_file(file.report(), 1);
  }
  for (int k = 0; k < 150; ++k) {
    FileRecord bad{cat("bad/", k, ".in"), cat("bad/", k, ".ans")};
    bad.status = FileStatus::rejected;
    bad.cases = bad.solved = 0;
    bad.line = 3;
    bad.error = "expected C_2 of case 1";
    page.add_file(bad.report(), 1);
  }
  const std::vector<SolvePage::TimedFile> slowest = page.slowest_files();
  ASSERT_EQ(slowest.size(), SolvePage::kSlowest);
  for (std::size_t rank = 0; rank < slowest.size(); ++rank)
    EXPECT_DOUBLE_EQ(slowest[rank].solve_seconds, 1e-4 * static_cast<double>(kFiles - rank));
  EXPECT_EQ(page.rejected().size(), SolvePage::kRejectedShown);
  EXPECT_EQ(page.rejected_not_kept(), 50u);
  EXPECT_EQ(page.rejected().front().path, "bad/0.in");

  ASSERT_EQ(page.games().size(), 1u);
  const SolvePage::GameTally& willow = page.games().front();
  EXPECT_EQ(willow.files, static_cast<std::size_t>(kFiles + 150));
  EXPECT_EQ(willow.solved_files, static_cast<std::size_t>(kFiles));
  EXPECT_EQ(willow.rejected_files, 150u);
  EXPECT_EQ(willow.untimed_files, 150u);
  std::size_t in_histogram = 0;
  for (const std::size_t count : willow.histogram)
    in_histogram += count;
  EXPECT_EQ(in_histogram, static_cast<std::size_t>(kFiles));
}

TEST(SolvePageTest, RanksCasesByTheirFilesTimePerSolvedCase) {
  SolvePage page;
  FileRecord many{"many.in", "many.ans"};  // slowest file, fast cases
  many.cases = many.solved = 50;
  many.seconds = 5;
  FileRecord one{"one.in", "one.ans"};  // one slow case
  one.seconds = 2;
  FileRecord cached{"cached.in", "cached.ans", FileStatus::cached, 3, 0, 3, 0};
  for (const FileRecord* file : {&many, &one, &cached})
    page.add_file(file->report(), 1);
  EXPECT_EQ(page.slowest_files().front().path, "many.in");
  ASSERT_EQ(page.slowest_per_case().size(), 2u);  // the cached file solved nothing
  EXPECT_EQ(page.slowest_per_case().front().path, "one.in");
  EXPECT_DOUBLE_EQ(page.slowest_per_case().back().key, 0.1);
  EXPECT_EQ(page.games().front().cached_files, 1u);
  EXPECT_EQ(page.games().front().cached_cases, 3u);
}

TEST(SolvePageTest, RendersEveryGameAndEscapesNamesAndMessages) {
  SolvePage page;
  FileRecord evil{"set/<script>alert(1)</script>.in", "set/x.ans"};
  evil.seconds = 0.25;
  FileRecord broken{
      "set/<img src=x onerror=alert(2)>.in", "set/y.ans", FileStatus::rejected, 0, 0, 0, 0, 4,
      "expected </pre><b>bold</b>"};
  FileRecord wall{"walls/a.in", "walls/a.ans"};
  wall.seconds = 0.003;
  page.add_file(evil.report(), 1);
  page.add_file(broken.report(), 1);
  page.add_file(wall.report("wallgame"), 2);
  RunSummary totals{.files = 3,
                    .cases = 2,
                    .solved = 2,
                    .cached = 0,
                    .rejected = 1,
                    .finished = 3,
                    .seconds = 1.5};
  const nlohmann::json header = {{"gamebatch_version", "9.9.9"},
                                 {"command", "run"},
                                 {"options", {{"config", "<cfg>.toml"}, {"jobs", 2}}}};
  const std::string html = page.render(header, totals);
  EXPECT_EQ(occurrences(html, "<script"), 0u);
  EXPECT_EQ(occurrences(html, "<img"), 0u);
  EXPECT_EQ(occurrences(html, "<b>bold"), 0u);
  EXPECT_NE(html.find("set/&lt;script&gt;alert(1)&lt;/script&gt;.in"), std::string::npos);
  EXPECT_NE(html.find("set/&lt;img src=x onerror=alert(2)&gt;.in:4: expected &lt;/pre&gt;"),
            std::string::npos);
  EXPECT_NE(html.find("&lt;cfg&gt;.toml"), std::string::npos);
  EXPECT_NE(html.find("files: 3 cases: 2 solved: 2 cached: 0 rejected: 1 time: 1.500 s"),
            std::string::npos);
  EXPECT_NE(html.find("<h3>willow</h3>"), std::string::npos);
  EXPECT_NE(html.find("<h3>wallgame</h3>"), std::string::npos);
  EXPECT_EQ(occurrences(html, "aria-label=\"histogram of per-file solve time"), 2u);
  EXPECT_NE(html.find("9.9.9"), std::string::npos);
  EXPECT_EQ(html.find("http://") == std::string::npos ||
                html.find("http://") == html.find("http://www.w3.org/2000/svg"),
            true)
      << "nothing but the SVG namespace may name a URL";
}

TEST(SolvePageTest, StaysSmallForTwentyThousandFiles) {
  SolvePage page;
  for (int k = 0; k < 20'000; ++k) {
    FileRecord file{cat("sets/willow/willow-", k, ".in"), cat("sets/willow/willow-", k, ".ans")};
    file.seconds = 1e-5 * (1 + k % 997);
    page.add_file(file.report(), 1);
  }
  const std::string html = page.render({{"command", "solve"}}, RunSummary{20'000, 20'000});
  EXPECT_LT(html.size(), std::size_t{200'000});
  // One table of the slowest files; with one case each, they are the slowest cases too.
  EXPECT_EQ(occurrences(html, "<tr><td class=\"num\">"), SolvePage::kSlowest);
  EXPECT_NE(html.find("the slowest cases are the slowest files above"), std::string::npos);
}

RunVerdict verdict_of(Verdict kind, double seconds, std::string detail = "") {
  RunVerdict verdict;
  verdict.verdict = kind;
  verdict.seconds = seconds;
  verdict.peak_mb = 3.5;
  verdict.detail = std::move(detail);
  return verdict;
}

TEST(CheckPageTest, ShowsEveryVerdictInTheMatrixWithTheWrongAnswersCase) {
  CheckOptions options;
  options.problem = io::find_problem("willow");
  options.inputs = io::InputList({{"set/a.in", "set/a.ans"}, {"set/<b>.in", "set/b.ans"}});
  options.limits.time_limit_seconds = 1;
  CheckResult result;
  RunVerdict wrong = verdict_of(Verdict::wrong_answer, 0.02, "wrong answer");
  wrong.case_number = 2;
  wrong.expected = "Case #2: -2";
  wrong.got = "<b id=\"injected\">Case #2: 1</b>";
  const auto solution = [](std::string command, std::vector<std::optional<RunVerdict>> files) {
    SolutionVerdicts verdicts;
    verdicts.name = command;
    verdicts.command = std::move(command);
    verdicts.files = std::move(files);
    return verdicts;
  };
  result.solutions = {
      solution("./good",
               {verdict_of(Verdict::accepted, 0.01), verdict_of(Verdict::accepted, 0.02)}),
      solution("echo '<i>html</i>'", {wrong, verdict_of(Verdict::accepted, 0.01)}),
      solution("./slow",
               {verdict_of(Verdict::time_limit, 1.4, "TLE: CPU time 1.40 s"), std::nullopt}),
      solution("./hog",
               {verdict_of(Verdict::memory_limit, 0.3, "MLE"), verdict_of(Verdict::accepted, 0.1)}),
      solution("./crash", {verdict_of(Verdict::runtime_error, 0.0, "killed by signal 11 (SIGSEGV)"),
                           verdict_of(Verdict::runtime_error, 0.0, "exit status 3")}),
  };
  result.solutions[0].meets = true;
  result.solutions[1].why_not = "expected AC on every file, got a failure on 1 file";
  result.time_limit_seconds = 1;
  result.time_limit_source = "--time-limit";
  const std::string html = check_page({{"gamebatch_version", "1.0"}}, options, result);
  for (const char* cell : {"<td class=\"c-AC\">", "<td class=\"c-WA\">", "<td class=\"c-TLE\">",
                           "<td class=\"c-MLE\">", "<td class=\"c-RE\">", "<td class=\"c-none\">"})
    EXPECT_NE(html.find(cell), std::string::npos) << cell;
  EXPECT_NE(html.find("case 2: expected <code>Case #2: -2</code> got <code>&lt;b "
                      "id=&quot;injected&quot;&gt;Case #2: 1&lt;/b&gt;</code>"),
            std::string::npos);
  EXPECT_EQ(occurrences(html, "<b id="), 0u);
  EXPECT_EQ(occurrences(html, "<i>html"), 0u);
  EXPECT_NE(html.find("set/&lt;b&gt;.in"), std::string::npos);
  EXPECT_NE(html.find("killed by signal 11 (SIGSEGV)"), std::string::npos);
  // One time chart per solution, each with the limit drawn.
  EXPECT_EQ(occurrences(html, "class=\"limit\""), 5u);
  EXPECT_NE(html.find("time limit 1 s of CPU (--time-limit)"), std::string::npos);
  // What each must get, whether it did, and why not.
  EXPECT_EQ(occurrences(html, "<td class=\"ok\">yes</td>"), 1u);
  EXPECT_NE(
      html.find("<code>echo &#39;&lt;i&gt;html&lt;/i&gt;&#39;</code>: expected AC on every file, "
                "got a failure on 1 file"),
      std::string::npos);
}

TEST(CheckPageTest, KeepsTheFailingFilesWhenThereAreTooManyToShow) {
  CheckOptions options;
  std::vector<io::InputFile> files;
  CheckResult result;
  result.solutions.emplace_back();
  result.solutions[0].name = "./s";
  for (std::size_t k = 0; k < kMatrixRows + 500; ++k) {
    files.push_back({cat("f", k, ".in"), cat("f", k, ".ans")});
    result.solutions[0].files.push_back(
        verdict_of(k % 700 == 699 ? Verdict::wrong_answer : Verdict::accepted, 0.01));
  }
  options.inputs = io::InputList(files);
  options.problem = io::find_problem("willow");
  const std::string html = check_page({}, options, result);
  // f699 and f1399 (past row kMatrixRows) failed: both shown, then the first passing files.
  EXPECT_EQ(occurrences(html, "<td class=\"c-WA\">"), 2u);
  EXPECT_EQ(occurrences(html, "<td class=\"c-AC\">"), kMatrixRows - 2);
  EXPECT_NE(html.find("500 files are left out"), std::string::npos);
}

TEST(StressPageTest, ShowsTheCounterexampleBeforeAndAfterShrinking) {
  StressOptions options;
  options.problem = io::find_problem("willow");
  options.seed = 5;
  options.count = 200;
  options.solution = "./wrong <willow>";
  StressResult result;
  result.cases_run = 3;
  result.failing_case_number = 3;
  FailingCase first;
  first.input = "1\n5\n1\n2\n3\n4\n5\n2\n3\n4\n5\n";
  first.expected = {"7"};
  first.verdict = verdict_of(Verdict::wrong_answer, 0.01);
  first.verdict.case_number = 1;
  first.verdict.expected = "Case #1: 7";
  first.verdict.got = "Case #1: 8";
  first.output = "Case #1: 8<script>\n";
  FailingCase shrunk = first;
  shrunk.input = "1\n3\n2\n1\n1\n2\n3\n";
  shrunk.expected = {"0"};
  result.first_failure = first;
  result.shrunk = shrunk;
  result.shrink_steps = 4;
  result.shrink_candidates_run = 31;
  const std::string html = stress_page({{"seed", "5"}}, options, result);
  EXPECT_NE(html.find("stress: case 3 of seed 5 fails: WA on case 1"), std::string::npos);
  EXPECT_NE(html.find("shrunk in 4 steps (31 smaller cases run)"), std::string::npos);
  EXPECT_NE(html.find("<pre>1\n5\n1\n2\n3\n4\n5\n2\n3\n4\n5\n</pre>"), std::string::npos);
  EXPECT_NE(html.find("<pre>1\n3\n2\n1\n1\n2\n3\n</pre>"), std::string::npos);
  EXPECT_NE(html.find("<pre>Case #1: 0\n</pre>"), std::string::npos);  // expected, shrunk
  EXPECT_NE(html.find("Case #1: 8&lt;script&gt;"), std::string::npos);
  EXPECT_NE(html.find("./wrong &lt;willow&gt;"), std::string::npos);
  EXPECT_EQ(occurrences(html, "<script"), 0u);
}

TEST(StressPageTest, SaysSoWhenEveryCasePassed) {
  StressOptions options;
  options.problem = io::find_problem("boigame");
  options.count = 20;
  StressResult result;
  result.cases_run = 20;
  const std::string html = stress_page({}, options, result);
  EXPECT_NE(html.find("stress: the solution passed all 20 cases (seed 1)"), std::string::npos);
  EXPECT_NE(html.find("No counterexample"), std::string::npos);
}

}  // namespace
}  // namespace gamebatch::pipeline
