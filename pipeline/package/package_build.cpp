#include "pipeline/package/package_build.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <system_error>

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "core/stop_request.hpp"
#include "io/files/atomic_file.hpp"
#include "io/files/content_hash.hpp"
#include "io/files/input_set.hpp"
#include "io/format/input_error.hpp"
#include "io/format/strict_format.hpp"
#include "pipeline/answers/solve_run.hpp"

namespace gamebatch::pipeline {
namespace fs = std::filesystem;
namespace {

constexpr const char* kManifestSchema = "gamebatch-build/1";

std::string hash_of(std::string_view content) {
  return io::hex(io::content_hash128({}, {content}));
}

// The hash of the file at `path`, or "" when it cannot be read.
std::string hash_of_file(const fs::path& path) {
  std::error_code error;
  if (!fs::is_regular_file(path, error))
    return "";
  try {
    return hash_of(io::read_file(path));
  } catch (const std::exception&) {
    return "";
  }
}

struct PlannedTest {
  std::size_t group = 0;
  std::size_t entry = 0;  // 0-based into the group's entries
  std::int64_t index = 0;
  std::string name;  // "EE-III"
  std::string key;   // "GROUP/NAME": the manifest's
  std::uint64_t seed = 0;
  std::string recipe;                // hash
  std::vector<std::size_t> holders;  // groups holding it
  std::string input_path;            // relative, '/'-separated: its own place
  std::string answer_path;           //
  std::vector<std::pair<std::string, std::string>> copies;  // (input, answer) in other groups
  // Filled while building.
  bool up_to_date = false;
  bool failed = false;
  std::string text;
  std::string text_hash;
  std::string answers;
  std::string answers_hash;
  std::vector<std::pair<std::string, std::int64_t>> largest;
};

std::string test_name(std::size_t entry_number, std::int64_t index) {
  char name[32];
  std::snprintf(name, sizeof name, "%02zu-%03lld", entry_number, static_cast<long long>(index));
  return name;
}

std::string limits_text(const std::vector<io::NarrowLimit>& limits) {
  std::string text;
  for (const io::NarrowLimit& limit : limits)
    text +=
        limit.parameter + "=" + std::to_string(limit.min) + ".." + std::to_string(limit.max) + ";";
  return text;
}

std::vector<PlannedTest> plan_tests(const BuildOptions& options,
                                    const std::vector<std::vector<io::NarrowLimit>>& limits_of) {
  const io::PackagePlan& plan = options.plan;
  std::vector<PlannedTest> tests;
  std::size_t codename = 0;
  for (std::size_t group = 0; group < plan.groups.size(); ++group) {
    const std::vector<std::size_t> holders = io::groups_holding(plan, group);
    const std::string limits = limits_text(limits_of[group]);
    for (std::size_t entry = 0; entry < plan.groups[group].tests.size(); ++entry) {
      const io::PlanEntry& planned = plan.groups[group].tests[entry];
      for (std::int64_t index = 1; index <= planned.count; ++index) {
        PlannedTest test;
        test.group = group;
        test.entry = entry;
        test.index = index;
        test.name = test_name(planned.number, index);
        test.key = plan.groups[group].name + "/" + test.name;
        test.seed = io::test_seed(plan, group, entry + 1, index);
        test.holders = holders;
        test.recipe =
            io::hex(io::content_hash128({test.seed, options.problem->solver_version()},
                                        {plan.game, options.makers[group][entry].recipe, limits}));
        const std::string& name = plan.groups[group].name;
        if (options.layout == io::Layout::cms) {
          const std::string number = std::to_string(codename++);
          test.input_path = "input/input" + number + ".txt";
          test.answer_path = "output/output" + number + ".txt";
        } else {
          const std::string folder =
              name == "sample" ? "data/sample/" : "data/secret/" + name + "/";
          test.input_path = folder + test.name + ".in";
          test.answer_path = folder + test.name + ".ans";
          for (const std::size_t holder : holders) {
            if (holder == group)
              continue;
            const std::string other = "data/secret/" + plan.groups[holder].name + "/" + name + "-";
            test.copies.emplace_back(other + test.name + ".in", other + test.name + ".ans");
          }
        }
        tests.push_back(std::move(test));
      }
    }
  }
  return tests;
}

// Every file a test is written to: its own input and answer, then its copies'.
std::vector<std::pair<std::string, bool>> files_of(const PlannedTest& test) {
  std::vector<std::pair<std::string, bool>> files = {{test.input_path, false},
                                                     {test.answer_path, true}};
  for (const auto& [input, answer] : test.copies) {
    files.emplace_back(input, false);
    files.emplace_back(answer, true);
  }
  return files;
}

// A file the build wrote: its content hash, and its size and modification time when last seen,
// so that a rebuild trusts a file whose stat is unchanged without reading it (as make and git do).
struct FileRecord {
  std::string hash;
  std::uintmax_t size = 0;
  std::int64_t mtime_ns = 0;
};

// The record of the file at `path` holding content of hash `hash`; size 0 and time 0 when it
// cannot be looked at (then it is read next time).
FileRecord record_of(const fs::path& path, std::string hash) {
  FileRecord record{std::move(hash), 0, 0};
  std::error_code error;
  const std::uintmax_t size = fs::file_size(path, error);
  if (error)
    return record;
  const auto time = fs::last_write_time(path, error);
  if (error)
    return record;
  record.size = size;
  record.mtime_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count();
  return record;
}

struct Manifest {
  std::map<std::string, FileRecord> files;  // relative path -> what the build wrote there
  std::map<std::string, nlohmann::json> tests;
};

Manifest read_manifest(const fs::path& path) {
  Manifest manifest;
  std::error_code error;
  if (!fs::exists(path, error))
    return manifest;
  try {
    const nlohmann::json json = nlohmann::json::parse(io::read_file(path));
    if (json.value("schema", "") != kManifestSchema)
      throw std::runtime_error("not a " + std::string(kManifestSchema) + " manifest");
    for (const auto& [file, record] : json.at("files").items()) {
      manifest.files[file] = {record.at(0).get<std::string>(), record.at(1).get<std::uintmax_t>(),
                              record.at(2).get<std::int64_t>()};
    }
    for (const auto& [key, test] : json.at("tests").items())
      manifest.tests[key] = test;
  } catch (const std::exception& failure) {
    // Without it the build trusts no file: it makes every test again and touches no old file.
    spdlog::warn("{}: unreadable ({}): every test is made again", path.string(), failure.what());
    manifest = {};
  }
  return manifest;
}

std::string points_text(double points) {
  char text[64];
  std::snprintf(text, sizeof text, "%g", points);
  return text;
}

bool plan_has_points(const io::PackagePlan& plan) {
  return std::any_of(plan.groups.begin(), plan.groups.end(),
                     [](const io::PlanGroup& group) { return group.score > 0; });
}

// One limit per parameter: the narrowest range that every limit of `limits` on it allows.
std::vector<io::NarrowLimit> narrowest(const std::vector<io::NarrowLimit>& limits) {
  std::vector<io::NarrowLimit> merged;
  for (const io::NarrowLimit& limit : limits) {
    const auto same = std::find_if(merged.begin(), merged.end(), [&](const io::NarrowLimit& kept) {
      return kept.parameter == limit.parameter;
    });
    if (same == merged.end()) {
      merged.push_back(limit);
    } else {
      same->min = std::max(same->min, limit.min);
      same->max = std::min(same->max, limit.max);
    }
  }
  return merged;
}

// The arguments that give gamebatch's validator a group's limits ("--n", "1..4", ...): one range
// per parameter, as its `--PARAM MIN..MAX` options take them.
std::vector<std::string> group_validator_arguments(const std::vector<io::NarrowLimit>& limits) {
  return io::validator_arguments(narrowest(limits));
}

// A YAML flow list of strings: ["--n", "1..4"].
std::string yaml_string_list(const std::vector<std::string>& items) {
  std::string text = "[";
  for (std::size_t k = 0; k < items.size(); ++k)
    text += (k == 0 ? "\"" : ", \"") + items[k] + "\"";
  return text + "]";
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words)
    text += (text.empty() ? "" : " ") + word;
  return text;
}

constexpr const char* kWrittenBy = "# Written by gamebatch build from gamebatch.toml.\n";

// The group files of a Kattis package in the format version `format`, as (path, content).
std::vector<std::pair<std::string, std::string>> kattis_group_files(
    const io::PackagePlan& plan, io::KattisFormat format,
    const std::vector<std::vector<io::NarrowLimit>>& limits_of) {
  const bool scoring = plan_has_points(plan);
  const bool legacy = format == io::KattisFormat::legacy;
  double total = 0;
  std::vector<std::pair<std::string, std::string>> files;
  for (std::size_t group = 0; group < plan.groups.size(); ++group) {
    const io::PlanGroup& planned = plan.groups[group];
    const bool sample = planned.name == "sample";
    const std::vector<std::string> arguments = group_validator_arguments(limits_of[group]);
    std::string text = kWrittenBy;
    if (legacy) {
      if (scoring)
        text += sample ? "accept_score: 0\ngrader_flags: min\n"
                       : "grading: default\ngrader_flags: min\naccept_score: " +
                             points_text(planned.score) + "\n";
      if (!arguments.empty())
        text += "input_validator_flags: " + joined(arguments) + "\n";
    } else {
      if (scoring && !sample)
        text += "max_score: " + points_text(planned.score) + "\nscore_aggregation: min\n";
      if (!arguments.empty())
        text += "input_validator_args: " + yaml_string_list(arguments) + "\n";
    }
    total += planned.score;
    // A group's file makes its folder a group; the sample's only says what it has to say.
    if (!sample || text != kWrittenBy)
      files.emplace_back((sample ? "data/sample/" : "data/secret/" + planned.name + "/") +
                             (legacy ? "testdata.yaml" : "test_group.yaml"),
                         text);
  }
  if (!scoring)
    return files;
  if (legacy) {
    // Every test judged; the verdict is the secret groups' (AC when one is: a partial solution is
    // accepted with its points), the score the sum of the groups'.
    files.emplace_back("data/testdata.yaml",
                       std::string(kWrittenBy) +
                           "on_reject: continue\ngrading: default\n"
                           "grader_flags: ignore_sample accept_if_any_accepted sum\n");
    files.emplace_back("data/secret/testdata.yaml",
                       std::string(kWrittenBy) + "grader_flags: accept_if_any_accepted sum\n");
  } else {
    // secret's max_score is 100 unless it says otherwise.
    files.emplace_back("data/secret/test_group.yaml", std::string(kWrittenBy) +
                                                          "max_score: " + points_text(total) +
                                                          "\nscore_aggregation: sum\n");
  }
  return files;
}

// A random (version 4) UUID, as the 2023-07-draft and 2025-09 formats want one per problem.
std::string new_uuid() {
  std::random_device device;
  std::seed_seq seed{
      device(), device(), device(), device(),
      static_cast<unsigned>(std::chrono::steady_clock::now().time_since_epoch().count())};
  std::mt19937_64 random(seed);
  const std::uint64_t high = (random() & ~std::uint64_t{0xF000}) | 0x4000;
  const std::uint64_t low = (random() & ~(std::uint64_t{3} << 62)) | (std::uint64_t{1} << 63);
  char text[40];
  std::snprintf(text, sizeof text, "%08llx-%04llx-%04llx-%04llx-%012llx",
                static_cast<unsigned long long>(high >> 32),
                static_cast<unsigned long long>((high >> 16) & 0xFFFF),
                static_cast<unsigned long long>(high & 0xFFFF),
                static_cast<unsigned long long>(low >> 48),
                static_cast<unsigned long long>(low & 0xFFFFFFFFFFFFull));
  return text;
}

// The keys problem.yaml lacks that the layout needs, as lines to append ("type: scoring\n").
std::string missing_problem_keys(const io::KattisMetadata& metadata, bool scoring) {
  std::string lines;
  if (scoring && !metadata.has_type)
    lines += "type: scoring\n";
  if (metadata.format != io::KattisFormat::legacy && !metadata.has_uuid)
    lines += "uuid: " + new_uuid() + "\n";
  return lines;
}

// task.yaml with n_input, score_type and score_type_parameters replaced (other lines kept).
std::string cms_task_yaml(const std::string& old, const io::PackagePlan& plan,
                          const std::vector<PlannedTest>& tests) {
  std::string kept;
  bool skipping = false;
  for (std::size_t start = 0; start < old.size();) {
    std::size_t end = old.find('\n', start);
    end = end == std::string::npos ? old.size() : end + 1;
    const std::string line = old.substr(start, end - start);
    start = end;
    const bool continuation =
        !line.empty() && (line[0] == ' ' || line[0] == '\t' || line[0] == '-');
    if (continuation && skipping)
      continue;
    skipping = line.starts_with("n_input:") || line.starts_with("score_type:") ||
               line.starts_with("score_type_parameters:");
    if (!skipping)
      kept += line.back() == '\n' ? line : line + "\n";
  }
  std::string text = kept + "n_input: " + std::to_string(tests.size()) +
                     "\nscore_type: GroupMin\nscore_type_parameters:\n";
  for (std::size_t group = 0; group < plan.groups.size(); ++group) {
    std::string codenames;
    for (std::size_t k = 0; k < tests.size(); ++k) {
      const auto& holders = tests[k].holders;
      if (std::find(holders.begin(), holders.end(), group) == holders.end())
        continue;
      char codename[32];
      std::snprintf(codename, sizeof codename, "%03zu", k);
      if (!codenames.empty())
        codenames += '|';
      codenames += codename;
    }
    char score[64];
    std::snprintf(score, sizeof score, "%g", plan.groups[group].score);
    text += "- [" + std::string(score) + ", \"^(" + codenames + ")$\"]  # " +
            plan.groups[group].name + "\n";
  }
  return text;
}

// One build's state, carried from step to step: the plan's tests, what the last build recorded,
// the files looked at and the files written.
struct Build {
  Build(const BuildOptions& build_options, BuildResult& build_result)
      : options(build_options),
        plan(build_options.plan),
        root(build_options.root),
        result(build_result) {}

  const BuildOptions& options;
  const io::PackagePlan& plan;
  const fs::path& root;
  BuildResult& result;
  std::vector<std::vector<io::NarrowLimit>> limits_of;  // the limits a test of each group meets
  std::vector<PlannedTest> tests;
  Manifest old;
  std::map<std::string, std::string> on_disk;  // relative path -> hash, of the files looked at
  std::mutex failures_mutex;
  std::atomic<std::size_t> written{0};
  std::mutex written_mutex;
  std::map<std::string, FileRecord> new_files;  // every file of the build kept

  const std::string& disk_hash(const std::string& relative);
  bool ours(const std::string& relative);
  void fail(PlannedTest& test, const std::string& why);
  bool in_the_way(PlannedTest* test, const std::string& file, const std::string& content);
  void write(const std::string& relative, const std::string& content, const std::string& hash);

  std::vector<std::size_t> tests_to_make();
  void make_tests(const std::vector<std::size_t>& to_make);
  void make_test(PlannedTest& test);
  std::vector<std::size_t> tests_to_write(const std::vector<std::size_t>& to_make);
  void write_inputs(tbb::task_arena& writers, const std::vector<std::size_t>& valid);
  std::vector<std::size_t> solve_inputs(const std::vector<std::size_t>& valid);
  void write_answers(tbb::task_arena& writers, const std::vector<std::size_t>& answered);
  void keep_unwritten_tests_files();
  void write_layout_files();
  void complete_problem_yaml();
  void write_validator();
  void remove_stale_files();
  void write_manifest(const fs::path& manifest_path);
  void summarise_groups();
};

// The hash of the file at `relative`, looked at once per build. A file whose size and time are
// as recorded is taken to hold what was recorded.
const std::string& Build::disk_hash(const std::string& relative) {
  auto found = on_disk.find(relative);
  if (found == on_disk.end()) {
    const auto recorded = old.files.find(relative);
    if (recorded != old.files.end() && recorded->second.size != 0) {
      const FileRecord now = record_of(root / relative, "");
      if (now.size == recorded->second.size && now.mtime_ns == recorded->second.mtime_ns)
        found = on_disk.emplace(relative, recorded->second.hash).first;
    }
    if (found == on_disk.end())
      found = on_disk.emplace(relative, hash_of_file(root / relative)).first;
  }
  return found->second;
}

// A file is ours when the manifest records it with the bytes it still holds.
bool Build::ours(const std::string& relative) {
  const auto recorded = old.files.find(relative);
  return recorded != old.files.end() && recorded->second.hash == disk_hash(relative);
}

void Build::fail(PlannedTest& test, const std::string& why) {
  const io::PlanEntry& entry = plan.groups[test.group].tests[test.entry];
  std::lock_guard lock(failures_mutex);
  test.failed = true;
  result.failures.push_back(test.input_path + " (group " + plan.groups[test.group].name +
                            ", entry " + std::to_string(entry.number) + ", " +
                            plan.file.filename().string() + ":" + std::to_string(entry.line) +
                            "): " + why);
}

// A file in the way, one the build did not write (or that changed since) and that does not
// hold `content` already, is left alone, and so its test (when it has one) is not written.
bool Build::in_the_way(PlannedTest* test, const std::string& file, const std::string& content) {
  std::error_code error;
  if (!fs::exists(root / file, error) || ours(file) || io::file_holds(root / file, content))
    return false;
  result.warnings.push_back(file +
                            ": not written by gamebatch build (or changed since): left "
                            "as it is" +
                            (test != nullptr ? ", and its test is not written" : ""));
  if (test != nullptr)
    fail(*test, "a file in its place was not written by gamebatch build");
  return true;
}

void Build::write(const std::string& relative, const std::string& content,
                  const std::string& hash) {
  if (!io::file_holds(root / relative, content)) {
    io::write_file_atomically(root / relative, content);
    ++written;
  }
  FileRecord record = record_of(root / relative, hash);
  std::lock_guard lock(written_mutex);
  new_files[relative] = std::move(record);
}

// 1. Which tests are as the manifest recorded them: those are up to date, the others are made.
std::vector<std::size_t> Build::tests_to_make() {
  std::vector<std::size_t> to_make;
  for (std::size_t k = 0; k < tests.size(); ++k) {
    PlannedTest& test = tests[k];
    const auto recorded = old.tests.find(test.key);
    bool fresh = recorded != old.tests.end() && recorded->second.value("recipe", "") == test.recipe;
    for (const auto& [file, is_answer] : files_of(test)) {
      if (fresh && !ours(file))
        fresh = false;
    }
    if (fresh) {
      test.up_to_date = true;
      for (const auto& item : recorded->second.value("largest", nlohmann::json::array()))
        test.largest.emplace_back(item.at(0).get<std::string>(), item.at(1).get<std::int64_t>());
      ++result.unchanged;
    } else {
      to_make.push_back(k);
    }
  }
  return to_make;
}

// 2. Make and validate the others, in parallel (generator programs wait on their runs).
void Build::make_tests(const std::vector<std::size_t>& to_make) {
  try {
    tbb::task_arena arena(static_cast<int>(std::max<std::size_t>(options.jobs, 1)));
    arena.execute([&] {
      tbb::parallel_for(std::size_t{0}, to_make.size(),
                        [&](std::size_t m) { make_test(tests[to_make[m]]); });
    });
  } catch (const StopRequested&) {
  }
  if (stop_requested()) {
    result.interrupted = true;
  }
}

// Makes one test's input and checks it against its group's limits (or fails it saying why).
void Build::make_test(PlannedTest& test) {
  if (stop_requested())
    return;
  try {
    test.text = options.makers[test.group][test.entry].make(test.seed, test.index);
  } catch (const StopRequested&) {
    return;
  } catch (const std::exception& error) {
    fail(test, std::string("could not be made: ") + error.what());
    return;
  }
  io::OfficialLimitCheck check(limits_of[test.group], true);
  try {
    options.problem->check_limits(test.text, check);
  } catch (const io::InputError& error) {
    fail(test, "line " + std::to_string(error.line()) + ": " + error.what());
    return;
  }
  if (check.count() != 0) {
    const io::LimitViolation& first = check.violations().front();
    fail(test,
         "line " + std::to_string(first.line) + ": " + first.message +
             (check.count() > 1 ? " (and " + std::to_string(check.count() - 1) + " more)" : ""));
    return;
  }
  test.largest = check.largest();
  test.text_hash = hash_of(test.text);
}

// The tests made that are valid and whose input files are not in the way.
std::vector<std::size_t> Build::tests_to_write(const std::vector<std::size_t>& to_make) {
  std::vector<std::size_t> valid;
  for (const std::size_t k : to_make) {
    PlannedTest& test = tests[k];
    if (test.failed || test.text.empty())  // broke a limit, or a stop came before it was made
      continue;
    const auto files = files_of(test);  // answers are looked at once solved
    if (std::none_of(files.begin(), files.end(), [&](const auto& file) {
          return !file.second && in_the_way(&test, file.first, test.text);
        }))
      valid.push_back(k);
  }
  return valid;
}

// 3a. The inputs, written before they are solved (the solve reads them from their files).
void Build::write_inputs(tbb::task_arena& writers, const std::vector<std::size_t>& valid) {
  writers.execute([&] {
    tbb::parallel_for(std::size_t{0}, valid.size(), [&](std::size_t m) {
      const PlannedTest& test = tests[valid[m]];
      write(test.input_path, test.text, test.text_hash);
    });
  });
}

// 3b. Solves the inputs written (through the cache); the tests answered, less those with an
// answer file in the way.
std::vector<std::size_t> Build::solve_inputs(const std::vector<std::size_t>& valid) {
  std::vector<io::InputFile> files;
  for (const std::size_t k : valid)
    files.push_back({root / tests[k].input_path, root / tests[k].answer_path, {}});
  SolveOptions solve;
  solve.problem = options.problem;
  solve.inputs = io::InputList(std::move(files));
  solve.cache = options.cache;
  std::vector<char> solved(valid.size(), 0);
  solve.answers_to = [&](std::size_t index, const std::vector<std::string>& answers) {
    std::string text;
    for (std::size_t c = 0; c < answers.size(); ++c)
      text += options.problem->answer_line(c + 1, answers[c]);
    tests[valid[index]].answers_hash = hash_of(text);
    tests[valid[index]].answers = std::move(text);
    solved[index] = 1;
  };
  const RunSummary summary = run_solve(solve);
  result.interrupted = summary.interrupted;
  std::vector<std::size_t> answered;
  for (std::size_t m = 0; m < valid.size(); ++m) {
    if (solved[m])
      answered.push_back(valid[m]);
    else if (!summary.interrupted)
      fail(tests[valid[m]], "could not be solved");
  }
  // An answer file in the way that holds other answers is not the build's to replace.
  std::erase_if(answered, [&](std::size_t k) {
    const auto places = files_of(tests[k]);
    return std::any_of(places.begin(), places.end(), [&](const auto& file) {
      return file.second && in_the_way(&tests[k], file.first, tests[k].answers);
    });
  });
  return answered;
}

// 3c. The answers and the copies of the tests answered, which are then up to date.
void Build::write_answers(tbb::task_arena& writers, const std::vector<std::size_t>& answered) {
  writers.execute([&] {
    tbb::parallel_for(std::size_t{0}, answered.size(), [&](std::size_t m) {
      const PlannedTest& test = tests[answered[m]];
      write(test.answer_path, test.answers, test.answers_hash);
      for (const auto& [input, answer] : test.copies) {
        write(input, test.text, test.text_hash);
        write(answer, test.answers, test.answers_hash);
      }
    });
  });
  for (const std::size_t k : answered)
    tests[k].up_to_date = true;
  result.made = answered.size();
}

// The unchanged tests' files stay as recorded; so do an earlier build's files of a test not
// written this time (the plan still names it: they are not removed, the exit status says it).
void Build::keep_unwritten_tests_files() {
  for (const PlannedTest& test : tests) {
    if ((test.up_to_date && test.text.empty()) || test.failed) {
      for (const auto& [file, is_answer] : files_of(test)) {
        if (const auto recorded = old.files.find(file);
            recorded != old.files.end() && new_files.count(file) == 0)
          new_files[file] = recorded->second;
      }
    }
  }
}

// 4. The layout's own files.
void Build::write_layout_files() {
  if (options.layout == io::Layout::kattis) {
    for (const auto& [relative, content] :
         kattis_group_files(plan, options.metadata.format, limits_of)) {
      if (!in_the_way(nullptr, relative, content))
        write(relative, content, hash_of(content));
    }
    write_validator();
    complete_problem_yaml();
  } else if (!result.interrupted) {
    // task.yaml is the setter's: only the keys of the groups are rewritten, and it is never
    // removed.
    std::string old_task;
    std::error_code error;
    if (fs::exists(root / "task.yaml", error))
      old_task = io::read_file(root / "task.yaml");
    const std::string task = cms_task_yaml(old_task, plan, tests);
    if (task != old_task) {
      io::write_file_atomically(root / "task.yaml", task);
      ++written;
    }
  }
}

// gamebatch's validator of the game, which every judge system needs, as a directory program: the
// judges' tools (problemtools, DOMjudge, BAPCtools) compile a directory holding one C++ source,
// and call it with each group's flags (the group's limits, `--n 1..10`).
void Build::write_validator() {
  const std::string relative = "input_validators/gamebatch/validate.cpp";
  const std::string source = io::validator_source(plan.game);
  if (!in_the_way(nullptr, relative, source))
    write(relative, source, hash_of(source));
}

// problem.yaml is the setter's too: the keys the layout needs and it lacks are appended, each
// other byte kept; it is never removed. A file where the appended keys would not read as keys
// (its top level is no block mapping) is left as it is, and the build fails saying what to add.
void Build::complete_problem_yaml() {
  const io::KattisMetadata& metadata = options.metadata;
  const std::string missing = missing_problem_keys(metadata, plan_has_points(plan));
  if (missing.empty())
    return;
  std::string text = metadata.text;
  if (!text.empty() && text.back() != '\n')
    text += '\n';
  text += "# Added by gamebatch build: the " +
          std::string(io::kattis_format_name(metadata.format)) + " format needs it.\n" + missing;
  bool reads = false;
  try {
    const io::KattisMetadata again = io::parse_kattis_metadata(text);
    reads = (again.has_type || !plan_has_points(plan)) &&
            (again.has_uuid || metadata.format == io::KattisFormat::legacy);
  } catch (const io::UsageError&) {
  }
  if (!reads) {
    result.failures.push_back("problem.yaml: lacks what the " +
                              std::string(io::kattis_format_name(metadata.format)) +
                              " format needs and cannot be completed by appending (is its top "
                              "level a block mapping?); add it yourself:\n" +
                              missing);
    return;
  }
  io::write_file_atomically(root / "problem.yaml", text);
  ++written;
  std::string keys;
  for (std::size_t start = 0; start < missing.size();) {
    const std::size_t end = missing.find('\n', start);
    keys += (keys.empty() ? "'" : ", '") + missing.substr(start, end - start) + "'";
    start = end + 1;
  }
  result.warnings.push_back("problem.yaml: added " + keys + " (the " +
                            std::string(io::kattis_format_name(metadata.format)) +
                            " format needs it); its other lines are as they were");
}

// 5. Files of an earlier build that the plan no longer names.
void Build::remove_stale_files() {
  if (!result.interrupted) {
    for (const auto& [file, hash] : old.files) {
      if (new_files.count(file) != 0)
        continue;
      std::error_code error;
      if (!fs::exists(root / file, error))
        continue;
      if (disk_hash(file) != hash.hash) {
        result.warnings.push_back(file + ": changed since gamebatch build wrote it: left as it is");
        continue;
      }
      fs::remove(root / file, error);
      ++result.removed;
      // Its folders, as far up as they are left empty (fs::remove keeps one that is not).
      for (fs::path folder = fs::path(file).parent_path(); !folder.empty();
           folder = folder.parent_path()) {
        if (!fs::remove(root / folder, error))
          break;
      }
    }
  } else {
    for (const auto& [file, hash] : old.files) {  // an interrupted build forgets nothing
      if (new_files.count(file) == 0)
        new_files[file] = hash;
    }
  }
}

// 6. The manifest.
void Build::write_manifest(const fs::path& manifest_path) {
  nlohmann::ordered_json manifest = {{"schema", kManifestSchema},
                                     {"layout", io::layout_name(options.layout)},
                                     {"game", plan.game}};
  // Plain (sorted) objects: an ordered_json object looks keys up one by one.
  nlohmann::json recorded_tests = nlohmann::json::object();
  for (const PlannedTest& test : tests) {
    if (!test.up_to_date || test.failed)
      continue;
    nlohmann::json largest = nlohmann::json::array();
    for (const auto& [parameter, value] : test.largest)
      largest.push_back({parameter, value});
    recorded_tests[test.key] = {{"recipe", test.recipe}, {"largest", largest}};
  }
  manifest["tests"] = std::move(recorded_tests);
  nlohmann::json files = nlohmann::json::object();
  for (const auto& [file, record] : new_files)
    files[file] = {record.hash, record.size, record.mtime_ns};
  manifest["files"] = std::move(files);
  const std::string manifest_text = manifest.dump(1) + "\n";
  if (!io::file_holds(manifest_path, manifest_text))
    io::write_file_atomically(manifest_path, manifest_text);
}

// 7. The groups' summaries.
void Build::summarise_groups() {
  for (std::size_t group = 0; group < plan.groups.size(); ++group) {
    GroupSummary summary;
    summary.name = plan.groups[group].name;
    summary.score = plan.groups[group].score;
    for (const std::string_view parameter : options.problem->parameters())
      summary.largest.emplace_back(std::string(parameter), std::int64_t{-1});
    for (const PlannedTest& test : tests) {
      if (test.failed || !test.up_to_date ||
          std::find(test.holders.begin(), test.holders.end(), group) == test.holders.end())
        continue;
      ++summary.tests;
      for (const auto& [parameter, value] : test.largest) {
        for (auto& [name, largest] : summary.largest) {
          if (name == parameter)
            largest = std::max(largest, value);
        }
      }
    }
    result.groups.push_back(std::move(summary));
  }
}

}  // namespace

BuildResult build_package(const BuildOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  BuildResult result;
  Build build(options, result);
  for (std::size_t group = 0; group < options.plan.groups.size(); ++group)
    build.limits_of.push_back(io::test_limits(options.plan, group));
  build.tests = plan_tests(options, build.limits_of);
  result.tests = build.tests.size();
  const fs::path manifest_path = options.root / kBuildManifestName;
  const fs::path old_manifest_path = options.root / io::kOldBuildRecordName;
  std::error_code error;
  const bool renamed = !fs::exists(manifest_path, error) && fs::exists(old_manifest_path, error);
  build.old = read_manifest(renamed ? old_manifest_path : manifest_path);

  const std::vector<std::size_t> to_make = build.tests_to_make();
  build.make_tests(to_make);
  const std::vector<std::size_t> valid = build.tests_to_write(to_make);
  // 3. Write the inputs, solve them (through the cache), write the answers and the copies.
  if (!result.interrupted && !valid.empty()) {
    tbb::task_arena writers(static_cast<int>(io::kDefaultFileWriters));
    build.write_inputs(writers, valid);
    build.write_answers(writers, build.solve_inputs(valid));
  }
  build.keep_unwritten_tests_files();
  build.write_layout_files();
  result.written = build.written.load();
  build.remove_stale_files();
  build.write_manifest(manifest_path);
  if (renamed)  // judges' tools reject its old name (a dot file)
    fs::remove(old_manifest_path, error);
  build.summarise_groups();
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

std::vector<std::string> problem_yaml_conflicts(const io::KattisMetadata& metadata,
                                                const io::PackagePlan& plan) {
  std::vector<std::string> conflicts;
  if (metadata.format == io::KattisFormat::legacy && metadata.time_limit_line > 0)
    conflicts.push_back(
        "problem.yaml:" + std::to_string(metadata.time_limit_line) +
        ": limits.time_limit is not in the legacy Kattis format (problem.yaml has no "
        "problem_format_version), and problemtools rejects the package for it: remove it (the "
        "legacy format derives the time limit from the accepted submissions' slowest run times "
        "limits.time_multiplier, default 5, as check does), or declare problem_format_version: "
        "2023-07-draft or 2025-09, which have it");
  if (plan_has_points(plan) && metadata.has_type && !metadata.scoring)
    conflicts.push_back(
        "problem.yaml: its type is not scoring, but the groups of gamebatch.toml have points: "
        "make it 'type: scoring' (or give the groups no points)");
  return conflicts;
}

std::vector<std::string> group_summary_lines(const BuildResult& result) {
  std::vector<std::string> lines;
  for (const GroupSummary& group : result.groups) {
    std::string line = "group " + group.name + ": " + std::to_string(group.tests) +
                       (group.tests == 1 ? " test" : " tests");
    for (const auto& [parameter, largest] : group.largest) {
      if (largest >= 0)
        line += ", " + parameter + " <= " + std::to_string(largest);
    }
    char points[64];
    std::snprintf(points, sizeof points, "; %g points", group.score);
    lines.push_back(line + points);
  }
  return lines;
}

std::string build_summary_line(const BuildResult& result, const std::string& time) {
  std::string line = "build: " + std::to_string(result.tests) + " tests";
  if (result.written == 0 && result.removed == 0 && result.failures.empty() && !result.interrupted)
    return line + ", nothing to write: every file is as the plan makes it; " + time;
  line += ": " + std::to_string(result.made) + " made, " + std::to_string(result.unchanged) +
          " unchanged";
  if (!result.failures.empty())
    line += ", " + std::to_string(result.failures.size()) + " not written";
  line += "; " + std::to_string(result.written) + " files written, " +
          std::to_string(result.removed) + " removed; " + time;
  if (result.interrupted)
    line += " (interrupted)";
  return line;
}

}  // namespace gamebatch::pipeline
