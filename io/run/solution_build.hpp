// Solutions given as source files: each compiled once, as a judge compiles it, and kept by the
// content of its sources and the identity of its compiler, so that a second check compiles nothing.
//
// A language is a set of file extensions, a compile command and a run command, written with
// placeholders as verifyproblem's languages.yaml writes them:
//   {files}     the solution's source files, each quoted
//   {mainfile}  the one that is run or holds main (a single file: it; a directory: main.*, or
//               the file named like the directory, or the only one)
//   {mainclass} {mainfile}'s name without its extension (Java)
//   {binary}    the one file the compile command must leave (the program, or a jar)
//   {workdir}   (compile only) an empty directory for the compiler's intermediate files (Java's
//               classes), removed afterwards
// Defaults (a judge's flags): cpp (.cpp .cc .cxx .c++) g++ -std=gnu++20 -O2; c (.c) gcc
// -std=gnu17 -O2 (-lm); python3 (.py) run by python3, its syntax checked at compile time; java
// (.java) javac, then java -cp {binary} {mainclass}, where a JDK is installed.
// The run command's {mainfile} and {files} are the store's copies of the sources (what was keyed
// and checked); a directory solution's run command also names the copy's directory, so that a
// sandbox shows the sibling modules a Python program imports.
//
// Compiled programs live in a store directory, one sub-directory per key (xxHash of the language,
// its commands, the compiler's identity, and every source's name and bytes), written to a
// temporary name and renamed into place, so two gamebatch processes compiling the same source at
// once both end with one sound entry. With a sandbox, the compiler runs in one of its boxes (it
// sees the sources and the system, nothing else of the user's) and the program comes out on its
// standard output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace toml {
inline namespace v3 {
class table;
}
}  // namespace toml

namespace gamebatch::io {

class SandboxPool;

struct Language {
  std::string name;                     // "cpp", "c", "python3", "java"
  std::vector<std::string> extensions;  // with the dot: ".cpp"
  std::string compile;                  // empty: nothing to compile
  std::string run;
};

// The languages known, in the order a source's extension is looked up.
using LanguageTable = std::vector<Language>;

LanguageTable default_languages();

// A config's or --languages file's `[languages]` table over `table`: a sub-table per language
// (`[languages.cpp]`, keys `compile`, `run`, `extensions`), a new name adding a language (it then
// needs `run` and `extensions`). An extension given to a language is taken from any other that
// claimed it. Unknown keys, wrong types and unknown {placeholders} are errors. Throws
// std::runtime_error whose message names `source`, the line and the key, as run configs' errors
// do.
void apply_languages_config(LanguageTable& table, const toml::table& languages,
                            const std::string& source);

// Reads a TOML file and applies its `[languages]` table (a run config holding one, or a file of
// its own). Throws std::runtime_error naming the file.
void load_languages_file(LanguageTable& table, const std::filesystem::path& file);

// The language of a source: a file by its extension; a directory by the extensions of the files
// directly in it (the first language that claims one of them). nullptr: not a source (an
// executable, a shell command's first word, ...).
const Language* language_of(const LanguageTable& table, const std::filesystem::path& source);

struct BuildSettings {
  std::filesystem::path store;      // where compiled programs are kept (created when missing)
  SandboxPool* sandbox = nullptr;   // where the compiler runs; nullptr: as the user
  double compile_cpu_seconds = 60;  // a compile that takes longer is a compile error
  std::uint64_t compile_memory_bytes = std::uint64_t{2} << 30;
};

struct BuiltSolution {
  std::string language;
  std::string key;  // the store entry's name, 32 hex digits; empty: the compiler is missing
  std::filesystem::path entry;  // the store entry (settings.store / key); empty when not stored
  // The shell command that runs it (paths quoted; every path it needs named in it, so a sandbox
  // shows them). Empty when the compile failed.
  std::string command;
  // The compiler's first lines (at most 10 lines, 2000 characters) when it failed, or why it could
  // not run (compiler not installed: "javac: not found"); nullopt when it compiled.
  std::optional<std::string> compile_error;
  // false: taken from the store (a compile error too: one the compiler reported is stored, so a
  // broken source is not compiled again; limits, a missing compiler and the like are not).
  bool compiled_now = false;  // also false when there was nothing to compile
  double compile_seconds = 0;
};

// Compiles `source` (a file or a directory of one language's files) unless the store has it.
// Thread-safe: a check builds its solutions several at once. Throws std::runtime_error when the
// store cannot be written or `source` has no language.
BuiltSolution build_solution(const std::filesystem::path& source, const LanguageTable& languages,
                             const BuildSettings& settings);

// The wall seconds this process has spent in build_solution so far, calls that overlap counted
// once: what a command's summary line shows as its compiling (a store hit costs its look-up).
double compiling_seconds();

}  // namespace gamebatch::io
