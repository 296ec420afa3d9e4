// Writes a file whole or not at all.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string_view>

namespace gamebatch::io {

// Writes `content` to a temporary file beside `path` and renames it into place, so that a reader
// (or a run killed half way) never sees a partial file. Creates missing parent directories.
// No fsync: answer files can be recomputed, and one fsync per file would dominate runs of many
// small files. Throws std::system_error on failure (the temporary file is removed).
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// The same, but leaves `path` alone (no write, same mtime) when it already holds exactly
// `content`: a rerun whose answers did not change touches no answer file. Returns true when it
// wrote.
bool write_file_if_changed(const std::filesystem::path& path, std::string_view content);

// Removes the temporary files (NAME.tmp.PID.N) that a process killed mid-write left in
// `directory`: those of processes that no longer run. Returns how many it removed. Missing or
// unreadable directories are skipped.
std::size_t remove_stale_temporaries(const std::filesystem::path& directory);

// The same as write_file_atomically, made durable: the data is fsync'ed before the rename and the
// directory after it, so that after a crash or power loss `path` holds either the old or the new
// content, whole. For files that cannot be recomputed cheaply (the answer cache).
void write_file_durably(const std::filesystem::path& path, std::string_view content);

}  // namespace gamebatch::io
