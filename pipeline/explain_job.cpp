#include "pipeline/explain_job.hpp"

#include <memory>
#include <stdexcept>
#include <system_error>
#include <vector>

#include <oneapi/tbb/task_arena.h>
#include <spdlog/spdlog.h>

#include "core/stop_request.hpp"
#include "io/files/input_set.hpp"
#include "io/input_error.hpp"
#include "io/problem.hpp"

namespace gamebatch::pipeline {
namespace {

// The file's cases as canonical texts; nullopt (the error logged) when it cannot be read or is no
// input of the game.
std::optional<std::vector<std::string>> read_cases(const io::Problem& problem,
                                                   const std::string& path) {
  std::string text;
  try {
    text = io::read_file(path);
  } catch (const std::system_error& error) {
    spdlog::error("{}: {}", path, error.what());
    return std::nullopt;
  }
  try {
    std::vector<std::string> cases;
    for (const std::unique_ptr<io::Case>& one : problem.parse(text))
      cases.push_back(one->canonical());
    return cases;
  } catch (const io::InputError& error) {
    spdlog::error("{}:{}: {} (is it a {} input?)", path, error.line(), error.what(),
                  problem.name());
    return std::nullopt;
  }
}

}  // namespace

Outcome explain_cases(const ExplainSettings& settings,
                      const std::function<void(const std::string& text)>& on_case) {
  const io::Problem* problem = io::find_problem(settings.problem);
  if (problem == nullptr) {
    spdlog::error("unknown game {}", settings.problem);
    return Outcome::usage_error;
  }
  const std::optional<std::vector<std::string>> cases = read_cases(*problem, settings.path);
  if (!cases)
    return Outcome::usage_error;
  std::size_t first = 0;
  std::size_t last = cases->size();
  if (settings.case_number) {
    const std::size_t wanted = *settings.case_number;
    if (wanted < 1 || wanted > cases->size()) {
      spdlog::error("{} has {} cases; --case {} is out of range", settings.path, cases->size(),
                    wanted);
      return Outcome::usage_error;
    }
    first = wanted - 1;
    last = wanted;
  }
  Outcome outcome = Outcome::done;
  tbb::task_arena arena(settings.jobs > 0 ? settings.jobs : tbb::task_arena::automatic);
  for (std::size_t k = first; k < last; ++k) {
    throw_if_stop_requested();
    const std::string header = "Case #" + std::to_string(k + 1) + ":\n";
    try {
      on_case(header + arena.execute([&] { return problem->explain((*cases)[k]); }));
    } catch (const std::invalid_argument& error) {
      outcome = Outcome::failed;
      spdlog::error("{}: case {}: {}", settings.path, k + 1, error.what());
    }
  }
  return outcome;
}

}  // namespace gamebatch::pipeline
