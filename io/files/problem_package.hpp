// Problem packages as setters keep them: which files of a directory are inputs, what their answer
// files are called, which solution sources it holds with the verdicts they must get, its test
// groups (subtasks) and what each submission must get on them.
//
// Three layouts:
//   kattis   (Kattis problem package format: DOMjudge, Kattis, BAPCtools):
//            problem.yaml, data/sample/X.in, data/secret/X.in -> X.ans beside it;
//            submissions/<verdict>/<file or directory>, <verdict> one of accepted, wrong_answer,
//            time_limit_exceeded, run_time_error.
//   polygon  (Codeforces Polygon): problem.xml, tests/NN -> tests/NN.a (NN: digits only).
//   cms      (CMS, task-maker's Italian format): task.yaml, input/inputN.txt ->
//            output/outputN.txt.
// A plain directory of inputs (none of the above) is read as today: every *.in, X.in -> X.ans.
//
// Groups. kattis: each data/secret/G/ holding test_group.yaml (or the older testdata.yaml) is the
// group G (its max_score, score_aggregation; a legacy testdata.yaml's accept_score and
// grader_flags, inherited from data/testdata.yaml and data/secret/testdata.yaml as problemtools
// does), with data/sample/ as "sample" before them; cms:
// task.yaml's score_type GroupMin / GroupMul, each [points, target] of score_type_parameters the
// group subtaskK; polygon: none yet.
//
// Expectations. Besides a verdict directory's (Expectation), a submission's ExpectationRules come
// from submissions/submissions.yaml (kattis, 2025-09: globs over submission names, permitted /
// required / score on the whole package or on groups) and from task-maker's "@check-KIND: groups"
// lines in its source (kattis and cms). A submission outside the verdict directories is kept, with
// Expectation::stated, when it has rules. A rule naming no group of the package is a UsageError.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/format/official_limits.hpp"

namespace gamebatch::io {

enum class Layout { kattis, polygon, cms };

// "kattis", "polygon", "cms".
std::string_view layout_name(Layout layout);
// The layout called `name` (as layout_name writes it); nullopt for any other text.
std::optional<Layout> parse_layout(std::string_view name);

// Whether `input` (a path, only its last components are looked at) is named as an input of the
// layout: kattis "*.in"; polygon a name of digits only; cms "input*.txt".
bool is_layout_input(Layout layout, const std::filesystem::path& input);

// The answer file of `input` under the layout: kattis X.in -> X.ans (any other name gets ".ans"
// appended, as io::answer_name); polygon NN -> NN.a; cms D/input/inputN.txt ->
// D/output/outputN.txt (an input not in a directory called "input": outputN.txt beside it; a
// name that is not input*.txt gets ".ans" appended, so that its answer is never an input).
// Works on relative paths too (the same mapping of components).
std::filesystem::path layout_answer_path(Layout layout, const std::filesystem::path& input);
// The same on a '/'-separated name, without splitting it into path components (input_set names
// the answers of a million files this way).
std::string layout_answer_text(Layout layout, std::string input);

// What a submission must get, from the directory it sits in (Kattis' names); `stated`: its
// directory says nothing (no verdict directory), what it must get is in its ExpectationRules.
enum class Expectation { accepted, wrong_answer, time_limit_exceeded, run_time_error, stated };

// "accepted", "wrong_answer", "time_limit_exceeded", "run_time_error", "stated".
std::string_view expectation_name(Expectation expectation);

// How a group's points come from its tests' verdicts (Kattis 2025-09 score_aggregation; CMS
// GroupMin is min, Sum is sum):
//   min        the group's max_score when every test is AC, else 0;
//   pass_fail  the same (Kattis' name for a group whose tests all must pass);
//   sum        max_score times the share of its tests that are AC.
enum class ScoreAggregation { min, pass_fail, sum };

// "min", "pass-fail", "sum" (as test_group.yaml spells them).
std::string_view aggregation_name(ScoreAggregation aggregation);

// An inclusive range of a game parameter's values (a group's limit: "n = 1..10").
struct ParameterRange {
  std::string parameter;  // the statement's name: willow T N C, doublemove T n k, ...
  std::int64_t min = 0;
  std::int64_t max = 0;
  friend bool operator==(const ParameterRange&, const ParameterRange&) = default;
};

// A group of tests (a subtask) with its points.
struct TestGroup {
  // The name setters use in @check- lines and in the table: "sample", "small" (kattis
  // data/secret/small/; cms: the plan's name, else "subtask1", "subtask2", ... in task.yaml's
  // order).
  std::string name;
  // Its path under data/ as the Kattis format names groups in submissions.yaml: "sample",
  // "secret/small"; cms: "secret/" + name.
  std::string path;
  double max_score = 0;  // "sample": 0
  ScoreAggregation aggregation = ScoreAggregation::min;
  // Its tests: input files, absolute and lexically normal, in the package's input order. A test
  // may be in several groups (CMS regexes, a plan's `include`).
  std::vector<std::filesystem::path> tests;
  // Where it was read: "data/secret/small/test_group.yaml", "task.yaml score_type_parameters[1]".
  std::string source;
  // The limits of its tests narrower than the statement's: from the package's gamebatch.toml
  // (io/files/package_plan.hpp), with those of the groups that include it, each naming its group
  // ("group small"); empty when none.
  std::vector<NarrowLimit> limits;
};

// Verdict names in expectations are ours (pipeline/judge/judge.hpp): AC WA TLE MLE RE. Kattis' RTE
// reads as RE and MLE (the Kattis format has no MLE of its own).
//
// One thing a submission must get, on the whole package or on some groups.
struct ExpectationRule {
  // Empty: every test of the package (submissions.yaml's top level); else a glob ('*', '?') over
  // group names and paths ("small", "secret/small", "secret/*", "secret": every group but
  // "sample"). A pattern that names no group of the package is an error when it is read.
  std::string groups;
  // Every judged test in scope must get one of these; unset: anything.
  std::optional<std::vector<std::string>> permitted;
  // Some judged test in scope must get one of these; unset: nothing required.
  std::optional<std::vector<std::string>> required;
  // The score (of each group in scope; of the whole submission when `groups` is empty) must lie
  // in [first, second].
  std::optional<std::pair<double, double>> score;
  // Where it was said, for messages: "submissions/submissions.yaml:4",
  // "partial/brute.cpp:3 @check-accepted".
  std::string source;
};

struct PackageSubmission {
  std::string name;            // relative to submissions/, '/'-separated: "accepted/sol.cpp"
  std::filesystem::path path;  // a source file, an executable, or a directory (multi-file)
  Expectation expected = Expectation::accepted;
  // What submissions/submissions.yaml and the source's task-maker @check- lines say of it.
  std::vector<ExpectationRule> rules;
};

struct ProblemPackage {
  std::filesystem::path root;  // the package directory, absolute and lexically normal
  Layout layout = Layout::kattis;
  std::string recognised_by;  // what identified it: "problem.yaml", "data/secret/", "tests/01"...
  // The directories whose inputs belong to the package (kattis: data/, or the root when it has
  // no data/; data/'s folders but invalid_input/, invalid_inputs/ and the output validators' where
  // it has those; polygon: tests/; cms: input/), walked recursively for the layout's input names.
  std::vector<std::filesystem::path> input_roots;
  std::vector<PackageSubmission> submissions;  // sorted by name
  // Its test groups (subtasks), "sample" first when there is one; empty: the package has none
  // (its tests are judged pass-fail as one set, as before groups).
  std::vector<TestGroup> groups;
  // The game its plan (PACKAGE/gamebatch.toml, io/files/package_plan.hpp) names; empty when it
  // has none (or no groups yet: the plan is not built).
  std::string plan_game;
  // The package's own time limit, where it gives one (kattis: problem.yaml limits: time_limit;
  // polygon: problem.xml <time-limit> in ms; cms: task.yaml time_limit), and where it was read.
  std::optional<double> time_limit_seconds;
  std::string time_limit_source;  // "problem.yaml limits.time_limit", ...; empty when none
  // The package's memory limit, in MiB, where it gives one (kattis: problem.yaml limits: memory;
  // polygon: problem.xml <memory-limit> in bytes; cms: task.yaml memory_limit), and where.
  std::optional<double> memory_limit_mb;
  std::string memory_limit_source;  // "problem.yaml limits.memory", ...; empty when none
  // Kattis' rule for a time limit from the accepted submissions: their slowest run times this
  // (problem.yaml limits: time_multiplier, default 5).
  double time_multiplier = 5;
  // Things found and left out, one line each ("submissions/foo/x.cpp: 'foo' is no verdict
  // directory of the Kattis format; skipped").
  std::vector<std::string> warnings;
};

// The version of the Kattis problem package format a problem.yaml declares
// (problem_format_version): none or "legacy" is legacy; "2023-07-draft" (or "2023-07"); "2025-09".
enum class KattisFormat { legacy, draft_2023_07, v2025_09 };

// "legacy", "2023-07-draft", "2025-09".
std::string_view kattis_format_name(KattisFormat format);

// What gamebatch build needs to know of a Kattis package's problem.yaml.
struct KattisMetadata {
  bool exists = false;  // the package has a problem.yaml
  std::string text;     // its bytes
  KattisFormat format = KattisFormat::legacy;
  bool has_type = false;
  bool scoring = false;  // `type` is, or lists, scoring
  bool has_uuid = false;
  bool has_name = false;
  int time_limit_line = 0;  // the line of limits.time_limit; 0 when it has none
};

// Reads `text` as a problem.yaml. Throws UsageError naming "problem.yaml" and the line where it is
// no YAML mapping or names a problem_format_version that is none of legacy, 2023-07-draft and
// 2025-09.
KattisMetadata parse_kattis_metadata(std::string text);
// The same of PACKAGE/problem.yaml (a package without one: exists false, legacy); UsageError too
// when it cannot be read.
KattisMetadata read_kattis_metadata(const std::filesystem::path& package);

// The record of what `gamebatch build` wrote into a package (pipeline/package/package_build.hpp),
// at the package's root: a name the judges' tools accept (problemtools rejects file names starting
// with a dot), and the one it had before, read when the new one is not there.
inline constexpr const char* kBuildRecordName = "gamebatch-build.json";
inline constexpr const char* kOldBuildRecordName = ".gamebatch-build.json";

// The layout the build record in `package` names; nullopt when it has none (or none readable).
std::optional<Layout> built_layout(const std::filesystem::path& package);

// Whether `text` matches the glob `pattern`: '*' any run of characters and '?' any one, neither
// matching '/'; "{a,b}" either alternative (nested braces too). No escapes, no [classes].
bool glob_matches(std::string_view pattern, std::string_view text);

// Whether a rule's group pattern covers `group`: the glob matches its name or its path; "secret"
// covers every group but "sample".
bool group_pattern_matches(std::string_view pattern, const TestGroup& group);

// Reads `directory` as a problem package. With `layout`, as that layout (a directory without any
// of its marks is still read that way: its input_roots the directory itself). Without it, the
// layout is detected from its marks (kattis: problem.yaml, data/sample/ or data/secret/; polygon:
// problem.xml, or tests/ holding a file named by digits only; cms: task.yaml, or input/ holding
// input*.txt); nullopt when none is found (a plain directory of inputs). Throws UsageError (exit
// 2) naming both layouts and their marks when two would claim the directory, so that --layout
// must say which; unless the directory's build record (kBuildRecordName) names one of them: then
// it is read as that one, with a warning saying so. Throws UsageError when `directory` is not a
// directory, and when a package's expectations cannot be read (submissions.yaml's errors, a rule
// naming no group, a malformed task.yaml score_type_parameters), naming the file and line. A
// malformed problem.yaml, task.yaml, test_group.yaml or problem.xml is a warning naming its line:
// its settings are not used.
std::optional<ProblemPackage> recognise_package(const std::filesystem::path& directory,
                                                std::optional<Layout> layout);

}  // namespace gamebatch::io
