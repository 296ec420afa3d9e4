// `gamebatch gen GAME --count N --seed S --out DIR ...`: writes a reproducible set of random input
// files of a game (io/files/generate.hpp does the work; pipeline/package/game_options.hpp reads its
// game options).
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

#include <oneapi/tbb/global_control.h>
#include <spdlog/spdlog.h>

#include "io/files/atomic_file.hpp"
#include "io/files/generate.hpp"
#include "pipeline/machine.hpp"
#include "pipeline/package/game_options.hpp"
#include "pipeline/programs/run_setup.hpp"
#include "tools/support/command.hpp"

namespace gamebatch::cli {
namespace {

constexpr int kExitWritten = 0;
constexpr int kExitNotWritten = 1;

struct GenArguments {
  std::string game;
  std::int64_t count = 0;
  std::uint64_t seed = 0;
  std::string out_dir;
  std::int64_t cases_per_file = 1;
  int jobs = 0;  // 0: all cores
  pipeline::GameOptionArguments game_options;

  // All of the above, checked: filled in at the end of parsing (a bad option is a CLI11
  // ValidationError, so the parse fails with exit status 2).
  io::GenerateOptions options;
};

// What `gen --help` says after the options.
constexpr const char* kGenHelp =
    "Writes DIR/GAME-000001.in ... (6 digits, more when N needs them), each holding K cases in\n"
    "the game's official format. The same options give the same bytes on every machine and for\n"
    "every --jobs; file k depends only on the game options, --seed, k and K, so a larger "
    "--count\n"
    "keeps the files a smaller one wrote. Files are written whole (temporary file, then\n"
    "rename); files of the same names are replaced, nothing else in DIR is touched.\n"
    "Ranges are written A..B or A; 'mixed' draws anew for every case.\n"
    "Example: gamebatch gen boigame --count 20 --seed 7 --out sets/boi --size 50..300\n"
    "Ctrl-C (or SIGTERM) stops it cleanly: the files written are whole, no temporary is left,\n"
    "and it says how many were written; a second Ctrl-C quits at once.\n"
    "Exit status: 0 written, 1 a file could not be written, 2 usage error, 130 (143)\n"
    "interrupted by SIGINT (SIGTERM).";

CLI::App* add_gen_command(CLI::App& app, GenArguments& arguments) {
  CLI::App* gen =
      app.add_subcommand("gen", "Write a reproducible set of random input files of a game");
  gen->footer(kGenHelp);

  gen->add_option("GAME", arguments.game, "The game")
      ->required()
      ->type_name("")
      ->check(CLI::IsMember(pipeline::generated_games()));
  gen->add_option(
         "--count", arguments.count,
         "Number of files to write (at most " + std::to_string(io::kMaxGeneratedFiles) + ")")
      ->required()
      ->type_name("N");
  gen->add_option("--seed", arguments.seed, "Seed of the random draws (0 to 2^64 - 1)")
      ->required()
      ->type_name("S")
      ->check(CLI::Validator(pipeline::seed_problem, "S"));
  gen->add_option("--out,-o", arguments.out_dir, "Directory of the files (created if missing)")
      ->required()
      ->type_name("DIR");
  gen->add_option("--cases-per-file", arguments.cases_per_file,
                  "Cases in each file (at most " + std::to_string(io::kMaxCasesPerFile) + ")")
      ->type_name("K")
      ->capture_default_str();
  gen->add_option(
         "--jobs,-j", arguments.jobs,
         "Threads to use at most (0, the default: all cores). Files are the same for every\n"
         "N.")
      ->type_name("N")
      ->check(CLI::Range(0, 1 << 16));

  // Game options: taken as typed, checked against GAME once parsing is done.
  pipeline::add_game_options(*gen, arguments.game_options);

  // Runs once the whole command line is parsed, so a bad option fails the parse (exit 2).
  gen->callback([&arguments] {
    io::GenerateOptions options;
    options.seed = arguments.seed;
    options.file_count = arguments.count;
    options.cases_per_file = arguments.cases_per_file;
    options.out_dir = arguments.out_dir;
    arguments.options = pipeline::checked_generate_options(arguments.game, arguments.game_options,
                                                           std::move(options));
  });
  return gen;
}

int run_gen_command(const GenArguments& arguments) {
  tbb::global_control thread_limit(tbb::global_control::max_allowed_parallelism,
                                   pipeline::thread_count(arguments.jobs));
  const pipeline::CommandClock clock;
  const io::GenerateOptions& options = arguments.options;
  std::size_t unchanged = 0;
  try {
    // A killed gen leaves NAME.tmp.PID.N files; this one removes them, as solve does its own.
    if (const std::size_t removed = io::remove_stale_temporaries(options.out_dir); removed != 0)
      spdlog::info("removed {} temporary files left by an interrupted run", removed);
    unchanged = io::generate_input_set(options).unchanged;
  } catch (const io::GenerateInterrupted& stopped) {
    std::printf("wrote %zu of %lld files to %s (interrupted)\n", stopped.files_finished(),
                static_cast<long long>(options.file_count), options.out_dir.c_str());
    std::fflush(stdout);
    return kExitNotWritten;  // the caller reports 128 + the signal
  } catch (const std::invalid_argument& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return kExitNotWritten;
  }
  // A rerun that changes nothing says so: gen leaves a file that holds its bytes already alone.
  const auto files = static_cast<long long>(options.file_count);
  const auto cases = static_cast<long long>(options.file_count * options.cases_per_file);
  const auto kept = static_cast<long long>(unchanged);
  const std::string time = pipeline::time_text(clock.elapsed());
  if (kept == 0) {
    std::printf("wrote %lld files (%lld cases) to %s; %s\n", files, cases, options.out_dir.c_str(),
                time.c_str());
  } else if (kept == files) {
    std::printf(
        "wrote nothing: the %lld files (%lld cases) in %s hold the same bytes already; %s\n", files,
        cases, options.out_dir.c_str(), time.c_str());
  } else {
    std::printf(
        "wrote %lld of %lld files (%lld cases) to %s; %lld held the same bytes already; %s\n",
        files - kept, files, cases, options.out_dir.c_str(), kept, time.c_str());
  }
  return std::fflush(stdout) == 0 ? kExitWritten : kExitNotWritten;
}

}  // namespace

std::unique_ptr<Command> make_gen_command() {
  return std::make_unique<CommandOf<GenArguments, add_gen_command, run_gen_command>>();
}

}  // namespace gamebatch::cli
