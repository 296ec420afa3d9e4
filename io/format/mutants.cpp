// make_mutants (io/format/strict_format.hpp): invalid inputs made from a valid one, one rule or one
// limit broken at a time. The valid text is strict, so it splits into lines and cases exactly;
// each mutant changes the first case (or the case count) and keeps everything else valid.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/format/strict_format.hpp"

namespace gamebatch::io {
namespace {

using Lines = std::vector<std::string>;

// A strict input: its first line (the case count) and its cases, each a list of lines.
struct SplitInput {
  std::int64_t count = 0;
  std::vector<Lines> cases;
};

Lines split_lines(std::string_view text) {
  Lines lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string join(const Lines& lines) {
  std::string text;
  for (const std::string& line : lines)
    text += line + "\n";
  return text;
}

std::int64_t number(const std::string& token) {
  return std::stoll(token);
}

// The first and second token of a line of two.
std::pair<std::int64_t, std::int64_t> two_numbers(const std::string& line) {
  const std::size_t space = line.find(' ');
  return {number(line.substr(0, space)), number(line.substr(space + 1))};
}

// How many lines a case has, from its first line.
std::size_t case_length(std::string_view game, const std::string& first_line) {
  if (game == "willow")
    return static_cast<std::size_t>(2 * number(first_line));
  if (game == "boigame")
    return static_cast<std::size_t>(number(first_line)) + 1;
  const auto [first, second] = two_numbers(first_line);  // doublemove: n k; wallgame: h w
  return static_cast<std::size_t>(game == "doublemove" ? second : first) + 1;
}

SplitInput split_input(std::string_view game, std::string_view text) {
  const Lines lines = split_lines(text);
  SplitInput input;
  input.count = number(lines.at(0));
  for (std::size_t at = 1; at < lines.size();) {
    const std::size_t length = case_length(game, lines[at]);
    input.cases.emplace_back(lines.begin() + static_cast<std::ptrdiff_t>(at),
                             lines.begin() + static_cast<std::ptrdiff_t>(at + length));
    at += length;
  }
  return input;
}

// The file of `cases` with the case count `count` (the cases repeated or cut to `count` when
// that is positive).
std::string file_of(std::int64_t count, const std::vector<Lines>& cases) {
  std::string text = std::to_string(count) + "\n";
  for (std::int64_t k = 0; k < count; ++k)
    text += join(cases[static_cast<std::size_t>(k) % cases.size()]);
  return text;
}

std::string with_first_case(const SplitInput& input, Lines first) {
  std::vector<Lines> cases = input.cases;
  cases.front() = std::move(first);
  return std::to_string(input.count) + "\n" + [&] {
    std::string text;
    for (const Lines& lines : cases)
      text += join(lines);
    return text;
  }();
}

// willow's first case with N = `cities` (coins copied from city 1, roads extended as a path, or
// the case cut to a path of its first cities).
Lines willow_with_cities(const Lines& lines, std::int64_t cities) {
  const auto old_cities = static_cast<std::size_t>(number(lines[0]));
  Lines result{std::to_string(cities)};
  if (cities <= 0)
    return result;
  const auto wanted = static_cast<std::size_t>(cities);
  for (std::size_t city = 0; city < wanted; ++city)
    result.push_back(lines[1 + std::min(city, old_cities - 1)]);
  for (std::size_t city = 1; city < wanted; ++city) {
    const bool keep = wanted > old_cities && city < old_cities;
    result.push_back(keep ? lines[old_cities + city] : std::to_string(city + 1));
  }
  return result;
}

// doublemove's first case with n = `n` (declared values cut to n, at most n + 1 of them) or with
// k = `k` declarations (more of "1 1", or fewer).
Lines doublemove_with(const Lines& lines, std::optional<std::int64_t> n,
                      std::optional<std::int64_t> k) {
  auto [old_n, old_k] = two_numbers(lines[0]);
  const std::int64_t new_n = n.value_or(old_n);
  std::int64_t new_k = k.value_or(std::min(old_k, std::max<std::int64_t>(new_n + 1, 0)));
  Lines result{std::to_string(new_n) + " " + std::to_string(new_k)};
  if (new_n <= 0 || new_k < 0)
    return result;
  for (std::int64_t j = 0; j < new_k; ++j) {
    if (j >= old_k) {
      result.emplace_back("1 1");
      continue;
    }
    const auto [a, b] = two_numbers(lines[static_cast<std::size_t>(j) + 1]);
    result.push_back(std::to_string(std::min(a, new_n)) + " " + std::to_string(std::min(b, new_n)));
  }
  return result;
}

// A board's first case (wallgame: "h w" and rows of digits; boigame: "n" and n rows) with `rows`
// rows of `width` squares: rows and squares copied, repeated or cut; `fill` pads.
Lines board_with(const Lines& lines, bool has_width_line, std::int64_t rows, std::int64_t width,
                 char fill) {
  Lines result{has_width_line ? std::to_string(rows) + " " + std::to_string(width)
                              : std::to_string(rows)};
  if (rows <= 0 || width <= 0)
    return result;
  const std::size_t old_rows = lines.size() - 1;
  for (std::size_t row = 0; row < static_cast<std::size_t>(rows); ++row) {
    std::string squares = row < old_rows ? lines[row + 1] : std::string();
    squares.resize(static_cast<std::size_t>(width), fill);
    result.push_back(squares);
  }
  return result;
}

// A boigame board of side n, every square white, A and B side by side in the first row.
Lines fresh_boigame_board(std::int64_t n) {
  Lines result{std::to_string(n)};
  for (std::int64_t row = 0; row < n; ++row)
    result.push_back(std::string(static_cast<std::size_t>(n), '.'));
  if (n >= 2)
    result[1].replace(0, 2, "AB");
  return result;
}

// The input with the limited `parameter` set to `value` in its first case (or as the count), or
// nullopt when the format cannot write it in a file of reasonable size. `largest_n`: the largest
// n the statement and the group allow (doublemove's k needs one).
std::optional<std::string> with_parameter(std::string_view game, const SplitInput& input,
                                          const std::string& parameter, std::int64_t value,
                                          std::int64_t largest_n) {
  constexpr std::int64_t kLargestWritten = 100'000;
  if (value > kLargestWritten)
    return std::nullopt;
  if (parameter == "T" || parameter == "t")
    return value <= 0 ? std::to_string(value) + "\n" : file_of(value, input.cases);
  const Lines& first = input.cases.front();
  if (game == "willow" && parameter == "N")
    return with_first_case(input, willow_with_cities(first, value));
  if (game == "willow" && parameter == "C") {
    Lines changed = first;
    changed[1] = std::to_string(value);
    return with_first_case(input, changed);
  }
  if (game == "doublemove" && parameter == "n")
    return with_first_case(input, doublemove_with(first, value, std::nullopt));
  if (game == "doublemove") {
    // k <= n + 1 is a rule of its own: a k the statement allows gets an n that allows it too.
    const std::int64_t n = two_numbers(first[0]).first;
    const bool raise_n = value > n + 1 && value <= 36;
    if (raise_n && value - 1 > largest_n)
      return std::nullopt;
    return with_first_case(input, doublemove_with(first, raise_n ? value - 1 : n, value));
  }
  if (game == "wallgame") {
    const auto [rows, width] = two_numbers(first[0]);
    if (parameter == "h")
      return with_first_case(input, board_with(first, true, value, width, '0'));
    return with_first_case(input, board_with(first, true, rows, value, '0'));
  }
  if (game == "boigame" && parameter == "n") {
    const std::int64_t old_n = number(first[0]);
    if (value > old_n)
      return with_first_case(input, board_with(first, false, value, value, '.'));
    return with_first_case(input,
                           value >= 2 ? fresh_boigame_board(value) : Lines{std::to_string(value)});
  }
  return std::nullopt;
}

// One mutant per end of each limited parameter's range, the statement's and the group's.
std::vector<Mutant> limit_mutants(std::string_view game, const SplitInput& input,
                                  const std::vector<NarrowLimit>& group_limits) {
  std::vector<Mutant> mutants;
  const std::map<std::string, gamebatch_strict::Range> ranges = statement_ranges(game);
  std::int64_t largest_n = ranges.count("n") != 0 ? ranges.at("n").max : 0;
  for (const NarrowLimit& limit : group_limits)
    largest_n = limit.parameter == "n" ? std::min(largest_n, limit.max) : largest_n;
  for (const auto& [parameter, statement] : ranges) {
    std::vector<std::pair<std::int64_t, std::string>> values = {
        {statement.min - 1, "the statement's min - 1"},
        {statement.max + 1, "the statement's max + 1"}};
    std::vector<std::int64_t> group_values;
    for (const NarrowLimit& limit : group_limits) {
      if (limit.parameter != parameter)
        continue;
      if (limit.min > statement.min)
        values.emplace_back(limit.min - 1, "the group's min - 1");
      if (limit.max < statement.max)
        values.emplace_back(limit.max + 1, "the group's max + 1");
    }
    for (const auto& [value, why] : values) {
      std::optional<std::string> text = with_parameter(game, input, parameter, value, largest_n);
      if (!text)
        continue;
      mutants.push_back({parameter, parameter + " = " + std::to_string(value) + " (" + why + ")",
                         std::move(*text), statement.holds(value)});
    }
  }
  return mutants;
}

// The format's rules, broken in the text itself.
std::vector<Mutant> format_mutants(std::string_view text, std::uint64_t seed) {
  const Lines lines = split_lines(text);
  // A line to break, chosen by the seed among the lines after the first.
  const std::size_t target = 1 + static_cast<std::size_t>(seed % (lines.size() - 1));
  const auto changed_line = [&](std::size_t at, const std::string& line) {
    Lines copy = lines;
    copy[at] = line;
    return join(copy);
  };
  const std::string& second = lines[1];  // the first case's first line: its first token a number
  const std::string first_token = second.substr(0, second.find(' '));
  const std::string after_first_token = second.substr(first_token.size());
  std::vector<Mutant> mutants = {
      {"LF line ends", "a CR before line " + std::to_string(target + 1) + "'s end",
       changed_line(target, lines[target] + "\r")},
      {"no trailing spaces", "a space at the end of line " + std::to_string(target + 1),
       changed_line(target, lines[target] + " ")},
      {"no leading spaces", "a space at the start of line 2", changed_line(1, " " + second)},
      {"no blank lines", "a blank line after line 1",
       lines[0] + "\n\n" + join(Lines(lines.begin() + 1, lines.end()))},
      {"final newline", "the last '\\n' removed", std::string(text.substr(0, text.size() - 1))},
      {"nothing after the last case", "a line \"1\" after the last case",
       std::string(text) + "1\n"},
      {"complete input", "the last line removed", join(Lines(lines.begin(), lines.end() - 1))},
      {"one line as the statement gives it", "lines 1 and 2 joined by a space",
       lines[0] + " " + join(Lines(lines.begin() + 1, lines.end()))},
      {"one line as the statement gives it", "a token \"1\" added to line 1",
       changed_line(0, lines[0] + " 1")},
      {"integer form", "a leading zero on line 2's first number", changed_line(1, "0" + second)},
      {"integer form", "a '+' on line 2's first number", changed_line(1, "+" + second)},
      {"integer form", "\"-0\" for line 2's first number",
       changed_line(1, "-0" + after_first_token)},
      {"integer", "a letter in line 2's first number",
       changed_line(1, first_token + "x" + after_first_token)},
  };
  if (after_first_token.size() > 1) {  // a line of two numbers: the space doubled, a line split
    mutants.push_back({"single spaces", "two spaces between line 2's numbers",
                       changed_line(1, first_token + " " + after_first_token)});
    mutants.push_back({"one line as the statement gives it", "line 2 split in two",
                       changed_line(1, first_token + "\n" + after_first_token.substr(1))});
  }
  return mutants;
}

// Each game's own rules: willow's roads, doublemove's declarations, the boards' rows.
std::vector<Mutant> game_rule_mutants(std::string_view game, const SplitInput& input,
                                      const std::vector<NarrowLimit>& group_limits) {
  std::vector<Mutant> mutants;
  const Lines& first = input.cases.front();
  const auto with = [&](Lines lines) { return with_first_case(input, std::move(lines)); };
  if (game == "willow") {
    const auto cities = static_cast<std::size_t>(number(first[0]));
    Lines changed = first;
    changed[cities + 1] = "1";  // j_1 = 1: a road from city 1 to itself, not to a city above it
    mutants.push_back({"i < j_i <= N", "j_1 = 1 (j_i <= i)", with(changed)});
    changed[cities + 1] = std::to_string(cities + 1);
    mutants.push_back({"i < j_i <= N", "j_1 = N + 1", with(changed)});
  } else if (game == "doublemove") {
    auto [n, k] = two_numbers(first[0]);
    std::int64_t k_max = 36;
    for (const NarrowLimit& limit : group_limits)
      k_max = limit.parameter == "k" ? std::min(k_max, limit.max) : k_max;
    Lines changed = k >= 1 ? first : doublemove_with(first, std::nullopt, 1);
    if (k >= 1 || k_max >= 1) {
      changed[1] = std::to_string(n + 1) + " 1";
      mutants.push_back({"1 <= a, b <= n", "a_1 = n + 1", with(changed)});
      changed[1] = "1 0";
      mutants.push_back({"1 <= a, b <= n", "b_1 = 0", with(changed)});
    }
    if (n + 2 <= k_max)
      mutants.push_back(
          {"k <= n + 1", "k = n + 2", with(doublemove_with(first, std::nullopt, n + 2))});
  } else if (game == "wallgame") {
    Lines changed = first;
    changed[1] += "0";
    mutants.push_back({"rows of w digits", "row 1 one digit too long", with(changed)});
    changed = first;
    changed[1][0] = 'x';
    mutants.push_back({"rows of w digits", "a letter in row 1", with(changed)});
  } else if (game == "boigame") {
    const auto n = static_cast<std::size_t>(number(first[0]));
    Lines changed = first;
    changed[1] += ".";
    mutants.push_back({"rows of n squares", "row 1 one square too long", with(changed)});
    changed = first;
    changed[1][0] = 'x';
    mutants.push_back({"squares . # A B", "an 'x' in row 1", with(changed)});
    changed = fresh_boigame_board(static_cast<std::int64_t>(n));
    changed[n].back() = 'A';
    mutants.push_back({"one A and one B", "a second A", with(changed)});
    changed = fresh_boigame_board(static_cast<std::int64_t>(n));
    changed[1].replace(0, 2, "A#");
    changed[2][0] = '#';
    changed[n].back() = 'B';
    mutants.push_back({"white path between A and B", "A walled in", with(changed)});
  }
  return mutants;
}

}  // namespace

std::vector<Mutant> make_mutants(std::string_view game, std::string_view valid_text,
                                 const std::vector<NarrowLimit>& group_limits, std::uint64_t seed) {
  if (const std::optional<StrictRejection> rejection =
          strict_check(game, valid_text, group_limits)) {
    throw std::invalid_argument("mutants are made from a valid input; this one is not: " +
                                describe(*rejection));
  }
  const SplitInput input = split_input(game, valid_text);
  std::vector<Mutant> mutants = format_mutants(valid_text, seed);
  for (Mutant& mutant : limit_mutants(game, input, group_limits))
    mutants.push_back(std::move(mutant));
  for (Mutant& mutant : game_rule_mutants(game, input, group_limits))
    mutants.push_back(std::move(mutant));
  return mutants;
}

}  // namespace gamebatch::io
