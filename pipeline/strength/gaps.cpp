#include "pipeline/strength/gaps.hpp"

#include <algorithm>

#include "core/stop_request.hpp"
#include "io/files/generate.hpp"
#include "pipeline/judge/stress_run.hpp"
#include "pipeline/programs/run_setup.hpp"

namespace gamebatch::pipeline {
namespace {

// gen's options for each group it can draw one-case inputs of (nullopt for the others).
std::vector<std::optional<io::GameOptions>> group_options(
    const io::Problem& problem, const std::vector<StrengthGroup>& groups) {
  std::vector<std::optional<io::GameOptions>> options(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    std::optional<io::GameOptions> game = io::default_game_options(problem.name());
    if (!groups[g].sample && game && io::narrow_to_limits(*game, groups[g].limits).empty())
      options[g] = std::move(game);
  }
  return options;
}

GapSearch search_one(const io::Problem& problem, const Candidate& candidate,
                     const std::vector<io::WrongIdea>& ideas,
                     const std::vector<StrengthGroup>& groups,
                     const std::vector<std::optional<io::GameOptions>>& games,
                     const GapSettings& settings) {
  GapSearch search;
  const auto drawn = static_cast<std::size_t>(
      std::count_if(games.begin(), games.end(), [](const auto& game) { return game.has_value(); }));
  const std::size_t per_group =
      drawn == 0 ? 0 : std::max(kLeastCasesPerGroup, settings.cases / drawn);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const StrengthGroup& group = groups[g];
    if (!games[g])
      continue;
    StressOptions options;
    options.problem = &problem;
    options.game = *games[g];
    options.seed = settings.seed + g;
    options.count = static_cast<std::int64_t>(per_group);
    options.limits = settings.limits;
    options.jobs = 1;
    options.sandbox = settings.sandbox;
    options.group_limits = group.limits;
    if (candidate.kind == CandidateKind::idea)
      options.in_process = idea_as_solution(problem, ideas[candidate.index]);
    else
      options.solution = candidate.command;
    const StressResult result = run_stress(options);
    search.cases_tried += result.cases_run;
    if (result.shrunk) {
      search.found = true;
      search.group = group.name;
      search.input = result.shrunk->input;
      search.verdict = describe(result.shrunk->verdict);
      search.shrink_steps = result.shrink_steps;
      return search;
    }
    if (result.interrupted) {
      search.interrupted = true;
      return search;
    }
  }
  return search;
}

}  // namespace

std::function<std::string(const std::string&)> idea_as_solution(const io::Problem& problem,
                                                                const io::WrongIdea& idea) {
  return [&problem, &idea](const std::string& input) {
    std::string output;
    std::size_t number = 0;
    for (const auto& a_case : problem.parse(input))
      output += problem.answer_line(++number, idea.answer(a_case->canonical()));
    return output;
  };
}

std::vector<GapSearch> search_gaps(const io::Problem& problem,
                                   const std::vector<Candidate>& candidates,
                                   const std::vector<std::size_t>& which,
                                   const std::vector<StrengthGroup>& groups,
                                   const GapSettings& settings) {
  const std::vector<io::WrongIdea> ideas = problem.wrong_ideas();
  const std::vector<std::optional<io::GameOptions>> games = group_options(problem, groups);
  std::vector<GapSearch> searches(which.size());
  run_at_once(which.size(), settings.jobs, [&](std::size_t k) {
    searches[k] = search_one(problem, candidates[which[k]], ideas, groups, games, settings);
  });
  for (GapSearch& search : searches)
    search.interrupted = search.interrupted || (stop_requested() && !search.found);
  return searches;
}

}  // namespace gamebatch::pipeline
