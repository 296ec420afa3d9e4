// What several doublemove test files need: a case's one-line description for failure messages,
// and a walk over every state of n.
#pragma once

#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "core/doublemove/doublemove.hpp"

namespace gamebatch::doublemove::testing {

// "n=5 k=2 { (1,2) (3,3) }".
inline std::string describe(const Instance& instance) {
  std::ostringstream text;
  text << "n=" << instance.n << " k=" << instance.declarations.size() << " {";
  for (const auto& [a, b] : instance.declarations)
    text << " (" << a << "," << b << ")";
  text << " }";
  return text.str();
}

// Every state of n: (ascending tree sizes, one-cycle components).
inline void for_every_state(int n, const std::function<void(const std::vector<int>&, int)>& visit) {
  std::vector<int> trees;
  std::function<void(int, int)> extend = [&](int total, int smallest) {
    if (total == n) {
      visit(trees, 0);
    } else {
      for (int cycles = 1; cycles <= n - total; ++cycles)
        visit(trees, cycles);
    }
    for (int size = smallest; total + size <= n; ++size) {
      trees.push_back(size);
      extend(total + size, size);
      trees.pop_back();
    }
  };
  extend(0, 1);
}

}  // namespace gamebatch::doublemove::testing
