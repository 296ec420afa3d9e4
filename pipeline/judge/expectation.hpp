// Whether a solution's verdicts are what its problem package says it must get (Kattis' rules, as
// verifyproblem and BAPCtools apply them): the directory a submission sits in is its expectation.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/files/problem_package.hpp"
#include "pipeline/judge/judge.hpp"

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
//   run_time_error       RE on at least one file, anything elsewhere;
//   stated               nothing by itself (its ExpectationRules say what it must get).
// A compile error meets no expectation, and nor does a solution with runs left unjudged (unless
// what was judged already fails an accepted one).
ExpectationOutcome judge_expectation(io::Expectation expected,
                                     const std::optional<std::string>& compile_error,
                                     const std::vector<std::optional<RunVerdict>>& files,
                                     std::size_t unjudged_runs);

// What a solution got on one test group: its judged verdicts (skipped and unjudged runs left out)
// in input order, and its points.
struct GroupVerdicts {
  const io::TestGroup* group = nullptr;
  std::vector<Verdict> judged;
  double score = 0;
};

// Whether `rule` applies to `group`: its pattern (a glob, '*' and '?') matches the group's name or
// path, or names a directory above its path ("secret" names "secret/small"). A rule without a
// pattern applies to the package as a whole, to no group by itself.
bool rule_applies_to(const io::ExpectationRule& rule, const io::TestGroup& group);

// A rule as text for tables and reports: "permitted AC WA; required WA; score 0..20".
std::string rule_text(const io::ExpectationRule& rule);

// A score as the tables and messages show it: "20", "12.5".
std::string score_text(double score);

// Why `rule` is not met on one scope, or "" when it is. `judged`: the scope's judged verdicts;
// `score`: the scope's points (a group's, or the solution's total for a package-wide rule).
std::string unmet_rule(const io::ExpectationRule& rule, const std::vector<Verdict>& judged,
                       double score);

// Every unmet rule of a solution, one line each naming where the rule was said and, for a group
// rule, the group ("submissions/submissions.yaml:4: secret/small: permitted AC, got WA on 2
// files"). A rule without groups is judged on `all_judged` (every judged verdict of the solution)
// and `total`; one with a pattern on each group of `groups` it matches.
std::vector<std::string> unmet_rules(const std::vector<io::ExpectationRule>& rules,
                                     const std::vector<Verdict>& all_judged, double total,
                                     const std::vector<GroupVerdicts>& groups);

}  // namespace gamebatch::pipeline
