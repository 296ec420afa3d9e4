#include "pipeline/strength/kill_matrix.hpp"

#include <algorithm>
#include <mutex>
#include <numeric>

#include <oneapi/tbb/parallel_for.h>

#include "core/stop_request.hpp"
#include "pipeline/programs/run_setup.hpp"

namespace gamebatch::pipeline {
namespace {

std::vector<std::size_t> all_or(const std::vector<std::size_t>& which, std::size_t count) {
  if (!which.empty())
    return which;
  std::vector<std::size_t> all(count);
  std::iota(all.begin(), all.end(), std::size_t{0});
  return all;
}

bool by_time_or_memory(Verdict verdict) {
  return verdict == Verdict::time_limit || verdict == Verdict::memory_limit;
}

// The groups of each test, and the groups themselves (one of every test when none are given).
struct Decisions {
  std::vector<std::vector<std::size_t>> of_test;
  std::size_t groups = 0;
  explicit Decisions(const MatrixTests& tests) : of_test(tests.inputs->size()) {
    if (tests.groups.empty()) {
      for (std::vector<std::size_t>& of : of_test)
        of.push_back(0);
      groups = 1;
      return;
    }
    groups = tests.groups.size();
    for (std::size_t g = 0; g < tests.groups.size(); ++g) {
      for (const std::size_t test : tests.groups[g])
        of_test[test].push_back(g);
    }
  }
};

// One program's runs, its tests in order, while a group holding the test is undecided.
void judge_program(const std::string& command, const MatrixTests& tests,
                   const MatrixSettings& settings, const std::vector<std::size_t>& which,
                   const Decisions& decisions, CandidateVerdicts& verdicts) {
  std::size_t time_kills = 0;
  std::vector<char> decided(decisions.groups, 0);
  for (const std::size_t test : which) {
    if (stop_requested()) {
      verdicts.interrupted = true;
      return;
    }
    if (!(*tests.expected)[test])
      continue;  // a rejected input: nothing to judge against
    const std::vector<std::size_t>& groups = decisions.of_test[test];
    const bool needed =
        settings.all_runs ||
        (time_kills < kTimeKills &&
         (groups.empty() ||
          std::any_of(groups.begin(), groups.end(), [&](std::size_t g) { return !decided[g]; })));
    if (!needed) {
      ++verdicts.not_run;
      continue;
    }
    try {
      const JudgedRun run =
          run_and_judge(*tests.problem, command, io::StdinFile{(*tests.inputs)[test].input},
                        *(*tests.expected)[test], settings.limits, settings.sandbox);
      verdicts.tests[test] = run.verdict.verdict;
      verdicts.seconds[test] = run.verdict.seconds;
      if (run.verdict.verdict == Verdict::accepted)
        continue;
      if (verdicts.first_kill.empty())
        verdicts.first_kill =
            (*tests.inputs)[test].input.filename().string() + ": " + describe(run.verdict);
      for (const std::size_t g : groups)
        decided[g] = 1;
      if (by_time_or_memory(run.verdict.verdict))
        ++time_kills;
    } catch (const StopRequested&) {
      verdicts.interrupted = true;
      return;
    } catch (const std::runtime_error&) {  // the input could not be read, no box was had
      ++verdicts.not_run;
    }
  }
}

// A program killed only by time or memory on runs made side by side: its first such kill is
// confirmed by a run alone (sharing the machine may have slowed it).
void confirm_alone(const std::string& command, const MatrixTests& tests,
                   const MatrixSettings& settings, CandidateVerdicts& verdicts) {
  std::size_t first = verdicts.tests.size();
  for (std::size_t test = 0; test < verdicts.tests.size(); ++test) {
    const std::optional<Verdict>& verdict = verdicts.tests[test];
    if (verdict && *verdict != Verdict::accepted && !by_time_or_memory(*verdict))
      return;  // killed for another reason already
    if (verdict && by_time_or_memory(*verdict) && first == verdicts.tests.size())
      first = test;
  }
  if (first == verdicts.tests.size() || stop_requested())
    return;
  try {
    const JudgedRun run =
        run_and_judge(*tests.problem, command, io::StdinFile{(*tests.inputs)[first].input},
                      *(*tests.expected)[first], settings.limits, settings.sandbox);
    verdicts.tests[first] = run.verdict.verdict;
    verdicts.seconds[first] = run.verdict.seconds;
    if (run.verdict.verdict == Verdict::accepted)
      verdicts.first_kill.clear();
  } catch (const StopRequested&) {
    verdicts.interrupted = true;
  }
}

}  // namespace

bool CandidateVerdicts::killed() const {
  return std::any_of(tests.begin(), tests.end(), [](const std::optional<Verdict>& verdict) {
    return verdict && *verdict != Verdict::accepted;
  });
}

bool CandidateVerdicts::killed_on(const std::vector<std::size_t>& which) const {
  return std::any_of(which.begin(), which.end(), [&](std::size_t test) {
    return tests[test] && *tests[test] != Verdict::accepted;
  });
}

std::vector<CandidateVerdicts> judge_programs(const std::vector<std::string>& commands,
                                              const MatrixTests& tests,
                                              const MatrixSettings& settings,
                                              const std::vector<std::size_t>& which) {
  const std::size_t count = tests.inputs->size();
  const std::vector<std::size_t> order = all_or(which, count);
  std::vector<CandidateVerdicts> verdicts(commands.size());
  for (CandidateVerdicts& v : verdicts) {
    v.tests.assign(count, std::nullopt);
    v.seconds.assign(count, 0);
  }
  const Decisions decisions(tests);
  run_at_once(commands.size(), settings.jobs, [&](std::size_t k) {
    judge_program(commands[k], tests, settings, order, decisions, verdicts[k]);
  });
  for (std::size_t k = 0; k < commands.size(); ++k) {
    if (settings.jobs > 1)
      confirm_alone(commands[k], tests, settings, verdicts[k]);
  }
  return verdicts;
}

std::vector<CandidateVerdicts> judge_ideas(const std::vector<io::WrongIdea>& ideas,
                                           const MatrixTests& tests,
                                           const std::vector<std::size_t>& which) {
  const std::size_t count = tests.inputs->size();
  const std::vector<std::size_t> order = all_or(which, count);
  std::vector<CandidateVerdicts> verdicts(ideas.size());
  for (CandidateVerdicts& v : verdicts) {
    v.tests.assign(count, std::nullopt);
    v.seconds.assign(count, 0);
  }
  // Each idea's kill on each test, told in test order afterwards (the loop's order is not).
  std::vector<std::vector<std::string>> kills(ideas.size(), std::vector<std::string>(count));
  std::mutex mutex;
  tbb::parallel_for(std::size_t{0}, order.size(), [&](std::size_t k) {
    const std::size_t test = order[k];
    if (!(*tests.expected)[test] || stop_requested())
      return;
    const std::string text = io::read_file((*tests.inputs)[test].input);
    std::vector<std::string> canonical;
    for (const auto& a_case : tests.problem->parse(text))
      canonical.push_back(a_case->canonical());
    for (std::size_t i = 0; i < ideas.size(); ++i) {
      std::string output;
      for (std::size_t c = 0; c < canonical.size(); ++c)
        output += tests.problem->answer_line(c + 1, ideas[i].answer(canonical[c]));
      const RunVerdict verdict = compare_answers(*tests.problem, *(*tests.expected)[test], output);
      const std::lock_guard lock(mutex);
      verdicts[i].tests[test] = verdict.verdict;
      if (verdict.verdict != Verdict::accepted)
        kills[i][test] = (*tests.inputs)[test].input.filename().string() + ": " + describe(verdict);
    }
  });
  for (std::size_t i = 0; i < ideas.size(); ++i) {
    for (const std::size_t test : order) {
      if (!kills[i][test].empty()) {
        verdicts[i].first_kill = kills[i][test];
        break;
      }
    }
  }
  if (stop_requested()) {
    for (CandidateVerdicts& v : verdicts)
      v.interrupted = true;
  }
  return verdicts;
}

}  // namespace gamebatch::pipeline
