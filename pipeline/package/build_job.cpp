#include "pipeline/package/build_job.hpp"

#include <utility>

#include <spdlog/spdlog.h>

#include "io/problem.hpp"
#include "pipeline/machine.hpp"
#include "pipeline/package/package_pages.hpp"
#include "pipeline/report/output_files.hpp"
#include "pipeline/version.hpp"

namespace gamebatch::pipeline {

BuildJob::BuildJob(BuildJobSettings settings) : settings_(std::move(settings)) {}

BuildJob::~BuildJob() = default;

Outcome BuildJob::prepare() {
  resources_.emplace(settings_.judge.jobs, std::nullopt);
  root_ = std::filesystem::absolute(settings_.package).lexically_normal();
  try {
    options_.plan = io::read_package_plan(root_ / io::kPlanFileName);
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return Outcome::usage_error;
  }
  options_.problem = io::find_problem(options_.plan.game);
  options_.root = root_;
  options_.layout = settings_.layout.value_or(options_.plan.layout);
  options_.jobs = resources_->threads();
  if (const Outcome read = read_problem_yaml(); read != Outcome::done)
    return read;
  if (const Outcome made = make_entry_makers(); made != Outcome::done)
    return made;
  if (!settings_.html_file.empty() && !html_page_writable(settings_.html_file))
    return Outcome::usage_error;
  if (!open_cache(settings_.cache_file, settings_.no_cache, *options_.problem, cache_))
    return Outcome::usage_error;
  options_.cache = cache_.get();
  return Outcome::done;
}

// A Kattis package's problem.yaml: its format version picks the group files, and what in it
// contradicts that layout stops the build before anything is made.
Outcome BuildJob::read_problem_yaml() {
  if (options_.layout != io::Layout::kattis)
    return Outcome::done;
  try {
    options_.metadata = io::read_kattis_metadata(root_);
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return Outcome::usage_error;
  }
  const std::vector<std::string> conflicts =
      problem_yaml_conflicts(options_.metadata, options_.plan);
  for (const std::string& conflict : conflicts)
    spdlog::error("{}", conflict);
  return conflicts.empty() ? Outcome::done : Outcome::usage_error;
}

// Generator programs: sources compiled once (as check's solutions), run in the sandbox.
Outcome BuildJob::make_entry_makers() {
  io::LanguageTable languages;
  if (!load_languages(settings_.judge, languages))
    return Outcome::usage_error;
  if (plan_runs_programs(options_.plan) && !make_sandbox(settings_.judge, sandbox_))
    return Outcome::usage_error;
  programs_.emplace(judge_limits(settings_.judge), std::move(languages), sandbox_.get(),
                    settings_.cache_file, settings_.no_cache);
  try {
    options_.makers = pipeline::make_entry_makers(options_.plan, root_, *programs_);
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return Outcome::usage_error;
  }
  return Outcome::done;
}

Outcome BuildJob::run() {
  Outcome outcome = Outcome::done;
  try {
    result_ = build_package(options_);
    built_ = true;
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    outcome = Outcome::failed;
  }
  if (cache_ != nullptr) {
    cache_->finish();
    cache_.reset();
  }
  // An interrupted build fails, which the command line makes 128 + the signal.
  if (!result_.failures.empty() || result_.interrupted)
    outcome = graver(outcome, Outcome::failed);
  if (built_ && !result_.interrupted)
    outcome = graver(outcome, check_built_package());
  return outcome;
}

// Every validator of the package on every test as built, and the bounds of the groups.
Outcome BuildJob::check_built_package() {
  std::optional<io::ProblemPackage> package;
  try {
    package = io::recognise_package(root_, options_.layout);
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return Outcome::failed;
  }
  if (!package)
    return Outcome::done;
  PackageCheckSettings settings;
  settings.judge = settings_.judge;
  settings.cache_file = settings_.cache_file;
  settings.no_cache = settings_.no_cache;
  checks_ = check_package(*package, options_.plan.game, settings, settings_.package);
  return checks_->outcome;
}

nlohmann::ordered_json BuildJob::report() const {
  nlohmann::ordered_json report = {{"schema", "gamebatch-build/1"},
                                   {"gamebatch_version", kVersion},
                                   {"package", root_.string()},
                                   {"game", options_.plan.game},
                                   {"layout", io::layout_name(options_.layout)}};
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  for (const GroupSummary& group : result_.groups) {
    nlohmann::ordered_json largest = nlohmann::ordered_json::object();
    for (const auto& [parameter, value] : group.largest) {
      if (value >= 0)
        largest[parameter] = value;
    }
    groups.push_back({{"name", group.name},
                      {"tests", group.tests},
                      {"score", group.score},
                      {"largest", largest}});
  }
  report["groups"] = groups;
  report["tests"] = result_.tests;
  report["made"] = result_.made;
  report["unchanged"] = result_.unchanged;
  report["files_written"] = result_.written;
  report["files_removed"] = result_.removed;
  report["failures"] = result_.failures;
  report["warnings"] = result_.warnings;
  report["interrupted"] = result_.interrupted;
  report["seconds"] = result_.seconds;
  const CommandTime time = clock_.elapsed();
  report["time"] = {{"seconds", time.seconds}, {"compiling_seconds", time.compiling_seconds}};
  if (checks_)
    report["package_checks"] = checks_->json();
  return report;
}

Outcome BuildJob::write_outputs() const {
  Outcome outcome = Outcome::done;
  const nlohmann::ordered_json built = report();
  if (!settings_.report_file.empty() &&
      !write_report_file(settings_.report_file, built.dump(2) + "\n"))
    outcome = Outcome::failed;
  if (!settings_.html_file.empty() &&
      !write_html_page(settings_.html_file, build_page(nlohmann::json::parse(built.dump()))))
    outcome = Outcome::failed;
  return outcome;
}

std::string BuildJob::summary_line() const {
  return build_summary_line(result_, time_text(clock_.elapsed()));
}

}  // namespace gamebatch::pipeline
