// What a strength run tells: the strength in one line and each gap (the terminal), the JSON
// report (schema gamebatch-strength/1, documented in strength_report.cpp) and the HTML page: the
// kill matrix grouped by group (summarised beyond kMatrixCandidates candidates), each test's kills
// and unique kills, each survivor's diff, each gap's counterexample with its optimal play, the
// coverage table and the selection.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/files/input_set.hpp"
#include "io/problem.hpp"
#include "pipeline/strength/candidates.hpp"
#include "pipeline/strength/coverage.hpp"
#include "pipeline/strength/fill.hpp"
#include "pipeline/strength/gaps.hpp"
#include "pipeline/strength/kill_matrix.hpp"
#include "pipeline/strength/selection.hpp"

namespace gamebatch::pipeline {

enum class CandidateStatus { caught, gap, survivor, unjudged };

// "caught", "gap", "survivor", "not judged".
std::string_view status_name(CandidateStatus status);

struct CandidateOutcome {
  Candidate candidate;
  CandidateVerdicts verdicts;
  CandidateStatus status = CandidateStatus::unjudged;
  std::optional<GapSearch> gap;  // set for the candidates no test kills
  std::string diff;  // a mutant's line before and after ("- ...\n+ ...\n"); "" for others
};

// The strength in numbers.
struct StrengthCounts {
  std::size_t candidates = 0, caught = 0, gaps = 0, survivors = 0, unjudged = 0;
  std::size_t coverage_points = 0, coverage_missed = 0;
  bool strong() const { return gaps == 0 && coverage_missed == 0 && unjudged == 0; }
};

// Where a run's time went: "check", "mutant schemas", "kill matrix", "gaps", "coverage",
// "fill", "select", in the order they ran.
struct PhaseTime {
  std::string name;
  double seconds = 0;
};

struct StrengthResult {
  std::string game;
  std::string package;
  io::InputList tests;
  std::vector<StrengthGroup> groups;
  double time_limit_seconds = 0;
  std::string time_limit_source;
  std::vector<MutantSchemaBuild> schemas;
  std::vector<double> schema_time_factors;  // per schema: its runs' time against its source's
  std::vector<CandidateOutcome> candidates;
  std::vector<CoveragePoint> coverage;
  std::optional<StrengthCounts> before_fill;  // --fill: the strength before it
  std::vector<FillTest> filled;
  std::optional<Selection> selection;
  std::vector<double> accepted_seconds;  // per test: the accepted solutions' time
  bool interrupted = false;
  double seconds = 0;
  double compile_seconds = 0;  // of the mutant schemas, within `seconds`
  std::vector<PhaseTime> phases;

  StrengthCounts counts() const;
};

inline constexpr std::size_t kMatrixCandidates = 300;

// "strength: 287 of 301 candidates caught, 9 gaps, 5 survivors, 3 of 40 coverage points missed
// (time 75.2 s, compiling 4.1 s)".
std::string strength_line(const StrengthResult& result);
// Lines under it: each gap with its counterexample's size, each coverage point missed, what the
// fill added and what the selection kept.
std::string strength_details(const StrengthResult& result);

nlohmann::json strength_report(const nlohmann::json& header, const StrengthResult& result);

std::string strength_page(const nlohmann::json& header, const io::Problem& problem,
                          const StrengthResult& result);

}  // namespace gamebatch::pipeline
