// End-to-end: `gamebatch build PACKAGE` on the doublemove package source
// (tests/data/packages/kattis-doublemove, copied into each test's work directory): the data it
// writes in the Kattis and CMS layouts, what check makes of it, incremental rebuilds, tests that
// break their groups' limits, plan errors, files it did not write; validate and stress with the
// plan's groups.
#include <sys/stat.h>

#include <regex>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace {

using namespace gamebatch::testing;

// What a test needs of the plan: each group's name, points, direct includes and planned tests.
struct PlannedGroup {
  std::string name;
  double score = 0;
  std::vector<std::string> include;
  std::size_t tests = 0;
  std::vector<std::size_t> entry_lines;  // 1-based lines of its [[group.test]]
};

// A plain reading of gamebatch.toml's lines (the fixture's plan keeps one key per line).
std::vector<PlannedGroup> planned_groups(const std::string& plan) {
  std::vector<PlannedGroup> groups;
  const std::regex name(R"re(^name = "([^"]+)"$)re");
  const std::regex score(R"re(^score = ([0-9.]+)$)re");
  const std::regex include(R"re(^include = \[(.*)\]$)re");
  const std::regex count(R"re(^count = (\d+)$)re");
  const std::regex quoted(R"re("([^"]+)")re");
  std::size_t number = 0;
  for (const std::string& line : lines_of(plan)) {
    ++number;
    std::smatch match;
    if (line == "[[group]]") {
      groups.emplace_back();
    } else if (groups.empty()) {
      continue;
    } else if (line == "[[group.test]]") {
      groups.back().tests += 1;  // count = N adds N - 1 below
      groups.back().entry_lines.push_back(number);
    } else if (std::regex_match(line, match, name)) {
      groups.back().name = match[1];
    } else if (std::regex_match(line, match, score)) {
      groups.back().score = std::stod(match[1]);
    } else if (std::regex_match(line, match, count)) {
      groups.back().tests += std::stoul(match[1]) - 1;
    } else if (std::regex_match(line, match, include)) {
      const std::string names = match[1];
      for (std::sregex_iterator it(names.begin(), names.end(), quoted), end; it != end; ++it)
        groups.back().include.push_back((*it)[1]);
    }
  }
  return groups;
}

// The 1-based number of the first line of TEXT that contains NEEDLE (0: none).
std::size_t line_holding(const std::string& text, const std::string& needle) {
  std::size_t number = 0;
  for (const std::string& line : lines_of(text)) {
    ++number;
    if (line.find(needle) != std::string::npos)
      return number;
  }
  return 0;
}

// The values n of each case of a doublemove input: T, then per case "n k" and k pairs.
std::vector<long> doublemove_ns(const std::string& input) {
  std::istringstream stream(input);
  std::vector<long> ns;
  long cases = 0;
  stream >> cases;
  for (long c = 0; c < cases && stream; ++c) {
    long n = 0, k = 0;
    stream >> n >> k;
    ns.push_back(n);
    for (long d = 0; d < 2 * k; ++d) {
      long value = 0;
      stream >> value;
    }
  }
  return ns;
}

// Each regular file under a directory with its inode and last write time.
using Listing = std::map<std::string, std::pair<ino_t, fs::file_time_type>>;

Listing listing_of(const fs::path& dir) {
  Listing listing;
  for (const std::string& name : files_under(dir)) {
    struct stat info {};
    EXPECT_EQ(::stat((dir / name).c_str(), &info), 0) << name;
    listing[name] = {info.st_ino, fs::last_write_time(dir / name)};
  }
  return listing;
}

// The names whose inode or time differ, and those in only one of the listings.
std::set<std::string> changed_between(const Listing& before, const Listing& after) {
  std::set<std::string> changed;
  for (const auto& [name, stamp] : before) {
    const auto found = after.find(name);
    if (found == after.end() || found->second != stamp)
      changed.insert(name);
  }
  for (const auto& [name, stamp] : after) {
    if (before.count(name) == 0)
      changed.insert(name);
  }
  return changed;
}

class PackageBuildCliTest : public CliTest {
 protected:
  // A writable copy of tests/data/packages/kattis-doublemove at DESTINATION (in the work dir),
  // without what a build of the checkout's own copy wrote there (the demo suggests one).
  void copy_package(const std::string& destination = "pkg") const {
    fs::copy(fs::path(GAMEBATCH_TEST_DATA) / "packages" / "kattis-doublemove", at(destination),
             fs::copy_options::recursive);
    fs::remove_all(at(destination + "/data"));
    fs::remove(at(destination + "/gamebatch-build.json"));
    fs::remove(at(destination + "/.gamebatch-build.json"));
    fs::remove_all(at(destination + "/input_validators"));
    for (const auto& entry : fs::recursive_directory_iterator(at(destination)))
      fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
  }

  // Replaces the one occurrence of FROM in the copied plan by TO.
  void edit_plan(const std::string& from, const std::string& to,
                 const std::string& package = "pkg") const {
    const fs::path plan = at(package) / "gamebatch.toml";
    std::string text = read_text(plan);
    const std::size_t found = text.find(from);
    ASSERT_NE(found, std::string::npos) << from;
    ASSERT_EQ(text.find(from, found + 1), std::string::npos) << from;
    text.replace(found, from.size(), to);
    write_text(plan, text);
  }

  std::vector<PlannedGroup> plan_of(const std::string& package = "pkg") const {
    return planned_groups(read_text(at(package) / "gamebatch.toml"));
  }

  static nlohmann::json solution_named(const nlohmann::json& report, const std::string& name) {
    for (const nlohmann::json& solution : report["solutions"]) {
      if (solution["name"] == name)
        return solution;
    }
    ADD_FAILURE() << "no solution " << name << " in the report";
    return nlohmann::json::object();
  }

  // Group name -> verdict of a solution's entry of check's report.
  static std::map<std::string, std::string> verdicts_of(const nlohmann::json& solution) {
    std::map<std::string, std::string> verdicts;
    for (const nlohmann::json& group : solution["groups"])
      verdicts[group["name"]] = group["verdict"];
    return verdicts;
  }
};

const std::vector<std::pair<std::string, int>> kGroupPoints = {
    {"sample", 0}, {"tiny", 10}, {"small", 15}, {"medium", 20}, {"k0", 20}, {"full", 35}};

// The only test of the file that runs the brute force (its TLEs take most of its time).
TEST_F(PackageBuildCliTest, BuildThenCheckGivesEachSubmissionItsScore) {
  copy_package();
  const Result build = run({"build", "--no-cache", "pkg"});
  ASSERT_EQ(build.status, 0) << build.out << build.err;
  // One line per group, in plan order, with its points.
  const std::regex group_line(R"(^group ([a-z0-9_-]+): (\d+) tests?, .*; (\d+) points$)");
  std::vector<std::pair<std::string, int>> printed;
  for (const std::string& line : lines_of(build.out)) {
    std::smatch match;
    if (std::regex_match(line, match, group_line))
      printed.emplace_back(match[1], std::stoi(match[3]));
  }
  EXPECT_EQ(printed, kGroupPoints) << build.out;

  // The fixture's problem.yaml has no problem_format_version: the legacy format's group files.
  const std::string small_yaml = read_text(at("pkg/data/secret/small/testdata.yaml"));
  EXPECT_NE(small_yaml.find("accept_score: 15\n"), std::string::npos) << small_yaml;
  EXPECT_NE(small_yaml.find("grader_flags: min\n"), std::string::npos) << small_yaml;
  EXPECT_FALSE(fs::exists(at("pkg/data/secret/small/test_group.yaml")));
  // small's folder holds each of tiny's tests, as tiny-NAME.in with the same bytes.
  std::size_t tiny_tests = 0;
  for (const std::string& name : files_under(at("pkg/data/secret/tiny"))) {
    if (fs::path(name).extension() != ".in")
      continue;
    ++tiny_tests;
    SCOPED_TRACE(name);
    const fs::path copy = at("pkg/data/secret/small") / ("tiny-" + name);
    ASSERT_TRUE(fs::exists(copy));
    EXPECT_EQ(read_text(copy), read_text(at("pkg/data/secret/tiny") / name));
  }
  EXPECT_EQ(tiny_tests, plan_of()[1].tests);

  const Result check =
      run({"check", "-p", "doublemove", "--no-cache", "--report", "r.json", "pkg"});
  ASSERT_EQ(check.status, 0) << check.out << check.err;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("r.json")));
  EXPECT_TRUE(report["all_met"]);
  std::vector<std::string> report_groups;
  for (const nlohmann::json& group : report["groups"])
    report_groups.push_back(group["name"]);
  EXPECT_EQ(report_groups,
            (std::vector<std::string>{"sample", "tiny", "small", "medium", "k0", "full"}));
  const std::vector<std::pair<std::string, double>> scores = {
      {"accepted/full.cpp", 100}, {"partial/brute.cpp", 10}, {"partial/k0_table.cpp", 20}};
  for (const auto& [name, score] : scores) {
    SCOPED_TRACE(name);
    const nlohmann::json solution = solution_named(report, name);
    EXPECT_EQ(solution["score"], score);
    EXPECT_EQ(solution["max_score"], 100.0);
    EXPECT_TRUE(solution["meets"]) << solution.dump(1);
    ASSERT_EQ(solution["groups"].size(), kGroupPoints.size());
  }
  for (const auto& [group, verdict] : verdicts_of(solution_named(report, "accepted/full.cpp")))
    EXPECT_EQ(verdict, "AC") << group;
  const std::map<std::string, std::string> brute =
      verdicts_of(solution_named(report, "partial/brute.cpp"));
  EXPECT_EQ(brute.at("tiny"), "AC");
  for (const char* group : {"small", "medium", "k0", "full"})
    EXPECT_EQ(brute.at(group), "TLE") << group;
  const std::map<std::string, std::string> table =
      verdicts_of(solution_named(report, "partial/k0_table.cpp"));
  EXPECT_EQ(table.at("k0"), "AC");
  for (const char* group : {"tiny", "small", "medium", "full"})
    EXPECT_EQ(table.at(group), "WA") << group;
  // Each group's points in each solution's entry: its max_score, its score when AC.
  for (const nlohmann::json& solution : report["solutions"]) {
    for (std::size_t k = 0; k < kGroupPoints.size(); ++k) {
      const nlohmann::json& group = solution["groups"][k];
      SCOPED_TRACE(solution["name"].get<std::string>() + " " + kGroupPoints[k].first);
      EXPECT_EQ(group["name"], kGroupPoints[k].first);
      EXPECT_EQ(group["max_score"], static_cast<double>(kGroupPoints[k].second));
      EXPECT_EQ(group["score"],
                group["verdict"] == "AC" ? static_cast<double>(kGroupPoints[k].second) : 0.0);
      EXPECT_TRUE(group["meets"]);
    }
  }
  // The table's per-group block and totals.
  EXPECT_NE(check.out.find("AC 20"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("TLE 0"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("100/100"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("10/100"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("20/100"), std::string::npos) << check.out;
}

TEST_F(PackageBuildCliTest, ReportAndHtmlPageNameEveryGroup) {
  copy_package();
  const Result build =
      run({"build", "--no-cache", "--report", "build.json", "--html", "build.html", "pkg"});
  ASSERT_EQ(build.status, 0) << build.out << build.err;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("build.json")));
  EXPECT_EQ(report["schema"], "gamebatch-build/1");
  EXPECT_EQ(report["tests"], 19);
  ASSERT_EQ(report["groups"].size(), kGroupPoints.size());
  EXPECT_EQ(report["groups"][2]["name"], "small");
  EXPECT_EQ(report["groups"][2]["largest"]["n"], 10);
  const std::string page = read_text(at("build.html"));
  for (const auto& [name, points] : kGroupPoints)
    EXPECT_NE(page.find(">" + name + "<"), std::string::npos) << name;
  EXPECT_NE(page.find("n &le; 10"), std::string::npos);
}

TEST_F(PackageBuildCliTest, RebuildOfAnUnchangedPackageWritesNothing) {
  using namespace std::chrono_literals;
  copy_package();
  const Result first = run({"build", "--no-cache", "pkg"});
  ASSERT_EQ(first.status, 0) << first.err;
  const Listing built = listing_of(at("pkg"));
  std::this_thread::sleep_for(20ms);  // a rewrite would get a later time

  const Result again = run({"build", "--no-cache", "pkg"});
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.err.find("build: 19 tests, nothing to write: every file is as the plan makes it"),
            std::string::npos)
      << again.err;
  EXPECT_EQ(changed_between(built, listing_of(at("pkg"))), std::set<std::string>{});

  // One entry of small fewer (02-002) and one of k0 more (02-002): only their files change.
  const Listing data = listing_of(at("pkg/data"));
  edit_plan("--n 1..10 --k 1..11 --pattern mixed --cases-per-file 5\"\ncount = 2",
            "--n 1..10 --k 1..11 --pattern mixed --cases-per-file 5\"\ncount = 1");
  edit_plan("--n 1..35 --k 0 --cases-per-file 8\"\ncount = 1",
            "--n 1..35 --k 0 --cases-per-file 8\"\ncount = 2");
  std::this_thread::sleep_for(20ms);
  const Result edited = run({"build", "--no-cache", "pkg"});
  EXPECT_EQ(edited.status, 0) << edited.err;
  EXPECT_NE(edited.err.find("build: 19 tests: 1 made, 18 unchanged; 4 files written, 6 removed"),
            std::string::npos)
      << edited.err;
  const Listing after = listing_of(at("pkg/data"));
  EXPECT_EQ(
      changed_between(data, after),
      (std::set<std::string>{"secret/small/02-002.in", "secret/small/02-002.ans",
                             "secret/medium/small-02-002.in", "secret/medium/small-02-002.ans",
                             "secret/full/small-02-002.in", "secret/full/small-02-002.ans",
                             "secret/k0/02-002.in", "secret/k0/02-002.ans",
                             "secret/full/k0-02-002.in", "secret/full/k0-02-002.ans"}));
  EXPECT_FALSE(fs::exists(at("pkg/data/secret/small/02-002.in")));
  EXPECT_TRUE(fs::exists(at("pkg/data/secret/k0/02-002.in")));

  // New options for tiny's second entry: its one test is written again, in every folder that
  // holds it, and nothing else.
  edit_plan("--n 3..4 --k 1..2 --pattern uniform --cases-per-file 3",
            "--n 3..4 --k 1..2 --pattern uniform --cases-per-file 2");
  std::this_thread::sleep_for(20ms);
  const Result rewritten = run({"build", "--no-cache", "pkg"});
  EXPECT_EQ(rewritten.status, 0) << rewritten.err;
  EXPECT_NE(rewritten.err.find("build: 19 tests: 1 made, 18 unchanged; 8 files written, 0 removed"),
            std::string::npos)
      << rewritten.err;
  std::set<std::string> expected;
  for (const char* folder : {"tiny/", "small/tiny-", "medium/tiny-", "full/tiny-"}) {
    expected.insert(cat("secret/", folder, "02-001.in"));
    expected.insert(cat("secret/", folder, "02-001.ans"));
  }
  EXPECT_EQ(changed_between(after, listing_of(at("pkg/data"))), expected);
  EXPECT_EQ(doublemove_ns(read_text(at("pkg/data/secret/tiny/02-001.in"))).size(), 2u);
}

constexpr const char* kWrittenBy = "# Written by gamebatch build from gamebatch.toml.\n";

// Every file and directory name under `root` that problemtools rejects (it allows .gitignore).
std::vector<std::string> names_judges_reject(const fs::path& root) {
  const std::regex allowed("^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,254}$");
  std::vector<std::string> rejected;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string name = entry.path().filename().string();
    if (!std::regex_match(name, allowed) && name != ".gitignore")
      rejected.push_back(entry.path().lexically_relative(root).string());
  }
  return rejected;
}

// The fixture's problem.yaml has no problem_format_version: the legacy format's testdata.yaml,
// scored as problemtools' default grader scores them, each group's limits as its validator's
// flags; the build record is no dot file, and one under the old dot name is read (nothing is made
// again) and removed.
TEST_F(PackageBuildCliTest, LegacyPackageGetsTestdataYamlAndNoDotFile) {
  copy_package();
  const std::string problem_yaml = read_text(at("pkg/problem.yaml"));
  const Result build = run({"build", "--no-cache", "pkg"});
  ASSERT_EQ(build.status, 0) << build.out << build.err;
  EXPECT_EQ(read_text(at("pkg/data/testdata.yaml")),
            cat(kWrittenBy,
                "on_reject: continue\ngrading: default\n"
                "grader_flags: ignore_sample accept_if_any_accepted sum\n"));
  EXPECT_EQ(read_text(at("pkg/data/secret/testdata.yaml")),
            cat(kWrittenBy, "grader_flags: accept_if_any_accepted sum\n"));
  EXPECT_EQ(read_text(at("pkg/data/sample/testdata.yaml")),
            cat(kWrittenBy, "accept_score: 0\ngrader_flags: min\n"));
  // k0: its own limits; small: its own and those of the groups including it (medium, full).
  EXPECT_EQ(read_text(at("pkg/data/secret/k0/testdata.yaml")),
            cat(kWrittenBy,
                "grading: default\ngrader_flags: min\naccept_score: 20\n"
                "input_validator_flags: --n 1..35 --k 0..0\n"));
  EXPECT_EQ(read_text(at("pkg/data/secret/small/testdata.yaml")),
            cat(kWrittenBy,
                "grading: default\ngrader_flags: min\naccept_score: 15\n"
                "input_validator_flags: --n 1..10\n"));
  EXPECT_FALSE(fs::exists(at("pkg/data/secret/test_group.yaml")));
  // gamebatch's validator, as `gamebatch validator` prints it, a directory program of one source.
  const Result validator = run({"validator", "doublemove"});
  ASSERT_EQ(validator.status, 0) << validator.err;
  EXPECT_EQ(read_text(at("pkg/input_validators/gamebatch/validate.cpp")), validator.out);
  EXPECT_EQ(files_under(at("pkg/input_validators")),
            std::set<std::string>{"gamebatch/validate.cpp"});
  EXPECT_EQ(read_text(at("pkg/problem.yaml")), problem_yaml);  // it has every key legacy needs
  EXPECT_TRUE(fs::exists(at("pkg/gamebatch-build.json")));
  EXPECT_EQ(names_judges_reject(at("pkg")), std::vector<std::string>{});

  // A package an earlier gamebatch built: its record under the old name.
  fs::rename(at("pkg/gamebatch-build.json"), at("pkg/.gamebatch-build.json"));
  const Result again = run({"build", "--no-cache", "pkg"});
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.err.find("build: 19 tests, nothing to write"), std::string::npos) << again.err;
  EXPECT_TRUE(fs::exists(at("pkg/gamebatch-build.json")));
  EXPECT_FALSE(fs::exists(at("pkg/.gamebatch-build.json")));
}

// 2025-09 and 2023-07-draft: test_group.yaml with max_score, score_aggregation and
// input_validator_args, the secret's max_score the total; problem.yaml gets the uuid these
// versions require, appended after its bytes, once.
TEST_F(PackageBuildCliTest, DraftAnd2025PackagesGetTestGroupYamlAndAUuid) {
  for (const std::string version : {"2025-09", "2023-07-draft"}) {
    SCOPED_TRACE(version);
    const std::string package = "pkg-" + version;
    copy_package(package);
    // No final newline: the build adds one before its lines.
    const std::string original = "# kept as it is\nproblem_format_version: " + version +
                                 "\nname: doublemove\ntype: scoring  # subtasks\n"
                                 "limits: {time_limit: 1, memory: 512}";
    write_text(at(package + "/problem.yaml"), original);
    const Result build = run({"build", "--no-cache", package});
    ASSERT_EQ(build.status, 0) << build.out << build.err;
    const std::string completed = read_text(at(package + "/problem.yaml"));
    ASSERT_TRUE(completed.starts_with(original + "\n")) << completed;
    const std::regex added("# Added by gamebatch build: the " + version +
                           " format needs it\\.\nuuid: [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-"
                           "[89ab][0-9a-f]{3}-[0-9a-f]{12}\n");
    EXPECT_TRUE(std::regex_match(completed.substr(original.size() + 1), added)) << completed;
    EXPECT_NE(build.err.find("problem.yaml: added 'uuid: "), std::string::npos) << build.err;
    EXPECT_EQ(read_text(at(package + "/data/secret/small/test_group.yaml")),
              cat(kWrittenBy,
                  "max_score: 15\nscore_aggregation: min\n"
                  "input_validator_args: [\"--n\", \"1..10\"]\n"));
    EXPECT_EQ(read_text(at(package + "/data/secret/test_group.yaml")),
              cat(kWrittenBy, "max_score: 100\nscore_aggregation: sum\n"));
    EXPECT_FALSE(fs::exists(at(package + "/data/testdata.yaml")));
    EXPECT_FALSE(fs::exists(at(package + "/data/secret/small/testdata.yaml")));
    const Result again = run({"build", "--no-cache", package});
    EXPECT_EQ(again.status, 0) << again.err;
    EXPECT_NE(again.err.find("nothing to write"), std::string::npos) << again.err;
    EXPECT_EQ(read_text(at(package + "/problem.yaml")), completed);
  }
}

// What in problem.yaml contradicts the layout stops the build before anything is made, naming the
// line: a legacy time limit (problemtools rejects it), a type that is not scoring with points.
TEST_F(PackageBuildCliTest, ProblemYamlThatContradictsTheLayoutIsAUsageError) {
  copy_package();
  write_text(at("pkg/problem.yaml"), "name: doublemove\ntype: scoring\nlimits:\n  time_limit: 1\n");
  const Result legacy = run({"build", "--no-cache", "pkg"});
  EXPECT_EQ(legacy.status, 2) << legacy.err;
  EXPECT_NE(legacy.err.find("problem.yaml:4: limits.time_limit is not in the legacy Kattis format"),
            std::string::npos)
      << legacy.err;
  EXPECT_FALSE(fs::exists(at("pkg/data")));

  write_text(at("pkg/problem.yaml"), "name: doublemove\ntype: pass-fail\n");
  const Result pass_fail = run({"build", "--no-cache", "pkg"});
  EXPECT_EQ(pass_fail.status, 2) << pass_fail.err;
  EXPECT_NE(pass_fail.err.find("problem.yaml: its type is not scoring"), std::string::npos)
      << pass_fail.err;

  write_text(at("pkg/problem.yaml"), "problem_format_version: 2024-01\n");
  const Result unknown = run({"build", "--no-cache", "pkg"});
  EXPECT_EQ(unknown.status, 2) << unknown.err;
  EXPECT_NE(unknown.err.find("problem.yaml:1: problem_format_version '2024-01' is none"),
            std::string::npos)
      << unknown.err;

  // Without problem.yaml, the build writes one saying what the groups' points need.
  fs::remove(at("pkg/problem.yaml"));
  const Result created = run({"build", "--no-cache", "pkg"});
  EXPECT_EQ(created.status, 0) << created.err;
  EXPECT_EQ(read_text(at("pkg/problem.yaml")),
            "# Added by gamebatch build: the legacy format needs it.\ntype: scoring\n");
}

// A Kattis package built as CMS keeps its problem.yaml: check follows the layout its build record
// names instead of stopping at the marks of two layouts.
TEST_F(PackageBuildCliTest, CheckFollowsTheLayoutTheBuildRecordNames) {
  copy_package();
  ASSERT_EQ(run({"build", "--no-cache", "pkg"}).status, 0);
  const Result cms = run({"build", "--no-cache", "--layout", "cms", "pkg"});
  ASSERT_EQ(cms.status, 0) << cms.err;
  EXPECT_FALSE(fs::exists(at("pkg/data")));  // the Kattis build's files are removed
  const Result check = run({"check", "-p", "doublemove", "--no-cache", "--solution",
                            "pkg/submissions/accepted/full.cpp", "--report", "r.json", "pkg"});
  ASSERT_EQ(check.status, 0) << check.out << check.err;
  EXPECT_NE(check.err.find("read as cms, the layout its build record (gamebatch-build.json) names"),
            std::string::npos)
      << check.err;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("r.json")));
  EXPECT_EQ(report["package"]["layout"], "cms");
  EXPECT_EQ(report["solutions"][0]["score"], 100.0);
  // --layout still decides.
  const Result kattis = run({"check", "-p", "doublemove", "--no-cache", "--layout", "kattis",
                             "--solution", "pkg/submissions/accepted/full.cpp", "pkg"});
  EXPECT_EQ(kattis.err.find("build record"), std::string::npos) << kattis.err;
}

TEST_F(PackageBuildCliTest, ATestBreakingItsGroupsLimitStopsTheBuildByName) {
  copy_package();
  edit_plan("limits = { n = \"1..10\" }", "limits = { n = \"1..8\" }");
  const std::vector<PlannedGroup> plan = plan_of();
  ASSERT_EQ(plan[2].name, "small");
  const Result build = run({"build", "--no-cache", "pkg"});
  EXPECT_EQ(build.status, 1) << build.out << build.err;
  const std::vector<std::string> errors = error_lines(build.err);
  ASSERT_FALSE(errors.empty()) << build.err;
  const std::regex named(R"(data/secret/small/(\d\d-\d\d\d)\.in \(group small, entry (\d+), )"
                         R"(gamebatch\.toml:(\d+)\): .*requires 1 <= n <= 8)");
  for (const std::string& line : errors) {
    SCOPED_TRACE(line);
    std::smatch match;
    ASSERT_TRUE(std::regex_search(line, match, named));
    const std::string test = match[1];
    const std::size_t entry = std::stoul(match[2]);
    ASSERT_GE(entry, 1u);
    ASSERT_LE(entry, plan[2].entry_lines.size());
    EXPECT_EQ(std::stoul(match[3]), plan[2].entry_lines[entry - 1]);
    EXPECT_EQ(test.substr(0, 2), cat(entry < 10 ? "0" : "", entry));
    // Neither the test nor its copies in the groups including small are written.
    EXPECT_FALSE(fs::exists(at("pkg/data/secret/small/" + test + ".in")));
    EXPECT_FALSE(fs::exists(at("pkg/data/secret/small/" + test + ".ans")));
    EXPECT_FALSE(fs::exists(at("pkg/data/secret/medium/small-" + test + ".in")));
    EXPECT_FALSE(fs::exists(at("pkg/data/secret/full/small-" + test + ".in")));
  }
  // Every test of small that was written meets the new limit.
  for (const std::string& name : files_under(at("pkg/data/secret/small"))) {
    if (fs::path(name).extension() != ".in")
      continue;
    for (const long n : doublemove_ns(read_text(at("pkg/data/secret/small") / name)))
      EXPECT_LE(n, 8) << name;
  }
  EXPECT_NE(build.err.find("not written"), std::string::npos) << build.err;
}

TEST_F(PackageBuildCliTest, PlanErrorsAreUsageErrorsNamingFileLineAndKey) {
  struct Case {
    std::string from, to, key;
  };
  const std::vector<Case> cases = {
      {"seed = 7", "seed = 7\nsede = 3", "sede"},
      {"limits = { n = \"1..10\" }", "limits = { q = 3 }", "q"},
      {"game = \"doublemove\"", "game = \"nosuchgame\"", "game"},
  };
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const Case& one = cases[k];
    SCOPED_TRACE(one.key);
    const std::string package = cat("pkg", k);
    copy_package(package);
    edit_plan(one.from, one.to, package);
    // The line of the wrong key: the last line of the edit.
    const std::size_t line = line_holding(read_text(at(package) / "gamebatch.toml"),
                                          one.to.substr(one.to.rfind('\n') + 1));
    ASSERT_GT(line, 0u);
    const Result build = run({"build", "--no-cache", package});
    EXPECT_EQ(build.status, 2) << build.out << build.err;
    EXPECT_NE(build.err.find(cat("gamebatch.toml:", line, ":")), std::string::npos) << build.err;
    EXPECT_NE(build.err.find("'" + one.key + "'"), std::string::npos) << build.err;
    EXPECT_FALSE(fs::exists(at(package) / "data"));
  }
}

TEST_F(PackageBuildCliTest, CmsLayoutRegexesMatchExactlyEachGroupsCodenames) {
  copy_package();
  // The plan says kattis; --layout overrides it.
  ASSERT_NE(read_text(at("pkg/gamebatch.toml")).find("layout = \"kattis\""), std::string::npos);
  const Result build = run({"build", "--no-cache", "--layout", "cms", "pkg"});
  ASSERT_EQ(build.status, 0) << build.out << build.err;
  EXPECT_FALSE(fs::exists(at("pkg/data")));

  // Expected membership from the plan: the tests are numbered over the groups in order; a group
  // holds its own and those of the groups it includes (and theirs).
  const std::vector<PlannedGroup> plan = plan_of();
  ASSERT_EQ(plan.size(), kGroupPoints.size());
  std::vector<std::set<std::size_t>> members(plan.size());
  std::size_t next = 0;
  for (std::size_t g = 0; g < plan.size(); ++g) {
    for (std::size_t t = 0; t < plan[g].tests; ++t)
      members[g].insert(next++);
    for (const std::string& name : plan[g].include) {
      for (std::size_t h = 0; h < g; ++h) {
        if (plan[h].name == name)
          members[g].insert(members[h].begin(), members[h].end());
      }
    }
  }
  const std::size_t total = next;

  const std::string task = read_text(at("pkg/task.yaml"));
  std::size_t inputs = 0;
  for (const auto& entry : fs::directory_iterator(at("pkg/input"))) {
    EXPECT_TRUE(std::regex_match(entry.path().filename().string(), std::regex(R"(input\d+\.txt)")));
    ++inputs;
  }
  EXPECT_EQ(inputs, total);
  for (std::size_t k = 0; k < total; ++k)
    EXPECT_TRUE(fs::exists(at(cat("pkg/output/output", k, ".txt")))) << k;
  EXPECT_NE(task.find(cat("n_input: ", inputs, "\n")), std::string::npos) << task;
  EXPECT_NE(task.find("score_type: GroupMin\n"), std::string::npos) << task;

  const std::regex parameter(R"re(^- \[([0-9.]+), "([^"]*)"\].*$)re");
  std::vector<std::pair<double, std::string>> parameters;
  for (const std::string& line : lines_of(task)) {
    std::smatch match;
    if (std::regex_match(line, match, parameter))
      parameters.emplace_back(std::stod(match[1]), match[2]);
  }
  ASSERT_EQ(parameters.size(), plan.size()) << task;
  for (std::size_t g = 0; g < plan.size(); ++g) {
    SCOPED_TRACE(plan[g].name);
    EXPECT_EQ(parameters[g].first, plan[g].score);
    const std::regex pattern(parameters[g].second);
    std::set<std::size_t> matched;
    for (std::size_t k = 0; k < total + 10; ++k) {
      const std::string codename = cat(k < 10 ? "00" : k < 100 ? "0" : "", k);
      if (std::regex_match(codename, pattern))
        matched.insert(k);
    }
    EXPECT_EQ(matched, members[g]) << parameters[g].second;
  }

  // check judges the CMS copy by the same groups: the official solution gets every point.
  fs::create_directories(at("pkg/sol"));
  fs::copy_file(at("pkg/submissions/accepted/full.cpp"), at("pkg/sol/solution.cpp"));
  const Result check = run(
      {"check", "-p", "doublemove", "--layout", "cms", "--no-cache", "--report", "r.json", "pkg"});
  ASSERT_EQ(check.status, 0) << check.out << check.err;
  const nlohmann::json report = nlohmann::json::parse(read_text(at("r.json")));
  EXPECT_EQ(report["package"]["layout"], "cms");
  EXPECT_TRUE(report["all_met"]);
  ASSERT_EQ(report["solutions"].size(), 1u);
  const nlohmann::json& solution = report["solutions"][0];
  EXPECT_EQ(solution["name"], "sol/solution.cpp");
  EXPECT_EQ(solution["score"], 100.0);
  EXPECT_EQ(solution["max_score"], 100.0);
  ASSERT_EQ(solution["groups"].size(), plan.size());
  for (std::size_t g = 0; g < plan.size(); ++g) {
    const nlohmann::json& group = solution["groups"][g];
    SCOPED_TRACE(plan[g].name);
    EXPECT_EQ(group["name"], plan[g].name);
    EXPECT_EQ(group["verdict"], "AC");
    EXPECT_EQ(group["score"], plan[g].score);
    EXPECT_EQ(report["groups"][g]["tests"].size(), members[g].size());
  }
  EXPECT_NE(check.out.find("100/100"), std::string::npos) << check.out;
}

TEST_F(PackageBuildCliTest, AFileTheBuildDidNotWriteIsLeftAlone) {
  copy_package();
  const std::string mine = "1\n2 0\n";
  write_text(at("pkg/data/secret/tiny/01-001.in"), mine);
  const Result build = run({"build", "--no-cache", "pkg"});
  EXPECT_EQ(build.status, 1) << build.out << build.err;
  EXPECT_EQ(read_text(at("pkg/data/secret/tiny/01-001.in")), mine);
  EXPECT_FALSE(fs::exists(at("pkg/data/secret/tiny/01-001.ans")));
  bool warned = false;
  for (const std::string& line : lines_of(build.err)) {
    if (starts_with(line, "gamebatch: warning: ") &&
        line.find("data/secret/tiny/01-001.in") != std::string::npos)
      warned = true;
  }
  EXPECT_TRUE(warned) << build.err;
  EXPECT_EQ(count_containing(error_lines(build.err), "data/secret/tiny/01-001.in"), 1u)
      << build.err;
  // The other tests are written.
  EXPECT_TRUE(fs::exists(at("pkg/data/secret/tiny/01-002.in")));
  EXPECT_TRUE(fs::exists(at("pkg/data/secret/full/02-002.ans")));

  // A second build leaves it alone too.
  const Result again = run({"build", "--no-cache", "pkg"});
  EXPECT_EQ(again.status, 1) << again.err;
  EXPECT_EQ(read_text(at("pkg/data/secret/tiny/01-001.in")), mine);
}

TEST_F(PackageBuildCliTest, ValidateChecksGroupLimits) {
  copy_package();
  const Result build = run({"build", "--no-cache", "pkg"});
  ASSERT_EQ(build.status, 0) << build.err;
  const Result valid = run({"validate", "-p", "doublemove", "pkg"});
  EXPECT_EQ(valid.status, 0) << valid.out << valid.err;

  edit_plan("limits = { n = \"1..10\" }", "limits = { n = \"1..8\" }");
  const Result invalid = run({"validate", "-p", "doublemove", "pkg"});
  EXPECT_EQ(invalid.status, 1) << invalid.out << invalid.err;
  const std::vector<std::string> lines = lines_of(invalid.out);
  EXPECT_GT(count_containing(lines, "group small allows 1..8"), 0u) << invalid.out;
  // Small's own tests, and build's copies of them in the groups that include small.
  std::size_t copies = 0;
  for (const std::string& line : lines) {
    if (line.find("allows") == std::string::npos)
      continue;
    const bool copy = line.find("data/secret/medium/small-") != std::string::npos ||
                      line.find("data/secret/full/small-") != std::string::npos;
    copies += copy ? 1 : 0;
    EXPECT_TRUE(copy || line.find("data/secret/small/") != std::string::npos) << line;
  }
  EXPECT_GT(copies, 0u) << invalid.out;
}

TEST_F(PackageBuildCliTest, StressWithinAGroup) {
  copy_package();
  const std::string solution = "pkg/submissions/partial/k0_table.cpp";
  // Within k0 the table is right.
  const Result k0 = run({"stress", "-p", "doublemove", "--solution", solution, "--package", "pkg",
                         "--group", "k0", "--count", "30", "-o", "k0"});
  EXPECT_EQ(k0.status, 0) << k0.out << k0.err;
  EXPECT_FALSE(fs::exists(at("k0/counterexample.in")));
  // Within tiny it is wrong, and the counterexample stays within tiny's limits.
  const Result tiny = run({"stress", "-p", "doublemove", "--solution", solution, "--package", "pkg",
                           "--group", "tiny", "--count", "30", "-o", "tiny"});
  EXPECT_EQ(tiny.status, 1) << tiny.out << tiny.err;
  ASSERT_TRUE(fs::exists(at("tiny/counterexample.in"))) << tiny.out << tiny.err;
  const std::vector<long> ns = doublemove_ns(read_text(at("tiny/counterexample.in")));
  ASSERT_FALSE(ns.empty());
  for (const long n : ns) {
    EXPECT_GE(n, 1);
    EXPECT_LE(n, 4);
  }
}

}  // namespace
