// Writes a file whole or not at all.
#pragma once

#include <filesystem>
#include <string_view>

namespace gamebatch::io {

// Writes `content` to a temporary file beside `path` and renames it into place, so that a reader
// (or a run killed half way) never sees a partial file. Creates missing parent directories.
// No fsync: answer files can be recomputed, and one fsync per file would dominate runs of many
// small files. Throws std::system_error on failure (the temporary file is removed).
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace gamebatch::io
