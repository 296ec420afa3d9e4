// `gamebatch check -p GAME --solution S PATH...`: other solutions run on every input and judged
// (the engine: pipeline/check_job.hpp).
#include <cstdio>
#include <memory>
#include <string>

#include "pipeline/judge/check_job.hpp"
#include "tools/support/command.hpp"
#include "tools/support/options.hpp"

namespace gamebatch::cli {
namespace {

// The check's settings as the options set them; the judge's marks which options were given.
struct CheckArguments {
  pipeline::CheckJobSettings settings;
  JudgeOptions judge;
};

// What `check --help` says after the options.
constexpr const char* kCheckHelp =
    "Each --solution is a source file (.cpp .cc .cxx .c++ .c .py .java), a directory of one\n"
    "language's sources, or a shell command (run by /bin/sh -c). A source is compiled once\n"
    "as a judge compiles it (g++ -std=gnu++20 -O2, gcc -std=gnu17 -O2, python3, javac)\n"
    "and kept beside the answer cache by the hash of its sources and its compiler, so a\n"
    "second check compiles nothing; a compile error is the verdict CE. Each runs with an\n"
    "input file on stdin, once per input, in the sandbox (--no-sandbox: in its own\n"
    "process group only). Its stdout is compared with the exact answers (from the answer\n"
    "cache, or solved) token by token, case by case. Verdicts: AC, WA (the first wrong\n"
    "case, expected and got), TLE, MLE (the peak passed --memory-limit, however the run\n"
    "ended), RE (a signal or a non-zero exit status). A run is stopped at 1.5 times the time\n"
    "limit, or by the wall clock at three times it plus a second; a TLE of a run made while\n"
    "others ran (but one the wall clock stopped before half its limit of CPU time) counts\n"
    "only once a run alone confirms it, and that run's verdict stands.\n"
    "Early decisions (Kattis' on_reject: break): once a solution fails a test of a min or\n"
    "pass-fail group, its runs on the group's later tests are skipped (a run is skipped\n"
    "when every group holding its file is decided; a package without groups is one\n"
    "pass-fail group); --all-runs runs everything. Per group: the first failure's verdict\n"
    "and the group's points (min, pass-fail: all or nothing; sum: by the share of AC).\n"
    "A problem package as the one PATH (Kattis: problem.yaml or data/sample, data/secret;\n"
    "Polygon: problem.xml or tests/NN; CMS: task.yaml or input/inputN.txt) gives the\n"
    "inputs and, without --solution, the solutions: Kattis' submissions/accepted (AC on\n"
    "every file), wrong_answer (WA somewhere, nothing worse), time_limit_exceeded (TLE\n"
    "somewhere, else AC or WA), run_time_error (RE somewhere), and the rules of\n"
    "submissions.yaml (permitted, required verdicts and score, per group). The time limit is\n"
    "--time-limit, else the package's own, else the accepted submissions' slowest run\n"
    "times 5 (problem.yaml limits: time_multiplier), rounded up to whole seconds.\n"
    "Prints a table on stdout, one row per solution: what it must get, whether it did, the\n"
    "count of each verdict and its slowest file, then the first failed runs of each\n"
    "solution. --report FILE.json lists every run (schema gamebatch-check/1).\n"
    "Examples: gamebatch check -p willow --solution good.cpp --solution 'python3 slow.py'\n"
    "           --time-limit 2 --memory-limit 256 sets/willow\n"
    "          gamebatch check -p willow problems/willow   (a Kattis package)\n"
    "Ctrl-C (or SIGTERM) ends the runs in progress and judges no more; the table and report\n"
    "give the verdicts so far (report: \"interrupted\", \"runs_not_judged\").\n"
    "Exit status: 0 every solution gets what it must (a --solution: AC on every input),\n"
    "1 otherwise (or an input rejected), 2 usage error (also: no sandbox on this machine,\n"
    "see --sandbox-info), 130 (143) interrupted by SIGINT (SIGTERM).";

CLI::App* add_check_command(CLI::App& app, CheckArguments& arguments) {
  CLI::App* check =
      app.add_subcommand("check", "Run other solutions on every input and judge their answers");
  check->footer(kCheckHelp);
  add_problem_option(*check, arguments.settings.problem, "The game:");
  check
      ->add_option("--solution,-s", arguments.settings.solutions,
                   "A solution: a source file, a directory of sources, or a shell command; give\n"
                   "it once per solution (required unless PATH is a problem package)")
      ->type_name("SOURCE|CMD")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  add_judge_options(*check, arguments.judge);
  CLI::Option* cache_option = check
                                  ->add_option("--cache", arguments.settings.cache_file,
                                               "The answer cache file, as solve's")
                                  ->type_name("FILE");
  check
      ->add_flag("--no-cache", arguments.settings.no_cache, "Solve every expected answer; no cache")
      ->excludes(cache_option);
  check
      ->add_option("--report", arguments.settings.report_file,
                   "Write every run's verdict to FILE.json")
      ->type_name("FILE");
  add_html_option(*check, arguments.settings.html_file,
                  "Write a self-contained HTML page to FILE: the verdict matrix (files x\n"
                  "solutions, coloured by verdict, with time, peak memory and WA details),\n"
                  "each solution's times against the time limit, and up to three WA cases\n"
                  "small enough to draw, drawn with their optimal play");
  check->add_flag("--all-runs", arguments.settings.all_runs,
                  "Run every solution on every input: no early decision after a failure");
  add_layout_option(*check, arguments.settings.layout);
  add_paths_option(*check, arguments.settings.paths);
  return check;
}

int run_check(const CheckArguments& arguments) {
  pipeline::CheckJobSettings settings = arguments.settings;
  settings.judge = arguments.judge.parsed();
  pipeline::CheckJob check(std::move(settings));
  if (const pipeline::Outcome prepared = check.prepare(); prepared != pipeline::Outcome::done)
    return exit_status(prepared);
  check.run();
  std::fputs(check.verdict_table().c_str(), stdout);
  std::fflush(stdout);
  const pipeline::Outcome outcome = check.write_outputs();
  std::fprintf(stderr, "%s\n", check.summary_line().c_str());
  return exit_status(outcome);
}

}  // namespace

std::unique_ptr<Command> make_check_command() {
  return std::make_unique<CommandOf<CheckArguments, add_check_command, run_check>>();
}

}  // namespace gamebatch::cli
