#include "pipeline/solve/cache_maintenance.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <iostream>
#include <stdexcept>
#include <system_error>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "io/cache/answer_cache.hpp"
#include "io/files/atomic_file.hpp"
#include "io/problem.hpp"
#include "pipeline/answers/cache_session.hpp"

namespace gamebatch::pipeline {

namespace fs = std::filesystem;

namespace {

// Whether an entry of (game, solver version) can still be hit by this gamebatch.
bool entry_is_stale(std::string_view game, std::uint32_t version) {
  const io::Problem* problem = io::find_problem(game);
  return problem == nullptr || problem->solver_version() != version;
}

bool artefact_is_stale(std::string_view game, std::uint32_t version) {
  const io::Problem* problem = io::find_problem(game);
  return problem == nullptr || problem->artefact_version() != version;
}

// The programs check, stress and build compiled for runs with this cache (io/run/compiled_store).
CacheStats::CompiledPrograms compiled_programs_beside(const std::string& cache_path,
                                                      std::int64_t now) {
  CacheStats::CompiledPrograms compiled;
  compiled.store = io::compiled_store_beside(cache_path);
  const std::vector<io::CompiledProgramInfo> programs = io::compiled_programs(compiled.store);
  compiled.programs = programs.size();
  for (const io::CompiledProgramInfo& program : programs) {
    compiled.bytes += program.bytes;
    compiled.compile_errors += program.compile_error ? 1 : 0;
    const std::int64_t age = now - program.last_used;
    ++compiled.ages[static_cast<std::size_t>(
        std::lower_bound(io::kLastUseAgeBounds.begin(), io::kLastUseAgeBounds.end(), age) -
        io::kLastUseAgeBounds.begin())];
  }
  return compiled;
}

// The bytes of cases, answers and artefacts in the store.
std::uint64_t payload_bytes(io::CacheStore& store) {
  std::uint64_t payload = 0;
  for (const io::EntryGroup& group : store.entry_groups())
    payload += group.payload_bytes;
  for (const io::StoredArtefactInfo& info : store.artefact_infos())
    payload += info.bytes;
  return payload;
}

// Drops the least recently used entries and artefacts until the file fits `limit`; returns how
// many went. Records and pages cost more than their payload (case, answer and artefact bytes),
// and a store has a few fixed pages: aim the payload at the limit's share of the file, a little
// lower each round, and in the end drop everything rather than miss the limit.
std::uint64_t drop_least_recently_used(io::CacheStore& store, std::uint64_t limit) {
  std::uint64_t dropped = 0;
  const std::uint64_t fixed = store.empty_bytes();
  for (int round = 0; round < 8 && store.disk_bytes() > limit; ++round) {
    const std::uint64_t payload = payload_bytes(store);
    if (payload == 0)
      break;
    const std::uint64_t disk = store.disk_bytes();
    const double share = limit > fixed && disk > fixed ? static_cast<double>(limit - fixed) /
                                                             static_cast<double>(disk - fixed)
                                                       : 0.0;
    const double margin = 1.0 - 0.03 * (round + 1);
    const double keep = round == 7 ? 0.0 : static_cast<double>(payload) * share * margin;
    dropped += store.delete_least_recently_used(static_cast<std::uint64_t>(keep));
    store.compact();
  }
  return dropped;
}

// Loads every sound entry and artefact of a store into a bundle.
void fill_bundle(io::CacheStore& store, io::AnswerCache& bundle, std::uint64_t& skipped) {
  store.for_each_entry(
      [&](const io::CacheKey& key, const io::CacheEntry& entry, std::int64_t, bool damaged) {
        if (damaged || io::case_key(entry.game, entry.solver_version, entry.canonical_case) != key)
          ++skipped;
        else
          bundle.insert(key, entry);
        return true;
      });
  store.for_each_artefact([&](const std::string& game, const io::Artefact& artefact, bool damaged) {
    if (damaged)
      ++skipped;
    else
      bundle.put_artefact(game, artefact);
  });
}

// Every sound entry as a JSON line, by game, then key: two exports of caches with the same
// entries are the same text. Returns the damaged records left out.
std::uint64_t export_json_lines(io::CacheStore& store, std::FILE* out) {
  std::uint64_t skipped = 0;
  store.for_each_entry([&](const io::CacheKey& key, const io::CacheEntry& entry, std::int64_t,
                           bool damaged) {
    if (damaged || io::case_key(entry.game, entry.solver_version, entry.canonical_case) != key) {
      ++skipped;
      return true;
    }
    const nlohmann::ordered_json line = {{"game", entry.game},
                                         {"solver_version", entry.solver_version},
                                         {"key", key.hex()},
                                         {"case", entry.canonical_case},
                                         {"answer", entry.answer}};
    const std::string text = line.dump() + '\n';
    std::fwrite(text.data(), 1, text.size(), out);
    return true;
  });
  return skipped;
}

void remove_with_sides(const fs::path& file) {
  std::error_code ignored;
  for (const char* side : {"", "-wal", "-shm"}) {
    fs::path path = file;
    path += side;
    fs::remove(path, ignored);
  }
}

// Beyond SQLite's own check: every record's checksum, and every key the hash of its case. The
// count of entries, or nullopt after logging what is wrong.
std::optional<std::uint64_t> verify_records(const std::string& path, io::CacheStore& store,
                                            std::size_t& artefacts) {
  std::uint64_t entries = 0, damaged_records = 0, mismatched = 0;
  store.for_each_entry(
      [&](const io::CacheKey& key, const io::CacheEntry& entry, std::int64_t, bool damaged) {
        ++entries;
        if (damaged)
          ++damaged_records;
        else if (io::case_key(entry.game, entry.solver_version, entry.canonical_case) != key)
          ++mismatched;
        return true;
      });
  store.for_each_artefact([&](const std::string&, const io::Artefact&, bool damaged) {
    ++artefacts;
    damaged_records += damaged ? 1 : 0;
  });
  if (damaged_records != 0) {
    spdlog::error("{}: damaged: {} records fail their checksum (a run solves them again)", path,
                  damaged_records);
    return std::nullopt;
  }
  if (mismatched != 0) {
    spdlog::error("{}: {} entries are stored under a key that is not their case's hash", path,
                  mismatched);
    return std::nullopt;
  }
  return entries;
}

}  // namespace

std::unique_ptr<io::CacheStore> open_existing_cache(const std::string& path,
                                                    io::CacheStore::Mode mode) {
  try {
    const io::CacheFileKind kind = io::classify_cache_file(path);
    if (kind == io::CacheFileKind::missing) {
      spdlog::error("{}: no such cache file", path);
      return nullptr;
    }
    if (kind == io::CacheFileKind::version_one) {
      const std::size_t imported = import_version_one_in_place(path);
      spdlog::info("imported the version-1 answer cache {} ({} answers) into format version {}",
                   path, imported, io::kStoreFormatVersion);
    }
    return std::make_unique<io::CacheStore>(path, mode);
  } catch (const std::exception& error) {
    spdlog::error("{}: {}", path, error.what());
    return nullptr;
  }
}

CacheStats cache_stats(const std::string& path, io::CacheStore& store) {
  CacheStats stats;
  stats.now = now_seconds();
  for (const io::EntryGroup& group : store.entry_groups()) {
    const bool stale = entry_is_stale(group.game, group.solver_version);
    stats.entries += group.entries;
    stats.stale_entries += stale ? group.entries : 0;
    stats.groups.push_back({group, stale});
  }
  stats.disk_bytes = store.disk_bytes();
  stats.entry_ages = store.entry_ages(stats.now);
  for (const io::StoredArtefactInfo& info : store.artefact_infos()) {
    stats.artefact_bytes += info.bytes;
    stats.artefacts.push_back({info, artefact_is_stale(info.game, info.version)});
  }
  stats.compiled = compiled_programs_beside(path, stats.now);
  return stats;
}

CacheTrim trim_cache(const std::string& path, io::CacheStore& store, std::uint64_t max_size) {
  CacheTrim trim;
  trim.bytes_before = store.disk_bytes();
  trim.stale = store.delete_stale(entry_is_stale, artefact_is_stale);
  store.compact();
  // SIZE covers the file and the programs compiled beside it. Programs go first, least recently
  // used first: one is made again in seconds, where an answer can have taken hours.
  trim.programs = io::compiled_store_beside(path);
  const std::uint64_t answers_now = store.disk_bytes();
  trim.program_trim = io::trim_compiled_programs(
      trim.programs, max_size > answers_now ? max_size - answers_now : 0);
  // Programs in use are not counted against the answers: those are not dropped for them.
  const std::uint64_t kept_programs = trim.program_trim.busy ? 0 : trim.program_trim.bytes_after;
  trim.limit = max_size > kept_programs ? max_size - kept_programs : 0;
  trim.dropped = drop_least_recently_used(store, trim.limit);
  trim.bytes_after = store.disk_bytes();
  return trim;
}

std::uint64_t export_cache(io::CacheStore& store, const std::string& format,
                           const std::string& output) {
  std::uint64_t skipped = 0;
  const bool to_stdout = output.empty() || output == "-";
  if (format == "bundle") {
    io::AnswerCache bundle;
    fill_bundle(store, bundle, skipped);
    const std::string bytes = io::encode_bundle(bundle);
    if (to_stdout)
      std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    else
      io::write_file_durably(output, bytes);
  } else {
    std::FILE* out = to_stdout ? stdout : std::fopen(output.c_str(), "w");
    if (out == nullptr)
      throw std::system_error(errno, std::generic_category(), "cannot create " + output);
    skipped = export_json_lines(store, out);
    const bool written = std::fflush(out) == 0 && std::ferror(out) == 0;
    if (out != stdout)
      std::fclose(out);
    if (!written)
      throw std::runtime_error("cannot write the export");
  }
  std::cout.flush();
  return skipped;
}

std::optional<MergeCounts> merge_caches(const std::string& output,
                                        const std::vector<std::string>& inputs) {
  // Built under a temporary name and renamed over OUT only when every input was read whole: a
  // missing or damaged shard must not pass for a complete merge.
  fs::path temporary = output;
  temporary += ".tmp." + std::to_string(::getpid()) + ".merge";
  MergeCounts counts;
  try {
    {
      io::CacheStore merged(temporary, io::CacheStore::Mode::read_write);
      for (const std::string& input : inputs) {
        try {
          const io::ImportCounts read = io::import_cache_file(merged, input);
          if (read.skipped != 0)
            throw io::CacheFormatError(std::to_string(read.skipped) + " damaged records");
        } catch (const std::exception& error) {
          spdlog::error("{}: {}", input, error.what());
          remove_with_sides(temporary);
          return std::nullopt;
        }
      }
      counts.entries = merged.entry_count();
      counts.artefacts = merged.artefact_infos().size();
    }
    fs::rename(temporary, output);
  } catch (const std::exception& error) {
    spdlog::error("{}: cannot write: {}", output, error.what());
    remove_with_sides(temporary);
    return std::nullopt;
  }
  return counts;
}

std::optional<std::string> verify_cache(const std::string& path) {
  try {
    const io::CacheFileKind kind = io::classify_cache_file(path);
    if (kind == io::CacheFileKind::missing) {
      spdlog::error("{}: no such cache file", path);
      return std::nullopt;
    }
    if (kind == io::CacheFileKind::version_one) {
      io::AnswerCache bundle;
      io::load_bundle_file(path, bundle);
      return path +
             ": sound (a version-1 cache or bundle, entries: " + std::to_string(bundle.size()) +
             ", artefacts: " + std::to_string(bundle.artefact_count()) + "; a run imports it)";
    }
    io::CacheStore store(path, io::CacheStore::Mode::read_only);
    const std::vector<std::string> problems = store.integrity_problems();
    if (!problems.empty()) {
      spdlog::error("{}: damaged: {}", path, problems.front());
      return std::nullopt;
    }
    std::size_t artefacts = 0;
    const std::optional<std::uint64_t> entries = verify_records(path, store, artefacts);
    if (!entries)
      return std::nullopt;
    return path + ": sound (format version " + std::to_string(io::kStoreFormatVersion) +
           ", entries: " + std::to_string(*entries) + ", artefacts: " + std::to_string(artefacts) +
           ")";
  } catch (const std::exception& error) {
    spdlog::error("{}: {}", path, error.what());
    return std::nullopt;
  }
}

}  // namespace gamebatch::pipeline
