#include "io/format/strict_format.hpp"

#include <stdexcept>

#include "io/boigame/strict.hpp"
#include "io/doublemove/strict.hpp"
#include "io/wallgame/strict.hpp"
#include "io/willow/strict.hpp"

namespace gamebatch::io {

// The texts of the validator's parts (generated from validator_sources.cpp.in).
std::string_view validator_part(std::string_view part);

namespace {

// A game's strict format: its statement's limits and its validate().
struct StrictFormat {
  std::string_view game;
  gamebatch_strict::Limits (*statement_limits)();
  void (*validate)(gamebatch_strict::StrictReader&, gamebatch_strict::Limits&);
};

constexpr StrictFormat kFormats[] = {
    {"willow", gamebatch_strict::willow::statement_limits, gamebatch_strict::willow::validate},
    {"doublemove", gamebatch_strict::doublemove::statement_limits,
     gamebatch_strict::doublemove::validate},
    {"wallgame", gamebatch_strict::wallgame::statement_limits,
     gamebatch_strict::wallgame::validate},
    {"boigame", gamebatch_strict::boigame::statement_limits, gamebatch_strict::boigame::validate},
};

const StrictFormat& format_of(std::string_view game) {
  for (const StrictFormat& format : kFormats) {
    if (format.game == game)
      return format;
  }
  throw std::invalid_argument("no strict format for the game '" + std::string(game) + "'");
}

// The statement's limits of `game` narrowed by `limits`.
gamebatch_strict::Limits limits_of(const StrictFormat& format,
                                   const std::vector<NarrowLimit>& limits) {
  gamebatch_strict::Limits in_force = format.statement_limits();
  for (const NarrowLimit& limit : limits) {
    if (!in_force.narrow(limit.parameter, limit.min, limit.max, limit.owner)) {
      throw std::invalid_argument(std::string(format.game) + " has no limited parameter '" +
                                  limit.parameter + "'");
    }
  }
  return in_force;
}

// A header's text as a part of the one-file program: without `#pragma once` and its includes of
// gamebatch headers (their texts come before it).
std::string pasted(std::string_view header) {
  std::string text;
  std::size_t start = 0;
  while (start < header.size()) {
    std::size_t end = header.find('\n', start);
    end = end == std::string_view::npos ? header.size() : end + 1;
    const std::string_view line = header.substr(start, end - start);
    if (line.rfind("#pragma once", 0) != 0 && line.rfind("#include \"", 0) != 0)
      text += line;
    start = end;
  }
  return text;
}

std::string replaced(std::string text, std::string_view placeholder, const std::string& value) {
  for (std::size_t at = text.find(placeholder); at != std::string::npos;
       at = text.find(placeholder, at + value.size())) {
    text.replace(at, placeholder.size(), value);
  }
  return text;
}

}  // namespace

bool has_strict_format(std::string_view game) {
  for (const StrictFormat& format : kFormats) {
    if (format.game == game)
      return true;
  }
  return false;
}

std::map<std::string, gamebatch_strict::Range> statement_ranges(std::string_view game) {
  const StrictFormat& format = format_of(game);
  const gamebatch_strict::Limits limits = format.statement_limits();
  std::map<std::string, gamebatch_strict::Range> ranges;
  for (const std::string parameter : {"T", "t", "N", "C", "n", "k", "h", "w"}) {
    if (const auto range = limits.statement(parameter))
      ranges.emplace(parameter, *range);
  }
  return ranges;
}

std::optional<StrictRejection> strict_check(std::string_view game, std::string_view text,
                                            const std::vector<NarrowLimit>& limits,
                                            ObservedRanges* observed) {
  const StrictFormat& format = format_of(game);
  gamebatch_strict::Limits in_force = limits_of(format, limits);
  std::optional<StrictRejection> rejection =
      gamebatch_strict::strict_validate(text, in_force, format.validate);
  if (observed != nullptr)
    *observed = in_force.observed();
  return rejection;
}

std::vector<std::string> validator_arguments(const std::vector<NarrowLimit>& limits) {
  std::vector<std::string> arguments;
  for (const NarrowLimit& limit : limits) {
    arguments.push_back("--" + limit.parameter);
    arguments.push_back(std::to_string(limit.min) + ".." + std::to_string(limit.max));
  }
  return arguments;
}

std::string validator_source(std::string_view game, const std::vector<NarrowLimit>& limits) {
  const StrictFormat& format = format_of(game);
  limits_of(format, limits);  // throws for a parameter the game does not have
  std::string defaults;
  for (const std::string& argument : validator_arguments(limits))
    defaults += (defaults.empty() ? "\"" : ", \"") + argument + "\"";
  std::string header = "// The input validator of " + std::string(game) +
                       ", written by `gamebatch validator " + std::string(game) + "`";
  header += limits.empty() ? ".\n" : " with the defaults " + defaults + ".\n";
  header +=
      "// Build: g++ -std=c++17 -O2 -o validate validate.cpp. Run: ./validate [--PARAM "
      "MIN..MAX]... "
      "< input\n// Exit 42: valid; 43: not valid (line, column, rule and message on stderr); 2: "
      "bad arguments.\n";
  std::string main_part =
      replaced(std::string(validator_part("main")), "%GAME%", std::string(game));
  main_part = replaced(std::move(main_part), "%DEFAULTS%", defaults);
  return header + pasted(validator_part("strict_reader")) + pasted(validator_part(game)) +
         main_part;
}

}  // namespace gamebatch::io
