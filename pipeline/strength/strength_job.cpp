#include "pipeline/strength/strength_job.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include <spdlog/spdlog.h>

#include "core/stop_request.hpp"
#include "io/files/input_set.hpp"
#include "io/files/package_plan.hpp"
#include "pipeline/judge/check_job.hpp"
#include "pipeline/package/build_job.hpp"
#include "pipeline/report/output_files.hpp"
#include "pipeline/strength/strength_report.hpp"
#include "pipeline/version.hpp"

namespace gamebatch::pipeline {
namespace {

namespace fs = std::filesystem;

fs::path normal(const fs::path& path) {
  std::error_code error;
  const fs::path absolute = fs::absolute(path, error);
  return (error ? path : absolute).lexically_normal();
}

void phase(const std::string& text) {
  std::fprintf(stderr, "strength: %s\n", text.c_str());
}

// A mutant's source line before and after its edit.
std::string diff_of(const MutantSchemaBuild& build, const io::SourceMutant& mutant) {
  const std::string edited = io::single_mutant_source(build.text, mutant);
  const auto line_of = [](const std::string& text, std::size_t number) {
    std::size_t start = 0;
    for (std::size_t k = 1; k < number && start != std::string::npos; ++k) {
      start = text.find('\n', start);
      start = start == std::string::npos ? start : start + 1;
    }
    if (start == std::string::npos)
      return std::string();
    return text.substr(start, text.find('\n', start) - start);
  };
  return build.submission + ":" + std::to_string(mutant.line) + "\n- " +
         line_of(build.text, mutant.line) + "\n+ " + line_of(edited, mutant.line) + "\n";
}

}  // namespace

struct StrengthJob::State {
  std::unique_ptr<CheckJob> check;
  const io::Problem* problem = nullptr;
  std::optional<io::PackagePlan> plan;
  std::optional<CompiledStore> own_store;
  StrengthResult result;
  std::vector<TestCases> cases;
  nlohmann::json header;
  std::chrono::steady_clock::time_point phase_started = std::chrono::steady_clock::now();

  // Ends the phase that ran since the last (called `name`) in result.phases.
  void end_phase(const char* name);
  // The check's inputs and groups as strength's tests and groups.
  void take_tests_and_groups();
  void take_submissions();
  double accepted_seconds(std::size_t solution, std::size_t test) const;
  void build_schemas(const StrengthJobSettings& settings);
  void judge_mutants(const StrengthJobSettings& settings, const std::vector<std::size_t>& which,
                     const std::map<fs::path, std::size_t>& old_tests,
                     const std::vector<CandidateOutcome>& old);
  void keep_verdicts(CandidateVerdicts& verdicts, const CandidateVerdicts& earlier,
                     const std::map<fs::path, std::size_t>& old_tests) const;
  void judge_ideas_on_tests();
  void settle(const StrengthJobSettings& settings, const std::vector<CandidateOutcome>& previous);
  std::vector<FillTest> tests_to_fill() const;
  CoverProblem cover_problem() const;
  void analyse(const StrengthJobSettings& settings);
  Outcome fill(const StrengthJobSettings& settings);
  Outcome select(const StrengthJobSettings& settings);
};

void StrengthJob::State::take_tests_and_groups() {
  const CheckOptions& options = check->options();
  result.tests = options.inputs;
  result.time_limit_seconds = check->result().time_limit_seconds;
  result.time_limit_source = check->result().time_limit_source;
  std::map<fs::path, std::size_t> index;
  for (std::size_t t = 0; t < result.tests.size(); ++t)
    index[normal(result.tests[t].input)] = t;
  result.groups.clear();
  for (const io::TestGroup& group : options.groups) {
    StrengthGroup g{group.name, {}, group.limits, group.name == "sample"};
    for (const fs::path& test : group.tests) {
      if (const auto found = index.find(normal(test)); found != index.end())
        g.tests.push_back(found->second);
    }
    std::sort(g.tests.begin(), g.tests.end());
    result.groups.push_back(std::move(g));
  }
  if (result.groups.empty()) {  // a package without groups: its tests as one
    StrengthGroup all{"all", {}, {}, false};
    for (std::size_t t = 0; t < result.tests.size(); ++t)
      all.tests.push_back(t);
    result.groups.push_back(std::move(all));
  }
  const auto& expected = check->result().expected;
  cases.assign(result.tests.size(), {});
  for (std::size_t t = 0; t < result.tests.size(); ++t) {
    if (t >= expected.size() || !expected[t])
      continue;
    for (const auto& a_case : problem->parse(io::read_file(result.tests[t].input)))
      cases[t].canonical.push_back(a_case->canonical());
    cases[t].answers = *expected[t];
  }
  result.accepted_seconds.assign(result.tests.size(), 0);
  for (std::size_t s = 0; s < options.solutions.size(); ++s) {
    if (options.solutions[s].expected != io::Expectation::accepted)
      continue;
    for (std::size_t t = 0; t < result.tests.size(); ++t)
      result.accepted_seconds[t] = std::max(result.accepted_seconds[t], accepted_seconds(s, t));
  }
}

double StrengthJob::State::accepted_seconds(std::size_t solution, std::size_t test) const {
  const std::optional<RunVerdict>& verdict = check->result().solutions[solution].files[test];
  return verdict ? verdict->seconds : 0;
}

// The package's submissions that must fail somewhere, as check judged them.
void StrengthJob::State::take_submissions() {
  const CheckResult& checked = check->result();
  for (std::size_t s = 0; s < checked.solutions.size(); ++s) {
    const SolutionVerdicts& solution = checked.solutions[s];
    if (solution.expected == io::Expectation::accepted || solution.compile_error)
      continue;
    CandidateOutcome outcome;
    outcome.candidate.kind = CandidateKind::submission;
    outcome.candidate.name = solution.name;
    outcome.candidate.command = solution.command;
    outcome.candidate.index = s;
    outcome.verdicts.tests.resize(result.tests.size());
    outcome.verdicts.seconds.assign(result.tests.size(), 0);
    for (std::size_t t = 0; t < result.tests.size(); ++t) {
      if (const std::optional<RunVerdict>& verdict = solution.files[t]) {
        outcome.verdicts.tests[t] = verdict->verdict;
        outcome.verdicts.seconds[t] = verdict->seconds;
        if (verdict->verdict != Verdict::accepted && outcome.verdicts.first_kill.empty())
          outcome.verdicts.first_kill = describe(*verdict);
      }
    }
    outcome.verdicts.not_run = solution.skipped_runs;
    // Caught: it gets what its package says it must (fails where it must fail).
    outcome.status = solution.meets ? CandidateStatus::caught : CandidateStatus::unjudged;
    result.candidates.push_back(std::move(outcome));
  }
}

// The accepted C++ submissions' schemas, compiled, each run as it is on every test: it must be
// accepted everywhere; its time against its source's sets the limit its mutants run under.
void StrengthJob::State::build_schemas(const StrengthJobSettings& settings) {
  const io::ProblemPackage* package = check->package();
  std::vector<io::PackageSubmission> accepted;
  for (const io::PackageSubmission& submission : package->submissions) {
    if (submission.expected == io::Expectation::accepted)
      accepted.push_back(submission);
  }
  const CheckOptions& options = check->options();
  const CompiledStore* store = check->store();
  if (store == nullptr) {
    own_store.emplace(settings.cache_file, settings.no_cache);
    store = &*own_store;
  }
  phase("making the mutants of " + std::to_string(accepted.size()) + " accepted submissions");
  result.schemas = build_mutant_schemas(accepted, check->languages(), store->path(),
                                        options.sandbox, options.jobs);
  if (settings.max_mutants != 0) {
    for (MutantSchemaBuild& build : result.schemas) {
      std::vector<io::SourceMutant>& mutants = build.schema.mutants;
      if (mutants.size() <= settings.max_mutants)
        continue;
      // Every k-th, spread over the source (the ids stay the schema's).
      std::vector<io::SourceMutant> kept;
      for (std::size_t i = 0; i < settings.max_mutants; ++i)
        kept.push_back(mutants[i * mutants.size() / settings.max_mutants]);
      build.schema.left_out.push_back(std::to_string(mutants.size() - kept.size()) +
                                      " mutants beyond --mutants " +
                                      std::to_string(settings.max_mutants));
      mutants = std::move(kept);
    }
  }
  result.schema_time_factors.assign(result.schemas.size(), 1.0);
  const ExpectedAnswers& expected = check->result().expected;
  const MatrixTests tests{problem, &result.tests, &expected, {}};
  for (std::size_t k = 0; k < result.schemas.size(); ++k) {
    MutantSchemaBuild& build = result.schemas[k];
    result.compile_seconds += build.parse_seconds + build.compile_seconds;
    if (!build.error.empty())
      continue;
    MatrixSettings baseline;
    baseline.limits = options.limits;
    baseline.limits.time_limit_seconds = result.time_limit_seconds * 3;
    baseline.sandbox = options.sandbox;
    baseline.jobs = options.jobs;
    baseline.all_runs = true;
    const CandidateVerdicts runs = judge_programs({build.command}, tests, baseline).front();
    const auto source =
        std::find_if(options.solutions.begin(), options.solutions.end(),
                     [&](const CheckSolution& s) { return s.name == build.submission; });
    double factor = 1;
    for (std::size_t t = 0; t < result.tests.size(); ++t) {
      if (!expected[t])
        continue;
      if (runs.tests[t] && *runs.tests[t] != Verdict::accepted &&
          *runs.tests[t] != Verdict::time_limit) {
        build.error = "its mutant schema does not answer as it does (" + runs.first_kill + ")";
        break;
      }
      const double own =
          source == options.solutions.end()
              ? 0
              : accepted_seconds(static_cast<std::size_t>(source - options.solutions.begin()), t);
      if (own >= 0.05)
        factor = std::max(factor, runs.seconds[t] / own);
    }
    result.schema_time_factors[k] = factor;
    if (!build.error.empty()) {
      spdlog::warn("{}: {}; its mutants are skipped", build.submission, build.error);
      build.schema.mutants.clear();
    }
  }
  std::size_t mutants = 0;
  for (const MutantSchemaBuild& build : result.schemas)
    mutants += build.schema.mutants.size();
  char cost[32];
  std::snprintf(cost, sizeof cost, "%.1f s", result.compile_seconds);
  phase(std::to_string(mutants) + " mutants in " + std::to_string(result.schemas.size()) +
        " schemas (" + cost + " to parse and compile)");
}

// The mutants on the tests `which` (all when empty), the cheapest first; verdicts of an earlier
// pass on the tests it had (`old_tests`: their paths, `old`: its outcomes) are kept, and a mutant
// those kill is not run again unless --select asks for a kill in every group.
void StrengthJob::State::judge_mutants(const StrengthJobSettings& settings,
                                       const std::vector<std::size_t>& which,
                                       const std::map<fs::path, std::size_t>& old_tests,
                                       const std::vector<CandidateOutcome>& old) {
  const CheckOptions& options = check->options();
  MatrixTests tests{problem, &result.tests, &check->result().expected, {}};
  if (settings.select) {
    for (const StrengthGroup& group : result.groups)
      tests.groups.push_back(group.tests);
  }
  std::vector<std::size_t> order = which;
  if (order.empty()) {
    for (std::size_t t = 0; t < result.tests.size(); ++t)
      order.push_back(t);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return result.accepted_seconds[a] < result.accepted_seconds[b];
  });
  std::map<std::string, const CandidateOutcome*> before;
  for (const CandidateOutcome& outcome : old)
    before[outcome.candidate.name] = &outcome;
  const std::vector<Candidate> mutants = mutant_candidates(result.schemas);
  std::size_t running = 0;
  for (const Candidate& candidate : mutants) {
    const auto found = before.find(candidate.name);
    running +=
        found == before.end() || settings.select || !found->second->verdicts.killed() ? 1 : 0;
  }
  if (running != 0)
    phase("judging " + std::to_string(running) + " mutants on " + std::to_string(order.size()) +
          " tests");
  for (std::size_t k = 0; k < result.schemas.size(); ++k) {
    std::vector<const Candidate*> of_schema, to_run;
    std::vector<std::string> commands;
    for (const Candidate& candidate : mutants) {
      if (candidate.schema != k)
        continue;
      of_schema.push_back(&candidate);
      const auto found = before.find(candidate.name);
      if (found == before.end() || settings.select || !found->second->verdicts.killed()) {
        to_run.push_back(&candidate);
        commands.push_back(candidate.command);
      }
    }
    MatrixSettings matrix;
    matrix.limits = options.limits;
    matrix.limits.time_limit_seconds = result.time_limit_seconds * result.schema_time_factors[k];
    matrix.limits.stop_factor = 1;  // past the limit is a kill: no time to finish anyway
    matrix.sandbox = options.sandbox;
    matrix.jobs = options.jobs;
    matrix.all_runs = settings.all_runs;
    const std::vector<CandidateVerdicts> verdicts = judge_programs(commands, tests, matrix, order);
    for (const Candidate* candidate : of_schema) {
      CandidateOutcome outcome;
      outcome.candidate = *candidate;
      const auto ran = std::find(to_run.begin(), to_run.end(), candidate);
      if (ran != to_run.end()) {
        outcome.verdicts = verdicts[static_cast<std::size_t>(ran - to_run.begin())];
      } else {
        outcome.verdicts.tests.assign(result.tests.size(), std::nullopt);
        outcome.verdicts.seconds.assign(result.tests.size(), 0);
      }
      outcome.diff = diff_of(result.schemas[k], *candidate->mutant);
      if (const auto found = before.find(outcome.candidate.name); found != before.end())
        keep_verdicts(outcome.verdicts, found->second->verdicts, old_tests);
      result.candidates.push_back(std::move(outcome));
    }
  }
}

// The verdicts an earlier pass gave on the tests it had (matched by path).
void StrengthJob::State::keep_verdicts(CandidateVerdicts& verdicts,
                                       const CandidateVerdicts& earlier,
                                       const std::map<fs::path, std::size_t>& old_tests) const {
  for (std::size_t t = 0; t < result.tests.size(); ++t) {
    const auto was = old_tests.find(normal(result.tests[t].input));
    if (was == old_tests.end())
      continue;
    verdicts.tests[t] = earlier.tests[was->second];
    verdicts.seconds[t] = earlier.seconds[was->second];
  }
  if (!earlier.first_kill.empty())
    verdicts.first_kill = earlier.first_kill;
  verdicts.not_run += earlier.not_run;
}

void StrengthJob::State::judge_ideas_on_tests() {
  const std::vector<io::WrongIdea> ideas = problem->wrong_ideas();
  if (ideas.empty())
    return;
  phase("judging the " + std::to_string(ideas.size()) + " usual wrong ideas of " +
        std::string(problem->name()) + " in-process");
  const MatrixTests tests{problem, &result.tests, &check->result().expected, {}};
  const std::vector<CandidateVerdicts> verdicts = judge_ideas(ideas, tests);
  for (std::size_t i = 0; i < ideas.size(); ++i) {
    CandidateOutcome outcome;
    outcome.candidate.kind = CandidateKind::idea;
    outcome.candidate.name = "idea " + ideas[i].name + ": " + ideas[i].summary;
    outcome.candidate.index = i;
    outcome.verdicts = verdicts[i];
    result.candidates.push_back(std::move(outcome));
  }
}

// Each candidate's status: caught where a test kills it (a submission: where it gets what it
// must), else a gap or a survivor by the stress. `previous` holds an earlier pass's outcomes:
// its gap searches are not made again.
void StrengthJob::State::settle(const StrengthJobSettings& settings,
                                const std::vector<CandidateOutcome>& previous) {
  std::map<std::string, const CandidateOutcome*> before;
  for (const CandidateOutcome& outcome : previous)
    before[outcome.candidate.name] = &outcome;
  std::vector<std::size_t> search;
  std::vector<Candidate> candidates;
  for (std::size_t c = 0; c < result.candidates.size(); ++c) {
    CandidateOutcome& outcome = result.candidates[c];
    candidates.push_back(outcome.candidate);
    const bool caught = outcome.candidate.kind == CandidateKind::submission
                            ? outcome.status == CandidateStatus::caught
                            : outcome.verdicts.killed();
    if (caught) {
      outcome.status = CandidateStatus::caught;
      continue;
    }
    outcome.status = CandidateStatus::unjudged;
    if (outcome.verdicts.interrupted || stop_requested())
      continue;
    const auto found = before.find(outcome.candidate.name);
    if (found != before.end() && found->second->gap) {
      outcome.gap = found->second->gap;
      outcome.status = outcome.gap->found ? CandidateStatus::gap : CandidateStatus::survivor;
      continue;
    }
    search.push_back(c);
  }
  if (search.empty())
    return;
  phase("stressing the " + std::to_string(search.size()) +
        " candidates no test kills, within each group's limits");
  const CheckOptions& options = check->options();
  GapSettings gaps;
  gaps.cases = settings.stress_cases;
  gaps.seed = settings.seed;
  gaps.limits = options.limits;
  gaps.limits.time_limit_seconds = result.time_limit_seconds;
  gaps.sandbox = options.sandbox;
  gaps.jobs = options.jobs;
  const std::vector<GapSearch> found =
      search_gaps(*problem, candidates, search, result.groups, gaps);
  for (std::size_t k = 0; k < search.size(); ++k) {
    CandidateOutcome& outcome = result.candidates[search[k]];
    if (found[k].interrupted && !found[k].found)
      continue;
    outcome.gap = found[k];
    outcome.status = found[k].found ? CandidateStatus::gap : CandidateStatus::survivor;
  }
}

std::vector<FillTest> StrengthJob::State::tests_to_fill() const {
  std::vector<FillTest> tests;
  for (const CandidateOutcome& outcome : result.candidates) {
    if (outcome.status == CandidateStatus::gap && outcome.gap)
      tests.push_back(
          {outcome.gap->group, "gap", "kills " + outcome.candidate.name, outcome.gap->input, ""});
  }
  for (const CoveragePoint& point : result.coverage) {
    if (!point.reached && !point.fill.empty())
      tests.push_back(
          {point.group, std::string(kind_name(point.kind)), point.name, point.fill, ""});
  }
  return tests;
}

// The set cover: per group, one killing test of each candidate it kills, one test reaching each
// coverage point, one test at least; every sample test stays.
CoverProblem StrengthJob::State::cover_problem() const {
  CoverProblem cover;
  cover.tests = result.tests.size();
  cover.weight = result.accepted_seconds;
  for (const StrengthGroup& group : result.groups) {
    if (group.sample) {
      for (const std::size_t t : group.tests)
        cover.rows.push_back({t});
      continue;
    }
    if (!group.tests.empty())
      cover.rows.push_back(group.tests);
    for (const CandidateOutcome& outcome : result.candidates) {
      std::vector<std::size_t> killers;
      for (const std::size_t t : group.tests) {
        const std::optional<Verdict>& verdict = outcome.verdicts.tests[t];
        if (verdict && *verdict != Verdict::accepted)
          killers.push_back(t);
      }
      if (!killers.empty())
        cover.rows.push_back(std::move(killers));
    }
  }
  for (const CoveragePoint& point : result.coverage) {
    if (point.reached && !point.tests.empty())
      cover.rows.push_back(point.tests);
  }
  return cover;
}

void StrengthJob::State::end_phase(const char* name) {
  const auto now = std::chrono::steady_clock::now();
  result.phases.push_back({name, std::chrono::duration<double>(now - phase_started).count()});
  phase_started = now;
}

// One pass over the package as it is: the check, the matrix, the gaps, the coverage.
void StrengthJob::State::analyse(const StrengthJobSettings& settings) {
  phase("judging the package's submissions as check does");
  check->run();
  take_tests_and_groups();
  take_submissions();
  end_phase("check");
  build_schemas(settings);
  end_phase("mutant schemas");
  if (!stop_requested())
    judge_mutants(settings, {}, {}, {});
  if (!stop_requested())
    judge_ideas_on_tests();
  end_phase("kill matrix");
  settle(settings, {});
  end_phase("gaps");
  if (stop_requested())
    return;
  phase("coverage: the limits' ends, the shapes at the largest size, the extreme answers");
  result.coverage = measure_coverage(*problem, result.tests, cases, result.groups,
                                     {settings.seed, settings.search_cases});
  end_phase("coverage");
}

// --fill: the tests written into the plan, the package built again, the new tests judged (with
// the time limit of the first pass), the gaps settled again and the coverage measured again.
Outcome StrengthJob::State::fill(const StrengthJobSettings& settings) {
  try {
    result.filled = fill_package(*plan, tests_to_fill());
  } catch (const std::exception& error) {
    spdlog::error("--fill: {}", error.what());
    return Outcome::failed;
  }
  if (result.filled.empty()) {
    phase("--fill: nothing to add");
    return Outcome::done;
  }
  phase("--fill: " + std::to_string(result.filled.size()) +
        " tests added to the plan; building the package again");
  result.before_fill = result.counts();
  std::map<fs::path, std::size_t> old_tests;
  for (std::size_t t = 0; t < result.tests.size(); ++t)
    old_tests[normal(result.tests[t].input)] = t;
  const std::vector<CandidateOutcome> old = std::move(result.candidates);
  result.candidates.clear();
  const std::string source = result.time_limit_source;
  check.reset();  // its cache is committed and closed before the build opens it
  BuildJobSettings build_settings;
  build_settings.package = settings.package;
  build_settings.layout = settings.layout;
  build_settings.judge = settings.judge;
  build_settings.cache_file = settings.cache_file;
  build_settings.no_cache = settings.no_cache;
  BuildJob build(std::move(build_settings));
  if (build.prepare() != Outcome::done || build.run() != Outcome::done) {
    spdlog::error("--fill: the package with its new tests did not build");
    return Outcome::failed;
  }
  plan = io::read_package_plan(plan->file);
  CheckJobSettings again;
  again.problem = settings.problem;
  again.judge = settings.judge;
  again.judge.time_limit = result.time_limit_seconds;
  again.judge.time_limit_given = true;
  again.cache_file = settings.cache_file;
  again.no_cache = settings.no_cache;
  again.layout = settings.layout;
  again.paths = {settings.package};
  again.keep_cache_open = true;
  check = std::make_unique<CheckJob>(std::move(again));
  if (const Outcome prepared = check->prepare(); prepared != Outcome::done)
    return prepared;
  phase("judging the package's submissions on the filled package");
  check->run();
  take_tests_and_groups();
  result.time_limit_source = source;
  take_submissions();
  std::vector<std::size_t> new_tests;
  for (std::size_t t = 0; t < result.tests.size(); ++t) {
    if (old_tests.count(normal(result.tests[t].input)) == 0)
      new_tests.push_back(t);
  }
  if (!new_tests.empty() && !stop_requested())
    judge_mutants(settings, new_tests, old_tests, old);
  if (!stop_requested())
    judge_ideas_on_tests();
  settle(settings, old);
  if (stop_requested())
    return Outcome::done;
  result.coverage = measure_coverage(*problem, result.tests, cases, result.groups,
                                     {settings.seed, settings.search_cases});
  return Outcome::done;
}

// --select: the set cover, and with --select-out a copy of the package with only its tests (and
// without the plan, whose build would make every test again).
Outcome StrengthJob::State::select(const StrengthJobSettings& settings) {
  phase("--select: the fewest tests that keep every kill and coverage point");
  result.selection = select_tests(cover_problem(), settings.select_seconds);
  if (settings.select_out.empty())
    return Outcome::done;
  try {
    const fs::path root = normal(settings.package);
    const fs::path out = settings.select_out;
    fs::copy(root, out, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    fs::remove(out / io::kPlanFileName);
    fs::remove(out / io::kBuildRecordName);
    for (std::size_t t = 0; t < result.tests.size(); ++t) {
      if (std::binary_search(result.selection->tests.begin(), result.selection->tests.end(), t))
        continue;
      for (const fs::path& file : {result.tests[t].input, result.tests[t].answer}) {
        const fs::path relative = normal(file).lexically_relative(root);
        fs::remove(out / relative);
      }
    }
  } catch (const fs::filesystem_error& error) {
    spdlog::error("--select-out {}: {}", settings.select_out, error.what());
    return Outcome::failed;
  }
  return Outcome::done;
}

StrengthJob::StrengthJob(StrengthJobSettings settings)
    : settings_(std::move(settings)), state_(std::make_unique<State>()) {}

StrengthJob::~StrengthJob() = default;

Outcome StrengthJob::prepare() {
  State& s = *state_;
  const fs::path plan_file = fs::path(settings_.package) / io::kPlanFileName;
  try {
    if (fs::is_regular_file(plan_file))
      s.plan = io::read_package_plan(plan_file);
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return Outcome::usage_error;
  }
  if (settings_.problem.empty() && s.plan)
    settings_.problem = s.plan->game;
  if (settings_.problem.empty()) {
    spdlog::error("{} has no plan ({}) naming its game: give -p GAME", settings_.package,
                  io::kPlanFileName);
    return Outcome::usage_error;
  }
  if (s.plan && s.plan->game != settings_.problem) {
    spdlog::error("{} is a package of {}, not of {}", settings_.package, s.plan->game,
                  settings_.problem);
    return Outcome::usage_error;
  }
  s.problem = io::find_problem(settings_.problem);
  if (settings_.fill && !s.plan) {
    spdlog::error("--fill writes the new tests into the package's plan, and {} has none ({})",
                  settings_.package, plan_file.string());
    return Outcome::usage_error;
  }
  if (!settings_.select_out.empty() && fs::exists(settings_.select_out)) {
    spdlog::error("--select-out {}: it exists already (the copy goes into a new folder)",
                  settings_.select_out);
    return Outcome::usage_error;
  }
  for (const std::string& file : {settings_.report_file, settings_.html_file}) {
    if (!file.empty() && !html_page_writable(file))
      return Outcome::usage_error;
  }
  // Said before the check's set-up, whose words for a folder of plain inputs are about --solution.
  try {
    if (!io::recognise_package(settings_.package, settings_.layout)) {
      spdlog::error("{} is not a problem package (strength judges a package's tests)",
                    settings_.package);
      return Outcome::usage_error;
    }
  } catch (const io::UsageError& error) {
    spdlog::error("{}", error.what());
    return Outcome::usage_error;
  }
  CheckJobSettings check;
  check.problem = settings_.problem;
  check.judge = settings_.judge;
  check.cache_file = settings_.cache_file;
  check.no_cache = settings_.no_cache;
  check.layout = settings_.layout;
  check.paths = {settings_.package};
  check.keep_cache_open = true;
  s.check = std::make_unique<CheckJob>(std::move(check));
  if (const Outcome prepared = s.check->prepare(); prepared != Outcome::done)
    return prepared;
  const auto& solutions = s.check->options().solutions;
  if (std::none_of(solutions.begin(), solutions.end(), [](const CheckSolution& solution) {
        return solution.expected == io::Expectation::accepted;
      })) {
    spdlog::error(
        "{} has no accepted submission: strength needs one (submissions/accepted/) to "
        "tell right from wrong and to make mutants of",
        settings_.package);
    return Outcome::usage_error;
  }
  return Outcome::done;
}

Outcome StrengthJob::run() {
  const auto started = std::chrono::steady_clock::now();
  State& s = *state_;
  s.phase_started = started;
  s.result.game = settings_.problem;
  s.result.package = normal(settings_.package).string();
  s.analyse(settings_);
  Outcome outcome = Outcome::done;
  if (settings_.fill && !stop_requested()) {
    outcome = graver(outcome, s.fill(settings_));
    s.end_phase("fill");
  }
  if (settings_.select && !stop_requested() && s.check != nullptr) {
    outcome = graver(outcome, s.select(settings_));
    s.end_phase("select");
  }
  s.result.interrupted = stop_requested();
  if (s.check != nullptr)
    s.header = s.check->header();
  s.header["problem"] = settings_.problem;
  s.header["options"] = {{"fill", settings_.fill},
                         {"select", settings_.select},
                         {"select_out", settings_.select_out},
                         {"stress_cases", settings_.stress_cases},
                         {"search_cases", settings_.search_cases},
                         {"all_runs", settings_.all_runs},
                         {"mutants", settings_.max_mutants},
                         {"seed", settings_.seed}};
  s.result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return graver(outcome, s.result.counts().strong() ? Outcome::done : Outcome::failed);
}

std::string StrengthJob::summary() const {
  return strength_line(state_->result) + "\n" + strength_details(state_->result);
}

Outcome StrengthJob::write_outputs() {
  const State& s = *state_;
  Outcome outcome = Outcome::done;
  if (!settings_.report_file.empty() &&
      !write_report_file(settings_.report_file,
                         strength_report(s.header, s.result)
                             .dump(1, ' ', false, nlohmann::json::error_handler_t::replace)))
    outcome = Outcome::failed;
  if (!settings_.html_file.empty() &&
      !write_html_page(settings_.html_file, strength_page(s.header, *s.problem, s.result)))
    outcome = Outcome::failed;
  return outcome;
}

}  // namespace gamebatch::pipeline
