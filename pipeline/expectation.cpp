#include "pipeline/expectation.hpp"

#include <cstddef>
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
    case io::Expectation::stated:  // its rules say what it must get
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
