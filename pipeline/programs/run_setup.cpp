#include "pipeline/programs/run_setup.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <system_error>
#include <utility>

#include <stdlib.h>

#include <spdlog/spdlog.h>

#include "core/stop_request.hpp"
#include "pipeline/machine.hpp"

namespace gamebatch::pipeline {

namespace {

// The sandbox's settings from the command line's: absolute binds, disk, files and processes.
io::SandboxSettings sandbox_settings(const JudgeSettings& judge) {
  io::SandboxSettings settings;
  for (const std::string& bind : judge.sandbox_binds)
    settings.binds.push_back(std::filesystem::absolute(bind).lexically_normal());
  settings.disk_bytes = judge.sandbox_disk << 20;
  settings.disk_files = kSandboxFiles;
  settings.max_processes = judge.max_processes;
  return settings;
}

}  // namespace

std::string sandbox_info_text(const JudgeSettings& judge, bool& available) {
  io::SandboxPool pool(sandbox_settings(judge), std::filesystem::current_path());
  const std::string problem = pool.probe();
  std::string text;
  std::string namespaces_allowed = "?";
  if (std::FILE* const file = std::fopen("/proc/sys/user/max_user_namespaces", "r")) {
    char line[32] = {};
    if (std::fgets(line, sizeof line, file) != nullptr)
      namespaces_allowed = std::string(line).substr(0, std::string(line).find('\n'));
    std::fclose(file);
  }
  const std::filesystem::path helper = io::sandbox_helper();
  text += "sandbox: " +
          (problem.empty() ? std::string("available: check and stress run every "
                                         "program in one (--no-sandbox: not)")
                           : "NOT available: " + problem) +
          "\n";
  text +=
      "  helper: " + (helper.empty() ? std::string("gamebatch-box not found") : helper.string()) +
      "\n";
  text += "  user namespaces allowed (/proc/sys/user/max_user_namespaces): " + namespaces_allowed +
          "\n";
  text +=
      std::string("  identity: nobody (uid 65534) inside; outside: ") +
      (::geteuid() == 0 ? "nobody (gamebatch runs as root)"
                        : "uid " + std::to_string(::geteuid()) + " (the user; no root needed)") +
      "\n";
  text +=
      "  namespaces: user, mount, PID, network (no interface up: no route anywhere), IPC, UTS\n";
  text +=
      "  file system: read-only /usr /bin /lib* and parts of /etc, /dev/{null,zero,random,"
      "urandom},\n    its own /proc, the files the command names and --sandbox-bind paths\n";
  text += "  scratch (working directory and /tmp): " + std::to_string(judge.sandbox_disk) +
          " MiB, " + std::to_string(kSandboxFiles) + " files, new for every run that changed it\n";
  text += "  processes and threads: at most " + std::to_string(judge.max_processes) +
          " per run; all of a run's end with it (also when gamebatch is killed)\n";
  if (problem.empty())
    text += "  memory (--memory-limit): " + pool.memory_guard() + "\n";
  if (problem.empty())
    text += std::string("  SysV IPC: ") +
            (pool.sysv_ipc_cleared_per_run() ? "what a run made is removed after it"
                                             : "switched off in the box") +
            "\n";
  available = problem.empty();
  return text;
}

bool make_sandbox(const JudgeSettings& judge, std::unique_ptr<io::SandboxPool>& pool) {
  if (judge.no_sandbox)
    return true;
  io::SandboxSettings settings = sandbox_settings(judge);
  for (const std::filesystem::path& bind : settings.binds) {
    if (bind == "/" || bind == "/tmp") {
      spdlog::error(
          "--sandbox-bind {}: the box cannot show it whole (it has its own {}); name "
          "what below it the programs need",
          bind.string(), bind == "/" ? "root" : "/tmp");
      return false;
    }
  }
  pool = std::make_unique<io::SandboxPool>(std::move(settings), std::filesystem::current_path());
  if (const std::string problem = pool->probe(); !problem.empty()) {
    spdlog::error(
        "{}; the programs cannot be contained here (are user namespaces switched off? "
        "gamebatch check --sandbox-info tells more). --no-sandbox runs them uncontained, with "
        "all the rights of the user running gamebatch",
        problem);
    return false;
  }
  return true;
}

nlohmann::json sandbox_json(const JudgeSettings& judge, const io::SandboxPool* pool) {
  if (pool == nullptr)
    return {{"enabled", false},
            {"guards",
             "none but limits: the programs ran as the user running gamebatch, each in a process "
             "group killed whole at its end and on a limit"}};
  nlohmann::json binds = nlohmann::json::array();
  for (const std::filesystem::path& bind : pool->settings().binds)
    binds.push_back(bind.string());
  return {{"enabled", true},
          {"namespaces", {"user", "mount", "pid", "network", "ipc", "uts"}},
          {"identity",
           ::geteuid() == 0 ? "nobody inside and outside" : "nobody inside, the user outside"},
          {"network", "none (an empty network namespace)"},
          {"file_system", "read-only system view, the files the commands name, sandbox_binds"},
          {"sandbox_binds", binds},
          {"disk_limit_mb", judge.sandbox_disk},
          {"disk_files", kSandboxFiles},
          {"max_processes", judge.max_processes},
          {"memory", pool->memory_guard()},
          {"sysv_ipc", pool->sysv_ipc_cleared_per_run() ? "removed after each run" : "off"},
          {"leftovers", "none: a run's processes end with its PID namespace"}};
}

JudgeLimits judge_limits(const JudgeSettings& judge) {
  JudgeLimits limits;
  limits.time_limit_seconds = judge.time_limit;
  limits.memory_limit_bytes = judge.memory_limit << 20;
  limits.output_limit_bytes = judge.output_limit << 20;
  return limits;
}

nlohmann::json limits_json(const JudgeSettings& judge) {
  return {{"time_limit_seconds", judge.time_limit},
          {"memory_limit_mb",
           judge.memory_limit == 0 ? nlohmann::json(nullptr) : nlohmann::json(judge.memory_limit)},
          {"output_limit_mb", judge.output_limit},
          {"jobs", judge.jobs}};
}

bool load_languages(const JudgeSettings& judge, io::LanguageTable& languages) {
  languages = io::default_languages();
  if (judge.languages_file.empty())
    return true;
  try {
    io::load_languages_file(languages, judge.languages_file);
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return false;
  }
  return true;
}

CompiledStore::CompiledStore(const std::string& cache_file_name, bool no_cache) {
  std::optional<std::filesystem::path> cache_file;
  if (!no_cache)
    cache_file = cache_file_name.empty() ? default_cache_path()
                                         : std::optional(std::filesystem::path(cache_file_name));
  if (cache_file) {
    path_ = io::compiled_store_beside(*cache_file);
    in_use_.emplace(path_);
    return;
  }
  std::string pattern =
      (std::filesystem::temp_directory_path() / "gamebatch-compiled-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::system_error(errno, std::generic_category(), "cannot make " + pattern);
  path_ = pattern;
  temporary_ = true;
}

CompiledStore::~CompiledStore() {
  if (temporary_) {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
}

io::ProcessLimits process_limits(const JudgeLimits& limits) {
  io::ProcessLimits process;
  process.cpu_seconds = limits.stop_factor * limits.time_limit_seconds;
  process.wall_seconds = 3 * limits.time_limit_seconds + 1;
  process.memory_bytes = limits.memory_limit_bytes;
  process.output_bytes = limits.output_limit_bytes;
  return process;
}

void run_at_once(std::size_t count, std::size_t jobs, const std::function<void(std::size_t)>& run) {
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    try {
      for (std::size_t k = next++; k < count && !stop_requested(); k = next++)
        run(k);
    } catch (const StopRequested&) {
      // The run in progress was abandoned; the others see the request before they start.
    }
  };
  std::vector<std::thread> workers;
  for (std::size_t t = 1; t < std::min(std::max<std::size_t>(jobs, 1), count); ++t)
    workers.emplace_back(worker);
  worker();
  for (std::thread& thread : workers)
    thread.join();
}

CommandClock::CommandClock()
    : started_(std::chrono::steady_clock::now()), compiling_before_(io::compiling_seconds()) {}

CommandTime CommandClock::elapsed() const {
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count(),
          io::compiling_seconds() - compiling_before_};
}

std::string time_text(const CommandTime& time) {
  char text[96];
  if (time.compiling_seconds > 0) {
    std::snprintf(text, sizeof text, "time: %.3f s (compiling %.3f s)", time.seconds,
                  time.compiling_seconds);
  } else {
    std::snprintf(text, sizeof text, "time: %.3f s", time.seconds);
  }
  return text;
}

}  // namespace gamebatch::pipeline
