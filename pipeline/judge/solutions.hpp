// The solutions a check or a stress judges: named on the command line or a package's submissions,
// the sources among them compiled once each into the store of compiled programs
// (programs/run_setup.hpp), the others run as the commands they are.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/files/problem_package.hpp"
#include "io/run/sandbox.hpp"
#include "io/run/solution_build.hpp"
#include "pipeline/judge/check_run.hpp"

namespace gamebatch::pipeline {

// A solution as the user named it: a source (a file or a directory that a language claims) to
// build, or else a shell command run as it is.
struct SolutionToBuild {
  CheckSolution solution;
  std::optional<std::filesystem::path> source;
};

// Compiles the sources among `solutions` (`jobs` at once), each once; the commands of the others
// are left as they are. Says on stderr what was compiled and what came from the store, and puts
// the same in `report`. False (after an error message) when the store cannot be used: a usage
// problem.
bool build_solutions(std::vector<SolutionToBuild>& solutions, const io::LanguageTable& languages,
                     const std::filesystem::path& store, io::SandboxPool* sandbox, std::size_t jobs,
                     nlohmann::json& report);

// The solutions of a check: the --solution arguments, else a package's submissions.
std::vector<SolutionToBuild> solutions_to_build(const std::vector<std::string>& arguments,
                                                const io::ProblemPackage* package,
                                                const io::LanguageTable& languages);

}  // namespace gamebatch::pipeline
