#include "pipeline/machine.hpp"

#include <charconv>
#include <cstdlib>
#include <fstream>

#include <unistd.h>

#include <oneapi/tbb/info.h>

#include "io/problem.hpp"

namespace gamebatch::pipeline {

std::size_t thread_count(int jobs) {
  return static_cast<std::size_t>(jobs > 0 ? jobs : tbb::info::default_concurrency());
}

namespace {

// The unit of a size's suffix ("k", "M", "Gi", ...), or nullopt when it is none.
std::optional<std::uint64_t> size_unit(std::string_view suffix) {
  if (suffix.empty())
    return 1;
  const bool binary = suffix.size() == 2 && (suffix[1] == 'i' || suffix[1] == 'I');
  if (suffix.size() != 1 && !binary)
    return std::nullopt;
  const std::uint64_t base = binary ? 1024 : 1000;
  switch (suffix[0]) {
    case 'k':
    case 'K':
      return base;
    case 'm':
    case 'M':
      return base * base;
    case 'g':
    case 'G':
      return base * base * base;
    case 't':
    case 'T':
      return base * base * base * base;
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<std::uint64_t> parse_size(std::string_view text) {
  std::uint64_t number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end == text.data())
    return std::nullopt;
  const std::optional<std::uint64_t> unit =
      size_unit(std::string_view(end, static_cast<std::size_t>(text.data() + text.size() - end)));
  if (!unit || number > UINT64_MAX / *unit)
    return std::nullopt;
  return number * *unit;
}

std::uint64_t available_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  std::uint64_t bytes = pages > 0 && page_size > 0 ? static_cast<std::uint64_t>(pages) *
                                                         static_cast<std::uint64_t>(page_size)
                                                   : std::uint64_t{0};
  // A container or a Slurm job is held to its cgroup's limit ("max" when there is none).
  std::ifstream limit_file("/sys/fs/cgroup/memory.max");
  std::uint64_t limit = 0;
  if (limit_file >> limit && limit > 0 && (bytes == 0 || limit < bytes))
    bytes = limit;
  return bytes;
}

std::uint64_t default_memory_budget() {
  return available_memory_bytes() / 2;
}

std::uint64_t apply_memory_budget(std::optional<std::uint64_t> bytes) {
  const std::uint64_t budget = bytes ? *bytes : default_memory_budget();
  for (const io::Problem* problem : io::all_problems())
    problem->set_memory_budget(budget);
  return budget;
}

WorkResources::WorkResources(int jobs, std::optional<std::uint64_t> memory_budget)
    : threads_(thread_count(jobs)),
      thread_limit_(tbb::global_control::max_allowed_parallelism, threads_) {
  apply_memory_budget(memory_budget);
}

std::optional<std::filesystem::path> default_cache_path() {
  // XDG's cache directory: the cache outlives any one output directory, and the same case met in
  // another data set is still a hit.
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/')
    return std::filesystem::path(xdg) / "gamebatch" / "answers.cache";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return std::filesystem::path(home) / ".cache" / "gamebatch" / "answers.cache";
  return std::nullopt;
}

}  // namespace gamebatch::pipeline
