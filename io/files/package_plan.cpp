#include "io/files/package_plan.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include <toml++/toml.h>

#include "io/files/content_hash.hpp"
#include "io/files/generate.hpp"
#include "io/files/input_set.hpp"
#include "io/problem.hpp"

namespace gamebatch::io {
namespace fs = std::filesystem;

std::string_view entry_kind_name(PlanEntry::Kind kind) {
  switch (kind) {
    case PlanEntry::Kind::copy:
      return "copy";
    case PlanEntry::Kind::gen:
      return "gen";
    case PlanEntry::Kind::run:
      return "run";
  }
  return "gen";
}

namespace {

template <std::size_t N>
std::string joined(const std::array<std::string_view, N>& names) {
  std::string text;
  for (const std::string_view name : names)
    text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

bool valid_group_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

// Reads one parsed plan; every failure throws a UsageError naming the file, the line and the key.
class PlanReader {
 public:
  explicit PlanReader(const fs::path& file) : file_(file.string()) {}

  PackagePlan read(const toml::table& root) {
    PackagePlan plan;
    reject_unknown_keys(root, std::array<std::string_view, 4>{"game", "seed", "layout", "group"});
    const toml::node* game = root.get("game");
    if (game == nullptr)
      fail(root.source(), "the key 'game' is required (the game of the package)");
    if (!game->is_string() || find_problem(game->as_string()->get()) == nullptr) {
      std::string games;
      for (const Problem* problem : all_problems())
        games += (games.empty() ? "" : ", ") + std::string(problem->name());
      fail(game->source(), "'game' must be one of " + games);
    }
    plan.game = game->as_string()->get();
    problem_ = find_problem(plan.game);
    if (const toml::node* seed = root.get("seed")) {
      const auto* value = seed->as_integer();
      if (value == nullptr || value->get() < 0)
        fail(seed->source(), "'seed' must be an integer from 0 to 2^63 - 1");
      plan.seed = static_cast<std::uint64_t>(value->get());
    }
    if (const toml::node* layout = root.get("layout")) {
      std::optional<Layout> parsed;
      if (const auto* name = layout->as_string())
        parsed = parse_layout(name->get());
      if (!parsed || *parsed == Layout::polygon)
        fail(layout->source(), "'layout' must be \"kattis\" or \"cms\"");
      plan.layout = *parsed;
    }
    const toml::node* groups = root.get("group");
    if (groups == nullptr)
      fail(root.source(), "the plan has no [[group]]");
    const toml::array* tables = groups->as_array();
    if (tables == nullptr || !tables->is_array_of_tables())
      fail(groups->source(), "'group' must be [[group]] tables");
    for (const toml::node& table : *tables)
      plan.groups.push_back(read_group(*table.as_table(), plan));
    return plan;
  }

 private:
  [[noreturn]] void fail(const toml::source_region& where, std::string_view what) const {
    std::string message = file_;
    if (where.begin.line > 0)
      message += ":" + std::to_string(where.begin.line);
    message += ": " + context_ + std::string(what);
    throw UsageError(message);
  }

  template <std::size_t N>
  void reject_unknown_keys(const toml::table& table, const std::array<std::string_view, N>& known) {
    for (const auto& [key, value] : table) {
      if (std::find(known.begin(), known.end(), key.str()) == known.end())
        fail(key.source(),
             "unknown key '" + std::string(key.str()) + "' (expected " + joined(known) + ")");
    }
  }

  ParameterRange read_limit(const toml::key& key, const toml::node& value) const {
    const std::vector<std::string_view> parameters = problem_->parameters();
    if (std::find(parameters.begin(), parameters.end(), key.str()) == parameters.end()) {
      std::string names;
      for (const std::string_view name : parameters)
        names += (names.empty() ? "" : ", ") + std::string(name);
      fail(key.source(), "unknown parameter '" + std::string(key.str()) + "' of " +
                             std::string(problem_->name()) + " (its parameters: " + names + ")");
    }
    std::optional<IntRange> range;
    if (const auto* number = value.as_integer())
      range = IntRange{number->get(), number->get()};
    else if (const auto* text = value.as_string())
      range = parse_int_range(text->get());
    if (!range || range->min > range->max)
      fail(value.source(), "the limit of '" + std::string(key.str()) +
                               "' must be a number or \"A..B\" with A <= B");
    return {std::string(key.str()), range->min, range->max};
  }

  PlanEntry read_entry(const toml::table& table, std::size_t number) {
    reject_unknown_keys(table, std::array<std::string_view, 4>{"copy", "gen", "run", "count"});
    PlanEntry entry;
    entry.number = number;
    entry.line = table.source().begin.line;
    int kinds = 0;
    for (const PlanEntry::Kind kind :
         {PlanEntry::Kind::copy, PlanEntry::Kind::gen, PlanEntry::Kind::run}) {
      const toml::node* value = table.get(entry_kind_name(kind));
      if (value == nullptr)
        continue;
      ++kinds;
      if (!value->is_string() || value->as_string()->get().empty())
        fail(value->source(), std::string(entry_kind_name(kind)).append(" must be a text"));
      entry.kind = kind;
      entry.text = value->as_string()->get();
    }
    if (kinds != 1)
      fail(table.source(), "a [[group.test]] takes exactly one of 'copy', 'gen' and 'run'");
    if (const toml::node* count = table.get("count")) {
      const auto* value = count->as_integer();
      if (value == nullptr || value->get() < 1 || value->get() > 100'000)
        fail(count->source(), "'count' must be an integer from 1 to 100000");
      entry.count = value->get();
    }
    if (entry.kind == PlanEntry::Kind::copy) {
      const fs::path relative = fs::path(entry.text).lexically_normal();
      if (relative.is_absolute() || relative.empty() || *relative.begin() == "..")
        fail(table.source(), "'copy' must name a file inside the package");
      if (entry.count != 1)
        fail(table.source(), "a 'copy' entry makes one test ('count' must be 1)");
    }
    return entry;
  }

  PlanGroup read_group(const toml::table& table, const PackagePlan& plan) {
    context_.clear();
    reject_unknown_keys(
        table, std::array<std::string_view, 5>{"name", "score", "limits", "include", "test"});
    PlanGroup group;
    group.line = table.source().begin.line;
    const toml::node* name = table.get("name");
    if (name == nullptr || !name->is_string() || !valid_group_name(name->as_string()->get()))
      fail(name != nullptr ? name->source() : table.source(),
           "every [[group]] needs a 'name' of lower-case letters, digits, '_' and '-'");
    group.name = name->as_string()->get();
    for (const PlanGroup& earlier : plan.groups) {
      if (earlier.name == group.name)
        fail(name->source(), "a second group named '" + group.name + "'");
    }
    context_ = "group " + group.name + ": ";
    if (const toml::node* score = table.get("score")) {
      const std::optional<double> value = score->value<double>();
      if (!value || *value < 0)
        fail(score->source(), "'score' must be a number of points, at least 0");
      if (group.name == "sample" && *value != 0)
        fail(score->source(), "the sample group gives no points");
      group.score = *value;
    }
    if (const toml::node* limits = table.get("limits")) {
      const toml::table* entries = limits->as_table();
      if (entries == nullptr)
        fail(limits->source(), "'limits' must be a table such as { n = \"1..10\" }");
      for (const auto& [key, value] : *entries)
        group.limits.push_back(read_limit(key, value));
      // In the game's order of its parameters (a TOML table's keys come sorted).
      const std::vector<std::string_view> order = problem_->parameters();
      const auto rank = [&order](const ParameterRange& range) {
        return std::find(order.begin(), order.end(), range.parameter) - order.begin();
      };
      std::stable_sort(
          group.limits.begin(), group.limits.end(),
          [&](const ParameterRange& a, const ParameterRange& b) { return rank(a) < rank(b); });
    }
    if (const toml::node* include = table.get("include")) {
      const toml::array* names = include->as_array();
      if (names == nullptr)
        fail(include->source(), "'include' must be a list of earlier groups' names");
      for (const toml::node& item : *names) {
        const auto* text = item.as_string();
        const auto earlier =
            text == nullptr
                ? plan.groups.end()
                : std::find_if(plan.groups.begin(), plan.groups.end(),
                               [&](const PlanGroup& g) { return g.name == text->get(); });
        if (earlier == plan.groups.end())
          fail(item.source(), "'include' names no earlier group");
        group.include.push_back(static_cast<std::size_t>(earlier - plan.groups.begin()));
      }
    }
    if (const toml::node* tests = table.get("test")) {
      const toml::array* tables = tests->as_array();
      if (tables == nullptr || !tables->is_array_of_tables())
        fail(tests->source(), "'test' must be [[group.test]] tables");
      for (const toml::node& entry : *tables)
        group.tests.push_back(read_entry(*entry.as_table(), group.tests.size() + 1));
    }
    if (group.tests.empty() && group.include.empty())
      fail(table.source(), "the group has no tests: add [[group.test]] entries or 'include'");
    context_.clear();
    return group;
  }

  std::string file_;
  std::string context_;
  const Problem* problem_ = nullptr;
};

}  // namespace

PackagePlan read_package_plan(const fs::path& file) {
  std::string text;
  try {
    text = read_file(file);
  } catch (const std::exception& error) {
    throw UsageError(file.string() + ": cannot read the plan: " + error.what());
  }
  toml::table root;
  try {
    root = toml::parse(text, std::string_view(file.string()));
  } catch (const toml::parse_error& error) {
    throw UsageError(file.string() + ":" + std::to_string(error.source().begin.line) + ": " +
                     std::string(error.description()));
  }
  PackagePlan plan = PlanReader(file).read(root);
  plan.file = file;
  return plan;
}

std::vector<std::size_t> groups_holding(const PackagePlan& plan, std::size_t group) {
  std::vector<char> holds(plan.groups.size(), 0);
  holds[group] = 1;
  // Includes point backwards, so one pass in plan order closes them.
  for (std::size_t later = group + 1; later < plan.groups.size(); ++later) {
    for (const std::size_t included : plan.groups[later].include) {
      if (holds[included])
        holds[later] = 1;
    }
  }
  std::vector<std::size_t> holding;
  for (std::size_t k = 0; k < holds.size(); ++k) {
    if (holds[k])
      holding.push_back(k);
  }
  return holding;
}

std::vector<NarrowLimit> test_limits(const PackagePlan& plan, std::size_t group) {
  std::vector<NarrowLimit> limits;
  for (const std::size_t holder : groups_holding(plan, group)) {
    for (const ParameterRange& range : plan.groups[holder].limits)
      limits.push_back(
          {range.parameter, range.min, range.max, "group " + plan.groups[holder].name});
  }
  return limits;
}

std::uint64_t test_seed(const PackagePlan& plan, std::size_t group, std::size_t entry,
                        std::int64_t index) {
  return content_hash64({plan.seed, entry, static_cast<std::uint64_t>(index)},
                        {plan.groups[group].name});
}

}  // namespace gamebatch::io
