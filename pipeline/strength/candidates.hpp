// The candidates of a strength run: the programs and ideas a package's tests should reject.
//   - the package's submissions that must fail somewhere (check judges them as it always does);
//   - the mutants of every accepted C++ submission (io/mutation/cpp_mutants.hpp), all of one
//     source compiled once as its mutant schema and run with GAMEBATCH_MUTANT=K;
//   - the game's usual wrong ideas (io::Problem::wrong_ideas), answered in-process.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/files/problem_package.hpp"
#include "io/mutation/cpp_mutants.hpp"
#include "io/problem.hpp"
#include "io/run/sandbox.hpp"
#include "io/run/solution_build.hpp"

namespace gamebatch::pipeline {

enum class CandidateKind { submission, mutant, idea };

// "submission", "mutant", "idea".
std::string_view kind_name(CandidateKind kind);

struct Candidate {
  CandidateKind kind = CandidateKind::mutant;
  // "wrong_answer/greedy.c", "accepted/full.cpp #17 ROR 12:9 '<' -> '<='", "idea b-near-a".
  std::string name;
  std::string command;    // a program's shell command; empty for an idea
  std::size_t index = 0;  // submission: the check's solution; idea: Problem::wrong_ideas()'s
  std::optional<io::SourceMutant> mutant;
  std::size_t schema = 0;  // mutant: its MutantSchemaBuild
};

// One accepted C++ submission's schema, built.
struct MutantSchemaBuild {
  std::string submission;        // "accepted/full.cpp"
  std::filesystem::path source;  // the submission's file
  std::string text;              // its source text
  io::MutantSchema schema;
  std::string command;  // the schema program's command (GAMEBATCH_MUTANT not set)
  std::vector<std::size_t> lines_left_out;  // where an earlier schema did not compile
  double parse_seconds = 0;
  double compile_seconds = 0;
  bool compiled_now = false;  // false: from the compiled store
  std::string error;          // why it has no mutants ("" when built)
};

// The schema of each accepted submission that is one C++ file (warning once for each other:
// "accepted/sol.py: not C++, its mutants are skipped"), compiled into `store` (in the sandbox
// when there is one). A schema that does not compile is made again without the mutation points
// on the lines the compiler names, at most three times. Sources of other kinds, sources libclang
// cannot parse and schemas that never compile get an error and no mutants.
std::vector<MutantSchemaBuild> build_mutant_schemas(
    const std::vector<io::PackageSubmission>& accepted, const io::LanguageTable& languages,
    const std::filesystem::path& store, io::SandboxPool* sandbox, std::size_t jobs);

// The candidates of every schema's mutants, numbered as the schema numbers them.
std::vector<Candidate> mutant_candidates(const std::vector<MutantSchemaBuild>& schemas);

// The command of mutant `id` of a schema whose command is `command`.
std::string mutant_command(const std::string& command, int id);

// The report's "mutants": per schema its submission, its operators and how many mutants each
// made, what was left out, and the compile's cost.
nlohmann::json mutants_json(const std::vector<MutantSchemaBuild>& schemas);

}  // namespace gamebatch::pipeline
