// `gamebatch validate --invalid`: inputs that every validator must reject. The package's own
// (data/invalid_input/ of the 2025-09 format, BAPCtools' data/invalid_inputs/) go to every
// validator of the package and to gamebatch's strict check; mutants made from each group's valid
// tests (io::make_mutants: one per format rule and per limit, at min - 1 and max + 1 of the
// statement and of the group) go to every validator with that group's flags, so that a validator
// ignoring its flags is caught. A validator that accepts one has a blind spot: named with the
// rule or limit, the group, and a file holding the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "io/files/problem_package.hpp"
#include "pipeline/package/data_bounds.hpp"
#include "pipeline/package/package_validators.hpp"

namespace gamebatch::pipeline {

struct InvalidInputResult {
  std::size_t files = 0;    // invalid inputs of the package tried
  std::size_t mutants = 0;  // mutants tried
  std::size_t runs = 0;     // validator runs
  // One line per input accepted by a validator (or by gamebatch), and per validator run that
  // failed: "data/invalid_input/leading-zero.in: input_validators/v accepts it; it must be
  // rejected", "input_validators/v accepts N = 81 (group small: 1 <= N <= 80) in group small:
  // OUT/small-N-above-group.in".
  std::vector<std::string> blind_spots;
};

// The package's inputs that must be rejected: data/invalid_input/ and data/invalid_inputs/, every
// file below them (kattis packages only), in name order.
std::vector<std::filesystem::path> invalid_input_files(const io::ProblemPackage& package);

// Each file must be rejected by every runnable validator (with the flags of the file's directory)
// and by gamebatch (`gamebatch_rejection` empty: accepted).
InvalidInputResult check_invalid_files(
    const PackageValidators& validators, const std::vector<std::filesystem::path>& files,
    const std::function<std::string(const std::filesystem::path&)>& gamebatch_rejection,
    const std::function<std::string(const std::filesystem::path&)>& shown, std::size_t jobs);

// The mutants of each group's first kMutatedTests tests (those gamebatch accepts: `groups` holds
// no others), written under `out` (made when
// missing), each given to every runnable validator with the flags of the test it was made from.
// One blind-spot line per validator, group and rule, naming the first mutant it accepted.
inline constexpr std::size_t kMutatedTests = 2;
InvalidInputResult check_mutants(std::string_view game, const PackageValidators& validators,
                                 const std::vector<GroupTests>& groups,
                                 const std::filesystem::path& out, std::uint64_t seed,
                                 std::size_t jobs);

}  // namespace gamebatch::pipeline
