#include "pipeline/package/test_makers.hpp"

#include <cstdint>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <CLI/CLI.hpp>

#include "core/stop_request.hpp"
#include "io/files/atomic_file.hpp"
#include "io/files/content_hash.hpp"
#include "io/files/generate.hpp"
#include "io/problem.hpp"
#include "io/run/limited_process.hpp"
#include "pipeline/package/game_options.hpp"
#include "pipeline/version.hpp"

namespace gamebatch::pipeline {
namespace {

// CLI11 of gen's game options, for a plan's `gen = "..."` entries.
struct GenEntryParser {
  CLI::App app{"gen"};
  GameOptionArguments game;
  std::int64_t cases_per_file = 1;
  GenEntryParser() {
    app.allow_windows_style_options(false);
    add_game_options(app, game);
    app.add_option("--cases-per-file", cases_per_file);
  }
};

io::UsageError plan_error(const io::PackagePlan& plan, const io::PlanEntry& entry,
                          const std::string& key, const std::string& why) {
  return io::UsageError(plan.file.string() + ":" + std::to_string(entry.line) + ": " + key +
                        " = \"" + entry.text + "\": " + why);
}

// Runs a generator program with the test's seed as its last argument; its stdout is the test.
std::string run_generator(const std::string& command, const JudgeLimits& limits,
                          io::SandboxPool* pool, std::uint64_t seed) {
  const io::ProcessResult result = io::run_limited(command + " " + std::to_string(seed),
                                                   io::StdinText{""}, process_limits(limits), pool);
  if (result.end == io::ProcessEnd::interrupted)
    throw StopRequested{};
  if (result.end != io::ProcessEnd::exited || result.exit_status != 0 ||
      result.cpu_seconds > limits.time_limit_seconds) {
    std::string why = "the generator '" + command + "' failed";
    if (result.end == io::ProcessEnd::exited)
      why += " (exit status " + std::to_string(result.exit_status) + ")";
    else if (result.cpu_seconds > limits.time_limit_seconds)
      why += " (over the time limit)";
    if (!result.stderr_tail.empty())
      why += ": " + result.stderr_tail.substr(0, result.stderr_tail.find('\n'));
    throw std::runtime_error(why);
  }
  return result.output;
}

}  // namespace

GeneratorPrograms::GeneratorPrograms(JudgeLimits limits, io::LanguageTable languages,
                                     io::SandboxPool* sandbox, std::string cache_file,
                                     bool no_cache)
    : limits_(limits),
      languages_(std::move(languages)),
      sandbox_(sandbox),
      cache_file_(std::move(cache_file)),
      no_cache_(no_cache) {}

const std::filesystem::path& GeneratorPrograms::store() {
  if (!store_)
    store_.emplace(cache_file_, no_cache_);
  return store_->path();
}

EntryMaker GeneratorPrograms::run_entry_maker(const io::PackagePlan& plan,
                                              const io::PlanEntry& entry,
                                              const std::filesystem::path& root) {
  // "PROGRAM ARGS...": a source of the package is compiled; else a command as it is.
  const std::string program = entry.text.substr(0, entry.text.find(' '));
  const std::string rest =
      entry.text.size() > program.size() ? entry.text.substr(program.size()) : "";
  std::string command = entry.text;
  std::string recipe = "run " + entry.text;
  const std::filesystem::path source = root / program;
  std::error_code error;
  if (std::filesystem::exists(source, error) && io::language_of(languages_, source) != nullptr) {
    io::BuildSettings build;
    build.store = store();
    build.sandbox = sandbox_;
    const io::BuiltSolution built = io::build_solution(source, languages_, build);
    if (built.compile_error) {
      throw io::UsageError(plan.file.string() + ":" + std::to_string(entry.line) +
                           ": cannot compile " + program + ":\n" + *built.compile_error);
    }
    command = built.command + rest;
    recipe = "run " + built.key + rest;
  }
  EntryMaker maker;
  maker.recipe = recipe;
  maker.make = [command, limits = limits_, pool = sandbox_](std::uint64_t seed, std::int64_t) {
    return run_generator(command, limits, pool, seed);
  };
  return maker;
}

EntryMaker copy_entry_maker(const io::PackagePlan& plan, const io::PlanEntry& entry,
                            const std::filesystem::path& root) {
  std::string content;
  try {
    content = io::read_file(root / entry.text);
  } catch (const std::exception& error) {
    throw plan_error(plan, entry, "copy", error.what());
  }
  EntryMaker maker;
  maker.recipe = "copy " + io::hex(io::content_hash128({}, {content}));
  maker.make = [content](std::uint64_t, std::int64_t) { return content; };
  return maker;
}

EntryMaker gen_entry_maker(const io::PackagePlan& plan, const io::PlanEntry& entry) {
  GenEntryParser parser;
  io::GenerateOptions options;
  try {
    parser.app.parse(entry.text, false);
    options.cases_per_file = parser.cases_per_file;
    options.file_count = 1;
    options.out_dir = ".";
    options = checked_generate_options(plan.game, parser.game, std::move(options));
  } catch (const CLI::Error& error) {
    throw plan_error(plan, entry, "gen", error.what());
  }
  EntryMaker maker;
  maker.recipe = std::string("gen ") + kVersion + " " + entry.text;
  maker.make = [game = options.game, cases = options.cases_per_file](std::uint64_t seed,
                                                                     std::int64_t) {
    return io::generate_file_text(game, seed, 1, cases);
  };
  return maker;
}

std::vector<std::vector<EntryMaker>> make_entry_makers(const io::PackagePlan& plan,
                                                       const std::filesystem::path& root,
                                                       GeneratorPrograms& programs) {
  std::vector<std::vector<EntryMaker>> makers;
  for (const io::PlanGroup& group : plan.groups) {
    std::vector<EntryMaker>& of_group = makers.emplace_back();
    for (const io::PlanEntry& entry : group.tests) {
      switch (entry.kind) {
        case io::PlanEntry::Kind::gen:
          of_group.push_back(gen_entry_maker(plan, entry));
          break;
        case io::PlanEntry::Kind::copy:
          of_group.push_back(copy_entry_maker(plan, entry, root));
          break;
        case io::PlanEntry::Kind::run:
          of_group.push_back(programs.run_entry_maker(plan, entry, root));
          break;
      }
    }
  }
  return makers;
}

bool plan_runs_programs(const io::PackagePlan& plan) {
  for (const io::PlanGroup& group : plan.groups) {
    for (const io::PlanEntry& entry : group.tests) {
      if (entry.kind == io::PlanEntry::Kind::run)
        return true;
    }
  }
  return false;
}

}  // namespace gamebatch::pipeline
