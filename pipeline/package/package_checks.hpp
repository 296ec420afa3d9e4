// What `validate` and `build` check of a problem package beyond each input on its own: the
// package's own validators on every test, compared with gamebatch's verdict
// (package_validators.hpp); with --invalid, the inputs every validator must reject
// (invalid_inputs.hpp); and the bounds its data reaches (data_bounds.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/files/problem_package.hpp"
#include "pipeline/engines.hpp"
#include "pipeline/package/data_bounds.hpp"
#include "pipeline/programs/run_setup.hpp"

namespace gamebatch::pipeline {

struct PackageCheckSettings {
  JudgeSettings judge;     // the validators' limits and sandbox (check's options)
  std::string cache_file;  // the compiled validators go beside it, as check's solutions
  bool no_cache = false;
  bool invalid = false;  // --invalid: invalid inputs and mutants too
  std::string out;       // --out DIR: where mutants are kept; empty: a temporary directory
  std::uint64_t seed = 1;
};

struct PackageCheckResult {
  // failed: a disagreement, a blind spot, a validator that cannot run or failed; usage_error: the
  // sandbox or the store cannot be used (said).
  Outcome outcome = Outcome::done;
  std::vector<std::string> validators;  // their names
  std::size_t tests = 0, runs = 0, invalid_files = 0, mutants = 0;
  std::vector<std::string> problems;  // one line each, for stdout
  std::vector<std::string> warnings;  // the package's settings, bounds no test reaches
  std::vector<GroupBounds> bounds;
  std::string mutants_folder;  // where the mutants are (empty: none kept)

  // The reports' "package_checks".
  nlohmann::json json() const;
  // "validators: 2 (input_validators/a, ...) on 23 tests: 46 runs, 1 disagreement", and for
  // --invalid the invalid inputs' line.
  std::vector<std::string> summary_lines() const;
};

// gamebatch's strict verdict (io::strict_check) on a file of `package`, with the limits of the
// groups holding it: empty when valid, else "line L, column C: RULE: message" (or why the file
// cannot be read).
std::function<std::string(const std::filesystem::path&)> strict_rejection(
    const io::ProblemPackage& package, std::string_view game);

// Checks `package` (of game `game`): its validators on every test against strict_rejection,
// the bounds of each group; with settings.invalid, the invalid inputs and mutants. Messages name
// its files under `shown_root` (the package as the user named it).
PackageCheckResult check_package(const io::ProblemPackage& package, std::string_view game,
                                 const PackageCheckSettings& settings,
                                 const std::string& shown_root);

// check_package on every package among `paths` (directories that a layout recognises, read as
// `layout` says), in order; `on_package(path, result)` hears each. With settings.invalid and no
// package among the paths: a usage error, said.
Outcome check_packages(
    const std::vector<std::string>& paths, std::optional<io::Layout> layout, std::string_view game,
    const PackageCheckSettings& settings,
    const std::function<void(const std::string& path, const PackageCheckResult&)>& on_package);

// validate's --report: {"schema": "gamebatch-validate/1", "gamebatch_version", "game", "files",
// "invalid", "packages": [{"path", "package_checks": PackageCheckResult::json()}]}.
nlohmann::json validate_report(
    std::string_view game, std::size_t files, std::size_t invalid,
    const std::vector<std::pair<std::string, PackageCheckResult>>& packages);

}  // namespace gamebatch::pipeline
