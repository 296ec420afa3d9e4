#include "pipeline/solve/run_config.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <sstream>
#include <system_error>
#include <utility>

#include <spdlog/spdlog.h>
#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "io/files/input_set.hpp"
#include "io/files/problem_package.hpp"
#include "io/files/shard.hpp"
#include "io/problem.hpp"
#include "io/run/solution_build.hpp"
#include "pipeline/machine.hpp"

namespace gamebatch::pipeline {

namespace fs = std::filesystem;

bool has_wildcards(std::string_view pattern) {
  return pattern.find_first_of("*?[") != std::string_view::npos;
}

namespace {

// The empty path stands for the working directory, which directory_iterator cannot open as "".
fs::path openable(const fs::path& path) {
  return path.empty() ? fs::path(".") : path;
}

bool is_existing_directory(const fs::path& path) {
  std::error_code error;
  return fs::is_directory(openable(path), error);
}

void sort_unique(std::vector<fs::path>& paths) {
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
}

// What `**` matches below `directory`: every directory, however deep, except hidden ones (as `*`
// does not match them) and symbolic links (a link to an ancestor would never end). Unreadable
// directories are skipped, as glob(3) does.
void add_directories_below(const fs::path& directory, std::vector<fs::path>& found) {
  std::error_code error;
  for (fs::directory_iterator entries(openable(directory), error), end; !error && entries != end;
       entries.increment(error)) {
    const std::string name = entries->path().filename().string();
    std::error_code status_error;
    if (name.starts_with('.') || entries->is_symlink(status_error) ||
        !entries->is_directory(status_error))
      continue;
    found.push_back(directory / name);
    add_directories_below(directory / name, found);
  }
}

// The entries of `directory` whose name fnmatch(3) matches with `component`.
void add_matching_entries(const fs::path& directory, const std::string& component,
                          std::vector<fs::path>& found) {
  std::error_code error;
  for (fs::directory_iterator entries(openable(directory), error), end; !error && entries != end;
       entries.increment(error)) {
    const std::string name = entries->path().filename().string();
    if (::fnmatch(component.c_str(), name.c_str(), FNM_PERIOD) == 0)
      found.push_back(directory / name);
  }
}

}  // namespace

std::vector<fs::path> expand_glob(std::string_view pattern, const fs::path& base) {
  std::vector<std::string> components;
  for (std::size_t begin = 0; begin <= pattern.size();) {
    std::size_t end = pattern.find('/', begin);
    if (end == std::string_view::npos)
      end = pattern.size();
    const std::string_view component = pattern.substr(begin, end - begin);
    if (!component.empty() && component != ".")
      components.emplace_back(component);
    begin = end + 1;
  }
  std::vector<fs::path> matches = {pattern.starts_with('/') ? fs::path("/") : base};
  for (const std::string& component : components) {
    std::vector<fs::path> next;
    for (const fs::path& path : matches) {
      if (component == "**") {
        if (is_existing_directory(path)) {
          next.push_back(path);
          add_directories_below(path, next);
        }
      } else if (!has_wildcards(component)) {
        std::error_code error;
        if (fs::exists(openable(path) / component, error))
          next.push_back(path / component);
      } else if (is_existing_directory(path)) {
        add_matching_entries(path, component, next);
      }
    }
    // `**/**` reaches a directory along several ways; keep each once.
    sort_unique(next);
    matches = std::move(next);
  }
  std::vector<fs::path> found;
  for (fs::path& path : matches) {
    std::error_code error;
    if (!fs::exists(openable(path), error))
      continue;
    if (pattern.ends_with('/') && !is_existing_directory(path))
      continue;
    found.push_back(path.empty() ? fs::path(".") : std::move(path));
  }
  sort_unique(found);
  return found;
}

namespace {

constexpr std::array<std::string_view, 13> kSettingKeys = {
    "jobs",          "cache",     "strict_cache", "checkpoint", "cache_min_solve_us",
    "memory_budget", "report",    "html",         "quiet",      "shard",
    "layout",        "languages", "job"};
constexpr std::array<std::string_view, 4> kJobKeys = {"game", "inputs", "out", "layout"};
constexpr std::int64_t kMaxJobs = 1 << 16;  // as --jobs
constexpr double kMaxCheckpointSeconds = 1e9;

template <std::size_t N>
std::string join(const std::array<std::string_view, N>& words) {
  std::string text;
  for (std::string_view word : words)
    text += (text.empty() ? "" : ", ") + std::string(word);
  return text;
}

std::string game_names() {
  std::string text;
  for (const io::Problem* problem : io::all_problems())
    text += (text.empty() ? "" : ", ") + std::string(problem->name());
  return text;
}

// A string as it would be written in the config (double quotes, escapes).
std::string toml_quoted(std::string_view text) {
  std::string result = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      result += '\\';
      result += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(c));
      result += escape;
    } else {
      result += c;
    }
  }
  return result + "\"";
}

// The value that was found where another was expected, for messages.
std::string describe(const toml::node& node) {
  if (const auto* string = node.as_string())
    return toml_quoted(string->get());
  if (node.is_table())
    return "a table";
  if (node.is_array())
    return "an array";
  std::ostringstream text;
  if (const auto* integer = node.as_integer()) {
    text << integer->get();
  } else if (const auto* flag = node.as_boolean()) {
    text << (flag->get() ? "true" : "false");
  } else if (const auto* number = node.as_floating_point()) {
    text << *number;  // as TOML writes it: 1.5, inf, nan
  } else if (const auto* date = node.as_date()) {
    text << *date;
  } else if (const auto* time = node.as_time()) {
    text << *time;
  } else if (const auto* date_time = node.as_date_time()) {
    text << *date_time;
  }
  return text.str();
}

bool before(const toml::source_position& a, const toml::source_position& b) {
  return a.line != b.line ? a.line < b.line : a.column < b.column;
}

// Reads a parsed config; every failure throws a ConfigError naming the file, the line and the key.
class ConfigReader {
 public:
  explicit ConfigReader(const fs::path& source)
      : file_(source.string()), base_(source.parent_path()) {}

  [[noreturn]] void fail(const toml::source_region& where, std::string_view what) const {
    std::string message = file_;
    if (where.begin.line > 0)
      message += ":" + std::to_string(where.begin.line);
    message += ": ";
    message += context_;
    message += what;
    throw ConfigError(message);
  }
  [[noreturn]] void fail(const toml::node& node, std::string_view what) const {
    fail(node.source(), what);
  }

  RunConfig read(const toml::table& root) {
    reject_unknown_keys(root, kSettingKeys);
    RunConfig config;
    read_cache_settings(root, config.settings);
    read_output_settings(root, config.settings);
    // Not a setting of RunSettings: the jobs take it, each unless it names its own.
    if (const toml::node* node = root.get("layout"))
      default_layout_ = layout_of(*node);
    check_languages(root);
    config.jobs = read_jobs(root);
    return config;
  }

 private:
  // jobs, cache, strict_cache, checkpoint, cache_min_solve_us and memory_budget.
  void read_cache_settings(const toml::table& root, RunSettings& settings) const {
    if (const toml::node* node = root.get("jobs")) {
      const auto* value = node->as_integer();
      if (value == nullptr || value->get() < 0 || value->get() > kMaxJobs) {
        // `jobs` is the thread count; [[jobs]] is an easy slip for [[job]].
        fail(*node, "'jobs' must be an integer from 0 to " + std::to_string(kMaxJobs) + ", found " +
                        describe(*node) +
                        (node->is_array() ? " (the jobs themselves are [[job]] tables)" : ""));
      }
      settings.jobs = static_cast<int>(value->get());
    }
    if (const toml::node* node = root.get("cache")) {
      if (const auto* flag = node->as_boolean(); flag != nullptr && !flag->get()) {
        settings.no_cache = true;
      } else if (node->is_string()) {
        settings.cache_file = path_of(*node, "cache", "a file name");
      } else {
        // `true` too: leaving the key out is how to ask for the default location.
        fail(*node,
             "'cache' must be a file name or false (no cache; leave it out for the "
             "default location), found " +
                 describe(*node));
      }
    }
    if (const toml::node* node = root.get("strict_cache"))
      settings.strict_cache = boolean(*node, "strict_cache");
    if (const toml::node* node = root.get("checkpoint")) {
      std::optional<double> seconds;
      if (const auto* number = node->as_floating_point())
        seconds = number->get();
      else if (const auto* integer = node->as_integer())  // as good as a float here
        seconds = static_cast<double>(integer->get());
      if (!seconds || !std::isfinite(*seconds) || *seconds < 0 || *seconds > kMaxCheckpointSeconds)
        fail(*node,
             "'checkpoint' must be a number of seconds from 0 to 1000000000 (0: at the "
             "end only), found " +
                 describe(*node));
      settings.checkpoint_seconds = *seconds;
    }
    if (const toml::node* node = root.get("cache_min_solve_us")) {
      std::optional<double> microseconds;
      if (const auto* number = node->as_floating_point())
        microseconds = number->get();
      else if (const auto* integer = node->as_integer())
        microseconds = static_cast<double>(integer->get());
      if (!microseconds || !std::isfinite(*microseconds) || *microseconds < 0 ||
          *microseconds > kMaxCheckpointSeconds) {
        fail(*node,
             "'cache_min_solve_us' must be a number of microseconds from 0 to 1000000000 (0: "
             "cache every case), found " +
                 describe(*node));
      }
      settings.cache_min_solve_us = *microseconds;
    }
    if (const toml::node* node = root.get("memory_budget")) {
      // A size as on the command line ("3G", "3Gi"), or a number of bytes.
      std::optional<std::uint64_t> bytes;
      if (const auto* text = node->as_string())
        bytes = parse_size(text->get());
      else if (const auto* integer = node->as_integer(); integer != nullptr && integer->get() >= 0)
        bytes = static_cast<std::uint64_t>(integer->get());
      if (!bytes)
        fail(*node,
             "'memory_budget' must be a size such as \"3G\" or \"3Gi\", or a number of bytes "
             "(0: no bound), found " +
                 describe(*node));
      settings.memory_budget = bytes;
    }
  }

  // report, html, quiet and shard.
  void read_output_settings(const toml::table& root, RunSettings& settings) const {
    if (const toml::node* node = root.get("report"))
      settings.report_file = path_of(*node, "report", "a file name");
    if (const toml::node* node = root.get("html"))
      settings.html_file = path_of(*node, "html", "a file name");
    if (const toml::node* node = root.get("quiet"))
      settings.quiet = boolean(*node, "quiet");
    if (const toml::node* node = root.get("shard")) {
      if (const auto* text = node->as_string())
        settings.shard = io::parse_shard(text->get());
      if (!settings.shard)
        fail(*node, "'shard' must be \"I/N\" with 1 <= I <= N, found " + describe(*node));
    }
  }

  // How `check --languages CONFIG` compiles sources: checked here too, so that a config's
  // mistake shows wherever the config is read.
  void check_languages(const toml::table& root) const {
    if (const toml::node* node = root.get("languages")) {
      const toml::table* languages = node->as_table();
      if (languages == nullptr)
        fail(*node,
             "'languages' must be a table ([languages.cpp] compile = ..., run = ...), "
             "found " +
                 describe(*node));
      io::LanguageTable table = io::default_languages();
      try {
        io::apply_languages_config(table, *languages, file_);
      } catch (const std::runtime_error& error) {
        throw ConfigError(error.what());
      }
    }
  }

  std::vector<SolveJob> read_jobs(const toml::table& root) {
    const toml::node* job_node = root.get("job");
    if (job_node == nullptr)
      fail(toml::source_region{},
           "no [[job]]: a config needs at least one [[job]] table with game and "
           "inputs");
    const toml::array* job_tables = job_node->as_array();
    if (job_tables == nullptr || job_tables->empty() || !job_tables->is_array_of_tables())
      fail(*job_node, "'job' must be one or more [[job]] tables, found " + describe(*job_node));
    std::vector<SolveJob> jobs;
    for (std::size_t index = 0; index < job_tables->size(); ++index) {
      context_ = "job " + std::to_string(index + 1) + ": ";
      jobs.push_back(read_job(*job_tables->get(index)->as_table()));
    }
    context_.clear();
    return jobs;
  }

  template <std::size_t N>
  void reject_unknown_keys(const toml::table& table, const std::array<std::string_view, N>& known) {
    // Tables iterate in key order: report the first unknown key of the file.
    const toml::key* unknown = nullptr;
    for (const auto& [key, value] : table) {
      if (std::find(known.begin(), known.end(), key.str()) == known.end() &&
          (unknown == nullptr || before(key.source().begin, unknown->source().begin)))
        unknown = &key;
    }
    if (unknown != nullptr)
      fail(unknown->source(),
           "unknown key '" + std::string(unknown->str()) + "' (expected " + join(known) + ")");
  }

  io::Layout layout_of(const toml::node& node) const {
    std::optional<io::Layout> layout;
    if (const auto* name = node.as_string())
      layout = io::parse_layout(name->get());
    if (!layout)
      fail(node,
           "'layout' must be \"kattis\", \"polygon\" or \"cms\" (leave it out to detect each "
           "package's layout), found " +
               describe(node));
    return *layout;
  }

  bool boolean(const toml::node& node, std::string_view key) const {
    const auto* value = node.as_boolean();
    if (value == nullptr)
      fail(node, "'" + std::string(key) + "' must be true or false, found " + describe(node));
    return value->get();
  }

  // A path of the config (`what` it names), relative to the config's directory unless absolute.
  std::string path_of(const toml::node& node, std::string_view key, std::string_view what) const {
    const auto* value = node.as_string();
    if (value == nullptr || value->get().empty())
      fail(node, "'" + std::string(key) + "' must be " + std::string(what) +
                     " (a non-empty string), found " + describe(node));
    const fs::path path = value->get();
    return (path.is_absolute() ? path : base_ / path).string();
  }

  SolveJob read_job(const toml::table& table) {
    reject_unknown_keys(table, kJobKeys);
    SolveJob job;
    const toml::node* game = table.get("game");
    if (game == nullptr)
      fail(table.source(), "missing 'game' (one of " + game_names() + ")");
    const auto* game_name = game->as_string();
    if (game_name == nullptr || io::find_problem(game_name->get()) == nullptr)
      fail(*game, "'game' must be one of " + game_names() + ", found " + describe(*game));
    job.problem = game_name->get();

    const toml::node* inputs = table.get("inputs");
    if (inputs == nullptr)
      fail(table.source(), "missing 'inputs' (an array of input files, directories and globs)");
    const toml::array* entries = inputs->as_array();
    if (entries == nullptr || entries->empty())
      fail(*inputs,
           "'inputs' must be a non-empty array of input files, directories and globs, "
           "found " +
               describe(*inputs));
    for (const toml::node& entry : *entries) {
      const auto* text = entry.as_string();
      if (text == nullptr || text->get().empty())
        fail(entry,
             "'inputs' entries must be input files, directories or globs (non-empty "
             "strings), found " +
                 describe(entry));
      const std::string& pattern = text->get();
      const std::vector<fs::path> matches = expand_glob(pattern, base_);
      if (matches.empty()) {
        const fs::path looked_for =
            fs::path(pattern).is_absolute() ? fs::path(pattern) : base_ / fs::path(pattern);
        fail(entry,
             "'inputs' entry " + toml_quoted(pattern) +
                 (has_wildcards(pattern) ? " matches nothing" : " does not exist") +
                 (looked_for == fs::path(pattern) ? std::string()
                                                  : " (looked for " + looked_for.string() + ")"));
      }
      // Each input path once, where it first appears.
      for (const fs::path& match : matches) {
        if (std::find(job.paths.begin(), job.paths.end(), match.string()) == job.paths.end())
          job.paths.push_back(match.string());
      }
    }

    if (const toml::node* out = table.get("out"))
      job.out_dir = path_of(*out, "out", "a directory name");
    job.layout = default_layout_;
    if (const toml::node* layout = table.get("layout"))
      job.layout = layout_of(*layout);
    return job;
  }

  std::string file_;
  fs::path base_;
  std::string context_;                       // "job 2: " while reading a job
  std::optional<io::Layout> default_layout_;  // the top-level `layout`
};

}  // namespace

RunConfig parse_run_config(std::string_view text, const fs::path& source) {
  toml::table root;
  try {
    root = toml::parse(text, std::string_view(source.string()));
  } catch (const toml::parse_error& error) {
    throw ConfigError(source.string() + ":" + std::to_string(error.source().begin.line) +
                      ": not valid TOML: " + std::string(error.description()) + " (column " +
                      std::to_string(error.source().begin.column) + ")");
  }
  return ConfigReader(source).read(root);
}

RunConfig load_run_config(const fs::path& file) {
  std::string text;
  try {
    text = io::read_file(file);
  } catch (const std::system_error& error) {
    throw ConfigError(file.string() + ": " + error.what());
  }
  return parse_run_config(text, file);
}

}  // namespace gamebatch::pipeline
