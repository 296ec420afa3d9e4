// The engine of `gamebatch validate`: every input checked against the statement's limits (the
// game's check_limits, io/problem.hpp) and, in a built package with a plan, against the limits of
// the groups holding it; files are checked in parallel and told in input order.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "io/files/package_plan.hpp"
#include "io/files/problem_package.hpp"
#include "io/problem.hpp"
#include "pipeline/engines.hpp"
#include "pipeline/package_checks.hpp"

namespace gamebatch::pipeline {

struct ValidateSettings {
  std::string problem;  // the game's name
  std::optional<io::Layout> layout;
  std::vector<std::string> paths;  // input files and directories, or packages
  // The packages' own validators, invalid inputs and bounds (package_checks.hpp).
  PackageCheckSettings packages;
};

struct ValidateResult {
  Outcome outcome = Outcome::done;  // failed: some file is not valid; usage_error: nothing checked
  std::size_t files = 0;
  std::size_t invalid = 0;
};

// Validates every input of the paths; `on_file` hears each file's lines (empty: valid) in input
// order, as they are known. Then, given `on_package`, checks the packages among the paths
// (check_packages) and tells each.
ValidateResult validate_inputs(
    const ValidateSettings& settings, const std::function<void(const std::string& lines)>& on_file,
    const std::function<void(const std::string& path, const PackageCheckResult&)>& on_package = {});

}  // namespace gamebatch::pipeline
