// The engine of `gamebatch cache ...`: what a cache file holds (stats), fitting it and the
// programs compiled beside it into a size (trim), its portable forms (export, import), the union
// of several (merge) and its soundness (verify). Failures are logged as "FILE: reason".
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/cache/cache_store.hpp"
#include "io/run/compiled_store.hpp"

namespace gamebatch::pipeline {

// Opens an existing store; a version-1 file is imported in place first (with one message), as a
// run would. nullptr after logging "FILE: reason" when it cannot be opened.
std::unique_ptr<io::CacheStore> open_existing_cache(const std::string& path,
                                                    io::CacheStore::Mode mode);

struct CacheStats {
  struct Group {
    io::EntryGroup group;
    bool stale = false;  // another solver version: never reused
  };
  struct Artefact {
    io::StoredArtefactInfo info;
    bool stale = false;
  };
  struct CompiledPrograms {
    std::filesystem::path store;  // io::compiled_store_beside the cache
    std::size_t programs = 0;
    std::uint64_t bytes = 0;
    std::size_t compile_errors = 0;
    std::array<std::uint64_t, 4> ages{};  // by io::kLastUseAgeBounds
  };
  std::int64_t now = 0;
  std::uint64_t disk_bytes = 0;
  std::uint64_t entries = 0;
  std::uint64_t stale_entries = 0;
  std::vector<Group> groups;
  std::array<std::uint64_t, 4> entry_ages{};
  std::vector<Artefact> artefacts;
  std::uint64_t artefact_bytes = 0;
  CompiledPrograms compiled;
};

// What the cache at `path` (opened as `store`) holds. Throws what the store throws.
CacheStats cache_stats(const std::string& path, io::CacheStore& store);

struct CacheTrim {
  std::uint64_t stale = 0;    // stale entries removed
  std::uint64_t dropped = 0;  // least recently used entries or artefacts removed
  std::uint64_t bytes_before = 0, bytes_after = 0;
  std::uint64_t limit = 0;         // what the answers had to fit in, beside the programs kept
  std::filesystem::path programs;  // the compiled-program store beside the cache
  io::StoreTrim program_trim;
};

// Drops stale entries, then the least recently used compiled programs, then the least recently
// used entries, until the file and the programs together fit `max_size`. Throws what the store
// throws.
CacheTrim trim_cache(const std::string& path, io::CacheStore& store, std::uint64_t max_size);

// Writes every sound entry of `store` to `output` ("" or "-": stdout) as JSON lines ("jsonl") or
// the whole cache as a bundle ("bundle"). Returns the damaged records left out. Throws when it
// cannot write.
std::uint64_t export_cache(io::CacheStore& store, const std::string& format,
                           const std::string& output);

struct MergeCounts {
  std::uint64_t entries = 0;
  std::size_t artefacts = 0;
};

// Writes the union of `inputs` to `output`, under a temporary name renamed over it only when every
// input was read whole. nullopt after logging why when it cannot.
std::optional<MergeCounts> merge_caches(const std::string& output,
                                        const std::vector<std::string>& inputs);

// Checks a cache file: the line saying it is sound, or nullopt after logging what is wrong.
std::optional<std::string> verify_cache(const std::string& path);

}  // namespace gamebatch::pipeline
