// Compiling solutions once, keyed by content (io/run/solution_build.hpp).
//
// The store: one directory per key, made whole under a temporary name and renamed into place.
// rename(2) of a directory fails when the name is taken by a non-empty one: another process won,
// and its entry is used instead. So an entry that exists is complete.
//
//   STORE/KEY/           KEY: 32 hex digits, XXH3-128 of the key format, the language's name,
//                        compile and run commands, the compiler's identity (its resolved path and
//                        the first line of its --version), and every source's relative name and
//                        bytes
//     program            {binary} as the compile left it (mode 0755), where the compile names it
//     src/NAME...        the sources as they were keyed: what the run command's {mainfile} and
//                        {files} name
//     error              a failed compile: the compiler's first lines (and no program), the
//                        sources' directory written as {source-directory}, so that a copy of
//                        the source elsewhere is told its own path
//     info               for people: language, source, files, compiler, compile seconds
//   STORE/KEY.tmp.PID.N/ an entry being made; those of processes gone are removed by the next
//                        process that builds into the store
//
// Compile errors are stored when the compiler reported them (it ran and failed on its own), so a
// second check does not compile a broken source again. A compile ended by a limit (or near the
// memory limit, where the kernel may have killed the compiler's back end), one that could not
// find a program (sh's 127: a missing compiler or jar), and gamebatch's own failures are reported
// and not stored: the next build tries again.
//
// The compile runs as a small sh script (compile_script): the compiler's messages go to a file,
// and only when it fails are their first bytes printed, with exit status 65 (66: sh could not
// find a program), so that the user sees the compiler's first lines however much it printed
// after them. In a sandbox, {binary} and {workdir} are under the box's private /tmp, and once the
// compile is done the script becomes `cat {binary}`: the program comes back on standard output.
#include "io/run/solution_build.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <utility>

#include <toml++/toml.h>

#include "io/files/content_hash.hpp"
#include "io/files/input_set.hpp"
#include "io/run/compiled_store.hpp"
#include "io/run/limited_process.hpp"

namespace gamebatch::io {
namespace fs = std::filesystem;

namespace {

// Bump when what the key covers, or an entry's layout, changes.
constexpr std::uint64_t kKeyFormat = 1;
// The compile script's exit statuses (compile_script).
constexpr int kCompilerFailed = 65;
constexpr int kProgramNotFound = 66;
// Of the compiler's messages, printed by the script on failure; kept in the error after that.
constexpr std::size_t kMessageBytesPrinted = 16384;
constexpr std::size_t kErrorLines = 10;
constexpr std::size_t kErrorChars = 2000;
// A directory solution bigger than this is a mistake (a path to the wrong directory).
constexpr std::uintmax_t kMaxSourceBytes = std::uintmax_t{64} << 20;
// A sandboxed compile's program comes back on standard output.
constexpr std::uint64_t kMaxProgramBytes = std::uint64_t{256} << 20;
// Where a sandboxed compile works: in the box's private /tmp, under a name no user path takes.
constexpr const char* kBoxBuildDirectory = "/tmp/.gamebatch-compile";
// Stands for the sources' directory in a stored compile error.
constexpr std::string_view kSourceDirectoryMark = "{source-directory}/";
constexpr std::array<std::string_view, 5> kPlaceholders = {"files", "mainfile", "mainclass",
                                                           "binary", "workdir"};

// A syntax check that writes nothing (py_compile writes __pycache__ beside the sources, which a
// box shows read-only) and prints only the error, as a compiler does, not the checker's traceback.
constexpr const char* kPythonCheck =
    "python3 -c \"import sys, traceback\n"
    "for name in sys.argv[1:]:\n"
    "    try:\n"
    "        compile(open(name, 'rb').read(), name, 'exec')\n"
    "    except (SyntaxError, ValueError) as error:\n"
    "        sys.stderr.write(''.join(traceback.format_exception_only(type(error), error)))\n"
    "        sys.exit(1)\" {files}";

// A single-quoted shell word.
std::string shell_quoted(std::string_view text) {
  std::string word = "'";
  for (const char c : text) {
    if (c == '\'')
      word += "'\\''";
    else
      word += c;
  }
  return word + "'";
}

// The name of each {placeholder} in `command` (not ${variable}), with where it starts.
std::vector<std::pair<std::size_t, std::string>> placeholders_in(std::string_view command) {
  std::vector<std::pair<std::size_t, std::string>> found;
  for (std::size_t at = command.find('{'); at != std::string_view::npos;
       at = command.find('{', at + 1)) {
    if (at > 0 && command[at - 1] == '$')
      continue;
    std::size_t end = at + 1;
    while (end < command.size() &&
           (std::islower(static_cast<unsigned char>(command[end])) != 0 || command[end] == '_'))
      ++end;
    if (end > at + 1 && end < command.size() && command[end] == '}')
      found.emplace_back(at, std::string(command.substr(at + 1, end - at - 1)));
  }
  return found;
}

bool uses_placeholder(std::string_view command, std::string_view name) {
  const auto found = placeholders_in(command);
  return std::any_of(found.begin(), found.end(),
                     [&](const auto& one) { return one.second == name; });
}

std::string expand(std::string_view command, const std::map<std::string, std::string>& values) {
  std::string result;
  std::size_t copied = 0;
  for (const auto& [at, name] : placeholders_in(command)) {
    const auto value = values.find(name);
    if (value == values.end())
      continue;
    result.append(command.substr(copied, at - copied)).append(value->second);
    copied = at + name.size() + 2;
  }
  result.append(command.substr(copied));
  return result;
}

// The program a command starts: its first word, quotes removed; empty when it cannot be told
// without running the shell (a variable, a placeholder, an assignment).
std::string first_program(std::string_view command) {
  const std::size_t start = command.find_first_not_of(" \t\n");
  if (start == std::string_view::npos)
    return {};
  std::string word;
  for (std::size_t at = start; at < command.size(); ++at) {
    const char c = command[at];
    if (c == '\'' || c == '"') {
      const std::size_t end = command.find(c, at + 1);
      if (end == std::string_view::npos)
        return {};
      word.append(command.substr(at + 1, end - at - 1));
      at = end;
    } else if (std::string_view(" \t\n;&|()<>").find(c) != std::string_view::npos) {
      break;
    } else {
      word += c;
    }
  }
  if (word.find_first_of("$`{=\\") != std::string::npos)
    return {};
  return word;
}

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// At most kErrorLines lines and kErrorChars characters of `text`, without the last newline.
std::string first_lines(std::string_view text) {
  std::size_t end = 0;
  for (std::size_t line = 0; line < kErrorLines && end < text.size(); ++line) {
    const std::size_t newline = text.find('\n', end);
    end = newline == std::string_view::npos ? text.size() : newline + 1;
  }
  std::string kept(text.substr(0, std::min(end, kErrorChars)));
  while (!kept.empty() && (kept.back() == '\n' || kept.back() == '\r'))
    kept.pop_back();
  return kept;
}

bool claims(const Language& language, std::string_view file_name) {
  return std::any_of(language.extensions.begin(), language.extensions.end(),
                     [&](const std::string& extension) {
                       return file_name.size() > extension.size() && file_name.ends_with(extension);
                     });
}

std::string lowercase(std::string text) {
  for (char& c : text)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// ---- The compiler's identity -------------------------------------------------------------------

struct CompilerIdentity {
  bool found = true;
  std::string text;  // the resolved path and the first line of --version; empty: unknown
};

// Where `program` is (as the compile will find it: in the box when sandboxed) and what its
// --version says first.
CompilerIdentity find_compiler(const std::string& program, SandboxPool* sandbox) {
  if (program.empty())
    return {};
  const std::string script =
      "p=$(command -v " + shell_quoted(program) +
      ") || exit 127\n"
      "case $p in\n"
      "  /*) readlink -f \"$p\"; \"$p\" --version </dev/null 2>&1 | head -n 1 ;;\n"
      "  *) printf '%s\\n' \"$p\" ;;\n"  // a shell builtin
      "esac";
  ProcessLimits limits;
  limits.cpu_seconds = 10;
  limits.wall_seconds = 20;
  limits.output_bytes = 1 << 16;
  const ProcessResult result = run_limited(script, StdinText{}, limits, sandbox);
  if (result.end == ProcessEnd::exited && result.exit_status == 127)
    return {false, {}};
  if (result.end != ProcessEnd::exited)
    return {};  // unknown: the key still holds the commands
  return {true, result.output};
}

// Computed once per program (and per sandboxed or not) in a process: a build then costs hashing.
CompilerIdentity compiler_identity(const std::string& program, SandboxPool* sandbox) {
  struct Slot {
    std::once_flag once;
    CompilerIdentity identity;
  };
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Slot>> slots;
  Slot* slot;
  {
    std::lock_guard lock(mutex);
    std::unique_ptr<Slot>& held = slots[(sandbox != nullptr ? "box " : "") + program];
    if (held == nullptr)
      held = std::make_unique<Slot>();
    slot = held.get();
  }
  // An exception (no box could be made) leaves the slot to be filled by the next call.
  std::call_once(slot->once, [&] { slot->identity = find_compiler(program, sandbox); });
  return slot->identity;
}

// ---- Sources -----------------------------------------------------------------------------------

struct SourceFile {
  std::string name;  // relative to the solution's directory (its file name for a single file)
  std::string bytes;
};

struct Solution {
  fs::path root;  // absolute: the file, or the directory
  bool is_directory = false;
  std::vector<SourceFile> files;            // every file keyed and copied, by name
  std::vector<std::string> language_files;  // {files}: the language's, directly in the root
  std::string main_file;                    // {mainfile}; empty when it cannot be told
};

Solution read_solution(const fs::path& root, const Language& language) {
  Solution solution;
  solution.root = root;
  solution.is_directory = fs::is_directory(root);
  auto read = [&](const fs::path& path, std::string name) {
    try {
      solution.files.push_back({std::move(name), read_file(path)});
    } catch (const std::system_error& error) {
      throw std::runtime_error(path.string() + ": " + error.what());
    }
  };
  if (!solution.is_directory) {
    read(root, root.filename().string());
    solution.language_files.push_back(root.filename().string());
    solution.main_file = root.filename().string();
    return solution;
  }
  // Every file below it (headers, a Python package), hidden ones left out (an editor's, git's).
  std::uintmax_t total = 0;
  std::error_code error;
  for (auto at = fs::recursive_directory_iterator(root, error);
       !error && at != fs::recursive_directory_iterator(); at.increment(error)) {
    const std::string name = at->path().filename().string();
    if (name.starts_with(".")) {
      if (at->is_directory())
        at.disable_recursion_pending();
      continue;
    }
    if (!at->is_regular_file())
      continue;
    total += at->file_size();
    if (total > kMaxSourceBytes)
      throw std::runtime_error(root.string() + ": more than 64 MiB of files: not a solution");
    read(at->path(), at->path().lexically_relative(root).generic_string());
  }
  if (error)
    throw std::runtime_error(root.string() + ": cannot read the directory: " + error.message());
  std::sort(solution.files.begin(), solution.files.end(),
            [](const SourceFile& a, const SourceFile& b) { return a.name < b.name; });
  for (const SourceFile& file : solution.files) {
    if (file.name.find('/') == std::string::npos && claims(language, file.name))
      solution.language_files.push_back(file.name);
  }
  // main.* (Main.java too), else the file named like the directory, else the only one.
  const std::string directory_name = root.filename().string();
  for (const auto& wanted : {std::string("main"), directory_name}) {
    for (const std::string& name : solution.language_files) {
      const std::string stem = fs::path(name).stem().string();
      if (solution.main_file.empty() && (lowercase(stem) == wanted || stem == wanted))
        solution.main_file = name;
    }
  }
  if (solution.main_file.empty() && solution.language_files.size() == 1)
    solution.main_file = solution.language_files.front();
  return solution;
}

Hash128 solution_key(const Language& language, const CompilerIdentity& identity,
                     const Solution& solution) {
  std::string manifest;  // each file's own hash: the key then hashes a list of fixed length
  for (const SourceFile& file : solution.files) {
    const Hash128 hash =
        content_hash128({file.name.size(), file.bytes.size()}, {file.name, file.bytes});
    for (const std::uint64_t half : {hash.high, hash.low})
      manifest.append(reinterpret_cast<const char*>(&half), sizeof half);
  }
  return content_hash128({kKeyFormat, language.name.size(), language.compile.size(),
                          language.run.size(), identity.text.size(), manifest.size()},
                         {language.name, language.compile, language.run, identity.text, manifest});
}

// Where the sources are: the directory, or the single file's.
fs::path source_directory(const Solution& solution) {
  return solution.is_directory ? solution.root : solution.root.parent_path();
}

// The values of the placeholders for files under `directory` (the sources, or their copies).
std::map<std::string, std::string> placeholder_values(const Solution& solution,
                                                      const fs::path& directory) {
  std::map<std::string, std::string> values;
  std::string files;
  for (const std::string& name : solution.language_files) {
    if (!files.empty())
      files += ' ';
    files += shell_quoted((directory / name).string());
  }
  values["files"] = files;
  if (!solution.main_file.empty()) {
    values["mainfile"] = shell_quoted((directory / solution.main_file).string());
    values["mainclass"] = fs::path(solution.main_file).stem().string();
  }
  return values;
}

// ---- The store ---------------------------------------------------------------------------------

void write_whole_file(const fs::path& path, std::string_view content, fs::perms mode) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out)
    throw std::runtime_error("cannot write " + path.string());
  fs::permissions(path, mode);
}

// One thread at a time makes a given entry in this process: a second thread building the same
// source waits and then takes the entry from the store.
std::shared_ptr<std::mutex> entry_lock(const fs::path& entry) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<std::mutex>> locks;
  std::lock_guard lock(mutex);
  std::erase_if(locks, [](const auto& slot) { return slot.second.expired(); });
  std::weak_ptr<std::mutex>& slot = locks[entry.string()];
  std::shared_ptr<std::mutex> held = slot.lock();
  if (held == nullptr) {
    held = std::make_shared<std::mutex>();
    slot = held;
  }
  return held;
}

// Removes the half-made entries (KEY.tmp.PID.N) of processes that no longer run, once per store
// in a process.
void remove_abandoned_entries(const fs::path& store) {
  static std::mutex mutex;
  static std::set<std::string> swept;
  {
    std::lock_guard lock(mutex);
    if (!swept.insert(store.string()).second)
      return;
  }
  std::error_code error;
  try {
    for (const fs::directory_entry& entry : fs::directory_iterator(store, error)) {
      const std::string name = entry.path().filename().string();
      const std::size_t at = name.find(".tmp.");
      if (at == std::string::npos)
        continue;
      const long pid = std::strtol(name.c_str() + at + 5, nullptr, 10);
      if (pid > 0 && pid != ::getpid() && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
        fs::remove_all(entry.path(), error);
    }
  } catch (const fs::filesystem_error&) {
    // A tidying pass: what it could not remove, a later process will.
  }
}

std::string run_command(const Language& language, const Solution& solution, const fs::path& entry) {
  std::map<std::string, std::string> values = placeholder_values(solution, entry / "src");
  values["binary"] = shell_quoted((entry / "program").string());
  std::string command = expand(language.run, values);
  // A box shows only what the command names: name the sources' directory, so that what the main
  // file imports beside it is there too.
  if (solution.is_directory &&
      (uses_placeholder(language.run, "mainfile") || uses_placeholder(language.run, "files")))
    command = ": " + shell_quoted((entry / "src").string()) + "; " +
              (is_simple_command(command) ? "exec " : "") + command;
  return command;
}

// The entry's solution, or nullopt when there is none (one without its program is removed).
std::optional<BuiltSolution> load_entry(const Language& language, const Solution& solution,
                                        const fs::path& entry, BuiltSolution built) {
  std::error_code error;
  if (!fs::is_directory(entry, error))
    return std::nullopt;
  built.entry = entry;
  if (fs::exists(entry / "error", error)) {
    try {
      built.compile_error = replace_all(read_file(entry / "error"), kSourceDirectoryMark,
                                        source_directory(solution).string() + "/");
    } catch (const std::system_error& failure) {
      throw std::runtime_error((entry / "error").string() + ": " + failure.what());
    }
    return built;
  }
  if (uses_placeholder(language.compile, "binary") && !fs::exists(entry / "program", error)) {
    fs::remove_all(entry, error);  // damaged by hand: made again
    return std::nullopt;
  }
  built.command = run_command(language, solution, entry);
  return built;
}

// ---- Compiling ---------------------------------------------------------------------------------

struct CompileOutcome {
  std::optional<std::string> error;
  bool store_error = false;  // the compiler's own verdict on the source
  double seconds = 0;
};

// The sh script around the language's compile command (see the top of the file).
std::string compile_script(const std::string& compile, const Solution& solution,
                           const fs::path& build, bool program_on_stdout) {
  const std::string messages = shell_quoted((build / "messages").string());
  std::string script;
  if (solution.is_directory)
    script += ": " + shell_quoted(solution.root.string()) + "\n";  // a box shows its headers too
  script += "mkdir -p " + shell_quoted((build / "work").string()) + " || exit 1\n";
  script += "( " + compile + "\n) >" + messages + " 2>&1 </dev/null || {\n";
  script += "  status=$?\n  head -c " + std::to_string(kMessageBytesPrinted) + " " + messages +
            "\n  echo \"exit status $status\" >&2\n";
  script += "  [ $status -ne 127 ] || exit " + std::to_string(kProgramNotFound) + "\n";
  script += "  exit " + std::to_string(kCompilerFailed) + "\n}\n";
  if (program_on_stdout)
    script += "exec cat " + shell_quoted((build / "program").string()) + "\n";
  return script;
}

CompileOutcome compile(const Language& language, const Solution& solution,
                       const fs::path& temporary, const BuildSettings& settings) {
  const bool sandboxed = settings.sandbox != nullptr;
  const bool makes_program = uses_placeholder(language.compile, "binary");
  const fs::path build = sandboxed ? fs::path(kBoxBuildDirectory) : temporary;
  std::map<std::string, std::string> values =
      placeholder_values(solution, source_directory(solution));
  values["binary"] = shell_quoted((build / "program").string());
  values["workdir"] = shell_quoted((build / "work").string());
  const std::string script =
      compile_script(expand(language.compile, values), solution, build, sandboxed && makes_program);

  ProcessLimits limits;
  limits.cpu_seconds = settings.compile_cpu_seconds;
  limits.wall_seconds = 3 * settings.compile_cpu_seconds + 5;
  limits.memory_bytes = settings.compile_memory_bytes;
  limits.output_bytes = sandboxed && makes_program ? kMaxProgramBytes : std::uint64_t{1} << 20;
  const ProcessResult result = run_limited(script, StdinText{}, limits, settings.sandbox);

  CompileOutcome outcome;
  outcome.seconds = result.wall_seconds;
  std::error_code ignored;
  if (!sandboxed) {
    fs::remove_all(temporary / "work", ignored);
    fs::remove(temporary / "messages", ignored);
  }
  const std::string how = "the compile of " + solution.root.string() + " (" + language.name + ")";
  if (result.end != ProcessEnd::exited) {
    outcome.error = how + " was stopped: " + describe(result);
    return outcome;
  }
  if (result.exit_status == kCompilerFailed || result.exit_status == kProgramNotFound) {
    outcome.error = first_lines(result.output);
    if (outcome.error->empty())
      outcome.error = how + " failed (" + first_lines(result.stderr_tail) + ") and printed nothing";
    // Near the memory limit the kernel may have killed the compiler's back end, which the
    // driver then reports as an error of its own: not the source's fault.
    const bool near_memory_limit =
        limits.memory_bytes != 0 && result.peak_bytes >= limits.memory_bytes / 10 * 9;
    if (near_memory_limit)
      *outcome.error += "\n(near the compile memory limit of " +
                        std::to_string(limits.memory_bytes >> 20) + " MiB)";
    outcome.store_error = result.exit_status == kCompilerFailed && !near_memory_limit;
    return outcome;
  }
  if (result.exit_status != 0) {
    outcome.error = how + " could not run: " + describe(result) +
                    (result.stderr_tail.empty() ? "" : ": " + first_lines(result.stderr_tail));
    return outcome;
  }
  if (sandboxed && makes_program)
    write_whole_file(temporary / "program", result.output, fs::perms(0755));
  if (makes_program && !fs::is_regular_file(temporary / "program", ignored))
    outcome.error = how + " left no {binary}: its compile command must write the program there";
  return outcome;
}

std::string info_text(const Language& language, const Solution& solution,
                      const CompilerIdentity& identity, double compile_seconds) {
  std::ostringstream text;
  text << "language " << language.name << "\nsource " << solution.root.string() << "\nfiles";
  for (const SourceFile& file : solution.files)
    text << ' ' << file.name;
  std::string compiler = identity.text;
  std::replace(compiler.begin(), compiler.end(), '\n', ' ');
  text << "\ncompiler " << compiler << "\ncompile_seconds " << compile_seconds << '\n';
  return text.str();
}

BuiltSolution compile_into_store(const Language& language, const Solution& solution,
                                 const CompilerIdentity& identity, const fs::path& entry,
                                 const BuildSettings& settings, BuiltSolution built) {
  static std::atomic<unsigned> made{0};
  const fs::path temporary =
      entry.parent_path() / (entry.filename().string() + ".tmp." + std::to_string(::getpid()) +
                             "." + std::to_string(made++));
  std::error_code ignored;
  CompileOutcome outcome;
  try {
    fs::create_directories(temporary / "src");
    for (const SourceFile& file : solution.files)
      write_whole_file(temporary / "src" / file.name, file.bytes, fs::perms(0644));
    if (!language.compile.empty()) {
      outcome = compile(language, solution, temporary, settings);
      built.compiled_now = true;
      built.compile_seconds = outcome.seconds;
    }
    if (outcome.error && !outcome.store_error) {
      fs::remove_all(temporary, ignored);
      built.compile_error = outcome.error;
      return built;
    }
    if (outcome.error)
      write_whole_file(temporary / "error",
                       replace_all(*outcome.error, source_directory(solution).string() + "/",
                                   kSourceDirectoryMark),
                       fs::perms(0644));
    write_whole_file(temporary / "info", info_text(language, solution, identity, outcome.seconds),
                     fs::perms(0644));
  } catch (const fs::filesystem_error& error) {
    fs::remove_all(temporary, ignored);
    throw std::runtime_error("cannot write the solution store: " + std::string(error.what()));
  } catch (...) {
    fs::remove_all(temporary, ignored);
    throw;
  }
  std::error_code error;
  fs::rename(temporary, entry, error);
  if (error) {
    fs::remove_all(temporary, ignored);
    // Another process made the same entry meanwhile: theirs is as good.
    if (error == std::errc::directory_not_empty || error == std::errc::file_exists) {
      if (std::optional<BuiltSolution> theirs = load_entry(language, solution, entry, built))
        return *theirs;
    }
    throw std::runtime_error("cannot write the solution store: " + entry.string() + ": " +
                             error.message());
  }
  if (std::optional<BuiltSolution> stored = load_entry(language, solution, entry, built))
    return *stored;
  throw std::runtime_error("the solution store lost " + entry.string() + " as it was written");
}

// ---- Languages' configuration ------------------------------------------------------------------

[[noreturn]] void config_error(const std::string& source, const toml::source_region& where,
                               const std::string& what) {
  std::string message = source;
  if (where.begin.line > 0)
    message += ":" + std::to_string(where.begin.line);
  throw std::runtime_error(message + ": " + what);
}

std::string describe(const toml::node& node) {
  if (const auto* text = node.as_string())
    return "\"" + text->get() + "\"";
  if (node.is_table())
    return "a table";
  if (node.is_array())
    return "an array";
  std::ostringstream text;
  if (const auto* integer = node.as_integer())
    text << integer->get();
  else if (const auto* flag = node.as_boolean())
    text << (flag->get() ? "true" : "false");
  else if (const auto* number = node.as_floating_point())
    text << number->get();
  else
    text << "a date or time";
  return text.str();
}

std::string command_of(const toml::node& node, const std::string& key, bool is_compile,
                       const std::string& source) {
  const auto* text = node.as_string();
  if (text == nullptr || (!is_compile && text->get().empty()))
    config_error(source, node.source(),
                 "'" + key + "' must be " +
                     (is_compile ? "a command (\"\": nothing to compile)" : "a command") +
                     ", found " + describe(node));
  for (const auto& [at, name] : placeholders_in(text->get())) {
    const bool known =
        std::find(kPlaceholders.begin(), kPlaceholders.end(), name) != kPlaceholders.end();
    if (!known || (!is_compile && name == "workdir"))
      config_error(source, node.source(),
                   "unknown placeholder {" + name + "} in '" + key +
                       "' (known: {files} "
                       "{mainfile} {mainclass} {binary}" +
                       (is_compile ? " {workdir}" : "") + ")");
  }
  return text->get();
}

std::vector<std::string> extensions_of(const toml::node& node, const std::string& key,
                                       const std::string& source) {
  const auto* array = node.as_array();
  const std::string wanted = "'" + key + "' must be a list of file extensions such as [\".cpp\"]";
  if (array == nullptr || array->empty())
    config_error(source, node.source(), wanted + ", found " + describe(node));
  std::vector<std::string> extensions;
  for (const toml::node& element : *array) {
    const auto* text = element.as_string();
    if (text == nullptr || text->get().size() < 2 || text->get().front() != '.' ||
        text->get().find('/') != std::string::npos)
      config_error(source, element.source(),
                   wanted + " (each with its dot), found " + describe(element));
    extensions.push_back(text->get());
  }
  return extensions;
}

}  // namespace

LanguageTable default_languages() {
  return {
      {"cpp",
       {".cpp", ".cc", ".cxx", ".c++"},
       "g++ -std=gnu++20 -O2 -pipe -o {binary} {files}",
       "{binary}"},
      {"c", {".c"}, "gcc -std=gnu17 -O2 -pipe -o {binary} {files} -lm", "{binary}"},
      {"python3", {".py"}, kPythonCheck, "python3 {mainfile}"},
      // The classes go to a scratch directory and into one jar, the one file a store entry keeps.
      // The run's flags are a judge's: deep recursion needs the stack, and the serial collector
      // keeps the JVM's threads (and a box's count of them) few.
      {"java",
       {".java"},
       "javac -encoding UTF-8 -d {workdir} {files} && jar --create --file {binary} -C {workdir} .",
       "java -Dfile.encoding=UTF-8 -XX:+UseSerialGC -Xss64m -cp {binary} {mainclass}"},
  };
}

void apply_languages_config(LanguageTable& table, const toml::table& languages,
                            const std::string& source) {
  LanguageTable result = table;  // applied whole or not at all
  for (auto&& [name_key, node] : languages) {
    const std::string name(name_key.str());
    const std::string prefix = "languages." + name;
    const toml::table* settings = node.as_table();
    if (settings == nullptr)
      config_error(source, node.source(),
                   "'" + prefix + "' must be a table of compile, run and extensions, found " +
                       describe(node));
    auto known = std::find_if(result.begin(), result.end(),
                              [&](const Language& language) { return language.name == name; });
    Language language = known != result.end() ? *known : Language{name, {}, {}, {}};
    bool has_run = false;
    bool has_extensions = false;
    for (auto&& [key, value] : *settings) {
      const std::string full_key = prefix + "." + std::string(key.str());
      if (key.str() == "compile") {
        language.compile = command_of(value, full_key, true, source);
      } else if (key.str() == "run") {
        language.run = command_of(value, full_key, false, source);
        has_run = true;
      } else if (key.str() == "extensions") {
        language.extensions = extensions_of(value, full_key, source);
        has_extensions = true;
      } else {
        config_error(source, value.source(),
                     "unknown key '" + full_key + "' (known: compile, run, extensions)");
      }
    }
    if (known == result.end() && (!has_run || !has_extensions))
      config_error(source, node.source(),
                   "'" + prefix + "' is a new language: it needs 'run' and 'extensions'");
    if (has_extensions) {
      // The extensions given are this language's now, whichever claimed them before.
      for (Language& other : result) {
        if (other.name != name)
          std::erase_if(other.extensions, [&](const std::string& extension) {
            return std::find(language.extensions.begin(), language.extensions.end(), extension) !=
                   language.extensions.end();
          });
      }
    }
    if (known != result.end()) {
      *known = std::move(language);
    } else {
      result.push_back(std::move(language));
    }
  }
  table = std::move(result);
}

void load_languages_file(LanguageTable& table, const fs::path& file) {
  std::string text;
  try {
    text = read_file(file);
  } catch (const std::system_error& error) {
    throw std::runtime_error(file.string() + ": " + error.what());
  }
  toml::table root;
  try {
    root = toml::parse(text, std::string_view(file.string()));
  } catch (const toml::parse_error& error) {
    throw std::runtime_error(file.string() + ":" + std::to_string(error.source().begin.line) +
                             ": not valid TOML: " + std::string(error.description()) + " (column " +
                             std::to_string(error.source().begin.column) + ")");
  }
  const toml::node* languages = root.get("languages");
  if (languages == nullptr)
    throw std::runtime_error(file.string() + ": no [languages] table");
  if (!languages->is_table())
    config_error(file.string(), languages->source(),
                 "'languages' must be a table ([languages.NAME]), found " + describe(*languages));
  apply_languages_config(table, *languages->as_table(), file.string());
}

const Language* language_of(const LanguageTable& table, const fs::path& source) {
  std::error_code error;
  if (fs::is_directory(source, error)) {
    std::vector<std::string> names;
    for (const fs::directory_entry& entry : fs::directory_iterator(source, error)) {
      if (entry.is_regular_file(error))
        names.push_back(entry.path().filename().string());
    }
    for (const Language& language : table) {
      if (std::any_of(names.begin(), names.end(),
                      [&](const std::string& name) { return claims(language, name); }))
        return &language;
    }
    return nullptr;
  }
  if (!fs::is_regular_file(source, error))
    return nullptr;
  const std::string name = source.filename().string();
  for (const Language& language : table) {
    if (claims(language, name))
      return &language;
  }
  return nullptr;
}

namespace {

// The union of the intervals in which some build_solution call runs: a check compiles its
// solutions several at once, and their sum would be more than the time anyone waited.
class CompilingClock {
 public:
  void enter() {
    const std::lock_guard lock(mutex_);
    if (running_++ == 0)
      since_ = std::chrono::steady_clock::now();
  }
  void leave() {
    const std::lock_guard lock(mutex_);
    if (--running_ == 0)
      total_ += std::chrono::steady_clock::now() - since_;
  }
  double seconds() {
    const std::lock_guard lock(mutex_);
    auto total = total_;
    if (running_ != 0)
      total += std::chrono::steady_clock::now() - since_;
    return std::chrono::duration<double>(total).count();
  }

 private:
  std::mutex mutex_;
  int running_ = 0;
  std::chrono::steady_clock::time_point since_;
  std::chrono::steady_clock::duration total_{};
};

CompilingClock& compiling_clock() {
  static CompilingClock clock;
  return clock;
}

BuiltSolution build_solution_timed(const fs::path& source, const LanguageTable& languages,
                                   const BuildSettings& settings);

}  // namespace

double compiling_seconds() {
  return compiling_clock().seconds();
}

BuiltSolution build_solution(const fs::path& source, const LanguageTable& languages,
                             const BuildSettings& settings) {
  struct Timed {
    Timed() { compiling_clock().enter(); }
    ~Timed() { compiling_clock().leave(); }
    Timed(const Timed&) = delete;
    Timed& operator=(const Timed&) = delete;
  } timed;
  return build_solution_timed(source, languages, settings);
}

namespace {

BuiltSolution build_solution_timed(const fs::path& source, const LanguageTable& languages,
                                   const BuildSettings& settings) {
  fs::path root = fs::absolute(source).lexically_normal();
  if (!root.has_filename())  // "dir/"
    root = root.parent_path();
  const Language* language = language_of(languages, root);
  if (language == nullptr)
    throw std::runtime_error(root.string() + ": not a source of a known language");
  const Solution solution = read_solution(root, *language);
  BuiltSolution built;
  built.language = language->name;

  const std::string program =
      first_program(language->compile.empty() ? language->run : language->compile);
  const CompilerIdentity identity = compiler_identity(program, settings.sandbox);
  if (!identity.found) {
    built.compile_error = program + ": not found (needed for " + language->name + ")";
    return built;
  }
  const bool needs_main = uses_placeholder(language->compile, "mainfile") ||
                          uses_placeholder(language->compile, "mainclass") ||
                          uses_placeholder(language->run, "mainfile") ||
                          uses_placeholder(language->run, "mainclass");
  if (needs_main && solution.main_file.empty()) {
    const std::string extension = language->extensions.front();
    built.compile_error = "cannot tell which file of " + root.string() +
                          " is the main one: name it main" + extension + " or " +
                          root.filename().string() + extension;
    return built;
  }

  built.key = hex(solution_key(*language, identity, solution));
  const fs::path store = fs::absolute(settings.store).lexically_normal();
  std::error_code error;
  fs::create_directories(store, error);
  if (error)
    throw std::runtime_error("cannot make the solution store " + store.string() + ": " +
                             error.message());
  remove_abandoned_entries(store);
  const fs::path entry = store / built.key;
  const std::shared_ptr<std::mutex> lock = entry_lock(entry);
  std::lock_guard guard(*lock);
  if (std::optional<BuiltSolution> stored = load_entry(*language, solution, entry, built)) {
    stamp_compiled_program(entry);  // for `cache trim`: least recently used entries go first
    return *stored;
  }
  return compile_into_store(*language, solution, identity, entry, settings, std::move(built));
}

}  // namespace

}  // namespace gamebatch::io
