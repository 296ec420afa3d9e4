// pipeline/report/: the room of what reaches a person. Its theory of operation.
//
// What it is for. Every engine ends by telling someone what it did: lines on a terminal, log
// lines, a progress line while it works, a JSON report and an HTML page written beside its work.
// This room holds what they share, so that every command speaks the same way: text from other
// people's programs never acts on a terminal, no report or page is ever half-written, and every
// page looks and escapes alike.
//
// Its parts, each a public header:
// - terminal_text.hpp (this file): text made terminal-safe (terminal_safe, write_terminal_safe).
// - logging.hpp: every log line on stderr as "gamebatch: LEVEL: message", terminal-safe.
// - progress.hpp: a solve run's live counters and the progress line that draws them.
// - output_files.hpp: --report and --html files written whole, and checked writable before work.
// - html_page.hpp: what every --html page is made of (its frame, style, cards, charts, escaping);
//   each engine makes its own page from these parts in its room.
//
// What it promises. Nothing written to a terminal holds a control character from outside; a page
// has no script and escapes every outside string.
//
// What it must never depend on: the other rooms of pipeline/ (it knows no engine's results: a page
// of check is made in judge/), tools/. It uses pipeline/'s top, io/ and core/.
//
// Text from other people's programs (a solution's output, a compiler's messages, a counterexample)
// shown on a judge's terminal: control characters there would act (ESC ] 0 ; title BEL retitles
// the terminal, ESC [ 2 J clears it), so every text output escapes them. The JSON report keeps
// the exact bytes, and the HTML page escapes as HTML.
#pragma once

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
