#include "pipeline/judge/stress_job.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>

#include "core/stop_request.hpp"
#include "io/files/atomic_file.hpp"
#include "io/files/package_plan.hpp"
#include "io/problem.hpp"
#include "pipeline/judge/judge_pages.hpp"
#include "pipeline/machine.hpp"
#include "pipeline/report/output_files.hpp"
#include "pipeline/version.hpp"

namespace gamebatch::pipeline {

StressJob::StressJob(StressJobSettings settings) : settings_(std::move(settings)) {}

StressJob::~StressJob() = default;

Outcome StressJob::prepare() {
  resources_.emplace(settings_.judge.jobs, std::nullopt);  // the expected answers are solved here
  options_.problem = io::find_problem(settings_.problem);
  options_.game = settings_.game;
  options_.seed = settings_.seed;
  options_.count = settings_.count;
  options_.solution = settings_.solution;
  options_.limits = judge_limits(settings_.judge);
  options_.jobs = resources_->threads();
  if (!settings_.group.empty() && !narrow_to_group())
    return Outcome::usage_error;
  if (!settings_.html_file.empty() && !html_page_writable(settings_.html_file))
    return Outcome::usage_error;
  if (!make_sandbox(settings_.judge, sandbox_))
    return Outcome::usage_error;
  options_.sandbox = sandbox_.get();
  return compile_solution();
}

// The group's limits, from the package's plan: the draws are narrowed to them.
bool StressJob::narrow_to_group() {
  io::PackagePlan plan;
  try {
    plan = io::read_package_plan(std::filesystem::path(settings_.package) / io::kPlanFileName);
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return false;
  }
  if (plan.game != settings_.problem) {
    spdlog::error("{} is a package of {}, not of {}", settings_.package, plan.game,
                  settings_.problem);
    return false;
  }
  const auto group =
      std::find_if(plan.groups.begin(), plan.groups.end(),
                   [&](const io::PlanGroup& g) { return g.name == settings_.group; });
  if (group == plan.groups.end()) {
    std::string names;
    for (const io::PlanGroup& g : plan.groups)
      names += (names.empty() ? "" : ", ") + g.name;
    spdlog::error("--group {}: the plan of {} has no such group (its groups: {})", settings_.group,
                  settings_.package, names);
    return false;
  }
  options_.group_limits =
      io::test_limits(plan, static_cast<std::size_t>(group - plan.groups.begin()));
  if (const std::string problem = io::narrow_to_limits(options_.game, options_.group_limits);
      !problem.empty()) {
    spdlog::error("--group {}: {}", settings_.group, problem);
    return false;
  }
  return true;
}

// A source is compiled (or taken from the store beside the default answer cache) first.
Outcome StressJob::compile_solution() {
  io::LanguageTable languages;
  if (!load_languages(settings_.judge, languages))
    return Outcome::usage_error;
  std::vector<SolutionToBuild> solution =
      solutions_to_build({settings_.solution}, nullptr, languages);
  if (!solution.front().source)
    return Outcome::done;
  nlohmann::json compile_report;
  try {
    store_.emplace(std::string(), false);
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return Outcome::usage_error;
  }
  if (!build_solutions(solution, languages, store_->path(), sandbox_.get(), 1, compile_report))
    return Outcome::usage_error;
  if (stop_requested()) {
    std::fprintf(stderr, "stress: interrupted while compiling the solution\n");
    return Outcome::failed;  // the command line makes it 128 + the signal
  }
  if (solution.front().solution.compile_error) {
    compile_error_ = solution.front().solution.compile_error;
    return Outcome::failed;
  }
  options_.solution = solution.front().solution.command;
  return Outcome::done;
}

const StressResult& StressJob::run() {
  result_ = run_stress(options_);
  return result_;
}

bool StressJob::write_page() const {
  const nlohmann::json header = {{"gamebatch_version", kVersion},
                                 {"problem", settings_.problem},
                                 {"solution", settings_.solution},
                                 {"seed", std::to_string(settings_.seed)},
                                 {"count", settings_.count},
                                 {"out", settings_.out_dir},
                                 {"limits", limits_json(settings_.judge)},
                                 {"sandbox", sandbox_json(settings_.judge, sandbox_.get())},
                                 {"game_options", settings_.game_options}};
  return write_html_page(settings_.html_file, stress_page(header, options_, result_));
}

std::string StressJob::counterexample_answers() const {
  std::string answers;
  if (!result_.shrunk)
    return answers;
  const std::vector<std::string>& expected = result_.shrunk->expected;
  for (std::size_t k = 0; k < expected.size(); ++k)
    answers += options_.problem->answer_line(k + 1, expected[k]);
  return answers;
}

std::filesystem::path StressJob::input_path() const {
  return std::filesystem::path(settings_.out_dir) / "counterexample.in";
}

std::filesystem::path StressJob::answer_path() const {
  return std::filesystem::path(settings_.out_dir) / "counterexample.ans";
}

bool StressJob::write_counterexample() const {
  try {
    io::write_file_atomically(input_path(), result_.shrunk->input);
    io::write_file_atomically(answer_path(), counterexample_answers());
  } catch (const std::exception& error) {
    spdlog::error("cannot write the counterexample: {}", error.what());
    return false;
  }
  return true;
}

}  // namespace gamebatch::pipeline
