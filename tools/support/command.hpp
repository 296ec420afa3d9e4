// The gamebatch command line: subcommands over the library. main() only calls run_cli.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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

// "500000", "200k", "64M", "2G", "1T" (powers of 1000) or "64Mi", "2Gi" (powers of 1024) as
// bytes; nullopt when the text is not such a size.
std::optional<std::uint64_t> parse_size(std::string_view text);
// The same for a --memory-budget SIZE: an error message when it is not a size, else "".
std::string check_size(const std::string& text);

// The memory this process may use: the machine's, or its cgroup's limit when that is lower.
std::uint64_t available_memory_bytes();
// What --memory-budget defaults to: half of available_memory_bytes().
std::uint64_t default_memory_budget();
// Bounds what every game keeps between cases (doublemove's state tables) to `bytes` (0: no
// bound), or to the default when none is given.
void apply_memory_budget(std::optional<std::uint64_t> bytes);

}  // namespace gamebatch::cli
