// The property of the package readers that take files from elsewhere, shared by their libFuzzer
// targets (tests/fuzz/{package_plan,problem_yaml,submissions_yaml,group_yaml,task_yaml,
// problem_xml}_fuzz.cpp) and by tests/fuzz_regression_test.cpp, which runs every seed and finding
// through it. For any bytes in the file fuzzed, inside a package whose other files are sound:
// - the plan (gamebatch.toml) reads, or is refused with io::UsageError naming the file;
// - the package (io::recognise_package) reads, or is refused with io::UsageError; problem.yaml is
//   also read by io::parse_kattis_metadata, refused the same way;
// - what reads is sound: a known game, unique group names, includes of earlier groups, counts of
//   at least 1 and limits with min <= max; groups with finite points >= 0 and tests inside the
//   package; time and memory limits finite and positive.
// Any other exception is a finding (the caller aborts with the message).
#pragma once

#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include "io/files/input_set.hpp"
#include "io/files/package_plan.hpp"
#include "io/files/problem_package.hpp"
#include "io/problem.hpp"

namespace gamebatch::fuzz {

// Which file of a package the bytes become.
enum class PackageFile { plan, problem_yaml, submissions_yaml, group_yaml, task_yaml, problem_xml };

// A broken property, with what broke.
class PropertyViolation : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

namespace package_reader {

inline void write(const std::filesystem::path& path, std::string_view bytes) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!file.flush())
    throw std::runtime_error("cannot write " + path.string());
}

// The package around the fuzzed file, made once per directory (its files never change).
inline void lay_out(const std::filesystem::path& root, PackageFile file) {
  if (std::filesystem::exists(root / "made"))
    return;
  switch (file) {
    case PackageFile::plan:
      break;
    case PackageFile::problem_yaml:
    case PackageFile::submissions_yaml:
    case PackageFile::group_yaml:
      write(root / "problem.yaml", "name: x\ntype: scoring\n");
      write(root / "data/sample/1.in", "1\n1\n0\n");
      write(root / "data/secret/small/test_group.yaml", "max_score: 30\n");
      write(root / "data/secret/small/1.in", "1\n1\n0\n");
      write(root / "data/secret/large/testdata.yaml", "accept_score: 70\ngrader_flags: min\n");
      write(root / "data/secret/large/1.in", "1\n1\n0\n");
      write(root / "submissions/accepted/a.cpp", "// @check-accepted: small\n");
      write(root / "submissions/partial/b.py", "# @check-wrong-answer: large\n");
      write(root / "submissions/other/c.c", "int main() {}\n");
      break;
    case PackageFile::task_yaml:
      for (int k = 0; k < 4; ++k)
        write(root / ("input/input" + std::to_string(k) + ".txt"), "1\n1\n0\n");
      write(root / "sol/solution.cpp", "int main() {}\n");
      write(root / "sol/brute.cpp", "// @check-accepted: subtask1\n");
      break;
    case PackageFile::problem_xml:
      write(root / "tests/01", "1\n1\n0\n");
      write(root / "solutions/a.cpp", "int main() {}\n");
      break;
  }
  write(root / "made", "");
}

// Where the bytes go: group_yaml's first byte picks one of the group files, the rest is the file.
inline std::filesystem::path target_of(PackageFile file, std::string_view& bytes) {
  switch (file) {
    case PackageFile::plan:
      return "gamebatch.toml";
    case PackageFile::problem_yaml:
      return "problem.yaml";
    case PackageFile::submissions_yaml:
      return "submissions/submissions.yaml";
    case PackageFile::group_yaml: {
      static const char* const kFiles[] = {"data/secret/small/test_group.yaml",
                                           "data/secret/large/testdata.yaml", "data/testdata.yaml",
                                           "data/secret/testdata.yaml"};
      const unsigned pick = bytes.empty() ? 0 : static_cast<unsigned char>(bytes.front()) % 4;
      if (!bytes.empty())
        bytes.remove_prefix(1);
      return kFiles[pick];
    }
    case PackageFile::task_yaml:
      return "task.yaml";
    case PackageFile::problem_xml:
      return "problem.xml";
  }
  return "unknown";
}

inline void require(bool holds, const std::string& what) {
  if (!holds)
    throw PropertyViolation(what);
}

inline void check_plan(const io::PackagePlan& plan) {
  require(io::find_problem(plan.game) != nullptr, "a plan read with an unknown game");
  std::set<std::string> names;
  for (std::size_t k = 0; k < plan.groups.size(); ++k) {
    const io::PlanGroup& group = plan.groups[k];
    require(!group.name.empty() && names.insert(group.name).second,
            "a plan read with an empty or repeated group name");
    require(std::isfinite(group.score) && group.score >= 0, "a plan read with bad points");
    for (const std::size_t included : group.include)
      require(included < k, "a plan read with an include of a later group");
    for (const io::ParameterRange& limit : group.limits)
      require(limit.min <= limit.max, "a plan read with an empty limit");
    for (const io::PlanEntry& entry : group.tests)
      require(entry.count >= 1, "a plan read with a count below 1");
    for (const io::NarrowLimit& limit : io::test_limits(plan, k))
      require(limit.min <= limit.max, "test_limits gives an empty limit");
  }
}

inline void check_package(const io::ProblemPackage& package) {
  const std::string root = package.root.string() + "/";
  for (const io::TestGroup& group : package.groups) {
    require(std::isfinite(group.max_score) && group.max_score >= 0,
            "a group read with points that are not finite and >= 0: " + group.name);
    for (const std::filesystem::path& test : group.tests)
      require(test.string().starts_with(root), "a group's test outside the package");
  }
  for (const io::PackageSubmission& submission : package.submissions)
    require(submission.path.string().starts_with(root), "a submission outside the package");
  if (package.time_limit_seconds)
    require(std::isfinite(*package.time_limit_seconds) && *package.time_limit_seconds > 0,
            "a time limit read that is not finite and positive");
  if (package.memory_limit_mb)
    require(std::isfinite(*package.memory_limit_mb) && *package.memory_limit_mb > 0,
            "a memory limit read that is not finite and positive");
  require(std::isfinite(package.time_multiplier) && package.time_multiplier > 0,
          "a time multiplier read that is not finite and positive");
}

}  // namespace package_reader

// Reads `bytes` as `file` of a package under `scratch` and checks the property. Throws
// PropertyViolation when it breaks, with what broke (an unexpected exception included).
inline void check_package_reader(PackageFile file, std::string_view bytes,
                                 const std::filesystem::path& scratch) {
  namespace reader = package_reader;
  const std::filesystem::path root =
      scratch / ("package-" + std::to_string(static_cast<int>(file)));
  reader::lay_out(root, file);
  if (file == PackageFile::group_yaml) {  // each input starts from the same group files
    reader::write(root / "data/secret/small/test_group.yaml", "max_score: 30\n");
    reader::write(root / "data/secret/large/testdata.yaml",
                  "accept_score: 70\ngrader_flags: min\n");
    std::filesystem::remove(root / "data/testdata.yaml");
    std::filesystem::remove(root / "data/secret/testdata.yaml");
  }
  const std::filesystem::path target = root / reader::target_of(file, bytes);
  reader::write(target, bytes);
  try {
    try {
      if (file == PackageFile::plan)
        reader::check_plan(io::read_package_plan(target));
      else if (const auto package = io::recognise_package(root, std::nullopt))
        reader::check_package(*package);
    } catch (const io::UsageError& error) {
      if (file == PackageFile::plan)
        reader::require(
            std::string_view(error.what()).starts_with(target.string()),
            std::string("a plan's UsageError that does not name the file: ") + error.what());
    }
    if (file == PackageFile::problem_yaml) {
      try {
        io::parse_kattis_metadata(std::string(bytes));
      } catch (const io::UsageError&) {
      }
    }
  } catch (const PropertyViolation&) {
    throw;
  } catch (const std::exception& error) {
    throw PropertyViolation(std::string("unexpected exception: ") + error.what());
  }
}

}  // namespace gamebatch::fuzz
