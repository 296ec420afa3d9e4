// `gamebatch strength [-p GAME] PACKAGE`: which wrong solutions the package's tests let through,
// the tests that catch them, and the few tests that are enough (the engine:
// pipeline/strength/strength_job.hpp).
#include <cstdio>
#include <memory>
#include <string>

#include "pipeline/strength/strength_job.hpp"
#include "tools/support/command.hpp"
#include "tools/support/options.hpp"

namespace gamebatch::cli {
namespace {

struct StrengthArguments {
  pipeline::StrengthJobSettings settings;
  JudgeOptions judge;
};

// What `strength --help` says after the options.
constexpr const char* kStrengthHelp =
    "The candidates, each a program or an idea the tests should reject:\n"
    "  the package's submissions that must fail somewhere (wrong_answer/,\n"
    "  time_limit_exceeded/, run_time_error/, and partial ones on the groups they must\n"
    "  fail), judged as check judges them;\n"
    "  the mutants of every accepted C++ submission (one file): ROR relational operator\n"
    "  replaced, AOR arithmetic operator replaced, ASR compound assignment replaced, LCR &&\n"
    "  and || swapped, CRP constant replaced by 0, 1, -1, c + 1 or c - 1, NEG condition\n"
    "  negated, MMS std::min and std::max swapped, INC ++ or -- removed or swapped; found on\n"
    "  the source's syntax tree (libclang), all of one source compiled once as a mutant\n"
    "  schema and run in the sandbox with GAMEBATCH_MUTANT=K;\n"
    "  the game's usual wrong ideas, answered in-process (docs/games.md).\n"
    "Every candidate runs on the tests under the package's limits (the time limit as check\n"
    "chooses it; a schema's runs get its measured slowdown on top), the cheapest tests\n"
    "first, until a test kills it: its verdict is not AC (--select: until each group has a\n"
    "test that kills it; --all-runs: on every test); a program killed by time or memory on 2\n"
    "tests is run no more. A candidate no test kills is stressed within each group's limits\n"
    "(--stress-cases cases in all, shared by the groups, as `stress --package P --group G`\n"
    "draws them): a gap where a case kills it, shrunk to a smallest one; a survivor\n"
    "(perhaps equivalent) where none did, shown with its diff.\n"
    "Coverage, per group: both ends of every limit, every shape gen knows at the group's\n"
    "largest size, and the largest and smallest answers a search with the exact solver\n"
    "finds within the group's limits (--search-cases answers each way) against the tests'.\n"
    "--fill writes a test for each gap and each missed coverage point under PACKAGE/\n"
    "strength/ with a copy entry in its group of gamebatch.toml, builds the package again\n"
    "and judges the new tests (a second --fill adds nothing). --select finds the fewest\n"
    "tests that keep every kill and coverage point of every group (an exact set cover by\n"
    "GLPK within --select-seconds, else the best found and a bound); --select-out DIR\n"
    "copies the package with only those tests (and without its plan).\n"
    "Prints the strength in one line, then each gap and coverage point missed (stdout);\n"
    "--report FILE.json has every run (schema gamebatch-strength/1), --html FILE the page.\n"
    "Ctrl-C (or SIGTERM) keeps what was judged: the report and page say \"interrupted\".\n"
    "Example: gamebatch strength tests/data/packages/kattis-doublemove --fill --select\n"
    "Exit status: 0 the tests are strong (every candidate caught or a survivor, every\n"
    "coverage point reached), 1 gaps remain (after --fill: in the filled package) or a\n"
    "point is missed, 2 usage error (also: no accepted submission, no sandbox here), 130\n"
    "(143) interrupted by SIGINT (SIGTERM).";

CLI::App* add_strength_command(CLI::App& app, StrengthArguments& arguments) {
  CLI::App* strength = app.add_subcommand(
      "strength",
      "Which wrong solutions a package's tests let through, and the tests that catch them");
  strength->footer(kStrengthHelp);
  pipeline::StrengthJobSettings& settings = arguments.settings;
  add_problem_option(*strength, settings.problem, "The game (default: the plan's):", false);
  strength
      ->add_option("PACKAGE", settings.package, "The problem package (with its plan for --fill)")
      ->required()
      ->type_name("");
  strength->add_flag("--fill", settings.fill, "Write a test closing each gap into the plan");
  strength->add_flag("--select", settings.select, "Find the fewest tests that are enough");
  strength
      ->add_option("--select-out", settings.select_out,
                   "With --select: copy the package with only the selected tests to DIR (new)")
      ->type_name("DIR");
  strength->add_option("--select-seconds", settings.select_seconds, "The set cover's time budget")
      ->type_name("S")
      ->check(CLI::PositiveNumber);
  strength
      ->add_option("--stress-cases", settings.stress_cases,
                   "Cases for each candidate no test kills, shared by the groups (default 60)")
      ->type_name("N");
  strength
      ->add_option("--search-cases", settings.search_cases,
                   "Answers per group and direction of the extreme-answer search (default 300)")
      ->type_name("N");
  strength
      ->add_option("--mutants", settings.max_mutants,
                   "At most N mutants of each source, spread over it (default: all)")
      ->type_name("N");
  strength->add_option("--seed", settings.seed, "The seed of the stress and the search")
      ->type_name("S");
  strength->add_flag("--all-runs", settings.all_runs,
                     "Run every candidate on every test: the whole matrix, no bound on time kills");
  add_judge_options(*strength, arguments.judge);
  CLI::Option* cache = strength->add_option("--cache", settings.cache_file, "The answer cache file")
                           ->type_name("FILE");
  strength->add_flag("--no-cache", settings.no_cache, "No answer cache")->excludes(cache);
  strength->add_option("--report", settings.report_file, "Write every run and point to FILE.json")
      ->type_name("FILE");
  add_html_option(*strength, settings.html_file,
                  "Write a self-contained HTML page to FILE: the kill matrix by group, each\n"
                  "test's kills, the gaps with their counterexample's play, the survivors'\n"
                  "diffs, the coverage and the selection");
  add_layout_option(*strength, settings.layout);
  return strength;
}

int run_strength(const StrengthArguments& arguments) {
  pipeline::StrengthJobSettings settings = arguments.settings;
  settings.judge = arguments.judge.parsed();
  if (!settings.select_out.empty() && !settings.select) {
    std::fprintf(stderr, "gamebatch: error: --select-out needs --select\n");
    return kExitUsage;
  }
  pipeline::StrengthJob strength(std::move(settings));
  if (const pipeline::Outcome prepared = strength.prepare(); prepared != pipeline::Outcome::done)
    return exit_status(prepared);
  const pipeline::Outcome outcome = strength.run();
  std::fputs((strength.summary()).c_str(), stdout);
  std::fflush(stdout);
  return exit_status(pipeline::graver(outcome, strength.write_outputs()));
}

}  // namespace

std::unique_ptr<Command> make_strength_command() {
  return std::make_unique<CommandOf<StrengthArguments, add_strength_command, run_strength>>();
}

}  // namespace gamebatch::cli
