#include "pipeline/package/validator_job.hpp"

#include <charconv>

#include "io/files/input_set.hpp"
#include "io/format/strict_format.hpp"

namespace gamebatch::pipeline {
namespace {

// The whole of `text` as an integer, or false.
bool parse_integer(std::string_view text, std::int64_t& value) {
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  return error == std::errc() && stop == end && !text.empty();
}

// "P=MIN..MAX" or "P=V" as a limit of `problem`.
io::NarrowLimit parse_limit(const std::string& problem, std::string_view part) {
  const std::size_t equals = part.find('=');
  if (equals == std::string_view::npos) {
    throw io::UsageError("--limits: expected PARAMETER=MIN..MAX, found '" + std::string(part) +
                         "'");
  }
  io::NarrowLimit limit;
  limit.parameter = std::string(part.substr(0, equals));
  limit.owner = "--limits";
  const std::string_view range = part.substr(equals + 1);
  const std::size_t dots = range.find("..");
  const bool parsed = dots == std::string_view::npos
                          ? parse_integer(range, limit.min) && parse_integer(range, limit.max)
                          : parse_integer(range.substr(0, dots), limit.min) &&
                                parse_integer(range.substr(dots + 2), limit.max);
  if (!parsed || limit.min > limit.max) {
    throw io::UsageError("--limits: expected a number or MIN..MAX (MIN <= MAX) for " +
                         limit.parameter + ", found '" + std::string(range) + "'");
  }
  const auto ranges = io::statement_ranges(problem);
  if (ranges.count(limit.parameter) == 0) {
    std::string known;
    for (const auto& [parameter, unused] : ranges)
      known += (known.empty() ? "" : ", ") + parameter;
    throw io::UsageError("--limits: " + problem + " has no limited parameter '" + limit.parameter +
                         "' (its parameters: " + known + ")");
  }
  return limit;
}

}  // namespace

std::vector<io::NarrowLimit> parse_limits(const std::string& problem, const std::string& text) {
  std::vector<io::NarrowLimit> limits;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find_first_of(" ,", start);
    end = end == std::string::npos ? text.size() : end;
    if (end > start)
      limits.push_back(parse_limit(problem, std::string_view(text).substr(start, end - start)));
    start = end + 1;
  }
  return limits;
}

ValidatorResult write_validator(const ValidatorSettings& settings) {
  ValidatorResult result;
  if (!io::has_strict_format(settings.problem)) {
    result.outcome = Outcome::usage_error;
    result.error = "no validator for the game '" + settings.problem + "'";
    return result;
  }
  try {
    result.source =
        io::validator_source(settings.problem, parse_limits(settings.problem, settings.limits));
  } catch (const io::UsageError& error) {
    result.outcome = Outcome::usage_error;
    result.error = error.what();
  }
  return result;
}

}  // namespace gamebatch::pipeline
