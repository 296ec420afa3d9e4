// The kill matrix: every candidate on the tests. A test kills a candidate where its verdict is
// not AC. Programs (mutants) run as check runs solutions: in the sandbox, under the check's limits,
// judged against the exact answers (judge/judge.hpp); ideas are answered in-process.
//
// Which runs are made. A candidate's runs decide groups: a kill decides every group holding the
// test, and a test is run only while some group holding it is undecided (the caller's groups: one
// group of every test when only the kills matter, the package's for --select, which needs a
// killing test per group; every run with --all-runs). A run that fails by time costs its whole
// limit, and a mutant that loops does so everywhere: after kTimeKills kills by time or memory a
// program is run no more. Runs not made have no verdict ("not run"). Each program's tests run in
// the caller's order (cheapest first finds most kills soonest) on one worker, `jobs` programs at
// a time; a program whose only kills are by time has its first one confirmed by a run alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/files/input_set.hpp"
#include "io/problem.hpp"
#include "io/run/sandbox.hpp"
#include "pipeline/judge/judge.hpp"
#include "pipeline/strength/candidates.hpp"

namespace gamebatch::pipeline {

inline constexpr std::size_t kTimeKills = 2;

// A test's answers as check judges against them: one per case, nullopt for a rejected input.
using ExpectedAnswers = std::vector<std::optional<std::vector<std::string>>>;

struct MatrixTests {
  const io::Problem* problem = nullptr;
  const io::InputList* inputs = nullptr;  // the tests, in the package's order
  const ExpectedAnswers* expected = nullptr;
  // The groups a kill decides (indices into inputs); empty: one group of every test.
  std::vector<std::vector<std::size_t>> groups;
};

struct MatrixSettings {
  JudgeLimits limits;
  io::SandboxPool* sandbox = nullptr;
  std::size_t jobs = 1;
  bool all_runs = false;  // every pair run, no bound on time kills
};

// One candidate's verdicts, one per test: nullopt where it was not run.
struct CandidateVerdicts {
  std::vector<std::optional<Verdict>> tests;
  std::vector<double> seconds;  // CPU seconds of each run (0 for ideas and runs not made)
  std::string first_kill;       // describe() of its first killing run, "" when none
  std::size_t not_run = 0;
  bool interrupted = false;  // a stop left some of its runs unjudged
  bool killed() const;
  bool killed_on(const std::vector<std::size_t>& tests) const;
};

// Runs `commands` (programs) on the tests `which` (indices into tests.inputs, in the order they
// are run; empty: all, in order). The verdicts have one entry per test; those not in `which` are
// not run.
std::vector<CandidateVerdicts> judge_programs(const std::vector<std::string>& commands,
                                              const MatrixTests& tests,
                                              const MatrixSettings& settings,
                                              const std::vector<std::size_t>& which = {});

// Each of `ideas` on the tests `which` (empty: all): every case of a test parsed and answered
// in-process, the answers judged as a program's output would be.
std::vector<CandidateVerdicts> judge_ideas(const std::vector<io::WrongIdea>& ideas,
                                           const MatrixTests& tests,
                                           const std::vector<std::size_t>& which = {});

}  // namespace gamebatch::pipeline
