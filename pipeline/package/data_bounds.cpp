#include "pipeline/package/data_bounds.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <system_error>

#include "io/files/input_set.hpp"
#include "io/format/strict_format.hpp"
#include "io/problem.hpp"

namespace gamebatch::pipeline {

namespace {

// The narrowest of `limits` on `parameter` (a group's limits hold those of its includers too),
// named by its owner; nullopt when none.
std::optional<io::NarrowLimit> narrowest(const std::vector<io::NarrowLimit>& limits,
                                         const std::string& parameter) {
  std::optional<io::NarrowLimit> found;
  for (const io::NarrowLimit& limit : limits) {
    if (limit.parameter != parameter)
      continue;
    if (!found) {
      found = limit;
      continue;
    }
    if (limit.min > found->min || limit.max < found->max)
      found->owner = limit.owner;
    found->min = std::max(found->min, limit.min);
    found->max = std::min(found->max, limit.max);
  }
  return found;
}

std::size_t rank_of(const std::vector<std::string_view>& order, const std::string& parameter) {
  return static_cast<std::size_t>(std::find(order.begin(), order.end(), parameter) - order.begin());
}

std::string range_text(std::int64_t low, std::int64_t high) {
  return low == high ? std::to_string(low) : std::to_string(low) + ".." + std::to_string(high);
}

std::string limit_text(const ParameterBounds& bounds) {
  if (!bounds.limit_low && !bounds.limit_high)
    return "";
  std::string text = " of " +
                     (bounds.limit_low ? std::to_string(*bounds.limit_low) : std::string()) + ".." +
                     (bounds.limit_high ? std::to_string(*bounds.limit_high) : std::string());
  if (bounds.tied_high)
    text += " (at most " + std::to_string(*bounds.tied_high) + " within the other limits)";
  return text;
}

// Each parameter's tied_high: what the game's ties to the others' highest limits allow.
void tie_highs(const io::Problem& problem, GroupBounds& bounds) {
  std::map<std::string, std::int64_t, std::less<>> highest;
  for (const ParameterBounds& parameter : bounds.parameters) {
    if (parameter.limit_high)
      highest.emplace(parameter.parameter, *parameter.limit_high);
  }
  for (ParameterBounds& parameter : bounds.parameters) {
    const std::optional<std::int64_t> tied = problem.tied_high(parameter.parameter, highest);
    if (tied && parameter.limit_high && *tied < *parameter.limit_high)
      parameter.tied_high = tied;
  }
}

}  // namespace

std::vector<GroupBounds> data_bounds(std::string_view game, const std::vector<GroupTests>& groups) {
  std::vector<GroupBounds> all;
  const std::map<std::string, gamebatch_strict::Range> statement = io::statement_ranges(game);
  const io::Problem* problem = io::find_problem(game);
  const std::vector<std::string_view> order =
      problem == nullptr ? std::vector<std::string_view>{} : problem->parameters();
  for (const GroupTests& group : groups) {
    GroupBounds bounds;
    bounds.group = group.name;
    std::vector<std::pair<std::string, std::pair<std::int64_t, std::int64_t>>> seen;
    for (const std::filesystem::path& test : group.tests) {
      std::string text;
      try {
        text = io::read_file(test);
      } catch (const std::system_error&) {
        ++bounds.unread;
        continue;
      }
      ++bounds.tests;
      io::ObservedRanges observed;
      try {
        (void)io::strict_check(game, text, group.limits, &observed);
      } catch (const std::invalid_argument&) {
        // A limit on a parameter the game does not have: the plan's reader refuses those.
      }
      for (const auto& [parameter, range] : observed) {
        const auto at = std::find_if(seen.begin(), seen.end(),
                                     [&](const auto& known) { return known.first == parameter; });
        if (at == seen.end()) {
          seen.emplace_back(parameter, range);
        } else {
          at->second.first = std::min(at->second.first, range.first);
          at->second.second = std::max(at->second.second, range.second);
        }
      }
    }
    // In the statement's order of the parameters (T N C), not the map's.
    std::stable_sort(seen.begin(), seen.end(), [&order](const auto& a, const auto& b) {
      return rank_of(order, a.first) < rank_of(order, b.first);
    });
    for (const auto& [parameter, range] : seen) {
      ParameterBounds parameter_bounds{parameter, range.first, range.second, {}, {}, {}, {}};
      if (const std::optional<io::NarrowLimit> limit = narrowest(group.limits, parameter)) {
        parameter_bounds.limit_low = limit->min;
        parameter_bounds.limit_high = limit->max;
        parameter_bounds.limit_owner = limit->owner;
      } else {
        if (const auto found = statement.find(parameter); found != statement.end()) {
          parameter_bounds.limit_low = found->second.min;
          parameter_bounds.limit_high = found->second.max;
          parameter_bounds.limit_owner = "the statement";
        }
      }
      bounds.parameters.push_back(std::move(parameter_bounds));
    }
    if (problem != nullptr)
      tie_highs(*problem, bounds);
    all.push_back(std::move(bounds));
  }
  return all;
}

std::vector<std::string> bounds_lines(const std::vector<GroupBounds>& bounds) {
  std::vector<std::string> lines;
  for (const GroupBounds& group : bounds) {
    std::string line = "bounds: group " + group.group + " (" + std::to_string(group.tests) +
                       (group.tests == 1 ? " test)" : " tests)");
    const char* separator = ": ";
    for (const ParameterBounds& parameter : group.parameters) {
      line += separator + parameter.parameter + " " + range_text(parameter.low, parameter.high) +
              limit_text(parameter);
      separator = ", ";
    }
    if (group.parameters.empty())
      line += ": no values";
    lines.push_back(std::move(line));
  }
  return lines;
}

std::vector<std::string> bounds_warnings(const std::vector<GroupBounds>& bounds) {
  std::vector<std::string> lines;
  for (const GroupBounds& group : bounds) {
    if (group.group == "sample")
      continue;  // the statement's examples are small on purpose
    for (const ParameterBounds& parameter : group.parameters) {
      if (parameter.low_reached() && parameter.high_reached())
        continue;
      // The ends no test reaches, as a setter would write the missing tests' values.
      std::vector<std::string> missing;
      if (!parameter.low_reached())
        missing.push_back(parameter.parameter + " = " + std::to_string(*parameter.limit_low));
      if (!parameter.high_reached()) {
        missing.push_back(
            parameter.parameter + " = " +
            std::to_string(std::min(*parameter.limit_high,
                                    parameter.tied_high.value_or(*parameter.limit_high))));
      }
      std::string line = "group " + group.group + ": " + parameter.parameter + " reaches " +
                         std::to_string(parameter.low) + ".." + std::to_string(parameter.high) +
                         limit_text(parameter) + "; no test has " + missing.front();
      if (missing.size() == 2)
        line += " or " + missing.back();
      lines.push_back(std::move(line));
    }
  }
  return lines;
}

nlohmann::json bounds_json(const std::vector<GroupBounds>& bounds) {
  nlohmann::json all = nlohmann::json::array();
  for (const GroupBounds& group : bounds) {
    nlohmann::json parameters = nlohmann::json::array();
    for (const ParameterBounds& parameter : group.parameters) {
      const auto optional = [](const std::optional<std::int64_t>& value) {
        return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
      };
      parameters.push_back({{"parameter", parameter.parameter},
                            {"min", parameter.low},
                            {"max", parameter.high},
                            {"limit_min", optional(parameter.limit_low)},
                            {"limit_max", optional(parameter.limit_high)},
                            {"tied_max", optional(parameter.tied_high)},
                            {"limit_owner", parameter.limit_owner},
                            {"min_reached", parameter.low_reached()},
                            {"max_reached", parameter.high_reached()}});
    }
    all.push_back({{"group", group.group},
                   {"tests", group.tests},
                   {"unread", group.unread},
                   {"parameters", parameters}});
  }
  return all;
}

}  // namespace gamebatch::pipeline
