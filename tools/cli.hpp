// The gamebatch command line: subcommands over the library. main() only calls run_cli.
#pragma once

namespace gamebatch::cli {

// Exit status: 0 all inputs solved, 1 some input rejected, 2 usage or configuration error.
inline constexpr int kExitSolved = 0;
inline constexpr int kExitRejected = 1;
inline constexpr int kExitUsage = 2;

// How every log line starts: "gamebatch: error: ...".
inline constexpr const char* kLogPattern = "gamebatch: %l: %v";

int run_cli(int argc, char** argv);

}  // namespace gamebatch::cli
