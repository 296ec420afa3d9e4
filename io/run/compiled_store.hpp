// The compiled-program store as a whole: what `gamebatch cache stats` shows of it and what
// `gamebatch cache trim` removes (io/run/solution_build.hpp makes and reads its entries).
//
// Each entry (STORE/KEY, KEY 32 hex digits) is stamped when a build takes it from the store (the
// directory's modification time), so the least recently used entries can go first. An entry can
// be removed at any time but while a program in it runs: every command that runs stored programs
// holds a shared lock on STORE/.lock for its whole run (StoreUse), and trimming takes the lock
// exclusively, never waiting: a busy store is left as it is and said so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gamebatch::io {

struct CompiledProgramInfo {
  std::string key;             // the entry's name
  std::uint64_t bytes = 0;     // its files' sizes
  std::int64_t last_used = 0;  // seconds since the epoch: made, or last taken from the store
  bool compile_error = false;  // a stored compile error rather than a program
};

// Where the programs compiled for runs with the answer cache `cache_file` are kept: "compiled"
// beside it.
std::filesystem::path compiled_store_beside(const std::filesystem::path& cache_file);

// The entries of `store`, least recently used first (ties by key). Missing store: none. Half-made
// entries (KEY.tmp.PID.N) and anything else in the directory are not entries and are left alone.
std::vector<CompiledProgramInfo> compiled_programs(const std::filesystem::path& store);

// Marks the entry as used now (best effort: a read-only store keeps its old stamps).
void stamp_compiled_program(const std::filesystem::path& entry);

// Held while stored programs may run: a shared lock on STORE/.lock (the store is made when
// missing). Throws std::runtime_error when the store cannot be made or locked.
class StoreUse {
 public:
  explicit StoreUse(const std::filesystem::path& store);
  StoreUse(const StoreUse&) = delete;
  StoreUse& operator=(const StoreUse&) = delete;
  ~StoreUse();

 private:
  int descriptor_ = -1;
};

struct StoreTrim {
  bool busy = false;        // another gamebatch runs programs from the store: nothing removed
  std::size_t removed = 0;  // entries removed
  std::uint64_t bytes_before = 0;
  std::uint64_t bytes_after = 0;
};

// Removes the least recently used entries of `store` until its entries hold at most `max_bytes`.
StoreTrim trim_compiled_programs(const std::filesystem::path& store, std::uint64_t max_bytes);

}  // namespace gamebatch::io
