// `gamebatch solve -p GAME PATH...`: solves input files and writes their answer files (the engine:
// pipeline/solve/solve_jobs.hpp).
#include <memory>

#include "pipeline/solve/solve_jobs.hpp"
#include "tools/support/command.hpp"
#include "tools/support/options.hpp"
#include "tools/support/solve_lines.hpp"

namespace gamebatch::cli {

namespace {

class SolveCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* solve = app.add_subcommand("solve", "Solve input files and write their answer files");
    solve->footer(
        "For X.in the answers go to X.ans (other names get .ans appended), beside the input or\n"
        "under --out DIR at the input's path relative to its PATH argument; a problem package's\n"
        "answers are named as its layout names them (see --layout). An answer file holds\n"
        "the official output of all the file's cases in order; it is written whole (temporary\n"
        "file, then rename) or, for a rejected input, not at all (a stale one is removed).\n"
        "Each rejected input is reported on stderr as FILE:LINE: what was expected there.\n"
        "Answers are cached by content (game, solver version, the case in canonical form), so a\n"
        "rerun solves only new or changed cases. The cache is an SQLite file, looked up case by\n"
        "case; new answers are committed every --checkpoint seconds and at the end, and runs\n"
        "sharing a cache each see what the others committed. Cases cheaper to solve than to\n"
        "look up (--cache-min-solve-us) skip it.\n"
        "On a terminal a progress line shows files and cases done, speed, cache hits, errors and\n"
        "the time left. The run ends with one line:\n"
        "  files: F cases: C solved: S cached: H rejected: R time: T s\n"
        "Ctrl-C (or SIGTERM) stops the run cleanly within a second: files whose cases were all\n"
        "answered are written, the others are left unfinished, every answer solved is committed\n"
        "to the cache, and the summary ends in '(interrupted)'; a second Ctrl-C quits at once.\n"
        "Exit status: 0 all inputs solved, 1 some input rejected (the others were still solved),\n"
        "2 usage error, 130 (143) interrupted by SIGINT (SIGTERM).");
    add_problem_option(*solve, job_.problem, "The game of the inputs:");
    solve
        ->add_option("--out,-o", job_.out_dir,
                     "Write answer files under DIR instead of beside the inputs.")
        ->type_name("DIR");
    add_layout_option(*solve, job_.layout);
    add_run_settings_options(*solve, settings_);
    add_paths_option(*solve, job_.paths);
    return solve;
  }

  int run() override {
    const pipeline::Outcome outcome = pipeline::run_solve_jobs(
        {job_}, settings_, {"solve", pipeline::solve_options_json(job_, settings_)}, solve_lines);
    return exit_status(outcome);
  }

 private:
  pipeline::SolveJob job_;
  pipeline::RunSettings settings_;
};

}  // namespace

std::unique_ptr<Command> make_solve_command() {
  return std::make_unique<SolveCommand>();
}

}  // namespace gamebatch::cli
