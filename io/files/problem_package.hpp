// Problem packages as setters keep them: which files of a directory are inputs, what their answer
// files are called, and which solution sources it holds with the verdicts they must get.
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
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// What a submission must get, from the directory it sits in (Kattis' names).
enum class Expectation { accepted, wrong_answer, time_limit_exceeded, run_time_error };

// "accepted", "wrong_answer", "time_limit_exceeded", "run_time_error".
std::string_view expectation_name(Expectation expectation);

struct PackageSubmission {
  std::string name;            // relative to the package, '/'-separated: "accepted/sol.cpp"
  std::filesystem::path path;  // a source file, an executable, or a directory (multi-file)
  Expectation expected = Expectation::accepted;
};

struct ProblemPackage {
  std::filesystem::path root;  // the package directory, absolute and lexically normal
  Layout layout = Layout::kattis;
  std::string recognised_by;  // what identified it: "problem.yaml", "data/secret/", "tests/01"...
  // The directories whose inputs belong to the package (kattis: data/, or the root when it has
  // no data/; polygon: tests/; cms: input/), walked recursively for the layout's input names.
  std::vector<std::filesystem::path> input_roots;
  std::vector<PackageSubmission> submissions;  // sorted by name
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

// Reads `directory` as a problem package. With `layout`, as that layout (a directory without any
// of its marks is still read that way: its input_roots the directory itself). Without it, the
// layout is detected from its marks (kattis: problem.yaml, data/sample/ or data/secret/; polygon:
// problem.xml, or tests/ holding a file named by digits only; cms: task.yaml, or input/ holding
// input*.txt); nullopt when none is found (a plain directory of inputs). Throws UsageError (exit
// 2) naming both layouts and their marks when two would claim the directory, so that --layout
// must say which. Throws UsageError when `directory` is not a directory.
std::optional<ProblemPackage> recognise_package(const std::filesystem::path& directory,
                                                std::optional<Layout> layout);

}  // namespace gamebatch::io
