// libFuzzer target: any bytes as a run config (`gamebatch run CONFIG.toml`) are read into jobs and
// settings or refused with ConfigError (naming the file), never another exception, a crash or a
// huge allocation. A config that reads has at least one job, each of a known game with existing
// input paths, and settings within their documented ranges.
//
// Inputs are expanded against a small tree of this process's own (the configs/ layout: demo/GAME
// and sets/GAME). A config whose `inputs` name an absolute path or a '..' component is skipped:
// its globs would walk the machine's file system, not the reader.
#include <toml++/toml.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "io/problem.hpp"
#include "pipeline/solve/run_config.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

namespace fs = std::filesystem;
namespace fuzz = gamebatch::fuzz;

// The directory a fuzzed config stands in, with input files to match (made once per process).
const fs::path& config_directory() {
  static const fs::path directory = [] {
    const fs::path root = fuzz::ScratchDirectory::path() / "configs";
    for (const char* file :
         {"demo/willow/sample.in", "demo/willow/large/path-3000.in", "demo/doublemove/examples.in",
          "demo/wallgame/examples.in", "demo/boigame/sample.in", "sets/willow/a.in",
          "sets/willow/b.txt", "sets/x/y/z/deep.in", ".hidden/h.in"}) {
      fs::create_directories((root / file).parent_path());
      fuzz::write_bytes(root / file, "1\n");
    }
    return root;
  }();
  return directory;
}

bool leaves_the_tree(std::string_view path) {
  if (path.starts_with('/'))
    return true;
  for (std::size_t begin = 0; begin <= path.size();) {
    std::size_t end = path.find('/', begin);
    if (end == std::string_view::npos)
      end = path.size();
    if (path.substr(begin, end - begin) == "..")
      return true;
    begin = end + 1;
  }
  return false;
}

// Whether any string under an `inputs` key (at any depth) leaves the tree.
bool inputs_leave_the_tree(const toml::node& node, bool under_inputs) {
  if (const auto* text = node.as_string())
    return under_inputs && leaves_the_tree(text->get());
  if (const auto* array = node.as_array()) {
    for (const toml::node& element : *array) {
      if (inputs_leave_the_tree(element, under_inputs))
        return true;
    }
  }
  if (const auto* table = node.as_table()) {
    for (const auto& [key, value] : *table) {
      if (inputs_leave_the_tree(value, under_inputs || key.str() == "inputs"))
        return true;
    }
  }
  return false;
}

void check_config(const gamebatch::pipeline::RunConfig& config) {
  const auto& settings = config.settings;
  if (config.jobs.empty() || settings.jobs < 0 || settings.jobs > (1 << 16) ||
      !std::isfinite(settings.checkpoint_seconds) || settings.checkpoint_seconds < 0 ||
      !std::isfinite(settings.cache_min_solve_us) || settings.cache_min_solve_us < 0 ||
      (settings.shard &&
       (settings.shard->index < 1 || settings.shard->index > settings.shard->count)))
    fuzz::fail("run_config: a config read with settings outside their ranges");
  for (const gamebatch::pipeline::SolveJob& job : config.jobs) {
    if (gamebatch::io::find_problem(job.problem) == nullptr || job.paths.empty())
      fuzz::fail("run_config: a job read without a known game or inputs");
    for (const std::string& path : job.paths) {
      std::error_code error;
      if (!fs::exists(path, error))
        fuzz::fail("run_config: a job read with an input that does not exist: " + path);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  const fs::path source = config_directory() / "run.toml";
  try {
    const toml::table root = toml::parse(text, std::string_view("run.toml"));
    if (inputs_leave_the_tree(root, false))
      return -1;  // not worth keeping in the corpus
  } catch (const toml::parse_error&) {
    // The reader must refuse it with a ConfigError, checked below.
  }
  try {
    check_config(gamebatch::pipeline::parse_run_config(text, source));
  } catch (const gamebatch::pipeline::ConfigError& error) {
    if (!std::string_view(error.what()).starts_with(source.string() + ":"))
      fuzz::fail(std::string("run_config: a ConfigError that does not name the file: ") +
                 error.what());
  } catch (const std::exception& error) {
    fuzz::fail(std::string("run_config: unexpected exception: ") + error.what());
  }
  return 0;
}
