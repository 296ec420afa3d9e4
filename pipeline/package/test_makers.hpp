// A plan's entries (io/files/package_plan.hpp) turned into the makers that build_package
// (package_build.hpp) calls for each test:
//   copy = "FILE"            the file's bytes, whatever the seed;
//   gen = "--cities 5..9 ..."  gen's generator with these options (game_options.hpp), one file of
//                            --cases-per-file cases from the test's seed;
//   run = "PROGRAM ARGS..."  the program's stdout, run in the sandbox under the judge's limits
//                            with the test's seed as its last argument; a source of the package is
//                            compiled once (io/run/solution_build.hpp), else the text is a command.
// Each maker's recipe names what its tests depend on besides their seed, so that a rebuild makes
// again exactly the tests whose recipe changed.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/files/package_plan.hpp"
#include "io/run/sandbox.hpp"
#include "io/run/solution_build.hpp"
#include "pipeline/package/package_build.hpp"
#include "pipeline/programs/run_setup.hpp"

namespace gamebatch::pipeline {

// What a plan's `run` entries need: the limits of a run, the sandbox the programs run in
// (nullptr: uncontained), the languages their sources are compiled in, and the store of compiled
// programs (beside the answer cache, made on first use).
class GeneratorPrograms {
 public:
  GeneratorPrograms(JudgeLimits limits, io::LanguageTable languages, io::SandboxPool* sandbox,
                    std::string cache_file, bool no_cache);

  // The maker of a `run` entry. Throws io::UsageError naming the plan's line when its source does
  // not compile.
  EntryMaker run_entry_maker(const io::PackagePlan& plan, const io::PlanEntry& entry,
                             const std::filesystem::path& root);

 private:
  const std::filesystem::path& store();

  JudgeLimits limits_;
  io::LanguageTable languages_;
  io::SandboxPool* sandbox_;
  std::string cache_file_;
  bool no_cache_;
  std::optional<CompiledStore> store_;
};

// The maker of a `copy` entry; throws io::UsageError naming the plan's line when the file cannot
// be read.
EntryMaker copy_entry_maker(const io::PackagePlan& plan, const io::PlanEntry& entry,
                            const std::filesystem::path& root);

// The maker of a `gen` entry; throws io::UsageError naming the plan's line when its options are
// not gen's.
EntryMaker gen_entry_maker(const io::PackagePlan& plan, const io::PlanEntry& entry);

// Every entry's maker, [group][entry] as the plan's. Throws io::UsageError naming the plan's line.
std::vector<std::vector<EntryMaker>> make_entry_makers(const io::PackagePlan& plan,
                                                       const std::filesystem::path& root,
                                                       GeneratorPrograms& programs);

// Whether the plan has a `run` entry (whose programs need a sandbox).
bool plan_runs_programs(const io::PackagePlan& plan);

}  // namespace gamebatch::pipeline
