// The gamebatch command line: subcommands over the library. main() only calls run_cli.
#pragma once

#include <cstddef>

namespace gamebatch::cli {

// Exit status: 0 all inputs solved, 1 some input rejected, 2 usage or configuration error.
inline constexpr int kExitSolved = 0;
inline constexpr int kExitRejected = 1;
inline constexpr int kExitUsage = 2;

// How every log line starts: "gamebatch: error: ...".
inline constexpr const char* kLogPattern = "gamebatch: %l: %v";

int run_cli(int argc, char** argv);

// The threads (or runs at once) a --jobs N option asks for: N, or every core for 0.
std::size_t thread_count(int jobs);

}  // namespace gamebatch::cli
