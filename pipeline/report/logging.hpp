// How gamebatch logs: every line on stderr as "gamebatch: LEVEL: message", made terminal-safe.
#pragma once

namespace gamebatch::pipeline {

// How every log line starts: "gamebatch: error: ...".
inline constexpr const char* kLogPattern = "gamebatch: %l: %v";

// Makes the default logger a locking stderr logger (the cache checkpoints log from a thread)
// with kLogPattern, whose messages are escaped by terminal_safe (terminal_text.hpp) first.
void set_up_logging();

}  // namespace gamebatch::pipeline
