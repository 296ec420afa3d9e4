#include "pipeline/package/package_checks.hpp"

#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <system_error>
#include <thread>

#include <spdlog/spdlog.h>

#include "io/files/atomic_file.hpp"
#include "io/files/input_set.hpp"
#include "io/files/validator_settings.hpp"
#include "io/format/strict_format.hpp"
#include "pipeline/package/invalid_inputs.hpp"
#include "pipeline/package/package_validators.hpp"
#include "pipeline/version.hpp"

namespace gamebatch::pipeline {

namespace fs = std::filesystem;

namespace {

// The first line of gamebatch's verdict, and how many more it had.
std::string first_line(const std::string& lines) {
  const std::size_t end = lines.find('\n');
  if (end == std::string::npos || end + 1 >= lines.size())
    return lines.substr(0, end);
  std::size_t more = 0;
  for (std::size_t at = end + 1; at < lines.size(); ++at)
    more += lines[at] == '\n' ? 1 : 0;
  more += lines.back() == '\n' ? 0 : 1;
  return lines.substr(0, end) + " (and " + std::to_string(more) + " more lines)";
}

// The package's groups with their limits; without groups, all its tests as one.
std::vector<GroupTests> groups_of(const io::ProblemPackage& package) {
  std::vector<GroupTests> groups;
  for (const io::TestGroup& group : package.groups)
    groups.push_back({group.name, group.tests, group.limits});
  if (groups.empty())
    groups.push_back({"(all tests)", package_tests(package), {}});
  return groups;
}

// Validator runs at once: --jobs, else one per core.
std::size_t runs_at_once(const JudgeSettings& judge) {
  if (judge.jobs > 0)
    return static_cast<std::size_t>(judge.jobs);
  return std::max(1u, std::thread::hardware_concurrency());
}

std::string plural(std::size_t count, const std::string& one, const std::string& many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// A temporary directory for the mutants when --out gives none.
class Scratch {
 public:
  Scratch() {
    std::string pattern = (fs::temp_directory_path() / "gamebatch-mutants-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw std::system_error(errno, std::generic_category(), "cannot make " + pattern);
    path_ = pattern;
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The invalid inputs of the package and the mutants of its groups' valid tests.
void check_invalid(const io::ProblemPackage& package, std::string_view game,
                   const PackageCheckSettings& settings, const PackageValidators& validators,
                   const std::function<std::string(const fs::path&)>& rejection,
                   const std::function<std::string(const fs::path&)>& shown,
                   PackageCheckResult& result) {
  const std::size_t jobs = runs_at_once(settings.judge);
  const InvalidInputResult files =
      check_invalid_files(validators, invalid_input_files(package), rejection, shown, jobs);
  result.invalid_files = files.files;
  result.runs += files.runs;
  result.problems.insert(result.problems.end(), files.blind_spots.begin(), files.blind_spots.end());
  std::vector<GroupTests> groups = groups_of(package);
  for (GroupTests& group : groups) {
    std::vector<fs::path> valid;
    for (const fs::path& test : group.tests) {
      if (valid.size() < kMutatedTests && rejection(test).empty())
        valid.push_back(test);
    }
    group.tests = std::move(valid);
  }
  std::optional<Scratch> scratch;
  fs::path out = settings.out;
  if (out.empty()) {
    scratch.emplace();
    out = scratch->path();
  } else {
    result.mutants_folder = out.string();
  }
  const InvalidInputResult mutants =
      check_mutants(game, validators, groups, out, settings.seed, jobs);
  result.mutants = mutants.mutants;
  result.runs += mutants.runs;
  for (std::string line : mutants.blind_spots) {
    const std::size_t file = line.rfind(": " + out.string());
    if (scratch && file != std::string::npos) {  // the file goes with the scratch: not named
      const std::size_t end = line.find(".in", file);
      line.replace(file, end == std::string::npos ? std::string::npos : end + 3 - file,
                   " (--out DIR keeps the mutants)");
    }
    result.problems.push_back(std::move(line));
  }
}

}  // namespace

std::function<std::string(const fs::path&)> strict_rejection(const io::ProblemPackage& package,
                                                             std::string_view game) {
  auto limits = std::make_shared<std::map<fs::path, std::vector<io::NarrowLimit>>>();
  for (const io::TestGroup& group : package.groups) {
    for (const fs::path& test : group.tests) {
      std::vector<io::NarrowLimit>& of_test = (*limits)[test];
      of_test.insert(of_test.end(), group.limits.begin(), group.limits.end());
    }
  }
  return [limits, game = std::string(game)](const fs::path& file) -> std::string {
    std::string text;
    try {
      text = io::read_file(file);
    } catch (const std::exception& error) {
      return std::string("cannot be read: ") + error.what();
    }
    const auto found = limits->find(file);
    try {
      const std::optional<io::StrictRejection> rejection = io::strict_check(
          game, text, found == limits->end() ? std::vector<io::NarrowLimit>{} : found->second);
      return rejection ? io::describe(*rejection) : std::string();
    } catch (const std::invalid_argument& error) {
      return error.what();
    }
  };
}

PackageCheckResult check_package(const io::ProblemPackage& package, std::string_view game,
                                 const PackageCheckSettings& settings,
                                 const std::string& shown_root) {
  const std::function<std::string(const fs::path&)> rejection = strict_rejection(package, game);
  PackageCheckResult result;
  const auto shown = [&package, &shown_root](const fs::path& file) {
    return (fs::path(shown_root) / file.lexically_relative(package.root)).generic_string();
  };
  const auto first_rejection = [&rejection](const fs::path& file) {
    return first_line(rejection(file));
  };
  std::vector<std::string> found_warnings;
  const bool any = !io::find_package_validators(package, found_warnings).empty();
  std::unique_ptr<io::SandboxPool> sandbox;
  if (any && !make_sandbox(settings.judge, sandbox)) {
    result.outcome = Outcome::usage_error;
    return result;
  }
  std::optional<PackageValidators> validators;
  try {
    validators.emplace(package, settings.judge, settings.cache_file, settings.no_cache,
                       sandbox.get());
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    result.outcome = Outcome::usage_error;
    return result;
  }
  for (std::size_t k = 0; k < validators->size(); ++k)
    result.validators.push_back(validators->validator(k).name);
  result.warnings = validators->warnings();
  result.problems = validators->problems();
  const std::vector<fs::path> tests = package_tests(package);
  result.tests = tests.size();
  const std::size_t jobs = runs_at_once(settings.judge);
  const ValidatorComparison compared =
      compare_with_validators(*validators, tests, first_rejection, shown, jobs);
  result.runs = compared.runs;
  result.problems.insert(result.problems.end(), compared.disagreements.begin(),
                         compared.disagreements.end());
  if (settings.invalid)
    check_invalid(package, game, settings, *validators, first_rejection, shown, result);
  result.bounds = data_bounds(game, groups_of(package));
  for (const std::string& warning : bounds_warnings(result.bounds))
    result.warnings.push_back(warning);
  if (!result.problems.empty())
    result.outcome = Outcome::failed;
  return result;
}

Outcome check_packages(
    const std::vector<std::string>& paths, std::optional<io::Layout> layout, std::string_view game,
    const PackageCheckSettings& settings,
    const std::function<void(const std::string& path, const PackageCheckResult&)>& on_package) {
  Outcome outcome = Outcome::done;
  std::size_t packages = 0;
  for (const std::string& path : paths) {
    std::error_code error;
    if (!fs::is_directory(path, error))
      continue;
    std::optional<io::ProblemPackage> package;
    try {
      package = io::recognise_package(path, layout);
    } catch (const std::exception& failure) {
      spdlog::error("{}", failure.what());
      return Outcome::usage_error;
    }
    if (!package || package->recognised_by.empty())
      continue;
    ++packages;
    const PackageCheckResult result = check_package(*package, game, settings, path);
    if (result.outcome == Outcome::usage_error)
      return Outcome::usage_error;
    on_package(path, result);
    outcome = graver(outcome, result.outcome);
  }
  if (settings.invalid && packages == 0) {
    spdlog::error("--invalid checks the validators of a problem package; no path is one");
    return Outcome::usage_error;
  }
  return outcome;
}

std::vector<std::string> PackageCheckResult::summary_lines() const {
  std::string line = "validators: ";
  if (validators.empty()) {
    line += "the package has none";
  } else {
    line += plural(validators.size(), "validator", "validators") + " (";
    for (std::size_t k = 0; k < validators.size(); ++k)
      line += (k == 0 ? "" : ", ") + validators[k];
    line += ") on " + plural(tests, "test", "tests");
  }
  if (invalid_files != 0 || mutants != 0)
    line += std::string(validators.empty() ? "; " : ", ") +
            plural(invalid_files, "invalid input", "invalid inputs") + " and " +
            plural(mutants, "mutant", "mutants");
  if (!validators.empty() || invalid_files != 0 || mutants != 0)
    line +=
        ": " + plural(runs, "run", "runs") + ", " + plural(problems.size(), "problem", "problems");
  if (!mutants_folder.empty())
    line += "; mutants in " + mutants_folder;
  return {line};
}

nlohmann::json validate_report(
    std::string_view game, std::size_t files, std::size_t invalid,
    const std::vector<std::pair<std::string, PackageCheckResult>>& packages) {
  nlohmann::json listed = nlohmann::json::array();
  for (const auto& [path, result] : packages)
    listed.push_back({{"path", path}, {"package_checks", result.json()}});
  return {{"schema", "gamebatch-validate/1"},
          {"gamebatch_version", kVersion},
          {"game", game},
          {"files", files},
          {"invalid", invalid},
          {"packages", listed}};
}

nlohmann::json PackageCheckResult::json() const {
  return {{"validators", validators},
          {"tests", tests},
          {"runs", runs},
          {"invalid_inputs", invalid_files},
          {"mutants", mutants},
          {"mutants_folder", mutants_folder},
          {"problems", problems},
          {"warnings", warnings},
          {"bounds", bounds_json(bounds)}};
}

}  // namespace gamebatch::pipeline
