// Reads whitespace-separated integers and tokens from a file's text, keeping track of lines for
// messages.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "io/format/official_limits.hpp"

namespace gamebatch::io {

// Shows a token in a message without flooding the terminal: quoted, at most 24 characters, bytes
// other than printable ASCII as \xNN and the first of them named ("'1\x00' (a NUL byte)",
// "'\x1b[2J' (byte 0x1b)"); a leading UTF-8 byte-order mark is named as such ("a UTF-8
// byte-order mark before '1'").
// `name_odd_byte` false: without the name, for a message that names the byte itself.
std::string quote_token(std::string_view token, bool name_odd_byte = true);

// One character for a message: "a NUL byte", "byte 0x1b" (any other byte that is not printable
// ASCII) or the character quoted ("'x'").
std::string describe_character(char c);

// A whitespace-separated token and the line it stands on.
struct Token {
  std::string_view text;
  std::size_t line = 0;
};

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
    return read_int(describe, min, max, [] { return std::string(); });
  }

  // The same, with end_of_file_note() added when the file ends here. Inside a case it says where
  // the case declared how much follows: "..., found end of file (case 2 declares N = 5 on line 3)".
  template <std::invocable Describe, std::invocable Note>
  std::int64_t read_int(Describe&& describe, std::int64_t min, std::int64_t max,
                        Note&& end_of_file_note) {
    std::int64_t value = 0;
    if (try_read_int(min, max, value))
      return value;
    throw_bad_int(describe(), min, max, end_of_file_note());
  }

  // The next token, whatever it holds, for formats whose tokens are not integers (rows of a
  // board). Throws InputError "expected <describe()>, found end of file<end_of_file_note()>" when
  // none is left.
  template <std::invocable Describe, std::invocable Note>
  Token read_token(Describe&& describe, Note&& end_of_file_note) {
    const Token token = next_token();
    if (token.text.empty())
      throw_end_of_file("expected " + describe(), end_of_file_note());
    return token;
  }

  template <std::invocable Describe>
  Token read_token(Describe&& describe) {
    return read_token(describe, [] { return std::string(); });
  }

  // True when the last token read is followed by a space or tab rather than a line end.
  bool blank_follows() const {
    return position_ < text_.size() && (text_[position_] == ' ' || text_[position_] == '\t');
  }

  // True when only whitespace is left.
  bool at_end();

  // Throws InputError when anything but whitespace follows; `after` names what came last.
  void expect_end(const std::string& after);

  // Bytes not yet consumed: an upper bound on what the rest of the file can still declare.
  std::size_t remaining_bytes() const { return text_.size() - position_; }

  // Line of the next token (or of the end of the file).
  std::size_t line();

  // Line of the token read last; valid until the next read or line().
  std::size_t last_token_line() const { return line_; }

 private:
  void skip_whitespace();
  // The token after the whitespace at the read position (empty at the end); not consumed.
  std::string_view peek_token();
  // Consumes and returns the next token (empty text at the end of the file).
  Token next_token();
  [[noreturn]] void throw_end_of_file(const std::string& expected, const std::string& note);
  // Reads the next token into `value` if it is an integer in [min, max]; else consumes nothing.
  bool try_read_int(std::int64_t min, std::int64_t max, std::int64_t& value);
  [[noreturn]] void throw_bad_int(const std::string& what, std::int64_t min, std::int64_t max,
                                  const std::string& end_of_file_note);

  std::string_view text_;
  std::size_t position_ = 0;
  std::size_t line_ = 1;
};

// The layout the games' files share: the number of cases T (1 to max_cases), T cases each read
// by parse_case(scanner, case_number), then nothing but whitespace. With `official`, a T above
// official_max_cases (the statement's limit; 0: none) is noted there, and T is checked
// against the narrower limits `official` holds.
template <typename ParseCase>
auto read_cases(std::string_view text, std::int64_t max_cases, ParseCase&& parse_case,
                OfficialLimitCheck* official = nullptr, std::int64_t official_max_cases = 0) {
  TokenScanner scanner(text);
  const std::int64_t case_count = scanner.read_int("the number of cases T", 1, max_cases);
  if (official != nullptr) {  // also without a statement limit: a group may narrow T
    official->require(scanner.last_token_line(), case_count, 1,
                      official_max_cases != 0 ? official_max_cases : max_cases, "T",
                      [] { return std::string("the number of cases T"); });
  }
  std::vector<std::invoke_result_t<ParseCase&, TokenScanner&, std::int64_t>> cases;
  for (std::int64_t case_number = 1; case_number <= case_count; ++case_number)
    cases.push_back(parse_case(scanner, case_number));
  scanner.expect_end("case " + std::to_string(case_count) + " (T = " + std::to_string(case_count) +
                     ")");
  return cases;
}

}  // namespace gamebatch::io
