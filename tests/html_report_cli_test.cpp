// End-to-end: the --html pages of solve, run, check and stress, written by the real binary and
// loaded from the file by a real browser (headless Chromium, Debian's `chromium`), whose DOM is
// checked: what a person would see, and that names and outputs stay text. Where Chromium is not
// installed the pages are still checked as text, then the test is skipped saying so.
//
// GAMEBATCH_SCREENSHOT_DIR=DIR keeps each page's screenshot as DIR/html-report-KIND.png.
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"
#include "cli_solutions.hpp"

namespace {

using namespace gamebatch::testing;

constexpr const char* kNoChromium =
    "chromium is not on PATH: the page was checked as text but not rendered in a browser "
    "(apt-get install chromium; tools/dev.sh test installs it)";

// The headless browser on PATH, or nullopt.
std::optional<fs::path> find_chromium() {
  const char* path = std::getenv("PATH");
  std::istringstream directories(path == nullptr ? "" : path);
  for (std::string directory; std::getline(directories, directory, ':');) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      const fs::path candidate = fs::path(directory) / name;
      if (!directory.empty() && ::access(candidate.c_str(), X_OK) == 0)
        return candidate;
    }
  }
  return std::nullopt;
}

class HtmlReportCliTest : public CliTest {
 protected:
  std::vector<std::string> browser_command(const fs::path& page) const {
    return {chromium_->string(),
            "--headless",
            "--no-sandbox",  // tests may run as root, where the sandbox refuses to start
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--user-data-dir=" + (root_ / "chromium-profile").string(),
            "file://" + fs::absolute(page).string()};
  }

  // The DOM Chromium built from the page, serialized (text nodes escaped as in HTML).
  std::string rendered_dom(const fs::path& page) const {
    std::vector<std::string> command = browser_command(page);
    command.insert(command.end() - 1, "--dump-dom");
    const Result result = finish(start_program(command, "chromium"), "chromium");
    EXPECT_EQ(result.status, 0) << result.err;
    EXPECT_NE(result.out.find("</html>"), std::string::npos) << result.err;
    return result.out;
  }

  // Takes a 1200 x 1600 screenshot of the page and checks it is a PNG of some substance.
  void take_screenshot(const fs::path& page, const std::string& kind) const {
    const fs::path png = root_ / ("html-report-" + kind + ".png");
    std::vector<std::string> command = browser_command(page);
    command.insert(command.end() - 1, {"--screenshot=" + png.string(), "--window-size=1200,1600"});
    const Result result = finish(start_program(command, "screenshot"), "screenshot");
    ASSERT_EQ(result.status, 0) << result.err;
    const std::string bytes = read_text(png);
    ASSERT_GT(bytes.size(), 10'000u);
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    if (const char* keep = std::getenv("GAMEBATCH_SCREENSHOT_DIR"))
      fs::copy_file(png, fs::path(keep) / png.filename(), fs::copy_options::overwrite_existing);
  }

  const std::optional<fs::path> chromium_ = find_chromium();
};

TEST_F(HtmlReportCliTest, SolvePageShowsTheHistogramAndSlowestFilesAndKeepsNamesAsText) {
  ASSERT_EQ(
      run({"gen", "willow", "--count", "60", "--seed", "3", "--cities", "2..30", "--out", "set"})
          .status,
      0);
  // An input named like a script element (a directory "<script>alert(1)<" holding
  // "script>.in"), the slowest file (50 cases), and a rejected one named like an image with a
  // handler.
  write_text(at("set/<script>alert(1)</script>.in"), read_test_file("willow/D-small-practice.in"));
  write_text(at("set/<img src=x onerror=alert(1)>.in"), "1\n3\n5\n7\n");
  const Result result = run({"solve", "-p", "willow", "--no-cache", "--report", "r.json", "--html",
                             "pages/solve.html", "set"});
  ASSERT_EQ(result.status, 1) << result.err;
  EXPECT_TRUE(fs::exists(at("set/<script>alert(1)</script>.ans")));

  const std::string html = read_text(at("pages/solve.html"));
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  // The summary line of stderr, from the same totals as the JSON report's.
  const nlohmann::json totals = nlohmann::json::parse(read_text(at("r.json"))).at("totals");
  EXPECT_EQ(totals.at("files"), 62);
  EXPECT_NE(html.find(lines_of(result.err).back()), std::string::npos) << result.err;

  if (!chromium_)
    GTEST_SKIP() << kNoChromium;
  const std::string dom = rendered_dom(at("pages/solve.html"));
  EXPECT_NE(dom.find("<h2>Solve time per file</h2>"), std::string::npos);
  EXPECT_NE(dom.find("aria-label=\"histogram of per-file solve time of willow\""),
            std::string::npos);
  EXPECT_GE(occurrences(dom, "<rect class=\"bar\""), 3u);
  EXPECT_NE(dom.find("<h2>The 20 slowest files</h2>"), std::string::npos);
  EXPECT_NE(dom.find("set/willow-"), std::string::npos);
  EXPECT_NE(dom.find(lines_of(result.err).back()), std::string::npos);
  // The names are text in the DOM: escaped when serialized, and no element made of them.
  EXPECT_NE(dom.find("set/&lt;script&gt;alert(1)&lt;/script&gt;.in"), std::string::npos);
  EXPECT_NE(dom.find("set/&lt;img src=x onerror=alert(1)&gt;.in:4: expected C_3 of case 1"),
            std::string::npos);
  EXPECT_EQ(dom.find("<script"), std::string::npos);
  EXPECT_EQ(dom.find("<img"), std::string::npos);
  take_screenshot(at("pages/solve.html"), "solve");
}

// The measure: a page for 20,000 files stays far under 2 MB and renders its histogram and
// slowest files.
TEST_F(HtmlReportCliTest, SolvePageOfTwentyThousandFilesIsSmallAndRenders) {
  ASSERT_EQ(run({"gen", "willow", "--count", "20000", "--seed", "11", "--out", "big"}).status, 0);
  const Result result =
      run({"solve", "-p", "willow", "--no-cache", "--quiet", "--html", "big.html", "big"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(summary_of(result).files, 20'000u);
  const std::string html = read_text(at("big.html"));
  EXPECT_LT(html.size(), std::size_t{2} << 20);
  EXPECT_NE(html.find(lines_of(result.err).back()), std::string::npos);
  if (!chromium_)
    GTEST_SKIP() << kNoChromium;
  const std::string dom = rendered_dom(at("big.html"));
  EXPECT_GE(occurrences(dom, "<rect class=\"bar\""), 3u);
  EXPECT_NE(dom.find("<h2>The 20 slowest files</h2>"), std::string::npos);
  EXPECT_GE(occurrences(dom, "<td class=\"path\">big/willow-"), 20u);
}

TEST_F(HtmlReportCliTest, RunWritesThePageTheConfigNamesOrTheCommandLines) {
  write_text(at("cfg/set/sample.in"), read_test_file("willow/sample.in"));
  write_text(at("cfg/set/walls.in"), read_test_file("wallgame/examples.in"));
  write_text(at("cfg/run.toml"),
             "cache = false\nhtml = \"out/page.html\"\n"
             "[[job]]\ngame = \"willow\"\ninputs = [\"set/sample.in\"]\n"
             "[[job]]\ngame = \"wallgame\"\ninputs = [\"set/walls.in\"]\n");
  ASSERT_EQ(run({"run", "cfg/run.toml"}).status, 0);
  const std::string html = read_text(at("cfg/out/page.html"));
  EXPECT_NE(html.find("<h1>gamebatch run: willow, wallgame</h1>"), std::string::npos);
  EXPECT_NE(html.find("<th>options.config</th><td class=\"mono\">cfg/run.toml</td>"),
            std::string::npos);

  ASSERT_EQ(run({"run", "cfg/run.toml", "--html", "elsewhere.html"}).status, 0);
  EXPECT_NE(read_text(at("elsewhere.html")).find("<h3>wallgame</h3>"), std::string::npos);
}

// As a --report that cannot be created: a usage error found before any work, not after it.
TEST_F(HtmlReportCliTest, APageThatCannotBeWrittenStopsTheCommandBeforeItsWork) {
  write_text(at("set/sample.in"), read_test_file("willow/sample.in"));
  write_text(at("blocker"), "a file where a directory should be\n");
  for (const std::vector<std::string>& command : std::vector<std::vector<std::string>>{
           {"solve", "-p", "willow", "--no-cache", "--html", "blocker/r.html", "set"},
           {"check", "-p", "willow", "--no-cache", "-s", "cat", "--html", "blocker/r.html", "set"},
           {"stress", "-p", "willow", "-s", "cat", "--out", "found", "--html", "blocker/r.html"}}) {
    SCOPED_TRACE(command.front());
    const Result result = run(command);
    EXPECT_EQ(result.status, 2);
    EXPECT_EQ(
        count_containing(error_lines(result.err), "cannot write the HTML page blocker/r.html"), 1u)
        << result.err;
  }
  EXPECT_FALSE(fs::exists(at("set/sample.ans")));
  EXPECT_FALSE(fs::exists(at("found")));
  // A page in a directory that does not exist yet is written there.
  ASSERT_EQ(run({"solve", "-p", "willow", "--no-cache", "--html", "new/dir/r.html", "set"}).status,
            0);
  EXPECT_TRUE(fs::exists(at("new/dir/r.html")));
  EXPECT_EQ(files_under(at("new/dir")), std::set<std::string>{"r.html"});  // no probe left
}

TEST_F(HtmlReportCliTest, CheckPageShowsAllFiveVerdictsAndOutputAsText) {
  write_text(at("set/sample.in"), read_test_file("willow/sample.in"));
  write_text(at("set/<script>alert(1)</script>.in"), read_test_file("willow/sample.in"));
  const std::vector<std::string> solutions = {
      kReference + " willow",                                      // AC
      "cat >/dev/null; echo '<b id=\"injected\">Case #1: 2</b>'",  // WA, printing markup
      kFaulty + " loop",                                           // TLE
      kFaulty + " hog-forever",                                    // MLE
      kFaulty + " segfault",                                       // RE
  };
  std::vector<std::string> args = {
      "check",          "-p",         "willow",    "--no-cache", "--time-limit", "0.5",
      "--memory-limit", "64",         "--jobs",    "2",          "--report",     "check.json",
      "--html",         "check.html", "--all-runs"};  // a cell for every run
  for (const std::string& solution : solutions)
    args.insert(args.end(), {"--solution", solution});
  args.push_back("set");
  const Result result = run(args);
  ASSERT_EQ(result.status, 1) << result.err;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("check.json")));
  const std::vector<std::string> wanted = {"AC", "WA", "TLE", "MLE", "RE"};
  for (std::size_t s = 0; s < solutions.size(); ++s)
    EXPECT_EQ(report["solutions"][s]["counts"][wanted[s]], 2) << solutions[s];

  const std::string html = read_text(at("check.html"));
  EXPECT_EQ(html.find("<b id="), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  // The WA's case, small enough to draw, drawn with its optimal play.
  EXPECT_NE(html.find("<h2>Wrong answers played out</h2>"), std::string::npos);
  EXPECT_NE(html.find("<svg xmlns="), std::string::npos);
  EXPECT_NE(html.find("<p class=\"note\">optimal play</p>"), std::string::npos);
  if (!chromium_)
    GTEST_SKIP() << kNoChromium;
  const std::string dom = rendered_dom(at("check.html"));
  // Each verdict in two cells of the matrix (one per file).
  for (const std::string& verdict : wanted) {
    EXPECT_EQ(occurrences(dom, "<td class=\"c-" + verdict + "\"><span class=\"badge b-" + verdict +
                                   "\">" + verdict + "</span>"),
              2u)
        << verdict;
  }
  EXPECT_NE(dom.find("case 1: expected <code>Case #1: "), std::string::npos);
  EXPECT_NE(dom.find("got <code>&lt;b id=\"injected\"&gt;Case #1:</code>"), std::string::npos);
  EXPECT_NE(dom.find("killed by signal 11 (SIGSEGV)"), std::string::npos);
  // How the programs ran: in the sandbox (the default), its guards named.
  EXPECT_NE(dom.find("The programs ran in a <b>sandbox</b>"), std::string::npos);
  EXPECT_NE(dom.find("sandbox.namespaces"), std::string::npos);
  EXPECT_NE(dom.find("set/&lt;script&gt;alert(1)&lt;/script&gt;.in"), std::string::npos);
  EXPECT_EQ(dom.find("<b id="), std::string::npos);
  EXPECT_EQ(dom.find("<script"), std::string::npos);
  EXPECT_EQ(occurrences(dom, "class=\"limit\""), solutions.size());  // times against the limit
  take_screenshot(at("check.html"), "check");
}

TEST_F(HtmlReportCliTest, StressPageShowsTheCounterexampleBeforeAndAfterShrinking) {
  const Result result =
      run({"stress", "-p", "willow", "-s", kWrong + " willow", "--cities", "20..40", "--count",
           "200", "--seed", "5", "--out", "found", "--html", "stress.html"});
  ASSERT_EQ(result.status, 1) << result.out << result.err;
  const std::string shrunk = read_text(at("found/counterexample.in"));
  const std::string html = read_text(at("stress.html"));
  EXPECT_NE(html.find("<pre>" + shrunk + "</pre>"), std::string::npos);
  // "stress: case K of seed 5 fails: WA on case 1: expected '...', got '...'"
  EXPECT_NE(html.find(std::regex_replace(lines_of(result.out).front(), std::regex("'"), "&#39;")),
            std::string::npos)
      << result.out;
  // The shrunk case drawn and played out, ending with the answer explain gives.
  EXPECT_NE(html.find("<h2>The shrunk counterexample played out</h2>"), std::string::npos);
  EXPECT_NE(html.find("<svg xmlns="), std::string::npos);
  const Result play = run({"explain", "-p", "willow", "found/counterexample.in", "--case", "1"});
  ASSERT_EQ(play.status, 0) << play.err;
  EXPECT_NE(html.find(lines_of(play.out).back() + "\n</pre>"), std::string::npos) << play.out;

  if (!chromium_)
    GTEST_SKIP() << kNoChromium;
  const std::string dom = rendered_dom(at("stress.html"));
  EXPECT_NE(dom.find("<h2>The counterexample, before and after shrinking</h2>"), std::string::npos);
  EXPECT_NE(dom.find("of seed 5</h3>"), std::string::npos);
  EXPECT_NE(dom.find("<pre>" + shrunk + "</pre>"), std::string::npos);
  EXPECT_NE(dom.find("<div class=\"label\">seed</div>"), std::string::npos);
  take_screenshot(at("stress.html"), "stress");
}

}  // namespace
