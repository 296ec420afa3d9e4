// --select: the fewest tests that keep every kill and every coverage point of every group, as an
// exact set cover. Each row is a set of tests of which one must stay: for each group, each
// candidate some test of the group kills (so every partial solution's subtask scores stay the
// same), each coverage point its tests reach, and one test at least. GLPK's branch and cut solves
// it (Debian's libglpk); ties between sets of the same size go to the least time of the accepted
// solutions (a weight too small to change the count). Past the time budget the best set found is
// given with a lower bound on the fewest (the linear relaxation's, rounded up).
#pragma once

#include <cstddef>
#include <vector>

namespace gamebatch::pipeline {

struct CoverProblem {
  std::size_t tests = 0;
  std::vector<double> weight;                  // per test, >= 0: the tie-break (seconds)
  std::vector<std::vector<std::size_t>> rows;  // each: tests of which one must be chosen
};

struct Selection {
  std::vector<std::size_t> tests;  // chosen, ascending
  bool optimal = false;            // proven fewest (and least weight among the fewest)
  std::size_t bound = 0;           // no cover has fewer tests than this
  double seconds = 0;
  std::size_t rows = 0;  // distinct rows after removing those that others imply
};

// Rows without any test are left out (nothing can cover them). `seconds`: the solver's budget.
Selection select_tests(const CoverProblem& problem, double seconds);

// The same by trying every set of tests, smallest first (for tests: at most ~20 tests).
Selection select_tests_by_enumeration(const CoverProblem& problem);

}  // namespace gamebatch::pipeline
