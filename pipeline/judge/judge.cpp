#include "pipeline/judge/judge.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace gamebatch::pipeline {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f';
}

// Whitespace-separated tokens, read one at a time from a text.
class Tokens {
 public:
  explicit Tokens(std::string_view text) : text_(text) {}

  // The next token, or an empty view at the end.
  std::string_view next() {
    while (position_ < text_.size() && is_space(text_[position_]))
      ++position_;
    const std::size_t start = position_;
    while (position_ < text_.size() && !is_space(text_[position_]))
      ++position_;
    return text_.substr(start, position_ - start);
  }

 private:
  std::string_view text_;
  std::size_t position_ = 0;
};

// Tokens joined by single spaces, cut at kShownCharacters.
std::string shown(const std::vector<std::string_view>& tokens) {
  std::string text;
  for (const std::string_view token : tokens) {
    if (!text.empty())
      text += ' ';
    text += token;
    if (text.size() > kShownCharacters) {
      text.resize(kShownCharacters);
      text += "...";
      break;
    }
  }
  return text;
}

constexpr const char* kEndOfOutput = "(end of output)";

double mebibytes(std::uint64_t bytes) {
  return static_cast<double>(bytes) / double(1 << 20);
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f s", seconds);
  return text;
}

}  // namespace

std::string_view short_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::accepted:
      return "AC";
    case Verdict::wrong_answer:
      return "WA";
    case Verdict::time_limit:
      return "TLE";
    case Verdict::memory_limit:
      return "MLE";
    case Verdict::runtime_error:
      return "RE";
  }
  return "?";
}

RunVerdict compare_answers(const io::Problem& problem, const std::vector<std::string>& expected,
                           std::string_view output) {
  RunVerdict verdict;
  Tokens received(output);
  std::vector<std::string_view> wanted;
  std::vector<std::string_view> got;
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const std::string line = problem.answer_line(k + 1, expected[k]);
    Tokens expected_tokens(line);
    wanted.clear();
    got.clear();
    bool differs = false;
    for (std::string_view token = expected_tokens.next(); !token.empty();
         token = expected_tokens.next()) {
      wanted.push_back(token);
      const std::string_view answer = received.next();
      if (answer.empty()) {
        differs = true;
        break;
      }
      got.push_back(answer);
      differs = differs || answer != token;
    }
    if (differs) {
      // Show the whole expected line against as many received tokens.
      for (std::string_view token = expected_tokens.next(); !token.empty();
           token = expected_tokens.next()) {
        wanted.push_back(token);
        if (const std::string_view answer = received.next(); !answer.empty())
          got.push_back(answer);
      }
      verdict.verdict = Verdict::wrong_answer;
      verdict.case_number = k + 1;
      verdict.expected = shown(wanted);
      verdict.got = got.empty() ? std::string(kEndOfOutput) : shown(got);
      verdict.detail = "wrong answer on case " + std::to_string(k + 1);
      return verdict;
    }
  }
  if (const std::string_view extra = received.next(); !extra.empty()) {
    got.assign({extra});
    for (int more = 0; more < 4; ++more) {
      if (const std::string_view token = received.next(); !token.empty())
        got.push_back(token);
    }
    verdict.verdict = Verdict::wrong_answer;
    verdict.expected = kEndOfOutput;
    verdict.got = shown(got);
    verdict.detail = "output left after the last case";
  }
  return verdict;
}

RunVerdict judge_run(const io::Problem& problem, const std::vector<std::string>& expected,
                     const io::ProcessResult& result, const JudgeLimits& limits) {
  RunVerdict verdict;
  const bool over_memory =
      result.end == io::ProcessEnd::memory_limit ||
      (limits.memory_limit_bytes != 0 && result.peak_bytes > limits.memory_limit_bytes);
  const bool over_time = result.end == io::ProcessEnd::cpu_limit ||
                         result.end == io::ProcessEnd::wall_limit ||
                         result.cpu_seconds > limits.time_limit_seconds;
  if (over_memory) {
    verdict.verdict = Verdict::memory_limit;
    const std::string limit =
        std::to_string(std::llround(mebibytes(limits.memory_limit_bytes))) + " MiB";
    // A sandbox's cgroup stops a run at the limit itself (its scratch's files count too).
    verdict.detail =
        result.peak_bytes > limits.memory_limit_bytes
            ? "peak memory " + std::to_string(std::llround(mebibytes(result.peak_bytes))) +
                  " MiB over the limit of " + limit
            : "stopped by the kernel at the memory limit of " + limit + " (its cgroup)";
  } else if (over_time) {
    verdict.verdict = Verdict::time_limit;
    verdict.detail = result.end == io::ProcessEnd::wall_limit
                         ? "stopped by the wall clock after " + seconds_text(result.wall_seconds)
                         : "CPU time " + seconds_text(result.cpu_seconds) + " over the limit of " +
                               seconds_text(limits.time_limit_seconds);
  } else if (result.end == io::ProcessEnd::signaled ||
             result.end == io::ProcessEnd::process_limit ||
             result.end == io::ProcessEnd::disk_limit ||
             (result.end == io::ProcessEnd::exited && result.exit_status != 0)) {
    verdict.verdict = Verdict::runtime_error;
    verdict.detail = io::describe(result);
  } else if (result.end == io::ProcessEnd::output_limit) {
    verdict = compare_answers(problem, expected, result.output);
    verdict.verdict = Verdict::wrong_answer;
    verdict.detail = "output over the limit of " +
                     std::to_string(std::llround(mebibytes(limits.output_limit_bytes))) + " MiB";
    if (!verdict.got) {  // every case right: the rest is too much
      verdict.expected = kEndOfOutput;
      verdict.got = "more than " +
                    std::to_string(std::llround(mebibytes(limits.output_limit_bytes))) +
                    " MiB of output";
    }
  } else {
    verdict = compare_answers(problem, expected, result.output);
  }
  verdict.seconds = result.cpu_seconds;
  verdict.peak_mb = mebibytes(result.peak_bytes);
  return verdict;
}

bool needs_rerun_alone(const RunVerdict& verdict, const io::ProcessResult& result,
                       const JudgeLimits& limits) {
  if (verdict.verdict != Verdict::time_limit)
    return false;
  if (result.end == io::ProcessEnd::wall_limit)
    return result.cpu_seconds >= limits.time_limit_seconds / 2;
  return true;
}

std::string describe(const RunVerdict& verdict) {
  std::string line(short_name(verdict.verdict));
  if (verdict.verdict == Verdict::wrong_answer) {
    line += verdict.case_number ? " on case " + std::to_string(*verdict.case_number) : "";
    line += ": expected '" + verdict.expected.value_or("") + "', got '" + verdict.got.value_or("") +
            "'";
    if (!verdict.case_number || verdict.detail.starts_with("output over"))
      line += " (" + verdict.detail + ")";
  } else {
    line += ": " + verdict.detail;
  }
  if (verdict.rerun_alone)
    line += " (rerun alone)";
  return line;
}

JudgedRun run_and_judge(const io::Problem& problem, const std::string& command,
                        const io::ProcessInput& input, const std::vector<std::string>& expected,
                        const JudgeLimits& limits, io::SandboxPool* sandbox) {
  JudgedRun run;
  run.result = io::run_limited(command, input, process_limits(limits), sandbox);
  if (run.result.end == io::ProcessEnd::interrupted)
    throw StopRequested{};  // ended for gamebatch's sake: no verdict
  run.verdict = judge_run(problem, expected, run.result, limits);
  return run;
}

}  // namespace gamebatch::pipeline
