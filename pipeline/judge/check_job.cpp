#include "pipeline/judge/check_job.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <utility>

#include <spdlog/spdlog.h>

#include "core/stop_request.hpp"
#include "io/files/input_set.hpp"
#include "io/problem.hpp"
#include "pipeline/judge/judge_pages.hpp"
#include "pipeline/machine.hpp"
#include "pipeline/report/output_files.hpp"
#include "pipeline/version.hpp"

namespace gamebatch::pipeline {
namespace {

// Failed runs listed under check's table per solution; the report has them all.
constexpr std::size_t kDetailsPerSolution = 5;

}  // namespace

CheckJob::CheckJob(CheckJobSettings settings) : settings_(std::move(settings)) {}

CheckJob::~CheckJob() {
  if (cache_ != nullptr && settings_.keep_cache_open)
    cache_->finish();  // what strength solved through it
}

Outcome CheckJob::prepare() {
  resources_.emplace(settings_.judge.jobs, std::nullopt);  // the expected answers are solved here
  options_.problem = io::find_problem(settings_.problem);
  options_.limits = judge_limits(settings_.judge);
  options_.jobs = resources_->threads();
  options_.all_runs = settings_.all_runs;
  if (!load_languages(settings_.judge, languages_))
    return Outcome::usage_error;
  if (const Outcome found = find_package_and_inputs(); found != Outcome::done)
    return found;
  if (!find_solutions())
    return Outcome::usage_error;
  choose_limits();
  if (!make_sandbox(settings_.judge, sandbox_))
    return Outcome::usage_error;
  options_.sandbox = sandbox_.get();
  if (!settings_.html_file.empty() && !html_page_writable(settings_.html_file))
    return Outcome::usage_error;
  if (const Outcome compiled = compile_solutions(); compiled != Outcome::done)
    return compiled;
  for (SolutionToBuild& solution : solutions_)
    options_.solutions.push_back(std::move(solution.solution));
  if (!open_cache(settings_.cache_file, settings_.no_cache, *options_.problem, cache_))
    return Outcome::usage_error;
  options_.cache = cache_.get();
  return Outcome::done;
}

// A problem package among the paths gives the solutions (without --solution) and may give the
// limits; the inputs are the paths' (a package's by its layout).
Outcome CheckJob::find_package_and_inputs() {
  try {
    for (const std::string& path : settings_.paths) {
      if (!std::filesystem::is_directory(path))
        continue;
      // A layout forced on a directory without its marks makes no package of it here.
      std::optional<io::ProblemPackage> found = io::recognise_package(path, settings_.layout);
      if (!found || found->recognised_by.empty())
        continue;
      if (package_) {
        spdlog::error("check takes one problem package at a time: {} and {} are both packages",
                      package_->root.string(), found->root.string());
        return Outcome::usage_error;
      }
      package_ = std::move(found);
    }
    options_.inputs = io::collect_input_list(settings_.paths, std::nullopt, settings_.layout);
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return Outcome::usage_error;
  }
  if (package_) {
    for (const std::string& warning : package_->warnings)
      spdlog::warn("{}", warning);
    options_.groups = package_->groups;
  }
  return Outcome::done;
}

bool CheckJob::find_solutions() {
  if (settings_.solutions.empty() && (!package_ || package_->submissions.empty())) {
    if (package_)
      spdlog::error("the package {} holds no submissions: name the solutions with --solution",
                    package_->root.string());
    else
      spdlog::error(
          "no solution to check: give --solution SOURCE|CMD, or a problem package as PATH");
    return false;
  }
  solutions_ = solutions_to_build(settings_.solutions, package_ ? &*package_ : nullptr, languages_);
  return true;
}

// The time limit: --time-limit, else the package's own, else derived from its accepted
// submissions (their slowest run, under --time-limit's default as a ceiling). The memory limit:
// --memory-limit, else the package's own.
void CheckJob::choose_limits() {
  const JudgeSettings& judge = settings_.judge;
  if (judge.time_limit_given) {
    options_.time_limit_rule.source = "--time-limit";
  } else if (package_ && package_->time_limit_seconds) {
    options_.limits.time_limit_seconds = *package_->time_limit_seconds;
    options_.time_limit_rule.source = package_->time_limit_source;
  } else if (package_ && settings_.solutions.empty() &&
             std::any_of(solutions_.begin(), solutions_.end(), [](const SolutionToBuild& solution) {
               return solution.solution.expected == io::Expectation::accepted;
             })) {
    options_.time_limit_rule.derive_with_multiplier = package_->time_multiplier;
  } else {
    options_.time_limit_rule.source = "--time-limit (default)";
  }
  if (!judge.memory_limit_given && package_ && package_->memory_limit_mb) {
    options_.limits.memory_limit_bytes =
        static_cast<std::uint64_t>(*package_->memory_limit_mb * (1 << 20));
    memory_limit_source_ = package_->memory_limit_source;
  }
}

// The sources among the solutions, compiled once (or taken from the store beside the cache).
Outcome CheckJob::compile_solutions() {
  if (std::none_of(solutions_.begin(), solutions_.end(),
                   [](const SolutionToBuild& solution) { return solution.source.has_value(); }))
    return Outcome::done;
  try {
    store_.emplace(settings_.cache_file, settings_.no_cache);
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return Outcome::usage_error;
  }
  if (!build_solutions(solutions_, languages_, store_->path(), sandbox_.get(),
                       resources_->threads(), compile_report_))
    return Outcome::usage_error;
  if (stop_requested()) {
    std::fprintf(stderr, "check: interrupted while compiling the solutions\n");
    return Outcome::failed;  // the command line makes it 128 + the signal
  }
  if (store_->temporary())
    compile_report_["store"] = nullptr;
  return Outcome::done;
}

void CheckJob::run() {
  result_ = run_check(options_);
  if (cache_ != nullptr && !settings_.keep_cache_open) {
    cache_->finish();
    cache_.reset();
  }
}

std::string CheckJob::verdict_table() const {
  return pipeline::verdict_table(result_, options_.inputs, kDetailsPerSolution);
}

nlohmann::json CheckJob::report_header() const {
  nlohmann::json header = {
      {"gamebatch_version", kVersion},
      {"problem", settings_.problem},
      {"limits", limits_json(settings_.judge)},
      {"sandbox", sandbox_json(settings_.judge, sandbox_.get())},
  };
  header["limits"]["time_limit_seconds"] = result_.time_limit_seconds;
  header["limits"]["time_limit_source"] = result_.time_limit_source;
  if (options_.limits.memory_limit_bytes != 0) {
    header["limits"]["memory_limit_mb"] =
        static_cast<double>(options_.limits.memory_limit_bytes) / (1 << 20);
    header["limits"]["memory_limit_source"] = memory_limit_source_;
  }
  if (package_) {
    header["package"] = {{"path", package_->root.string()},
                         {"layout", io::layout_name(package_->layout)},
                         {"recognised_by", package_->recognised_by}};
  }
  if (!compile_report_.is_null())
    header["compile"] = compile_report_;
  const CommandTime time = clock_.elapsed();
  header["time"] = {{"seconds", time.seconds}, {"compiling_seconds", time.compiling_seconds}};
  return header;
}

Outcome CheckJob::write_outputs() {
  Outcome outcome = all_expectations_met(result_) ? Outcome::done : Outcome::failed;
  const nlohmann::json header = report_header();
  if (!settings_.report_file.empty()) {
    try {
      write_check_report(settings_.report_file, header, result_, options_.inputs);
    } catch (const std::exception& error) {
      spdlog::error("cannot write the report {}: {}", settings_.report_file, error.what());
      outcome = graver(outcome, Outcome::failed);
    }
  }
  if (!settings_.html_file.empty() &&
      !write_html_page(settings_.html_file, check_page(header, options_, result_)))
    outcome = graver(outcome, Outcome::failed);
  return outcome;
}

std::string CheckJob::summary_line() const {
  return check_summary_line(result_, options_.inputs.size(), time_text(clock_.elapsed()));
}

}  // namespace gamebatch::pipeline
