// The strict reader: a game's input read exactly as its statement writes it, byte by byte, the
// way judges' validators (checktestdata, testlib) read it. Standard library only: this header and
// the games' io/GAME/strict.hpp are compiled into gamebatch (`validate`,
// io/format/strict_format.hpp) and printed, unchanged, as the standalone validator of `gamebatch
// validator` (io/format/strict_format.cpp pastes them together), so the two accept exactly the same
// files.
//
// The rules (each rejection names one, with its line and column):
//   tokens of a line are separated by exactly one space; no space at a line's start or end;
//   lines end with '\n' alone (no CR); no blank line; the file ends with one '\n' after the last
//   line and nothing else; integers are written without '+', without leading zeros, and "-0" is
//   not an integer; each token stands on the line the statement puts it; each limited parameter
//   lies within the statement's range and the group's (Limits), each other value within the
//   range its rule gives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace gamebatch_strict {

// Where an input breaks a rule: 1-based line and column (bytes), the rule's short name and what
// was expected and found.
struct Rejection {
  std::size_t line = 0;
  std::size_t column = 0;
  std::string rule;
  std::string message;
};

// The parts joined: names of values are built this way, as "n" + text trips GCC 12's -Wrestrict.
inline std::string joined(std::initializer_list<std::string_view> parts) {
  std::string text;
  for (const std::string_view part : parts)
    text.append(part);
  return text;
}

// "line 3, column 1: no leading spaces: expected N of case 1, found a space".
inline std::string describe(const Rejection& rejection) {
  return "line " + std::to_string(rejection.line) + ", column " + std::to_string(rejection.column) +
         ": " + rejection.rule + ": " + rejection.message;
}

// What a reader throws; the game's validate() lets it through to strict_validate().
struct Rejected {
  Rejection rejection;
};

// A closed range of integers.
struct Range {
  std::int64_t min = 0;
  std::int64_t max = 0;
  bool holds(std::int64_t value) const { return min <= value && value <= max; }
};

inline std::string show(const Range& range) {
  return std::to_string(range.min) + ".." + std::to_string(range.max);
}

// The limits in force on each parameter: the statement's, narrowed by a group's (the validator's
// `--P MIN..MAX` arguments), and the smallest and largest value each parameter reached.
class Limits {
 public:
  void set_statement(const std::string& parameter, std::int64_t min, std::int64_t max) {
    statement_[parameter] = {min, max};
  }
  // Narrows `parameter` to min..max (within what earlier calls left: a test of a group that
  // another group includes meets both groups' limits); `owner` names who sets it in messages
  // ("group small"; empty: the validator's arguments). False when the game has no such parameter.
  bool narrow(const std::string& parameter, std::int64_t min, std::int64_t max,
              const std::string& owner = "") {
    if (statement_.count(parameter) == 0)
      return false;
    const auto [entry, added] = group_.try_emplace(parameter, GroupRange{{min, max}, owner, owner});
    GroupRange& group = entry->second;
    if (!added && min > group.range.min) {
      group.range.min = min;
      group.min_owner = owner;
    }
    if (!added && max < group.range.max) {
      group.range.max = max;
      group.max_owner = owner;
    }
    return true;
  }
  bool knows(const std::string& parameter) const { return statement_.count(parameter) != 0; }
  // Every limited parameter with the statement's range, by name.
  const std::map<std::string, Range>& statement_ranges() const { return statement_; }
  std::optional<Range> statement(const std::string& parameter) const {
    const auto found = statement_.find(parameter);
    return found == statement_.end() ? std::nullopt : std::optional<Range>(found->second);
  }
  std::optional<Range> group(const std::string& parameter) const {
    const auto found = group_.find(parameter);
    return found == group_.end() ? std::nullopt : std::optional<Range>(found->second.range);
  }
  // Who allows no less than the group's min (`below`) or no more than its max, for messages:
  // "group small allows 1..8", or "this group allows 1..8 (--n 1..8)" for the arguments.
  std::string who_allows(const std::string& parameter, bool below) const {
    const GroupRange& group = group_.at(parameter);
    const std::string& owner = below ? group.min_owner : group.max_owner;
    if (!owner.empty())
      return owner + " allows " + show(group.range);
    return "this group allows " + show(group.range) + " (--" + parameter + " " + show(group.range) +
           ")";
  }
  void observe(const std::string& parameter, std::int64_t value) {
    const auto [entry, added] = observed_.try_emplace(parameter, value, value);
    if (!added) {
      entry->second.first = value < entry->second.first ? value : entry->second.first;
      entry->second.second = value > entry->second.second ? value : entry->second.second;
    }
  }
  const std::map<std::string, std::pair<std::int64_t, std::int64_t>>& observed() const {
    return observed_;
  }

 private:
  struct GroupRange {
    Range range;
    std::string min_owner;
    std::string max_owner;
  };
  std::map<std::string, Range> statement_;
  std::map<std::string, GroupRange> group_;
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> observed_;
};

// A byte for a message: "a space", "a tab", "a CR", "'x'", "byte 0x1b".
inline std::string describe_byte(char c) {
  switch (c) {
    case ' ':
      return "a space";
    case '\t':
      return "a tab";
    case '\r':
      return "a CR (a Windows line end?)";
    case '\n':
      return "the line's end";
    case '\0':
      return "a NUL byte";
    default:
      break;
  }
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x21 && byte < 0x7f)
    return std::string("'") + c + "'";
  const char* digits = "0123456789abcdef";
  return std::string("byte 0x") + digits[byte >> 4] + digits[byte & 15];
}

// A token for a message: quoted, at most 24 characters, odd bytes as \xNN.
inline std::string describe_token(std::string_view token) {
  std::string text = "'";
  const char* digits = "0123456789abcdef";
  for (std::size_t i = 0; i < token.size() && i < 24; ++i) {
    const auto byte = static_cast<unsigned char>(token[i]);
    if (byte >= 0x20 && byte < 0x7f) {
      text += token[i];
    } else {
      text += "\\x";
      text += digits[byte >> 4];
      text += digits[byte & 15];
    }
  }
  return text + (token.size() > 24 ? "...'" : "'");
}

class StrictReader {
 public:
  explicit StrictReader(std::string_view text) : text_(text) {}

  // The next token of the current line as an integer in the parameter's range (the statement's
  // and the group's); rejected with the parameter's name as the rule when outside it.
  std::int64_t read_limited(const std::string& what, const std::string& parameter, Limits& limits) {
    const std::int64_t value = read_integer(what, parameter);
    const std::size_t line = line_;
    const std::size_t column = token_column_;
    limits.observe(parameter, value);
    const std::optional<Range> statement = limits.statement(parameter);
    const std::optional<Range> group = limits.group(parameter);
    if (statement && !statement->holds(value)) {
      throw Rejected{
          {line, column, parameter,
           what + " is " + std::to_string(value) + "; the statement allows " + show(*statement)}};
    }
    if (group && !group->holds(value)) {
      throw Rejected{{line, column, parameter,
                      what + " is " + std::to_string(value) + "; " +
                          limits.who_allows(parameter, value < group->min)}};
    }
    return value;
  }

  // The next token of the current line as an integer in `range`, the rule `rule` (a structural
  // one, as j_i's "i < j_i <= N") naming a value outside it.
  std::int64_t read_in_range(const std::string& what, const std::string& rule, Range range) {
    const std::int64_t value = read_integer(what, rule);
    if (!range.holds(value)) {
      throw Rejected{
          {line_, token_column_, rule,
           "expected " + what + " in " + show(range) + ", found " + std::to_string(value)}};
    }
    return value;
  }

  // The next token of the current line, whatever its bytes (a row of a board).
  std::string_view read_word(const std::string& what) {
    start_token(what);
    const std::size_t begin = position_;
    token_column_ = begin - line_start_ + 1;
    while (position_ < text_.size() && !is_separator(text_[position_]))
      ++position_;
    return text_.substr(begin, position_ - begin);
  }

  // The current line ends here: a '\n' follows the last token.
  void end_line(const std::string& after) {
    if (position_ < text_.size() && text_[position_] == '\n') {
      ++position_;
      ++line_;
      line_start_ = position_;
      at_line_start_ = true;
      return;
    }
    if (position_ == text_.size())
      reject("final newline", "expected a '\\n' after " + after + ", found the end of the file");
    const char c = text_[position_];
    if (c == '\r')
      reject("LF line ends", "expected '\\n' after " + after + ", found a CR ('\\r\\n' line end)");
    if (rest_of_line_is_blank())
      reject("no trailing spaces", "expected the line's end after " + after + ", found " +
                                       describe_byte(c) + " before it");
    std::size_t next = position_;
    while (next < text_.size() && (text_[next] == ' ' || text_[next] == '\t'))
      ++next;
    std::size_t end = next;
    while (end < text_.size() && !is_separator(text_[end]))
      ++end;
    reject("one line as the statement gives it",
           "expected the line's end after " + after + ", found another token " +
               describe_token(text_.substr(next, end - next)) + " on the same line");
  }

  // The file ends here, after the last line's '\n'.
  void end_file(const std::string& after) {
    if (position_ == text_.size())
      return;
    if (text_[position_] == '\n')
      reject("no blank lines",
             "expected the end of the file after " + after + ", found a blank line");
    std::size_t end = position_;
    while (end < text_.size() && !is_separator(text_[end]))
      ++end;
    const std::string_view token = text_.substr(position_, end - position_);
    reject("nothing after the last case",
           "expected the end of the file after " + after + ", found " +
               (token.empty() ? describe_byte(text_[position_]) : describe_token(token)));
  }

  // Rejects at the read position.
  [[noreturn]] void reject(const std::string& rule, const std::string& message) const {
    throw Rejected{{line_, position_ - line_start_ + 1, rule, message}};
  }
  // Rejects at `column` of the current line (1-based), for a fault inside a token just read.
  [[noreturn]] void reject_at_column(std::size_t column, const std::string& rule,
                                     const std::string& message) const {
    throw Rejected{{line_, column, rule, message}};
  }
  // Column (1-based) where the token read last began.
  std::size_t token_column() const { return token_column_; }
  std::size_t line() const { return line_; }

 private:
  static bool is_separator(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

  bool rest_of_line_is_blank() const {
    std::size_t next = position_;
    while (next < text_.size() && (text_[next] == ' ' || text_[next] == '\t'))
      ++next;
    return next == text_.size() || text_[next] == '\n' || text_[next] == '\r';
  }

  // Moves to the first byte of the next token of the line: at a line's start the token begins
  // there; after a token, exactly one space separates them.
  void start_token(const std::string& what) {
    if (position_ == text_.size()) {
      const std::string message = "expected " + what + ", found the end of the file";
      // A file ending in a newline ends on its last line, after its last byte (as solve's
      // messages say it), not on the empty line after it.
      if (at_line_start_ && line_ > 1) {
        const std::size_t newline = position_ - 1;
        const std::size_t before =
            newline == 0 ? std::string_view::npos : text_.rfind('\n', newline - 1);
        const std::size_t last_start = before == std::string_view::npos ? 0 : before + 1;
        throw Rejected{{line_ - 1, newline - last_start + 1, "complete input", message}};
      }
      reject("complete input", message);
    }
    const char c = text_[position_];
    if (at_line_start_) {
      at_line_start_ = false;
      if (c == '\n')
        reject("no blank lines", "expected " + what + ", found a blank line");
      if (c == '\r')
        reject("LF line ends", "expected " + what + ", found a CR ('\\r\\n' line end)");
      if (c == ' ' || c == '\t')
        reject("no leading spaces",
               "expected " + what + " at the line's start, found " + describe_byte(c));
      return;
    }
    if (c == '\n' || c == '\r' || (c != ' ' && c != '\t'))
      reject("one line as the statement gives it",
             "expected " + what + " on the same line, found " + describe_byte(c));
    if (c == '\t')
      reject("single spaces", "expected one space before " + what + ", found a tab");
    if (rest_of_line_is_blank())
      reject("no trailing spaces",
             "expected " + what + " after the space, found the line's end (a trailing space)");
    ++position_;
    if (text_[position_] == ' ' || text_[position_] == '\t')
      reject("single spaces", "expected one space before " + what + ", found more");
  }

  // The next token as an integer written the one way: -?(0|[1-9][0-9]*), no "-0", in 64 bits.
  // `rule` names a value too large for 64 bits (it is outside every range).
  std::int64_t read_integer(const std::string& what, const std::string& rule) {
    const std::string_view token = read_word(what);
    const auto reject_here = [&](const std::string& token_rule, const std::string& why) {
      throw Rejected{{line_, token_column_, token_rule,
                      "expected " + what + " (an integer), found " + describe_token(token) + why}};
    };
    std::size_t digits_from = 0;
    if (!token.empty() && token[0] == '+')
      reject_here("integer form", " (no '+' sign)");
    if (!token.empty() && token[0] == '-')
      digits_from = 1;
    if (digits_from == token.size())
      reject_here("integer", "");
    for (std::size_t i = digits_from; i < token.size(); ++i) {
      if (token[i] < '0' || token[i] > '9')
        reject_here("integer", " (" + describe_byte(token[i]) + " is not a digit)");
    }
    if (token[digits_from] == '0' && token.size() > digits_from + 1)
      reject_here("integer form", " (a leading zero)");
    if (digits_from == 1 && token == "-0")
      reject_here("integer form", " (-0)");
    std::uint64_t magnitude = 0;
    constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;  // |INT64_MIN|
    for (std::size_t i = digits_from; i < token.size(); ++i) {
      const auto digit = static_cast<std::uint64_t>(token[i] - '0');
      if (magnitude > (kLimit - digit) / 10)
        reject_here(rule, " (too large for any limit)");
      magnitude = magnitude * 10 + digit;
    }
    if (digits_from == 0 && magnitude == kLimit)
      reject_here(rule, " (too large for any limit)");
    return digits_from == 1 ? static_cast<std::int64_t>(0 - magnitude)
                            : static_cast<std::int64_t>(magnitude);
  }

  std::string_view text_;
  std::size_t position_ = 0;
  std::size_t line_ = 1;
  std::size_t line_start_ = 0;
  bool at_line_start_ = true;
  std::size_t token_column_ = 1;
};

// Runs a game's validate(reader, limits) on `text`: nullopt when the text is valid, else where
// and why not.
template <typename Validate>
std::optional<Rejection> strict_validate(std::string_view text, Limits& limits,
                                         Validate&& validate) {
  StrictReader reader(text);
  try {
    validate(reader, limits);
  } catch (const Rejected& rejected) {
    return rejected.rejection;
  }
  return std::nullopt;
}

}  // namespace gamebatch_strict
