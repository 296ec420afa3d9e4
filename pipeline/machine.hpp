// What the machine offers a run: threads and memory, the sizes that name memory, and where
// gamebatch keeps what outlives a run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

#include <oneapi/tbb/global_control.h>

namespace gamebatch::pipeline {

// The threads (or runs at once) a --jobs N option or a config's `jobs` asks for: N, or every core
// for 0.
std::size_t thread_count(int jobs);

// "500000", "200k", "64M", "2G", "1T" (powers of 1000) or "64Mi", "2Gi" (powers of 1024) as
// bytes; nullopt when the text is not such a size.
std::optional<std::uint64_t> parse_size(std::string_view text);

// The memory this process may use: the machine's, or its cgroup's limit when that is lower.
std::uint64_t available_memory_bytes();
// What --memory-budget defaults to: half of available_memory_bytes().
std::uint64_t default_memory_budget();
// Bounds what every game keeps between cases (doublemove's state tables) to `bytes` (0: no
// bound), or to the default when none is given. Returns the budget applied.
std::uint64_t apply_memory_budget(std::optional<std::uint64_t> bytes);

// Where the answer cache lives when --cache is not given: $XDG_CACHE_HOME/gamebatch/answers.cache,
// else $HOME/.cache/gamebatch/answers.cache; nullopt when neither variable is set. The compiled
// programs' store lives beside it (programs/run_setup.hpp).
std::optional<std::filesystem::path> default_cache_path();

// What a command's work runs on, from its making to its end: thread_count(jobs) threads at most
// (oneTBB's global control), and the games' memory budget applied (apply_memory_budget).
class WorkResources {
 public:
  WorkResources(int jobs, std::optional<std::uint64_t> memory_budget);
  std::size_t threads() const { return threads_; }

 private:
  std::size_t threads_;
  tbb::global_control thread_limit_;
};

}  // namespace gamebatch::pipeline
