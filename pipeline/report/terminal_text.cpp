#include "pipeline/report/terminal_text.hpp"

#include <cstddef>

namespace gamebatch::pipeline {
namespace {

// The length of the well-formed, harmless UTF-8 sequence at text[at] (1 for a safe ASCII byte),
// or 0 where the byte must be escaped.
std::size_t safe_sequence_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[at + k]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80)
    return (lead >= 0x20 && lead != 0x7f) || lead == '\n' || lead == '\t' ? 1 : 0;
  std::size_t length = 0;
  char32_t code = 0;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
    code = lead & 0x1f;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    code = lead & 0x0f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;  // a continuation byte alone, an overlong lead (C0, C1) or past U+10FFFF
  }
  if (at + length > text.size())
    return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(k) & 0xc0) != 0x80)
      return 0;
    code = (code << 6) | (byte(k) & 0x3f);
  }
  const bool overlong = (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
  const bool surrogate = code >= 0xd800 && code <= 0xdfff;
  const bool c1_control = code >= 0x80 && code <= 0x9f;  // 0x9b is CSI on some terminals
  if (overlong || surrogate || c1_control || code > 0x10ffff)
    return 0;
  return length;
}

// A printable ASCII byte, a newline or a tab: nearly every byte of the texts printed, told here
// inline before the general decoder (explain's text of a 50 x 50 wallgame board is 190 kB).
bool plain_ascii(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return (byte >= 0x20 && byte < 0x7f) || byte == '\n' || byte == '\t';
}

}  // namespace

bool is_terminal_safe(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    if (plain_ascii(text[at])) {
      ++at;
      continue;
    }
    const std::size_t length = safe_sequence_length(text, at);
    if (length == 0)
      return false;
    at += length;
  }
  return true;
}

std::string terminal_safe(std::string_view text) {
  if (is_terminal_safe(text))
    return std::string(text);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string safe;
  safe.reserve(text.size() + 16);
  for (std::size_t at = 0; at < text.size();) {
    if (const std::size_t length = safe_sequence_length(text, at); length > 0) {
      safe.append(text.substr(at, length));
      at += length;
      continue;
    }
    const auto byte = static_cast<unsigned char>(text[at++]);
    safe += "\\x";
    safe += kHex[byte >> 4];
    safe += kHex[byte & 0xf];
  }
  return safe;
}

void write_terminal_safe(std::FILE* out, std::string_view text) {
  if (is_terminal_safe(text)) {
    std::fwrite(text.data(), 1, text.size(), out);
    return;
  }
  const std::string safe = terminal_safe(text);
  std::fwrite(safe.data(), 1, safe.size(), out);
}

}  // namespace gamebatch::pipeline
