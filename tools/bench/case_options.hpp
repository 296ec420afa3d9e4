// Command-line helpers shared by the make_*_case programs (CLI11 options named by enum values).
#pragma once

#include <cctype>
#include <iterator>
#include <map>
#include <string>

namespace gamebatch::bench {

// Name -> value over every value in `all`, named by the game's own to_string (found by argument-
// dependent lookup), so new shapes and patterns show up in the options by themselves. The options
// take names mapped afterwards because CLI11 2.1 cannot bind these enums directly (their
// to_string overloads confuse its default-value printing).
template <typename Values>
auto enum_names(const Values& all) {
  using Enum = std::iter_value_t<decltype(std::begin(all))>;
  std::map<std::string, Enum> names;
  for (const Enum value : all)
    names.emplace(std::string(to_string(value)), value);
  return names;
}

// A CLI11 transform: option names are matched case-insensitively.
inline std::string to_lower(std::string text) {
  for (auto& c : text)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace gamebatch::bench
