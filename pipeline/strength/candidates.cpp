#include "pipeline/strength/candidates.hpp"

#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <map>
#include <system_error>

#include <spdlog/spdlog.h>

#include "io/files/input_set.hpp"
#include "pipeline/programs/run_setup.hpp"

namespace gamebatch::pipeline {
namespace {

// Tries of a schema: the first, and again without the lines a compile failed on.
constexpr int kSchemaTries = 4;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A directory of its own for a schema's source, removed with it.
class ScratchDirectory {
 public:
  ScratchDirectory() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "gamebatch-schema-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw std::system_error(errno, std::generic_category(), "cannot make " + pattern);
    path_ = pattern;
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Parses, writes and compiles one schema, again without the lines that did not compile.
void build_one(MutantSchemaBuild& build, const io::LanguageTable& languages,
               const io::BuildSettings& settings) {
  for (int attempt = 1; attempt <= kSchemaTries; ++attempt) {
    io::MutationOptions options;
    options.lines_left_out = build.lines_left_out;
    const auto parse_start = std::chrono::steady_clock::now();
    build.schema = io::make_mutant_schema(build.source, build.text, options);
    build.parse_seconds += seconds_since(parse_start);
    const ScratchDirectory scratch;
    // The schema keeps the source's name: the store keys it by content and name, and the
    // compiler's messages name the source's lines (#line).
    const std::filesystem::path file = scratch.path() / build.source.filename();
    std::ofstream(file, std::ios::binary) << build.schema.source;
    const io::BuiltSolution built = io::build_solution(file, languages, settings);
    build.compile_seconds += built.compile_seconds;
    build.compiled_now = build.compiled_now || built.compiled_now;
    if (!built.compile_error) {
      build.command = built.command;
      return;
    }
    const std::vector<std::size_t> lines =
        io::error_lines(*built.compile_error, build.source.filename().string());
    const std::size_t before = build.lines_left_out.size();
    for (const std::size_t line : lines) {
      if (std::find(build.lines_left_out.begin(), build.lines_left_out.end(), line) ==
          build.lines_left_out.end())
        build.lines_left_out.push_back(line);
    }
    if (build.lines_left_out.size() == before) {
      build.error = "its mutant schema does not compile: " + *built.compile_error;
      return;
    }
  }
  build.error = "its mutant schema did not compile in " + std::to_string(kSchemaTries) + " tries";
}

}  // namespace

std::string_view kind_name(CandidateKind kind) {
  switch (kind) {
    case CandidateKind::submission:
      return "submission";
    case CandidateKind::mutant:
      return "mutant";
    case CandidateKind::idea:
      return "idea";
  }
  return "";
}

std::vector<MutantSchemaBuild> build_mutant_schemas(
    const std::vector<io::PackageSubmission>& accepted, const io::LanguageTable& languages,
    const std::filesystem::path& store, io::SandboxPool* sandbox, std::size_t jobs) {
  std::vector<MutantSchemaBuild> builds;
  for (const io::PackageSubmission& submission : accepted) {
    const io::Language* language = io::language_of(languages, submission.path);
    if (std::filesystem::is_directory(submission.path) || language == nullptr ||
        language->name != "cpp") {
      spdlog::warn("{}: not one C++ file, its mutants are skipped", submission.name);
      continue;
    }
    MutantSchemaBuild build;
    build.submission = submission.name;
    build.source = submission.path;
    build.text = io::read_file(submission.path);
    builds.push_back(std::move(build));
  }
  io::BuildSettings settings;
  settings.store = store;
  settings.sandbox = sandbox;
  run_at_once(builds.size(), jobs, [&](std::size_t k) {
    try {
      build_one(builds[k], languages, settings);
    } catch (const io::MutationError& error) {
      builds[k].error = error.what();
    } catch (const std::runtime_error& error) {
      builds[k].error = error.what();
    }
  });
  for (MutantSchemaBuild& build : builds) {
    if (!build.error.empty()) {
      spdlog::warn("{}: {}; its mutants are skipped", build.submission, build.error);
      build.schema.mutants.clear();
    }
  }
  return builds;
}

std::string mutant_command(const std::string& command, int id) {
  return "env " + std::string(io::kMutantVariable) + "=" + std::to_string(id) + " " + command;
}

std::vector<Candidate> mutant_candidates(const std::vector<MutantSchemaBuild>& schemas) {
  std::vector<Candidate> candidates;
  for (std::size_t s = 0; s < schemas.size(); ++s) {
    for (const io::SourceMutant& mutant : schemas[s].schema.mutants) {
      Candidate candidate;
      candidate.kind = CandidateKind::mutant;
      candidate.name = schemas[s].submission + " #" + std::to_string(mutant.id) + " " +
                       std::string(io::short_name(mutant.op)) + " " + std::to_string(mutant.line) +
                       ":" + std::to_string(mutant.column) + " '" + mutant.original + "' -> '" +
                       mutant.replacement + "'";
      candidate.command = mutant_command(schemas[s].command, mutant.id);
      candidate.mutant = mutant;
      candidate.schema = s;
      candidates.push_back(std::move(candidate));
    }
  }
  return candidates;
}

nlohmann::json mutants_json(const std::vector<MutantSchemaBuild>& schemas) {
  nlohmann::json list = nlohmann::json::array();
  for (const MutantSchemaBuild& build : schemas) {
    std::map<std::string, std::size_t> per_operator;
    for (const io::MutationOperator op : io::kAllMutationOperators)
      per_operator[std::string(io::short_name(op))] = 0;
    for (const io::SourceMutant& mutant : build.schema.mutants)
      ++per_operator[std::string(io::short_name(mutant.op))];
    nlohmann::json operators = nlohmann::json::array();
    for (const io::MutationOperator op : io::kAllMutationOperators) {
      operators.push_back({{"operator", io::short_name(op)},
                           {"description", io::description(op)},
                           {"mutants", per_operator[std::string(io::short_name(op))]}});
    }
    list.push_back(
        {{"submission", build.submission},
         {"mutants", build.schema.mutants.size()},
         {"operators", operators},
         {"left_out", build.schema.left_out},
         {"lines_left_out", build.lines_left_out},
         {"parse_seconds", build.parse_seconds},
         {"compile_seconds", build.compile_seconds},
         {"compiled_now", build.compiled_now},
         {"error", build.error.empty() ? nlohmann::json() : nlohmann::json(build.error)}});
  }
  return list;
}

}  // namespace gamebatch::pipeline
