#include "pipeline/solve/explain_job.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

#include <oneapi/tbb/task_arena.h>
#include <spdlog/spdlog.h>

#include "core/stop_request.hpp"
#include "io/files/atomic_file.hpp"
#include "io/files/input_set.hpp"
#include "io/format/input_error.hpp"
#include "io/problem.hpp"

namespace gamebatch::pipeline {
namespace {

// The file's cases as canonical texts; nullopt (the error logged) when it cannot be read or is no
// input of the game.
std::optional<std::vector<std::string>> read_cases(const io::Problem& problem,
                                                   const std::string& path) {
  std::string text;
  try {
    text = io::read_file(path);
  } catch (const std::system_error& error) {
    spdlog::error("{}: {}", path, error.what());
    return std::nullopt;
  }
  try {
    std::vector<std::string> cases;
    for (const std::unique_ptr<io::Case>& one : problem.parse(text))
      cases.push_back(one->canonical());
    return cases;
  } catch (const io::InputError& error) {
    spdlog::error("{}:{}: {} (is it a {} input?)", path, error.line(), error.what(),
                  problem.name());
    return std::nullopt;
  }
}

// Whether `path` can be written: its directory exists and a file can be created there (it is
// removed again). Checked before any work, so that a bad -o costs nothing.
bool writable(const std::string& path) {
  const std::filesystem::path target(path);
  // Appended, not "." + name: that trips GCC 12's -Wrestrict.
  std::string probe_name = ".";
  probe_name += target.filename().string();
  probe_name += ".gamebatch-probe";
  const std::filesystem::path probe = target.parent_path() / probe_name;
  std::FILE* file = std::fopen(probe.c_str(), "wb");
  if (file == nullptr || std::filesystem::is_directory(target)) {
    if (file != nullptr) {
      std::fclose(file);
      std::filesystem::remove(probe);
    }
    spdlog::error("{}: cannot be written", path);
    return false;
  }
  std::fclose(file);
  std::filesystem::remove(probe);
  return true;
}

// The case the settings name among `count`, 0-based; nullopt (logged) when out of range.
std::optional<std::size_t> chosen_case(const ExplainSettings& settings, std::size_t count) {
  const std::size_t wanted = settings.case_number.value_or(1);
  if (wanted < 1 || wanted > count) {
    spdlog::error("{} has {} cases; --case {} is out of range", settings.path, count, wanted);
    return std::nullopt;
  }
  return wanted - 1;
}

// Writes the picture to the settings' svg_file, whole or not at all.
Outcome write_picture(const ExplainSettings& settings, const std::string& picture) {
  try {
    io::write_file_atomically(settings.svg_file, picture);
  } catch (const std::exception& error) {
    spdlog::error("{}: {}", settings.svg_file, error.what());
    return Outcome::usage_error;
  }
  return Outcome::done;
}

}  // namespace

Outcome draw_case(const ExplainSettings& settings) {
  const io::Problem* problem = io::find_problem(settings.problem);
  if (problem == nullptr) {
    spdlog::error("unknown game {}", settings.problem);
    return Outcome::usage_error;
  }
  if (!writable(settings.svg_file))
    return Outcome::usage_error;
  const std::optional<std::vector<std::string>> cases = read_cases(*problem, settings.path);
  if (!cases)
    return Outcome::usage_error;
  const std::optional<std::size_t> chosen = chosen_case(settings, cases->size());
  if (!chosen)
    return Outcome::usage_error;
  std::string picture;
  try {
    tbb::task_arena arena(settings.jobs > 0 ? settings.jobs : tbb::task_arena::automatic);
    picture = arena.execute([&] { return problem->draw((*cases)[*chosen]); });
  } catch (const std::invalid_argument& error) {
    spdlog::error("{}: case {}: {}", settings.path, *chosen + 1, error.what());
    return Outcome::failed;
  }
  return write_picture(settings, picture);
}

Outcome explain_cases(const ExplainSettings& settings,
                      const std::function<void(const std::string& text)>& on_case) {
  const io::Problem* problem = io::find_problem(settings.problem);
  if (problem == nullptr) {
    spdlog::error("unknown game {}", settings.problem);
    return Outcome::usage_error;
  }
  const std::optional<std::vector<std::string>> cases = read_cases(*problem, settings.path);
  if (!cases)
    return Outcome::usage_error;
  std::size_t first = 0;
  std::size_t last = cases->size();
  if (settings.case_number) {
    const std::optional<std::size_t> chosen = chosen_case(settings, cases->size());
    if (!chosen)
      return Outcome::usage_error;
    first = *chosen;
    last = first + 1;
  }
  // The case drawn with --svg (the one named, or the first), explained and drawn from one solve.
  std::optional<std::size_t> drawn;
  if (!settings.svg_file.empty()) {
    drawn = chosen_case(settings, cases->size());
    if (!drawn || !writable(settings.svg_file))
      return Outcome::usage_error;
  }
  Outcome outcome = Outcome::done;
  std::string picture;
  tbb::task_arena arena(settings.jobs > 0 ? settings.jobs : tbb::task_arena::automatic);
  for (std::size_t k = first; k < last; ++k) {
    throw_if_stop_requested();
    const std::string header = "Case #" + std::to_string(k + 1) + ":\n";
    try {
      if (drawn == k) {
        io::Problem::Explained both =
            arena.execute([&] { return problem->explain_and_draw((*cases)[k]); });
        on_case(header + both.text);
        picture = std::move(both.svg);
      } else {
        on_case(header + arena.execute([&] { return problem->explain((*cases)[k]); }));
      }
    } catch (const std::invalid_argument& error) {
      outcome = Outcome::failed;
      spdlog::error("{}: case {}: {}", settings.path, k + 1, error.what());
    }
  }
  if (drawn && outcome == Outcome::done)
    outcome = write_picture(settings, picture);
  return outcome;
}

}  // namespace gamebatch::pipeline
