// What the pipeline knows of a game: how to split a file into cases, how to solve a case, how to
// print an answer line. Games are found by name in the registry (io/registry.cpp); nothing
// outside a game's own folders names a game.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gamebatch::io {

// One parsed case, ready to solve. solve() may run nested oneTBB parallel loops.
class Case {
 public:
  virtual ~Case() = default;
  // The answer as printed after the case's prefix (for willow: the y of "Case #x: y").
  virtual std::string solve() const = 0;
};

class Problem {
 public:
  virtual ~Problem() = default;

  virtual std::string_view name() const = 0;
  // One line for --help listings.
  virtual std::string_view summary() const = 0;

  // Splits a whole input file into its cases. Throws InputError (line, what was expected) when the
  // file is not exactly a valid input; never returns part of a bad file.
  virtual std::vector<std::unique_ptr<Case>> parse(std::string_view text) const = 0;

  // The output line (with its newline) for the answer of case `case_number` (1-based).
  virtual std::string answer_line(std::size_t case_number, std::string_view answer) const = 0;
};

// Every game gamebatch knows, in a fixed order.
const std::vector<const Problem*>& all_problems();

// The game called `name`, or nullptr.
const Problem* find_problem(std::string_view name);

}  // namespace gamebatch::io
