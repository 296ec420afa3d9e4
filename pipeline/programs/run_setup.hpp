// pipeline/programs/: the room of what running other people's programs needs. Its theory of
// operation.
//
// What it is for. check and stress run solutions; build runs a package's generators and
// validators. Before any of them runs, the same things are set up from the command line: the
// limits of a run, the sandbox around it, the languages sources are compiled in, and the store
// of compiled programs. The runs themselves go through io/run/ (limited_process.hpp, sandbox.hpp,
// solution_build.hpp); this room is what the engines set up around them, and what none of them
// owns alone.
//
// Its one part, run_setup.hpp (this file), public: JudgeSettings and JudgeLimits, the stop and
// process limits of a run (kStopFactor, process_limits), run_at_once (runs side by side on plain
// threads), the sandbox made and described (make_sandbox, sandbox_json, sandbox_info_text), the
// languages (load_languages), the compiled-program store (CompiledStore) and the time a command's
// summary line gives (CommandClock).
//
// What it promises. A run never outlives its limits; nothing is run outside the sandbox unless
// --no-sandbox says so; a temporary store is removed at the end.
//
// What it must never depend on: the engines' rooms, answers/ (a program's run knows nothing of the
// answers it is judged against), report/, tools/. It uses pipeline/'s top (where the compiled
// store lives: beside the answer cache), io/ and core/.
//
// What check, stress and build set up before they run other people's programs: the limits of a
// run, the sandbox around it (io/run/sandbox.hpp), the languages sources are compiled in, and the
// store of compiled programs beside the answer cache (io/run/compiled_store.hpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/run/compiled_store.hpp"
#include "io/run/limited_process.hpp"
#include "io/run/sandbox.hpp"
#include "io/run/solution_build.hpp"

namespace gamebatch::pipeline {

// A run is stopped at kStopFactor times its CPU time limit, so that one slowed by its neighbours
// can still finish (sharing caches, memory bandwidth and turbo costs runs some 5-20 %, and more
// on a loaded machine).
inline constexpr double kStopFactor = 1.5;

// The limits of one run of a program, in seconds and bytes.
struct JudgeLimits {
  double time_limit_seconds = 10;        // CPU time (user + system) of the solution's process tree
  std::uint64_t memory_limit_bytes = 0;  // peak resident memory; 0: none
  std::uint64_t output_limit_bytes = std::uint64_t{64} << 20;
  // The run is stopped at this times the time limit of CPU (1: at the limit itself, for runs
  // whose only question is whether they pass it: test strength's mutants).
  double stop_factor = kStopFactor;
};

// The limits a run is started with: kStopFactor times the time limit of CPU, the wall clock cut
// at three times the time limit plus a second, memory and output as given.
io::ProcessLimits process_limits(const JudgeLimits& limits);

// Calls run(0) .. run(count - 1), at most `jobs` (at least 1) at a time, and returns when all
// are done. After a stop request no run is started, and a run that throws StopRequested is left
// as it is: the caller tells the calls made from those never made or abandoned. Plain threads, not
// oneTBB's: runs wait on the programs they start, they do not compute, and must not hold the
// threads that solve.
void run_at_once(std::size_t count, std::size_t jobs, const std::function<void(std::size_t)>& run);

// The limits and the sandbox of the programs under test (check, stress) or run to make tests
// (build), as the command line gives them.
struct JudgeSettings {
  double time_limit = 10;           // seconds of CPU time
  bool time_limit_given = false;    // --time-limit was given (else a package's own may apply)
  std::uint64_t memory_limit = 0;   // MiB of peak resident memory; 0: none
  bool memory_limit_given = false;  // --memory-limit was given
  std::uint64_t output_limit = 64;  // MiB of standard output
  int jobs = 0;                     // runs at once; 0: one per core
  // The sandbox (io/run/sandbox.hpp).
  bool no_sandbox = false;
  std::vector<std::string> sandbox_binds;  // --sandbox-bind PATH
  std::uint64_t sandbox_disk = 64;         // MiB of scratch
  std::uint64_t max_processes = 256;       // processes and threads of one run
  // Solutions given as sources (io/run/solution_build.hpp): --languages FILE's [languages] over the
  // defaults; empty: the defaults.
  std::string languages_file;
};

// Files of scratch a run may make (the tmpfs's inodes): a bound that no solution meets and that
// keeps a run from filling the box's memory with empty files.
inline constexpr std::uint64_t kSandboxFiles = 4096;

// What `--sandbox-info` prints: what this machine allows, and why not where it does not;
// `available` tells which.
std::string sandbox_info_text(const JudgeSettings& judge, bool& available);

// The sandbox of a check, stress or build, made and tried before any run: nullptr with
// --no-sandbox. False (after one error message) when it cannot work here.
bool make_sandbox(const JudgeSettings& judge, std::unique_ptr<io::SandboxPool>& pool);

// The report's and the HTML page's "sandbox": which guards were in force.
nlohmann::json sandbox_json(const JudgeSettings& judge, const io::SandboxPool* pool);

// The judge's limits of one run, in bytes and seconds.
JudgeLimits judge_limits(const JudgeSettings& judge);

// The report's "limits", as the command line gave them.
nlohmann::json limits_json(const JudgeSettings& judge);

// The languages of the defaults, changed by --languages FILE. False (after saying why) when the
// file cannot be read.
bool load_languages(const JudgeSettings& judge, io::LanguageTable& languages);

// Where compiled programs are kept: "compiled" beside the answer cache file (`cache_file`, or the
// default when empty); a temporary directory, removed at the end, with `no_cache` or without a
// location. Throws std::system_error when the temporary directory cannot be made.
class CompiledStore {
 public:
  CompiledStore(const std::string& cache_file, bool no_cache);
  CompiledStore(const CompiledStore&) = delete;
  CompiledStore& operator=(const CompiledStore&) = delete;
  ~CompiledStore();
  const std::filesystem::path& path() const { return path_; }
  bool temporary() const { return temporary_; }

 private:
  std::filesystem::path path_;
  bool temporary_ = false;
  std::optional<io::StoreUse> in_use_;  // `cache trim` leaves the store alone meanwhile
};

// A command's time for its summary line: the whole command, and the part of it spent compiling
// programs (io::compiling_seconds: store look-ups included).
struct CommandTime {
  double seconds = 0;
  double compiling_seconds = 0;
};

// Started when made: what a command has taken since.
class CommandClock {
 public:
  CommandClock();
  CommandTime elapsed() const;

 private:
  std::chrono::steady_clock::time_point started_;
  double compiling_before_ = 0;
};

// "time: 4.113 s", or "time: 4.113 s (compiling 3.902 s)" where some compiling was done.
std::string time_text(const CommandTime& time);

}  // namespace gamebatch::pipeline
