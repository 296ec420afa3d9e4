#include "io/format/token_scanner.hpp"

#include <algorithm>
#include <charconv>

#include "io/format/input_error.hpp"

namespace gamebatch::io {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

bool is_printable_ascii(char c) {
  return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f;
}

std::string hex_byte(char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto byte = static_cast<unsigned char>(c);
  return {kHex[byte >> 4], kHex[byte & 0xf]};
}

}  // namespace

std::string describe_character(char c) {
  if (c == '\0')
    return "a NUL byte";
  if (!is_printable_ascii(c))
    return "byte 0x" + hex_byte(c);
  return std::string("'") + c + "'";
}

std::string quote_token(std::string_view token, bool name_odd_byte) {
  // Editors on Windows start a file with one; shown as bytes it reads as noise ('\xef\xbb\xbf1').
  constexpr std::string_view kByteOrderMark = "\xef\xbb\xbf";
  if (token.starts_with(kByteOrderMark)) {
    const std::string_view rest = token.substr(kByteOrderMark.size());
    return "a UTF-8 byte-order mark" +
           (rest.empty() ? "" : " before " + quote_token(rest, name_odd_byte));
  }
  constexpr std::size_t kShown = 24;
  std::string shown = "'";
  for (const char c : token.substr(0, kShown))
    shown += is_printable_ascii(c) ? std::string(1, c) : "\\x" + hex_byte(c);
  shown += token.size() > kShown ? "...'" : "'";
  const auto odd = std::find_if_not(token.begin(), token.end(), is_printable_ascii);
  if (name_odd_byte && odd != token.end())
    shown += " (" + describe_character(*odd) + ")";
  return shown;
}

void TokenScanner::skip_whitespace() {
  while (position_ < text_.size() && is_space(text_[position_])) {
    if (text_[position_] == '\n')
      ++line_;
    ++position_;
  }
}

std::size_t TokenScanner::line() {
  skip_whitespace();
  // A file ending in a newline ends on the line before the empty one after it.
  if (position_ == text_.size() && line_ > 1 && !text_.empty() && text_.back() == '\n') {
    return line_ - 1;
  }
  return line_;
}

std::string_view TokenScanner::peek_token() {
  skip_whitespace();
  std::size_t end = position_;
  while (end < text_.size() && !is_space(text_[end]))
    ++end;
  return text_.substr(position_, end - position_);
}

Token TokenScanner::next_token() {
  const std::string_view text = peek_token();
  const Token token{text, line()};
  position_ += text.size();
  return token;
}

void TokenScanner::throw_end_of_file(const std::string& expected, const std::string& note) {
  throw InputError(line(), expected + ", found end of file" + note);
}

bool TokenScanner::at_end() {
  skip_whitespace();
  return position_ == text_.size();
}

bool TokenScanner::try_read_int(std::int64_t min, std::int64_t max, std::int64_t& value) {
  const std::string_view token = peek_token();
  const char* first = token.data();
  const char* last = token.data() + token.size();
  if (first != last && *first == '+')
    ++first;  // from_chars refuses a plus sign
  const auto [stop, error] = std::from_chars(first, last, value);
  if (first == last || error != std::errc() || stop != last || value < min || value > max) {
    return false;
  }
  position_ += token.size();
  return true;
}

void TokenScanner::throw_bad_int(const std::string& what, std::int64_t min, std::int64_t max,
                                 const std::string& end_of_file_note) {
  const std::string expected = "expected " + what + " (an integer from " + std::to_string(min) +
                               " to " + std::to_string(max) + ")";
  const std::string_view token = peek_token();
  if (token.empty())
    throw_end_of_file(expected, end_of_file_note);
  std::int64_t value = 0;
  const char* first = token.data();
  if (!token.empty() && token.front() == '+')
    ++first;
  const auto [stop, error] = std::from_chars(first, token.data() + token.size(), value);
  if (error == std::errc::result_out_of_range) {
    throw InputError(line_, expected + ", found " + quote_token(token) + ", which is out of range");
  }
  if (error != std::errc() || stop != token.data() + token.size() || first == stop) {
    throw InputError(line_, expected + ", found " + quote_token(token));
  }
  throw InputError(line_, expected + ", found " + std::to_string(value));
}

void TokenScanner::expect_end(const std::string& after) {
  const std::string_view token = peek_token();
  if (token.empty())
    return;
  throw InputError(line_, "expected end of file after " + after + ", found " + quote_token(token));
}

}  // namespace gamebatch::io
