// io/cache: the answer cache's room. Its theory of operation.
//
// What it is for. A rerun after an edit of the data should cost only the cases that changed. The
// cache remembers, for every case solved before, the exact answer text, keyed by what determines
// it: the game, the solver's version and the case's canonical text. It also keeps a game's
// artefacts (doublemove's state tables), so that a table built once is loaded, not rebuilt.
//
// Its parts.
// - answer_cache.hpp: the vocabulary (CacheKey = XXH3-128 of game, version and canonical case;
//   CacheEntry; the artefact record) and the portable, serialized form of a cache: a bundle, one
//   checksummed Boost binary archive, its layout beside encode_bundle in answer_cache.cpp. Bundles
//   are what `cache export --format bundle` writes and `cache import` reads, and what a version-1
//   cache file (gamebatch 0.2) is.
// - cache_store.hpp (this file): the cache itself, one SQLite file in WAL mode, looked up record by
//   record and never loaded whole; its file layout and invariants are written beside the code that
//   creates them, at the top of cache_store.cpp.
//
// How a call flows. A run's cache session (pipeline/answers/cache_session) opens a CacheStore,
// computes case_key() for each case worth caching, and calls find(): a hit whose key_high and
// checksum hold returns the stored answer; anything else is a miss and the case is solved. New
// answers are handed to add_entries() in batches at checkpoints, one transaction each. `cache
// stats`, `trim`, `verify`, `export`, `import` and `merge` (tools/cache_commands) use the same
// class.
//
// What it promises.
// - Nothing lost: a committed checkpoint survives kill -9 (WAL with synchronous = NORMAL: a power
//   loss may cost the last checkpoints, never the file's soundness); a run that dies loses at most
//   the answers since its last checkpoint.
// - A damaged record is never returned: every answer and artefact carries its own checksum, and a
//   record that fails it is a miss (solved again, then replaced). A damaged or foreign file is
//   refused or set aside whole (StoreFormatError, StoreDamagedError), never half read; a bundle is
//   trusted only after its header, length and checksum pass, before Boost reads a byte of it.
// - Many processes (shards, MPI ranks, two terminals) may share one file: readers never block the
//   writer, and a writer waits for another's transaction.
//
// What it must never depend on: running programs (io/run/) or anything above io/. It uses the
// games' Problem (io/problem.hpp) for artefacts and the files room (io/files/) for atomic writes,
// content hashes and reading a bundle. Headers used from outside: answer_cache.hpp and this one.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "io/cache/answer_cache.hpp"
#include "io/problem.hpp"

namespace gamebatch::io {

// The store's file format version (SQLite's user_version). Version 1 was the whole-file Boost
// archive that is now the bundle format (io/cache/answer_cache.hpp).
inline constexpr std::uint32_t kStoreFormatVersion = 2;

// The file is not a version-1 cache either but not a sound store: not SQLite, another
// application's database, another format version, a damaged header or schema. what() says which.
// (A CacheFormatError, so callers treat it like any other untrustworthy cache.)
class StoreFormatError : public CacheFormatError {
 public:
  using CacheFormatError::CacheFormatError;
};

// SQLite found damage while reading or writing (SQLITE_CORRUPT, SQLITE_NOTADB mid-run).
class StoreDamagedError : public CacheFormatError {
 public:
  using CacheFormatError::CacheFormatError;
};

// What a file's first bytes say it is.
enum class CacheFileKind {
  missing,      // no file, or an empty one (a store whose creation never committed)
  store,        // an SQLite database (a format-2 cache, or another application's)
  version_one,  // a version-1 cache: a bundle, to be imported
  other,        // anything else
};
CacheFileKind classify_cache_file(const std::filesystem::path& path);

// An answer as stored, with the time it was last used.
struct StoredAnswer {
  std::string answer;
  std::int64_t last_used = 0;  // seconds since the epoch
};

// The outcome of looking a key up.
struct Lookup {
  std::optional<StoredAnswer> found;
  bool damaged = false;  // a record is there but its checksum fails: re-solve and replace it
};

// A new entry for add_entries; replace: overwrite a damaged record under the same key.
struct NewEntry {
  CacheKey key;
  CacheEntry entry;
  bool replace = false;
};

struct StoredArtefactInfo {
  std::string game, name;
  std::uint32_t version = 0;
  std::uint64_t bytes = 0;
  std::int64_t last_used = 0;
};

// Per (game, solver version): entries and their last-use times, for `cache stats`.
struct EntryGroup {
  std::string game;
  std::uint32_t solver_version = 0;
  std::uint64_t entries = 0;
  std::uint64_t payload_bytes = 0;  // case + answer bytes
  std::int64_t oldest_use = 0, newest_use = 0;
};

// The ages, in seconds, that split last uses into "within a day", "within a week", "within 30
// days" and "earlier" (CacheStore::entry_ages, and `cache stats` for compiled programs).
inline constexpr std::array<std::int64_t, 3> kLastUseAgeBounds = {86400, 7 * 86400, 30 * 86400};

class CacheStore {
 public:
  // read_only: the file must exist and is never written (but for folding in a killed run's log).
  enum class Mode { read_write, read_only };

  // Opens PATH (read_write creates it, with its directory, when missing or empty). Throws
  // StoreFormatError when the file is not a sound store of this format (a version-1 file too:
  // check classify_cache_file first), std::system_error / std::runtime_error when it cannot be
  // opened. Opening reads the header and the schema only: its cost does not depend on the size.
  CacheStore(const std::filesystem::path& path, Mode mode);
  ~CacheStore();
  CacheStore(const CacheStore&) = delete;
  CacheStore& operator=(const CacheStore&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // Thread-safe (each caller borrows a connection of a small pool). A record whose checksum fails
  // is reported as damaged, never returned.
  Lookup find(const CacheKey& key);

  // One write transaction: new entries (existing keys are kept unless `replace`) and last-use
  // refreshes. Waits for another process's transaction (calls on_wait once when it must).
  void add_entries(const std::vector<NewEntry>& entries, std::int64_t now);
  void touch_entries(const std::vector<CacheKey>& keys, std::int64_t now);

  // Artefacts: read one by name (nullopt when absent or damaged), ask whether one is stored
  // (without reading it), store one (replacing one of the same game and name).
  std::optional<Artefact> find_artefact(std::string_view game, std::string_view name);
  bool has_artefact(std::string_view game, std::string_view name);
  // replace = false keeps a stored artefact of that name (an import never overwrites).
  void put_artefact(std::string_view game, const Artefact& artefact, std::int64_t now,
                    bool replace = true);
  void touch_artefact(std::string_view game, std::string_view name, std::int64_t now);

  // Walks every entry, by game then key (for export, verify, import). A visit returning false
  // stops. `damaged` is true for an entry whose checksum fails.
  void for_each_entry(const std::function<bool(const CacheKey&, const CacheEntry&,
                                               std::int64_t last_used, bool damaged)>& visit);
  // Every artefact whole (for export and import); `damaged` as above.
  void for_each_artefact(
      const std::function<void(const std::string& game, const Artefact&, bool damaged)>& visit);

  std::uint64_t entry_count();
  std::vector<EntryGroup> entry_groups();
  std::vector<StoredArtefactInfo> artefact_infos();
  // Entries last used within a day of `now`, within a week, within 30 days, and earlier (the
  // bounds: kLastUseAgeBounds).
  std::array<std::uint64_t, 4> entry_ages(std::int64_t now);

  // Deletes the entries and artefacts of (game, version) pairs for which `is_stale` says true
  // (entries: the solver version; artefacts: the artefact version). Returns the entries deleted.
  std::uint64_t delete_stale(
      const std::function<bool(std::string_view game, std::uint32_t version)>& entry_is_stale,
      const std::function<bool(std::string_view game, std::uint32_t version)>& artefact_is_stale);
  // Deletes the least recently used entries and artefacts until at most `keep_payload_bytes` of
  // case, answer and artefact bytes remain. Returns how many it deleted.
  std::uint64_t delete_least_recently_used(std::uint64_t keep_payload_bytes);
  // Rewrites the file without its free pages (VACUUM), so that a trim shrinks it on disk.
  void compact();

  // SQLite's own full check (PRAGMA integrity_check); returns its complaints, empty when sound.
  std::vector<std::string> integrity_problems();

  // The bytes a store without entries or artefacts takes.
  std::uint64_t empty_bytes();
  // The bytes on disk: the file plus its write-ahead log.
  std::uint64_t disk_bytes() const;

  // Called once per write that must wait for another process (for a "waiting" message).
  void on_busy(std::function<void()> callback);

 private:
  struct Connection;
  class Borrowed;
  // Shared by every connection's busy handler.
  struct BusyState {
    std::function<void()> on_busy;
    std::atomic<bool> told{false};
  };

  // A connection to `at`, or to the cache itself.
  std::unique_ptr<Connection> open_connection(const std::filesystem::path& at);
  std::unique_ptr<Connection> open_connection();
  // Makes a missing cache whole under a temporary name and links it into place (see the .cpp).
  void create_whole();
  void check_format(Connection& connection);
  // Writes the schema and the ids into an empty database, in one transaction.
  static void initialise(Connection& connection);
  // A pooled connection; keep_read: leave its shared read transaction open (look-ups only).
  Borrowed borrow(bool keep_read = false);
  void give_back(std::unique_ptr<Connection> connection);
  static void end_read(Connection& connection);
  // Ends the read transactions of idle connections (before a commit).
  void end_idle_reads();
  // Runs `body(writer)` inside BEGIN IMMEDIATE ... COMMIT (rolled back when it throws).
  void write_transaction(const std::function<void(Connection&)>& body);

  std::filesystem::path path_;
  Mode mode_;
  BusyState busy_;
  std::mutex pool_mutex_;
  std::vector<std::unique_ptr<Connection>> idle_;
  std::mutex writer_mutex_;
  std::unique_ptr<Connection> writer_;
};

// What import_cache_file folded in.
struct ImportCounts {
  std::uint64_t entries = 0;    // sound entries read from the source
  std::uint64_t skipped = 0;    // damaged ones, or whose key is not their case's hash: left out
  std::uint64_t artefacts = 0;  // sound artefacts read
};

// Folds every sound entry and artefact of `source` (a store, a bundle, or a version-1 cache file)
// into `into`, in transactions of at most 100,000 entries; entries and artefacts `into` already
// has are kept.
// Throws CacheFormatError when `source` is not sound (nothing is imported from a bundle then;
// from a store, damage met half way leaves what was committed), std::system_error when it
// cannot be read.
ImportCounts import_cache_file(CacheStore& into, const std::filesystem::path& source);

// The checksum stored with an answer: XXH3-64 over the key, the game, the solver version and the
// answer (the key itself is a hash of the case, so the pair covers the whole entry).
std::uint64_t answer_checksum(const CacheKey& key, std::string_view game,
                              std::uint32_t solver_version, std::string_view answer);

}  // namespace gamebatch::io
