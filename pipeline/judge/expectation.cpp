#include "pipeline/judge/expectation.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <map>

namespace gamebatch::pipeline {

ExpectationOutcome judge_expectation(io::Expectation expected,
                                     const std::optional<std::string>& compile_error,
                                     const std::vector<std::optional<RunVerdict>>& files,
                                     std::size_t unjudged_runs) {
  if (compile_error)
    return {false, "compile error: it was never run", false};
  std::map<Verdict, std::size_t> counts;
  std::size_t judged = 0;
  for (const std::optional<RunVerdict>& verdict : files) {
    if (verdict) {
      ++counts[verdict->verdict];
      ++judged;
    }
  }
  const auto count = [&counts](Verdict verdict) {
    const auto found = counts.find(verdict);
    return found == counts.end() ? std::size_t{0} : found->second;
  };
  const std::size_t accepted = count(Verdict::accepted);
  const std::size_t wrong = count(Verdict::wrong_answer);
  const std::size_t time_limit = count(Verdict::time_limit);
  const std::size_t memory_limit = count(Verdict::memory_limit);
  const std::size_t runtime_error = count(Verdict::runtime_error);
  const auto files_text = [](std::size_t n) {
    return std::to_string(n) + (n == 1 ? " file" : " files");
  };
  ExpectationOutcome outcome;
  const bool all_judged = unjudged_runs == 0;
  switch (expected) {
    case io::Expectation::accepted:
      if (accepted != judged) {
        return {false,
                "expected AC on every file, got a failure on " + files_text(judged - accepted),
                false};
      }
      break;
    case io::Expectation::wrong_answer:
      if (time_limit + memory_limit + runtime_error != 0) {
        return {false,
                "expected WA, got worse than WA (TLE, MLE or RE) on " +
                    files_text(time_limit + memory_limit + runtime_error),
                false};
      }
      if (wrong == 0 && all_judged)
        outcome = {false, "expected WA on some file, got AC on every file", true};
      break;
    case io::Expectation::time_limit_exceeded:
      if (memory_limit + runtime_error != 0) {
        return {false, "expected TLE, got MLE or RE on " + files_text(memory_limit + runtime_error),
                false};
      }
      if (time_limit == 0 && all_judged) {
        outcome = {false,
                   wrong == 0 ? "expected TLE on some file, got AC on every file"
                              : "expected TLE on some file, got only AC and WA",
                   wrong == 0};
      }
      break;
    case io::Expectation::stated:  // the rules say what it must get
      break;
    case io::Expectation::run_time_error:
      if (runtime_error == 0 && all_judged) {
        outcome = {false,
                   accepted == judged ? "expected RE on some file, got AC on every file"
                                      : "expected RE on some file, got none",
                   accepted == judged};
      }
      break;
  }
  if (!outcome.why_not.empty())
    return outcome;
  if (!all_judged)
    return {false, std::to_string(unjudged_runs) + " runs not judged (interrupted)", false};
  return {true, "", false};
}

}  // namespace gamebatch::pipeline

namespace gamebatch::pipeline {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names)
    text += (text.empty() ? "" : " ") + name;
  return text;
}

bool among(const std::vector<std::string>& names, Verdict verdict) {
  return std::find(names.begin(), names.end(), short_name(verdict)) != names.end();
}

std::string files_text(std::size_t n) {
  return std::to_string(n) + (n == 1 ? " file" : " files");
}

}  // namespace

bool rule_applies_to(const io::ExpectationRule& rule, const io::TestGroup& group) {
  return !rule.groups.empty() && io::group_pattern_matches(rule.groups, group);
}

std::string rule_text(const io::ExpectationRule& rule) {
  std::vector<std::string> parts;
  if (rule.permitted)
    parts.push_back("permitted " + joined(*rule.permitted));
  if (rule.required)
    parts.push_back("required " + joined(*rule.required));
  if (rule.score)
    parts.push_back("score " + score_text(rule.score->first) + ".." +
                    score_text(rule.score->second));
  std::string text;
  for (const std::string& part : parts)
    text += (text.empty() ? "" : "; ") + part;
  return text.empty() ? "anything" : text;
}

std::string unmet_rule(const io::ExpectationRule& rule, const std::vector<Verdict>& judged,
                       double score) {
  std::vector<std::string> why;
  if (rule.permitted) {
    std::map<Verdict, std::size_t> others;
    for (const Verdict verdict : judged) {
      if (!among(*rule.permitted, verdict))
        ++others[verdict];
    }
    if (!others.empty()) {
      std::string got;
      for (const auto& [verdict, count] : others)
        got += (got.empty() ? "" : ", ") + std::string(short_name(verdict)) + " on " +
               files_text(count);
      why.push_back("permitted " + joined(*rule.permitted) + ", got " + got);
    }
  }
  if (rule.required && std::none_of(judged.begin(), judged.end(), [&](Verdict verdict) {
        return among(*rule.required, verdict);
      })) {
    why.push_back("required " + joined(*rule.required) + ", got none of them on " +
                  files_text(judged.size()));
  }
  // A tolerance for the sums of shares (sum aggregation).
  if (rule.score && (score < rule.score->first - 1e-9 || score > rule.score->second + 1e-9)) {
    why.push_back("score " + score_text(rule.score->first) + ".." + score_text(rule.score->second) +
                  ", got " + score_text(score));
  }
  std::string text;
  for (const std::string& part : why)
    text += (text.empty() ? "" : "; ") + part;
  return text;
}

std::vector<std::string> unmet_rules(const std::vector<io::ExpectationRule>& rules,
                                     const std::vector<Verdict>& all_judged, double total,
                                     const std::vector<GroupVerdicts>& groups) {
  std::vector<std::string> lines;
  for (const io::ExpectationRule& rule : rules) {
    if (rule.groups.empty()) {
      if (const std::string why = unmet_rule(rule, all_judged, total); !why.empty())
        lines.push_back(rule.source + ": " + why);
      continue;
    }
    for (const GroupVerdicts& group : groups) {
      if (!rule_applies_to(rule, *group.group))
        continue;
      if (const std::string why = unmet_rule(rule, group.judged, group.score); !why.empty())
        lines.push_back(rule.source + ": " + group.group->path + ": " + why);
    }
  }
  return lines;
}

std::string score_text(double score) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", score);
  return text;
}

}  // namespace gamebatch::pipeline
