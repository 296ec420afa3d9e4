// The answer cache's store: an SQLite database in WAL mode.
//
// ---------------------------------------------------------------------------------------------
// File layout (format version 2)
//
// PATH is an ordinary SQLite 3 database. While a run has it open, SQLite keeps PATH-wal (the
// write-ahead log) and PATH-shm (its index) beside it; when the last connection closes, the log
// is folded back into PATH and both are removed, so a copy of PATH alone is then a whole cache.
// After kill -9 they stay; the next opener folds them in (that is how kill -9 loses nothing that
// was committed).
//
//   PRAGMA application_id = 0x47424348 ("GBCH"): a database of another program is refused.
//   PRAGMA user_version   = 2 (kStoreFormatVersion): other versions are refused by number.
//
//   answers(id INTEGER PRIMARY KEY,   -- the key's low 64 bits (as a signed integer)
//           key_high INTEGER,         -- the key's high 64 bits: a look-up checks them
//           game TEXT, solver_version INTEGER,
//           answer BLOB,
//           checksum INTEGER,         -- answer_checksum(key, game, version, answer)
//           last_used INTEGER,        -- seconds since the epoch; refreshed at most hourly
//           canonical_case BLOB)      -- last, so a look-up never reads a big case's pages
//   artefacts(game TEXT, name TEXT, version INTEGER, bytes BLOB,
//             checksum INTEGER,       -- XXH3-64 of game, name, version and bytes
//             last_used INTEGER, PRIMARY KEY (game, name))
//
// Invariants:
// - An answer comes back only when key_high matches and its checksum holds, so a flipped byte in
//   a record is a miss (the case is solved again and the record replaced), never an answer. The
//   key is the hash of (game, version, case), so `cache verify` checks the case text too.
// - Two keys sharing their low 64 bits (about one chance in 10^5 among 10^7 entries) cannot
//   both be stored: the second is never found and always solved. A miss, never a wrong answer.
// - Entries are only added (INSERT OR IGNORE: the first answer stays, as every answer of a key is
//   the same) or replaced when damaged; trim deletes. Each checkpoint is one transaction.
// - SQLite reports damage it meets (SQLITE_CORRUPT, SQLITE_NOTADB) as StoreDamagedError; it does
//   not crash on a damaged file (its corrupt-database handling is tested by its authors).
// ---------------------------------------------------------------------------------------------
#include "io/cache/cache_store.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <system_error>
#include <thread>

#include "io/files/content_hash.hpp"

namespace gamebatch::io {
namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kApplicationId = 0x47424348;  // "GBCH"
constexpr std::array<char, 16> kSqliteMagic = {'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f',
                                               'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};
constexpr std::array<char, 8> kVersionOneMagic = {'G', 'B', 'C', 'A', 'C', 'H', 'E', '\n'};

// How long a write waits for another process's transaction before giving up (the checkpoint is
// then retried at the next one).
constexpr std::chrono::seconds kBusyTimeout{600};

const char* const kSchema = R"sql(
CREATE TABLE IF NOT EXISTS answers (
  id INTEGER PRIMARY KEY,
  key_high INTEGER NOT NULL,
  game TEXT NOT NULL,
  solver_version INTEGER NOT NULL,
  answer BLOB NOT NULL,
  checksum INTEGER NOT NULL,
  last_used INTEGER NOT NULL,
  canonical_case BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS artefacts (
  game TEXT NOT NULL,
  name TEXT NOT NULL,
  version INTEGER NOT NULL,
  bytes BLOB NOT NULL,
  checksum INTEGER NOT NULL,
  last_used INTEGER NOT NULL,
  PRIMARY KEY (game, name)
);
)sql";

std::int64_t as_signed(std::uint64_t value) {
  std::int64_t result;
  std::memcpy(&result, &value, sizeof result);
  return result;
}

std::uint64_t as_unsigned(std::int64_t value) {
  std::uint64_t result;
  std::memcpy(&result, &value, sizeof result);
  return result;
}

bool is_damage(int code) {
  const int primary = code & 0xff;
  return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB;
}

[[noreturn]] void fail(sqlite3* db, int code, const std::string& what) {
  const std::string message =
      what + ": " + (db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code));
  if (is_damage(code))
    throw StoreDamagedError("damaged: " + message);
  throw std::runtime_error(message);
}

std::string_view column_text(sqlite3_stmt* statement, int column) {
  const void* data = sqlite3_column_blob(statement, column);
  const int size = sqlite3_column_bytes(statement, column);
  return data == nullptr ? std::string_view()
                         : std::string_view(static_cast<const char*>(data), size);
}

void bind_text(sqlite3_stmt* statement, int index, std::string_view text) {
  sqlite3_bind_text64(statement, index, text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8);
}

void bind_blob(sqlite3_stmt* statement, int index, std::string_view bytes) {
  // A zero-length blob must still be a blob, not NULL (NOT NULL columns).
  static const char kEmpty = 0;
  sqlite3_bind_blob64(statement, index, bytes.empty() ? &kEmpty : bytes.data(), bytes.size(),
                      SQLITE_STATIC);
}

std::uint64_t artefact_checksum(std::string_view game, const Artefact& artefact) {
  return content_hash64(
      {game.size(), artefact.name.size(), artefact.version, artefact.bytes.size()},
      {game, artefact.name, artefact.bytes});
}

// A prepared statement that resets itself when its scope ends.
class Statement {
 public:
  explicit Statement(sqlite3_stmt* statement) : statement_(statement) {}
  ~Statement() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
  }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  sqlite3_stmt* get() const { return statement_; }

 private:
  sqlite3_stmt* statement_;
};

}  // namespace

std::uint64_t answer_checksum(const CacheKey& key, std::string_view game,
                              std::uint32_t solver_version, std::string_view answer) {
  return content_hash64({key.high, key.low, game.size(), solver_version, answer.size()},
                        {game, answer});
}

CacheFileKind classify_cache_file(const fs::path& path) {
  std::error_code status_error;
  const fs::file_status status = fs::status(path, status_error);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    throw std::system_error(std::make_error_code(std::errc::is_a_directory),
                            path.string() + " is not a regular file");
  }
  // open(2) rather than a stream, for its errno: "missing" must mean missing, not that another
  // run created the file between a failed open and a look (a new cache's creators race here).
  const int file = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file < 0) {
    if (errno == ENOENT || errno == ENOTDIR)  // as std::filesystem::exists takes them
      return CacheFileKind::missing;
    throw std::system_error(errno, std::generic_category(), "cannot open " + path.string());
  }
  std::array<char, 16> head{};
  std::streamsize got = 0;
  while (got < static_cast<std::streamsize>(head.size())) {
    const ssize_t count =
        ::read(file, head.data() + got, head.size() - static_cast<std::size_t>(got));
    if (count < 0 && errno == EINTR)
      continue;
    if (count <= 0)
      break;
    got += count;
  }
  ::close(file);
  if (got == 0)
    return CacheFileKind::missing;
  if (got >= static_cast<std::streamsize>(kVersionOneMagic.size()) &&
      std::memcmp(head.data(), kVersionOneMagic.data(), kVersionOneMagic.size()) == 0) {
    return CacheFileKind::version_one;
  }
  if (got == static_cast<std::streamsize>(head.size()) && head == kSqliteMagic)
    return CacheFileKind::store;
  return CacheFileKind::other;
}

// ----------------------------------------------------------------------------- connections

struct CacheStore::Connection {
  sqlite3* db = nullptr;
  // Look-ups share read transactions (see CacheStore::find): whether one is open, how many
  // look-ups it served and since when.
  bool reading = false;
  int reads = 0;
  std::chrono::steady_clock::time_point read_since{};
  sqlite3_stmt* find = nullptr;
  sqlite3_stmt* find_artefact = nullptr;
  sqlite3_stmt* has_artefact = nullptr;
  // Writer only.
  sqlite3_stmt* insert = nullptr;
  sqlite3_stmt* replace = nullptr;
  sqlite3_stmt* touch = nullptr;
  sqlite3_stmt* put_artefact = nullptr;
  sqlite3_stmt* add_artefact = nullptr;
  sqlite3_stmt* touch_artefact = nullptr;

  ~Connection() {
    for (sqlite3_stmt* statement : {find, find_artefact, has_artefact, insert, replace, touch,
                                    put_artefact, add_artefact, touch_artefact})
      sqlite3_finalize(statement);
    sqlite3_close_v2(db);
  }

  sqlite3_stmt* prepare(const char* sql) {
    sqlite3_stmt* statement = nullptr;
    const int code =
        sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, nullptr);
    if (code != SQLITE_OK)
      fail(db, code, std::string("cannot prepare '") + sql + "'");
    return statement;
  }

  void execute(const char* sql) {
    char* message = nullptr;
    const int code = sqlite3_exec(db, sql, nullptr, nullptr, &message);
    if (code != SQLITE_OK) {
      const std::string text = message != nullptr ? message : sqlite3_errstr(code);
      sqlite3_free(message);
      if (is_damage(code))
        throw StoreDamagedError("damaged: " + text);
      throw std::runtime_error(std::string("'") + sql + "' failed: " + text);
    }
  }

  // execute, again while SQLite says another connection holds the lock it needs without asking
  // the busy handler: it does so to avoid a deadlock when a connection that reads would need to
  // write, as two processes opening a new cache at once both switch it to WAL.
  void execute_when_free(const char* sql) {
    const auto deadline = std::chrono::steady_clock::now() + kBusyTimeout;
    for (int attempt = 0;; ++attempt) {
      const int code = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
      if (code == SQLITE_OK)
        return;
      if ((code & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() > deadline)
        break;
      std::this_thread::sleep_for(std::chrono::milliseconds(attempt < 10 ? 1 + attempt : 20));
    }
    execute(sql);  // once more, to throw its error
  }

  std::int64_t pragma_value(const char* sql) {
    sqlite3_stmt* statement = prepare(sql);
    const int code = sqlite3_step(statement);
    std::int64_t value = 0;
    if (code == SQLITE_ROW) {
      value = sqlite3_column_int64(statement, 0);
    } else if (code != SQLITE_DONE) {
      sqlite3_finalize(statement);
      fail(db, code, sql);
    }
    sqlite3_finalize(statement);
    return value;
  }
};

class CacheStore::Borrowed {
 public:
  Borrowed(CacheStore& store, std::unique_ptr<Connection> connection)
      : store_(&store), connection_(std::move(connection)) {}
  ~Borrowed() {
    if (connection_)
      store_->give_back(std::move(connection_));
  }
  Borrowed(Borrowed&&) = default;
  Borrowed& operator=(Borrowed&&) = delete;
  Connection* operator->() const { return connection_.get(); }
  Connection& operator*() const { return *connection_; }

 private:
  CacheStore* store_;
  std::unique_ptr<Connection> connection_;
};

namespace {

// Sleeps with a growing pause while another process holds the write lock; says so once.
template <typename State>
int wait_while_busy(void* context, int attempts) {
  auto* state = static_cast<State*>(context);
  constexpr int kPauseMs = 20;
  if (static_cast<std::int64_t>(attempts) * kPauseMs >
      std::chrono::duration_cast<std::chrono::milliseconds>(kBusyTimeout).count()) {
    return 0;  // give up: SQLITE_BUSY
  }
  if (attempts == 10 && state->on_busy && !state->told.exchange(true))
    state->on_busy();
  std::this_thread::sleep_for(std::chrono::milliseconds(attempts < 10 ? 1 + attempts : kPauseMs));
  return 1;
}

std::uint32_t read_big_endian_u32(const unsigned char* bytes) {
  return (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) |
         (std::uint32_t{bytes[2]} << 8) | std::uint32_t{bytes[3]};
}

// A closed WAL database's header says how many pages it has: a file of another length was
// truncated or had bytes appended. Only checked when no write-ahead log is beside it (with one,
// the file's length legitimately lags until the log is folded in).
void check_length(const fs::path& path) {
  std::error_code error;
  fs::path wal = path;
  wal += "-wal";
  if (fs::exists(wal, error) && fs::file_size(wal, error) > 0)
    return;
  std::ifstream file(path, std::ios::binary);
  std::array<unsigned char, 100> header{};
  file.read(reinterpret_cast<char*>(header.data()), header.size());
  const auto actual = static_cast<std::uint64_t>(fs::file_size(path, error));
  if (error)
    return;
  if (file.gcount() < static_cast<std::streamsize>(header.size())) {
    throw StoreFormatError("truncated: " + std::to_string(actual) +
                           " bytes, shorter than the 100-byte database header");
  }
  const std::uint32_t raw_page_size = (std::uint32_t{header[16]} << 8) | header[17];
  const std::uint64_t page_size = raw_page_size == 1 ? 65536 : raw_page_size;
  const std::uint32_t change_counter = read_big_endian_u32(&header[24]);
  const std::uint32_t page_count = read_big_endian_u32(&header[28]);
  const std::uint32_t valid_for = read_big_endian_u32(&header[92]);
  if (page_size < 512 || (page_size & (page_size - 1)) != 0)
    throw StoreFormatError("damaged: the database header's page size is " +
                           std::to_string(page_size));
  if (valid_for != change_counter || page_count == 0)
    return;  // the header's page count is not authoritative; SQLite checks the file itself
  const std::uint64_t expected = page_size * page_count;
  if (actual < expected) {
    throw StoreFormatError("truncated: the header announces " + std::to_string(expected) +
                           " bytes, the file holds " + std::to_string(actual));
  }
  if (actual > expected) {
    throw StoreFormatError("damaged: the header announces " + std::to_string(expected) +
                           " bytes, the file holds " + std::to_string(actual));
  }
}

}  // namespace

CacheStore::CacheStore(const fs::path& path, Mode mode) : path_(path), mode_(mode) {
  const CacheFileKind kind = classify_cache_file(path_);
  if (kind == CacheFileKind::version_one) {
    throw StoreFormatError("a version-1 cache file (import it with 'gamebatch cache import')");
  }
  if (kind == CacheFileKind::other)
    throw StoreFormatError("not a gamebatch cache (it is not an SQLite database)");
  if (kind == CacheFileKind::missing) {
    if (mode_ == Mode::read_only) {
      throw std::system_error(std::make_error_code(std::errc::no_such_file_or_directory),
                              "cannot open " + path_.string());
    }
    if (path_.has_parent_path())
      fs::create_directories(path_.parent_path());
    create_whole();
  } else {
    check_length(path_);
  }
  std::unique_ptr<Connection> first = open_connection();
  check_format(*first);
  give_back(std::move(first));
}

CacheStore::~CacheStore() {
  std::lock_guard writer_lock(writer_mutex_);
  std::lock_guard pool_lock(pool_mutex_);
  writer_.reset();
  idle_.clear();
}

// Runs that start together on a new cache (Slurm arrays, shards) must never see it half made: a
// file with no schema yet, or one switching to WAL, was read as another program's database or
// failed the switch on a lock. So a new cache is made whole (schema, ids, WAL mode in its
// header) under a temporary name beside it and linked into place; link() fails when a file is
// there by then: another run made it first, and that one is used. The temporary is removed
// either way; a run killed before that leaves PATH.new.PID.N, which the next creation removes
// when PID is gone.
void CacheStore::create_whole() {
  static std::atomic<unsigned> made{0};
  const std::string prefix = path_.filename().string() + ".new.";
  const fs::path directory = path_.has_parent_path() ? path_.parent_path() : fs::path(".");
  std::error_code ignored;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory, ignored)) {
    const std::string name = entry.path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0)
      continue;
    const auto pid = static_cast<pid_t>(std::atol(name.c_str() + prefix.size()));
    if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH)
      fs::remove(entry.path(), ignored);
  }
  const fs::path temporary =
      directory / (prefix + std::to_string(::getpid()) + "." + std::to_string(made++));
  try {
    {
      std::unique_ptr<Connection> connection = open_connection(temporary);
      connection->execute("PRAGMA journal_mode = WAL");
      initialise(*connection);
    }  // closed: its log folded in and removed, the file whole
    if (::link(temporary.c_str(), path_.c_str()) != 0 && errno != EEXIST) {
      throw std::system_error(errno, std::generic_category(),
                              "cannot create the answer cache " + path_.string());
    }
  } catch (...) {
    fs::remove(temporary, ignored);
    throw;
  }
  fs::remove(temporary, ignored);
}

void CacheStore::initialise(Connection& connection) {
  connection.execute("BEGIN IMMEDIATE");
  try {
    const std::int64_t objects = connection.pragma_value("SELECT count(*) FROM sqlite_schema");
    if (connection.pragma_value("PRAGMA application_id") == 0 && objects == 0) {
      connection.execute(kSchema);
      connection.execute(("PRAGMA application_id = " + std::to_string(kApplicationId)).c_str());
      connection.execute(("PRAGMA user_version = " + std::to_string(kStoreFormatVersion)).c_str());
    }
    connection.execute("COMMIT");
  } catch (...) {
    sqlite3_exec(connection.db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::unique_ptr<CacheStore::Connection> CacheStore::open_connection() {
  return open_connection(path_);
}

std::unique_ptr<CacheStore::Connection> CacheStore::open_connection(const fs::path& at) {
  auto connection = std::make_unique<Connection>();
  // read_only still opens for writing, so that SQLite can fold in the log a killed run left: it
  // only never creates the file and never starts a write transaction.
  const int flags = SQLITE_OPEN_READWRITE | (mode_ == Mode::read_write ? SQLITE_OPEN_CREATE : 0) |
                    SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE;
  const int code = sqlite3_open_v2(at.c_str(), &connection->db, flags, nullptr);
  if (code != SQLITE_OK)
    fail(connection->db, code, "cannot open the answer cache " + at.string());
  sqlite3_extended_result_codes(connection->db, 1);
  // A cache file may come from anywhere: no schema tricks, and cells checked as they are read.
  sqlite3_db_config(connection->db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(connection->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_busy_handler(connection->db, &wait_while_busy<BusyState>, &busy_);
  // These read the file's header and schema: a failure means the file is not a sound store, as
  // check_format says of what it reads (a damaged header fails here with "unsupported file
  // format", found by tests/fuzz/cache_store_fuzz.cpp).
  try {
    connection->execute("PRAGMA cell_size_check = ON");
    // WAL commits survive kill -9 without an fsync each; only a power loss can take the newest.
    connection->execute("PRAGMA synchronous = NORMAL");
    // 16 MiB of pages per connection (SQLite's default is 2 MiB): memory still follows the pages
    // a run touches, never the file's size, and look-ups in a large cache mostly hit it.
    connection->execute("PRAGMA cache_size = -16384");
  } catch (const StoreDamagedError& damage) {
    throw StoreFormatError(damage.what());  // already "damaged: ..."
  } catch (const std::exception& error) {
    throw StoreFormatError(std::string("damaged: ") + error.what());
  }
  return connection;
}

namespace {

// The schema objects (type, name, table, SQL text) of `db`, as SQLite records them.
std::vector<std::string> schema_of(sqlite3* db) {
  std::vector<std::string> objects;
  sqlite3_stmt* statement = nullptr;
  int code = sqlite3_prepare_v2(
      db, "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema ORDER BY name", -1,
      &statement, nullptr);
  if (code != SQLITE_OK)
    fail(db, code, "cannot read the schema");
  while ((code = sqlite3_step(statement)) == SQLITE_ROW) {
    std::string object;
    for (int column = 0; column < 4; ++column) {
      object += column_text(statement, column);
      object += '\n';
    }
    objects.push_back(std::move(object));
  }
  sqlite3_finalize(statement);
  if (code != SQLITE_DONE)
    fail(db, code, "cannot read the schema");
  return objects;
}

// The schema a new store gets, as SQLite records it (made once, in memory): a stored schema must
// be exactly this, so that a flipped byte that still parses (a renamed column) is damage too.
const std::vector<std::string>& expected_schema() {
  static const std::vector<std::string> schema = [] {
    sqlite3* db = nullptr;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
        sqlite3_exec(db, kSchema, nullptr, nullptr, nullptr) != SQLITE_OK) {
      sqlite3_close(db);
      throw std::runtime_error("cannot create the cache schema in memory");
    }
    std::vector<std::string> objects = schema_of(db);
    sqlite3_close(db);
    return objects;
  }();
  return schema;
}

}  // namespace

void CacheStore::check_format(Connection& connection) {
  try {
    // Only reads until the file is known to be ours (or new): another program's database is
    // refused exactly as it was found.
    // The schema first: a process creating the file commits its tables and ids at once, so ids
    // read after a schema that is not empty are the creator's (read the other way round, a
    // creation committed between the reads made a new cache look like another program's).
    const std::int64_t schema_objects =
        connection.pragma_value("SELECT count(*) FROM sqlite_schema");
    std::int64_t application = connection.pragma_value("PRAGMA application_id");
    std::int64_t version = connection.pragma_value("PRAGMA user_version");
    if (application == 0 && version == 0 && mode_ == Mode::read_write && schema_objects == 0) {
      // An empty database that was not made by create_whole (a file made empty beforehand, or
      // by an older gamebatch): made ours in place, the runs that find it so taking turns (an
      // flock on the file; SQLite's own locks are fcntl locks, which it does not touch).
      const int file = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
      if (file >= 0) {
        while (::flock(file, LOCK_EX) != 0 && errno == EINTR) {
        }
      }
      try {
        connection.execute_when_free("PRAGMA journal_mode = WAL");
        initialise(connection);
      } catch (...) {
        if (file >= 0)
          ::close(file);
        throw;
      }
      if (file >= 0)
        ::close(file);  // and its lock
      application = connection.pragma_value("PRAGMA application_id");
      version = connection.pragma_value("PRAGMA user_version");
    }
    if (application != kApplicationId)
      throw StoreFormatError("not a gamebatch cache (an SQLite database of another program)");
    if (version != kStoreFormatVersion) {
      throw StoreFormatError("format version " + std::to_string(version) +
                             ", but this gamebatch reads version " +
                             std::to_string(kStoreFormatVersion) + " only");
    }
    if (schema_of(connection.db) != expected_schema())
      throw StoreFormatError("damaged: its schema is not the cache's");
    if (mode_ == Mode::read_write)
      connection.execute_when_free("PRAGMA journal_mode = WAL");
    connection.find = connection.prepare(
        "SELECT key_high, game, solver_version, answer, checksum, last_used FROM answers "
        "WHERE id = ?1");
    connection.find_artefact = connection.prepare(
        "SELECT version, bytes, checksum FROM artefacts WHERE game = ?1 AND name = ?2");
    connection.has_artefact =
        connection.prepare("SELECT 1 FROM artefacts WHERE game = ?1 AND name = ?2");
  } catch (const StoreFormatError&) {
    throw;
  } catch (const std::exception& error) {
    // SQLITE_NOTADB, a damaged schema page, missing tables: all mean the file is not sound.
    throw StoreFormatError(std::string("damaged: ") + error.what());
  }
}

namespace {

// A read transaction shared by look-ups ends after this many of them or this long, whichever
// comes first: long enough to spare most of SQLite's per-transaction locking (a few system calls
// per look-up otherwise), short enough that commits of other runs are soon seen and the log can
// be folded back.
constexpr int kReadsPerTransaction = 1000;
constexpr std::chrono::milliseconds kReadTransactionAge{20};

}  // namespace

void CacheStore::end_read(Connection& connection) {
  if (!connection.reading)
    return;
  connection.reading = false;
  sqlite3_exec(connection.db, "COMMIT", nullptr, nullptr, nullptr);
}

CacheStore::Borrowed CacheStore::borrow(bool keep_read) {
  std::unique_ptr<Connection> connection;
  {
    std::lock_guard lock(pool_mutex_);
    if (!idle_.empty()) {
      connection = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  if (!connection) {
    connection = open_connection();
    check_format(*connection);
  }
  if (!keep_read)
    end_read(*connection);
  return Borrowed(*this, std::move(connection));
}

void CacheStore::give_back(std::unique_ptr<Connection> connection) {
  if (connection->reading &&
      std::chrono::steady_clock::now() - connection->read_since > kReadTransactionAge)
    end_read(*connection);
  std::lock_guard lock(pool_mutex_);
  idle_.push_back(std::move(connection));
}

void CacheStore::end_idle_reads() {
  std::lock_guard lock(pool_mutex_);
  for (const std::unique_ptr<Connection>& connection : idle_)
    end_read(*connection);
}

void CacheStore::on_busy(std::function<void()> callback) {
  busy_.on_busy = std::move(callback);
}

void CacheStore::write_transaction(const std::function<void(Connection&)>& body) {
  if (mode_ != Mode::read_write)
    throw std::logic_error("the answer cache was opened read-only");
  std::lock_guard lock(writer_mutex_);
  if (!writer_) {
    writer_ = open_connection();
    check_format(*writer_);
    // Commits touch pages all over a large file: give the one writer more of them.
    writer_->execute("PRAGMA cache_size = -65536");
    // Fold the log back every 64 MiB rather than every 4 MiB: fewer fsyncs inside big commits.
    writer_->execute("PRAGMA wal_autocheckpoint = 16384");
    const std::string answer_columns =
        " INTO answers (id, key_high, game, solver_version, answer, checksum, last_used, "
        "canonical_case) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
    const std::string artefact_columns =
        " INTO artefacts (game, name, version, bytes, checksum, last_used) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
    writer_->insert = writer_->prepare(("INSERT OR IGNORE" + answer_columns).c_str());
    writer_->replace = writer_->prepare(("INSERT OR REPLACE" + answer_columns).c_str());
    writer_->touch =
        writer_->prepare("UPDATE answers SET last_used = ?2 WHERE id = ?1 AND last_used < ?2");
    writer_->put_artefact = writer_->prepare(("INSERT OR REPLACE" + artefact_columns).c_str());
    writer_->add_artefact = writer_->prepare(("INSERT OR IGNORE" + artefact_columns).c_str());
    writer_->touch_artefact = writer_->prepare(
        "UPDATE artefacts SET last_used = ?3 WHERE game = ?1 AND name = ?2 AND last_used < ?3");
  }
  end_idle_reads();  // so that the log can be folded back past this commit
  writer_->execute("BEGIN IMMEDIATE");
  try {
    body(*writer_);
    writer_->execute("COMMIT");
  } catch (...) {
    sqlite3_exec(writer_->db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

namespace {

void step_done(sqlite3* db, sqlite3_stmt* statement, const char* what) {
  const int code = sqlite3_step(statement);
  if (code != SQLITE_DONE)
    fail(db, code, what);
}

}  // namespace

// --------------------------------------------------------------------------------- answers

Lookup CacheStore::find(const CacheKey& key) {
  Borrowed connection = borrow(/*keep_read=*/true);
  const auto now = std::chrono::steady_clock::now();
  if (connection->reading && (connection->reads >= kReadsPerTransaction ||
                              now - connection->read_since > kReadTransactionAge))
    end_read(*connection);
  if (!connection->reading) {
    connection->execute("BEGIN");
    connection->reading = true;
    connection->reads = 0;
    connection->read_since = now;
  }
  ++connection->reads;
  const Statement statement(connection->find);
  sqlite3_bind_int64(statement.get(), 1, as_signed(key.low));
  const int code = sqlite3_step(statement.get());
  if (code == SQLITE_DONE)
    return {};
  if (code != SQLITE_ROW)
    fail(connection->db, code, "cannot look an answer up");
  sqlite3_stmt* row = statement.get();
  const CacheKey stored_key{as_unsigned(sqlite3_column_int64(row, 0)), key.low};
  const std::string_view game = column_text(row, 1);
  const auto version = static_cast<std::uint32_t>(sqlite3_column_int64(row, 2));
  const std::string_view answer = column_text(row, 3);
  const std::uint64_t checksum = as_unsigned(sqlite3_column_int64(row, 4));
  if (answer_checksum(stored_key, game, version, answer) != checksum)
    return Lookup{.found = std::nullopt, .damaged = true};
  if (stored_key != key)
    return {};  // another key with the same low half: a miss, see the invariants
  return Lookup{.found = StoredAnswer{std::string(answer), sqlite3_column_int64(row, 5)},
                .damaged = false};
}

void CacheStore::add_entries(const std::vector<NewEntry>& entries, std::int64_t now) {
  if (entries.empty())
    return;
  // In row order, so that each page of the table is written once per commit, not once per entry
  // (keys are uniform: unsorted, every insert lands on another page).
  std::vector<const NewEntry*> in_order;
  in_order.reserve(entries.size());
  for (const NewEntry& item : entries)
    in_order.push_back(&item);
  std::sort(in_order.begin(), in_order.end(), [](const NewEntry* a, const NewEntry* b) {
    return as_signed(a->key.low) < as_signed(b->key.low);
  });
  write_transaction([&](Connection& writer) {
    for (const NewEntry* pointer : in_order) {
      const NewEntry& item = *pointer;
      const Statement statement(item.replace ? writer.replace : writer.insert);
      sqlite3_stmt* insert = statement.get();
      const CacheEntry& entry = item.entry;
      sqlite3_bind_int64(insert, 1, as_signed(item.key.low));
      sqlite3_bind_int64(insert, 2, as_signed(item.key.high));
      bind_text(insert, 3, entry.game);
      sqlite3_bind_int64(insert, 4, entry.solver_version);
      bind_blob(insert, 5, entry.answer);
      sqlite3_bind_int64(
          insert, 6,
          as_signed(answer_checksum(item.key, entry.game, entry.solver_version, entry.answer)));
      sqlite3_bind_int64(insert, 7, now);
      bind_blob(insert, 8, entry.canonical_case);
      step_done(writer.db, insert, "cannot store an answer");
    }
  });
}

void CacheStore::touch_entries(const std::vector<CacheKey>& keys, std::int64_t now) {
  if (keys.empty())
    return;
  write_transaction([&](Connection& writer) {
    for (const CacheKey& key : keys) {
      const Statement statement(writer.touch);
      sqlite3_bind_int64(statement.get(), 1, as_signed(key.low));
      sqlite3_bind_int64(statement.get(), 2, now);
      step_done(writer.db, statement.get(), "cannot refresh an answer's last use");
    }
  });
}

// ------------------------------------------------------------------------------- artefacts

std::optional<Artefact> CacheStore::find_artefact(std::string_view game, std::string_view name) {
  Borrowed connection = borrow();
  const Statement statement(connection->find_artefact);
  bind_text(statement.get(), 1, game);
  bind_text(statement.get(), 2, name);
  const int code = sqlite3_step(statement.get());
  if (code == SQLITE_DONE)
    return std::nullopt;
  if (code != SQLITE_ROW)
    fail(connection->db, code, "cannot read an artefact");
  Artefact artefact{std::string(name),
                    static_cast<std::uint32_t>(sqlite3_column_int64(statement.get(), 0)),
                    std::string(column_text(statement.get(), 1))};
  if (artefact_checksum(game, artefact) != as_unsigned(sqlite3_column_int64(statement.get(), 2)))
    return std::nullopt;  // damaged: as if absent, so it is rebuilt and replaced
  return artefact;
}

bool CacheStore::has_artefact(std::string_view game, std::string_view name) {
  Borrowed connection = borrow();
  const Statement statement(connection->has_artefact);
  bind_text(statement.get(), 1, game);
  bind_text(statement.get(), 2, name);
  const int code = sqlite3_step(statement.get());
  if (code != SQLITE_ROW && code != SQLITE_DONE)
    fail(connection->db, code, "cannot look an artefact up");
  return code == SQLITE_ROW;
}

void CacheStore::put_artefact(std::string_view game, const Artefact& artefact, std::int64_t now,
                              bool replace) {
  write_transaction([&](Connection& writer) {
    const Statement statement(replace ? writer.put_artefact : writer.add_artefact);
    sqlite3_stmt* put = statement.get();
    bind_text(put, 1, game);
    bind_text(put, 2, artefact.name);
    sqlite3_bind_int64(put, 3, artefact.version);
    bind_blob(put, 4, artefact.bytes);
    sqlite3_bind_int64(put, 5, as_signed(artefact_checksum(game, artefact)));
    sqlite3_bind_int64(put, 6, now);
    step_done(writer.db, put, "cannot store an artefact");
  });
}

void CacheStore::touch_artefact(std::string_view game, std::string_view name, std::int64_t now) {
  write_transaction([&](Connection& writer) {
    const Statement statement(writer.touch_artefact);
    bind_text(statement.get(), 1, game);
    bind_text(statement.get(), 2, name);
    sqlite3_bind_int64(statement.get(), 3, now);
    step_done(writer.db, statement.get(), "cannot refresh an artefact's last use");
  });
}

// ------------------------------------------------------------------------- walks and stats

namespace {

// Runs `sql` on `db`, calling `row` for each result row.
void for_each_row(sqlite3* db, const std::string& sql,
                  const std::function<bool(sqlite3_stmt*)>& row,
                  const std::function<void(sqlite3_stmt*)>& bind = {}) {
  sqlite3_stmt* statement = nullptr;
  int code = sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr);
  if (code != SQLITE_OK)
    fail(db, code, "cannot prepare '" + sql + "'");
  if (bind)
    bind(statement);
  try {
    while ((code = sqlite3_step(statement)) == SQLITE_ROW) {
      if (!row(statement))
        break;
    }
    if (code != SQLITE_ROW && code != SQLITE_DONE)
      fail(db, code, "'" + sql + "' failed");
  } catch (...) {
    sqlite3_finalize(statement);
    throw;
  }
  sqlite3_finalize(statement);
}

}  // namespace

void CacheStore::for_each_entry(
    const std::function<bool(const CacheKey&, const CacheEntry&, std::int64_t, bool)>& visit) {
  Borrowed connection = borrow();
  CacheEntry entry;
  for_each_row(connection->db,
               "SELECT id, key_high, game, solver_version, answer, checksum, last_used, "
               "canonical_case FROM answers ORDER BY game, key_high, id",
               [&](sqlite3_stmt* row) {
                 const CacheKey key{as_unsigned(sqlite3_column_int64(row, 1)),
                                    as_unsigned(sqlite3_column_int64(row, 0))};
                 entry.game = column_text(row, 2);
                 entry.solver_version = static_cast<std::uint32_t>(sqlite3_column_int64(row, 3));
                 entry.answer = column_text(row, 4);
                 entry.canonical_case = column_text(row, 7);
                 const bool damaged =
                     answer_checksum(key, entry.game, entry.solver_version, entry.answer) !=
                     as_unsigned(sqlite3_column_int64(row, 5));
                 return visit(key, entry, sqlite3_column_int64(row, 6), damaged);
               });
}

void CacheStore::for_each_artefact(
    const std::function<void(const std::string&, const Artefact&, bool)>& visit) {
  Borrowed connection = borrow();
  for_each_row(connection->db,
               "SELECT game, name, version, bytes, checksum FROM artefacts ORDER BY game, name",
               [&](sqlite3_stmt* row) {
                 const std::string game(column_text(row, 0));
                 const Artefact artefact{std::string(column_text(row, 1)),
                                         static_cast<std::uint32_t>(sqlite3_column_int64(row, 2)),
                                         std::string(column_text(row, 3))};
                 const bool damaged =
                     artefact_checksum(game, artefact) != as_unsigned(sqlite3_column_int64(row, 4));
                 visit(game, artefact, damaged);
                 return true;
               });
}

std::uint64_t CacheStore::entry_count() {
  Borrowed connection = borrow();
  return static_cast<std::uint64_t>(connection->pragma_value("SELECT count(*) FROM answers"));
}

std::vector<EntryGroup> CacheStore::entry_groups() {
  Borrowed connection = borrow();
  std::vector<EntryGroup> groups;
  for_each_row(connection->db,
               "SELECT game, solver_version, count(*), "
               "sum(length(answer) + length(canonical_case)), min(last_used), max(last_used) "
               "FROM answers GROUP BY game, solver_version ORDER BY game, solver_version",
               [&](sqlite3_stmt* row) {
                 groups.push_back(EntryGroup{
                     .game = std::string(column_text(row, 0)),
                     .solver_version = static_cast<std::uint32_t>(sqlite3_column_int64(row, 1)),
                     .entries = static_cast<std::uint64_t>(sqlite3_column_int64(row, 2)),
                     .payload_bytes = static_cast<std::uint64_t>(sqlite3_column_int64(row, 3)),
                     .oldest_use = sqlite3_column_int64(row, 4),
                     .newest_use = sqlite3_column_int64(row, 5),
                 });
                 return true;
               });
  return groups;
}

std::array<std::uint64_t, 4> CacheStore::entry_ages(std::int64_t now) {
  Borrowed connection = borrow();
  std::array<std::uint64_t, 4> ages{};
  for_each_row(
      connection->db,
      "SELECT coalesce(sum(last_used >= ?1), 0), "
      "coalesce(sum(last_used < ?1 AND last_used >= ?2), 0), "
      "coalesce(sum(last_used < ?2 AND last_used >= ?3), 0), coalesce(sum(last_used < ?3), 0) "
      "FROM answers",
      [&](sqlite3_stmt* row) {
        for (int k = 0; k < 4; ++k)
          ages[static_cast<std::size_t>(k)] =
              static_cast<std::uint64_t>(sqlite3_column_int64(row, k));
        return false;
      },
      [&](sqlite3_stmt* statement) {
        for (int k = 0; k < 3; ++k)
          sqlite3_bind_int64(statement, k + 1,
                             now - kLastUseAgeBounds[static_cast<std::size_t>(k)]);
      });
  return ages;
}

std::vector<StoredArtefactInfo> CacheStore::artefact_infos() {
  Borrowed connection = borrow();
  std::vector<StoredArtefactInfo> infos;
  for_each_row(connection->db,
               "SELECT game, name, version, length(bytes), last_used FROM artefacts "
               "ORDER BY game, name",
               [&](sqlite3_stmt* row) {
                 infos.push_back(StoredArtefactInfo{
                     .game = std::string(column_text(row, 0)),
                     .name = std::string(column_text(row, 1)),
                     .version = static_cast<std::uint32_t>(sqlite3_column_int64(row, 2)),
                     .bytes = static_cast<std::uint64_t>(sqlite3_column_int64(row, 3)),
                     .last_used = sqlite3_column_int64(row, 4),
                 });
                 return true;
               });
  return infos;
}

std::uint64_t CacheStore::delete_stale(
    const std::function<bool(std::string_view, std::uint32_t)>& entry_is_stale,
    const std::function<bool(std::string_view, std::uint32_t)>& artefact_is_stale) {
  std::vector<EntryGroup> stale_groups;
  for (EntryGroup& group : entry_groups()) {
    if (entry_is_stale(group.game, group.solver_version))
      stale_groups.push_back(std::move(group));
  }
  std::vector<StoredArtefactInfo> stale_artefacts;
  for (StoredArtefactInfo& info : artefact_infos()) {
    if (artefact_is_stale(info.game, info.version))
      stale_artefacts.push_back(std::move(info));
  }
  std::uint64_t deleted = 0;
  write_transaction([&](Connection& writer) {
    for (const EntryGroup& group : stale_groups) {
      for_each_row(
          writer.db, "DELETE FROM answers WHERE game = ?1 AND solver_version = ?2",
          [](sqlite3_stmt*) { return true; },
          [&](sqlite3_stmt* statement) {
            bind_text(statement, 1, group.game);
            sqlite3_bind_int64(statement, 2, group.solver_version);
          });
      deleted += static_cast<std::uint64_t>(sqlite3_changes64(writer.db));
    }
    for (const StoredArtefactInfo& info : stale_artefacts) {
      for_each_row(
          writer.db, "DELETE FROM artefacts WHERE game = ?1 AND name = ?2",
          [](sqlite3_stmt*) { return true; },
          [&](sqlite3_stmt* statement) {
            bind_text(statement, 1, info.game);
            bind_text(statement, 2, info.name);
          });
    }
  });
  return deleted;
}

std::uint64_t CacheStore::delete_least_recently_used(std::uint64_t keep_payload_bytes) {
  // Entries and artefacts compete on last use alike: a table of 100 MB unused for a month goes
  // before a thousand answers used yesterday.
  const char* const kByLastUse =
      "SELECT 0, id, '', '', length(answer) + length(canonical_case), last_used FROM answers "
      "UNION ALL SELECT 1, 0, game, name, length(bytes), last_used FROM artefacts "
      "ORDER BY 6, 1, 2, 3, 4";
  std::uint64_t total = 0;
  std::vector<std::int64_t> doomed_entries;
  std::vector<std::pair<std::string, std::string>> doomed_artefacts;
  {
    Borrowed connection = borrow();
    for_each_row(connection->db, kByLastUse, [&](sqlite3_stmt* row) {
      total += static_cast<std::uint64_t>(sqlite3_column_int64(row, 4));
      return true;
    });
    if (total <= keep_payload_bytes)
      return 0;
    for_each_row(connection->db, kByLastUse, [&](sqlite3_stmt* row) {
      if (total <= keep_payload_bytes)
        return false;
      if (sqlite3_column_int64(row, 0) == 0) {
        doomed_entries.push_back(sqlite3_column_int64(row, 1));
      } else {
        doomed_artefacts.emplace_back(column_text(row, 2), column_text(row, 3));
      }
      total -= static_cast<std::uint64_t>(sqlite3_column_int64(row, 4));
      return true;
    });
  }
  write_transaction([&](Connection& writer) {
    sqlite3_stmt* erase = writer.prepare("DELETE FROM answers WHERE id = ?1");
    sqlite3_stmt* erase_artefact =
        writer.prepare("DELETE FROM artefacts WHERE game = ?1 AND name = ?2");
    try {
      for (const std::int64_t id : doomed_entries) {
        sqlite3_bind_int64(erase, 1, id);
        step_done(writer.db, erase, "cannot delete an entry");
        sqlite3_reset(erase);
      }
      for (const auto& [game, name] : doomed_artefacts) {
        bind_text(erase_artefact, 1, game);
        bind_text(erase_artefact, 2, name);
        step_done(writer.db, erase_artefact, "cannot delete an artefact");
        sqlite3_reset(erase_artefact);
      }
    } catch (...) {
      sqlite3_finalize(erase);
      sqlite3_finalize(erase_artefact);
      throw;
    }
    sqlite3_finalize(erase);
    sqlite3_finalize(erase_artefact);
  });
  return doomed_entries.size() + doomed_artefacts.size();
}

void CacheStore::compact() {
  std::lock_guard lock(writer_mutex_);
  Borrowed connection = borrow();
  connection->execute("VACUUM");
  connection->execute("PRAGMA wal_checkpoint(TRUNCATE)");
}

std::vector<std::string> CacheStore::integrity_problems() {
  Borrowed connection = borrow();
  std::vector<std::string> problems;
  for_each_row(connection->db, "PRAGMA integrity_check", [&](sqlite3_stmt* row) {
    const std::string line(column_text(row, 0));
    if (line != "ok")
      problems.push_back(line);
    return true;
  });
  return problems;
}

std::uint64_t CacheStore::empty_bytes() {
  Borrowed connection = borrow();
  // The header page, the two tables and the artefacts' key index: one page each.
  return 4 * static_cast<std::uint64_t>(connection->pragma_value("PRAGMA page_size"));
}

std::uint64_t CacheStore::disk_bytes() const {
  std::error_code error;
  std::uint64_t bytes = fs::file_size(path_, error);
  if (error)
    bytes = 0;
  fs::path wal = path_;
  wal += "-wal";
  const std::uint64_t wal_bytes = fs::file_size(wal, error);
  return bytes + (error ? 0 : wal_bytes);
}

// ---------------------------------------------------------------------------------- import

ImportCounts import_cache_file(CacheStore& into, const fs::path& source) {
  constexpr std::size_t kBatch = 100'000;
  ImportCounts counts;
  const std::int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
  std::vector<NewEntry> batch;
  const auto take = [&](const CacheKey& key, const CacheEntry& entry, bool damaged) {
    if (damaged || case_key(entry.game, entry.solver_version, entry.canonical_case) != key) {
      ++counts.skipped;
      return;
    }
    ++counts.entries;
    batch.push_back({key, entry, false});
    if (batch.size() == kBatch) {
      into.add_entries(batch, now);
      batch.clear();
    }
  };
  const CacheFileKind kind = classify_cache_file(source);
  if (kind == CacheFileKind::version_one) {
    AnswerCache bundle;
    load_bundle_file(source, bundle);
    bundle.for_each_entry(
        [&](const CacheKey& key, const CacheEntry& entry) { take(key, entry, false); });
    into.add_entries(batch, now);
    bundle.for_each_artefact([&](const StoredArtefact& stored) {
      into.put_artefact(stored.game, stored.artefact, now, /*replace=*/false);
      ++counts.artefacts;
    });
    return counts;
  }
  if (kind == CacheFileKind::missing && !fs::exists(source)) {
    throw std::system_error(std::make_error_code(std::errc::no_such_file_or_directory),
                            "cannot open");
  }
  if (kind != CacheFileKind::store)
    throw CacheFormatError("not a gamebatch cache or bundle");
  CacheStore from(source, CacheStore::Mode::read_only);
  from.for_each_entry(
      [&](const CacheKey& key, const CacheEntry& entry, std::int64_t, bool damaged) {
        take(key, entry, damaged);
        return true;
      });
  into.add_entries(batch, now);
  from.for_each_artefact([&](const std::string& game, const Artefact& artefact, bool damaged) {
    if (damaged)
      return;
    into.put_artefact(game, artefact, now, /*replace=*/false);
    ++counts.artefacts;
  });
  return counts;
}

}  // namespace gamebatch::io
