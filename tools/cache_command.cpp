#include "tools/cache_commands.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "io/cache/answer_cache.hpp"
#include "io/cache/cache_store.hpp"
#include "io/files/atomic_file.hpp"
#include "io/problem.hpp"
#include "io/run/compiled_store.hpp"
#include "pipeline/cache_session.hpp"
#include "tools/cli.hpp"

namespace gamebatch::cli {

namespace fs = std::filesystem;

namespace {

std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string megabytes(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return text;
}

std::string age(std::int64_t seconds) {
  if (seconds < 3600)
    return "within the hour";
  if (seconds < 86400)
    return std::to_string(seconds / 3600) + " h ago";
  return std::to_string(seconds / 86400) + " days ago";
}

// Whether an entry of (game, solver version) can still be hit by this gamebatch.
bool entry_is_stale(std::string_view game, std::uint32_t version) {
  const io::Problem* problem = io::find_problem(game);
  return problem == nullptr || problem->solver_version() != version;
}

bool artefact_is_stale(std::string_view game, std::uint32_t version) {
  const io::Problem* problem = io::find_problem(game);
  return problem == nullptr || problem->artefact_version() != version;
}

// Opens an existing store for a command; on failure prints "FILE: reason" and returns nullptr.
// A version-1 file is imported in place first (with one message), as a run would.
std::unique_ptr<io::CacheStore> open_existing(const std::string& path, io::CacheStore::Mode mode) {
  try {
    const io::CacheFileKind kind = io::classify_cache_file(path);
    if (kind == io::CacheFileKind::missing) {
      spdlog::error("{}: no such cache file", path);
      return nullptr;
    }
    if (kind == io::CacheFileKind::version_one) {
      const std::size_t imported = pipeline::import_version_one_in_place(path);
      spdlog::info("imported the version-1 answer cache {} ({} answers) into format version {}",
                   path, imported, io::kStoreFormatVersion);
    }
    return std::make_unique<io::CacheStore>(path, mode);
  } catch (const std::exception& error) {
    spdlog::error("{}: {}", path, error.what());
    return nullptr;
  }
}

// "last used: N within a day, ..." of entry_ages() and of the compiled programs.
std::string last_used_text(const std::array<std::uint64_t, 4>& ages) {
  return "last used: " + std::to_string(ages[0]) + " within a day, " + std::to_string(ages[1]) +
         " within a week, " + std::to_string(ages[2]) + " within 30 days, " +
         std::to_string(ages[3]) + " earlier";
}

// The programs check, stress and build compiled for runs with this cache (io/run/compiled_store).
void print_compiled_programs(const std::string& cache_path, std::int64_t now) {
  const fs::path store = io::compiled_store_beside(cache_path);
  const std::vector<io::CompiledProgramInfo> programs = io::compiled_programs(store);
  std::uint64_t bytes = 0;
  std::size_t errors = 0;
  std::array<std::uint64_t, 4> ages{};
  for (const io::CompiledProgramInfo& program : programs) {
    bytes += program.bytes;
    errors += program.compile_error ? 1 : 0;
    const std::int64_t age = now - program.last_used;
    ++ages[static_cast<std::size_t>(
        std::lower_bound(io::kLastUseAgeBounds.begin(), io::kLastUseAgeBounds.end(), age) -
        io::kLastUseAgeBounds.begin())];
  }
  std::printf("compiled programs: %zu in %s (%ju bytes, %s)%s\n", programs.size(), store.c_str(),
              static_cast<std::uintmax_t>(bytes), megabytes(bytes).c_str(),
              errors == 0
                  ? ""
                  : (" of which " + std::to_string(errors) + " stored compile errors").c_str());
  if (!programs.empty())
    std::printf("  %s\n", last_used_text(ages).c_str());
}

void print_stats(const std::string& path, io::CacheStore& store);

int cache_stats(const std::string& path) {
  const auto store = open_existing(path, io::CacheStore::Mode::read_only);
  if (!store)
    return kExitRejected;
  try {
    print_stats(path, *store);
  } catch (const std::exception& error) {
    std::fflush(stdout);
    spdlog::error("{}: {}", path, error.what());
    return kExitRejected;
  }
  return kExitSolved;
}

void print_stats(const std::string& path, io::CacheStore& store_reference) {
  io::CacheStore* const store = &store_reference;
  const std::int64_t now = now_seconds();
  std::uint64_t entries = 0;
  std::uint64_t stale = 0;
  const std::vector<io::EntryGroup> groups = store->entry_groups();
  for (const io::EntryGroup& group : groups) {
    entries += group.entries;
    if (entry_is_stale(group.game, group.solver_version))
      stale += group.entries;
  }
  std::printf("file: %s\n", path.c_str());
  std::printf("format version: %u (SQLite)\n", io::kStoreFormatVersion);
  std::printf("size: %ju bytes (%s)\n", static_cast<std::uintmax_t>(store->disk_bytes()),
              megabytes(store->disk_bytes()).c_str());
  std::printf("entries: %ju\n", static_cast<std::uintmax_t>(entries));
  for (const io::EntryGroup& group : groups) {
    std::printf("  %s, solver version %u: %ju (%s of cases and answers)%s\n", group.game.c_str(),
                group.solver_version, static_cast<std::uintmax_t>(group.entries),
                megabytes(group.payload_bytes).c_str(),
                entry_is_stale(group.game, group.solver_version)
                    ? " stale: another solver version, never reused"
                    : "");
  }
  std::printf("stale entries: %ju (removed by 'gamebatch cache trim')\n",
              static_cast<std::uintmax_t>(stale));
  std::printf("%s\n", last_used_text(store->entry_ages(now)).c_str());
  const std::vector<io::StoredArtefactInfo> artefacts = store->artefact_infos();
  std::uint64_t artefact_bytes = 0;
  for (const io::StoredArtefactInfo& info : artefacts)
    artefact_bytes += info.bytes;
  std::printf("artefacts: %zu (%ju bytes)\n", artefacts.size(),
              static_cast<std::uintmax_t>(artefact_bytes));
  for (const io::StoredArtefactInfo& info : artefacts) {
    std::printf("  %s: %s (version %u, %ju bytes, last used %s)%s\n", info.game.c_str(),
                info.name.c_str(), info.version, static_cast<std::uintmax_t>(info.bytes),
                age(now - info.last_used).c_str(),
                artefact_is_stale(info.game, info.version) ? " stale" : "");
  }
  print_compiled_programs(path, now);
}

int cache_trim(const std::string& path, const std::string& max_size_text) {
  const std::optional<std::uint64_t> max_size = parse_size(max_size_text);
  if (!max_size) {
    spdlog::error("--max-size: expected a size such as 500M, 2G or 64Mi, found '{}'",
                  max_size_text);
    return kExitUsage;
  }
  const auto store = open_existing(path, io::CacheStore::Mode::read_write);
  if (!store)
    return kExitRejected;
  try {
    const std::uint64_t before = store->disk_bytes();
    const std::uint64_t stale = store->delete_stale(entry_is_stale, artefact_is_stale);
    std::uint64_t dropped = 0;
    store->compact();
    // SIZE covers the file and the programs compiled beside it. Programs go first, least recently
    // used first: one is made again in seconds, where an answer can have taken hours.
    const fs::path programs = io::compiled_store_beside(path);
    const std::uint64_t answers_now = store->disk_bytes();
    const io::StoreTrim program_trim =
        io::trim_compiled_programs(programs, *max_size > answers_now ? *max_size - answers_now : 0);
    // Programs in use are not counted against the answers: those are not dropped for them.
    const std::uint64_t kept_programs = program_trim.busy ? 0 : program_trim.bytes_after;
    const std::uint64_t limit = *max_size > kept_programs ? *max_size - kept_programs : 0;
    // Records and pages cost more than their payload (case, answer and artefact bytes), and a
    // store has a few fixed pages: aim the payload at the limit's share of the file, a little
    // lower each round, and in the end drop everything rather than miss the limit.
    const std::uint64_t fixed = store->empty_bytes();
    for (int round = 0; round < 8 && store->disk_bytes() > limit; ++round) {
      std::uint64_t payload = 0;
      for (const io::EntryGroup& group : store->entry_groups())
        payload += group.payload_bytes;
      for (const io::StoredArtefactInfo& info : store->artefact_infos())
        payload += info.bytes;
      if (payload == 0)
        break;
      const std::uint64_t disk = store->disk_bytes();
      const double share = limit > fixed && disk > fixed ? static_cast<double>(limit - fixed) /
                                                               static_cast<double>(disk - fixed)
                                                         : 0.0;
      const double margin = 1.0 - 0.03 * (round + 1);
      const double keep = round == 7 ? 0.0 : static_cast<double>(payload) * share * margin;
      dropped += store->delete_least_recently_used(static_cast<std::uint64_t>(keep));
      store->compact();
    }
    const std::uint64_t after = store->disk_bytes();
    std::fprintf(stderr,
                 "trimmed %s: %ju stale entries and %ju least recently used entries or artefacts "
                 "removed; size %ju -> %ju bytes (limit %ju)\n",
                 path.c_str(), static_cast<std::uintmax_t>(stale),
                 static_cast<std::uintmax_t>(dropped), static_cast<std::uintmax_t>(before),
                 static_cast<std::uintmax_t>(after), static_cast<std::uintmax_t>(limit));
    if (program_trim.bytes_before > 0) {
      std::fprintf(stderr,
                   "trimmed %s: %zu least recently used compiled programs removed; size %ju -> "
                   "%ju bytes\n",
                   programs.c_str(), program_trim.removed,
                   static_cast<std::uintmax_t>(program_trim.bytes_before),
                   static_cast<std::uintmax_t>(program_trim.bytes_after));
    }
    if (program_trim.busy) {
      spdlog::warn("{}: its programs are in use by a running check, stress or build: not trimmed",
                   programs.string());
    }
    if (after + program_trim.bytes_after > *max_size && !program_trim.busy) {
      spdlog::warn("{} is still {} bytes with nothing left in it: an empty cache takes that much",
                   path, after);
    }
  } catch (const std::exception& error) {
    spdlog::error("{}: cannot trim: {}", path, error.what());
    return kExitRejected;
  }
  return kExitSolved;
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

int cache_export(const std::string& path, const std::string& format, const std::string& output) {
  const auto store = open_existing(path, io::CacheStore::Mode::read_only);
  if (!store)
    return kExitRejected;
  std::uint64_t skipped = 0;
  try {
    if (format == "bundle") {
      io::AnswerCache bundle;
      fill_bundle(*store, bundle, skipped);
      const std::string bytes = io::encode_bundle(bundle);
      if (output.empty() || output == "-") {
        std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      } else {
        io::write_file_durably(output, bytes);
      }
    } else {
      std::FILE* out = output.empty() || output == "-" ? stdout : std::fopen(output.c_str(), "w");
      if (out == nullptr)
        throw std::system_error(errno, std::generic_category(), "cannot create " + output);
      // By game, then key: two exports of caches with the same entries are the same text.
      store->for_each_entry(
          [&](const io::CacheKey& key, const io::CacheEntry& entry, std::int64_t, bool damaged) {
            if (damaged ||
                io::case_key(entry.game, entry.solver_version, entry.canonical_case) != key) {
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
      const bool written = std::fflush(out) == 0 && std::ferror(out) == 0;
      if (out != stdout)
        std::fclose(out);
      if (!written)
        throw std::runtime_error("cannot write the export");
    }
    std::cout.flush();
  } catch (const std::exception& error) {
    spdlog::error("{}: cannot export: {}", path, error.what());
    return kExitRejected;
  }
  if (skipped != 0) {
    spdlog::warn("{}: {} damaged records left out of the export (a run solves them again)", path,
                 skipped);
  }
  return std::cout ? kExitSolved : kExitRejected;
}

int cache_import(const std::string& path, const std::vector<std::string>& sources) {
  std::unique_ptr<io::CacheStore> store;
  try {
    if (io::classify_cache_file(path) == io::CacheFileKind::version_one)
      pipeline::import_version_one_in_place(path);
    store = std::make_unique<io::CacheStore>(path, io::CacheStore::Mode::read_write);
  } catch (const std::exception& error) {
    spdlog::error("{}: {}", path, error.what());
    return kExitRejected;
  }
  int status = kExitSolved;
  for (const std::string& source : sources) {
    try {
      const io::ImportCounts counts = io::import_cache_file(*store, source);
      std::fprintf(stderr, "imported %s: entries: %ju artefacts: %ju", source.c_str(),
                   static_cast<std::uintmax_t>(counts.entries),
                   static_cast<std::uintmax_t>(counts.artefacts));
      if (counts.skipped != 0)
        std::fprintf(stderr, " (%ju damaged records left out)",
                     static_cast<std::uintmax_t>(counts.skipped));
      std::fprintf(stderr, "\n");
    } catch (const std::exception& error) {
      spdlog::error("{}: {}", source, error.what());
      status = kExitRejected;
    }
  }
  try {
    std::fprintf(stderr, "%s: entries: %ju\n", path.c_str(),
                 static_cast<std::uintmax_t>(store->entry_count()));
  } catch (const std::exception& error) {
    spdlog::error("{}: {}", path, error.what());
    status = kExitRejected;
  }
  return status;
}

int cache_merge(const std::string& output, const std::vector<std::string>& inputs) {
  // Built under a temporary name and renamed over OUT only when every input was read whole: a
  // missing or damaged shard must not pass for a complete merge.
  fs::path temporary = output;
  temporary += ".tmp." + std::to_string(::getpid()) + ".merge";
  const auto remove_temporary = [&] {
    std::error_code ignored;
    for (const char* side : {"", "-wal", "-shm"}) {
      fs::path file = temporary;
      file += side;
      fs::remove(file, ignored);
    }
  };
  std::uint64_t entries = 0;
  std::size_t artefacts = 0;
  try {
    {
      io::CacheStore merged(temporary, io::CacheStore::Mode::read_write);
      for (const std::string& input : inputs) {
        try {
          const io::ImportCounts counts = io::import_cache_file(merged, input);
          if (counts.skipped != 0)
            throw io::CacheFormatError(std::to_string(counts.skipped) + " damaged records");
        } catch (const std::exception& error) {
          spdlog::error("{}: {}", input, error.what());
          remove_temporary();
          return kExitRejected;
        }
      }
      entries = merged.entry_count();
      artefacts = merged.artefact_infos().size();
    }
    fs::rename(temporary, output);
  } catch (const std::exception& error) {
    spdlog::error("{}: cannot write: {}", output, error.what());
    remove_temporary();
    return kExitRejected;
  }
  std::fprintf(stderr, "merged %zu caches into %s: entries: %ju artefacts: %zu\n", inputs.size(),
               output.c_str(), static_cast<std::uintmax_t>(entries), artefacts);
  return kExitSolved;
}

int cache_verify(const std::string& path) {
  try {
    const io::CacheFileKind kind = io::classify_cache_file(path);
    if (kind == io::CacheFileKind::missing) {
      spdlog::error("{}: no such cache file", path);
      return kExitRejected;
    }
    if (kind == io::CacheFileKind::version_one) {
      io::AnswerCache bundle;
      io::load_bundle_file(path, bundle);
      std::printf(
          "%s: sound (a version-1 cache or bundle, entries: %zu, artefacts: %zu; a run "
          "imports it)\n",
          path.c_str(), bundle.size(), bundle.artefact_count());
      return kExitSolved;
    }
    io::CacheStore store(path, io::CacheStore::Mode::read_only);
    const std::vector<std::string> problems = store.integrity_problems();
    if (!problems.empty()) {
      spdlog::error("{}: damaged: {}", path, problems.front());
      return kExitRejected;
    }
    // Beyond SQLite's own check: every record's checksum, and every key the hash of its case.
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
    std::size_t artefacts = 0;
    store.for_each_artefact([&](const std::string&, const io::Artefact&, bool damaged) {
      ++artefacts;
      damaged_records += damaged ? 1 : 0;
    });
    if (damaged_records != 0) {
      spdlog::error("{}: damaged: {} records fail their checksum (a run solves them again)", path,
                    damaged_records);
      return kExitRejected;
    }
    if (mismatched != 0) {
      spdlog::error("{}: {} entries are stored under a key that is not their case's hash", path,
                    mismatched);
      return kExitRejected;
    }
    std::printf("%s: sound (format version %u, entries: %ju, artefacts: %zu)\n", path.c_str(),
                io::kStoreFormatVersion, static_cast<std::uintmax_t>(entries), artefacts);
  } catch (const std::exception& error) {
    spdlog::error("{}: {}", path, error.what());
    return kExitRejected;
  }
  return kExitSolved;
}

}  // namespace

void add_cache_commands(CLI::App& app, CacheArguments& arguments) {
  CLI::App* cache =
      app.add_subcommand("cache", "Inspect, trim, export, import, merge and verify answer caches");
  cache->require_subcommand(1);
  cache->footer(
      "A cache is one SQLite file (PATH-wal and PATH-shm sit beside it while a run has it\n"
      "open). Its portable forms: 'export' as JSON lines, or as a checksummed Boost archive\n"
      "bundle that 'import' folds into any cache. A version-1 cache (gamebatch 0.2) is\n"
      "imported on first use.\n"
      "Exit status: 0 done, 1 a cache file is missing or not sound, 2 usage error.");

  CLI::App* stats = cache->add_subcommand(
      "stats",
      "Size, entries per game and solver version, stale entries, last-use ages, and the\n"
      "programs compiled beside FILE (DIR/compiled)");
  stats->add_option("FILE", arguments.file, "The cache file")->required()->type_name("");

  CLI::App* trim = cache->add_subcommand(
      "trim",
      "Drop stale entries, then the least recently used programs compiled beside FILE\n"
      "(DIR/compiled), then the least recently used entries, until both fit SIZE");
  trim->add_option("FILE", arguments.file, "The cache file")->required()->type_name("");
  trim->add_option("--max-size", arguments.max_size,
                   "The size to fit in: bytes, or with a suffix k, M, G, T (powers of 1000) or\n"
                   "Ki, Mi, Gi, Ti (powers of 1024)")
      ->required()
      ->type_name("SIZE");

  CLI::App* exporter = cache->add_subcommand(
      "export", "Write every sound entry as JSON lines, or the whole cache as a bundle");
  exporter->add_option("FILE", arguments.file, "The cache file")->required()->type_name("");
  exporter
      ->add_option("--format", arguments.format,
                   "jsonl: one object per line with game, solver_version, key, case, answer;\n"
                   "bundle: a checksummed Boost binary archive of entries and artefacts")
      ->check(CLI::IsMember({"jsonl", "bundle"}))
      ->type_name("FORMAT");
  exporter->add_option("--output,-o", arguments.output, "Write to OUT instead of stdout")
      ->type_name("OUT");

  CLI::App* importer = cache->add_subcommand(
      "import", "Fold bundles, version-1 caches or other caches into FILE (created if missing)");
  importer->add_option("FILE", arguments.file, "The cache file to add to")
      ->required()
      ->type_name("");
  importer->add_option("SOURCE", arguments.sources, "Bundles or cache files to read")
      ->required()
      ->type_name("");

  CLI::App* merge = cache->add_subcommand(
      "merge", "Write the union of several caches (a cluster run's shards) to OUT");
  merge->add_option("OUT", arguments.merge_output, "The cache file to write (replaced)")
      ->required()
      ->type_name("");
  merge->add_option("IN", arguments.sources, "Caches or bundles to join; each must be sound")
      ->required()
      ->type_name("");

  CLI::App* verify =
      cache->add_subcommand("verify", "Check a cache file; exit 0 when sound, 1 with the reason");
  verify->add_option("FILE", arguments.file, "The cache file")->required()->type_name("");
}

int run_cache_command(const CLI::App& app, const CacheArguments& arguments) {
  const CLI::App* cache = app.get_subcommand("cache");
  if (cache->got_subcommand("stats"))
    return cache_stats(arguments.file);
  if (cache->got_subcommand("trim"))
    return cache_trim(arguments.file, arguments.max_size);
  if (cache->got_subcommand("export"))
    return cache_export(arguments.file, arguments.format, arguments.output);
  if (cache->got_subcommand("import"))
    return cache_import(arguments.file, arguments.sources);
  if (cache->got_subcommand("merge"))
    return cache_merge(arguments.merge_output, arguments.sources);
  if (cache->got_subcommand("verify"))
    return cache_verify(arguments.file);
  return kExitUsage;
}

}  // namespace gamebatch::cli
