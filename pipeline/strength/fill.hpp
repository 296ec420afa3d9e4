// --fill: the tests that close each gap, written into the package through its plan: each input
// under PACKAGE/strength/ (named by its group, what it is for and its content's hash, so the same
// test is the same file) and a `copy` entry for it at the end of its group in gamebatch.toml (the
// file's own text and comments kept), so that `build` makes it like any other test. A test whose
// entry the plan already has is not added again.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "io/files/package_plan.hpp"

namespace gamebatch::pipeline {

struct FillTest {
  std::string group;  // the plan's group it goes into
  std::string kind;   // "gap", "limit", "shape", "answer"
  std::string why;    // "kills accepted/full.cpp #17 ROR ...", "N = 80 (its limit's max)"
  std::string text;   // the input
  std::string file;   // relative to the package: "strength/small-gap-3f2a1b9c.in" (set by fill)
};

// The folder of the package the tests go into.
inline constexpr const char* kFillFolder = "strength";

// Writes `tests` (those not in the plan already) into the package at `plan.file`'s folder and
// adds their entries to the plan. Returns those added, with their files. Throws
// std::runtime_error naming the file when one cannot be written; the plan is written last, whole,
// so that a failure leaves it as it was.
std::vector<FillTest> fill_package(const io::PackagePlan& plan, std::vector<FillTest> tests);

}  // namespace gamebatch::pipeline
