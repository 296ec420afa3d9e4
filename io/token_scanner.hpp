// Reads whitespace-separated integers from a file's text, keeping track of lines for messages.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gamebatch::io {

class TokenScanner {
 public:
  explicit TokenScanner(std::string_view text) : text_(text) {}

  // The next token as an integer in [min, max]. Throws InputError "expected <what> (an integer
  // from min to max), found ..." when it is missing, not an integer, or out of range.
  std::int64_t read_int(const std::string& what, std::int64_t min, std::int64_t max) {
    return read_int([&what] { return what; }, min, max);
  }

  // The same, with the description built only for the message: files hold millions of numbers.
  template <std::invocable Describe>
  std::int64_t read_int(Describe&& describe, std::int64_t min, std::int64_t max) {
    std::int64_t value = 0;
    if (try_read_int(min, max, value))
      return value;
    throw_bad_int(describe(), min, max);
  }

  // True when only whitespace is left.
  bool at_end();

  // Throws InputError when anything but whitespace follows; `after` names what came last.
  void expect_end(const std::string& after);

  // Bytes not yet consumed: an upper bound on what the rest of the file can still declare.
  std::size_t remaining_bytes() const { return text_.size() - position_; }

  // Line of the next token (or of the end of the file).
  std::size_t line();

 private:
  void skip_whitespace();
  // Reads the next token into `value` if it is an integer in [min, max]; else consumes nothing.
  bool try_read_int(std::int64_t min, std::int64_t max, std::int64_t& value);
  [[noreturn]] void throw_bad_int(const std::string& what, std::int64_t min, std::int64_t max);

  std::string_view text_;
  std::size_t position_ = 0;
  std::size_t line_ = 1;
};

}  // namespace gamebatch::io
