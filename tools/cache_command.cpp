// `gamebatch cache stats|trim|export|import|merge|verify`: look into and look after answer caches
// (the engine: pipeline/cache_maintenance.hpp).
#include <array>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "io/cache/cache_store.hpp"
#include "pipeline/answers/cache_session.hpp"
#include "pipeline/machine.hpp"
#include "pipeline/solve/cache_maintenance.hpp"
#include "tools/support/command.hpp"

namespace gamebatch::cli {
namespace {

struct CacheArguments {
  std::string file;
  std::string format = "jsonl";
  std::string output;  // export: where to write (empty: stdout)
  std::string max_size;
  std::string merge_output;
  std::vector<std::string> sources;  // merge: the inputs; import: the bundles or caches
};

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

// "last used: N within a day, ..." of entry_ages() and of the compiled programs.
std::string last_used_text(const std::array<std::uint64_t, 4>& ages) {
  return "last used: " + std::to_string(ages[0]) + " within a day, " + std::to_string(ages[1]) +
         " within a week, " + std::to_string(ages[2]) + " within 30 days, " +
         std::to_string(ages[3]) + " earlier";
}

void print_compiled_programs(const pipeline::CacheStats::CompiledPrograms& compiled) {
  std::printf(
      "compiled programs: %zu in %s (%ju bytes, %s)%s\n", compiled.programs, compiled.store.c_str(),
      static_cast<std::uintmax_t>(compiled.bytes), megabytes(compiled.bytes).c_str(),
      compiled.compile_errors == 0
          ? ""
          : (" of which " + std::to_string(compiled.compile_errors) + " stored compile errors")
                .c_str());
  if (compiled.programs != 0)
    std::printf("  %s\n", last_used_text(compiled.ages).c_str());
}

void print_entries(const pipeline::CacheStats& stats) {
  std::printf("entries: %ju\n", static_cast<std::uintmax_t>(stats.entries));
  for (const pipeline::CacheStats::Group& entry : stats.groups) {
    const io::EntryGroup& group = entry.group;
    std::printf("  %s, solver version %u: %ju (%s of cases and answers)%s\n", group.game.c_str(),
                group.solver_version, static_cast<std::uintmax_t>(group.entries),
                megabytes(group.payload_bytes).c_str(),
                entry.stale ? " stale: another solver version, never reused" : "");
  }
  std::printf("stale entries: %ju (removed by 'gamebatch cache trim')\n",
              static_cast<std::uintmax_t>(stats.stale_entries));
  std::printf("%s\n", last_used_text(stats.entry_ages).c_str());
}

void print_stats(const std::string& path, const pipeline::CacheStats& stats) {
  std::printf("file: %s\n", path.c_str());
  std::printf("format version: %u (SQLite)\n", io::kStoreFormatVersion);
  std::printf("size: %ju bytes (%s)\n", static_cast<std::uintmax_t>(stats.disk_bytes),
              megabytes(stats.disk_bytes).c_str());
  print_entries(stats);
  std::printf("artefacts: %zu (%ju bytes)\n", stats.artefacts.size(),
              static_cast<std::uintmax_t>(stats.artefact_bytes));
  for (const pipeline::CacheStats::Artefact& artefact : stats.artefacts) {
    const io::StoredArtefactInfo& info = artefact.info;
    std::printf("  %s: %s (version %u, %ju bytes, last used %s)%s\n", info.game.c_str(),
                info.name.c_str(), info.version, static_cast<std::uintmax_t>(info.bytes),
                age(stats.now - info.last_used).c_str(), artefact.stale ? " stale" : "");
  }
  print_compiled_programs(stats.compiled);
}

int cache_stats(const std::string& path) {
  const auto store = pipeline::open_existing_cache(path, io::CacheStore::Mode::read_only);
  if (!store)
    return kExitRejected;
  try {
    print_stats(path, pipeline::cache_stats(path, *store));
  } catch (const std::exception& error) {
    std::fflush(stdout);
    spdlog::error("{}: {}", path, error.what());
    return kExitRejected;
  }
  return kExitSolved;
}

void print_trim(const std::string& path, const pipeline::CacheTrim& trim, std::uint64_t max_size) {
  std::fprintf(
      stderr,
      "trimmed %s: %ju stale entries and %ju least recently used entries or artefacts "
      "removed; size %ju -> %ju bytes (limit %ju)\n",
      path.c_str(), static_cast<std::uintmax_t>(trim.stale),
      static_cast<std::uintmax_t>(trim.dropped), static_cast<std::uintmax_t>(trim.bytes_before),
      static_cast<std::uintmax_t>(trim.bytes_after), static_cast<std::uintmax_t>(trim.limit));
  const io::StoreTrim& programs = trim.program_trim;
  if (programs.bytes_before > 0) {
    std::fprintf(stderr,
                 "trimmed %s: %zu least recently used compiled programs removed; size %ju -> "
                 "%ju bytes\n",
                 trim.programs.c_str(), programs.removed,
                 static_cast<std::uintmax_t>(programs.bytes_before),
                 static_cast<std::uintmax_t>(programs.bytes_after));
  }
  if (programs.busy) {
    spdlog::warn("{}: its programs are in use by a running check, stress or build: not trimmed",
                 trim.programs.string());
  }
  if (trim.bytes_after + programs.bytes_after > max_size && !programs.busy) {
    spdlog::warn("{} is still {} bytes with nothing left in it: an empty cache takes that much",
                 path, trim.bytes_after);
  }
}

int cache_trim(const std::string& path, const std::string& max_size_text) {
  const std::optional<std::uint64_t> max_size = pipeline::parse_size(max_size_text);
  if (!max_size) {
    spdlog::error("--max-size: expected a size such as 500M, 2G or 64Mi, found '{}'",
                  max_size_text);
    return kExitUsage;
  }
  const auto store = pipeline::open_existing_cache(path, io::CacheStore::Mode::read_write);
  if (!store)
    return kExitRejected;
  try {
    print_trim(path, pipeline::trim_cache(path, *store, *max_size), *max_size);
  } catch (const std::exception& error) {
    spdlog::error("{}: cannot trim: {}", path, error.what());
    return kExitRejected;
  }
  return kExitSolved;
}

int cache_export(const std::string& path, const std::string& format, const std::string& output) {
  const auto store = pipeline::open_existing_cache(path, io::CacheStore::Mode::read_only);
  if (!store)
    return kExitRejected;
  std::uint64_t skipped = 0;
  try {
    skipped = pipeline::export_cache(*store, format, output);
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

// Folds one source into the store and says what it held; false (after saying why) if it cannot.
bool import_source(io::CacheStore& store, const std::string& source) {
  try {
    const io::ImportCounts counts = io::import_cache_file(store, source);
    std::fprintf(stderr, "imported %s: entries: %ju artefacts: %ju", source.c_str(),
                 static_cast<std::uintmax_t>(counts.entries),
                 static_cast<std::uintmax_t>(counts.artefacts));
    if (counts.skipped != 0)
      std::fprintf(stderr, " (%ju damaged records left out)",
                   static_cast<std::uintmax_t>(counts.skipped));
    std::fprintf(stderr, "\n");
    return true;
  } catch (const std::exception& error) {
    spdlog::error("{}: {}", source, error.what());
    return false;
  }
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
    if (!import_source(*store, source))
      status = kExitRejected;
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
  const std::optional<pipeline::MergeCounts> merged = pipeline::merge_caches(output, inputs);
  if (!merged)
    return kExitRejected;
  std::fprintf(stderr, "merged %zu caches into %s: entries: %ju artefacts: %zu\n", inputs.size(),
               output.c_str(), static_cast<std::uintmax_t>(merged->entries), merged->artefacts);
  return kExitSolved;
}

int cache_verify(const std::string& path) {
  const std::optional<std::string> sound = pipeline::verify_cache(path);
  if (!sound)
    return kExitRejected;
  std::printf("%s\n", sound->c_str());
  return kExitSolved;
}

// stats, trim and export: the subcommands that read one cache FILE.
void add_reading_subcommands(CLI::App& cache, CacheArguments& arguments) {
  CLI::App* stats = cache.add_subcommand(
      "stats",
      "Size, entries per game and solver version, stale entries, last-use ages, and the\n"
      "programs compiled beside FILE (DIR/compiled)");
  stats->add_option("FILE", arguments.file, "The cache file")->required()->type_name("");

  CLI::App* trim = cache.add_subcommand(
      "trim",
      "Drop stale entries, then the least recently used programs compiled beside FILE\n"
      "(DIR/compiled), then the least recently used entries, until both fit SIZE");
  trim->add_option("FILE", arguments.file, "The cache file")->required()->type_name("");
  trim->add_option("--max-size", arguments.max_size,
                   "The size to fit in: bytes, or with a suffix k, M, G, T (powers of 1000) or\n"
                   "Ki, Mi, Gi, Ti (powers of 1024)")
      ->required()
      ->type_name("SIZE");

  CLI::App* exporter = cache.add_subcommand(
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
}

// import, merge and verify.
void add_writing_subcommands(CLI::App& cache, CacheArguments& arguments) {
  CLI::App* importer = cache.add_subcommand(
      "import", "Fold bundles, version-1 caches or other caches into FILE (created if missing)");
  importer->add_option("FILE", arguments.file, "The cache file to add to")
      ->required()
      ->type_name("");
  importer->add_option("SOURCE", arguments.sources, "Bundles or cache files to read")
      ->required()
      ->type_name("");

  CLI::App* merge = cache.add_subcommand(
      "merge", "Write the union of several caches (a cluster run's shards) to OUT");
  merge->add_option("OUT", arguments.merge_output, "The cache file to write (replaced)")
      ->required()
      ->type_name("");
  merge->add_option("IN", arguments.sources, "Caches or bundles to join; each must be sound")
      ->required()
      ->type_name("");

  CLI::App* verify =
      cache.add_subcommand("verify", "Check a cache file; exit 0 when sound, 1 with the reason");
  verify->add_option("FILE", arguments.file, "The cache file")->required()->type_name("");
}

class CacheCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    cache_ = app.add_subcommand("cache",
                                "Inspect, trim, export, import, merge and verify answer caches");
    CLI::App* cache = cache_;
    cache->require_subcommand(1);
    cache->footer(
        "A cache is one SQLite file (PATH-wal and PATH-shm sit beside it while a run has it\n"
        "open). Its portable forms: 'export' as JSON lines, or as a checksummed Boost archive\n"
        "bundle that 'import' folds into any cache. A version-1 cache (gamebatch 0.2) is\n"
        "imported on first use.\n"
        "Exit status: 0 done, 1 a cache file is missing or not sound, 2 usage error.");

    add_reading_subcommands(*cache, arguments_);
    add_writing_subcommands(*cache, arguments_);
    return cache;
  }

  int run() override {
    const CacheArguments& arguments = arguments_;
    if (cache_->got_subcommand("stats"))
      return cache_stats(arguments.file);
    if (cache_->got_subcommand("trim"))
      return cache_trim(arguments.file, arguments.max_size);
    if (cache_->got_subcommand("export"))
      return cache_export(arguments.file, arguments.format, arguments.output);
    if (cache_->got_subcommand("import"))
      return cache_import(arguments.file, arguments.sources);
    if (cache_->got_subcommand("merge"))
      return cache_merge(arguments.merge_output, arguments.sources);
    if (cache_->got_subcommand("verify"))
      return cache_verify(arguments.file);
    return kExitUsage;
  }

  // Safe to kill at any point: a cache's writes are transactions.
  bool stops_cleanly() const override { return false; }

 private:
  CLI::App* cache_ = nullptr;
  CacheArguments arguments_;
};

}  // namespace

std::unique_ptr<Command> make_cache_command() {
  return std::make_unique<CacheCommand>();
}

}  // namespace gamebatch::cli
