// io/: the games' room, and the map of io/'s rooms. Its theory of operation.
//
// io/ is everything between the pure solvers (core/) and the commands (pipeline/, tools/), in seven
// rooms, one family each:
//   io/ (this folder)  reading games: this Problem interface, the registry, and one folder per game
//                      (io/GAME/: format, problem, picture, ...)
//   io/format/         what every game's format shares: the token scanner, the official limits, the
//                      strict reader and each game's strict rules (io/GAME/strict.hpp), the
//                      validator's sources, the mutants (theory: io/format/strict_format.hpp)
//   io/picture/        the SVG elements the games' pictures are drawn with (theory:
//                      io/picture/svg.hpp)
//   io/mutation/       mutants of a C++ solution, found with libclang and compiled at once as a
//                      mutant schema (theory: io/mutation/cpp_mutants.hpp)
//   io/files/          the files a run reads and writes (theory: io/files/input_set.hpp)
//   io/cache/          the answer cache (theory: io/cache/cache_store.hpp)
//   io/run/            running other people's programs (theory: io/run/limited_process.hpp)
// Arrows go one way: {format, picture, mutation} <- games <- files <- {cache, run}. The format,
// picture and mutation rooms know no game's Problem; the cache and the run room know nothing of
// each other; no room knows pipeline/ or tools/. A room's helpers that its theory calls private are
// included from inside the room only. tests/rooms_test.py checks every include against these rules.
//
// What this room is for. The pipeline knows no game by name: it asks the registry for a Problem
// by name, hands it a file's text, and gets back the file's cases or an error with its line.
// A new game is one folder here (io/GAME/: its text format with its official limits, its strict
// rules, its Problem) beside its solvers in core/GAME/, one line in registry.cpp, and its strict
// rules named in io/format/ (strict_format.cpp's table, CMakeLists.txt's validator parts).
//
// How a call flows. find_problem("willow") gives the Problem; parse(text) reads the whole file with
// the game's format (io/format/token_scanner.hpp reads numbers and tokens, counting lines; a
// rejection is an InputError naming the line and what was expected there) into Cases; each Case
// solves itself with core/, gives its canonical text (the cache's key) and its estimated cost, and
// answer_line() prints its answer. check_official_limits(text) checks the statement's limits
// (io/format/official_limits.hpp) on the same parse.
//
// What it promises. A file is parsed whole or rejected with the first place that is wrong (file
// line, what was expected, what was found); a case's canonical text determines its answer.
//
// What it must never depend on: the files, cache and run rooms of io/, pipeline/, tools/. It uses
// io/format/, io/picture/ and core/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/format/official_limits.hpp"

namespace gamebatch::io {

// One parsed case, ready to solve. solve() may run nested oneTBB parallel loops.
class Case {
 public:
  virtual ~Case() = default;
  // The answer as printed after the case's prefix (for willow: the y of "Case #x: y").
  virtual std::string solve() const = 0;
  // The case alone in the game's own text format, written the one way the game's printer writes
  // it: no case count, single spaces, '\n' line ends. Two cases with the same canonical text have
  // the same answer, wherever they stand in whichever file; the answer cache keys on it.
  virtual std::string canonical() const = 0;
  // What solving this case is expected to cost on one core, in microseconds, estimated from its
  // size alone (no solving). The answer cache skips cases below its threshold: looking them up and
  // storing them would cost more than solving them again. Games calibrate their formulas against
  // measured times (tools/bench/solve_cost_bench).
  virtual double estimated_solve_microseconds() const = 0;
};

// A large object that a solver derives once and reuses across cases (doublemove's state table of
// one n). The answer cache stores them so that a rerun does not rebuild them.
struct Artefact {
  std::string name;       // unique within its game, e.g. "states n=35"
  std::uint32_t version;  // of the encoding and the solver that made it; a mismatch discards it
  std::string bytes;      // opaque to everything but the game
};

// Where a game finds artefacts it needs but does not hold: the answer cache, read one artefact at
// a time, only when a case needs it. Thread-safe.
class ArtefactSource {
 public:
  virtual ~ArtefactSource() = default;
  // The stored artefact of this source's game called `name`, or nullopt.
  virtual std::optional<Artefact> find_artefact(std::string_view name) = 0;
  // The game could not use what find_artefact returned (damaged, or of another version): the
  // source should not offer it again, and may replace it.
  virtual void refuse_artefact(std::string_view name) = 0;
};

// A wrong idea of a game: a strategy contestants really submit, whose answer `gamebatch strength`
// computes in-process to see whether a package's tests tell it from the right one.
struct WrongIdea {
  std::string name;     // "b-near-a"
  std::string summary;  // one line: "B starts only on A's city or next to it"
  // Its answer to the case whose canonical() text is given, as Case::solve writes answers.
  std::function<std::string(std::string_view canonical)> answer;
};

class Problem {
 public:
  virtual ~Problem() = default;

  virtual std::string_view name() const = 0;
  // One line for --help listings.
  virtual std::string_view summary() const = 0;

  // Bumped whenever the solver's answers could change (a fix, a new rule reading): cached answers
  // of an older version are never reused.
  virtual std::uint32_t solver_version() const = 0;

  // Splits a whole input file into its cases. Throws InputError (line, what was expected) when the
  // file is not exactly a valid input; never returns part of a bad file.
  virtual std::vector<std::unique_ptr<Case>> parse(std::string_view text) const = 0;

  // The case whose canonical() text is `canonical`: how a case travels to another process (an MPI
  // rank) and is rebuilt there. By default the text is parsed as a file of one case, which suits
  // every format that starts with its case count. Throws InputError when it is not one valid case.
  virtual std::unique_ptr<Case> parse_canonical_case(std::string_view canonical) const {
    std::vector<std::unique_ptr<Case>> cases = parse(file_of_cases({std::string(canonical)}));
    if (cases.size() != 1)
      throw std::invalid_argument("not one case");
    return std::move(cases.front());
  }

  // A file of these cases (canonical texts) in the game's format. By default the case count on
  // its own line, then the cases, as every format that starts with its case count has it.
  virtual std::string file_of_cases(const std::vector<std::string>& canonical_cases) const {
    std::string file = std::to_string(canonical_cases.size()) + "\n";
    for (const std::string& canonical : canonical_cases)
      file += canonical;
    return file;
  }

  // The parameters the statement names, whose values a group of tests may narrow (a subtask's
  // "n <= 10"): willow T N C, doublemove T n k, wallgame T h w, boigame t n. None by default.
  virtual std::vector<std::string_view> parameters() const { return {}; }

  // The most `parameter` can be in a case whose other parameters are at most `highest` (by name),
  // where the format ties it to them (doublemove's k <= n + 1); nullopt where none bounds it. A
  // group's limit above that is an end no test of the group can reach.
  virtual std::optional<std::int64_t> tied_high(
      std::string_view /*parameter*/,
      const std::map<std::string, std::int64_t, std::less<>>& /*highest*/) const {
    return std::nullopt;
  }

  // Where `text`, a valid input for parse(), leaves the limits of the game's official statement
  // (narrower than gamebatch's: `gamebatch validate`), and the narrower limits `check` holds.
  // Throws InputError as parse() does for a file that is no valid input at all. By default a game
  // has no limits of its own beyond its format's.
  virtual void check_limits(std::string_view text, OfficialLimitCheck& /*check*/) const {
    parse(text);
  }

  // check_limits with the statement's limits alone.
  OfficialLimitReport check_official_limits(std::string_view text) const {
    OfficialLimitCheck check;
    check_limits(text, check);
    return OfficialLimitReport::of(check);
  }

  // Smaller variants of the case whose canonical() text is `canonical`, as canonical texts, the
  // largest cuts first (`gamebatch stress` keeps the first that still fails, then asks again).
  // Each is strictly smaller by the game's measure (core/GAME/shrink.hpp), so shrinking ends, and
  // stays within the official limits when the case was within them. Empty: nothing smaller (the
  // default: a game without a shrinker).
  virtual std::vector<std::string> shrink_candidates(std::string_view /*canonical*/) const {
    return {};
  }

  // The optimal play of the case whose canonical() text is `canonical`, as `gamebatch explain`
  // prints it: one line per turn, ending with "answer: " and the answer (core/GAME/play.hpp).
  // Throws std::invalid_argument when the game cannot explain this case (too large to
  // reconstruct; the message says why), InputError when it is not one valid case. By default a
  // game explains nothing.
  virtual std::string explain(std::string_view /*canonical*/) const {
    throw std::invalid_argument(std::string(name()) + " cannot explain its cases");
  }

  // The same play as an SVG picture (`gamebatch draw`; io/GAME/picture.hpp, which bounds its
  // size). Throws as explain() does.
  virtual std::string draw(std::string_view /*canonical*/) const {
    throw std::invalid_argument(std::string(name()) + " cannot draw its cases");
  }

  // explain() and draw() of one case at once (`gamebatch explain --svg`): a game that can, solves
  // the case once for both. By default the two calls.
  struct Explained {
    std::string text;
    std::string svg;
  };
  virtual Explained explain_and_draw(std::string_view canonical) const {
    return {explain(canonical), draw(canonical)};
  }

  // The output line (with its newline) for the answer of case `case_number` (1-based). By default
  // the answer alone on its line, as most formats have it.
  virtual std::string answer_line(std::size_t /*case_number*/, std::string_view answer) const {
    std::string line(answer);
    line += '\n';
    return line;
  }

  // Artefacts this process holds, built or adopted, that the cache should keep: all but those
  // for whose name `already_stored` says true (encoding a table again costs as much as storing
  // it), and none too large to be worth keeping. Thread-safe.
  virtual std::vector<Artefact> new_artefacts(
      const std::function<bool(std::string_view name)>& /*already_stored*/) const {
    return {};
  }
  // The version of the artefacts this build makes and accepts (stored ones of another version are
  // stale: never used again).
  virtual std::uint32_t artefact_version() const { return 0; }
  // From now on, asks `source` for an artefact before building it (nullptr: builds every one).
  // `source` must stay alive until it is replaced. Set it while no case is being solved.
  virtual void use_artefact_source(ArtefactSource* /*source*/) const {}

  // Test strength (`gamebatch strength`). The game's usual wrong ideas (docs/games.md draws each
  // one's smallest counterexample); none by default.
  virtual std::vector<WrongIdea> wrong_ideas() const { return {}; }
  // The shapes gen makes of this game's cases (its --shape or --pattern values), and those that
  // the case `canonical` has (a shape can be told from the case alone; several may apply).
  virtual std::vector<std::string> shapes() const { return {}; }
  virtual std::vector<std::string> shapes_of(std::string_view /*canonical*/) const { return {}; }
  // The parameters a case's size is measured by (willow N; wallgame h and w): a case of a group's
  // largest size has each of them at the group's limit.
  virtual std::vector<std::string_view> size_parameters() const { return {}; }
  // An answer (Case::solve's text) as a number, for the search of a group's extreme answers;
  // nullopt where it is none. By default the text read as a decimal number.
  virtual std::optional<double> answer_value(std::string_view answer) const;

  // Bounds the memory the game keeps between cases (doublemove's state tables) to `bytes`; 0: no
  // bound. A case that cannot be solved within it fails with a message naming the budget. Set it
  // while no case is being solved. Games that keep nothing ignore it.
  virtual void set_memory_budget(std::uint64_t /*bytes*/) const {}
};

// The Case of a game whose parsed instance is solved, printed and costed by three plain functions.
template <typename Instance>
class InstanceCase final : public Case {
 public:
  using Function = std::string (*)(const Instance&);
  using CostFunction = double (*)(const Instance&);
  InstanceCase(Instance instance, Function solver, Function printer, CostFunction cost)
      : instance_(std::move(instance)), solve_(solver), canonical_(printer), cost_(cost) {}
  std::string solve() const override { return solve_(instance_); }
  std::string canonical() const override { return canonical_(instance_); }
  double estimated_solve_microseconds() const override { return cost_(instance_); }

 private:
  Instance instance_;
  Function solve_;
  Function canonical_;
  CostFunction cost_;
};

// A parsed file's instances as cases for the pipeline.
template <typename Instance>
std::vector<std::unique_ptr<Case>> make_cases(std::vector<Instance> instances,
                                              typename InstanceCase<Instance>::Function solver,
                                              typename InstanceCase<Instance>::Function printer,
                                              typename InstanceCase<Instance>::CostFunction cost) {
  std::vector<std::unique_ptr<Case>> cases;
  cases.reserve(instances.size());
  for (Instance& instance : instances) {
    cases.push_back(
        std::make_unique<InstanceCase<Instance>>(std::move(instance), solver, printer, cost));
  }
  return cases;
}

// Problem::shrink_candidates for a game whose format parses files into instances and prints one
// instance, and whose core shrinks an instance.
template <typename Instance>
std::vector<std::string> shrink_canonical_case(
    const Problem& problem, std::string_view canonical,
    std::vector<Instance> (*parse_file)(std::string_view),
    std::vector<Instance> (*shrink)(const Instance&), std::string (*format_case)(const Instance&)) {
  const std::vector<Instance> parsed = parse_file(problem.file_of_cases({std::string(canonical)}));
  if (parsed.size() != 1)
    throw std::invalid_argument("not one case");
  std::vector<std::string> smaller;
  for (const Instance& instance : shrink(parsed.front()))
    smaller.push_back(format_case(instance));
  return smaller;
}

// `describe` of the case whose canonical() text is `canonical`, for a game whose format parses
// files into instances: Problem::explain (and draw, explain_and_draw), the wrong ideas' answers,
// the shapes of a case.
template <typename Instance, typename Result = std::string>
Result on_canonical_case(const Problem& problem, std::string_view canonical,
                         std::vector<Instance> (*parse_file)(std::string_view),
                         Result (*describe)(const Instance&)) {
  const std::vector<Instance> parsed = parse_file(problem.file_of_cases({std::string(canonical)}));
  if (parsed.size() != 1)
    throw std::invalid_argument("not one case");
  return describe(parsed.front());
}

// Every game gamebatch knows, in a fixed order.
const std::vector<const Problem*>& all_problems();

// The game called `name`, or nullptr.
const Problem* find_problem(std::string_view name);

}  // namespace gamebatch::io
