#include "io/files/shard.hpp"

#include <charconv>
#include <cstdlib>
#include <stdexcept>

#include <xxhash.h>

namespace gamebatch::io {

namespace {

std::optional<std::size_t> parse_count(std::string_view text) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty())
    return std::nullopt;
  return value;
}

}  // namespace

std::optional<Shard> parse_shard(std::string_view text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos)
    return std::nullopt;
  const auto index = parse_count(text.substr(0, slash));
  const auto count = parse_count(text.substr(slash + 1));
  if (!index || !count || *index < 1 || *index > *count)
    return std::nullopt;
  return Shard{*index, *count};
}

std::optional<Shard> shard_from_slurm(const std::map<std::string, std::string>& environment) {
  const auto id = environment.find("SLURM_ARRAY_TASK_ID");
  const auto min = environment.find("SLURM_ARRAY_TASK_MIN");
  const auto count = environment.find("SLURM_ARRAY_TASK_COUNT");
  if (id == environment.end() || min == environment.end() || count == environment.end())
    return std::nullopt;
  const auto id_value = parse_count(id->second);
  const auto min_value = parse_count(min->second);
  const auto count_value = parse_count(count->second);
  // Arrays with gaps or steps (--array=1,5,9 or 0-15:4) have COUNT tasks whose IDs are not
  // MIN..MIN+COUNT-1; they cannot be mapped onto shards this way.
  if (!id_value || !min_value || !count_value || *id_value < *min_value ||
      *id_value - *min_value >= *count_value) {
    throw std::invalid_argument(
        "the Slurm job array variables do not make a shard (SLURM_ARRAY_TASK_ID=" + id->second +
        ", SLURM_ARRAY_TASK_MIN=" + min->second + ", SLURM_ARRAY_TASK_COUNT=" + count->second +
        "): use a contiguous array such as --array=1-N, or give --shard I/N");
  }
  return Shard{*id_value - *min_value + 1, *count_value};
}

std::map<std::string, std::string> slurm_environment() {
  std::map<std::string, std::string> environment;
  for (const char* name :
       {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT"}) {
    if (const char* value = std::getenv(name))
      environment.emplace(name, value);
  }
  return environment;
}

std::size_t shard_part(std::string_view relative_path, std::size_t count) {
  return static_cast<std::size_t>(XXH3_64bits(relative_path.data(), relative_path.size()) % count);
}

void select_shard(InputList& inputs, const Shard& shard) {
  inputs.keep_if([&](std::size_t index) {
    return shard_part(inputs.relative_name(index), shard.count) == shard.index - 1;
  });
}

std::string shard_cache_name(const std::string& cache_file, const Shard& shard) {
  return cache_file + ".shard-" + std::to_string(shard.index) + "-of-" +
         std::to_string(shard.count);
}

}  // namespace gamebatch::io
