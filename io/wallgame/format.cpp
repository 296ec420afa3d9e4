#include "io/wallgame/format.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <utility>

#include "io/format/input_error.hpp"
#include "io/format/token_scanner.hpp"

namespace gamebatch::io::wallgame {
namespace {

// A token that should be a row of exactly `width` digits, appended to `costs` as 0..9: checked
// and converted in one pass. `describe` builds what was expected only for the message.
template <typename Describe>
void append_row(const Token& token, std::size_t width, const Describe& describe,
                std::vector<std::uint8_t>& costs) {
  const std::string_view row = token.text;
  bool all_digits = row.size() == width;
  for (std::size_t i = 0; all_digits && i < width; ++i) {
    all_digits = static_cast<unsigned char>(row[i] - '0') <= 9;
  }
  if (all_digits) {
    for (const char c : row)
      costs.push_back(static_cast<std::uint8_t>(c - '0'));
    return;
  }
  // A wrong character is named below, with its column.
  const bool wrong_length = row.size() != width;
  const std::string found = "expected " + describe() + ", found " + quote_token(row, wrong_length);
  if (wrong_length) {
    throw InputError(token.line, found + " (" + std::to_string(row.size()) +
                                     (row.size() == 1 ? " character)" : " characters)"));
  }
  const auto bad = std::find_if(row.begin(), row.end(),
                                [](char c) { return static_cast<unsigned char>(c - '0') > 9; });
  throw InputError(token.line, found + " (" + describe_character(*bad) + " at column " +
                                   std::to_string(bad - row.begin() + 1) + " is not a digit)");
}

// One case; with `official`, a size outside the original's limits is noted there.
Board parse_case(TokenScanner& scanner, std::int64_t case_number, OfficialLimitCheck* official) {
  auto of_case = [case_number] { return " of case " + std::to_string(case_number); };
  const std::size_t line_of_size = scanner.line();
  auto describe_height = [&] { return "the number of rows h" + of_case(); };
  auto describe_width = [&] { return "the number of columns w" + of_case(); };
  const std::int64_t height = scanner.read_int(describe_height, kMinHeight, kMaxHeight);
  if (official != nullptr) {
    official->require(scanner.last_token_line(), height, kOfficialMinHeight, kOfficialMaxHeight,
                      "h", describe_height);
  }
  const std::int64_t width = scanner.read_int(describe_width, kMinWidth, kMaxWidth);
  if (official != nullptr) {
    official->require(scanner.last_token_line(), width, kOfficialMinWidth, kOfficialMaxWidth, "w",
                      describe_width);
  }
  Board board;
  board.height = static_cast<std::int32_t>(height);
  board.width = static_cast<std::int32_t>(width);
  // Memory follows the rows actually present, never the declared size: a row of w digits takes
  // more than w bytes of the file.
  board.costs.reserve(
      std::min(static_cast<std::size_t>(height * width), scanner.remaining_bytes()));
  // A file that ends inside a case: truncated, or its h is more than the file holds.
  auto declared_height = [&] {
    return " (case " + std::to_string(case_number) + " declares h = " + std::to_string(height) +
           " on line " + std::to_string(line_of_size) + ")";
  };
  for (std::int64_t row = 1; row <= height; ++row) {
    auto describe_row = [&] {
      return "row " + std::to_string(row) + of_case() + " (" + std::to_string(width) +
             " digits 0-9)";
    };
    append_row(scanner.read_token(describe_row, declared_height), static_cast<std::size_t>(width),
               describe_row, board.costs);
  }
  return board;
}

}  // namespace

std::vector<Board> parse_file(std::string_view text) {
  return read_cases(text, kMaxCases, [](TokenScanner& scanner, std::int64_t case_number) {
    return parse_case(scanner, case_number, nullptr);
  });
}

void check_limits(std::string_view text, OfficialLimitCheck& official) {
  read_cases(
      text, kMaxCases,
      [&official](TokenScanner& scanner, std::int64_t case_number) {
        return parse_case(scanner, case_number, &official);
      },
      &official);
}

OfficialLimitReport check_official_limits(std::string_view text) {
  OfficialLimitCheck official;
  check_limits(text, official);
  return OfficialLimitReport::of(official);
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
