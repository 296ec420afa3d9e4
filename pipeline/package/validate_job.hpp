// The engine of `gamebatch validate`: every input checked in the exact format of the game's
// statement and within its limits (io/format/strict_format.hpp), or with --lenient against the
// limits alone on the parser that solve uses (the game's check_limits, io/problem.hpp); in a built
// package with a plan, also against the limits of the groups holding it. Files are checked in
// parallel and told in input order.
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
#include "pipeline/package/package_checks.hpp"

namespace gamebatch::pipeline {

struct ValidateSettings {
  std::string problem;  // the game's name
  std::optional<io::Layout> layout;
  std::vector<std::string> paths;  // input files and directories, or packages
  // Only the limits, on solve's parser (any whitespace, leading zeros, CRLF...), every violation
  // of a file told; by default the exact format, the first fault of a file told.
  bool lenient = false;
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
