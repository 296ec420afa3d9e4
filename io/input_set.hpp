// Turns the PATH arguments of `solve` into the list of input files and their answer files.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gamebatch::io {

struct InputFile {
  std::filesystem::path input;
  std::filesystem::path answer;
};

// A problem with the arguments themselves (missing path, clashing answer files): exit status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// X.in -> X.ans; any other name gets ".ans" appended.
std::filesystem::path answer_name(const std::filesystem::path& input_name);

// A file argument is an input whatever its name; a directory argument is walked recursively for
// regular files ending in ".in" (sorted, symbolic links to directories not followed). Answers go
// beside each input or, with `out_dir`, under it at the input's path relative to its argument.
// Throws UsageError for a path that does not exist or cannot be resolved, for two inputs that
// would write the same answer file, and for an answer file that is itself an input. The same
// input reached twice with the same answer file is kept once.
std::vector<InputFile> collect_inputs(const std::vector<std::string>& paths,
                                      const std::optional<std::filesystem::path>& out_dir);

}  // namespace gamebatch::io

namespace gamebatch::io {

// The whole content of a file. Throws std::system_error saying why it cannot be read ("cannot
// open: Permission denied"); the caller names the file.
std::string read_file(const std::filesystem::path& path);

}  // namespace gamebatch::io
