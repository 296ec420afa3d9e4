// A problem package's own input validators: which programs the package holds and what arguments
// each gets on each test, as the judge systems that read the package call them
// (pipeline/package_validators.hpp compiles and runs them).
//
//   kattis      input_validators/* (legacy input_format_validators/* too): each entry a program,
//               a source file or a directory of sources (compiled as check's solutions), or a
//               directory with `build` and `run` scripts. Reads the test on stdin, exits 42 when
//               valid and 43 when not. Arguments: the group's flags, from the nearest settings
//               file between the test's directory and data/: legacy testdata.yaml
//               `input_validator_flags` (a string split at spaces, or a map from validator name
//               to such a string), 2023-07/2025-09 test_group.yaml or testdata.yaml
//               `input_validator_args` (a list, or a map from validator name to a list).
//   polygon     problem.xml's <validators><validator><source path=...>: testlib's convention,
//               stdin, exit 0 when valid; `--group G` where problem.xml puts the test in group G.
//   task-maker  gen/validator.* or gen/valida.*: called as `validator INPUT SUBTASK` (SUBTASK
//               1-based after gen/GEN, 0-based after gen/cases.gen), exit 0 when valid.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "io/files/problem_package.hpp"

namespace gamebatch::io {

// How a validator is called and how it says its verdict.
enum class ValidatorConvention { kattis, testlib, task_maker };

// "kattis", "testlib", "task-maker".
std::string_view convention_name(ValidatorConvention convention);

struct PackageValidator {
  std::string name;            // as the package names it: "input_validators/strict.cpp"
  std::filesystem::path path;  // the file or directory, absolute
  ValidatorConvention convention = ValidatorConvention::kattis;
  // A directory with `build` and `run` scripts (kattis): built by running `build` in a copy of it.
  bool build_script = false;
};

// The kattis folders of input validators, the current first.
inline constexpr const char* kInputValidatorFolders[] = {"input_validators",
                                                         "input_format_validators"};

// The validators of `package`, in the order above (kattis: by name). What is found and cannot be
// a validator (a file that is neither executable nor a source the languages know is told by the
// caller, which knows the languages) is listed all the same. `warnings` gets one line per thing
// left out or deprecated.
std::vector<PackageValidator> find_package_validators(const ProblemPackage& package,
                                                      std::vector<std::string>& warnings);

// The arguments each validator gets on each test of one package, its settings files read once.
class ValidatorArguments {
 public:
  // Reads the package's settings: kattis data/**/testdata.yaml and test_group.yaml, polygon
  // problem.xml's groups of tests, task-maker's subtasks (the package's groups). Malformed files
  // add a warning and give no arguments.
  explicit ValidatorArguments(const ProblemPackage& package);

  // The arguments of `validator` on the test `input` (an absolute, normal path in the package);
  // for task-maker the subtask number only (the caller puts the input's path before it).
  std::vector<std::string> of(const PackageValidator& validator,
                              const std::filesystem::path& input) const;

  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  struct Flags {
    std::vector<std::string> all;                             // for every validator
    std::map<std::string, std::vector<std::string>> by_name;  // a map's entries
    bool is_map = false;
  };
  void read_kattis(const std::filesystem::path& directory, const Flags& inherited);
  void read_polygon(const ProblemPackage& package);

  std::filesystem::path root_;                            // the package's
  std::map<std::filesystem::path, Flags> kattis_;         // per directory under data/
  std::map<std::string, std::string> polygon_groups_;     // test file name -> group
  std::map<std::filesystem::path, std::size_t> subtask_;  // test -> task-maker's subtask
  std::vector<std::string> warnings_;
};

// Splits flags as verifyproblem does (Python's str.split(): runs of whitespace).
std::vector<std::string> split_flags(const std::string& flags);

}  // namespace gamebatch::io
