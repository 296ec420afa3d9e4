// Reads whitespace-separated integers from a file's text, keeping track of lines for messages.
#pragma once

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
  std::int64_t read_int(const std::string& what, std::int64_t min, std::int64_t max);

  // Throws InputError when anything but whitespace follows; `after` names what came last.
  void expect_end(const std::string& after);

  // Bytes not yet consumed: an upper bound on what the rest of the file can still declare.
  std::size_t remaining_bytes() const { return text_.size() - position_; }

  // Line of the next token (or of the end of the file).
  std::size_t line();

 private:
  void skip_whitespace();

  std::string_view text_;
  std::size_t position_ = 0;
  std::size_t line_ = 1;
};

}  // namespace gamebatch::io
