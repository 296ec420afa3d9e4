// The pages of `gamebatch check --html` and `gamebatch stress --html` (report/html_page.hpp has
// what every page shares).
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "pipeline/judge/check_run.hpp"
#include "pipeline/judge/stress_run.hpp"

namespace gamebatch::pipeline {

// The check page's verdict matrix shows at most this many files (check_page).
inline constexpr std::size_t kMatrixRows = 1000;

// Made in the namespace of the pages' parts (report/html_page.hpp), named here.
namespace html {

// The check page: the verdict matrix (files x solutions, coloured by verdict, each cell with its
// time and peak memory, a WA with its case, expected and got), each solution's counts and time
// distribution against the time limit, rejected inputs, the version and options (`header`, as
// the JSON report's). Beyond kMatrixRows files the matrix keeps the files some solution failed
// on first and says how many all-AC files it leaves out.
std::string check_page(const nlohmann::json& header, const CheckOptions& options,
                       const CheckResult& result);

// The stress page: seed, solution, cases tried, and the counterexample before and after shrinking
// (input, expected answers, the solution's output, verdict), or that every case passed.
std::string stress_page(const nlohmann::json& header, const StressOptions& options,
                        const StressResult& result);

}  // namespace html

using html::check_page;
using html::stress_page;

}  // namespace gamebatch::pipeline
