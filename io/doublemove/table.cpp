#include "io/doublemove/table.hpp"

#include <stdexcept>

#include "core/doublemove/state_table.hpp"

namespace gamebatch::io::doublemove {
namespace {

namespace game = gamebatch::doublemove;
using game::Value;

constexpr std::string_view kWhat =
    "doublemove answers for k = 0 (no declarations given): the number of Claire's 2^(n+1) pick "
    "sequences that Alice wins when both players declare optimally";

std::string hex64(std::uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text = "0x";
  for (int shift = 60; shift >= 0; shift -= 4)
    text += kDigits[(value >> shift) & 0xf];
  return text;
}

std::string cpp_header(const std::vector<Value>& answers, std::string_view version) {
  const std::size_t max_n = answers.size();
  // 64 bits hold every answer below 2^64, i.e. n <= 63.
  const bool narrow = max_n <= 63;
  std::string text;
  text += "// doublemove answers for k = 0 (no declarations given), indexed by n = 1.." +
          std::to_string(max_n) + " (entry 0 is\n";
  text += "// unused): the number of Claire's 2^(n+1) pick sequences that Alice wins when both\n";
  text += "// players declare optimally.\n";
  text += "// Made by gamebatch " + std::string(version) + ": gamebatch table doublemove --max-n " +
          std::to_string(max_n) + " --format cpp\n";
  text +=
      "#ifndef GAMEBATCH_DOUBLEMOVE_K0_ANSWERS_H\n#define GAMEBATCH_DOUBLEMOVE_K0_ANSWERS_H\n\n";
  text += "#include <cstdint>\n\n";
  if (narrow) {
    text += "inline constexpr std::uint64_t kDoublemoveK0Answers[" + std::to_string(max_n + 1) +
            "] = {\n";
    text += "    0,  // unused\n";
    for (std::size_t n = 1; n <= max_n; ++n) {
      text += "    " + game::to_decimal(answers[n - 1]) + "u,  // n = " + std::to_string(n) + "\n";
    }
  } else {
    text += "// Answers of n >= 64 exceed 64 bits: each is high * 2^64 + low.\n";
    text += "struct DoublemoveAnswer {\n  std::uint64_t high;\n  std::uint64_t low;\n};\n\n";
    text += "inline constexpr DoublemoveAnswer kDoublemoveK0Answers[" + std::to_string(max_n + 1) +
            "] = {\n";
    text += "    {0, 0},  // unused\n";
    for (std::size_t n = 1; n <= max_n; ++n) {
      const Value answer = answers[n - 1];
      text += "    {" + hex64(static_cast<std::uint64_t>(answer >> 64)) + "u, " +
              hex64(static_cast<std::uint64_t>(answer)) + "u},  // n = " + std::to_string(n) +
              ": " + game::to_decimal(answer) + "\n";
    }
  }
  text += "};\n\n#endif  // GAMEBATCH_DOUBLEMOVE_K0_ANSWERS_H\n";
  return text;
}

std::string json_text(const std::vector<Value>& answers, std::string_view version) {
  std::string text = "{\n";
  text += "  \"game\": \"doublemove\",\n";
  text += "  \"what\": \"" + std::string(kWhat) + "\",\n";
  text += "  \"generator\": \"gamebatch " + std::string(version) + "\",\n";
  text += "  \"answers\": [";
  for (std::size_t n = 1; n <= answers.size(); ++n) {
    text += n == 1 ? "\n" : ",\n";
    text += "    {\"n\": " + std::to_string(n) +
            ", \"answer\": " + game::to_decimal(answers[n - 1]) + "}";
  }
  text += "\n  ]\n}\n";
  return text;
}

std::string csv_text(const std::vector<Value>& answers) {
  std::string text = "n,answer\n";
  for (std::size_t n = 1; n <= answers.size(); ++n)
    text += std::to_string(n) + "," + game::to_decimal(answers[n - 1]) + "\n";
  return text;
}

// Versions go into comments and JSON strings: keep them to characters that are harmless there.
void check_version(std::string_view version) {
  for (const char c : version) {
    const bool plain = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       c == '.' || c == '-' || c == '+' || c == '_';
    if (!plain)
      throw std::invalid_argument("doublemove table: unexpected character in the version string");
  }
}

}  // namespace

std::optional<TableFormat> parse_table_format(std::string_view name) {
  if (name == "cpp")
    return TableFormat::cpp;
  if (name == "json")
    return TableFormat::json;
  if (name == "csv")
    return TableFormat::csv;
  return std::nullopt;
}

std::vector<Value> k0_answers(int max_n) {
  if (max_n < 1 || max_n > game::kMaxN) {
    throw std::invalid_argument("doublemove table: --max-n must be from 1 to " +
                                std::to_string(game::kMaxN) + " (the largest supported n), got " +
                                std::to_string(max_n));
  }
  std::vector<Value> answers;
  std::vector<std::shared_ptr<const game::StateTable>> held(static_cast<std::size_t>(max_n) + 1);
  for (const auto& table : game::default_store().tables()) {
    if (table->n() <= max_n)
      held[static_cast<std::size_t>(table->n())] = table;
  }
  for (int n = 1; n <= max_n; ++n) {
    const auto& known = held[static_cast<std::size_t>(n)];
    answers.push_back(known ? known->initial_value() : game::StateTable::build(n)->initial_value());
  }
  return answers;
}

std::string format_k0_table(const std::vector<Value>& answers, TableFormat format,
                            std::string_view gamebatch_version) {
  if (answers.empty())
    throw std::invalid_argument("doublemove table: no answers");
  check_version(gamebatch_version);
  switch (format) {
    case TableFormat::cpp:
      return cpp_header(answers, gamebatch_version);
    case TableFormat::json:
      return json_text(answers, gamebatch_version);
    case TableFormat::csv:
      return csv_text(answers);
  }
  throw std::invalid_argument("doublemove table: unknown format");
}

std::string k0_table(int max_n, TableFormat format, std::string_view gamebatch_version) {
  check_version(gamebatch_version);
  return format_k0_table(k0_answers(max_n), format, gamebatch_version);
}

}  // namespace gamebatch::io::doublemove
