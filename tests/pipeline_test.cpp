// pipeline::run_solve in-process: answers, rejections, summary counts, and independence from the
// number of files in flight and of threads.
#include "pipeline/answers/solve_run.hpp"

#include "core/stop_request.hpp"

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <concepts>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include "core/willow/willow.hpp"
#include "io/files/input_set.hpp"
#include "io/format/input_error.hpp"
#include "io/problem.hpp"
#include "test_data.hpp"

namespace gamebatch::pipeline {
namespace {

using gamebatch::testing::cat;
using gamebatch::testing::read_text;
using gamebatch::testing::write_text;

namespace fs = std::filesystem;
using willow::Coins;
using willow::Instance;

// ---------------------------------------------------------------- helpers

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

// Routes spdlog's default logger into a string for the lifetime of the object.
class LogCapture {
 public:
  LogCapture() : previous_(spdlog::default_logger()) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(stream_);
    sink->set_pattern("%l: %v");
    auto logger = std::make_shared<spdlog::logger>("pipeline_test_capture", sink);
    logger->set_level(spdlog::level::trace);
    spdlog::set_default_logger(logger);
  }
  ~LogCapture() { spdlog::set_default_logger(previous_); }
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;

  // The messages logged at level error, without the level.
  std::vector<std::string> errors() const {
    std::vector<std::string> found;
    std::istringstream lines(stream_.str());
    for (std::string line; std::getline(lines, line);) {
      if (starts_with(line, "error: "))
        found.push_back(line.substr(7));
    }
    return found;
  }
  std::string all() const { return stream_.str(); }

 private:
  std::shared_ptr<spdlog::logger> previous_;
  std::ostringstream stream_;
};

// run_solve, failing the whole test binary instead of hanging when the pipeline stalls.
RunSummary run_or_die(const SolveOptions& options) {
  auto finished = std::async(std::launch::async, [&options] { return run_solve(options); });
  if (finished.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
    std::fprintf(stderr, "FATAL: run_solve did not finish within 60 s: the pipeline stalled\n");
    std::fflush(stderr);
    std::_Exit(3);
  }
  return finished.get();
}

const io::Problem& willow_problem() {
  const io::Problem* problem = io::find_problem("willow");
  if (problem == nullptr)
    throw std::logic_error("willow is not registered");
  return *problem;
}

// A random tree already in the official labelling: road i <-> j_i with i < j_i.
Instance random_instance(std::int32_t cities, Coins max_coin, std::mt19937_64& rng) {
  Instance instance;
  for (std::int32_t city = 0; city < cities; ++city)
    instance.coins.push_back(static_cast<Coins>(rng() % static_cast<std::uint64_t>(max_coin + 1)));
  for (std::int32_t city = 0; city + 1 < cities; ++city) {
    const auto above = static_cast<std::uint64_t>(cities - 1 - city);
    instance.roads.emplace_back(city, city + 1 + static_cast<std::int32_t>(rng() % above));
  }
  return instance;
}

std::string official_text(const std::vector<Instance>& instances) {
  std::string text = std::to_string(instances.size()) + "\n";
  for (const Instance& instance : instances) {
    text += std::to_string(instance.coins.size()) + "\n";
    for (const Coins coins : instance.coins)
      text += std::to_string(coins) + "\n";
    for (const auto& road : instance.roads)
      text += std::to_string(road.second + 1) + "\n";
  }
  return text;
}

std::string expected_answers(const std::vector<Instance>& instances) {
  std::string text;
  for (std::size_t k = 0; k < instances.size(); ++k) {
    text += cat("Case #", k + 1, ": ", willow::solve(instances[k]), "\n");
  }
  return text;
}

// Bad willow files: the text, the line the error must name, and how its message must start.
struct BadFile {
  std::string text;
  std::size_t line;
  std::string expected;
};

const std::vector<BadFile>& bad_files() {
  static const std::vector<BadFile> files = {
      {"1\n3\n5\n7\n", 4, "expected C_3 of case 1"},                        // truncated
      {"1\n2\n5\nabc\n1\n", 4, "expected C_2 of case 1"},                   // not a number
      {"1\n3\n1\n2\n3\n1\n3\n", 6, "expected j_1 of case 1"},               // j <= i
      {"1\n2\n1\n1\n3\n", 5, "expected j_1 of case 1"},                     // j > N
      {"1\n2\n-5\n1\n2\n", 3, "expected C_1 of case 1"},                    // negative coin
      {"1\n2\n1\n1\n2\nxyz\n", 6, "expected end of file"},                  // trailing garbage
      {"0\n", 1, "expected the number of cases T"},                         // T = 0
      {"1\n1000000000\n5\n", 3, "expected C_2 of case 1"},                  // N too large
      {"2\n2\n1\n1\n2\n", 5, "expected the number of cities N of case 2"},  // a case missing
      {"", 1, "expected the number of cases T"},                            // empty file
  };
  return files;
}

// One input file and what must become of it.
struct Expectation {
  fs::path input;
  std::optional<std::string> answers;  // nullopt: rejected
  std::size_t cases = 0;
  const BadFile* bad = nullptr;
};

// A test's own directory under the system's temporary directory.
class PipelineTest : public ::testing::Test {
 protected:
  Expectation add_good(const std::string& name, std::vector<Instance> instances) {
    Expectation file;
    file.input = root_ / "in" / name;
    write_text(file.input, official_text(instances));
    file.answers = expected_answers(instances);
    file.cases = instances.size();
    return file;
  }

  Expectation add_bad(const std::string& name, const BadFile& bad) {
    Expectation file;
    file.input = root_ / "in" / name;
    write_text(file.input, bad.text);
    file.bad = &bad;
    return file;
  }

  // `count` files; every third one from the second on is bad.
  std::vector<Expectation> mixed_corpus(std::size_t count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Expectation> files;
    std::size_t next_bad = 0;
    for (std::size_t i = 0; i < count; ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "f%02zu.in", i);
      if (i % 3 == 1) {
        files.push_back(add_bad(name, bad_files()[next_bad++ % bad_files().size()]));
        continue;
      }
      std::vector<Instance> instances;
      const std::size_t cases = 1 + rng() % 4;
      for (std::size_t k = 0; k < cases; ++k) {
        const auto cities = static_cast<std::int32_t>(1 + rng() % 30);
        instances.push_back(random_instance(cities, 10'000, rng));
      }
      files.push_back(add_good(name, std::move(instances)));
    }
    return files;
  }

  // The pipeline's input list, answers under `out` (relative to `in`).
  std::vector<io::InputFile> inputs_for(const std::vector<Expectation>& files,
                                        const std::string& out) const {
    std::vector<io::InputFile> inputs;
    for (const Expectation& file : files) {
      inputs.push_back({file.input, io::answer_name(root_ / out / file.input.filename())});
    }
    return inputs;
  }

  void expect_answers(const std::vector<Expectation>& files, const std::string& out) const {
    for (const Expectation& file : files) {
      const fs::path answer = io::answer_name(root_ / out / file.input.filename());
      if (file.answers) {
        ASSERT_TRUE(fs::exists(answer)) << answer;
        EXPECT_EQ(read_text(answer), *file.answers) << answer;
      } else {
        EXPECT_FALSE(fs::exists(answer)) << answer;
      }
    }
  }

  gamebatch::testing::TestDirectory scratch_{"gamebatch_pipeline"};
  const fs::path root_ = scratch_.path();
};

std::size_t count_bad(const std::vector<Expectation>& files) {
  std::size_t bad = 0;
  for (const auto& file : files)
    bad += file.answers ? 0 : 1;
  return bad;
}

std::size_t count_good_cases(const std::vector<Expectation>& files) {
  std::size_t cases = 0;
  for (const auto& file : files)
    cases += file.cases;
  return cases;
}

// ---------------------------------------------------------------- willow files

TEST_F(PipelineTest, OneAndThreeFilesInFlightGiveTheSameCorrectAnswers) {
  const auto files = mixed_corpus(30, 1);
  LogCapture log;
  SolveOptions one{&willow_problem(), inputs_for(files, "one"), 1};
  SolveOptions three{&willow_problem(), inputs_for(files, "three"), 3};
  run_or_die(one);
  run_or_die(three);
  expect_answers(files, "one");
  expect_answers(files, "three");
}

// A stop requested before the run: nothing is started, nothing written, the summary says so.
TEST_F(PipelineTest, AStopRequestedBeforeTheRunStartsNothing) {
  const auto files = mixed_corpus(30, 4);
  LogCapture log;
  request_stop();
  const RunSummary summary = run_or_die({&willow_problem(), inputs_for(files, "out"), 3});
  clear_stop_request();
  EXPECT_TRUE(summary.interrupted);
  EXPECT_EQ(summary.files, 30u);
  EXPECT_EQ(summary.finished, 0u);
  EXPECT_EQ(summary.unfinished(), 30u);
  EXPECT_EQ(summary.solved, 0u);
  for (const Expectation& file : files)
    EXPECT_FALSE(fs::exists(io::answer_name(root_ / "out" / file.input.filename())));
}

TEST_F(PipelineTest, DefaultFilesInFlightGivesTheCorrectAnswers) {
  const auto files = mixed_corpus(30, 2);
  LogCapture log;
  run_or_die({&willow_problem(), inputs_for(files, "out"), 0});
  expect_answers(files, "out");
}

TEST_F(PipelineTest, SummaryCountsFilesCasesSolvedAndRejected) {
  const auto files = mixed_corpus(30, 3);
  ASSERT_EQ(count_bad(files), 10u);
  LogCapture log;
  const RunSummary summary = run_or_die({&willow_problem(), inputs_for(files, "out"), 3});
  EXPECT_EQ(summary.files, 30u);
  EXPECT_EQ(summary.rejected, 10u);
  EXPECT_EQ(summary.cases, count_good_cases(files));
  EXPECT_EQ(summary.solved, count_good_cases(files));
  EXPECT_EQ(summary.cached, 0u);
  EXPECT_GE(summary.seconds, 0.0);
}

TEST_F(PipelineTest, EachRejectedFileIsReportedOnceWithItsLineAndWhatWasExpected) {
  const auto files = mixed_corpus(30, 4);
  LogCapture log;
  run_or_die({&willow_problem(), inputs_for(files, "out"), 2});
  const std::vector<std::string> errors = log.errors();
  EXPECT_EQ(errors.size(), count_bad(files)) << log.all();
  for (const auto& file : files) {
    std::size_t mentions = 0;
    for (const std::string& error : errors) {
      if (error.find(file.input.string()) != std::string::npos)
        ++mentions;
    }
    if (file.answers) {
      EXPECT_EQ(mentions, 0u) << file.input;
      continue;
    }
    EXPECT_EQ(mentions, 1u) << file.input << "\n" << log.all();
    const std::string prefix =
        cat(file.input.string(), ":", file.bad->line, ": ", file.bad->expected);
    bool found = false;
    for (const std::string& error : errors)
      found = found || starts_with(error, prefix);
    EXPECT_TRUE(found) << "no message starting with '" << prefix << "' in\n" << log.all();
  }
}

TEST_F(PipelineTest, RejectionMessagesComeInInputOrder) {
  const auto files = mixed_corpus(30, 5);
  LogCapture log;
  run_or_die({&willow_problem(), inputs_for(files, "out"), 5});
  const std::vector<std::string> errors = log.errors();
  std::vector<std::string> expected_order;
  for (const auto& file : files) {
    if (!file.answers)
      expected_order.push_back(file.input.string() + ":");
  }
  ASSERT_EQ(errors.size(), expected_order.size()) << log.all();
  for (std::size_t k = 0; k < errors.size(); ++k)
    EXPECT_TRUE(starts_with(errors[k], expected_order[k])) << errors[k];
}

TEST_F(PipelineTest, BadFilesInTheMiddleDoNotStallLaterFiles) {
  std::mt19937_64 rng(6);
  std::vector<Expectation> files;
  files.push_back(add_good("a.in", {random_instance(20, 100, rng)}));
  for (std::size_t k = 0; k < bad_files().size(); ++k)
    files.push_back(add_bad(cat("bad", k, ".in"), bad_files()[k]));
  files.push_back(add_good("b.in", {random_instance(25, 100, rng), random_instance(3, 9, rng)}));
  Expectation missing;
  missing.input = root_ / "in" / "missing.in";
  files.push_back(missing);
  files.push_back(add_bad("c-bad.in", bad_files()[0]));
  files.push_back(add_good("z.in", {random_instance(1, 100, rng)}));
  LogCapture log;
  const RunSummary summary = run_or_die({&willow_problem(), inputs_for(files, "out"), 1});
  expect_answers(files, "out");
  EXPECT_EQ(summary.files, files.size());
  EXPECT_EQ(summary.rejected, bad_files().size() + 2);
  EXPECT_EQ(summary.cases, 4u);
}

TEST_F(PipelineTest, UnreadableInputIsRejectedWithItsName) {
  std::mt19937_64 rng(7);
  std::vector<Expectation> files;
  Expectation missing;
  missing.input = root_ / "in" / "gone.in";
  files.push_back(missing);
  files.push_back(add_good("ok.in", {random_instance(8, 50, rng)}));
  LogCapture log;
  const RunSummary summary = run_or_die({&willow_problem(), inputs_for(files, "out"), 0});
  expect_answers(files, "out");
  EXPECT_EQ(summary.rejected, 1u);
  const auto errors = log.errors();
  ASSERT_EQ(errors.size(), 1u) << log.all();
  EXPECT_NE(errors[0].find(missing.input.string()), std::string::npos) << errors[0];
}

TEST_F(PipelineTest, StaleAnswerOfARejectedFileIsRemoved) {
  std::mt19937_64 rng(8);
  std::vector<Expectation> files;
  files.push_back(add_bad("bad.in", bad_files()[2]));
  files.push_back(add_good("good.in", {random_instance(5, 50, rng)}));
  const auto inputs = inputs_for(files, "in");  // answers beside the inputs
  write_text(inputs[0].answer, "Case #1: 42\n");
  write_text(inputs[1].answer, "Case #1: stale and longer than the real answer\n");
  LogCapture log;
  run_or_die({&willow_problem(), inputs, 0});
  EXPECT_FALSE(fs::exists(inputs[0].answer));
  EXPECT_EQ(read_text(inputs[1].answer), *files[1].answers);
}

TEST_F(PipelineTest, AnswersCreateMissingOutputDirectories) {
  std::mt19937_64 rng(9);
  std::vector<Expectation> files = {add_good("a.in", {random_instance(6, 50, rng)})};
  std::vector<io::InputFile> inputs = {{files[0].input, root_ / "deep/er/a.ans"}};
  LogCapture log;
  const RunSummary summary = run_or_die({&willow_problem(), inputs, 0});
  EXPECT_EQ(summary.rejected, 0u);
  EXPECT_EQ(read_text(root_ / "deep/er/a.ans"), *files[0].answers);
}

TEST_F(PipelineTest, NoInputsGiveAnEmptySummary) {
  LogCapture log;
  const RunSummary summary = run_or_die({&willow_problem(), {}, 0});
  EXPECT_EQ(summary.files, 0u);
  EXPECT_EQ(summary.cases, 0u);
  EXPECT_EQ(summary.solved, 0u);
  EXPECT_EQ(summary.rejected, 0u);
  EXPECT_TRUE(log.errors().empty());
}

TEST_F(PipelineTest, OneAndTwoThreadsGiveIdenticalAnswers) {
  std::mt19937_64 rng(10);
  std::vector<Expectation> files;
  for (int k = 0; k < 6; ++k) {
    std::vector<Instance> instances;
    for (int c = 0; c < 3; ++c) {
      const auto cities = static_cast<std::int32_t>(1 + rng() % 400);
      instances.push_back(random_instance(cities, 10'000, rng));
    }
    files.push_back(add_good(cat("t", k, ".in"), std::move(instances)));
  }
  files.push_back(add_bad("t-bad.in", bad_files()[5]));
  LogCapture log;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    run_or_die({&willow_problem(), inputs_for(files, "one"), 0});
  }
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    run_or_die({&willow_problem(), inputs_for(files, "two"), 0});
  }
  expect_answers(files, "one");
  expect_answers(files, "two");
  for (const auto& file : files) {
    if (!file.answers)
      continue;
    const fs::path name = io::answer_name(file.input.filename());
    EXPECT_EQ(read_text(root_ / "one" / name), read_text(root_ / "two" / name)) << name;
  }
}

TEST_F(PipelineTest, AnyNumberOfFileWritersGivesTheSameAnswersAndRejections) {
  const auto files = mixed_corpus(40, 12);
  LogCapture log;
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 3);
  for (const std::size_t writers : {1, 2, 5}) {
    SolveOptions options{&willow_problem(), inputs_for(files, cat("w", writers)), 2};
    options.file_writers = writers;
    const RunSummary summary = run_or_die(options);
    EXPECT_EQ(summary.rejected, count_bad(files)) << writers << " writers";
    EXPECT_EQ(summary.cases, count_good_cases(files)) << writers << " writers";
    expect_answers(files, cat("w", writers));
  }
}

TEST_F(PipelineTest, RerunLeavesUnchangedAnswerFilesAndRewritesChangedOnes) {
  std::mt19937_64 rng(14);
  const std::vector<Expectation> files = {add_good("a.in", {random_instance(5, 50, rng)}),
                                          add_good("b.in", {random_instance(6, 50, rng)})};
  const std::vector<io::InputFile> inputs = inputs_for(files, "out");
  LogCapture log;
  run_or_die({&willow_problem(), inputs, 0});
  struct stat a_before {};
  ASSERT_EQ(::stat(inputs[0].answer.c_str(), &a_before), 0);
  // b's answers, same size, other bytes: a look at the size alone would keep them.
  std::string edited = read_text(inputs[1].answer);
  edited[edited.size() - 2] = edited[edited.size() - 2] == '1' ? '2' : '1';
  write_text(inputs[1].answer, edited);

  run_or_die({&willow_problem(), inputs, 0});
  struct stat a_after {};
  ASSERT_EQ(::stat(inputs[0].answer.c_str(), &a_after), 0);
  EXPECT_EQ(a_after.st_ino, a_before.st_ino);  // a write would have linked a new file in
  EXPECT_EQ(a_after.st_mtim.tv_nsec, a_before.st_mtim.tv_nsec);
  EXPECT_EQ(a_after.st_mtim.tv_sec, a_before.st_mtim.tv_sec);
  expect_answers(files, "out");  // b's rewritten
}

TEST_F(PipelineTest, AnswerFileThatCannotBeWrittenRejectsOnlyItsFile) {
  std::mt19937_64 rng(13);
  const std::vector<Expectation> files = {add_good("a.in", {random_instance(5, 50, rng)}),
                                          add_good("b.in", {random_instance(7, 50, rng)}),
                                          add_good("c.in", {random_instance(9, 50, rng)})};
  write_text(root_ / "plain", "a file where b's answer directory should be\n");
  std::vector<io::InputFile> inputs = inputs_for(files, "out");
  inputs[1].answer = root_ / "plain" / "b.ans";
  LogCapture log;
  const RunSummary summary = run_or_die({&willow_problem(), inputs, 0});
  EXPECT_EQ(summary.rejected, 1u);
  EXPECT_EQ(summary.cases, 2u);
  ASSERT_EQ(log.errors().size(), 1u);
  EXPECT_TRUE(starts_with(log.errors()[0], files[1].input.string() + ": cannot write answers: "))
      << log.errors()[0];
  EXPECT_EQ(read_text(inputs[0].answer), *files[0].answers);
  EXPECT_EQ(read_text(inputs[2].answer), *files[2].answers);
  EXPECT_EQ(read_text(root_ / "plain"), "a file where b's answer directory should be\n");
}

// ---------------------------------------------------------------- a problem made for the test

// Each whitespace-separated token is a case; its answer is the token reversed. A token "bad"
// makes the file invalid (on its line); a token starting with "boom" fails when solved. Cases
// sleep a little, differently, so that they finish out of order.
class TokenCase final : public io::Case {
 public:
  // cost_us: what the case claims solving costs; the default keeps every token above any cache
  // threshold, so that the cache always stores and reuses them.
  explicit TokenCase(std::string token, double cost_us = 1e9)
      : token_(std::move(token)), cost_us_(cost_us) {}
  std::string solve() const override {
    std::this_thread::sleep_for(std::chrono::microseconds(std::hash<std::string>()(token_) % 400));
    if (token_.rfind("boom", 0) == 0)
      throw std::runtime_error(token_ + " exploded");
    return std::string(token_.rbegin(), token_.rend());
  }
  std::string canonical() const override { return token_; }
  double estimated_solve_microseconds() const override { return cost_us_; }

 private:
  std::string token_;
  double cost_us_;
};

class TokenProblem final : public io::Problem {
 public:
  std::string_view name() const override { return "tokens"; }
  std::string_view summary() const override { return "reversed tokens, for tests"; }
  std::uint32_t solver_version() const override { return 1; }
  std::vector<std::unique_ptr<io::Case>> parse(std::string_view text) const override {
    std::vector<std::unique_ptr<io::Case>> cases;
    std::istringstream lines{std::string(text)};
    std::size_t line_number = 0;
    for (std::string line; std::getline(lines, line);) {
      ++line_number;
      std::istringstream tokens(line);
      for (std::string token; tokens >> token;) {
        if (token == "bad")
          throw io::InputError(line_number, "expected a token other than 'bad'");
        cases.push_back(std::make_unique<TokenCase>(token));
      }
    }
    if (cases.empty())
      throw io::InputError(1, "expected at least one token");
    return cases;
  }
  std::string answer_line(std::size_t case_number, std::string_view answer) const override {
    return cat("#", case_number, " ", answer, "\n");
  }
};

TEST_F(PipelineTest, CasesFinishingOutOfOrderKeepTheirOrder) {
  const TokenProblem problem;
  std::string text;
  std::string expected;
  for (int k = 1; k <= 300; ++k) {
    const std::string token = cat("tok", k * 7919 % 1000);
    text += token + (k % 10 == 0 ? "\n" : " ");
    expected += cat("#", k, " ", std::string(token.rbegin(), token.rend()), "\n");
  }
  write_text(root_ / "many.txt", text);
  LogCapture log;
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
  const RunSummary summary = run_or_die(
      {&problem, std::vector<io::InputFile>{{root_ / "many.txt", root_ / "many.txt.ans"}}, 0});
  EXPECT_EQ(summary.cases, 300u);
  EXPECT_EQ(summary.solved, 300u);
  EXPECT_EQ(read_text(root_ / "many.txt.ans"), expected);
}

TEST_F(PipelineTest, FailingCaseRejectsOnlyItsFileWithOneMessage) {
  const TokenProblem problem;
  write_text(root_ / "a", "ab cd\nef\n");
  write_text(root_ / "b", "x boom1 y boom2 z\n");
  write_text(root_ / "b.ans", "stale\n");
  write_text(root_ / "c", "one\ntwo bad\n");
  write_text(root_ / "d", "gh\n");
  std::vector<io::InputFile> inputs;
  for (const char* name : {"a", "b", "c", "d"})
    inputs.push_back({root_ / name, root_ / (std::string(name) + ".ans")});
  LogCapture log;
  const RunSummary summary = run_or_die({&problem, inputs, 1});
  EXPECT_EQ(summary.files, 4u);
  EXPECT_EQ(summary.rejected, 2u);
  EXPECT_EQ(summary.cases, 4u);  // a and d only
  EXPECT_EQ(read_text(root_ / "a.ans"), "#1 ba\n#2 dc\n#3 fe\n");
  EXPECT_EQ(read_text(root_ / "d.ans"), "#1 hg\n");
  EXPECT_FALSE(fs::exists(root_ / "b.ans"));
  EXPECT_FALSE(fs::exists(root_ / "c.ans"));
  const auto errors = log.errors();
  ASSERT_EQ(errors.size(), 2u) << log.all();
  // One message for b although two of its cases failed: the first that failed, with its number.
  EXPECT_TRUE(starts_with(errors[0], (root_ / "b").string() + ": case ")) << errors[0];
  EXPECT_NE(errors[0].find("exploded"), std::string::npos) << errors[0];
  EXPECT_TRUE(errors[0].find("case 2: boom1") != std::string::npos ||
              errors[0].find("case 4: boom2") != std::string::npos)
      << errors[0];
  EXPECT_TRUE(starts_with(errors[1], (root_ / "c").string() + ":2: expected a token")) << errors[1];
}

TEST_F(PipelineTest, ManySmallFilesThroughOneSlot) {
  const TokenProblem problem;
  std::vector<io::InputFile> inputs;
  std::vector<std::string> expected;
  for (int k = 0; k < 60; ++k) {
    const fs::path input = root_ / cat("f", k);
    const bool bad = k % 7 == 3;
    write_text(input, bad ? "bad\n" : cat("k", k, "\n"));
    inputs.push_back({input, root_ / "out" / cat("f", k, ".ans")});
    const std::string digits = std::to_string(k);  // "k<digits>" reversed
    expected.push_back(bad ? "" : cat("#1 ", std::string(digits.rbegin(), digits.rend()), "k\n"));
  }
  LogCapture log;
  const RunSummary summary = run_or_die({&problem, inputs, 1});
  EXPECT_EQ(summary.rejected, 9u);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    if (expected[k].empty()) {
      EXPECT_FALSE(fs::exists(inputs[k].answer)) << inputs[k].answer;
    } else {
      EXPECT_EQ(read_text(inputs[k].answer), expected[k]) << inputs[k].answer;
    }
  }
}

// A token problem whose cases, when solved, first put a file of their own where the answers of
// the file go: another process writing into an answer directory that was empty at the start.
class IntrudedTokenProblem final : public io::Problem {
 public:
  explicit IntrudedTokenProblem(fs::path intruded) : intruded_(std::move(intruded)) {}
  std::string_view name() const override { return "intruded-tokens"; }
  std::string_view summary() const override { return "tokens, with a file put in the way"; }
  std::uint32_t solver_version() const override { return 1; }
  std::vector<std::unique_ptr<io::Case>> parse(std::string_view text) const override {
    std::vector<std::unique_ptr<io::Case>> cases;
    for (auto& token_case : TokenProblem().parse(text))
      cases.push_back(std::make_unique<Intruding>(std::move(token_case), intruded_));
    return cases;
  }
  std::string answer_line(std::size_t case_number, std::string_view answer) const override {
    return TokenProblem().answer_line(case_number, answer);
  }

 private:
  class Intruding final : public io::Case {
   public:
    Intruding(std::unique_ptr<io::Case> token_case, fs::path intruded)
        : token_case_(std::move(token_case)), intruded_(std::move(intruded)) {}
    std::string solve() const override {
      write_text(intruded_, "written by someone else\n");
      return token_case_->solve();
    }
    std::string canonical() const override { return token_case_->canonical(); }
    double estimated_solve_microseconds() const override { return 1e9; }

   private:
    std::unique_ptr<io::Case> token_case_;
    fs::path intruded_;
  };
  fs::path intruded_;
};

TEST_F(PipelineTest, AnswerFileMadeMeanwhileInAnEmptyAnswerDirectoryIsReplaced) {
  write_text(root_ / "a", "ab cd\n");
  const fs::path answer = root_ / "fresh" / "a.ans";  // the directory does not exist yet
  const IntrudedTokenProblem problem(answer);
  LogCapture log;
  const std::vector<io::InputFile> inputs = {{root_ / "a", answer}};
  const RunSummary summary = run_or_die({&problem, inputs, 0});
  EXPECT_EQ(summary.rejected, 0u) << log.all();
  EXPECT_EQ(read_text(answer), "#1 ba\n#2 dc\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(root_ / "fresh"), fs::directory_iterator()), 1);
}

// ---------------------------------------------------------------- a dispatcher (the MPI mode's
// hook)

// Solves the submitted cases on a thread of its own, a batch at a time and in shuffled order, as
// the MPI mode's ranks answer: the graph must wait for them and still write every file whole and
// in order, and reject exactly the files whose cases failed.
class ShufflingDispatcher final : public CaseDispatcher {
 public:
  ShufflingDispatcher() : solver_([this] { solve_until_stopped(); }) {}
  ~ShufflingDispatcher() override {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    solver_.join();
  }
  ShufflingDispatcher(const ShufflingDispatcher&) = delete;
  ShufflingDispatcher& operator=(const ShufflingDispatcher&) = delete;

  void submit(const io::Problem& /*problem*/, const io::Case& a_case, std::string /*canonical*/,
              Done done) override {
    {
      const std::lock_guard lock(mutex_);
      waiting_.push_back({&a_case, std::move(done)});
      ++submitted_;
    }
    changed_.notify_all();
  }

  std::size_t submitted() const {
    const std::lock_guard lock(mutex_);
    return submitted_;
  }

 private:
  struct Waiting {
    const io::Case* a_case;
    Done done;
  };

  void solve_until_stopped() {
    std::mt19937_64 rng(5);
    for (;;) {
      std::vector<Waiting> batch;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
        if (waiting_.empty())
          return;
        batch.swap(waiting_);
      }
      std::shuffle(batch.begin(), batch.end(), rng);
      for (Waiting& waiting : batch) {
        Result result;
        try {
          result.text = waiting.a_case->solve();
        } catch (const std::exception& error) {
          result.failed = true;
          result.text = error.what();
        }
        waiting.done(std::move(result));
      }
    }
  }

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Waiting> waiting_;
  std::size_t submitted_ = 0;
  bool stopping_ = false;
  std::thread solver_;  // last: started once the members it uses exist
};

TEST_F(PipelineTest, DispatchedCasesGiveTheSameAnswersAndSummary) {
  const auto files = mixed_corpus(30, 7);
  LogCapture log;
  ShufflingDispatcher dispatcher;
  SolveOptions options{&willow_problem(), inputs_for(files, "out"), 2};
  options.dispatcher = &dispatcher;
  const RunSummary summary = run_or_die(options);
  expect_answers(files, "out");
  EXPECT_EQ(summary.files, 30u);
  EXPECT_EQ(summary.rejected, count_bad(files));
  EXPECT_EQ(summary.cases, count_good_cases(files));
  EXPECT_EQ(summary.solved, count_good_cases(files));
  // Without a cache every case of a good file goes to the dispatcher, and only those.
  EXPECT_EQ(dispatcher.submitted(), count_good_cases(files));
  EXPECT_EQ(log.errors().size(), count_bad(files)) << log.all();
}

TEST_F(PipelineTest, DispatchedFailingCaseRejectsOnlyItsFile) {
  const TokenProblem problem;
  write_text(root_ / "a", "ab cd\nef\n");
  write_text(root_ / "b", "x boom1 y\n");
  write_text(root_ / "c", "gh\n");
  std::vector<io::InputFile> inputs;
  for (const char* name : {"a", "b", "c"})
    inputs.push_back({root_ / name, root_ / (std::string(name) + ".ans")});
  LogCapture log;
  ShufflingDispatcher dispatcher;
  SolveOptions options{&problem, inputs, 0};
  options.dispatcher = &dispatcher;
  const RunSummary summary = run_or_die(options);
  EXPECT_EQ(summary.rejected, 1u);
  EXPECT_EQ(read_text(root_ / "a.ans"), "#1 ba\n#2 dc\n#3 fe\n");
  EXPECT_EQ(read_text(root_ / "c.ans"), "#1 hg\n");
  EXPECT_FALSE(fs::exists(root_ / "b.ans"));
  const auto errors = log.errors();
  ASSERT_EQ(errors.size(), 1u) << log.all();
  EXPECT_TRUE(starts_with(errors[0], (root_ / "b").string() + ": case 2: ")) << errors[0];
  EXPECT_NE(errors[0].find("boom1"), std::string::npos) << errors[0];
}

}  // namespace
}  // namespace gamebatch::pipeline
