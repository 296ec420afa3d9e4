// Splitting an input set between machines: shard I of N takes the inputs whose stable hash of
// their path (relative to the PATH argument they came from) falls in its part.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/files/input_set.hpp"

namespace gamebatch::io {

struct Shard {
  std::size_t index = 1;  // 1..count
  std::size_t count = 1;
  friend bool operator==(const Shard&, const Shard&) = default;
};

// "I/N" with 1 <= I <= N; nullopt for anything else.
std::optional<Shard> parse_shard(std::string_view text);

// The shard of a Slurm job array task, from SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN and
// SLURM_ARRAY_TASK_COUNT in `environment` (I = ID - MIN + 1, N = COUNT); nullopt when they are not
// all set. Throws std::invalid_argument when they are set but do not make a shard.
std::optional<Shard> shard_from_slurm(const std::map<std::string, std::string>& environment);

// The same variables read from this process's environment.
std::map<std::string, std::string> slurm_environment();

// The 0-based part of 0..count-1 that an input with this relative path belongs to: XXH3-64 of the
// path's generic form, so it is the same on every machine, whatever the directory the set is in.
std::size_t shard_part(std::string_view relative_path, std::size_t count);

// Keeps the inputs of `inputs` that shard `shard` takes, in their order.
void select_shard(InputList& inputs, const Shard& shard);

// "FILE.shard-I-of-N": the cache file of one shard, so that shards running at once on several
// machines never write one file (a network file system may not honour the cache's lock).
std::string shard_cache_name(const std::string& cache_file, const Shard& shard);

}  // namespace gamebatch::io
