// Whether a solution's verdicts are what its problem package says it must get (Kattis' rules, as
// verifyproblem and BAPCtools apply them): the directory a submission sits in is its expectation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "io/files/problem_package.hpp"
#include "pipeline/judge.hpp"

namespace gamebatch::pipeline {

struct ExpectationOutcome {
  bool meets = false;
  std::string why_not;    // one line when it does not meet it; empty when it does
  bool too_weak = false;  // expected to fail, yet AC on every file: the tests do not catch it
};

// The verdicts of one solution, one per file (nullopt: not run, the input rejected or the run left
// unjudged by a stop; `unjudged_runs` counts the latter), judged against `expected`:
//   accepted             AC on every file;
//   wrong_answer         WA on at least one file, and nothing worse than WA (AC or WA) elsewhere;
//   time_limit_exceeded  TLE on at least one file, and AC, WA or TLE elsewhere (problemtools
//                        allows WA beside TLE since its issue 48);
//   run_time_error       RE on at least one file, anything elsewhere.
// A compile error meets no expectation, and nor does a solution with runs left unjudged (unless
// what was judged already fails an accepted one).
ExpectationOutcome judge_expectation(io::Expectation expected,
                                     const std::optional<std::string>& compile_error,
                                     const std::vector<std::optional<RunVerdict>>& files,
                                     std::size_t unjudged_runs);

}  // namespace gamebatch::pipeline
