#include "io/files/problem_package.hpp"

#include <yaml-cpp/yaml.h>
#include <pugixml.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>
#include <system_error>
#include <utility>

#include "io/files/input_set.hpp"
#include "io/files/package_plan.hpp"
#include "io/files/path_names.hpp"

namespace gamebatch::io {

namespace fs = std::filesystem;

std::string_view layout_name(Layout layout) {
  switch (layout) {
    case Layout::kattis:
      return "kattis";
    case Layout::polygon:
      return "polygon";
    case Layout::cms:
      return "cms";
  }
  return "kattis";
}

std::optional<Layout> parse_layout(std::string_view name) {
  for (const Layout layout : {Layout::kattis, Layout::polygon, Layout::cms}) {
    if (name == layout_name(layout))
      return layout;
  }
  return std::nullopt;
}

std::string_view expectation_name(Expectation expectation) {
  switch (expectation) {
    case Expectation::accepted:
      return "accepted";
    case Expectation::wrong_answer:
      return "wrong_answer";
    case Expectation::time_limit_exceeded:
      return "time_limit_exceeded";
    case Expectation::run_time_error:
      return "run_time_error";
    case Expectation::stated:
      return "stated";
  }
  return "accepted";
}

std::string_view aggregation_name(ScoreAggregation aggregation) {
  switch (aggregation) {
    case ScoreAggregation::min:
      return "min";
    case ScoreAggregation::pass_fail:
      return "pass-fail";
    case ScoreAggregation::sum:
      return "sum";
  }
  return "min";
}

namespace {

// `pattern` without braces against `text`: '*' any run and '?' any one character, neither '/'.
bool plain_glob_matches(std::string_view pattern, std::string_view text) {
  while (!pattern.empty()) {
    if (pattern.front() == '*') {
      pattern.remove_prefix(1);
      for (std::size_t skip = 0;; ++skip) {
        if (plain_glob_matches(pattern, text.substr(skip)))
          return true;
        if (skip == text.size() || text[skip] == '/')
          return false;
      }
    }
    if (text.empty() ||
        (pattern.front() == '?' ? text.front() == '/' : pattern.front() != text.front()))
      return false;
    pattern.remove_prefix(1);
    text.remove_prefix(1);
  }
  return text.empty();
}

// The patterns `pattern`'s first {a,b,...} stands for (nested braces kept for the next round);
// a '{' without its '}' is a character.
std::vector<std::string> expand_first_brace(std::string_view pattern) {
  for (std::size_t open = pattern.find('{'); open != std::string_view::npos;
       open = pattern.find('{', open + 1)) {
    std::vector<std::string_view> alternatives;
    int depth = 0;
    std::size_t from = open + 1;
    for (std::size_t at = open + 1; at < pattern.size(); ++at) {
      if (pattern[at] == '{') {
        ++depth;
      } else if (pattern[at] == '}' && depth > 0) {
        --depth;
      } else if ((pattern[at] == ',' || pattern[at] == '}') && depth == 0) {
        alternatives.push_back(pattern.substr(from, at - from));
        from = at + 1;
        if (pattern[at] == '}') {
          std::vector<std::string> expanded;
          for (const std::string_view alternative : alternatives)
            expanded.push_back(std::string(pattern.substr(0, open)) + std::string(alternative) +
                               std::string(pattern.substr(at + 1)));
          return expanded;
        }
      }
    }
  }
  return {std::string(pattern)};
}

}  // namespace

bool glob_matches(std::string_view pattern, std::string_view text) {
  const std::vector<std::string> expanded = expand_first_brace(pattern);
  if (expanded.size() == 1 && expanded.front() == pattern)
    return plain_glob_matches(pattern, text);
  return std::any_of(expanded.begin(), expanded.end(),
                     [text](const std::string& one) { return glob_matches(one, text); });
}

bool group_pattern_matches(std::string_view pattern, const TestGroup& group) {
  if (pattern == "secret")
    return group.name != "sample";
  return glob_matches(pattern, group.name) || glob_matches(pattern, group.path);
}

namespace {

bool is_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// ".in" alone is a hidden file without an extension, as path::extension() has it.
bool is_kattis_input_name(std::string_view name) {
  return name.size() > 3 && name.ends_with(".in");
}

bool is_cms_input_name(std::string_view name) {
  return name.size() >= 9 && name.starts_with("input") && name.ends_with(".txt");
}

bool is_input_name(Layout layout, std::string_view name) {
  switch (layout) {
    case Layout::kattis:
      return is_kattis_input_name(name);
    case Layout::polygon:
      return is_digits(name);
    case Layout::cms:
      return is_cms_input_name(name);
  }
  return false;
}

}  // namespace

bool is_layout_input(Layout layout, const fs::path& input) {
  return is_input_name(layout, last_component(input.native()));
}

std::string layout_answer_text(Layout layout, std::string input) {
  switch (layout) {
    case Layout::kattis:
      if (is_kattis_input_name(last_component(input)))
        input.resize(input.size() - 3);
      input += ".ans";
      return input;
    case Layout::polygon:
      input += ".a";
      return input;
    case Layout::cms:
      break;
  }
  const std::size_t slash = input.rfind('/');
  const std::size_t name_at = slash == std::string::npos ? 0 : slash + 1;
  if (!is_cms_input_name(std::string_view(input).substr(name_at))) {
    // Not named as a CMS input: an answer beside it that can never be the input itself.
    input += ".ans";
    return input;
  }
  input.replace(name_at, 5, "output");  // "input" -> "output"
  if (slash != std::string::npos && slash > 0) {
    // The directory holding it: "input" becomes "output" too.
    const std::size_t previous = input.rfind('/', slash - 1);
    const std::size_t parent_at = previous == std::string::npos ? 0 : previous + 1;
    if (input.compare(parent_at, slash - parent_at, "input") == 0)
      input.replace(parent_at, 5, "output");
  }
  return input;
}

fs::path layout_answer_path(Layout layout, const fs::path& input) {
  return fs::path(layout_answer_text(layout, input.native()));
}

namespace {

// Hidden files and editor backups are no one's submission.
bool is_ignored_name(std::string_view name) {
  return name.empty() || name.front() == '.' || name.back() == '~';
}

bool directory_exists(const fs::path& path) {
  std::error_code error;
  return fs::is_directory(path, error);
}

bool regular_file_exists(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

// The entries of `directory` sorted by name; none when it cannot be read.
std::vector<fs::directory_entry> sorted_entries(const fs::path& directory) {
  std::vector<fs::directory_entry> entries;
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error))
    entries.push_back(*it);
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });
  return entries;
}

// The smallest name of a regular file in `directory` that `wanted` accepts; empty when none.
template <class Predicate>
std::string first_file_named(const fs::path& directory, Predicate wanted) {
  for (const fs::directory_entry& entry : sorted_entries(directory)) {
    const std::string name = entry.path().filename().string();
    std::error_code error;
    if (wanted(name) && entry.is_regular_file(error))
      return name;
  }
  return {};
}

// What marks `layout` finds in `directory`, as ProblemPackage::recognised_by names them.
std::vector<std::string> marks_of(Layout layout, const fs::path& directory) {
  std::vector<std::string> marks;
  switch (layout) {
    case Layout::kattis:
      if (regular_file_exists(directory / "problem.yaml"))
        marks.emplace_back("problem.yaml");
      if (directory_exists(directory / "data" / "sample"))
        marks.emplace_back("data/sample/");
      if (directory_exists(directory / "data" / "secret"))
        marks.emplace_back("data/secret/");
      break;
    case Layout::polygon:
      if (regular_file_exists(directory / "problem.xml"))
        marks.emplace_back("problem.xml");
      if (const std::string test = first_file_named(directory / "tests", is_digits); !test.empty())
        marks.push_back("tests/" + test);
      break;
    case Layout::cms:
      if (regular_file_exists(directory / "task.yaml"))
        marks.emplace_back("task.yaml");
      if (const std::string input = first_file_named(directory / "input", is_cms_input_name);
          !input.empty())
        marks.push_back("input/" + input);
      break;
  }
  return marks;
}

std::string_view trim(std::string_view text) {
  const std::size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos)
    return {};
  const std::size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

// A finite number ("2", "1.5", "1e1", "-3"); nullopt for anything else.
std::optional<double> finite_number(std::string_view text) {
  text = trim(text);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(value))
    return std::nullopt;
  return value;
}

// A positive finite number; nullopt for anything else.
std::optional<double> positive_number(std::string_view text) {
  const std::optional<double> value = finite_number(text);
  return value && *value > 0 ? value : std::nullopt;
}

std::optional<std::int64_t> integer(std::string_view text) {
  text = trim(text);
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

// ---------------------------------------------------------------- YAML and XML files

// The 1-based line of a node, or `fallback` where yaml-cpp has no mark (a null value, a key the
// mapping lacks).
int line_of(const YAML::Node& node, int fallback = 0) {
  // A key a mapping lacks gives an invalid node, whose Mark() throws YAML::InvalidNode.
  if (!node.IsDefined())
    return fallback;
  const YAML::Mark mark = node.Mark();
  return mark.is_null() ? fallback : mark.line + 1;
}

// A node as text for messages: a scalar as written, anything else in YAML's flow style.
std::string text_of(const YAML::Node& node) {
  if (!node || node.IsNull())
    return "";
  if (node.IsScalar())
    return node.Scalar();
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

// The package's file NAME whole; nullopt when it has none, or (with a warning) when it cannot be
// read.
std::optional<std::string> read_package_file(const std::string& name, ProblemPackage& package) {
  const fs::path path = package.root / name;
  if (!regular_file_exists(path))
    return std::nullopt;
  try {
    return read_file(path);
  } catch (const std::system_error& error) {
    package.warnings.push_back(name + ": " + error.what() + "; its settings are not used");
    return std::nullopt;
  }
}

// The package's YAML file NAME parsed; nullopt when it has none, or (with a warning naming the
// line) when it is no YAML.
std::optional<YAML::Node> read_package_yaml(const std::string& name, ProblemPackage& package) {
  const std::optional<std::string> text = read_package_file(name, package);
  if (!text)
    return std::nullopt;
  try {
    return YAML::Load(*text);
  } catch (const YAML::Exception& error) {
    package.warnings.push_back(name + ":" + std::to_string(error.mark.line + 1) +
                               ": not valid YAML (" + error.msg + "); its settings are not used");
    return std::nullopt;
  }
}

// Sets a number of the package from `value`, or warns where it is no positive number.
void read_setting(std::optional<double>& setting, const std::string& value,
                  const std::string& where, const std::string& what, ProblemPackage& package) {
  if (const std::optional<double> number = positive_number(value)) {
    setting = number;
    return;
  }
  package.warnings.push_back(where + ": " + what + " must be a positive number, found '" + value +
                             "'; ignored");
}

// The same from a YAML value, its line in `file` named in the warning.
void read_setting(std::optional<double>& setting, const YAML::Node& value, const std::string& file,
                  const std::string& what, ProblemPackage& package) {
  read_setting(setting, text_of(value), file + ":" + std::to_string(line_of(value)), what, package);
}

// problem.yaml: limits.time_limit (seconds), limits.time_multiplier, limits.memory (MiB).
void read_problem_yaml(ProblemPackage& package) {
  const std::optional<YAML::Node> root = read_package_yaml("problem.yaml", package);
  // Anything but a mapping (an empty file, a bare scalar) has no settings.
  if (!root || !root->IsMap())
    return;
  const YAML::Node limits = (*root)["limits"];
  if (!limits || !limits.IsMap())
    return;
  std::optional<double> time_limit, multiplier, memory;
  if (const YAML::Node value = limits["time_limit"])
    read_setting(time_limit, value, "problem.yaml", "limits.time_limit", package);
  if (const YAML::Node value = limits["time_multiplier"])
    read_setting(multiplier, value, "problem.yaml", "limits.time_multiplier", package);
  if (const YAML::Node value = limits["memory"])
    read_setting(memory, value, "problem.yaml", "limits.memory (MiB)", package);
  if (time_limit) {
    package.time_limit_seconds = time_limit;
    package.time_limit_source = "problem.yaml limits.time_limit";
  }
  if (multiplier)
    package.time_multiplier = *multiplier;
  if (memory) {
    package.memory_limit_mb = memory;
    package.memory_limit_source = "problem.yaml limits.memory";
  }
}

// Polygon writes "failed" for a run-time error (its API's RE); "runtime-error" is taken as well.
std::optional<Expectation> polygon_expectation(std::string_view tag) {
  if (tag == "main" || tag == "accepted")
    return Expectation::accepted;
  if (tag == "wrong-answer")
    return Expectation::wrong_answer;
  if (tag == "time-limit-exceeded")
    return Expectation::time_limit_exceeded;
  if (tag == "failed" || tag == "runtime-error")
    return Expectation::run_time_error;
  return std::nullopt;
}

// A path a package file names: relative, inside the package.
bool stays_inside(const fs::path& relative) {
  if (relative.empty() || relative.is_absolute())
    return false;
  for (const fs::path& component : relative.lexically_normal()) {
    if (component == "..")
      return false;
  }
  return true;
}

// The first element called `name` in document order; null when none.
pugi::xml_node first_element(const pugi::xml_node& root, const char* name) {
  return root.find_node([name](const pugi::xml_node& node) {
    return node.type() == pugi::node_element && std::string_view(node.name()) == name;
  });
}

// Every element called `name`, in document order.
std::vector<pugi::xml_node> elements_named(pugi::xml_node root, const char* name) {
  struct Walker : pugi::xml_tree_walker {
    const char* wanted = nullptr;
    std::vector<pugi::xml_node> found;
    bool for_each(pugi::xml_node& node) override {
      if (node.type() == pugi::node_element && std::string_view(node.name()) == wanted)
        found.push_back(node);
      return true;
    }
  } walker;
  walker.wanted = name;
  root.traverse(walker);
  return walker.found;
}

// A Polygon <solution tag=...> with its first <source path=...>, as a submission.
void read_polygon_solution(const pugi::xml_node& solution, ProblemPackage& package) {
  const std::string tag = solution.attribute("tag").value();
  pugi::xml_node source;
  for (const pugi::xml_node& candidate : elements_named(solution, "source")) {
    if (candidate.attribute("path")) {
      source = candidate;
      break;
    }
  }
  if (!source) {
    package.warnings.push_back("problem.xml: a <solution tag=\"" + tag +
                               "\"> without a <source path=...>; skipped");
    return;
  }
  const std::string name =
      fs::path(source.attribute("path").value()).lexically_normal().generic_string();
  const std::optional<Expectation> expected = polygon_expectation(tag);
  if (!expected) {
    package.warnings.push_back(name + ": the Polygon tag '" + tag +
                               "' is none of main, accepted, wrong-answer, "
                               "time-limit-exceeded, failed; skipped");
    return;
  }
  if (!stays_inside(name)) {
    package.warnings.push_back("problem.xml: the solution path '" + name +
                               "' is not inside the package; skipped");
    return;
  }
  const fs::path path = (package.root / name).lexically_normal();
  std::error_code error;
  if (!fs::exists(path, error)) {
    package.warnings.push_back(name + ": named by problem.xml but missing; skipped");
    return;
  }
  package.submissions.push_back({name, path, *expected, {}});
}

// problem.xml: the first <time-limit> (milliseconds), the first <memory-limit> (bytes) and the
// <solution tag=...> elements. Polygon packages have no test groups here (their groups live in
// <testset><groups>, with points per test, not read yet).
void read_problem_xml(ProblemPackage& package) {
  const std::optional<std::string> text = read_package_file("problem.xml", package);
  if (!text)
    return;
  pugi::xml_document document;
  const pugi::xml_parse_result result = document.load_buffer(text->data(), text->size());
  // A file without any element (empty, plain text) says nothing, as before pugixml.
  if (result.status == pugi::status_no_document_element)
    return;
  if (!result) {
    const auto offset = static_cast<std::size_t>(std::max<std::ptrdiff_t>(result.offset, 0));
    const auto line =
        1 + std::count(text->begin(),
                       text->begin() + static_cast<std::ptrdiff_t>(std::min(offset, text->size())),
                       '\n');
    package.warnings.push_back("problem.xml:" + std::to_string(line) + ": not valid XML (" +
                               result.description() + "); its settings are not used");
    return;
  }
  if (const pugi::xml_node limit = first_element(document, "time-limit")) {
    std::optional<double> milliseconds;
    read_setting(milliseconds, std::string(trim(limit.text().get())), "problem.xml",
                 "<time-limit> (milliseconds)", package);
    if (milliseconds) {
      package.time_limit_seconds = *milliseconds / 1000;
      package.time_limit_source = "problem.xml <time-limit>";
    }
  }
  if (const pugi::xml_node limit = first_element(document, "memory-limit")) {
    std::optional<double> bytes;
    read_setting(bytes, std::string(trim(limit.text().get())), "problem.xml",
                 "<memory-limit> (bytes)", package);
    if (bytes) {
      package.memory_limit_mb = *bytes / (1 << 20);
      package.memory_limit_source = "problem.xml <memory-limit>";
    }
  }
  for (const pugi::xml_node& solution : elements_named(document, "solution"))
    read_polygon_solution(solution, package);
}

// ---------------------------------------------------------------- test groups

// Every input of the layout under `directory`, absolute and lexically normal, in input_set's order
// (fs::path's, component by component); links to directories are not followed, as there.
std::vector<fs::path> inputs_under(Layout layout, const fs::path& directory) {
  std::vector<fs::path> inputs;
  std::error_code error;
  fs::recursive_directory_iterator walk(directory, fs::directory_options::none, error);
  for (; !error && walk != fs::recursive_directory_iterator(); walk.increment(error)) {
    std::error_code type_error;
    if (is_layout_input(layout, walk->path()) && walk->is_regular_file(type_error))
      inputs.push_back(walk->path().lexically_normal());
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

// max_score of a test_group.yaml: an integer; `unbounded` or missing gives 0, with a warning (a
// group without a bound has no points to share out here).
double read_max_score(const YAML::Node& root, const std::string& source, ProblemPackage& package) {
  const YAML::Node value = root.IsMap() ? root["max_score"] : YAML::Node();
  if (!root.IsMap() || !value) {
    package.warnings.push_back(source + ": no max_score; the group counts 0 points");
    return 0;
  }
  const std::optional<std::int64_t> points =
      value.IsScalar() ? integer(value.Scalar()) : std::nullopt;
  if (!points || *points < 0) {
    package.warnings.push_back(source + ":" + std::to_string(line_of(value)) +
                               ": max_score must be a non-negative integer, found '" +
                               text_of(value) + "'; the group counts 0 points");
    return 0;
  }
  return static_cast<double>(*points);
}

// The score aggregator a default grader's flags name ("min", "sum", "avg", "max"); "" when none.
std::string score_word(const YAML::Node& flags) {
  if (!flags || !flags.IsScalar())
    return "";
  std::istringstream words(flags.Scalar());
  std::string found;
  for (std::string word; words >> word;) {
    if (word == "min" || word == "sum" || word == "avg" || word == "max")
      found = word;  // the grader takes the last one
  }
  return found;
}

ScoreAggregation read_aggregation(const YAML::Node& root, const std::string& source,
                                  ProblemPackage& package) {
  if (!root.IsMap())
    return ScoreAggregation::pass_fail;
  const YAML::Node value = root["score_aggregation"];
  if (!value) {
    // A testdata.yaml giving max_score may still say it with the default grader's flags.
    const std::string word = score_word(root["grader_flags"]);
    return word == "min"   ? ScoreAggregation::min
           : word == "sum" ? ScoreAggregation::sum
                           : ScoreAggregation::pass_fail;  // the format's default for a group
  }
  for (const ScoreAggregation aggregation :
       {ScoreAggregation::min, ScoreAggregation::pass_fail, ScoreAggregation::sum}) {
    if (value.IsScalar() && value.Scalar() == aggregation_name(aggregation))
      return aggregation;
  }
  package.warnings.push_back(source + ":" + std::to_string(line_of(value)) +
                             ": score_aggregation must be min, sum or pass-fail, found '" +
                             text_of(value) + "'; pass-fail used");
  return ScoreAggregation::pass_fail;
}

// The settings a legacy group inherits (problemtools: a group's missing keys come from its
// parent's): data/secret/testdata.yaml, then data/testdata.yaml; those that are mappings.
std::vector<YAML::Node> legacy_parents(ProblemPackage& package) {
  std::vector<YAML::Node> parents;
  for (const char* name : {"data/secret/testdata.yaml", "data/testdata.yaml"}) {
    if (const std::optional<YAML::Node> root = read_package_yaml(name, package);
        root && root->IsMap())
      parents.push_back(*root);
  }
  return parents;
}

// `key` of a legacy group's settings: its own, else its nearest parent's; null when none.
YAML::Node legacy_setting(const YAML::Node& own, const std::vector<YAML::Node>& parents,
                          const char* key) {
  if (own.IsMap() && own[key])
    return own[key];
  for (const YAML::Node& parent : parents) {
    if (parent[key])
      return parent[key];
  }
  return YAML::Node();
}

// A legacy testdata.yaml's group, as problemtools' default grader scores it: each AC test counts
// accept_score (default 1), and grader_flags' score word says how they add up: min (the group's
// accept_score when every test is AC), sum (default: accept_score per AC test) or avg.
void read_legacy_grading(const YAML::Node& own, const std::vector<YAML::Node>& parents,
                         TestGroup& group, ProblemPackage& package) {
  double accept = 1;
  if (const YAML::Node value = legacy_setting(own, parents, "accept_score")) {
    const std::optional<double> score =
        value.IsScalar() ? finite_number(value.Scalar()) : std::nullopt;
    if (!score || *score < 0) {
      package.warnings.push_back(group.source + ": accept_score must be a non-negative number, " +
                                 "found '" + text_of(value) + "'; the group counts 0 points");
      accept = 0;
    } else {
      accept = *score;
    }
  }
  const std::string word = score_word(legacy_setting(own, parents, "grader_flags"));
  if (word == "min") {
    group.aggregation = ScoreAggregation::min;
    group.max_score = accept;
    return;
  }
  if (word == "max")
    package.warnings.push_back(group.source +
                               ": grader_flags max (the best test's score) is not modelled; "
                               "scored as sum");
  group.aggregation = ScoreAggregation::sum;
  group.max_score = word == "avg" ? accept : accept * static_cast<double>(group.tests.size());
}

// data/secret/G/ holding test_group.yaml (testdata.yaml before the 2025-09 format) is the group G;
// data/sample/ the group "sample" before them. None when data/secret/ holds no group. A
// testdata.yaml with max_score or score_aggregation is read as test_group.yaml is (2023-07-draft
// wrote them there); without, as the legacy format's.
void read_kattis_groups(ProblemPackage& package) {
  const fs::path data = package.root / "data";
  std::optional<std::vector<YAML::Node>> parents;  // read at the first legacy group
  for (const fs::directory_entry& entry : sorted_entries(data / "secret")) {
    const std::string name = entry.path().filename().string();
    std::error_code error;
    if (is_ignored_name(name) || !entry.is_directory(error))
      continue;
    const bool modern = regular_file_exists(entry.path() / "test_group.yaml");
    if (!modern && !regular_file_exists(entry.path() / "testdata.yaml"))
      continue;
    TestGroup group;
    group.name = name;
    group.path = "secret/" + name;
    group.source = "data/secret/" + name + (modern ? "/test_group.yaml" : "/testdata.yaml");
    group.aggregation = ScoreAggregation::pass_fail;
    group.tests = inputs_under(Layout::kattis, entry.path());
    const std::optional<YAML::Node> root = read_package_yaml(group.source, package);
    if (!root) {
      package.warnings.push_back(group.source + ": unread; the group counts 0 points");
    } else if (modern ||
               (root->IsMap() && ((*root)["max_score"] || (*root)["score_aggregation"]))) {
      group.max_score = read_max_score(*root, group.source, package);
      group.aggregation = read_aggregation(*root, group.source, package);
    } else {
      if (!parents)
        parents = legacy_parents(package);
      read_legacy_grading(*root, *parents, group, package);
    }
    package.groups.push_back(std::move(group));
  }
  if (package.groups.empty())
    return;
  // sorted_entries gave them by name already.
  std::vector<fs::path> samples = inputs_under(Layout::kattis, data / "sample");
  if (!samples.empty()) {
    TestGroup sample;
    sample.name = "sample";
    sample.path = "sample";
    sample.aggregation = ScoreAggregation::pass_fail;
    sample.tests = std::move(samples);
    sample.source = "data/sample/";
    package.groups.insert(package.groups.begin(), std::move(sample));
  }
}

// task.yaml: the top-level time_limit (or italy_yaml's older timeout; seconds), memory_limit (or
// memlimit; MiB), and the groups of score_type GroupMin / GroupMul.
void read_task_limits(const YAML::Node& root, ProblemPackage& package) {
  for (const char* key : {"time_limit", "timeout"}) {
    const YAML::Node value = root[key];
    if (!value)
      continue;
    std::optional<double> time_limit;
    read_setting(time_limit, value, "task.yaml", key, package);
    if (time_limit) {
      package.time_limit_seconds = time_limit;
      package.time_limit_source = std::string("task.yaml ") + key;
    }
    break;
  }
  for (const char* key : {"memory_limit", "memlimit"}) {
    const YAML::Node value = root[key];
    if (!value)
      continue;
    std::optional<double> memory;
    read_setting(memory, value, "task.yaml", std::string(key) + " (MiB)", package);
    if (memory) {
      package.memory_limit_mb = memory;
      package.memory_limit_source = std::string("task.yaml ") + key;
    }
    break;
  }
}

// The package's testcases as CMS names them: input/inputN.txt is codename "%03d" of N
// (italy_yaml's loader), in codename order (N's).
std::vector<std::pair<std::string, fs::path>> cms_testcases(const ProblemPackage& package) {
  std::vector<std::pair<std::uint64_t, fs::path>> numbered;
  for (const fs::directory_entry& entry : sorted_entries(package.root / "input")) {
    const std::string name = entry.path().filename().string();
    std::error_code error;
    if (!is_cms_input_name(name) || !entry.is_regular_file(error))
      continue;
    const std::string_view digits = std::string_view(name).substr(5, name.size() - 9);
    std::uint64_t number = 0;
    const auto [end, parse_error] =
        std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (!is_digits(digits) || parse_error != std::errc() || end != digits.data() + digits.size())
      continue;
    numbered.emplace_back(number, entry.path().lexically_normal());
  }
  std::stable_sort(numbered.begin(), numbered.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<std::string, fs::path>> testcases;
  for (auto& [number, path] : numbered) {
    std::string codename = std::to_string(number);
    if (codename.size() < 3)
      codename.insert(0, 3 - codename.size(), '0');
    testcases.emplace_back(std::move(codename), std::move(path));
  }
  return testcases;
}

[[noreturn]] void bad_parameter(const YAML::Node& node, std::size_t index, int fallback_line,
                                const std::string& what) {
  throw UsageError("task.yaml:" + std::to_string(line_of(node, fallback_line)) +
                   ": score_type_parameters[" + std::to_string(index) + "] " + what);
}

// score_type_parameters of GroupMin / GroupMul: [[points, target], ...], each entry a group.
void read_cms_groups(const YAML::Node& root, ProblemPackage& package) {
  const YAML::Node score_type = root["score_type"];
  if (!score_type || !score_type.IsScalar())
    return;
  const std::string type = score_type.Scalar();
  if (type == "Sum")
    return;  // a sum over testcases: no groups
  if (type != "GroupMin" && type != "GroupMul") {
    package.warnings.push_back("task.yaml:" + std::to_string(line_of(score_type)) +
                               ": score_type '" + type +
                               "' is none of Sum, GroupMin, GroupMul; its groups are not read");
    return;
  }
  const int type_line = line_of(score_type);
  const YAML::Node parameters = root["score_type_parameters"];
  if (!parameters || !parameters.IsSequence())
    throw UsageError("task.yaml:" + std::to_string(line_of(parameters, type_line)) +
                     ": score_type " + type +
                     " needs score_type_parameters: a list of [points, target]");
  const std::vector<std::pair<std::string, fs::path>> testcases = cms_testcases(package);
  std::size_t next = 0;  // where an integer target starts
  for (std::size_t k = 0; k < parameters.size(); ++k) {
    const YAML::Node entry = parameters[k];
    if (!entry.IsSequence() || entry.size() != 2)
      bad_parameter(entry, k, type_line,
                    "must be [points, target] (target: a number of testcases, a regular "
                    "expression or a list of codenames), found '" +
                        text_of(entry) + "'");
    const YAML::Node points = entry[0];
    const YAML::Node target = entry[1];
    const std::optional<double> score =
        points.IsScalar() ? finite_number(points.Scalar()) : std::nullopt;
    if (!score || *score < 0)
      bad_parameter(points, k, type_line,
                    "points must be a non-negative number, found '" + text_of(points) + "'");
    TestGroup group;
    group.name = "subtask" + std::to_string(k + 1);
    group.path = "secret/" + group.name;
    group.max_score = *score;
    // GroupMul multiplies its tests' outcomes: for outcomes of 0 or 1 the product is the minimum.
    group.aggregation = ScoreAggregation::min;
    group.source = "task.yaml score_type_parameters[" + std::to_string(k) + "]";
    std::vector<bool> taken(testcases.size(), false);
    if (target.IsScalar()) {
      // A plain integer: the next N testcases; any other scalar (a quoted one too, as CMS reads a
      // string) a regular expression over the whole codename.
      const std::optional<std::int64_t> count =
          target.Tag() == "!" ? std::nullopt : integer(target.Scalar());
      if (count) {
        if (*count < 0 || static_cast<std::uint64_t>(*count) > testcases.size() - next)
          bad_parameter(target, k, type_line,
                        "takes the next " + target.Scalar() + " testcases but " +
                            std::to_string(testcases.size() - next) + " remain");
        for (std::int64_t m = 0; m < *count; ++m)
          taken[next++] = true;
      } else {
        std::regex pattern;
        try {
          pattern = std::regex(target.Scalar(), std::regex::ECMAScript);
        } catch (const std::regex_error& error) {
          bad_parameter(
              target, k, type_line,
              "'" + target.Scalar() + "' is no regular expression (" + error.what() + ")");
        }
        for (std::size_t m = 0; m < testcases.size(); ++m)
          taken[m] = std::regex_match(testcases[m].first, pattern);
      }
    } else if (target.IsSequence()) {
      for (const YAML::Node& codename : target) {
        const auto found =
            std::find_if(testcases.begin(), testcases.end(), [&](const auto& testcase) {
              return codename.IsScalar() && testcase.first == codename.Scalar();
            });
        if (found == testcases.end())
          bad_parameter(codename, k, type_line,
                        "names '" + text_of(codename) +
                            "', no testcase's codename (000, 001, ...: input/inputN.txt)");
        taken[static_cast<std::size_t>(found - testcases.begin())] = true;
      }
    } else {
      bad_parameter(target, k, type_line,
                    "target must be a number of testcases, a regular expression or a list of "
                    "codenames, found '" +
                        text_of(target) + "'");
    }
    for (std::size_t m = 0; m < testcases.size(); ++m) {
      if (taken[m])
        group.tests.push_back(testcases[m].second);
    }
    std::sort(group.tests.begin(), group.tests.end());  // the package's input order
    if (group.tests.empty())
      package.warnings.push_back("task.yaml:" + std::to_string(line_of(entry, type_line)) +
                                 ": score_type_parameters[" + std::to_string(k) +
                                 "] takes no testcase");
    package.groups.push_back(std::move(group));
  }
}

void read_task_yaml(ProblemPackage& package) {
  const std::optional<YAML::Node> root = read_package_yaml("task.yaml", package);
  if (!root || !root->IsMap())
    return;
  read_task_limits(*root, package);
  read_cms_groups(*root, package);
}

// ---------------------------------------------------------------- expectations

// "sample, small, large", or "none: the package has no groups".
std::string group_list(const ProblemPackage& package) {
  if (package.groups.empty())
    return "the package has no groups";
  std::string list = "groups: ";
  for (std::size_t k = 0; k < package.groups.size(); ++k)
    list += (k == 0 ? "" : ", ") + package.groups[k].name;
  return list;
}

bool names_a_group(std::string_view pattern, const ProblemPackage& package) {
  return std::any_of(package.groups.begin(), package.groups.end(),
                     [&](const TestGroup& group) { return group_pattern_matches(pattern, group); });
}

// A rule on groups must name one of the package's: a typo would otherwise check nothing.
void check_rule_groups(const ExpectationRule& rule, const ProblemPackage& package) {
  if (rule.groups.empty() || names_a_group(rule.groups, package))
    return;
  throw UsageError(rule.source + ": the group pattern '" + rule.groups +
                   "' names no group of the package (" + group_list(package) + ")");
}

const std::string kSubmissionsYaml = "submissions/submissions.yaml";

std::string yaml_where(const YAML::Node& node, int fallback = 0) {
  return kSubmissionsYaml + ":" + std::to_string(line_of(node, fallback));
}

void add_verdict(std::vector<std::string>& verdicts, const std::string& verdict) {
  if (std::find(verdicts.begin(), verdicts.end(), verdict) == verdicts.end())
    verdicts.push_back(verdict);
}

// A list of Kattis verdicts in our names: RTE is RE or MLE (the Kattis format has no MLE).
std::vector<std::string> read_verdicts(const YAML::Node& value, const std::string& key, int line) {
  std::vector<YAML::Node> items;
  if (value.IsSequence()) {
    for (const YAML::Node& item : value)
      items.push_back(item);
  } else if (value.IsScalar()) {
    items.push_back(value);
  } else {
    throw UsageError(yaml_where(value, line) + ": " + key + " must be a list of verdicts");
  }
  std::vector<std::string> verdicts;
  for (const YAML::Node& item : items) {
    const std::string name = item.IsScalar() ? item.Scalar() : text_of(item);
    if (name == "RTE") {
      add_verdict(verdicts, "RE");
      add_verdict(verdicts, "MLE");
    } else if (name == "AC" || name == "WA" || name == "TLE" || name == "RE" || name == "MLE") {
      add_verdict(verdicts, name);
    } else {
      throw UsageError(yaml_where(item, line) + ": " + key + ": unknown verdict '" + name +
                       "' (AC, WA, TLE, RTE, MLE, RE)");
    }
  }
  return verdicts;
}

std::pair<double, double> read_score(const YAML::Node& value, int line) {
  const auto number = [&](const YAML::Node& node) {
    const std::optional<double> score =
        node.IsScalar() ? finite_number(node.Scalar()) : std::nullopt;
    if (!score)
      throw UsageError(yaml_where(node, line) + ": score must be a number or [low, high], found '" +
                       text_of(node) + "'");
    return *score;
  };
  if (value.IsSequence() && value.size() == 2) {
    const double low = number(value[0]), high = number(value[1]);
    if (low > high)
      throw UsageError(yaml_where(value, line) + ": score [" + text_of(value[0]) + ", " +
                       text_of(value[1]) + "] is empty");
    return {low, high};
  }
  const double score = number(value);
  return {score, score};
}

// Sets permitted, required or score of `rule` when `key` is one of them; false for any other key.
bool read_rule_key(const std::string& key, const YAML::Node& value, int line,
                   ExpectationRule& rule) {
  if (key == "permitted")
    rule.permitted = read_verdicts(value, key, line);
  else if (key == "required")
    rule.required = read_verdicts(value, key, line);
  else if (key == "score")
    rule.score = read_score(value, line);
  else
    return false;
  return true;
}

bool is_metadata_key(std::string_view key) {
  for (const std::string_view known :
       {"language", "entrypoint", "authors", "model_solution", "message", "use_for_time_limit"}) {
    if (key == known)
      return true;
  }
  return false;
}

// A key of an entry that says which groups its rule is on: the format's sample, secret and
// secret/... paths, or a pattern naming one of the package's groups.
bool is_group_key(const std::string& key, const ProblemPackage& package) {
  return key == "sample" || key == "secret" || key.starts_with("sample/") ||
         key.starts_with("secret/") || names_a_group(key, package);
}

// One entry of submissions.yaml: a glob over submission names and its rules.
struct SubmissionsEntry {
  std::string glob;
  int line = 0;
  std::vector<ExpectationRule> rules;
  bool matched = false;
};

SubmissionsEntry read_submissions_entry(const YAML::Node& key, const YAML::Node& value,
                                        const ProblemPackage& package) {
  SubmissionsEntry entry;
  entry.glob = key.Scalar();
  entry.line = line_of(key);
  if (!value || value.IsNull())
    return entry;
  if (!value.IsMap())
    throw UsageError(yaml_where(key) + ": the entry '" + entry.glob + "' must be a mapping");
  ExpectationRule whole;
  whole.source = yaml_where(key);
  bool whole_said = false;
  std::vector<ExpectationRule> on_groups;
  for (const auto& item : value) {
    const std::string item_key = item.first.Scalar();
    const int line = line_of(item.first);
    if (read_rule_key(item_key, item.second, line, whole)) {
      whole_said = true;
    } else if (is_metadata_key(item_key)) {
      continue;
    } else if (is_group_key(item_key, package)) {
      ExpectationRule rule;
      rule.groups = item_key;
      rule.source = yaml_where(item.first);
      if (!item.second.IsMap())
        throw UsageError(rule.source + ": the group '" + item_key +
                         "' must be a mapping of permitted, required, score");
      for (const auto& inner : item.second) {
        if (!read_rule_key(inner.first.Scalar(), inner.second, line_of(inner.first), rule))
          throw UsageError(yaml_where(inner.first) + ": unknown key '" + inner.first.Scalar() +
                           "' in the group '" + item_key + "' (permitted, required, score)");
      }
      check_rule_groups(rule, package);
      on_groups.push_back(std::move(rule));
    } else {
      throw UsageError(yaml_where(item.first) + ": unknown key '" + item_key +
                       "': no key of submissions.yaml and no group of the package (" +
                       group_list(package) + ")");
    }
  }
  if (whole_said)
    entry.rules.push_back(std::move(whole));
  for (ExpectationRule& rule : on_groups)
    entry.rules.push_back(std::move(rule));
  return entry;
}

// submissions/submissions.yaml (Kattis 2025-09): what the submissions its keys match must get.
// Its errors are UsageErrors: an expectation misread would judge submissions wrongly.
std::vector<SubmissionsEntry> read_submissions_yaml(const ProblemPackage& package) {
  const fs::path path = package.root / "submissions" / "submissions.yaml";
  if (!regular_file_exists(path))
    return {};
  YAML::Node root;
  try {
    root = YAML::Load(read_file(path));
  } catch (const YAML::Exception& error) {
    throw UsageError(kSubmissionsYaml + ":" + std::to_string(error.mark.line + 1) +
                     ": not valid YAML (" + error.msg + ")");
  } catch (const std::system_error& error) {
    throw UsageError(kSubmissionsYaml + ": " + error.what());
  }
  if (!root || root.IsNull())
    return {};
  if (!root.IsMap())
    throw UsageError(kSubmissionsYaml + ":1: must be a mapping of submission globs");
  std::vector<SubmissionsEntry> entries;
  for (const auto& item : root)
    entries.push_back(read_submissions_entry(item.first, item.second, package));
  return entries;
}

// A task-maker @check- kind and what it says, in our verdicts.
struct CheckKind {
  std::string_view name;
  bool permitted;  // else required
  std::vector<std::string> verdicts;
};

const std::vector<CheckKind>& check_kinds() {
  static const std::vector<CheckKind> kinds = {
      {"accepted", true, {"AC"}},
      {"wrong-answer", false, {"WA"}},
      {"time-limit-exceeded", false, {"TLE"}},
      {"runtime-error", false, {"RE"}},
      {"memory-limit-exceeded", false, {"MLE"}},
      {"zero", false, {"WA", "TLE", "MLE", "RE"}},
      // We have no verdict for a partial score: each test is AC or not, so all we can hold it to
      // is what it is permitted.
      {"partial-score", true, {"AC"}},
  };
  return kinds;
}

// The @check- lines of one file (`name` for messages), as rules on their group patterns.
void read_check_lines(std::string_view text, const std::string& name, ProblemPackage& package,
                      std::vector<ExpectationRule>& rules) {
  int number = 0;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos)
      end = text.size();
    const std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    ++number;
    const std::size_t at = line.find("@check-");
    if (at == std::string_view::npos)
      continue;
    const std::size_t kind_at = at + 7;
    const std::size_t colon = line.find(':', kind_at);
    if (colon == std::string_view::npos)
      continue;  // prose mentioning @check-, no check
    const std::string_view kind_name = line.substr(kind_at, colon - kind_at);
    const auto kind = std::find_if(check_kinds().begin(), check_kinds().end(),
                                   [&](const CheckKind& known) { return known.name == kind_name; });
    const std::string where = name + ":" + std::to_string(number);
    if (kind == check_kinds().end()) {
      package.warnings.push_back(where + ": unknown @check-" + std::string(kind_name) +
                                 " (accepted, wrong-answer, time-limit-exceeded, runtime-error, "
                                 "memory-limit-exceeded, zero, partial-score); ignored");
      continue;
    }
    std::istringstream patterns{std::string(line.substr(colon + 1))};
    for (std::string pattern; patterns >> pattern;) {
      if (pattern == "*/" || pattern == "-->")  // the comment's end, not a group
        continue;
      ExpectationRule rule;
      rule.groups = pattern;
      (kind->permitted ? rule.permitted : rule.required) = kind->verdicts;
      rule.source = where + " @check-" + std::string(kind_name);
      check_rule_groups(rule, package);
      rules.push_back(std::move(rule));
    }
  }
}

// Source files over this are not read for @check- lines (executables, data).
constexpr std::uintmax_t kCheckFileLimit = 1 << 20;

// The rules of a submission's @check- lines (every file of a directory submission, by name).
std::vector<ExpectationRule> check_rules(const std::string& name, const fs::path& path,
                                         ProblemPackage& package) {
  std::vector<std::pair<std::string, fs::path>> files;
  std::error_code error;
  if (fs::is_directory(path, error)) {
    fs::recursive_directory_iterator walk(path, fs::directory_options::none, error);
    for (; !error && walk != fs::recursive_directory_iterator(); walk.increment(error)) {
      std::error_code type_error;
      const std::string relative = walk->path().lexically_relative(path).generic_string();
      if (walk->is_regular_file(type_error) && !is_ignored_name(walk->path().filename().string()))
        files.emplace_back(name + "/" + relative, walk->path());
    }
    std::sort(files.begin(), files.end());
  } else {
    files.emplace_back(name, path);
  }
  std::vector<ExpectationRule> rules;
  for (const auto& [file_name, file] : files) {
    std::error_code size_error;
    const std::uintmax_t size = fs::file_size(file, size_error);
    if (size_error || size >= kCheckFileLimit)
      continue;
    try {
      read_check_lines(read_file(file), file_name, package, rules);
    } catch (const std::system_error&) {
      // Unreadable: it says nothing; running it will tell.
    }
  }
  return rules;
}

// submissions/<verdict>/<entry>: each entry (a file or a directory) one submission. An entry of
// another directory is kept when submissions.yaml or its @check- lines give it rules.
void read_kattis_submissions(ProblemPackage& package) {
  static constexpr std::array<std::pair<std::string_view, Expectation>, 4> kVerdicts = {{
      {"accepted", Expectation::accepted},
      {"wrong_answer", Expectation::wrong_answer},
      {"time_limit_exceeded", Expectation::time_limit_exceeded},
      {"run_time_error", Expectation::run_time_error},
  }};
  std::vector<SubmissionsEntry> entries = read_submissions_yaml(package);
  const auto rules_of = [&](const std::string& name, const fs::path& path) {
    std::vector<ExpectationRule> rules;
    for (SubmissionsEntry& entry : entries) {
      if (!glob_matches(entry.glob, name))
        continue;
      entry.matched = true;
      rules.insert(rules.end(), entry.rules.begin(), entry.rules.end());
    }
    std::vector<ExpectationRule> checks = check_rules(name, path, package);
    rules.insert(rules.end(), std::make_move_iterator(checks.begin()),
                 std::make_move_iterator(checks.end()));
    return rules;
  };
  for (const fs::directory_entry& group : sorted_entries(package.root / "submissions")) {
    const std::string group_name = group.path().filename().string();
    if (is_ignored_name(group_name) || group_name == "submissions.yaml")
      continue;
    const auto verdict =
        std::find_if(kVerdicts.begin(), kVerdicts.end(),
                     [&group_name](const auto& known) { return known.first == group_name; });
    std::error_code error;
    if (!group.is_directory(error)) {
      package.warnings.push_back(
          "submissions/" + group_name + ": '" + group_name +
          "' is no verdict directory of the Kattis format (accepted, wrong_answer, "
          "time_limit_exceeded, run_time_error); skipped");
      continue;
    }
    std::vector<std::string> without_rules;
    std::size_t entry_count = 0;
    for (const fs::directory_entry& entry : sorted_entries(group.path())) {
      const std::string name = entry.path().filename().string();
      if (is_ignored_name(name))
        continue;
      ++entry_count;
      const std::string submission = group_name + "/" + name;
      std::vector<ExpectationRule> rules = rules_of(submission, entry.path());
      if (verdict == kVerdicts.end() && rules.empty()) {
        without_rules.push_back(submission);
        continue;
      }
      package.submissions.push_back(
          {submission, entry.path().lexically_normal(),
           verdict == kVerdicts.end() ? Expectation::stated : verdict->second, std::move(rules)});
    }
    if (verdict != kVerdicts.end() || (without_rules.empty() && entry_count > 0))
      continue;
    const std::string why =
        "no verdict directory of the Kattis format (accepted, wrong_answer, "
        "time_limit_exceeded, run_time_error); give expectations in "
        "submissions/submissions.yaml or @check- lines; skipped";
    if (without_rules.size() == entry_count) {
      package.warnings.push_back("submissions/" + group_name + ": '" + group_name + "' is " + why);
    } else {
      for (const std::string& submission : without_rules)
        package.warnings.push_back("submissions/" + submission + ": without expectations in " +
                                   why);
    }
  }
  for (const SubmissionsEntry& entry : entries) {
    if (!entry.matched)
      package.warnings.push_back(kSubmissionsYaml + ":" + std::to_string(entry.line) + ": '" +
                                 entry.glob + "' matches no submission");
  }
}

// sol/solution.* and sol/soluzione.* are accepted; CMS says nothing of the other files, kept
// when task-maker @check- lines say what they must get.
void read_cms_submissions(ProblemPackage& package) {
  for (const fs::directory_entry& entry : sorted_entries(package.root / "sol")) {
    const std::string name = entry.path().filename().string();
    if (is_ignored_name(name))
      continue;
    const std::string relative = "sol/" + name;
    std::error_code error;
    if (entry.is_directory(error)) {
      package.warnings.push_back(relative +
                                 ": a directory in sol/, no submission of the CMS format; skipped");
      continue;
    }
    std::vector<ExpectationRule> rules = check_rules(relative, entry.path(), package);
    const bool solution = name.starts_with("solution.") || name.starts_with("soluzione.");
    if (!solution && rules.empty()) {
      package.warnings.push_back(relative +
                                 ": the CMS format does not say what it must get (only "
                                 "sol/solution.* and sol/soluzione.* are accepted); skipped");
      continue;
    }
    package.submissions.push_back({relative, entry.path().lexically_normal(),
                                   solution ? Expectation::accepted : Expectation::stated,
                                   std::move(rules)});
  }
}

fs::path normal_absolute(const fs::path& directory) {
  fs::path root = fs::absolute(directory).lexically_normal();
  if (!root.has_filename() && root.has_relative_path())  // "/a/b/" -> "/a/b"
    root = root.parent_path();
  return root;
}

// The package's plan (gamebatch.toml), when it has one, names its groups and gives their limits:
// groups are put in the plan's order, a CMS package's (unnamed in task.yaml) take the plan's names
// by position, and each group gets the limits its tests must meet. Throws UsageError for a plan
// that cannot be read.
void apply_plan(ProblemPackage& package) {
  const fs::path file = package.root / kPlanFileName;
  if (!regular_file_exists(file) || package.groups.empty())
    return;
  const PackagePlan plan = read_package_plan(file);
  package.plan_game = plan.game;
  if (package.layout == Layout::cms && package.groups.size() == plan.groups.size()) {
    for (std::size_t k = 0; k < plan.groups.size(); ++k) {
      package.groups[k].name = plan.groups[k].name;
      package.groups[k].path =
          plan.groups[k].name == "sample" ? "sample" : "secret/" + plan.groups[k].name;
    }
  }
  std::vector<TestGroup> ordered;
  for (std::size_t k = 0; k < plan.groups.size(); ++k) {
    const auto found =
        std::find_if(package.groups.begin(), package.groups.end(),
                     [&](const TestGroup& group) { return group.name == plan.groups[k].name; });
    if (found == package.groups.end())
      continue;
    found->limits = test_limits(plan, k);
    ordered.push_back(std::move(*found));
    package.groups.erase(found);
  }
  for (TestGroup& group : package.groups) {  // groups the plan does not name, after its own
    package.warnings.push_back(group.source + ": the group '" + group.name +
                               "' is not in gamebatch.toml (run gamebatch build)");
    ordered.push_back(std::move(group));
  }
  package.groups = std::move(ordered);
}

// data/, the tests' folder; where it holds inputs that are no tests (data/invalid_input/ of the
// 2025-09 format, BAPCtools' data/invalid_inputs/, the output validators' folders), its other
// folders instead.
void add_kattis_input_roots(ProblemPackage& package) {
  const fs::path data = package.root / "data";
  if (!directory_exists(data))
    return;
  const auto no_tests = [](const std::string& name) {
    return name == "invalid_input" || name == "invalid_inputs" || name == "invalid_answer" ||
           name == "invalid_answers" || name == "invalid_output" || name == "invalid_outputs" ||
           name == "valid_output" || name == "valid_outputs";
  };
  const std::vector<fs::directory_entry> entries = sorted_entries(data);
  if (std::none_of(entries.begin(), entries.end(), [&](const fs::directory_entry& entry) {
        return no_tests(entry.path().filename().string());
      })) {
    package.input_roots.push_back(data);
    return;
  }
  for (const fs::directory_entry& entry : entries) {
    const std::string name = entry.path().filename().string();
    std::error_code error;
    if (!is_ignored_name(name) && !no_tests(name) && entry.is_directory(error))
      package.input_roots.push_back(entry.path());
  }
}

// Of the layouts whose marks claim `directory`, keeps the one its build record names, if any,
// with a warning saying so: a package built with --layout cms keeps its problem.yaml.
void keep_built_layout(const fs::path& directory,
                       std::vector<std::pair<Layout, std::vector<std::string>>>& claims,
                       std::string& warning) {
  const std::optional<Layout> built = built_layout(directory);
  const auto kept = std::find_if(claims.begin(), claims.end(),
                                 [&](const auto& claim) { return built && claim.first == *built; });
  if (kept == claims.end())
    return;
  std::string others;
  for (const auto& claim : claims) {
    if (claim.first != *built)
      others += (others.empty() ? "" : ", ") + std::string(layout_name(claim.first));
  }
  warning = directory.string() + " holds the marks of " + others + " too; read as " +
            std::string(layout_name(*built)) + ", the layout its build record (" +
            kBuildRecordName + ") names (--layout says otherwise)";
  auto claim = std::move(*kept);
  claims.clear();
  claims.push_back(std::move(claim));
}

}  // namespace

std::string_view kattis_format_name(KattisFormat format) {
  switch (format) {
    case KattisFormat::legacy:
      return "legacy";
    case KattisFormat::draft_2023_07:
      return "2023-07-draft";
    case KattisFormat::v2025_09:
      return "2025-09";
  }
  return "legacy";
}

KattisMetadata read_kattis_metadata(const fs::path& package) {
  const fs::path path = package / "problem.yaml";
  if (!regular_file_exists(path))
    return {};
  try {
    return parse_kattis_metadata(read_file(path));
  } catch (const std::system_error& error) {
    throw UsageError("problem.yaml: " + std::string(error.what()));
  }
}

KattisMetadata parse_kattis_metadata(std::string text) {
  KattisMetadata metadata;
  metadata.exists = true;
  metadata.text = std::move(text);
  YAML::Node root;
  try {
    root = YAML::Load(metadata.text);
  } catch (const YAML::Exception& error) {
    throw UsageError("problem.yaml:" + std::to_string(error.mark.line + 1) + ": not valid YAML (" +
                     error.msg + ")");
  }
  if (!root || root.IsNull())
    return metadata;
  if (!root.IsMap())
    throw UsageError("problem.yaml:" + std::to_string(line_of(root, 1)) +
                     ": must be a mapping of keys, found '" + text_of(root) + "'");
  if (const YAML::Node version = root["problem_format_version"]) {
    const std::string name = version.IsScalar() ? version.Scalar() : text_of(version);
    if (name == "2023-07-draft" || name == "2023-07")
      metadata.format = KattisFormat::draft_2023_07;
    else if (name == "2025-09")
      metadata.format = KattisFormat::v2025_09;
    else if (name != "legacy")
      throw UsageError("problem.yaml:" + std::to_string(line_of(version, 1)) +
                       ": problem_format_version '" + name +
                       "' is none that gamebatch writes (legacy, 2023-07-draft, 2025-09)");
  }
  if (const YAML::Node type = root["type"]) {
    metadata.has_type = true;
    if (type.IsScalar()) {
      metadata.scoring = type.Scalar() == "scoring";
    } else if (type.IsSequence()) {
      for (const YAML::Node& item : type)
        metadata.scoring = metadata.scoring || (item.IsScalar() && item.Scalar() == "scoring");
    }
  }
  metadata.has_uuid = static_cast<bool>(root["uuid"]);
  metadata.has_name = static_cast<bool>(root["name"]);
  if (const YAML::Node limits = root["limits"]; limits && limits.IsMap()) {
    if (const YAML::Node time_limit = limits["time_limit"])
      metadata.time_limit_line = line_of(time_limit, line_of(limits, 1));
  }
  return metadata;
}

std::optional<Layout> built_layout(const fs::path& package) {
  for (const char* name : {kBuildRecordName, kOldBuildRecordName}) {
    const fs::path path = package / name;
    if (!regular_file_exists(path))
      continue;
    // The build writes "layout" among its first keys: the head of the file says it.
    std::ifstream file(path, std::ios::binary);
    std::string head(1024, '\0');
    file.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(std::max<std::streamsize>(file.gcount(), 0)));
    static const std::regex layout_key(R"re("layout"\s*:\s*"([a-z]+)")re");
    std::smatch match;
    if (std::regex_search(head, match, layout_key))
      return parse_layout(match[1].str());
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<ProblemPackage> recognise_package(const fs::path& directory,
                                                std::optional<Layout> layout) {
  std::error_code error;
  if (!fs::is_directory(directory, error))
    throw UsageError("not a directory: " + directory.string());

  std::vector<std::string> marks;
  std::string build_warning;
  if (layout) {
    marks = marks_of(*layout, directory);
  } else {
    std::vector<std::pair<Layout, std::vector<std::string>>> claims;
    for (const Layout candidate : {Layout::kattis, Layout::polygon, Layout::cms}) {
      std::vector<std::string> found = marks_of(candidate, directory);
      if (!found.empty())
        claims.emplace_back(candidate, std::move(found));
    }
    if (claims.empty())
      return std::nullopt;
    if (claims.size() > 1)
      keep_built_layout(directory, claims, build_warning);
    if (claims.size() > 1) {
      std::string message =
          directory.string() + " holds the marks of more than one problem package layout: ";
      for (std::size_t k = 0; k < claims.size(); ++k) {
        message += k == 0 ? "" : (k + 1 == claims.size() ? " and " : ", ");
        message += std::string(layout_name(claims[k].first)) + " (";
        for (std::size_t m = 0; m < claims[k].second.size(); ++m)
          message += (m == 0 ? "" : ", ") + claims[k].second[m];
        message += ")";
      }
      message += "; choose one with --layout kattis|polygon|cms";
      throw UsageError(message);
    }
    layout = claims.front().first;
    marks = std::move(claims.front().second);
  }

  ProblemPackage package;
  if (!build_warning.empty())
    package.warnings.push_back(build_warning);
  package.root = normal_absolute(directory);
  package.layout = *layout;
  if (marks.empty()) {
    // Read as the layout says, though nothing of it is there: its inputs are the directory's.
    package.input_roots.push_back(package.root);
    return package;
  }
  package.recognised_by = marks.front();
  const auto add_input_root = [&package](const char* name) {
    if (directory_exists(package.root / name))
      package.input_roots.push_back(package.root / name);
  };
  switch (*layout) {
    case Layout::kattis:
      add_kattis_input_roots(package);
      if (package.input_roots.empty())
        package.input_roots.push_back(package.root);
      read_problem_yaml(package);
      read_kattis_groups(package);
      apply_plan(package);
      read_kattis_submissions(package);
      break;
    case Layout::polygon:
      add_input_root("tests");
      read_problem_xml(package);
      break;
    case Layout::cms:
      add_input_root("input");
      read_task_yaml(package);
      apply_plan(package);
      read_cms_submissions(package);
      break;
  }
  std::sort(package.submissions.begin(), package.submissions.end(),
            [](const PackageSubmission& a, const PackageSubmission& b) { return a.name < b.name; });
  return package;
}

}  // namespace gamebatch::io
