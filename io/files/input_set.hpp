// io/files: the room of the files a run reads and writes. Its theory of operation.
//
// What it is for. Every command starts from files a user named and ends with files it writes:
// inputs found under PATH arguments, answer files beside them or under --out, generated input
// sets, a shard's part of a set, a problem package's tests. This room decides which files those
// are and writes them so that a reader never sees half of one. It knows the games only through
// their formats (gen prints cases in them) and nothing of solving, caching or running programs.
//
// Its parts.
// - input_set.hpp (this file): collect_input_list() turns PATH arguments into the run's inputs and
//   their answer names, compactly (an InputList holds a million files in some 40 MB); read_file().
// - problem_package.hpp: the Kattis, Polygon and CMS layouts recognised by their marks, their input
//   and answer names, a package's submissions with their expected verdicts and its limits.
// - package_plan.hpp: a package's plan (gamebatch.toml): its groups, their limits and points, and
//   the entries that make each group's tests.
// - validator_settings.hpp: a package's own input validators (Kattis, Polygon, task-maker) and
//   the arguments each gets on each test (its group's flags).
// - shard.hpp: which part of an input set shard I of N takes (a stable hash of relative paths, or
//   Slurm's array variables).
// - atomic_file.hpp: a file written whole or not at all (O_TMPFILE linked into place, or a
//   temporary renamed), left untouched when it already holds the bytes.
// - generate.hpp: `gamebatch gen`, reproducible input sets whose file k depends only on the
//   options, the seed and k.
// - content_hash.hpp: XXH3 over lengths and bytes, the one way gamebatch names content (cache
//   keys and record checksums, compiled solutions' store keys).
//
// How a call flows. `solve` hands its PATH arguments to collect_input_list(), which walks each
// directory (sorted; a package in its own layout, else every *.in), pairs each input with its
// answer path ("-", kStandardStream, with stdout) and rejects clashes as a UsageError (exit 2);
// select_shard() may then keep one part.
// The pipeline reads each input with read_file() and writes each answer file with
// write_file_atomically() once all its cases are done.
//
// What it promises. The same PATH arguments give the same list in the same order on every machine
// and thread count; an answer file is complete or absent; a file that already holds the new bytes
// is not rewritten (nor its mtime touched); generated sets are byte-identical for every --jobs.
//
// What it must never depend on: the cache (io/cache/), running programs (io/run/), or anything
// above io/. It may use the games' room (io/problem.hpp, io/GAME/format.hpp) and core/. All its
// headers but path_names.hpp (its private helper) may be used from outside.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "io/files/problem_package.hpp"

namespace gamebatch::io {

struct InputFile {
  std::filesystem::path input;
  std::filesystem::path answer;
  // The input's path relative to the PATH argument it was found under (a file argument: its file
  // name). The same wherever the input set lives and however it was named: shards hash it.
  std::filesystem::path relative{};
};

// A problem with the arguments themselves (missing path, clashing answer files): exit status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// X.in -> X.ans; any other name gets ".ans" appended.
std::filesystem::path answer_name(const std::filesystem::path& input_name);

// The inputs of a run, compact: every name once in one buffer, some 40 bytes per file where a
// std::vector<InputFile> takes about 600 (three paths, each with its own list of components), so
// a run of a million small files keeps its file list small. An InputFile is made on demand.
class InputList {
 public:
  InputList() = default;
  // Exactly these files, answers as given (tests, callers that name answers themselves); implicit,
  // as a list of files is what it holds.
  // NOLINTNEXTLINE(google-explicit-constructor)
  InputList(std::vector<InputFile> files);

  std::size_t size() const { return files_.size(); }
  bool empty() const { return files_.empty(); }
  InputFile operator[](std::size_t index) const;
  // The input's path relative to its PATH argument, as InputFile::relative.generic_string() says.
  std::string relative_name(std::size_t index) const;
  // Keeps only the files whose index passes `keep` (e.g. one shard), in order.
  template <class Predicate>
  void keep_if(Predicate keep) {
    std::size_t kept = 0;
    for (std::size_t index = 0; index < files_.size(); ++index) {
      if (keep(index))
        files_[kept++] = files_[index];
    }
    files_.resize(kept);
    files_.shrink_to_fit();
  }
  std::vector<InputFile> to_vector() const;
  // The directories the answer files go to, each once (lexically normal, sorted).
  std::vector<std::filesystem::path> answer_directories() const;

 private:
  friend InputList collect_input_list(const std::vector<std::string>& paths,
                                      const std::optional<std::filesystem::path>& out_dir,
                                      std::optional<Layout> layout);
  struct Collector;  // collect_input_list's steps (input_set.cpp)
  struct Entry {
    std::size_t name;  // offset of the NUL-terminated name in names_; kGiven: index in given_
    std::size_t root;  // index in roots_, or kGiven
  };
  static constexpr std::size_t kGiven = static_cast<std::size_t>(-1);
  std::vector<InputFile> given_;
  // A walked directory argument (the name is relative to it), or none: the name is a file
  // argument as given.
  std::vector<std::optional<std::filesystem::path>> roots_;
  // Per root: the package layout that names its answers (none: answer_name). Kept per root, not
  // per file, so that a file costs no more than before.
  std::vector<std::optional<Layout>> layouts_;
  std::string names_;
  std::vector<Entry> files_;
  std::optional<std::filesystem::path> out_dir_;

  std::string_view name(const Entry& entry) const { return names_.c_str() + entry.name; }
  // The answer file of `input` (`relative` to its argument) under the root's `layout`.
  std::filesystem::path answer_of(const std::optional<Layout>& layout,
                                  const std::filesystem::path& input,
                                  const std::filesystem::path& relative) const;
};

// A file argument is an input whatever its name; a directory argument is walked recursively for
// regular files ending in ".in" (sorted, symbolic links to directories not followed). Answers go
// beside each input or, with `out_dir`, under it at the input's path relative to its argument.
// A directory argument that is a problem package (recognise_package(directory, layout): detected,
// or read as the forced `layout`) gives instead the inputs of its layout under its input_roots,
// each named relative to the directory argument ("tests/01"), and their answers are named by
// layout_answer_path: beside the input, or `out_dir` / layout_answer_path(relative)
// (out/output/output0.txt for cms' input/input0.txt). A file argument's answer is named by the
// forced layout, else by answer_name. Throws UsageError when two layouts claim a directory.
// Throws UsageError for a path that does not exist or cannot be resolved, for two inputs that
// would write the same answer file, and for an answer file that is itself an input. The same
// input reached twice with the same answer file is kept once. Only the arguments, the output
// directory and each distinct directory are resolved (symbolic links, `..`); files are compared
// by name within them, so a run costs no system call per file beyond the walk (a symbolic link
// among the inputs is resolved too). An answer file that is a symbolic link is replaced, not
// written through, so it is compared by its own name.
InputList collect_input_list(const std::vector<std::string>& paths,
                             const std::optional<std::filesystem::path>& out_dir,
                             std::optional<Layout> layout = std::nullopt);

// The same as a vector (for tests and small sets).
std::vector<InputFile> collect_inputs(const std::vector<std::string>& paths,
                                      const std::optional<std::filesystem::path>& out_dir,
                                      std::optional<Layout> layout = std::nullopt);

}  // namespace gamebatch::io

namespace gamebatch::io {

// The PATH argument that names standard input: one input read from stdin, whose answers go to
// stdout (its InputFile has "-" as its input, answer and relative name, whatever --out says).
inline constexpr const char* kStandardStream = "-";

// The whole content of a file. Throws std::system_error saying why it cannot be read ("cannot
// open: Permission denied"); the caller names the file. kStandardStream reads stdin to its end
// the first time and gives the same text on every later call (a command may read an input twice).
std::string read_file(const std::filesystem::path& path);

}  // namespace gamebatch::io
