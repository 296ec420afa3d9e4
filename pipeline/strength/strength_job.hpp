// pipeline/strength/: the room of test strength. Its theory of operation.
//
// What it is for. `gamebatch strength PACKAGE` answers the question a setter asks once the answers
// are right: which wrong solutions do the tests let through? It judges candidates that must be
// rejected (the package's failing submissions, the mutants of its accepted C++ submissions, the
// game's usual wrong ideas) on every test, stresses within each group's limits those no test
// rejects, measures the coverage only a game-aware tool can give, and with --fill writes the
// tests that close each gap into the package's plan, with --select finds the fewest tests that
// keep every kill and every coverage point.
//
// Its parts.
// - strength_job.hpp (this file): the engine: settings in, Outcome out. Public.
// - candidates.hpp: the candidates, the mutant schemas built and compiled. Public (its
//   benchmark times the schema's build).
// - kill_matrix.hpp: every candidate on every test. Private.
// - gaps.hpp: the stress of the candidates no test kills. Private.
// - coverage.hpp: limits' ends, shapes at the largest size, extreme answers. Private.
// - fill.hpp: the tests written into the plan. Private.
// - selection.hpp: the set cover (GLPK) of the fewest tests. Public (its tests, its benchmark).
// - strength_report.hpp: the JSON report, the terminal's lines and the HTML page. Private.
//
// How a run flows. prepare(): the check's set-up (judge/check_job.hpp: the package, its tests and
// groups, the submissions compiled, the sandbox, the limits, the cache), refusing a package
// without an accepted submission. run(): the check of the package's submissions (its verdicts,
// and the time limit check chooses), the mutant schemas (one compile per accepted C++ source,
// checked to answer as the source does on every test, their time per test taken as theirs), the
// kill matrix, the gap search, the coverage; with --fill the tests written, the package rebuilt
// (package/build_job.hpp) and the new tests judged; with --select the set cover. What reaches a
// person is written last: report/, the report and page.
//
// What it promises. The same candidates, verdicts and tests for every --jobs (but for runs near
// the time limit); a second --fill adds nothing; nothing is written outside the package but the
// report, the page and --select-out's copy; a stop (Ctrl-C) keeps what was judged.
//
// What it must never depend on: solve/, tools/. It is the one engine built on two others: it
// judges (judge/) the tests a package builds (package/), and uses answers/, programs/, report/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/files/problem_package.hpp"
#include "pipeline/engines.hpp"
#include "pipeline/programs/run_setup.hpp"

namespace gamebatch::pipeline {

struct StrengthJobSettings {
  std::string problem;  // the game's name
  std::string package;  // the package's directory
  std::optional<io::Layout> layout;
  JudgeSettings judge;
  std::string cache_file;  // empty: the default location
  bool no_cache = false;
  bool fill = false;               // --fill: close the gaps with new tests
  bool select = false;             // --select: the fewest tests that are enough
  std::string select_out;          // --select-out DIR: a copy of the package with only those tests
  double select_seconds = 10;      // the set cover's time budget
  std::size_t stress_cases = 60;   // cases for each candidate no test kills, its groups together
  std::size_t search_cases = 300;  // answers per group and direction of the extreme search
  bool all_runs = false;           // every candidate on every test, no bound on time kills
  std::size_t max_mutants = 0;  // at most this many mutants of each source, spread over it; 0: all
  std::uint64_t seed = 1;
  std::string report_file;  // empty: no JSON report
  std::string html_file;    // empty: no HTML page
};

class StrengthJob {
 public:
  explicit StrengthJob(StrengthJobSettings settings);
  ~StrengthJob();
  StrengthJob(const StrengthJob&) = delete;
  StrengthJob& operator=(const StrengthJob&) = delete;

  // The check's set-up and the package's: done when the run can start; otherwise a usage error
  // (after saying why): no package, no accepted submission, an output that cannot be written.
  Outcome prepare();
  // The whole analysis, and the fill and the selection when asked: done when the tests are strong
  // (no gap, every coverage point reached; survivors are listed but counted apart), failed when
  // gaps remain (after --fill: in the filled package) or a step failed (said).
  Outcome run();
  // What the terminal shows: the strength in one line, then each gap with its counterexample's
  // size (stdout).
  std::string summary() const;
  // Writes the --report and --html files; failed when one cannot be written.
  Outcome write_outputs();

 private:
  struct State;
  StrengthJobSettings settings_;
  std::unique_ptr<State> state_;
};

}  // namespace gamebatch::pipeline
