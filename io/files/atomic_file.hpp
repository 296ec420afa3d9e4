// Writes a file whole or not at all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string_view>
#include <vector>

namespace gamebatch::io {

// Writes `content` to a file that has no name yet (O_TMPFILE) in `path`'s directory and links it
// in as `path`, so that a reader (or a run killed half way) never sees a partial file, and a
// killed run leaves no temporary. Where the file system lacks O_TMPFILE (or /proc, which the link
// goes through), or `path` exists, the file is written under a temporary name (NAME.tmp.PID.N)
// and renamed into place. Creates missing
// parent directories. No fsync: answer files can be recomputed, and one fsync per file would
// dominate runs of many small files. Throws std::system_error on failure (nothing is left).
//
// Creating and linking files is what the kernel serialises (per file system, whatever the
// directory), and threads waiting for it spin: callers that write many files do it from
// kDefaultFileWriters threads at most, fed by their parallel work (pipeline/answers/solve_run.cpp,
// gen).
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// Threads that create files at once in a run of many files. Two: on 2 cores two writers beat one
// (20,000 files: gen 0.57 s against 0.86 s, solve 0.85 s against 0.94 s, and one writer leaves
// the other thread spinning idle), while every thread writing made a 16-core run 4x slower
// (tools/bench/README.md, "Scaling with --jobs").
inline constexpr std::size_t kDefaultFileWriters = 2;

// Whether `path` is a file holding exactly `content` (compared only when the sizes agree). Only
// reads, so it may run on many threads beside a writer: a rerun whose answers did not change
// writes no answer file (pipeline/answers/solve_run.cpp).
bool file_holds(const std::filesystem::path& path, std::string_view content);

// Removes the temporary files (NAME.tmp.PID.N) that a process killed mid-write left in
// `directory`: those of processes that no longer run. Returns how many it removed. Missing or
// unreadable directories are skipped. `on_kept`, when given, is called with the name of every
// entry left (the same pass tells a writer of many files which names are taken).
std::size_t remove_stale_temporaries(
    const std::filesystem::path& directory,
    const std::function<void(std::string_view name)>& on_kept = nullptr);

// The names some directories held at one moment, for a writer of many files into them: a file
// whose name was not there need not be compared with what is on disk before it is written. (Should
// another process create it meanwhile, write_file_atomically finds the name taken and replaces
// it.) Kept as 64-bit hashes, 8 bytes a name: a collision only costs a comparison.
class NamesOnDisk {
 public:
  // Records `name` in `directory`; call seal() once all are in.
  void add(const std::filesystem::path& directory, std::string_view name);
  void seal();
  // Whether `path` (a directory, then a name) may have been there: false only if it was not.
  bool may_hold(const std::filesystem::path& path) const;

 private:
  std::vector<std::uint64_t> keys_;  // sorted once sealed
};

// The same as write_file_atomically, made durable: the data is fsync'ed before the link (or
// rename) and the directory after it, so that after a crash or power loss `path` holds either the
// old or the new content, whole. For files that cannot be recomputed cheaply (the answer cache).
void write_file_durably(const std::filesystem::path& path, std::string_view content);

}  // namespace gamebatch::io
