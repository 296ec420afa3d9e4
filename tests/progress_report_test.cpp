// The progress line's text and drawing, and the JSON run report.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "pipeline/report/progress.hpp"
#include "pipeline/solve/run_report.hpp"
#include "test_data.hpp"

namespace gamebatch::pipeline {
namespace {

namespace fs = std::filesystem;
using testing::read_text;
using testing::TestDirectory;

TEST(ProgressTest, TextShowsCountsRateErrorsAndEta) {
  ProgressCounters counters;
  counters.files_total = 100;
  counters.files_done = 25;
  counters.cases_known = 60;
  counters.cases_done = 50;
  counters.cached = 7;
  counters.rejected = 2;
  EXPECT_EQ(progress_text(counters, 10.0),
            "files 25/100  cases 50/60  5 cases/s  cached 7  errors 2  ETA 30s");
  counters.files_done = 1;
  EXPECT_EQ(progress_text(counters, 100.0),
            "files 1/100  cases 50/60  0 cases/s  cached 7  errors 2  ETA 2h45m");
  counters.files_done = 0;
  EXPECT_NE(progress_text(counters, 1.0).find("ETA ?"), std::string::npos);
  counters.files_done = 100;
  EXPECT_NE(progress_text(counters, 1.0).find("ETA 0s"), std::string::npos);
}

TEST(ProgressTest, LineIsRedrawnInPlaceAndErasedAtTheEnd) {
  TestDirectory scratch("gamebatch_progress");
  const fs::path path = scratch.path() / "stderr";
  ProgressCounters counters;
  counters.files_total = 3;
  std::FILE* stream = std::fopen(path.c_str(), "w");
  ASSERT_NE(stream, nullptr);
  {
    ProgressLine line(counters, true, stream, std::chrono::milliseconds(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    counters.files_done = 3;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::fclose(stream);
  const std::string drawn = read_text(path);
  EXPECT_NE(drawn.find("\rfiles 0/3"), std::string::npos) << drawn;
  EXPECT_NE(drawn.find("\rfiles 3/3"), std::string::npos) << drawn;
  EXPECT_EQ(drawn.find('\n'), std::string::npos) << "the line is redrawn in place";
  EXPECT_EQ(drawn.substr(drawn.size() - 4), "\r\033[K") << "erased at the end";
}

TEST(ProgressTest, DisabledLineDrawsNothing) {
  TestDirectory scratch("gamebatch_progress");
  const fs::path path = scratch.path() / "stderr";
  ProgressCounters counters;
  std::FILE* stream = std::fopen(path.c_str(), "w");
  ASSERT_NE(stream, nullptr);
  {
    ProgressLine line(counters, false, stream, std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }
  std::fclose(stream);
  EXPECT_EQ(read_text(path), "");
}

TEST(RunReportTest, WritesHeaderFilesAndTotalsAsOneDocument) {
  TestDirectory scratch("gamebatch_report");
  const fs::path path = scratch.path() / "reports" / "run.json";
  const fs::path input = "sets/a.in", answer = "sets/a.ans", bad = "sets/b.in",
                 bad_answer = "sets/b.ans";
  {
    RunReport report(path, {{"schema", kReportSchema}, {"command", "solve"}});
    report.add_file(FileReport{.input = input,
                               .answer = answer,
                               .game = "willow",
                               .status = FileStatus::cached,
                               .cases = 3,
                               .solved = 0,
                               .cached = 3,
                               .solve_seconds = 0.0,
                               .error_line = 0,
                               .error = {}},
                    1);
    report.add_file(FileReport{.input = bad,
                               .answer = bad_answer,
                               .game = "willow",
                               .status = FileStatus::rejected,
                               .cases = 0,
                               .solved = 0,
                               .cached = 0,
                               .solve_seconds = 0.0,
                               .error_line = 4,
                               .error = "expected N"},
                    2);
    EXPECT_FALSE(fs::exists(path)) << "only a whole report is put in place";
    report.finish(RunSummary{.files = 2, .cases = 3, .solved = 0, .cached = 3, .rejected = 1});
  }
  const nlohmann::json json = nlohmann::json::parse(read_text(path));
  EXPECT_EQ(json.at("schema"), "gamebatch-report/1");
  EXPECT_EQ(json.at("command"), "solve");
  ASSERT_EQ(json.at("files").size(), 2u);
  const nlohmann::json& first = json.at("files")[0];
  EXPECT_EQ(first.at("path"), "sets/a.in");
  EXPECT_EQ(first.at("answer"), "sets/a.ans");
  EXPECT_EQ(first.at("status"), "cached");
  EXPECT_EQ(first.at("cases"), 3);
  EXPECT_EQ(first.at("cached"), 3);
  EXPECT_EQ(first.at("job"), 1);
  EXPECT_FALSE(first.contains("error"));
  const nlohmann::json& second = json.at("files")[1];
  EXPECT_EQ(second.at("status"), "rejected");
  EXPECT_EQ(second.at("error").at("line"), 4);
  EXPECT_EQ(second.at("error").at("message"), "expected N");
  EXPECT_EQ(json.at("totals").at("rejected"), 1);
  EXPECT_EQ(json.at("totals").at("files"), 2);
  EXPECT_EQ(std::distance(fs::directory_iterator(path.parent_path()), fs::directory_iterator()), 1)
      << "no temporary file is left";
}

TEST(RunReportTest, ReportOfNoFilesIsValidJson) {
  TestDirectory scratch("gamebatch_report");
  const fs::path path = scratch.path() / "run.json";
  RunReport report(path, {{"schema", kReportSchema}});
  report.finish(RunSummary{});
  const nlohmann::json json = nlohmann::json::parse(read_text(path));
  EXPECT_TRUE(json.at("files").empty());
  EXPECT_EQ(json.at("totals").at("files"), 0);
}

TEST(RunReportTest, UnfinishedReportLeavesNothing) {
  TestDirectory scratch("gamebatch_report");
  const fs::path path = scratch.path() / "run.json";
  { RunReport report(path, {{"schema", kReportSchema}}); }
  EXPECT_TRUE(fs::is_empty(scratch.path()));
}

TEST(RunReportTest, UncreatableReportThrows) {
  TestDirectory scratch("gamebatch_report");
  testing::write_text(scratch.path() / "file", "x");
  EXPECT_THROW(RunReport(scratch.path() / "file" / "run.json", {}), std::exception);
}

}  // namespace
}  // namespace gamebatch::pipeline
