#include "pipeline/strength/fill.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "io/files/atomic_file.hpp"
#include "io/files/content_hash.hpp"
#include "io/files/input_set.hpp"

namespace gamebatch::pipeline {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return lines;
}

bool is_blank_or_comment(const std::string& line) {
  const std::size_t first = line.find_first_not_of(" \t");
  return first == std::string::npos || line[first] == '#';
}

// The line (0-based) after group `g`'s last line of its own: before the blank lines and comments
// that open the next group.
std::size_t end_of_group(const io::PackagePlan& plan, std::size_t g,
                         const std::vector<std::string>& lines) {
  std::size_t end = g + 1 < plan.groups.size() ? plan.groups[g + 1].line - 1 : lines.size();
  while (end > plan.groups[g].line && is_blank_or_comment(lines[end - 1]))
    --end;
  return end;
}

std::string file_name(const FillTest& test) {
  const std::string hash = io::hex(io::content_hash128({test.text.size()}, {test.text}));
  return std::string(kFillFolder) + "/" + test.group + "-" + test.kind + "-" + hash.substr(0, 8) +
         ".in";
}

// A comment for the entry: what the test is for, on one line.
std::string comment_of(const FillTest& test) {
  std::string why = test.why;
  std::replace(why.begin(), why.end(), '\n', ' ');
  return "  # gamebatch strength: " + test.kind + ": " + why;
}

}  // namespace

std::vector<FillTest> fill_package(const io::PackagePlan& plan, std::vector<FillTest> tests) {
  const std::filesystem::path root = plan.file.parent_path();
  // The plan's copies already there.
  std::set<std::pair<std::string, std::string>> present;
  for (const io::PlanGroup& group : plan.groups) {
    for (const io::PlanEntry& entry : group.tests) {
      if (entry.kind == io::PlanEntry::Kind::copy)
        present.insert({group.name, entry.text});
    }
  }
  std::vector<FillTest> added;
  std::set<std::pair<std::string, std::string>> chosen;
  for (FillTest& test : tests) {
    test.file = file_name(test);
    if (present.count({test.group, test.file}) != 0 ||
        !chosen.insert({test.group, test.file}).second)
      continue;
    added.push_back(std::move(test));
  }
  if (added.empty())
    return added;
  std::filesystem::create_directories(root / kFillFolder);
  for (const FillTest& test : added)
    io::write_file_atomically(root / test.file, test.text);
  std::vector<std::string> lines = lines_of(io::read_file(plan.file));
  // From the last group up, so that earlier groups' line numbers stay right.
  for (std::size_t g = plan.groups.size(); g-- > 0;) {
    std::vector<std::string> entries;
    for (const FillTest& test : added) {
      if (test.group != plan.groups[g].name)
        continue;
      entries.push_back("[[group.test]]" + comment_of(test));
      entries.push_back("copy = \"" + test.file + "\"");
    }
    if (entries.empty())
      continue;
    const std::size_t at = end_of_group(plan, g, lines);
    lines.insert(lines.begin() + static_cast<long>(at), entries.begin(), entries.end());
  }
  std::string text;
  for (const std::string& line : lines)
    text += line + "\n";
  io::write_file_atomically(plan.file, text);
  return added;
}

}  // namespace gamebatch::pipeline
