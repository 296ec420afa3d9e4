// Gaps and survivors. A candidate that no test kills is stressed within each group's limits, the
// groups in the plan's order (gen's default options narrowed to the group, one case at a time, as
// `stress --package P --group G` draws them; judge/stress_run.hpp), its budget of cases shared
// by the groups gen can draw for (at least kLeastCasesPerGroup each): killed there, it is a gap,
// with the failing case shrunk to a smallest one within the group; not killed within the budget,
// it is a survivor (perhaps equivalent to the accepted solution), shown with its diff.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "io/problem.hpp"
#include "io/run/sandbox.hpp"
#include "pipeline/judge/judge.hpp"
#include "pipeline/strength/candidates.hpp"
#include "pipeline/strength/coverage.hpp"

namespace gamebatch::pipeline {

inline constexpr std::size_t kLeastCasesPerGroup = 5;

struct GapSettings {
  std::size_t cases = 60;  // --stress-cases: per candidate, all groups together
  std::uint64_t seed = 1;
  JudgeLimits limits;
  io::SandboxPool* sandbox = nullptr;
  std::size_t jobs = 1;  // candidates stressed at once
};

struct GapSearch {
  bool found = false;
  std::string group;    // where the counterexample lies
  std::string input;    // the shrunk counterexample: a file of one case
  std::string verdict;  // what the candidate did with it ("WA on case 1: expected ...")
  std::int64_t cases_tried = 0;
  std::size_t shrink_steps = 0;
  bool interrupted = false;
};

// A wrong idea as stress runs a solution: the input's cases parsed, each answered by the idea,
// printed as a program would print them. `problem` and `idea` must outlive the function.
std::function<std::string(const std::string&)> idea_as_solution(const io::Problem& problem,
                                                                const io::WrongIdea& idea);

// Stresses each of `which` (indices into `candidates`); one result per index of `which`.
std::vector<GapSearch> search_gaps(const io::Problem& problem,
                                   const std::vector<Candidate>& candidates,
                                   const std::vector<std::size_t>& which,
                                   const std::vector<StrengthGroup>& groups,
                                   const GapSettings& settings);

}  // namespace gamebatch::pipeline
