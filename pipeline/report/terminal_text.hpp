#pragma once
// Text from other people's programs (a solution's output, a compiler's messages, a counterexample)
// shown on a judge's terminal: control characters there would act (ESC ] 0 ; title BEL retitles
// the terminal, ESC [ 2 J clears it), so every text output escapes them. The JSON report keeps
// the exact bytes, and the HTML page escapes as HTML.
#include <cstdio>
#include <string>
#include <string_view>

namespace gamebatch::pipeline {

// `text` with every byte that a terminal could act on written as \xNN: the C0 controls but
// newline and tab, DEL, carriage return (\r, which would overwrite a line), the C1 controls
// U+0080..U+009F, and bytes that are not well-formed UTF-8. Printable ASCII and well-formed
// UTF-8 (accents, CJK, emoji) are kept as they are.
std::string terminal_safe(std::string_view text);

// Whether terminal_safe(text) == text (the common case, checked without a copy).
bool is_terminal_safe(std::string_view text);

// Writes terminal_safe(text) to `out`: `text` as it is where it is safe, without a copy (an
// explained play can be hundreds of kB).
void write_terminal_safe(std::FILE* out, std::string_view text);

}  // namespace gamebatch::pipeline
