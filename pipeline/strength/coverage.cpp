#include "pipeline/strength/coverage.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "core/stop_request.hpp"
#include "io/files/generate.hpp"
#include "io/format/strict_format.hpp"
#include "pipeline/package/data_bounds.hpp"

namespace gamebatch::pipeline {
namespace {

// Seeds of gen tried for an input aimed at one point.
constexpr std::uint64_t kAimTries = 8;
// The search starts over from a fresh case this often (evaluations).
constexpr std::size_t kRestartEvery = 60;

// A file's case-count parameter (willow T ... boigame t), as gen's narrowing names it.
bool is_case_count(std::string_view parameter) {
  return parameter == "T" || parameter == "t";
}

std::string number_text(double value) {
  if (std::abs(value) < 1e15 && value == std::floor(value))
    return std::to_string(static_cast<long long>(value));
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

// The values each limited parameter takes in `file` (valid or not: what was read).
io::ObservedRanges observed(std::string_view game, const std::string& file) {
  io::ObservedRanges ranges;
  io::strict_check(game, file, {}, &ranges);
  return ranges;
}

bool valid_in(std::string_view game, const std::string& file,
              const std::vector<io::NarrowLimit>& limits) {
  try {
    return !io::strict_check(game, file, limits);
  } catch (const std::invalid_argument&) {
    return false;
  }
}

// The group's largest value of each size parameter: its limit's, else the statement's.
std::map<std::string, std::int64_t> largest_sizes(const io::Problem& problem,
                                                  const StrengthGroup& group) {
  const auto statement = io::statement_ranges(problem.name());
  std::map<std::string, std::int64_t> largest;
  for (const std::string_view parameter : problem.size_parameters()) {
    const std::string name(parameter);
    std::optional<std::int64_t> high;
    if (const auto found = statement.find(name); found != statement.end())
      high = found->second.max;
    for (const io::NarrowLimit& limit : group.limits) {
      if (limit.parameter == name)
        high = high ? std::min(*high, limit.max) : limit.max;
    }
    if (high)
      largest[name] = *high;
  }
  return largest;
}

bool at_sizes(const io::ObservedRanges& ranges, const std::map<std::string, std::int64_t>& sizes) {
  for (const auto& [parameter, value] : sizes) {
    const auto found = ranges.find(parameter);
    if (found == ranges.end() || found->second.second != value)
      return false;
  }
  return true;
}

// gen's options for the group: its limits, then the aims given.
std::optional<io::GameOptions> aimed_options(const io::Problem& problem,
                                             const StrengthGroup& group) {
  std::optional<io::GameOptions> options = io::default_game_options(problem.name());
  if (!options)
    return std::nullopt;
  // The sizes over the group's whole range, not gen's small defaults.
  const auto statement = io::statement_ranges(problem.name());
  for (const std::string_view parameter : problem.size_parameters()) {
    const auto found = statement.find(std::string(parameter));
    if (found != statement.end())
      io::set_parameter_range(*options, parameter, std::max<std::int64_t>(found->second.min, 1),
                              found->second.max);
  }
  if (!io::narrow_to_limits(*options, group.limits).empty())
    return std::nullopt;
  return options;
}

// The first of gen's one-case inputs from `options` (seeds 1..) that `wanted` accepts.
template <typename Wanted>
std::string first_generated(const io::GameOptions& options, std::uint64_t seed, Wanted&& wanted) {
  for (std::uint64_t k = 1; k <= kAimTries; ++k) {
    try {
      std::string file = io::generate_file_text(options, seed, k, 1);
      if (wanted(file))
        return file;
    } catch (const std::invalid_argument&) {
      return "";
    }
  }
  return "";
}

// ---- the limits' ends

std::string aim_at_limit(const io::Problem& problem, const StrengthGroup& group,
                         const std::string& parameter, std::int64_t value, std::uint64_t seed) {
  const std::string_view game = problem.name();
  std::optional<io::GameOptions> options = aimed_options(problem, group);
  if (!options)
    return "";
  const auto reaches = [&](const std::string& file) {
    if (!valid_in(game, file, group.limits))
      return false;
    const io::ObservedRanges ranges = observed(game, file);
    const auto found = ranges.find(parameter);
    return found != ranges.end() && (found->second.first == value || found->second.second == value);
  };
  if (is_case_count(parameter)) {
    // A file of `value` small cases.
    std::optional<io::GameOptions> small = io::default_game_options(game);
    if (!small || !io::narrow_to_limits(*small, group.limits).empty())
      return "";
    try {
      std::string file = io::generate_file_text(*small, seed, 1, value);
      return reaches(file) ? file : "";
    } catch (const std::invalid_argument&) {
      return "";
    }
  }
  io::GameOptions aimed = *options;
  if (io::set_parameter_range(aimed, parameter, value, value)) {
    if (std::string file = first_generated(aimed, seed, reaches); !file.empty())
      return file;
    // A parameter whose range depends on the sizes (doublemove's k <= n + 1) reaches its top
    // only in the largest cases: the same with every size at the group's largest.
    for (const auto& [size, largest] : largest_sizes(problem, group)) {
      if (size != parameter)
        io::set_parameter_range(aimed, size, largest, largest);
    }
    if (std::string file = first_generated(aimed, seed, reaches); !file.empty())
      return file;
  }
  // A value no range of gen's aims at (a coin's, say): one number of a case set to it.
  for (std::uint64_t k = 1; k <= kAimTries; ++k) {
    std::string file;
    try {
      file = io::generate_file_text(*options, seed, k, 1);
    } catch (const std::invalid_argument&) {
      return "";
    }
    const std::string token = std::to_string(value);
    for (std::size_t at = 0; at < file.size();) {
      const std::size_t end = file.find_first_of(" \n", at);
      const std::size_t stop = end == std::string::npos ? file.size() : end;
      std::string edited = file;
      edited.replace(at, stop - at, token);
      if (stop > at && reaches(edited))
        return edited;
      at = stop + 1;
    }
  }
  return "";
}

void limit_points(const io::Problem& problem, const io::InputList& tests,
                  const std::vector<StrengthGroup>& groups, const CoverageSettings& settings,
                  std::vector<CoveragePoint>& points) {
  std::vector<GroupTests> bounded;
  for (const StrengthGroup& group : groups) {
    GroupTests g{group.name, {}, group.limits};
    for (const std::size_t test : group.tests)
      g.tests.push_back(tests[test].input);
    bounded.push_back(std::move(g));
  }
  const std::vector<GroupBounds> bounds = data_bounds(problem.name(), bounded);
  // Each test's own ranges, for the tests that reach an end (--select keeps one of them).
  std::vector<std::optional<io::ObservedRanges>> ranges(tests.size());
  const auto reaching = [&](const StrengthGroup& group, const std::string& parameter, bool high,
                            std::int64_t end) {
    std::vector<std::size_t> found;
    for (const std::size_t test : group.tests) {
      if (!ranges[test])
        ranges[test] = observed(problem.name(), io::read_file(tests[test].input));
      const auto range = ranges[test]->find(parameter);
      if (range != ranges[test]->end() &&
          (high ? range->second.second >= end : range->second.first <= end))
        found.push_back(test);
    }
    return found;
  };
  const auto statement = io::statement_ranges(problem.name());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].sample)
      continue;
    for (const ParameterBounds& parameter : bounds[g].parameters) {
      const std::string range =
          std::to_string(parameter.low) + ".." + std::to_string(parameter.high);
      for (const bool high : {false, true}) {
        std::optional<std::int64_t> end = high ? parameter.limit_high : parameter.limit_low;
        if (!end || parameter.unbounded_high())
          continue;
        // A group's limit wider than the statement's: the statement's end is what a test can be.
        if (const auto found = statement.find(parameter.parameter); found != statement.end())
          end = std::clamp(*end, found->second.min, found->second.max);
        CoveragePoint point;
        point.group = groups[g].name;
        point.kind = CoverageKind::limit;
        point.name = parameter.parameter + " = " + std::to_string(*end) + " (" +
                     (high ? "its limit's max" : "its limit's min") + ")";
        point.reached = high ? parameter.high >= *end : parameter.low <= *end;
        point.detail = "tests reach " + parameter.parameter + " " + range + " of " +
                       std::to_string(parameter.limit_low.value_or(parameter.low)) + ".." +
                       std::to_string(parameter.limit_high.value_or(parameter.high)) + " (" +
                       parameter.limit_owner + ")";
        if (point.reached) {
          point.tests = reaching(groups[g], parameter.parameter, high, *end);
        } else {
          point.fill =
              aim_at_limit(problem, groups[g], parameter.parameter, *end, settings.seed + g);
          // As for shapes: an end no case within the group's other limits can reach (k = 36
          // where n <= 4) asks nothing of its tests.
          if (point.fill.empty())
            continue;
        }
        points.push_back(std::move(point));
      }
    }
  }
}

// ---- shapes at the largest size

std::string sizes_text(const std::map<std::string, std::int64_t>& sizes) {
  std::string text;
  for (const auto& [parameter, value] : sizes)
    text += (text.empty() ? "" : ", ") + parameter + " = " + std::to_string(value);
  return text;
}

void shape_points(const io::Problem& problem, const std::vector<TestCases>& cases,
                  const std::vector<StrengthGroup>& groups, const CoverageSettings& settings,
                  std::vector<CoveragePoint>& points) {
  const std::string_view game = problem.name();
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const StrengthGroup& group = groups[g];
    if (group.sample)
      continue;
    const std::map<std::string, std::int64_t> sizes = largest_sizes(problem, group);
    // Which shapes the group's largest cases have.
    std::map<std::string, std::vector<std::size_t>> seen;
    for (const std::size_t test : group.tests) {
      for (const std::string& canonical : cases[test].canonical) {
        if (!at_sizes(observed(game, problem.file_of_cases({canonical})), sizes))
          continue;
        for (const std::string& shape : problem.shapes_of(canonical))
          seen[shape].push_back(test);
      }
    }
    const std::optional<io::GameOptions> options = aimed_options(problem, group);
    for (const std::string& shape : problem.shapes()) {
      if (stop_requested())
        return;
      CoveragePoint point;
      point.group = group.name;
      point.kind = CoverageKind::shape;
      point.name = shape + " at " + sizes_text(sizes);
      point.reached = seen.count(shape) != 0;
      if (point.reached) {
        point.tests = seen[shape];
        std::sort(point.tests.begin(), point.tests.end());
        point.tests.erase(std::unique(point.tests.begin(), point.tests.end()), point.tests.end());
        point.detail = std::to_string(point.tests.size()) + " tests";
      }
      // A shape gen cannot make within the group's limits asks nothing of its tests.
      if (!options)
        continue;
      io::GameOptions aimed = *options;
      io::set_shape(aimed, shape);
      for (const auto& [parameter, value] : sizes)
        io::set_parameter_range(aimed, parameter, value, value);
      const std::string made =
          first_generated(aimed, settings.seed + g, [&](const std::string& file) {
            if (!valid_in(game, file, group.limits))
              return false;
            const auto parsed = problem.parse(file);
            const std::vector<std::string> shapes = problem.shapes_of(parsed.front()->canonical());
            return std::find(shapes.begin(), shapes.end(), shape) != shapes.end();
          });
      if (made.empty() && !point.reached)
        continue;
      if (!point.reached) {
        point.detail = "no test of this shape at the group's largest size";
        point.fill = made;
      }
      points.push_back(std::move(point));
    }
  }
}

// ---- the extreme answers

struct Token {
  std::size_t begin = 0, end = 0;
  bool integer = false;
};

std::vector<Token> tokens_of(const std::string& text) {
  std::vector<Token> tokens;
  std::size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\n'))
      ++at;
    const std::size_t start = at;
    while (at < text.size() && text[at] != ' ' && text[at] != '\n')
      ++at;
    if (at > start) {
      const bool integer =
          std::all_of(text.begin() + static_cast<long>(start), text.begin() + static_cast<long>(at),
                      [](char c) { return (c >= '0' && c <= '9') || c == '-'; });
      tokens.push_back({start, at, integer});
    }
  }
  return tokens;
}

// One token of a case changed: a number by one, or by up to its size, or anew; a character of
// another token to another character of the case's words.
std::string neighbour(const std::string& text, std::mt19937_64& rng) {
  const std::vector<Token> tokens = tokens_of(text);
  if (tokens.empty())
    return text;
  const Token token = tokens[rng() % tokens.size()];
  std::string changed = text;
  if (token.integer) {
    const long long value = std::stoll(text.substr(token.begin, token.end - token.begin));
    const long long spread = std::max<long long>(1, std::llabs(value));
    long long next = value;
    switch (rng() % 4) {
      case 0:
        next = value + 1;
        break;
      case 1:
        next = value - 1;
        break;
      case 2:
        next = value + static_cast<long long>(rng() % static_cast<std::uint64_t>(2 * spread + 1)) -
               spread;
        break;
      default:
        next = static_cast<long long>(rng() % static_cast<std::uint64_t>(2 * spread + 2));
    }
    changed.replace(token.begin, token.end - token.begin, std::to_string(next));
    return changed;
  }
  std::string alphabet;
  for (const Token& t : tokens) {
    for (std::size_t k = t.begin; k < t.end && !t.integer; ++k) {
      if (alphabet.find(text[k]) == std::string::npos)
        alphabet += text[k];
    }
  }
  const std::size_t at = token.begin + rng() % (token.end - token.begin);
  changed[at] = alphabet[rng() % alphabet.size()];
  return changed;
}

struct Found {
  std::optional<double> value;
  std::string file;
};

// Hill climbing on the answer (sign +1: the largest, -1: the smallest) from gen's cases aimed at
// the group, starting afresh every kRestartEvery; `budget` answers evaluated.
Found search_extreme(const io::Problem& problem, const StrengthGroup& group, double sign,
                     std::size_t budget, std::uint64_t seed) {
  const std::string_view game = problem.name();
  const std::optional<io::GameOptions> options = aimed_options(problem, group);
  std::mt19937_64 rng(seed);
  Found best;
  const auto evaluate = [&](const std::string& file) -> std::optional<double> {
    if (!valid_in(game, file, group.limits))
      return std::nullopt;
    try {
      const auto parsed = problem.parse(file);
      return problem.answer_value(parsed.front()->solve());
    } catch (const std::exception&) {
      return std::nullopt;
    }
  };
  std::string current;
  double current_value = 0;
  std::size_t restart = 0;
  for (std::size_t spent = 0; spent < budget && !stop_requested(); ++spent) {
    std::string file;
    if (current.empty() || spent % kRestartEvery == 0) {
      if (options) {
        try {
          file = io::generate_file_text(*options, seed, restart + 1, 1);
        } catch (const std::invalid_argument&) {
          break;
        }
      } else {
        break;
      }
      ++restart;
      current.clear();
    } else {
      const auto parsed = problem.parse(current);
      file = problem.file_of_cases({neighbour(parsed.front()->canonical(), rng)});
    }
    const std::optional<double> value = evaluate(file);
    if (!value)
      continue;
    if (current.empty() || sign * *value >= sign * current_value) {
      current = file;
      current_value = *value;
    }
    if (!best.value || sign * *value > sign * *best.value) {
      best.value = value;
      best.file = file;
    }
  }
  return best;
}

void answer_points(const io::Problem& problem, const std::vector<TestCases>& cases,
                   const std::vector<StrengthGroup>& groups, const CoverageSettings& settings,
                   std::vector<CoveragePoint>& points) {
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const StrengthGroup& group = groups[g];
    if (group.sample)
      continue;
    for (const double sign : {1.0, -1.0}) {
      std::optional<double> tests_best;
      std::vector<std::size_t> reaching;
      for (const std::size_t test : group.tests) {
        for (std::size_t c = 0; c < cases[test].answers.size(); ++c) {
          const std::optional<double> value = problem.answer_value(cases[test].answers[c]);
          if (!value)
            continue;
          if (!tests_best || sign * *value > sign * *tests_best) {
            tests_best = value;
            reaching.clear();
          }
          if (*value == *tests_best)
            reaching.push_back(test);
        }
      }
      // The search starts from gen's cases alone, not from the tests': what it finds depends on
      // the group and the seed only, so that a test it found, once added, reaches it.
      const Found found = search_extreme(problem, group, sign, settings.search_cases,
                                         settings.seed * 2 + (sign > 0 ? 0 : 1) + 7 * g);
      if (!found.value && !tests_best)
        continue;
      CoveragePoint point;
      point.group = group.name;
      point.kind = CoverageKind::answer;
      point.name = sign > 0 ? "the largest answer" : "the smallest answer";
      point.reached = tests_best && (!found.value || sign * *tests_best >= sign * *found.value);
      point.detail = "tests' " + std::string(sign > 0 ? "largest " : "smallest ") +
                     (tests_best ? number_text(*tests_best) : "none") + ", the search's " +
                     (found.value ? number_text(*found.value) : "none");
      if (point.reached) {
        std::sort(reaching.begin(), reaching.end());
        reaching.erase(std::unique(reaching.begin(), reaching.end()), reaching.end());
        point.tests = reaching;
      } else {
        point.fill = found.file;
      }
      points.push_back(std::move(point));
    }
  }
}

}  // namespace

std::string_view kind_name(CoverageKind kind) {
  switch (kind) {
    case CoverageKind::limit:
      return "limit";
    case CoverageKind::shape:
      return "shape";
    case CoverageKind::answer:
      return "answer";
  }
  return "";
}

std::vector<CoveragePoint> measure_coverage(const io::Problem& problem, const io::InputList& tests,
                                            const std::vector<TestCases>& cases,
                                            const std::vector<StrengthGroup>& groups,
                                            const CoverageSettings& settings) {
  std::vector<CoveragePoint> points;
  limit_points(problem, tests, groups, settings, points);
  shape_points(problem, cases, groups, settings, points);
  answer_points(problem, cases, groups, settings, points);
  return points;
}

nlohmann::json coverage_json(const std::vector<CoveragePoint>& points) {
  nlohmann::json list = nlohmann::json::array();
  for (const CoveragePoint& point : points) {
    list.push_back({{"group", point.group},
                    {"kind", kind_name(point.kind)},
                    {"point", point.name},
                    {"reached", point.reached},
                    {"detail", point.detail},
                    {"fill_made", !point.fill.empty()}});
  }
  return list;
}

}  // namespace gamebatch::pipeline
