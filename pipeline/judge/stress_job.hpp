// The engine of `gamebatch stress`: from the command line's settings to a counterexample. It
// narrows the draws to a package group's limits (--package, --group), makes the sandbox, compiles
// a source once (solutions.hpp), runs the search and the shrinking (stress_run.hpp), and writes
// the counterexample's files and the HTML page.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "io/files/generate.hpp"
#include "pipeline/engines.hpp"
#include "pipeline/judge/solutions.hpp"
#include "pipeline/judge/stress_run.hpp"
#include "pipeline/machine.hpp"
#include "pipeline/programs/run_setup.hpp"

namespace gamebatch::pipeline {

struct StressJobSettings {
  std::string problem;   // the game's name
  std::string solution;  // a source, a directory of sources, or a shell command
  std::int64_t count = 1000;
  std::uint64_t seed = 1;
  std::string out_dir = ".";  // where counterexample.in and .ans go
  std::string html_file;      // empty: no HTML page
  JudgeSettings judge;
  io::GameOptions game;         // the generator's options, checked
  nlohmann::json game_options;  // the game options as given, for the page
  std::string package;          // a package whose plan holds `group`
  std::string group;            // empty: the statement's limits only
};

class StressJob {
 public:
  explicit StressJob(StressJobSettings settings);
  ~StressJob();
  StressJob(const StressJob&) = delete;
  StressJob& operator=(const StressJob&) = delete;

  // Everything before the first case, on the threads of --jobs: done when the search can run;
  // otherwise what it stops with, after saying why (failed: interrupted while compiling, or the
  // source does not compile: compile_error() says so).
  Outcome prepare();
  // The compiler's output when the solution's source does not compile.
  const std::optional<std::string>& compile_error() const { return compile_error_; }
  // Searches and shrinks.
  const StressResult& run();
  // Writes the --html page; false (after saying why) when it cannot.
  bool write_page() const;
  // The shrunk case's expected answers, as an answer file holds them.
  std::string counterexample_answers() const;
  // Writes DIR/counterexample.in and .ans; false (after saying why) when they cannot be written.
  bool write_counterexample() const;
  std::filesystem::path input_path() const;
  std::filesystem::path answer_path() const;

 private:
  bool narrow_to_group();
  Outcome compile_solution();

  StressJobSettings settings_;
  std::optional<WorkResources> resources_;
  StressOptions options_;
  std::unique_ptr<io::SandboxPool> sandbox_;
  std::optional<CompiledStore> store_;
  std::optional<std::string> compile_error_;
  StressResult result_;
};

}  // namespace gamebatch::pipeline
