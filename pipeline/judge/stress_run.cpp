// The stress run: waves of trials, each wave run `jobs` at a time (run_at_once), the waves one
// after another. Within a wave every trial runs; the first failure in
// trial order is taken, so the result does not depend on `jobs` (nor on how fast runs finish).
// A stop request ends it after the wave in progress, whose trials from the first one left
// unjudged on are dropped: what it reports was judged in order, as without the stop.
#include "pipeline/judge/stress_run.hpp"

#include <algorithm>
#include <chrono>
#include <functional>

#include <spdlog/spdlog.h>

namespace gamebatch::pipeline {
namespace {

constexpr std::size_t kKeptOutput = 64 << 10;
// Shrinking ends long before this on any sensible case; it only bounds a misbehaving shrinker.
constexpr std::size_t kMaxShrinkSteps = 100'000;

struct Trial {
  FailingCase run;
  bool judged = false;  // false: a stop request came first (run_at_once never ran it, or it threw)
  bool failed = false;
  bool rerun_alone = false;  // a TLE that may come from sharing the machine
};

// Case::solve's answers of every case of `input`.
std::vector<std::string> exact_answers(const io::Problem& problem, const std::string& input) {
  std::vector<std::string> answers;
  for (const std::unique_ptr<io::Case>& a_case : problem.parse(input))
    answers.push_back(a_case->solve());
  return answers;
}

Trial run_trial(const StressOptions& options, std::string input) {
  Trial trial;
  trial.run.expected = exact_answers(*options.problem, input);
  if (options.in_process) {
    trial.run.output = options.in_process(input);
    trial.run.verdict = compare_answers(*options.problem, trial.run.expected, trial.run.output);
    trial.failed = trial.run.verdict.verdict != Verdict::accepted;
    trial.run.input = std::move(input);
    trial.judged = true;
    return trial;
  }
  JudgedRun run = run_and_judge(*options.problem, options.solution, io::StdinText{input},
                                trial.run.expected, options.limits, options.sandbox);
  trial.failed = run.verdict.verdict != Verdict::accepted;
  trial.rerun_alone = needs_rerun_alone(run.verdict, run.result, options.limits);
  trial.run.verdict = std::move(run.verdict);
  trial.run.output = std::move(run.result.output);
  if (trial.run.output.size() > kKeptOutput)
    trial.run.output.resize(kKeptOutput);
  trial.run.input = std::move(input);
  trial.judged = true;
  return trial;
}

// Runs make_trial(0) .. make_trial(count - 1), `jobs` at a time; results in index order, cut
// before the first trial a stop request left unjudged.
std::vector<Trial> run_wave(std::size_t count, std::size_t jobs,
                            const std::function<Trial(std::size_t)>& make_trial) {
  std::vector<Trial> trials(count);
  run_at_once(count, jobs, [&](std::size_t k) { trials[k] = make_trial(k); });
  const auto unjudged =
      std::find_if(trials.begin(), trials.end(), [](const Trial& trial) { return !trial.judged; });
  trials.erase(unjudged, trials.end());
  return trials;
}

// The first trial of the wave that fails (with `wanted` as its verdict, when given), a TLE that
// may come from sharing the machine confirmed by a run alone first; nullopt when none does.
std::optional<std::size_t> first_failure(const StressOptions& options, std::vector<Trial>& trials,
                                         std::optional<Verdict> wanted) {
  for (std::size_t k = 0; k < trials.size(); ++k) {
    Trial& trial = trials[k];
    if (!trial.failed || (wanted && trial.run.verdict.verdict != *wanted))
      continue;
    if (trial.rerun_alone) {
      try {
        trial = run_trial(options, std::move(trial.run.input));
      } catch (const StopRequested&) {
        return std::nullopt;  // not confirmed: no failure found so far
      }
      trial.run.verdict.rerun_alone = true;
      if (!trial.failed || (wanted && trial.run.verdict.verdict != *wanted))
        continue;
    }
    return k;
  }
  return std::nullopt;
}

bool within_official_limits(const io::Problem& problem, const std::string& input) {
  return problem.check_official_limits(input).count == 0;
}

// Whether `input` meets the group's limits (none: true). The statement's are not asked here.
bool within_group_limits(const StressOptions& options, const std::string& input) {
  if (options.group_limits.empty())
    return true;
  io::OfficialLimitCheck check(options.group_limits);
  options.problem->check_limits(input, check);
  return check.narrower_count() == 0;
}

// Shrinks `failing` in place; returns the steps taken and the candidates run.
std::pair<std::size_t, std::size_t> shrink(const StressOptions& options, FailingCase& failing) {
  const io::Problem& problem = *options.problem;
  const Verdict verdict = failing.verdict.verdict;
  const bool official = within_official_limits(problem, failing.input);
  const std::size_t jobs = std::max<std::size_t>(options.jobs, 1);
  std::size_t steps = 0;
  std::size_t candidates_run = 0;
  while (steps < kMaxShrinkSteps && !stop_requested()) {
    const std::vector<std::unique_ptr<io::Case>> cases = problem.parse(failing.input);
    std::vector<std::string> candidates;
    for (const std::string& canonical : problem.shrink_candidates(cases.front()->canonical())) {
      std::string input = problem.file_of_cases({canonical});
      if ((!official || within_official_limits(problem, input)) &&
          within_group_limits(options, input))
        candidates.push_back(std::move(input));
    }
    std::optional<FailingCase> smaller;
    for (std::size_t first = 0; first < candidates.size() && !smaller && !stop_requested();
         first += jobs) {
      const std::size_t wave = std::min(jobs, candidates.size() - first);
      std::vector<Trial> trials = run_wave(
          wave, jobs, [&](std::size_t k) { return run_trial(options, candidates[first + k]); });
      candidates_run += wave;
      if (const std::optional<std::size_t> k = first_failure(options, trials, verdict))
        smaller = std::move(trials[*k].run);
    }
    if (!smaller)
      break;
    failing = std::move(*smaller);
    ++steps;
  }
  return {steps, candidates_run};
}

}  // namespace

StressResult run_stress(const StressOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  StressResult result;
  // A wave is a few runs per job: enough to keep every job busy, few enough that little is run
  // past the first failure.
  const auto wave_size = static_cast<std::int64_t>(4 * std::max<std::size_t>(options.jobs, 1));
  for (std::int64_t first = 1; first <= options.count && !result.first_failure && !stop_requested();
       first += wave_size) {
    const auto wave = static_cast<std::size_t>(std::min(wave_size, options.count - first + 1));
    std::vector<Trial> trials = run_wave(wave, options.jobs, [&](std::size_t k) {
      const auto case_number = static_cast<std::uint64_t>(first) + k;
      std::string input = io::generate_file_text(options.game, options.seed, case_number, 1);
      if (!within_group_limits(options, input)) {  // no case of the group: passed over
        Trial skipped;
        skipped.judged = true;
        return skipped;
      }
      return run_trial(options, std::move(input));
    });
    if (const std::optional<std::size_t> k = first_failure(options, trials, std::nullopt)) {
      result.failing_case_number = first + static_cast<std::int64_t>(*k);
      result.cases_run = *result.failing_case_number;
      result.first_failure = trials[*k].run;
    } else if (!stop_requested()) {
      result.cases_run = first + static_cast<std::int64_t>(wave) - 1;
    } else {  // the judged part of the wave passed, up to its first unconfirmed TLE if any
      std::size_t passed = 0;
      while (passed < trials.size() && !trials[passed].failed)
        ++passed;
      result.cases_run = first - 1 + static_cast<std::int64_t>(passed);
    }
  }
  if (result.first_failure) {
    spdlog::info("case {} fails ({}); shrinking it", *result.failing_case_number,
                 short_name(result.first_failure->verdict.verdict));
    result.shrunk = *result.first_failure;
    std::tie(result.shrink_steps, result.shrink_candidates_run) = shrink(options, *result.shrunk);
  }
  result.interrupted = stop_requested();
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace gamebatch::pipeline
