// The command floor's support unit, part 1: what a command is to the command line (tools/cli.cpp)
// and the exit statuses every command shares. Each command is one file of tools/ (NAME_command.cpp)
// that reads its options, hands a settings struct to its engine in pipeline/, and prints what
// comes back; it includes nothing of tools/ but this support unit (tests/rooms_test.py checks).
#pragma once

#include <memory>
#include <vector>

#include <CLI/CLI.hpp>

#include "pipeline/engines.hpp"

namespace gamebatch::cli {

// Exit status: 0 all inputs solved (or the work done), 1 some input rejected (or something failed:
// an expectation unmet, a counterexample found, a file not written), 2 usage or configuration
// error. A run stopped by SIGINT or SIGTERM exits 128 + the signal instead.
inline constexpr int kExitSolved = 0;
inline constexpr int kExitRejected = 1;
inline constexpr int kExitUsage = 2;

// The exit status of an engine's outcome (the numbers are the same).
inline int exit_status(pipeline::Outcome outcome) {
  return static_cast<int>(outcome);
}

// One subcommand of gamebatch.
class Command {
 public:
  virtual ~Command() = default;
  // Adds the subcommand, its options and its help to `app`; returns it.
  virtual CLI::App* add_to(CLI::App& app) = 0;
  // Runs it once the command line is parsed; returns the exit status.
  virtual int run() = 0;
  // Whether the first SIGINT or SIGTERM asks it to stop cleanly (io/run/stop_signals.hpp); a
  // command that is safe to kill at any point (it writes nothing, or only in transactions) is
  // ended by the signal instead.
  virtual bool stops_cleanly() const { return true; }
};

// The usual command: an Arguments struct that its options fill, a function that adds the
// subcommand with those options, and one that runs it with them.
template <typename Arguments, CLI::App* (*kAdd)(CLI::App&, Arguments&),
          int (*kRun)(const Arguments&)>
class CommandOf final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override { return kAdd(app, arguments_); }
  int run() override { return kRun(arguments_); }

 private:
  Arguments arguments_;
};

// Every command, in the order of `gamebatch --help`.
std::unique_ptr<Command> make_solve_command();
std::unique_ptr<Command> make_run_command();
std::unique_ptr<Command> make_gen_command();
std::unique_ptr<Command> make_cache_command();
std::unique_ptr<Command> make_table_command();
std::unique_ptr<Command> make_validate_command();
std::unique_ptr<Command> make_validator_command();
std::unique_ptr<Command> make_check_command();
std::unique_ptr<Command> make_stress_command();
std::unique_ptr<Command> make_build_command();
std::unique_ptr<Command> make_strength_command();
std::unique_ptr<Command> make_explain_command();
std::unique_ptr<Command> make_draw_command();

}  // namespace gamebatch::cli
