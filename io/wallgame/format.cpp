#include "io/wallgame/format.hpp"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <stdexcept>
#include <utility>

#include "io/input_error.hpp"

namespace gamebatch::io::wallgame {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// Shows a token in a message without flooding the terminal.
std::string quote(std::string_view token) {
  constexpr std::size_t kShown = 24;
  std::string shown(token.substr(0, kShown));
  for (char& c : shown) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
      c = '?';
  }
  return "'" + shown + (token.size() > kShown ? "...'" : "'");
}

// Whitespace-separated tokens with line numbers, like io::TokenScanner (same messages for
// integers), plus rows of digits: a row is one token, checked and converted in one pass, where
// TokenScanner only reads integers.
class BoardScanner {
 public:
  explicit BoardScanner(std::string_view text) : text_(text) {}

  // The next token as an integer in [min, max]; `describe` builds what was expected only when
  // the message is needed.
  template <typename Describe>
  std::int64_t read_int(Describe&& describe, std::int64_t min, std::int64_t max) {
    const std::string_view token = next_token();
    const char* first = token.data();
    const char* last = token.data() + token.size();
    if (first != last && *first == '+')
      ++first;  // from_chars refuses a plus sign
    std::int64_t value = 0;
    const auto [stop, error] = std::from_chars(first, last, value);
    if (first != last && error == std::errc() && stop == last && value >= min && value <= max) {
      position_ += token.size();
      return value;
    }
    const std::string expected = "expected " + describe() + " (an integer from " +
                                 std::to_string(min) + " to " + std::to_string(max) + ")";
    if (token.empty())
      throw InputError(line(), expected + ", found end of file");
    if (error == std::errc::result_out_of_range)
      throw InputError(line(), expected + ", found " + quote(token) + ", which is out of range");
    if (first == last || error != std::errc() || stop != last)
      throw InputError(line(), expected + ", found " + quote(token));
    throw InputError(line(), expected + ", found " + std::to_string(value));
  }

  // The next token as a row of exactly `width` digits, appended to `costs` as 0..9.
  template <typename Describe>
  void read_row(Describe&& describe, std::size_t width, std::vector<std::uint8_t>& costs) {
    const std::string_view token = next_token();
    bool all_digits = token.size() == width;
    for (std::size_t i = 0; all_digits && i < width; ++i) {
      all_digits = static_cast<unsigned char>(token[i] - '0') <= 9;
    }
    if (all_digits) {
      for (const char c : token)
        costs.push_back(static_cast<std::uint8_t>(c - '0'));
      position_ += token.size();
      return;
    }
    const std::string expected =
        "expected " + describe() + " (" + std::to_string(width) + " digits 0-9)";
    if (token.empty())
      throw InputError(line(), expected + ", found end of file");
    if (token.size() != width) {
      throw InputError(line(), expected + ", found " + quote(token) + " (" +
                                   std::to_string(token.size()) +
                                   (token.size() == 1 ? " character)" : " characters)"));
    }
    const auto bad = std::find_if(token.begin(), token.end(),
                                  [](char c) { return static_cast<unsigned char>(c - '0') > 9; });
    throw InputError(line(), expected + ", found " + quote(token) + " (" +
                                 quote(std::string_view(&*bad, 1)) + " at column " +
                                 std::to_string(bad - token.begin() + 1) + " is not a digit)");
  }

  bool at_end() {
    skip_whitespace();
    return position_ == text_.size();
  }

  void expect_end(const std::string& after) {
    const std::string_view token = next_token();
    if (!token.empty()) {
      throw InputError(line(), "expected end of file after " + after + ", found " + quote(token));
    }
  }

  std::size_t remaining_bytes() const { return text_.size() - position_; }

  // Line of the next token, or of the end of the file: a file ending in a newline ends on the
  // line before the empty one after it.
  std::size_t line() {
    skip_whitespace();
    if (position_ == text_.size() && line_ > 1 && !text_.empty() && text_.back() == '\n')
      return line_ - 1;
    return line_;
  }

 private:
  void skip_whitespace() {
    while (position_ < text_.size() && is_space(text_[position_])) {
      if (text_[position_] == '\n')
        ++line_;
      ++position_;
    }
  }

  // The token at the read position after whitespace (empty at the end of the file); not consumed.
  std::string_view next_token() {
    skip_whitespace();
    std::size_t end = position_;
    while (end < text_.size() && !is_space(text_[end]))
      ++end;
    return text_.substr(position_, end - position_);
  }

  std::string_view text_;
  std::size_t position_ = 0;
  std::size_t line_ = 1;
};

Board parse_case(BoardScanner& scanner, std::int64_t case_number) {
  auto of_case = [case_number] { return " of case " + std::to_string(case_number); };
  const std::size_t line_of_size = scanner.line();
  const std::int64_t height =
      scanner.read_int([&] { return "the number of rows h" + of_case(); }, kMinHeight, kMaxHeight);
  const std::int64_t width =
      scanner.read_int([&] { return "the number of columns w" + of_case(); }, kMinWidth, kMaxWidth);
  Board board;
  board.height = static_cast<std::int32_t>(height);
  board.width = static_cast<std::int32_t>(width);
  // Memory follows the rows actually present, never the declared size: a row of w digits takes
  // more than w bytes of the file.
  board.costs.reserve(
      std::min(static_cast<std::size_t>(height * width), scanner.remaining_bytes()));
  try {
    for (std::int64_t row = 1; row <= height; ++row) {
      scanner.read_row([&] { return "row " + std::to_string(row) + of_case(); },
                       static_cast<std::size_t>(width), board.costs);
    }
  } catch (const InputError& error) {
    if (!scanner.at_end())
      throw;
    // A file that ends inside a case: truncated, or its h is more than the file holds.
    throw InputError(error.line(), std::string(error.what()) + " (case " +
                                       std::to_string(case_number) +
                                       " declares h = " + std::to_string(height) + " on line " +
                                       std::to_string(line_of_size) + ")");
  }
  return board;
}

}  // namespace

std::vector<Board> parse_file(std::string_view text) {
  BoardScanner scanner(text);
  const std::int64_t case_count =
      scanner.read_int([] { return std::string("the number of cases T"); }, 1, kMaxCases);
  std::vector<Board> boards;
  for (std::int64_t case_number = 1; case_number <= case_count; ++case_number) {
    boards.push_back(parse_case(scanner, case_number));
  }
  scanner.expect_end("case " + std::to_string(case_count) + " (T = " + std::to_string(case_count) +
                     ")");
  return boards;
}

std::string format_case(const Board& board) {
  if (const std::string problem = gamebatch::wallgame::check_board(board); !problem.empty()) {
    throw std::invalid_argument("wallgame::format_case: invalid board: " + problem);
  }
  const auto width = static_cast<std::size_t>(board.width);
  std::string text = std::to_string(board.height) + " " + std::to_string(board.width) + "\n";
  text.reserve(text.size() + board.costs.size() + static_cast<std::size_t>(board.height));
  for (std::size_t start = 0; start < board.costs.size(); start += width) {
    for (std::size_t column = 0; column < width; ++column)
      text += static_cast<char>('0' + board.costs[start + column]);
    text += '\n';
  }
  return text;
}

std::string format_file(const std::vector<Board>& boards) {
  std::string text = std::to_string(boards.size()) + "\n";
  for (const Board& board : boards)
    text += format_case(board);
  return text;
}

}  // namespace gamebatch::io::wallgame
