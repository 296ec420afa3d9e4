// Helpers shared by the games' format tests: every rejection must name the line and what was
// expected there, so the tests look at the InputError a parser throws.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "io/format/input_error.hpp"

namespace gamebatch::testing {

// The line and message of the InputError that parsing a text throws.
struct Rejection {
  std::size_t line = 0;
  std::string message;
};

// What `parse(text)` throws; a test failure (and an empty Rejection) when it accepts the text.
// `parse` is a format's parse_file.
template <typename Parse>
Rejection rejection_of(const Parse& parse, const std::string& text) {
  try {
    parse(text);
  } catch (const io::InputError& error) {
    return {error.line(), error.what()};
  }
  ADD_FAILURE() << "accepted:\n" << text;
  return {};
}

inline bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// Expects `parse(text)` to be rejected on `line` with a message containing each of `parts`.
template <typename Parse>
void expect_rejected(const Parse& parse, const std::string& text, std::size_t line,
                     std::initializer_list<std::string_view> parts) {
  const Rejection rejection = rejection_of(parse, text);
  EXPECT_EQ(rejection.line, line) << rejection.message;
  for (const std::string_view part : parts) {
    EXPECT_TRUE(contains(rejection.message, part))
        << "message: " << rejection.message << "\nexpected to contain: " << part;
  }
}

template <typename Parse>
void expect_rejected(const Parse& parse, const std::string& text, std::size_t line,
                     std::string_view part) {
  expect_rejected(parse, text, line, {part});
}

}  // namespace gamebatch::testing
