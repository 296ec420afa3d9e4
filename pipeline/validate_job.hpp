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

namespace gamebatch::pipeline {

struct ValidateSettings {
  std::string problem;  // the game's name
  std::optional<io::Layout> layout;
  std::vector<std::string> paths;  // input files and directories, or packages
};

struct ValidateResult {
  Outcome outcome = Outcome::done;  // failed: some file is not valid; usage_error: nothing checked
  std::size_t files = 0;
  std::size_t invalid = 0;
};

// Validates every input of the paths; `on_file` hears each file's lines (empty: valid) in input
// order, as they are known.
ValidateResult validate_inputs(const ValidateSettings& settings,
                               const std::function<void(const std::string& lines)>& on_file);

}  // namespace gamebatch::pipeline
