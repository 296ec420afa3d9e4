// The registry: one line per game.
#include "io/boigame/problem.hpp"
#include "io/doublemove/problem.hpp"
#include "io/problem.hpp"
#include "io/wallgame/problem.hpp"
#include "io/willow/problem.hpp"

namespace gamebatch::io {

const std::vector<const Problem*>& all_problems() {
  static const std::vector<const Problem*> problems = {
      &willow::problem(),
      &wallgame::problem(),
      &boigame::problem(),
      &doublemove::problem(),
  };
  return problems;
}

const Problem* find_problem(std::string_view name) {
  for (const Problem* problem : all_problems()) {
    if (problem->name() == name)
      return problem;
  }
  return nullptr;
}

}  // namespace gamebatch::io
