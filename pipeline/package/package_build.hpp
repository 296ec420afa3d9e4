// `gamebatch build PACKAGE`: a package's test data made from its plan (io/files/package_plan.hpp),
// every test validated against the statement and its groups' limits, solved exactly, and written
// in the package's layout; incremental through a manifest of what the build wrote.
//
// Layouts:
//   kattis  data/sample/NAME.in/.ans (the group "sample"); data/secret/GROUP/NAME.in/.ans; a test
//           of an included group H is also in GROUP's folder, as H-NAME.in/.ans (the format has
//           no links between groups). The group files are those of the format version that
//           problem.yaml declares (problem_format_version):
//           legacy (none): data/secret/GROUP/testdata.yaml (grading: default, grader_flags: min,
//             accept_score: POINTS, input_validator_flags: the group's limits), and for a scoring
//             plan data/testdata.yaml (on_reject: continue; grader_flags: ignore_sample
//             accept_if_any_accepted sum), data/secret/testdata.yaml (accept_if_any_accepted sum)
//             and data/sample/testdata.yaml (accept_score: 0), so that problemtools scores a
//             partial solution as check does;
//           2023-07-draft, 2025-09: data/secret/GROUP/test_group.yaml (max_score,
//           score_aggregation:
//             min, input_validator_args), data/secret/test_group.yaml (max_score: the total).
//           problem.yaml gets the keys the version needs and it lacks (type: scoring when groups
//           have points; uuid for 2023-07-draft and 2025-09), appended; its other lines are kept.
//   cms     input/inputN.txt, output/outputN.txt, numbered over the plan's tests in order;
//   task.yaml
//           (other keys kept) gets n_input, score_type: GroupMin and score_type_parameters:
//           [[points, "^(000|003)$"], ...], one per group in plan order, each regex matching
//           exactly the codenames of that group's tests (its own and those it includes).
// NAME is "EE-III": the test's entry number in its group and its number in the entry.
//
// The manifest, PACKAGE/gamebatch-build.json (io::kBuildRecordName; before, the dot file
// .gamebatch-build.json, still read), records the layout, each file the build wrote with its
// content hash, and each test's recipe (what its bytes and answers depend on) with the largest
// value of each parameter. A test whose recipe and files are as recorded is neither made nor
// solved again; a file the build wrote that the plan no longer names is removed; a file it did not
// write is never touched (a warning says so).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "io/files/package_plan.hpp"
#include "io/problem.hpp"
#include "pipeline/answers/cache_session.hpp"

namespace gamebatch::pipeline {

// How the tests of one plan entry are made.
struct EntryMaker {
  // The text of test `index` (1-based) of the entry, made with `seed`. Throws std::runtime_error
  // (one line: why) when it cannot (a generator program failed), or StopRequested.
  std::function<std::string(std::uint64_t seed, std::int64_t index)> make;
  // What the entry's tests depend on besides their seed and limits: the copied file's content
  // hash, gen's options, the generator program's hash and arguments.
  std::string recipe;
};

struct BuildOptions {
  const io::Problem* problem = nullptr;
  io::PackagePlan plan;
  std::filesystem::path root;  // the package
  io::Layout layout = io::Layout::kattis;
  io::KattisMetadata metadata;  // kattis: problem.yaml as read (its version picks the group files)
  std::vector<std::vector<EntryMaker>> makers;  // [group][entry], as the plan's
  CacheSession* cache = nullptr;                // nullptr: every answer solved
  std::size_t jobs = 1;                         // generator programs run at once
};

struct GroupSummary {
  std::string name;
  std::size_t tests = 0;  // its own and those it includes
  double score = 0;
  std::vector<std::pair<std::string, std::int64_t>> largest;  // per parameter, over its tests
};

struct BuildResult {
  std::vector<GroupSummary> groups;
  std::size_t tests = 0;      // planned
  std::size_t made = 0;       // made (and validated, solved) in this build
  std::size_t unchanged = 0;  // as the manifest recorded: not made again
  std::size_t written = 0;    // files written (new bytes)
  std::size_t removed = 0;    // files of an earlier build the plan no longer names
  // One line per test that breaks a limit or could not be made, and per file left alone: those
  // tests are not written (an earlier build's files of them stay), and the build exits 1.
  std::vector<std::string> failures;
  std::vector<std::string> warnings;  // files the build did not write, left as they are
  bool interrupted = false;
  double seconds = 0;
};

// Builds the package. Throws std::system_error when a file cannot be written, StopRequested is
// reported through `interrupted` (what was written is whole and in the manifest).
BuildResult build_package(const BuildOptions& options);

// "group small: 8 tests, n <= 10, k <= 11, T <= 5; 15 points", one per group.
std::vector<std::string> group_summary_lines(const BuildResult& result);

// "build: 23 tests: 23 made, 0 unchanged; 46 files written, 0 removed; " and `time`
// (programs/run_setup.hpp's time_text: the whole command's), or for a rebuild that changed
// nothing "build: 23 tests, nothing to write: every file is as the plan makes it; time: ...".
std::string build_summary_line(const BuildResult& result, const std::string& time);

// The manifest's file name in a package.
inline constexpr const char* kBuildManifestName = io::kBuildRecordName;

// What in `metadata` (a Kattis package's problem.yaml) contradicts the layout that `plan` makes,
// one line each naming problem.yaml's line and what to do: a legacy problem.yaml with
// limits.time_limit (the legacy format has none: problemtools rejects it), a type that is not
// scoring where the plan's groups have points. Empty when none.
std::vector<std::string> problem_yaml_conflicts(const io::KattisMetadata& metadata,
                                                const io::PackagePlan& plan);

}  // namespace gamebatch::pipeline
