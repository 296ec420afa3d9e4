// `gamebatch stress`: random cases of a game, each solved exactly and given to a solution alone in
// its input, until the solution fails on one; that case is then shrunk to a smallest failing one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "io/files/generate.hpp"
#include "io/problem.hpp"
#include "pipeline/judge/judge.hpp"

namespace gamebatch::pipeline {

struct StressOptions {
  const io::Problem* problem = nullptr;
  io::GameOptions game;    // the generator's options (as `gen` takes them)
  std::uint64_t seed = 1;  // case k is generate_file_text(game, seed, k, 1)
  std::int64_t count = 1000;
  std::string solution;  // shell command, input on stdin
  JudgeLimits limits;
  std::size_t jobs = 1;                // runs at once
  io::SandboxPool* sandbox = nullptr;  // where the solution runs; nullptr: uncontained
  // A group's limits (stress --package P --group G): `game` is narrowed to them by the caller
  // (io::narrow_to_limits); a drawn case that still breaks one is passed over, and shrinking
  // keeps within them.
  std::vector<io::NarrowLimit> group_limits;
  // When set, the solution is this function instead of a program (an in-process wrong idea of
  // `gamebatch strength`): it gets the input's text and returns what a program would print; it is
  // judged as a program's output would be, with no time or memory of its own.
  std::function<std::string(const std::string& input)> in_process{};
};

// A failing input with its expected answers and what the solution did with it.
struct FailingCase {
  std::string input;                  // a whole input file of one case
  std::vector<std::string> expected;  // Case::solve's answer of its case
  RunVerdict verdict;
  std::string output;  // the solution's stdout (cut at 64 KiB)
};

struct StressResult {
  std::int64_t cases_run = 0;  // generated cases judged (every one up to the first failure)
  // The first failing case in generation order (the same for every `jobs`), and the case it was
  // shrunk to. Empty when all `count` cases passed.
  std::optional<std::int64_t> failing_case_number;
  std::optional<FailingCase> first_failure;
  std::optional<FailingCase> shrunk;
  std::size_t shrink_steps = 0;           // smaller cases adopted
  std::size_t shrink_candidates_run = 0;  // smaller cases tried
  // A stop was requested (core/stop_request.hpp): the search ended early (cases_run were judged
  // and passed, in order), or the shrinking did (`shrunk` is the smallest failing case so far).
  bool interrupted = false;
  double seconds = 0;
};

// Runs the search, then the shrinking: the game's shrink candidates of the failing case are tried
// in order (`jobs` at a time); the first that fails with the same verdict replaces it, until none
// does. A candidate outside the official limits is not tried when the failing case was within
// them, nor one outside the group's limits. TLE verdicts that may come from sharing the machine are
// confirmed by a run alone.
StressResult run_stress(const StressOptions& options);

}  // namespace gamebatch::pipeline
