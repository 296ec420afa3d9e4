#include "io/files/problem_package.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <system_error>
#include <utility>

#include "io/files/input_set.hpp"

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

namespace {

std::string_view last_component(std::string_view text) {
  const std::size_t slash = text.rfind('/');
  return slash == std::string_view::npos ? text : text.substr(slash + 1);
}

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

std::string_view unquote(std::string_view text) {
  text = trim(text);
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
      text.back() == text.front())
    return text.substr(1, text.size() - 2);
  return text;
}

// A positive finite number ("2", "1.5", "1e1"); nullopt for anything else.
std::optional<double> positive_number(std::string_view text) {
  text = unquote(text);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(value) || value <= 0)
    return std::nullopt;
  return value;
}

// One line of a YAML file as far as "key: value" goes: enough for the few keys read here
// without a YAML library. Comments are cut, quotes around the key and value dropped.
struct YamlLine {
  int number = 0;
  std::size_t indent = 0;
  std::string key;  // empty: no "key:" on the line (a list item, a continuation)
  std::string value;
};

std::vector<YamlLine> yaml_lines(std::string_view text) {
  std::vector<YamlLine> lines;
  int number = 0;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    ++number;
    // A '#' starts a comment at the line's start or after a blank, outside quotes.
    char quote = 0;
    for (std::size_t at = 0; at < line.size(); ++at) {
      const char c = line[at];
      if (quote != 0) {
        if (c == quote)
          quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '#' && (at == 0 || line[at - 1] == ' ' || line[at - 1] == '\t')) {
        line = line.substr(0, at);
        break;
      }
    }
    if (trim(line).empty())
      continue;
    YamlLine parsed;
    parsed.number = number;
    parsed.indent = line.find_first_not_of(' ');
    const std::string_view content = trim(line);
    // "key:" ends at a colon followed by a blank or the line's end (not "http://...").
    for (std::size_t at = 0; at < content.size(); ++at) {
      if (content[at] == ':' &&
          (at + 1 == content.size() || content[at + 1] == ' ' || content[at + 1] == '\t')) {
        parsed.key = unquote(content.substr(0, at));
        parsed.value = trim(content.substr(at + 1));
        break;
      }
    }
    lines.push_back(std::move(parsed));
  }
  return lines;
}

// "key: value" pairs of a one-line flow mapping "{a: 1, b: 2}".
std::vector<std::pair<std::string, std::string>> flow_mapping(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> pairs;
  text = trim(text);
  if (text.size() < 2 || text.front() != '{' || text.back() != '}')
    return pairs;
  text = text.substr(1, text.size() - 2);
  for (std::size_t begin = 0; begin <= text.size();) {
    std::size_t end = text.find(',', begin);
    if (end == std::string_view::npos)
      end = text.size();
    const std::string_view item = text.substr(begin, end - begin);
    if (const std::size_t colon = item.find(':'); colon != std::string_view::npos)
      pairs.emplace_back(unquote(item.substr(0, colon)), trim(item.substr(colon + 1)));
    begin = end + 1;
  }
  return pairs;
}

// The package's file NAME (problem.yaml, task.yaml, problem.xml) whole; nullopt when it has none,
// or (with a warning) when it cannot be read.
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

// Sets a number of the package from `value`, or warns where it is no positive number.
void read_setting(std::optional<double>& setting, std::string_view value, const std::string& where,
                  const std::string& what, ProblemPackage& package) {
  if (const std::optional<double> number = positive_number(value)) {
    setting = number;
    return;
  }
  package.warnings.push_back(where + ": " + what + " must be a positive number, found '" +
                             std::string(value) + "'; ignored");
}

// problem.yaml: limits.time_limit (seconds) and limits.time_multiplier.
void read_problem_yaml(ProblemPackage& package) {
  const std::optional<std::string> text = read_package_file("problem.yaml", package);
  if (!text)
    return;
  std::optional<double> time_limit;
  std::optional<double> multiplier;
  std::optional<double> memory;
  const auto take = [&](const std::string& key, std::string_view value, int line) {
    const std::string where = "problem.yaml:" + std::to_string(line);
    if (key == "time_limit")
      read_setting(time_limit, value, where, "limits.time_limit", package);
    else if (key == "time_multiplier")
      read_setting(multiplier, value, where, "limits.time_multiplier", package);
    else if (key == "memory")
      read_setting(memory, value, where, "limits.memory (MiB)", package);
  };
  bool in_limits = false;
  std::optional<std::size_t> child_indent;
  for (const YamlLine& line : yaml_lines(*text)) {
    if (line.indent == 0) {
      in_limits = line.key == "limits" && line.value.empty();
      child_indent.reset();
      if (line.key == "limits") {
        for (const auto& [key, value] : flow_mapping(line.value))
          take(key, value, line.number);
      }
      continue;
    }
    if (!in_limits)
      continue;
    // Only the mapping's own keys: a deeper `time_limit` belongs to something else.
    if (!child_indent)
      child_indent = line.indent;
    if (line.indent == *child_indent)
      take(line.key, line.value, line.number);
  }
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

// task.yaml: the top-level time_limit (seconds).
void read_task_yaml(ProblemPackage& package) {
  const std::optional<std::string> text = read_package_file("task.yaml", package);
  if (!text)
    return;
  bool time_limit_seen = false, memory_limit_seen = false;
  for (const YamlLine& line : yaml_lines(*text)) {
    if (line.indent != 0)
      continue;
    const std::string where = "task.yaml:" + std::to_string(line.number);
    if (line.key == "time_limit" && !time_limit_seen) {
      time_limit_seen = true;
      std::optional<double> time_limit;
      read_setting(time_limit, line.value, where, "time_limit", package);
      if (time_limit) {
        package.time_limit_seconds = time_limit;
        package.time_limit_source = "task.yaml time_limit";
      }
    } else if (line.key == "memory_limit" && !memory_limit_seen) {
      memory_limit_seen = true;
      std::optional<double> memory;
      read_setting(memory, line.value, where, "memory_limit (MiB)", package);
      if (memory) {
        package.memory_limit_mb = memory;
        package.memory_limit_source = "task.yaml memory_limit";
      }
    }
  }
}

// One tag of an XML text, as much as problem.xml needs: its name, its attributes and the text
// that follows it up to the next tag.
struct XmlTag {
  std::string name;
  bool closing = false;       // </name>
  bool self_closing = false;  // <name .../>
  std::vector<std::pair<std::string, std::string>> attributes;
  std::string_view text_after;

  std::optional<std::string> attribute(std::string_view wanted) const {
    for (const auto& [key, value] : attributes) {
      if (key == wanted)
        return value;
    }
    return std::nullopt;
  }
};

std::string decode_entities(std::string_view text) {
  static constexpr std::array<std::pair<std::string_view, char>, 5> kEntities = {
      {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}}};
  std::string decoded;
  for (std::size_t at = 0; at < text.size(); ++at) {
    bool replaced = false;
    if (text[at] == '&') {
      for (const auto& [entity, character] : kEntities) {
        if (text.substr(at, entity.size()) == entity) {
          decoded += character;
          at += entity.size() - 1;
          replaced = true;
          break;
        }
      }
    }
    if (!replaced)
      decoded += text[at];
  }
  return decoded;
}

// A tolerant scan of the tags of `text`: comments, processing instructions, declarations and
// CDATA are skipped; a malformed tag ends the scan rather than failing it.
std::vector<XmlTag> xml_tags(std::string_view text) {
  std::vector<XmlTag> tags;
  const auto is_blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  std::size_t at = text.find('<');
  while (at != std::string_view::npos && at < text.size()) {
    const std::string_view rest = text.substr(at);
    std::string_view skip_to;
    if (rest.starts_with("<!--"))
      skip_to = "-->";
    else if (rest.starts_with("<![CDATA["))
      skip_to = "]]>";
    else if (rest.starts_with("<?"))
      skip_to = "?>";
    else if (rest.starts_with("<!"))
      skip_to = ">";
    if (!skip_to.empty()) {
      const std::size_t end = text.find(skip_to, at);
      if (end == std::string_view::npos)
        break;
      at = text.find('<', end + skip_to.size());
      continue;
    }
    XmlTag tag;
    std::size_t k = at + 1;
    if (k < text.size() && text[k] == '/') {
      tag.closing = true;
      ++k;
    }
    const std::size_t name_begin = k;
    while (k < text.size() && !is_blank(text[k]) && text[k] != '>' && text[k] != '/')
      ++k;
    tag.name = text.substr(name_begin, k - name_begin);
    bool ended = false;
    while (k < text.size()) {
      while (k < text.size() && is_blank(text[k]))
        ++k;
      if (k >= text.size())
        break;
      if (text[k] == '>') {
        ended = true;
        ++k;
        break;
      }
      if (text[k] == '/') {
        tag.self_closing = true;
        ++k;
        continue;
      }
      const std::size_t key_begin = k;
      while (k < text.size() && !is_blank(text[k]) && text[k] != '=' && text[k] != '>' &&
             text[k] != '/')
        ++k;
      std::string key(text.substr(key_begin, k - key_begin));
      while (k < text.size() && is_blank(text[k]))
        ++k;
      std::string value;
      if (k < text.size() && text[k] == '=') {
        ++k;
        while (k < text.size() && is_blank(text[k]))
          ++k;
        if (k < text.size() && (text[k] == '"' || text[k] == '\'')) {
          const std::size_t close = text.find(text[k], k + 1);
          if (close == std::string_view::npos)
            break;
          value = decode_entities(text.substr(k + 1, close - k - 1));
          k = close + 1;
        } else {
          const std::size_t value_begin = k;
          while (k < text.size() && !is_blank(text[k]) && text[k] != '>')
            ++k;
          value = decode_entities(text.substr(value_begin, k - value_begin));
        }
      }
      if (!key.empty())
        tag.attributes.emplace_back(std::move(key), std::move(value));
    }
    if (!ended)
      break;
    at = text.find('<', k);
    tag.text_after = text.substr(k, (at == std::string_view::npos ? text.size() : at) - k);
    tags.push_back(std::move(tag));
  }
  return tags;
}

// What a Polygon solution tag expects; nullopt for a tag with no Kattis verdict of its own.
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

// problem.xml: the first <time-limit> (milliseconds) and the <solution tag=...> elements.
void read_problem_xml(ProblemPackage& package) {
  const std::optional<std::string> text = read_package_file("problem.xml", package);
  if (!text)
    return;
  const std::vector<XmlTag> tags = xml_tags(*text);
  for (const XmlTag& tag : tags) {
    if (tag.closing || tag.self_closing || tag.name != "time-limit")
      continue;
    std::optional<double> milliseconds;
    read_setting(milliseconds, trim(tag.text_after), "problem.xml", "<time-limit> (milliseconds)",
                 package);
    if (milliseconds) {
      package.time_limit_seconds = *milliseconds / 1000;
      package.time_limit_source = "problem.xml <time-limit>";
    }
    break;
  }
  for (const XmlTag& tag : tags) {
    if (tag.closing || tag.self_closing || tag.name != "memory-limit")
      continue;
    std::optional<double> bytes;
    read_setting(bytes, trim(tag.text_after), "problem.xml", "<memory-limit> (bytes)", package);
    if (bytes) {
      package.memory_limit_mb = *bytes / (1 << 20);
      package.memory_limit_source = "problem.xml <memory-limit>";
    }
    break;
  }

  std::optional<std::string> solution_tag;  // inside a <solution>: its tag attribute
  std::optional<std::string> source;        // its <source path=...>
  const auto finish_solution = [&] {
    const std::string tag = *solution_tag;
    solution_tag.reset();
    if (!source) {
      package.warnings.push_back("problem.xml: a <solution tag=\"" + tag +
                                 "\"> without a <source path=...>; skipped");
      return;
    }
    const std::string name = fs::path(*source).lexically_normal().generic_string();
    source.reset();
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
  };
  for (const XmlTag& tag : tags) {
    if (tag.name == "solution") {
      if (tag.closing) {
        if (solution_tag)
          finish_solution();
        continue;
      }
      if (solution_tag)  // an unclosed one before
        finish_solution();
      solution_tag = tag.attribute("tag").value_or("");
      if (tag.self_closing)
        finish_solution();
    } else if (tag.name == "source" && !tag.closing && solution_tag && !source) {
      source = tag.attribute("path");
    }
  }
  if (solution_tag)
    finish_solution();
}

// submissions/<verdict>/<entry>: each entry (a file or a directory) one submission.
void read_kattis_submissions(ProblemPackage& package) {
  static constexpr std::array<std::pair<std::string_view, Expectation>, 4> kVerdicts = {{
      {"accepted", Expectation::accepted},
      {"wrong_answer", Expectation::wrong_answer},
      {"time_limit_exceeded", Expectation::time_limit_exceeded},
      {"run_time_error", Expectation::run_time_error},
  }};
  for (const fs::directory_entry& group : sorted_entries(package.root / "submissions")) {
    const std::string group_name = group.path().filename().string();
    if (is_ignored_name(group_name))
      continue;
    const auto verdict =
        std::find_if(kVerdicts.begin(), kVerdicts.end(),
                     [&group_name](const auto& known) { return known.first == group_name; });
    std::error_code error;
    if (verdict == kVerdicts.end() || !group.is_directory(error)) {
      package.warnings.push_back(
          "submissions/" + group_name + ": '" + group_name +
          "' is no verdict directory of the Kattis format (accepted, wrong_answer, "
          "time_limit_exceeded, run_time_error); skipped");
      continue;
    }
    for (const fs::directory_entry& entry : sorted_entries(group.path())) {
      const std::string name = entry.path().filename().string();
      if (is_ignored_name(name))
        continue;
      package.submissions.push_back(
          {group_name + "/" + name, entry.path().lexically_normal(), verdict->second, {}});
    }
  }
}

// sol/solution.* and sol/soluzione.* are accepted; CMS says nothing of the other files.
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
    if (!name.starts_with("solution.") && !name.starts_with("soluzione.")) {
      package.warnings.push_back(relative +
                                 ": the CMS format does not say what it must get (only "
                                 "sol/solution.* and sol/soluzione.* are accepted); skipped");
      continue;
    }
    package.submissions.push_back(
        {relative, entry.path().lexically_normal(), Expectation::accepted, {}});
  }
}

fs::path normal_absolute(const fs::path& directory) {
  fs::path root = fs::absolute(directory).lexically_normal();
  if (!root.has_filename() && root.has_relative_path())  // "/a/b/" -> "/a/b"
    root = root.parent_path();
  return root;
}

}  // namespace

std::optional<ProblemPackage> recognise_package(const fs::path& directory,
                                                std::optional<Layout> layout) {
  std::error_code error;
  if (!fs::is_directory(directory, error))
    throw UsageError("not a directory: " + directory.string());

  std::vector<std::string> marks;
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
      add_input_root("data");
      if (package.input_roots.empty())
        package.input_roots.push_back(package.root);
      read_problem_yaml(package);
      read_kattis_submissions(package);
      break;
    case Layout::polygon:
      add_input_root("tests");
      read_problem_xml(package);
      break;
    case Layout::cms:
      add_input_root("input");
      read_task_yaml(package);
      read_cms_submissions(package);
      break;
  }
  std::sort(package.submissions.begin(), package.submissions.end(),
            [](const PackageSubmission& a, const PackageSubmission& b) { return a.name < b.name; });
  return package;
}

}  // namespace gamebatch::io
