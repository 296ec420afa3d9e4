#include "io/boigame/format.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <oneapi/tbb/parallel_for.h>

#include "io/format/input_error.hpp"
#include "io/format/token_scanner.hpp"

namespace gamebatch::io::boigame {
namespace {

using gamebatch::boigame::kMaxBoardSize;
using gamebatch::boigame::Square;

// Any count of tests works (memory follows the tests present); this only keeps t in 32 bits.
constexpr std::int64_t kMaxTests = 1'000'000'000;

std::string plural(std::size_t count, const char* noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string place(std::int32_t row, std::int32_t column) {
  return "row " + std::to_string(row + 1) + ", column " + std::to_string(column + 1);
}

enum class Symbol : std::uint8_t { white, black, a, b, invalid };

constexpr std::array<Symbol, 256> symbol_table() {
  std::array<Symbol, 256> table{};
  table.fill(Symbol::invalid);
  table[static_cast<unsigned char>('.')] = Symbol::white;
  table[static_cast<unsigned char>('#')] = Symbol::black;
  table[static_cast<unsigned char>('A')] = Symbol::a;
  table[static_cast<unsigned char>('B')] = Symbol::b;
  return table;
}
constexpr std::array<Symbol, 256> kSymbols = symbol_table();

// Where a start square was found, for messages.
struct Found {
  bool found = false;
  std::int32_t row = 0;
  std::int32_t column = 0;
};

// A parsed test and where it starts, for the path check that runs after the whole file is read.
struct ParsedTest {
  Board board;
  std::size_t line_of_n = 0;
};

// One test; with `official`, a size above the statement's limit is noted there.
ParsedTest parse_test(TokenScanner& scanner, std::int64_t test, OfficialLimitCheck* official) {
  const std::string of_test = " of test " + std::to_string(test);
  const std::size_t line_of_n = scanner.line();
  auto describe_n = [&] { return "the board size n" + of_test; };
  const std::int64_t declared = scanner.read_int(describe_n, 2, kMaxBoardSize);
  if (official != nullptr)
    official->require(line_of_n, declared, 2, kOfficialMaxSize, "n", describe_n);
  const auto n = static_cast<std::int32_t>(declared);

  Board board;
  board.n = n;
  // Memory follows the rows actually present, never the declared n: the words grow row by row.
  board.white.reserve(
      std::min(gamebatch::boigame::white_words(n), scanner.remaining_bytes() / 64 + 1));
  Found a;
  Found b;
  std::size_t line = line_of_n;
  auto row_name = [&](std::int32_t row) { return "row " + std::to_string(row + 1) + of_test; };
  // A file that ends inside a test: truncated, or its n is more than the file holds.
  auto declared_n = [&] {
    return " (test " + std::to_string(test) + " declares n = " + std::to_string(n) + " on line " +
           std::to_string(line_of_n) + ")";
  };
  for (std::int32_t row = 0; row < n; ++row) {
    const Token token = scanner.read_token(
        [&] { return row_name(row) + " (" + std::to_string(n) + " characters from . # A B)"; },
        declared_n);
    const std::string_view text = token.text;
    line = token.line;
    if (text.size() != static_cast<std::size_t>(n)) {
      const bool split_by_blank =
          text.size() < static_cast<std::size_t>(n) && scanner.blank_follows();
      throw InputError(line, row_name(row) + " has " + plural(text.size(), "character") +
                                 ", expected " + std::to_string(n) +
                                 (split_by_blank ? " (a row holds no spaces)" : ""));
    }
    auto square = static_cast<std::size_t>(board.square(row, 0));
    board.white.resize((square + static_cast<std::size_t>(n) + 63) / 64, 0);
    std::uint64_t* words = board.white.data();
    for (std::int32_t column = 0; column < n; ++column, ++square) {
      const char c = text[static_cast<std::size_t>(column)];
      const Symbol symbol = kSymbols[static_cast<unsigned char>(c)];
      if (symbol > Symbol::black) {  // rare: a start square or a bad character
        if (symbol == Symbol::invalid) {
          throw InputError(line, row_name(row) + ", column " + std::to_string(column + 1) +
                                     ": expected one of '.', '#', 'A', 'B', found " +
                                     describe_character(c));
        }
        Found& start = symbol == Symbol::a ? a : b;
        if (start.found) {
          throw InputError(line, std::string("expected exactly one ") +
                                     (symbol == Symbol::a ? "'A'" : "'B'") + " in test " +
                                     std::to_string(test) + ", found a second one in " +
                                     place(row, column) + " (the first is in " +
                                     place(start.row, start.column) + ")");
        }
        start = {true, row, column};
      }
      words[square / 64] |= std::uint64_t{symbol != Symbol::black} << (square % 64);
    }
  }
  for (const auto& [start, piece] : {std::pair{a, "'A'"}, std::pair{b, "'B'"}}) {
    if (!start.found) {
      throw InputError(line, std::string("expected exactly one ") + piece + " in test " +
                                 std::to_string(test) + ", found none");
    }
  }
  board.a = board.square(a.row, a.column);
  board.b = board.square(b.row, b.column);
  return {std::move(board), line_of_n};
}

// Throws for the first test (in file order) whose A and B no white path joins. The searches are
// independent, so they run in parallel; the message does not depend on the schedule.
void check_paths(const std::vector<ParsedTest>& tests) {
  std::vector<char> joined(tests.size(), 1);
  tbb::parallel_for(std::size_t{0}, tests.size(), [&](std::size_t k) {
    joined[k] = gamebatch::boigame::has_white_path(tests[k].board) ? 1 : 0;
  });
  for (std::size_t k = 0; k < tests.size(); ++k) {
    if (joined[k])
      continue;
    const Board& board = tests[k].board;
    throw InputError(tests[k].line_of_n,
                     "expected a path of white squares between A (" +
                         place(board.a / board.n, board.a % board.n) + ") and B (" +
                         place(board.b / board.n, board.b % board.n) + ") in test " +
                         std::to_string(k + 1) + " (the statement promises one), found none");
  }
}

// The whole file; with `official`, every place outside the statement's limits is noted there.
std::vector<Board> parse_boards(std::string_view text, OfficialLimitCheck* official) {
  TokenScanner scanner(text);
  std::vector<ParsedTest> tests;
  try {
    auto describe_t = [] { return std::string("the number of tests t"); };
    const std::int64_t test_count = scanner.read_int(describe_t, 1, kMaxTests);
    if (official != nullptr)
      official->require(scanner.last_token_line(), test_count, 1, kOfficialMaxTests, "t",
                        describe_t);
    for (std::int64_t test = 1; test <= test_count; ++test)
      tests.push_back(parse_test(scanner, test, official));
    scanner.expect_end("test " + std::to_string(test_count) +
                       " (t = " + std::to_string(test_count) + ")");
  } catch (const InputError&) {
    check_paths(tests);  // a test without a path before the bad text is the first error
    throw;
  }
  check_paths(tests);
  std::vector<Board> boards;
  boards.reserve(tests.size());
  for (ParsedTest& test : tests)
    boards.push_back(std::move(test.board));
  return boards;
}

}  // namespace

std::vector<Board> parse_file(std::string_view text) {
  return parse_boards(text, nullptr);
}

void check_limits(std::string_view text, OfficialLimitCheck& official) {
  parse_boards(text, &official);
}

OfficialLimitReport check_official_limits(std::string_view text) {
  OfficialLimitCheck official;
  check_limits(text, official);
  return OfficialLimitReport::of(official);
}

std::string format_board(const Board& board) {
  // The structure only: the path check is a search, and canonical() runs on every parsed case.
  const std::int32_t n = board.n;
  const bool well_formed = n >= 2 && n <= kMaxBoardSize &&
                           board.white.size() == gamebatch::boigame::white_words(n) &&
                           board.a >= 0 && board.a < board.square_count() && board.b >= 0 &&
                           board.b < board.square_count() && board.a != board.b;
  if (!well_formed)
    throw std::invalid_argument("boigame::format_board: not a board with two start squares");
  std::string text = std::to_string(n) + "\n";
  text.reserve(text.size() + static_cast<std::size_t>(n) * static_cast<std::size_t>(n + 1));
  for (std::int32_t row = 0; row < n; ++row) {
    for (std::int32_t column = 0; column < n; ++column) {
      const Square square = board.square(row, column);
      if (square == board.a) {
        text += 'A';
      } else if (square == board.b) {
        text += 'B';
      } else {
        text += board.is_white(square) ? '.' : '#';
      }
    }
    text += '\n';
  }
  return text;
}

std::string format_file(const std::vector<Board>& boards) {
  std::string text = std::to_string(boards.size()) + "\n";
  for (const Board& board : boards)
    text += format_board(board);
  return text;
}

}  // namespace gamebatch::io::boigame
