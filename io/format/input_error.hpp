// The error a parser throws for a rejected input: where it is and what was expected there.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace gamebatch::io {

class InputError : public std::runtime_error {
 public:
  InputError(std::size_t line, const std::string& message)
      : std::runtime_error(message), line_(line) {}

  // 1-based line of the offending text (the last line when the file ended too early).
  std::size_t line() const { return line_; }

 private:
  std::size_t line_;
};

}  // namespace gamebatch::io
