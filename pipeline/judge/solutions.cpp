#include "pipeline/judge/solutions.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <utility>

#include <spdlog/spdlog.h>

#include "core/stop_request.hpp"
#include "pipeline/programs/run_setup.hpp"

namespace gamebatch::pipeline {

bool build_solutions(std::vector<SolutionToBuild>& solutions, const io::LanguageTable& languages,
                     const std::filesystem::path& store, io::SandboxPool* sandbox, std::size_t jobs,
                     nlohmann::json& report) {
  std::vector<std::size_t> sources;
  for (std::size_t k = 0; k < solutions.size(); ++k) {
    if (solutions[k].source)
      sources.push_back(k);
  }
  io::BuildSettings settings;
  settings.store = store;
  settings.sandbox = sandbox;
  std::vector<std::optional<io::BuiltSolution>> built(sources.size());
  std::vector<std::string> failures(sources.size());
  const auto started = std::chrono::steady_clock::now();
  run_at_once(sources.size(), jobs, [&](std::size_t k) {
    try {
      built[k] = io::build_solution(*solutions[sources[k]].source, languages, settings);
    } catch (const std::exception& error) {
      failures[k] = error.what();
    }
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  // A stop (Ctrl-C) ended the compiles in progress: the caller stops too, and nothing is judged.
  if (stop_requested())
    return true;
  std::size_t compiled = 0, from_store = 0, errors = 0;
  for (std::size_t k = 0; k < sources.size(); ++k) {
    if (!failures[k].empty()) {
      spdlog::error("cannot build {}: {}", solutions[sources[k]].solution.name, failures[k]);
      return false;
    }
    CheckSolution& solution = solutions[sources[k]].solution;
    solution.command = built[k]->command;
    solution.compile_error = built[k]->compile_error;
    (built[k]->compiled_now ? compiled : from_store) += 1;
    if (built[k]->compile_error)
      ++errors;
  }
  std::string line = "compile: " + std::to_string(sources.size()) + " sources: ";
  line += compiled == 0 ? std::string("nothing compiled")
                        : std::to_string(compiled) + " compiled (" +
                              std::to_string(static_cast<int>(seconds * 1000 + 0.5)) + " ms)";
  line += ", " + std::to_string(from_store) + " from the store";
  if (errors != 0)
    line += ", " + std::to_string(errors) + " compile " + (errors == 1 ? "error" : "errors");
  std::fprintf(stderr, "%s (%s)\n", line.c_str(), store.string().c_str());
  report = {{"store", store.string()},
            {"compiled", compiled},
            {"from_store", from_store},
            {"errors", errors},
            {"seconds", seconds}};
  return true;
}

std::vector<SolutionToBuild> solutions_to_build(const std::vector<std::string>& arguments,
                                                const io::ProblemPackage* package,
                                                const io::LanguageTable& languages) {
  std::vector<SolutionToBuild> solutions;
  if (!arguments.empty() || package == nullptr) {
    for (const std::string& argument : arguments) {
      SolutionToBuild solution;
      solution.solution.name = argument;
      solution.solution.command = argument;
      if (io::language_of(languages, argument) != nullptr)
        solution.source = std::filesystem::absolute(argument).lexically_normal();
      solutions.push_back(std::move(solution));
    }
    return solutions;
  }
  for (const io::PackageSubmission& submission : package->submissions) {
    SolutionToBuild solution;
    solution.solution.name = submission.name;
    solution.solution.expected = submission.expected;
    solution.solution.rules = submission.rules;
    if (io::language_of(languages, submission.path) != nullptr) {
      solution.source = submission.path;
    } else {
      // An executable the package ships: run as it is.
      solution.solution.command = "'" + submission.path.string() + "'";
    }
    solutions.push_back(std::move(solution));
  }
  return solutions;
}

}  // namespace gamebatch::pipeline
