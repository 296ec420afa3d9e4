// cache_store_bench: measures SQLite (WAL) and LMDB as the answer cache's on-disk key-value
// store, so the choice between them rests on figures taken side by side on one machine.
//
//   cache_store_bench [--entries N] [--lookups M] [--threads T] [--dir DIR] [--skip-corruption]
//                     [--random-flips K]
//
// Three stores are measured, each holding the same N records (key = XXH3-128 of game, solver
// version and canonical case; record = game, solver version, case text of ~60 bytes, answer of 6
// bytes, XXH3-64 checksum, last-used time):
//   - SQLite, WAL, WITHOUT ROWID table keyed by the 16-byte key as a BLOB;
//   - SQLite, WAL, rowid table: INTEGER PRIMARY KEY = the key's low 64 bits, the high 64 bits in a
//     column that a look-up checks;
//   - LMDB, one file (MDB_NOSUBDIR: PATH and PATH-lock), MDB_NOTLS, 64 GiB map.
// Each engine runs in forked children (build; cold open, several times; look-ups and the
// incremental save), so wait4's ru_maxrss is that engine's memory alone. Prints one Markdown
// table with a row per engine, then (unless --skip-corruption) what each engine does when one
// byte of a copy of its file is flipped and every key is looked up (fixed offsets in the middle
// of the file and in an interior page; with --random-flips K, also K random offsets, counted by
// outcome). A child that crashes on a damaged file is reported, not fatal.
//
// Standalone: plain C++, the SQLite3 and LMDB C APIs and xxhash; no project libraries.
#include <fcntl.h>
#include <lmdb.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <xxhash.h>
#include <CLI/CLI.hpp>

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kBuildBatch = 100'000;          // records per write transaction
constexpr std::size_t kIncrementalRecords = 200'000;  // added to the N-record store ...
constexpr std::size_t kIncrementalTransactions = 2;   // ... in this many transactions
constexpr std::size_t kLookupBatch = 1'000;           // look-ups per read transaction
constexpr std::size_t kColdLookups = 10;
constexpr int kColdRepeats = 5;
constexpr std::size_t kLmdbMapBytes = std::size_t{64} << 30;
constexpr std::uint32_t kSolverVersion = 1;

// ---------------------------------------------------------------------------------------------
// Records and keys

struct Key {
  std::uint64_t low = 0;
  std::uint64_t high = 0;
};
static_assert(sizeof(Key) == 16);

struct Record {
  std::string game;
  std::uint32_t solver_version = 0;
  std::string canonical_case;
  std::string answer;
  std::uint64_t checksum = 0;
  std::int64_t last_used = 0;

  bool operator==(const Record&) const = default;
};

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A small, fast random generator (splitmix64).
struct Random {
  std::uint64_t state;
  explicit Random(std::uint64_t seed) : state(mix(seed + 0x9e3779b97f4a7c15ULL)) {}
  std::uint64_t operator()() {
    state += 0x9e3779b97f4a7c15ULL;
    return mix(state);
  }
};

std::uint64_t checksum_of(std::string_view game, std::uint32_t version, std::string_view text,
                          std::string_view answer) {
  thread_local std::string bytes;
  bytes.assign(game);
  bytes += '\n';
  bytes += std::to_string(version);
  bytes += '\n';
  bytes += text;
  bytes += '\n';
  bytes += answer;
  return XXH3_64bits(bytes.data(), bytes.size());
}

bool checksum_holds(const Record& record) {
  return checksum_of(record.game, record.solver_version, record.canonical_case, record.answer) ==
         record.checksum;
}

Key key_of(const Record& record) {
  thread_local std::string bytes;
  bytes.assign(record.game);
  bytes += '\n';
  bytes += std::to_string(record.solver_version);
  bytes += '\n';
  bytes += record.canonical_case;
  const XXH128_hash_t hash = XXH3_128bits(bytes.data(), bytes.size());
  return Key{hash.low64, hash.high64};
}

// Record `index` of the benchmark: a wallgame-like board of 4-8 rows of 6-10 digits (about 60
// bytes of case text) and a 6-digit answer. The same index always gives the same record.
Record make_record(std::uint64_t index) {
  Random random(index);
  Record record;
  record.game = index % 4 == 0 ? "boigame" : "wallgame";
  record.solver_version = kSolverVersion;
  const auto rows = 4 + random() % 5;
  const auto columns = 6 + random() % 5;
  record.canonical_case = std::to_string(rows) + " " + std::to_string(columns) + "\n";
  for (std::uint64_t row = 0; row < rows; ++row) {
    for (std::uint64_t column = 0; column < columns; ++column)
      record.canonical_case += static_cast<char>('0' + random() % 10);
    record.canonical_case += '\n';
  }
  record.answer = std::to_string(100'000 + random() % 900'000);
  record.checksum =
      checksum_of(record.game, record.solver_version, record.canonical_case, record.answer);
  record.last_used = 1'750'000'000 + static_cast<std::int64_t>(index);
  return record;
}

// ---------------------------------------------------------------------------------------------
// The stores

enum class Lookup { kFound, kMissing, kKeyMismatch, kError };

// One thread's read access: a connection (SQLite) or a read transaction (LMDB).
class Reader {
 public:
  virtual ~Reader() = default;
  virtual void begin_batch() = 0;  // throws on failure
  virtual void end_batch() = 0;    // throws on failure
  // Never throws; on kError, error() says why.
  virtual Lookup get(const Key& key, Record& out) = 0;
  const std::string& error() const { return error_; }

 protected:
  std::string error_;
};

class Store {
 public:
  virtual ~Store() = default;
  virtual void begin_write() = 0;
  virtual void put(const Key& key, const Record& record) = 0;
  virtual void commit() = 0;
  virtual void checkpoint() {}
  virtual Reader& main_reader() = 0;                 // on the store's own connection
  virtual std::unique_ptr<Reader> new_reader() = 0;  // for another thread
};

enum class Engine { kSqliteBlob, kSqliteRowid, kLmdb };
constexpr Engine kEngines[] = {Engine::kSqliteBlob, Engine::kSqliteRowid, Engine::kLmdb};

const char* engine_name(Engine engine) {
  switch (engine) {
    case Engine::kSqliteBlob:
      return "SQLite WAL, WITHOUT ROWID, BLOB(16) key";
    case Engine::kSqliteRowid:
      return "SQLite WAL, rowid = key low 64, key_high column";
    case Engine::kLmdb:
      return "LMDB";
  }
  return "?";
}

const char* engine_file(Engine engine) {
  switch (engine) {
    case Engine::kSqliteBlob:
      return "sqlite_blob.db";
    case Engine::kSqliteRowid:
      return "sqlite_rowid.db";
    case Engine::kLmdb:
      return "lmdb.mdb";
  }
  return "?";
}

// ---- SQLite

struct SqliteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string sqlite_message(sqlite3* db, int code) {
  return std::string(sqlite3_errstr(code)) + " (" + std::to_string(code) +
         "): " + (db != nullptr ? sqlite3_errmsg(db) : "");
}

void sqlite_exec(sqlite3* db, const char* sql) {
  char* message = nullptr;
  const int code = sqlite3_exec(db, sql, nullptr, nullptr, &message);
  if (code != SQLITE_OK) {
    std::string text =
        std::string(sql) + ": " + sqlite3_errstr(code) + ": " + (message != nullptr ? message : "");
    sqlite3_free(message);
    throw SqliteError(text);
  }
}

// The first column of the first row of `sql`, as text.
std::string sqlite_text(sqlite3* db, const char* sql) {
  sqlite3_stmt* statement = nullptr;
  int code = sqlite3_prepare_v2(db, sql, -1, &statement, nullptr);
  if (code != SQLITE_OK)
    throw SqliteError(std::string(sql) + ": " + sqlite_message(db, code));
  std::string text;
  code = sqlite3_step(statement);
  if (code == SQLITE_ROW) {
    const auto* bytes = sqlite3_column_text(statement, 0);
    text = bytes != nullptr ? reinterpret_cast<const char*>(bytes) : "NULL";
  } else if (code != SQLITE_DONE) {
    text = sqlite_message(db, code);
  }
  sqlite3_finalize(statement);
  return text;
}

sqlite3_stmt* sqlite_prepare(sqlite3* db, const char* sql) {
  sqlite3_stmt* statement = nullptr;
  const int code = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, nullptr);
  if (code != SQLITE_OK)
    throw SqliteError(std::string(sql) + ": " + sqlite_message(db, code));
  return statement;
}

sqlite3* sqlite_open(const std::string& path, bool create) {
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
  const int code = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (code != SQLITE_OK) {
    const std::string text = "open " + path + ": " + sqlite_message(db, code);
    sqlite3_close_v2(db);
    throw SqliteError(text);
  }
  sqlite3_busy_timeout(db, 10'000);
  try {
    sqlite_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
  } catch (...) {
    sqlite3_close_v2(db);
    throw;
  }
  return db;
}

// Columns in both layouts: the small ones first, the case last (a look-up that only needs the
// answer then never reads a big case's overflow pages).
constexpr const char* kBlobSchema =
    "CREATE TABLE IF NOT EXISTS answers(key BLOB PRIMARY KEY NOT NULL, game TEXT NOT NULL, "
    "solver_version INTEGER NOT NULL, answer TEXT NOT NULL, checksum INTEGER NOT NULL, "
    "last_used INTEGER NOT NULL, canonical_case TEXT NOT NULL) WITHOUT ROWID";
constexpr const char* kRowidSchema =
    "CREATE TABLE IF NOT EXISTS answers(id INTEGER PRIMARY KEY, key_high INTEGER NOT NULL, "
    "game TEXT NOT NULL, solver_version INTEGER NOT NULL, answer TEXT NOT NULL, "
    "checksum INTEGER NOT NULL, last_used INTEGER NOT NULL, canonical_case TEXT NOT NULL)";

class SqliteReader final : public Reader {
 public:
  SqliteReader(sqlite3* db, bool owned, bool rowid) : db_(db), owned_(owned), rowid_(rowid) {
    try {
      select_ = sqlite_prepare(
          db_, rowid_ ? "SELECT key_high, game, solver_version, answer, checksum, last_used, "
                        "canonical_case FROM answers WHERE id = ?1"
                      : "SELECT game, solver_version, answer, checksum, last_used, "
                        "canonical_case FROM answers WHERE key = ?1");
      begin_ = sqlite_prepare(db_, "BEGIN");
      commit_ = sqlite_prepare(db_, "COMMIT");
    } catch (...) {
      release();
      throw;
    }
  }
  ~SqliteReader() override { release(); }
  SqliteReader(const SqliteReader&) = delete;
  SqliteReader& operator=(const SqliteReader&) = delete;

  void begin_batch() override { run(begin_); }
  void end_batch() override { run(commit_); }

  Lookup get(const Key& key, Record& out) override {
    sqlite3_reset(select_);
    if (rowid_)
      sqlite3_bind_int64(select_, 1, static_cast<sqlite3_int64>(key.low));
    else
      sqlite3_bind_blob(select_, 1, &key, sizeof key, SQLITE_STATIC);
    const int code = sqlite3_step(select_);
    if (code == SQLITE_DONE)
      return Lookup::kMissing;
    if (code != SQLITE_ROW) {
      error_ = sqlite_message(db_, code);
      sqlite3_reset(select_);
      return Lookup::kError;
    }
    int column = 0;
    if (rowid_ && static_cast<std::uint64_t>(sqlite3_column_int64(select_, column++)) != key.high)
      return Lookup::kKeyMismatch;
    out.game.assign(text(column++));
    out.solver_version = static_cast<std::uint32_t>(sqlite3_column_int64(select_, column++));
    out.answer.assign(text(column++));
    out.checksum = static_cast<std::uint64_t>(sqlite3_column_int64(select_, column++));
    out.last_used = sqlite3_column_int64(select_, column++);
    out.canonical_case.assign(text(column++));
    return Lookup::kFound;
  }

 private:
  std::string_view text(int column) {
    const auto* bytes = sqlite3_column_text(select_, column);
    const int size = sqlite3_column_bytes(select_, column);
    if (bytes == nullptr)
      return {};
    return {reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size)};
  }

  void run(sqlite3_stmt* statement) {
    const int code = sqlite3_step(statement);
    sqlite3_reset(statement);
    if (code != SQLITE_DONE)
      throw SqliteError(std::string(sqlite3_sql(statement)) + ": " + sqlite_message(db_, code));
  }

  void release() {
    sqlite3_finalize(select_);
    sqlite3_finalize(begin_);
    sqlite3_finalize(commit_);
    select_ = begin_ = commit_ = nullptr;
    if (owned_)
      sqlite3_close_v2(db_);
    db_ = nullptr;
  }

  sqlite3* db_;
  bool owned_;
  bool rowid_;
  sqlite3_stmt* select_ = nullptr;
  sqlite3_stmt* begin_ = nullptr;
  sqlite3_stmt* commit_ = nullptr;
};

class SqliteStore final : public Store {
 public:
  SqliteStore(std::string path, bool rowid, bool create)
      : path_(std::move(path)), rowid_(rowid), db_(sqlite_open(path_, create)) {
    try {
      if (create)
        sqlite_exec(db_, rowid_ ? kRowidSchema : kBlobSchema);
      insert_ = sqlite_prepare(db_, rowid_ ? "INSERT INTO answers VALUES(?1,?2,?3,?4,?5,?6,?7,?8)"
                                           : "INSERT INTO answers VALUES(?1,?2,?3,?4,?5,?6,?7)");
      reader_ = std::make_unique<SqliteReader>(db_, false, rowid_);
    } catch (...) {
      release();
      throw;
    }
  }
  ~SqliteStore() override { release(); }
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

  void begin_write() override { sqlite_exec(db_, "BEGIN IMMEDIATE"); }
  void commit() override { sqlite_exec(db_, "COMMIT"); }
  void checkpoint() override { sqlite_exec(db_, "PRAGMA wal_checkpoint(TRUNCATE)"); }

  void put(const Key& key, const Record& record) override {
    sqlite3_reset(insert_);
    int column = 1;
    if (rowid_) {
      sqlite3_bind_int64(insert_, column++, static_cast<sqlite3_int64>(key.low));
      sqlite3_bind_int64(insert_, column++, static_cast<sqlite3_int64>(key.high));
    } else {
      sqlite3_bind_blob(insert_, column++, &key, sizeof key, SQLITE_STATIC);
    }
    bind_text(column++, record.game);
    sqlite3_bind_int64(insert_, column++, record.solver_version);
    bind_text(column++, record.answer);
    sqlite3_bind_int64(insert_, column++, static_cast<sqlite3_int64>(record.checksum));
    sqlite3_bind_int64(insert_, column++, record.last_used);
    bind_text(column++, record.canonical_case);
    const int code = sqlite3_step(insert_);
    sqlite3_reset(insert_);
    if (code != SQLITE_DONE)
      throw SqliteError("insert: " + sqlite_message(db_, code));
  }

  Reader& main_reader() override { return *reader_; }
  std::unique_ptr<Reader> new_reader() override {
    return std::make_unique<SqliteReader>(sqlite_open(path_, false), true, rowid_);
  }

 private:
  void bind_text(int column, const std::string& value) {
    sqlite3_bind_text(insert_, column, value.data(), static_cast<int>(value.size()), SQLITE_STATIC);
  }

  void release() {
    reader_.reset();
    sqlite3_finalize(insert_);
    insert_ = nullptr;
    sqlite3_close_v2(db_);  // the last connection: folds the WAL into the file and removes it
    db_ = nullptr;
  }

  std::string path_;
  bool rowid_;
  sqlite3* db_;
  sqlite3_stmt* insert_ = nullptr;
  std::unique_ptr<SqliteReader> reader_;
};

// ---- LMDB

struct LmdbError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void lmdb_check(int code, const char* what) {
  if (code != MDB_SUCCESS)
    throw LmdbError(std::string(what) + ": " + mdb_strerror(code));
}

// Value layout: u64 checksum, i64 last_used, u32 solver_version, u16 game size, u16 answer size
// (24 bytes), then game, answer and case text.
constexpr std::size_t kLmdbHeader = 24;

void encode(const Record& record, std::string& out) {
  const auto game_size = static_cast<std::uint16_t>(record.game.size());
  const auto answer_size = static_cast<std::uint16_t>(record.answer.size());
  out.resize(kLmdbHeader + record.game.size() + record.answer.size() +
             record.canonical_case.size());
  char* at = out.data();
  std::memcpy(at, &record.checksum, 8);
  std::memcpy(at + 8, &record.last_used, 8);
  std::memcpy(at + 16, &record.solver_version, 4);
  std::memcpy(at + 20, &game_size, 2);
  std::memcpy(at + 22, &answer_size, 2);
  at += kLmdbHeader;
  std::memcpy(at, record.game.data(), record.game.size());
  at += record.game.size();
  std::memcpy(at, record.answer.data(), record.answer.size());
  at += record.answer.size();
  std::memcpy(at, record.canonical_case.data(), record.canonical_case.size());
}

bool decode(const MDB_val& value, Record& out) {
  if (value.mv_size < kLmdbHeader)
    return false;
  const char* at = static_cast<const char*>(value.mv_data);
  std::uint16_t game_size = 0;
  std::uint16_t answer_size = 0;
  std::memcpy(&out.checksum, at, 8);
  std::memcpy(&out.last_used, at + 8, 8);
  std::memcpy(&out.solver_version, at + 16, 4);
  std::memcpy(&game_size, at + 20, 2);
  std::memcpy(&answer_size, at + 22, 2);
  if (kLmdbHeader + game_size + answer_size > value.mv_size)
    return false;
  at += kLmdbHeader;
  out.game.assign(at, game_size);
  out.answer.assign(at + game_size, answer_size);
  out.canonical_case.assign(at + game_size + answer_size,
                            value.mv_size - kLmdbHeader - game_size - answer_size);
  return true;
}

class LmdbReader final : public Reader {
 public:
  LmdbReader(MDB_env* env, MDB_dbi dbi) : env_(env), dbi_(dbi) {}
  ~LmdbReader() override {
    if (txn_ != nullptr)
      mdb_txn_abort(txn_);
  }
  LmdbReader(const LmdbReader&) = delete;
  LmdbReader& operator=(const LmdbReader&) = delete;

  void begin_batch() override {
    if (txn_ == nullptr)
      lmdb_check(mdb_txn_begin(env_, nullptr, MDB_RDONLY, &txn_), "mdb_txn_begin (read)");
    else
      lmdb_check(mdb_txn_renew(txn_), "mdb_txn_renew");
  }
  void end_batch() override { mdb_txn_reset(txn_); }

  Lookup get(const Key& key, Record& out) override {
    MDB_val k{sizeof key, const_cast<Key*>(&key)};
    MDB_val value{0, nullptr};
    const int code = mdb_get(txn_, dbi_, &k, &value);
    if (code == MDB_NOTFOUND)
      return Lookup::kMissing;
    if (code != MDB_SUCCESS) {
      error_ = std::string("mdb_get: ") + mdb_strerror(code);
      return Lookup::kError;
    }
    if (!decode(value, out)) {
      error_ = "record shorter than its header says";
      return Lookup::kError;
    }
    return Lookup::kFound;
  }

 private:
  MDB_env* env_;
  MDB_dbi dbi_;
  MDB_txn* txn_ = nullptr;
};

// MDB_NORDAHEAD when --lmdb-nordahead is given (set before any child is forked).
unsigned lmdb_extra_flags = 0;

class LmdbStore final : public Store {
 public:
  LmdbStore(const std::string& path, bool create) {
    lmdb_check(mdb_env_create(&env_), "mdb_env_create");
    try {
      lmdb_check(mdb_env_set_mapsize(env_, kLmdbMapBytes), "mdb_env_set_mapsize");
      if (!create && !fs::exists(path))
        throw LmdbError("open " + path + ": no such file");
      lmdb_check(
          mdb_env_open(env_, path.c_str(), MDB_NOSUBDIR | MDB_NOTLS | lmdb_extra_flags, 0644),
          "mdb_env_open");
      MDB_txn* txn = nullptr;
      lmdb_check(mdb_txn_begin(env_, nullptr, create ? 0 : MDB_RDONLY, &txn), "mdb_txn_begin");
      const int code = mdb_dbi_open(txn, nullptr, 0, &dbi_);
      if (code != MDB_SUCCESS)
        mdb_txn_abort(txn);
      lmdb_check(code, "mdb_dbi_open");
      lmdb_check(mdb_txn_commit(txn), "mdb_txn_commit");
      reader_ = std::make_unique<LmdbReader>(env_, dbi_);
    } catch (...) {
      mdb_env_close(env_);
      throw;
    }
  }
  ~LmdbStore() override {
    reader_.reset();
    if (write_ != nullptr)
      mdb_txn_abort(write_);
    mdb_env_close(env_);
  }
  LmdbStore(const LmdbStore&) = delete;
  LmdbStore& operator=(const LmdbStore&) = delete;

  void begin_write() override {
    lmdb_check(mdb_txn_begin(env_, nullptr, 0, &write_), "mdb_txn_begin (write)");
  }
  void put(const Key& key, const Record& record) override {
    encode(record, buffer_);
    MDB_val k{sizeof key, const_cast<Key*>(&key)};
    MDB_val value{buffer_.size(), buffer_.data()};
    lmdb_check(mdb_put(write_, dbi_, &k, &value, MDB_NOOVERWRITE), "mdb_put");
  }
  void commit() override {
    MDB_txn* txn = write_;
    write_ = nullptr;
    lmdb_check(mdb_txn_commit(txn), "mdb_txn_commit");
  }
  Reader& main_reader() override { return *reader_; }
  std::unique_ptr<Reader> new_reader() override { return std::make_unique<LmdbReader>(env_, dbi_); }

 private:
  MDB_env* env_ = nullptr;
  MDB_dbi dbi_ = 0;
  MDB_txn* write_ = nullptr;
  std::string buffer_;
  std::unique_ptr<LmdbReader> reader_;
};

std::unique_ptr<Store> open_store(Engine engine, const std::string& path, bool create) {
  switch (engine) {
    case Engine::kSqliteBlob:
      return std::make_unique<SqliteStore>(path, false, create);
    case Engine::kSqliteRowid:
      return std::make_unique<SqliteStore>(path, true, create);
    case Engine::kLmdb:
      return std::make_unique<LmdbStore>(path, create);
  }
  throw std::logic_error("unknown engine");
}

// ---------------------------------------------------------------------------------------------
// Measuring

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

long max_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// What a child reports back, in memory shared with the parent.
struct Report {
  double build_s = 0;
  std::uint64_t file_bytes = 0;
  double open_ms = 0;
  long rss_before_kib = 0;
  long rss_grown_kib = 0;
  double hits_per_s = 0;
  double misses_per_s = 0;
  double incremental_s = 0;
  std::uint64_t file_bytes_after = 0;
  bool opened = false;
  std::uint64_t ok = 0;
  std::uint64_t missing = 0;
  std::uint64_t errors = 0;
  std::uint64_t wrong_caught = 0;
  std::uint64_t wrong_last_used = 0;   // only last_used differs: it is outside the checksum
  std::uint64_t wrong_undetected = 0;  // game, version, case or answer differ, checksum holds
  char message[200] = {};
  char check[120] = {};
};

void copy_text(char* to, std::size_t capacity, const std::string& text) {
  std::snprintf(to, capacity, "%s", text.c_str());
}

struct ChildOutcome {
  bool exited_ok = false;
  int signal = 0;  // when killed by one
  long max_rss_kib = 0;
};

// Runs `work` in a forked child; the child's exceptions land in report->message.
ChildOutcome run_child(Report* report, const std::function<void()>& work, unsigned alarm_s = 0) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0)
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    if (alarm_s > 0)
      alarm(alarm_s);
    int code = 0;
    try {
      work();
    } catch (const std::exception& error) {
      copy_text(report->message, sizeof report->message, error.what());
      code = 1;
    }
    std::fflush(nullptr);
    _exit(code);
  }
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR)
      throw std::runtime_error(std::string("wait4: ") + std::strerror(errno));
  }
  ChildOutcome outcome;
  outcome.exited_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  outcome.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  outcome.max_rss_kib = usage.ru_maxrss;
  return outcome;
}

void require_ok(const ChildOutcome& outcome, const Report& report, const char* phase,
                Engine engine) {
  if (outcome.exited_ok)
    return;
  std::string why = outcome.signal != 0 ? std::string("killed by ") + strsignal(outcome.signal)
                                        : std::string(report.message);
  throw std::runtime_error(std::string(engine_name(engine)) + ", " + phase + ": " + why);
}

// Inserts records [first, first + count) in transactions of `per_transaction`; returns the
// seconds spent in the transactions (making the records is not counted).
double insert_records(Store& store, std::uint64_t first, std::uint64_t count,
                      std::uint64_t per_transaction) {
  double seconds = 0;
  std::vector<std::pair<Key, Record>> batch;
  for (std::uint64_t done = 0; done < count;) {
    const auto size = std::min(per_transaction, count - done);
    batch.clear();
    batch.reserve(size);
    for (std::uint64_t i = 0; i < size; ++i) {
      Record record = make_record(first + done + i);
      const Key key = key_of(record);
      batch.emplace_back(key, std::move(record));
    }
    const double start = now_s();
    store.begin_write();
    for (const auto& [key, record] : batch)
      store.put(key, record);
    store.commit();
    seconds += now_s() - start;
    done += size;
  }
  return seconds;
}

// Runs `lookups` look-ups spread over `threads` threads, each with its own reader; returns the
// look-ups per second. `next_key(random)` picks a key; `expect_found` says what each must give.
double timed_lookups(Store& store, std::size_t lookups, int threads,
                     const std::function<Key(Random&)>& next_key, bool expect_found) {
  std::barrier start(threads + 1);
  std::atomic<std::uint64_t> failures{0};
  std::vector<std::string> errors(static_cast<std::size_t>(threads));
  std::vector<std::thread> pool;
  const std::size_t per_thread = lookups / static_cast<std::size_t>(threads);
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::unique_ptr<Reader> reader;
      try {
        reader = store.new_reader();
      } catch (const std::exception& error) {
        errors[static_cast<std::size_t>(t)] = error.what();
      }
      Random random(0x5eed0000ULL + static_cast<std::uint64_t>(t) + (expect_found ? 0 : 100));
      std::vector<Key> keys(kLookupBatch);
      Record record;
      start.arrive_and_wait();
      if (!reader)
        return;
      std::uint64_t bad = 0;
      try {
        for (std::size_t done = 0; done < per_thread;) {
          const std::size_t size = std::min(kLookupBatch, per_thread - done);
          for (std::size_t i = 0; i < size; ++i)
            keys[i] = next_key(random);
          reader->begin_batch();
          for (std::size_t i = 0; i < size; ++i) {
            const Lookup result = reader->get(keys[i], record);
            if (expect_found ? result != Lookup::kFound || !checksum_holds(record)
                             : result != Lookup::kMissing && result != Lookup::kKeyMismatch)
              ++bad;
          }
          reader->end_batch();
          done += size;
        }
      } catch (const std::exception& error) {
        errors[static_cast<std::size_t>(t)] = error.what();
      }
      failures += bad;
    });
  }
  start.arrive_and_wait();
  const double begin = now_s();
  for (auto& thread : pool)
    thread.join();
  const double seconds = now_s() - begin;
  for (const auto& error : errors)
    if (!error.empty())
      throw std::runtime_error("look-ups: " + error);
  if (failures > 0)
    throw std::runtime_error("look-ups: " + std::to_string(failures.load()) + " of " +
                             std::to_string(per_thread * static_cast<std::size_t>(threads)) +
                             (expect_found ? " keys not found or damaged" : " absent keys found"));
  return static_cast<double>(per_thread * static_cast<std::size_t>(threads)) / seconds;
}

// Drops the file's pages from the OS page cache (it is clean: synced first).
void evict_from_page_cache(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0)
    return;
  fdatasync(fd);
  posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  close(fd);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

struct EngineFigures {
  double build_s = 0;
  std::uint64_t file_bytes = 0;
  double open_cached_ms = 0;
  double open_evicted_ms = 0;
  double open_rss_grown_kib = 0;
  double hits_per_s = 0;
  double misses_per_s = 0;
  double incremental_s = 0;
  std::uint64_t file_bytes_after = 0;
  long build_peak_kib = 0;
  long lookup_peak_kib = 0;
  long lookup_base_kib = 0;
};

struct Options {
  std::size_t entries = 1'000'000;
  std::size_t lookups = 1'000'000;
  int threads = 2;
};

EngineFigures measure(Engine engine, const std::string& path, const Options& options,
                      Report* report) {
  EngineFigures figures;

  // Build: N records in transactions of 100,000, then a checkpoint so the file holds them all.
  *report = Report{};
  auto outcome = run_child(report, [&] {
    auto store = open_store(engine, path, true);
    const double inserting = insert_records(*store, 0, options.entries, kBuildBatch);
    const double closing_start = now_s();
    store->checkpoint();
    store.reset();
    report->build_s = inserting + (now_s() - closing_start);
    report->file_bytes = fs::file_size(path);
  });
  require_ok(outcome, *report, "build", engine);
  figures.build_s = report->build_s;
  figures.file_bytes = report->file_bytes;
  figures.build_peak_kib = outcome.max_rss_kib;

  // Cold open + 10 look-ups, each time in a fresh child: with the file in the page cache, then
  // with it evicted (posix_fadvise DONTNEED), as a first run after a reboot would find it.
  for (const bool evict : {false, true}) {
    std::vector<double> ms, grown;
    for (int k = 0; k < kColdRepeats; ++k) {
      if (evict)
        evict_from_page_cache(path);
      *report = Report{};
      outcome = run_child(report, [&] {
        std::vector<Key> keys;
        for (std::size_t i = 0; i < kColdLookups; ++i)
          keys.push_back(key_of(make_record(i * (options.entries / kColdLookups) + 1)));
        Record record;
        const long rss_before = max_rss_kib();
        const double start = now_s();
        auto store = open_store(engine, path, false);
        Reader& reader = store->main_reader();
        reader.begin_batch();
        std::size_t found = 0;
        for (const Key& key : keys)
          found += reader.get(key, record) == Lookup::kFound && checksum_holds(record) ? 1 : 0;
        reader.end_batch();
        report->open_ms = (now_s() - start) * 1e3;
        report->rss_grown_kib = max_rss_kib() - rss_before;
        if (found != keys.size())
          throw std::runtime_error("cold look-ups found " + std::to_string(found) + " of " +
                                   std::to_string(keys.size()));
      });
      require_ok(outcome, *report, "cold open", engine);
      ms.push_back(report->open_ms);
      grown.push_back(static_cast<double>(report->rss_grown_kib));
    }
    (evict ? figures.open_evicted_ms : figures.open_cached_ms) = median(ms);
    if (!evict)
      figures.open_rss_grown_kib = median(grown);
  }

  // Look-ups from T threads (hits, then misses), then the incremental save.
  *report = Report{};
  outcome = run_child(report, [&] {
    std::vector<Key> keys(options.entries);
    for (std::size_t i = 0; i < options.entries; ++i)
      keys[i] = key_of(make_record(i));
    report->rss_before_kib = max_rss_kib();
    auto store = open_store(engine, path, false);
    report->hits_per_s = timed_lookups(
        *store, options.lookups, options.threads,
        [&](Random& random) { return keys[random() % keys.size()]; }, true);
    report->misses_per_s = timed_lookups(
        *store, options.lookups, options.threads,
        [](Random& random) {
          return Key{random(), random()};
        },
        false);
    report->incremental_s = insert_records(*store, options.entries, kIncrementalRecords,
                                           kIncrementalRecords / kIncrementalTransactions);
    store->checkpoint();
    report->file_bytes_after = fs::file_size(path);
  });
  require_ok(outcome, *report, "look-ups and incremental save", engine);
  figures.hits_per_s = report->hits_per_s;
  figures.misses_per_s = report->misses_per_s;
  figures.incremental_s = report->incremental_s;
  figures.file_bytes_after = report->file_bytes_after;
  figures.lookup_peak_kib = outcome.max_rss_kib;
  figures.lookup_base_kib = report->rss_before_kib;
  return figures;
}

// ---------------------------------------------------------------------------------------------
// Damage: flip one byte of a copy, look every key up

constexpr std::size_t kPage = 4096;  // SQLite's default page size; LMDB uses the OS page

// What kind of page `offset` lies in, read from the page header of the undamaged file.
std::string page_kind(Engine engine, const std::string& path, std::uint64_t offset) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0)
    return "?";
  unsigned char header[16] = {};
  const auto page_start = static_cast<off_t>(offset / kPage * kPage);
  const bool read_ok = pread(fd, header, sizeof header, page_start) == sizeof header;
  close(fd);
  if (!read_ok)
    return "?";
  if (engine != Engine::kLmdb) {
    switch (header[0]) {
      case 0x0d:
        return "table leaf";
      case 0x05:
        return "table interior";
      case 0x0a:
        return "index leaf";
      case 0x02:
        return "index interior";
      default:
        return "overflow/free";
    }
  }
  std::uint16_t flags = 0;
  std::memcpy(&flags, header + 10, 2);
  if ((flags & 0x02) != 0)
    return "leaf";
  if ((flags & 0x01) != 0)
    return "branch";
  if ((flags & 0x04) != 0)
    return "overflow";
  if ((flags & 0x08) != 0)
    return "meta";
  return "free/unused";
}

// The first interior (SQLite) / branch (LMDB) page at or after `from`, wrapping around; the
// file's size when there is none.
std::uint64_t find_interior_page(Engine engine, const std::string& path, std::uint64_t from) {
  const auto size = fs::file_size(path);
  const auto pages = size / kPage;
  for (std::uint64_t k = 0; k < pages; ++k) {
    const auto page = (from / kPage + k) % pages;
    if (page < 2)  // SQLite's page 1 (the file header) and LMDB's two meta pages
      continue;
    const std::string kind = page_kind(engine, path, page * kPage);
    if (kind == "table interior" || kind == "index interior" || kind == "branch")
      return page * kPage;
  }
  return size;
}

template <class T>
T read_at(const unsigned char* bytes, std::size_t offset) {
  T value{};
  std::memcpy(&value, bytes + offset, sizeof value);
  return value;
}

// Pages of an LMDB file the current tree uses, read from the file itself (mdb.c's layout: a
// 16-byte page header {pgno u64, pad u16, flags u16, lower u16, upper u16}; a meta page holds
// magic u32, version u32, address, map size, the free and main MDB_db {pad u32, flags u16,
// depth u16, branch, leaf, overflow pages, entries, root} and last page, txnid).
struct LmdbPages {
  std::uint64_t used = 0;   // branch + leaf + overflow pages of both trees, and the 2 meta pages
  std::uint64_t total = 0;  // last page + 1
  int depth = 0;
  std::uint64_t branch = 0;  // offset of a live branch page below the root (or the root)
  std::uint64_t leaf = 0;    // offset of a live leaf page in the middle of the key order
};

LmdbPages lmdb_pages(const std::string& path) {
  LmdbPages pages;
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0)
    return pages;
  std::vector<unsigned char> page(kPage);
  const auto read_page = [&](std::uint64_t number) {
    return pread(fd, page.data(), kPage, static_cast<off_t>(number * kPage)) ==
           static_cast<ssize_t>(kPage);
  };
  std::uint64_t best_txnid = 0;
  std::uint64_t root = 0;
  for (std::uint64_t meta = 0; meta < 2; ++meta) {
    if (!read_page(meta))
      continue;
    const auto txnid = read_at<std::uint64_t>(page.data(), 144);
    if (meta == 0 || txnid > best_txnid) {
      best_txnid = txnid;
      pages.used = 2;
      for (const std::size_t db : {40, 88})  // free tree, main tree
        pages.used += read_at<std::uint64_t>(page.data(), db + 8) +
                      read_at<std::uint64_t>(page.data(), db + 16) +
                      read_at<std::uint64_t>(page.data(), db + 24);
      pages.depth = read_at<std::uint16_t>(page.data(), 88 + 6);
      root = read_at<std::uint64_t>(page.data(), 88 + 40);
      pages.total = read_at<std::uint64_t>(page.data(), 136) + 1;
    }
  }
  // Down the middle child of each branch page to a leaf.
  std::uint64_t number = root;
  for (int level = 0; level < 64 && read_page(number); ++level) {
    const auto flags = read_at<std::uint16_t>(page.data(), 10);
    if ((flags & 0x02) != 0) {
      pages.leaf = number * kPage;
      break;
    }
    if ((flags & 0x01) == 0)
      break;
    if (level == 1 || pages.branch == 0)
      pages.branch = number * kPage;
    const auto keys = (read_at<std::uint16_t>(page.data(), 12) - 16u) / 2u;
    const auto node = read_at<std::uint16_t>(page.data(), 16 + 2 * (keys / 2));
    if (node + 8u > kPage)
      break;
    number = read_at<std::uint16_t>(page.data(), node) |
             std::uint64_t{read_at<std::uint16_t>(page.data(), node + 2u)} << 16 |
             std::uint64_t{read_at<std::uint16_t>(page.data(), node + 4u)} << 32;
  }
  close(fd);
  return pages;
}

void flip_byte(const std::string& path, std::uint64_t offset) {
  const int fd = open(path.c_str(), O_RDWR);
  if (fd < 0)
    throw std::runtime_error("open " + path + ": " + std::strerror(errno));
  unsigned char byte = 0;
  const bool ok = pread(fd, &byte, 1, static_cast<off_t>(offset)) == 1 &&
                  (byte = static_cast<unsigned char>(byte ^ 0xff),
                   pwrite(fd, &byte, 1, static_cast<off_t>(offset)) == 1);
  close(fd);
  if (!ok)
    throw std::runtime_error("flip byte of " + path);
}

void remove_store(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal", "-lock"})
    fs::remove(path + suffix);
}

struct Flip {
  std::uint64_t offset;
  std::string where;
};

// Flips the byte at `offset` in a fresh copy of `path`, then (in a child) opens the copy and looks
// every key up, counting what comes back into *report; SQLite's quick_check too when asked.
ChildOutcome damaged_lookups(Engine engine, const std::string& path, const std::string& copy_path,
                             std::size_t records, std::uint64_t offset, bool quick_check,
                             Report* report) {
  remove_store(copy_path);
  fs::copy_file(path, copy_path);
  flip_byte(copy_path, offset);
  *report = Report{};
  const auto outcome = run_child(
      report,
      [&] {
        auto store = open_store(engine, copy_path, false);
        report->opened = true;
        Reader& reader = store->main_reader();
        Record record;
        const auto note = [&](const std::string& text) {
          if (report->message[0] == '\0')
            copy_text(report->message, sizeof report->message, text);
        };
        for (std::size_t done = 0; done < records;) {
          const std::size_t size_now = std::min(kLookupBatch, records - done);
          try {
            reader.begin_batch();
          } catch (const std::exception& error) {
            report->errors += size_now;
            note(error.what());
            done += size_now;
            continue;
          }
          for (std::size_t i = 0; i < size_now; ++i) {
            const Record expected = make_record(done + i);
            switch (reader.get(key_of(expected), record)) {
              case Lookup::kFound:
                if (!checksum_holds(record))
                  ++report->wrong_caught;
                else if (!(record == expected)) {
                  Record same_time = record;
                  same_time.last_used = expected.last_used;
                  ++(same_time == expected ? report->wrong_last_used : report->wrong_undetected);
                } else
                  ++report->ok;
                break;
              case Lookup::kMissing:
                ++report->missing;
                break;
              case Lookup::kKeyMismatch:
                ++report->wrong_caught;
                break;
              case Lookup::kError:
                ++report->errors;
                note(reader.error());
                break;
            }
          }
          try {
            reader.end_batch();
          } catch (const std::exception& error) {
            note(error.what());
          }
          done += size_now;
        }
        store.reset();
        if (quick_check && engine != Engine::kLmdb) {
          sqlite3* db = sqlite_open(copy_path, false);
          copy_text(report->check, sizeof report->check, sqlite_text(db, "PRAGMA quick_check(1)"));
          sqlite3_close_v2(db);
        }
      },
      600);
  remove_store(copy_path);
  return outcome;
}

std::string table_cell(std::string text) {
  for (char& c : text)
    if (c == '|' || c == '\n')
      c = ' ';
  return text.empty() ? "-" : text;
}

std::string outcome_text(const ChildOutcome& outcome, const Report& report) {
  std::string text = report.message;
  if (outcome.signal != 0)
    text = std::string("process killed by ") + strsignal(outcome.signal) +
           (text.empty() ? "" : "; " + text);
  else if (!outcome.exited_ok && !report.opened)
    text = "open failed: " + text;
  return table_cell(text);
}

void damage_test(Engine engine, const std::string& path, const std::string& copy_path,
                 std::size_t records, Report* report) {
  const auto size = fs::file_size(path);
  const bool sqlite = engine != Engine::kLmdb;
  // SQLite's pages are all in use here (no deletes: the free list is empty, printed below), so
  // the middle of the file is live data. LMDB's file is about half pages of older versions of
  // the tree (copy-on-write), whose flips change nothing: its "middle" page is instead a live
  // leaf in the middle of the key order, found by walking the tree from the meta page.
  std::string pages_note;
  std::uint64_t middle_page = size / 2 / kPage * kPage;
  std::uint64_t interior = find_interior_page(engine, path, size / 2);
  std::string middle = "middle page";
  if (sqlite) {
    sqlite3* db = sqlite_open(path, false);
    pages_note = "free list: " + sqlite_text(db, "PRAGMA freelist_count") + " of " +
                 sqlite_text(db, "PRAGMA page_count") + " pages";
    sqlite3_close_v2(db);
  } else {
    const LmdbPages pages = lmdb_pages(path);
    pages_note = "pages in use by the current tree: " + std::to_string(pages.used) + " of " +
                 std::to_string(pages.total) + " (tree depth " + std::to_string(pages.depth) +
                 "; the rest are free pages of older versions)";
    if (pages.leaf != 0) {
      middle_page = pages.leaf;
      middle = "live leaf (middle key)";
    }
    if (pages.branch != 0)
      interior = pages.branch;
  }
  std::vector<Flip> flips = {
      {middle_page + 0, middle + ", header byte 0"},
      {middle_page + 3, middle + ", header byte 3"},
      {middle_page + 10, middle + ", header byte 10"},
      {middle_page + 13, middle + ", header byte 13"},
      {middle_page + kPage / 2, middle + ", byte 2048"},
      {middle_page + kPage - 100, middle + ", end - 100"},
      {size / 3, "size/3"},
      {size * 2 / 3 + 1234, "size*2/3+1234"},
  };
  // Interior pages hold child page numbers: a flipped one sends a search to the wrong page.
  if (interior < size) {
    const std::string where = sqlite ? "interior page" : "live branch page";
    flips.push_back({interior + 10, where + ", header byte 10"});
    flips.push_back({interior + kPage - 20, where + ", end - 20"});
    flips.push_back({interior + kPage - 100, where + ", end - 100"});
  }
  std::printf(
      "\n### %s: one byte flipped (x ^= 0xff) in a copy of the %llu-byte file, then "
      "all %zu keys looked up\n\n%s.\n\n",
      engine_name(engine), static_cast<unsigned long long>(size), records, pages_note.c_str());
  std::printf(
      "| offset | where | page | opened | ok | missing | error | wrong, checksum caught | "
      "only last_used wrong | wrong, undetected | first error / outcome |%s\n",
      sqlite ? " quick_check |" : "");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|%s\n", sqlite ? "---|" : "");
  for (const Flip& flip : flips) {
    const auto outcome =
        damaged_lookups(engine, path, copy_path, records, flip.offset, true, report);
    std::printf("| %llu | %s | %s | %s | %llu | %llu | %llu | %llu | %llu | %llu | %s |",
                static_cast<unsigned long long>(flip.offset), flip.where.c_str(),
                page_kind(engine, path, flip.offset).c_str(), report->opened ? "yes" : "no",
                static_cast<unsigned long long>(report->ok),
                static_cast<unsigned long long>(report->missing),
                static_cast<unsigned long long>(report->errors),
                static_cast<unsigned long long>(report->wrong_caught),
                static_cast<unsigned long long>(report->wrong_last_used),
                static_cast<unsigned long long>(report->wrong_undetected),
                outcome_text(outcome, *report).c_str());
    if (sqlite)
      std::printf(" %s |", table_cell(report->check).c_str());
    std::printf("\n");
    std::fflush(stdout);
  }
}

// `count` flips at random offsets anywhere in the file, one at a time, each in a fresh copy:
// how many left every look-up right, cost misses, gave errors, gave wrong data, or crashed.
void random_damage_test(Engine engine, const std::string& path, const std::string& copy_path,
                        std::size_t records, std::size_t count, Report* report) {
  const auto size = fs::file_size(path);
  Random random(0xf11bULL + static_cast<std::uint64_t>(engine));
  std::size_t no_effect = 0, missing = 0, errors = 0, caught = 0, last_used = 0, undetected = 0,
              crashed = 0, open_failed = 0;
  std::string first_crash, first_error;
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint64_t offset = random() % size;
    const auto outcome = damaged_lookups(engine, path, copy_path, records, offset, false, report);
    if (outcome.signal != 0) {
      ++crashed;
      if (first_crash.empty())
        first_crash = "offset " + std::to_string(offset) + ": " + outcome_text(outcome, *report);
      continue;
    }
    if (!outcome.exited_ok && !report->opened) {
      ++open_failed;
      continue;
    }
    if (report->ok == records && outcome.exited_ok) {
      ++no_effect;
      continue;
    }
    missing += report->missing > 0 ? 1 : 0;
    errors += report->errors > 0 || !outcome.exited_ok ? 1 : 0;
    caught += report->wrong_caught > 0 ? 1 : 0;
    last_used += report->wrong_last_used > 0 ? 1 : 0;
    undetected += report->wrong_undetected > 0 ? 1 : 0;
    if (first_error.empty() && report->message[0] != '\0')
      first_error = table_cell(report->message);
  }
  std::printf("| %s | %zu | %zu | %zu | %zu | %zu | %zu | %zu | %zu | %zu | %s | %s |\n",
              engine_name(engine), count, no_effect, missing, errors, caught, last_used, undetected,
              open_failed, crashed, first_error.empty() ? "-" : first_error.c_str(),
              first_crash.empty() ? "-" : first_crash.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("Measures SQLite (WAL, two layouts) against LMDB as the answer cache's store");
  Options options;
  std::string dir = fs::temp_directory_path().string();
  bool skip_corruption = false;
  std::size_t random_flips = 0;
  bool lmdb_nordahead = false;
  app.add_option("--entries", options.entries, "Records in the store")
      ->check(CLI::Range(std::size_t{10}, std::size_t{100'000'000}));
  app.add_option("--lookups", options.lookups, "Random look-ups of present keys (and of absent)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000'000}));
  app.add_option("--threads", options.threads, "Look-up threads, each with its own reader")
      ->check(CLI::Range(1, 256));
  app.add_option("--dir", dir, "Scratch directory (a subdirectory is made and removed in it)")
      ->check(CLI::ExistingDirectory);
  app.add_flag("--skip-corruption", skip_corruption, "Skip the flipped-byte tests");
  app.add_option("--random-flips", random_flips,
                 "Also flip a byte at this many random offsets, one copy each, and count outcomes")
      ->check(CLI::Range(std::size_t{0}, std::size_t{100'000}));
  app.add_flag("--lmdb-nordahead", lmdb_nordahead,
               "Open LMDB with MDB_NORDAHEAD (no read-ahead on the map: madvise random)");
  CLI11_PARSE(app, argc, argv);
  if (lmdb_nordahead)
    lmdb_extra_flags = MDB_NORDAHEAD;

  std::string scratch_template = (fs::path(dir) / "cache_store_bench.XXXXXX").string();
  if (mkdtemp(scratch_template.data()) == nullptr) {
    std::fprintf(stderr, "cache_store_bench: mkdtemp in %s: %s\n", dir.c_str(),
                 std::strerror(errno));
    return 1;
  }
  const fs::path scratch = scratch_template;

  void* shared =
      mmap(nullptr, sizeof(Report), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) {
    std::fprintf(stderr, "cache_store_bench: mmap: %s\n", std::strerror(errno));
    return 1;
  }
  auto* report = new (shared) Report{};

  int exit_code = 0;
  try {
    int major = 0, minor = 0, patch = 0;
    mdb_version(&major, &minor, &patch);
    std::printf("## Answer-cache store: %zu records, %zu look-ups from %d threads, in %s\n\n",
                options.entries, options.lookups, options.threads, scratch.c_str());
    std::printf(
        "- Records: key = XXH3-128 (16 B); game (7-8 B), solver version, case text (~60 B), "
        "answer (6 B), XXH3-64 checksum, last-used time. Keys in random order.\n"
        "- SQLite %s: journal_mode=WAL, synchronous=NORMAL (fsync at checkpoints only), "
        "default page size (4096) and page cache (cache_size=-2000, 2 MB per connection), "
        "mmap off, auto-checkpoint every 1000 pages; prepared statements reused; INSERT in "
        "BEGIN IMMEDIATE ... COMMIT.\n"
        "- LMDB %d.%d.%d: MDB_NOSUBDIR | MDB_NOTLS%s, map size 64 GiB, default sync (fsync at "
        "every commit); value = 24-byte header + game + answer + case.\n"
        "- Build: %zu-record write transactions, plus for SQLite the final "
        "wal_checkpoint(TRUNCATE); making the records is not timed. File size after that "
        "(SQLite: WAL folded in, removed on close; LMDB: the data file, without PATH-lock).\n"
        "- Cold open: a fresh forked process opens the store and looks up %zu keys; median of "
        "%d; 'evicted' drops the file from the page cache first (posix_fadvise DONTNEED). RSS "
        "growth = ru_maxrss after - before, in that process.\n"
        "- Look-ups: each thread its own connection (SQLite) / read txn (LMDB, reset/renew), "
        "%zu look-ups per read transaction (SQLite: BEGIN ... COMMIT); a hit fetches the whole "
        "record and checks its checksum. Misses are random 128-bit keys.\n"
        "- +200k: %zu new records in %zu transactions into the %zu-record store; the file size "
        "after "
        "it is taken after a checkpoint (SQLite).\n"
        "- Peak RSS: wait4's ru_maxrss of the child (build; look-ups + incremental save). The "
        "look-up child first holds the N keys itself (16 B each): its RSS before opening is in "
        "parentheses. LMDB's RSS counts the mapped file pages it touched (page cache, shared).\n\n",
        sqlite3_libversion(), major, minor, patch, lmdb_nordahead ? " | MDB_NORDAHEAD" : "",
        kBuildBatch, kColdLookups, kColdRepeats, kLookupBatch, kIncrementalRecords,
        kIncrementalTransactions, options.entries);
    std::fflush(stdout);

    std::vector<EngineFigures> figures;
    for (const Engine engine : kEngines) {
      std::fprintf(stderr, "cache_store_bench: %s...\n", engine_name(engine));
      figures.push_back(measure(engine, (scratch / engine_file(engine)).string(), options, report));
    }

    const auto n = static_cast<double>(options.entries);
    std::printf(
        "| engine | build s | inserts/s | file MB | B/entry | cold open+10 ms (cached) | cold "
        "open+10 ms (evicted) | cold open RSS +MiB | hits/s (%d thr) | misses/s (%d thr) | "
        "+200k in 2 txns s | file MB after +200k | peak RSS build MiB | peak RSS look-ups+save MiB "
        "|\n",
        options.threads, options.threads);
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (std::size_t e = 0; e < figures.size(); ++e) {
      const EngineFigures& f = figures[e];
      std::printf(
          "| %s | %.2f | %.0f | %.1f | %.1f | %.2f | %.2f | %.1f | %.0f | %.0f | %.2f | %.1f | "
          "%.1f | %.1f (%.1f) |\n",
          engine_name(kEngines[e]), f.build_s, n / f.build_s,
          static_cast<double>(f.file_bytes) / 1e6, static_cast<double>(f.file_bytes) / n,
          f.open_cached_ms, f.open_evicted_ms, f.open_rss_grown_kib / 1024.0, f.hits_per_s,
          f.misses_per_s, f.incremental_s, static_cast<double>(f.file_bytes_after) / 1e6,
          static_cast<double>(f.build_peak_kib) / 1024.0,
          static_cast<double>(f.lookup_peak_kib) / 1024.0,
          static_cast<double>(f.lookup_base_kib) / 1024.0);
    }
    std::fflush(stdout);

    if (!skip_corruption) {
      for (const Engine engine : kEngines) {
        std::fprintf(stderr, "cache_store_bench: flipped bytes, %s...\n", engine_name(engine));
        damage_test(engine, (scratch / engine_file(engine)).string(),
                    (scratch / (std::string("damaged_") + engine_file(engine))).string(),
                    options.entries + kIncrementalRecords, report);
      }
      if (random_flips > 0) {
        std::printf(
            "\n### %zu single-byte flips at random offsets (anywhere in the file), each in a "
            "fresh copy, all %zu keys looked up: flips per outcome\n\n",
            random_flips, options.entries + kIncrementalRecords);
        std::printf(
            "| engine | flips | no effect | some keys missing | some errors | some wrong, "
            "checksum caught | some only last_used wrong | some wrong, undetected | open failed | "
            "process crashed | first "
            "error | first crash |\n");
        std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (const Engine engine : kEngines) {
          std::fprintf(stderr, "cache_store_bench: random flips, %s...\n", engine_name(engine));
          random_damage_test(engine, (scratch / engine_file(engine)).string(),
                             (scratch / (std::string("damaged_") + engine_file(engine))).string(),
                             options.entries + kIncrementalRecords, random_flips, report);
        }
      }
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "cache_store_bench: %s\n", error.what());
    exit_code = 1;
  }
  std::error_code ignored;
  fs::remove_all(scratch, ignored);
  munmap(shared, sizeof(Report));
  return exit_code;
}
