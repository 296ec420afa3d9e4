#include "pipeline/package/validate_job.hpp"

#include <algorithm>
#include <map>
#include <regex>

#include <oneapi/tbb/parallel_for.h>
#include <spdlog/spdlog.h>

#include "io/files/atomic_file.hpp"
#include "io/files/input_set.hpp"
#include "io/format/input_error.hpp"
#include "io/format/strict_format.hpp"

namespace gamebatch::pipeline {
namespace {

using LimitsOfTest = std::map<std::filesystem::path, std::vector<io::NarrowLimit>>;

// Adds `limits` to those of `test`, each (owner, parameter) once.
void add_limits(LimitsOfTest& group_limits, const std::filesystem::path& test,
                const std::vector<io::NarrowLimit>& limits) {
  std::vector<io::NarrowLimit>& of_test = group_limits[test];
  for (const io::NarrowLimit& limit : limits) {
    if (std::none_of(of_test.begin(), of_test.end(), [&](const io::NarrowLimit& known) {
          return known.owner == limit.owner && known.parameter == limit.parameter;
        }))
      of_test.push_back(limit);
  }
}

// Each test of the package's groups with their limits, and build's copy of an included group
// H's test (H-EE-III.in in the including group's folder) with those of H too.
void add_package_limits(const io::ProblemPackage& package, LimitsOfTest& group_limits) {
  const std::regex copy_of_other("([a-z0-9_-]+)-[0-9]+-[0-9]+\\.in");
  for (const io::TestGroup& group : package.groups) {
    for (const std::filesystem::path& test : group.tests) {
      add_limits(group_limits, test, group.limits);
      std::smatch match;
      const std::string name = test.filename().string();
      if (!std::regex_match(name, match, copy_of_other))
        continue;
      for (const io::TestGroup& other : package.groups) {
        if (other.name == match[1].str() && &other != &group)
          add_limits(group_limits, test, other.limits);
      }
    }
  }
}

// The group limits of every test of the built packages with a plan among the paths. Throws
// io::UsageError, also for a package of another game.
LimitsOfTest find_group_limits(const ValidateSettings& settings) {
  LimitsOfTest group_limits;
  for (const std::string& path : settings.paths) {
    if (!std::filesystem::is_directory(path))
      continue;
    const std::optional<io::ProblemPackage> package = io::recognise_package(path, settings.layout);
    if (!package || package->plan_game.empty())
      continue;
    if (package->plan_game != settings.problem)
      throw io::UsageError(path + " is a package of " + package->plan_game + ", not of " +
                           settings.problem);
    add_package_limits(*package, group_limits);
  }
  return group_limits;
}

// What lenient validate says of one file: its lines ("FILE:LINE: what the statement requires"),
// empty when it is valid. `group_limits`: those of the groups holding it, checked beside the
// statement's.
std::string validate_file_leniently(const io::Problem& problem, const std::filesystem::path& path,
                                    const std::vector<io::NarrowLimit>& group_limits) {
  const std::string name = path.string();
  try {
    io::OfficialLimitCheck check(group_limits);
    problem.check_limits(io::read_file(path), check);
    const io::OfficialLimitReport report = io::OfficialLimitReport::of(check);
    std::string lines;
    for (const io::LimitViolation& violation : report.violations)
      lines += name + ":" + std::to_string(violation.line) + ": " + violation.message + "\n";
    if (report.count > report.violations.size()) {
      lines += name + ": and " + std::to_string(report.count - report.violations.size()) +
               " more violations of the statement's limits\n";
    }
    return lines;
  } catch (const io::InputError& error) {
    return name + ":" + std::to_string(error.line()) + ": " + error.what() + "\n";
  } catch (const std::exception& error) {
    return name + ": " + error.what() + "\n";
  }
}

// What strict validate says of one file: "FILE:LINE:COLUMN: RULE: what was expected and found"
// for its first fault, empty when it is valid.
std::string validate_file_strictly(const io::Problem& problem, const std::filesystem::path& path,
                                   const std::vector<io::NarrowLimit>& group_limits) {
  const std::string name = path.string();
  try {
    const std::optional<io::StrictRejection> rejection =
        io::strict_check(problem.name(), io::read_file(path), group_limits);
    if (!rejection)
      return "";
    return name + ":" + std::to_string(rejection->line) + ":" + std::to_string(rejection->column) +
           ": " + rejection->rule + ": " + rejection->message + "\n";
  } catch (const std::exception& error) {
    return name + ": " + error.what() + "\n";
  }
}

}  // namespace

ValidateResult validate_inputs(
    const ValidateSettings& settings, const std::function<void(const std::string& lines)>& on_file,
    const std::function<void(const std::string& path, const PackageCheckResult&)>& on_package) {
  const io::Problem& problem = *io::find_problem(settings.problem);
  io::InputList inputs;
  LimitsOfTest group_limits;
  try {
    inputs = io::collect_input_list(settings.paths, std::nullopt, settings.layout);
    group_limits = find_group_limits(settings);
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return {Outcome::usage_error, 0, 0};
  }
  const auto limits_of = [&](const std::filesystem::path& input) -> std::vector<io::NarrowLimit> {
    if (group_limits.empty())
      return {};
    const auto found = group_limits.find(std::filesystem::absolute(input).lexically_normal());
    return found == group_limits.end() ? std::vector<io::NarrowLimit>{} : found->second;
  };
  // Files are checked in parallel, a block at a time, and told in input order.
  constexpr std::size_t kBlock = 1024;
  ValidateResult result;
  result.files = inputs.size();
  std::vector<std::string> said;
  for (std::size_t first = 0; first < inputs.size(); first += kBlock) {
    const std::size_t count = std::min(kBlock, inputs.size() - first);
    said.assign(count, std::string());
    tbb::parallel_for(std::size_t{0}, count, [&](std::size_t k) {
      const std::filesystem::path& input = inputs[first + k].input;
      said[k] = settings.lenient ? validate_file_leniently(problem, input, limits_of(input))
                                 : validate_file_strictly(problem, input, limits_of(input));
    });
    for (const std::string& lines : said) {
      result.invalid += lines.empty() ? 0 : 1;
      on_file(lines);
    }
  }
  result.outcome = result.invalid == 0 ? Outcome::done : Outcome::failed;
  if (on_package)
    result.outcome =
        graver(result.outcome, check_packages(settings.paths, settings.layout, settings.problem,
                                              settings.packages, on_package));
  return result;
}

}  // namespace gamebatch::pipeline
