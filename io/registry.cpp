// The registry: one line per game; and Problem's defaults that need code.
#include <cmath>
#include <cstdlib>
#include <string>

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

std::optional<double> Problem::answer_value(std::string_view answer) const {
  while (!answer.empty() && (answer.back() == '\n' || answer.back() == ' '))
    answer.remove_suffix(1);
  if (answer.empty())
    return std::nullopt;
  // strtod of a copy: from_chars of doubles reads integers beyond 2^64 (doublemove) as well.
  const std::string text(answer);
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

const Problem* find_problem(std::string_view name) {
  for (const Problem* problem : all_problems()) {
    if (problem->name() == name)
      return problem;
  }
  return nullptr;
}

}  // namespace gamebatch::io
