#include "tools/cli.hpp"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <unistd.h>

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "core/stop_request.hpp"
#include "io/doublemove/table.hpp"
#include "io/problem.hpp"
#include "io/run/stop_signals.hpp"
#include "pipeline/terminal_text.hpp"
#include "tools/cache_commands.hpp"
#include "tools/gen_command.hpp"
#include "tools/run_config.hpp"
#include "tools/setter_commands.hpp"
#include "tools/solve_command.hpp"
#include "tools/version.hpp"

namespace gamebatch::cli {
namespace {

// Log lines carry other people's text (a compiler's messages, a solution's name, an input's
// path): the message is made terminal-safe before the stderr sink formats it.
class TerminalSafeSink final : public spdlog::sinks::sink {
 public:
  explicit TerminalSafeSink(std::shared_ptr<spdlog::sinks::sink> inner)
      : inner_(std::move(inner)) {}

  void log(const spdlog::details::log_msg& message) override {
    const std::string_view payload(message.payload.data(), message.payload.size());
    if (pipeline::is_terminal_safe(payload)) {
      inner_->log(message);
      return;
    }
    const std::string safe = pipeline::terminal_safe(payload);
    spdlog::details::log_msg copy = message;
    copy.payload = spdlog::string_view_t(safe.data(), safe.size());
    inner_->log(copy);
  }
  void flush() override { inner_->flush(); }
  void set_pattern(const std::string& pattern) override { inner_->set_pattern(pattern); }
  void set_formatter(std::unique_ptr<spdlog::formatter> formatter) override {
    inner_->set_formatter(std::move(formatter));
  }

 private:
  std::shared_ptr<spdlog::sinks::sink> inner_;
};

void set_up_logging() {
  // A locking sink: the cache checkpoints log from a thread.
  auto logger = std::make_shared<spdlog::logger>(
      "gamebatch",
      std::make_shared<TerminalSafeSink>(std::make_shared<spdlog::sinks::stderr_sink_mt>()));
  logger->set_pattern(kLogPattern);
  spdlog::set_default_logger(logger);
}

struct TableArguments {
  std::string game;
  int max_n = 0;
  std::string format = "cpp";
  int jobs = 0;
};

void add_table_command(CLI::App& app, TableArguments& arguments) {
  CLI::App* table = app.add_subcommand(
      "table", "Print a game's hardcoded answer table (for a reference solution) on stdout");
  table->footer(
      "doublemove: the k = 0 answers for n = 1..N (no declaration given), as a C++17 header\n"
      "with a constexpr array indexed by n, as JSON, or as CSV.");
  table->add_option("GAME", arguments.game, "The game: doublemove")
      ->required()
      ->type_name("")
      ->check(CLI::IsMember({"doublemove"}));
  table
      ->add_option("--max-n", arguments.max_n,
                   "The largest n in the table (at most " +
                       std::to_string(gamebatch::doublemove::kMaxN) + ")")
      ->required()
      ->type_name("N")
      ->check(CLI::Range(1, gamebatch::doublemove::kMaxN));
  table
      ->add_option("--jobs,-j", arguments.jobs,
                   "Threads to use at most (0, the default: all cores). The table is the same for\n"
                   "every N.")
      ->type_name("N")
      ->check(CLI::Range(0, 1 << 16));
  table->add_option("--format", arguments.format, "cpp, json or csv")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"cpp", "json", "csv"}))
      ->capture_default_str();
}

int run_table(const TableArguments& arguments) {
  const auto format = io::doublemove::parse_table_format(arguments.format);
  tbb::global_control thread_limit(tbb::global_control::max_allowed_parallelism,
                                   thread_count(arguments.jobs));
  try {
    std::fputs(io::doublemove::k0_table(arguments.max_n, *format, kVersion).c_str(), stdout);
  } catch (const StopRequested&) {
    spdlog::error("table: interrupted before the table was whole; nothing written");
    return kExitRejected;  // the caller reports 128 + the signal
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return kExitUsage;
  }
  return std::fflush(stdout) == 0 ? kExitSolved : kExitRejected;
}

}  // namespace

std::size_t thread_count(int jobs) {
  return static_cast<std::size_t>(jobs > 0 ? jobs : tbb::info::default_concurrency());
}

std::optional<std::uint64_t> parse_size(std::string_view text) {
  std::uint64_t number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end == text.data())
    return std::nullopt;
  std::string_view suffix(end, static_cast<std::size_t>(text.data() + text.size() - end));
  const bool binary = suffix.size() == 2 && (suffix[1] == 'i' || suffix[1] == 'I');
  if (!suffix.empty() && suffix.size() != 1 && !binary)
    return std::nullopt;
  std::uint64_t unit = 1;
  if (!suffix.empty()) {
    const std::uint64_t base = binary ? 1024 : 1000;
    switch (suffix[0]) {
      case 'k':
      case 'K':
        unit = base;
        break;
      case 'm':
      case 'M':
        unit = base * base;
        break;
      case 'g':
      case 'G':
        unit = base * base * base;
        break;
      case 't':
      case 'T':
        unit = base * base * base * base;
        break;
      default:
        return std::nullopt;
    }
  }
  if (number > UINT64_MAX / unit)
    return std::nullopt;
  return number * unit;
}

std::string check_size(const std::string& text) {
  return parse_size(text) ? std::string()
                          : "'" + text + "' is not a size (such as 3G, 3Gi, 512M or 0 for none)";
}

std::uint64_t available_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  std::uint64_t bytes = pages > 0 && page_size > 0 ? static_cast<std::uint64_t>(pages) *
                                                         static_cast<std::uint64_t>(page_size)
                                                   : std::uint64_t{0};
  // A container or a Slurm job is held to its cgroup's limit ("max" when there is none).
  std::ifstream limit_file("/sys/fs/cgroup/memory.max");
  std::uint64_t limit = 0;
  if (limit_file >> limit && limit > 0 && (bytes == 0 || limit < bytes))
    bytes = limit;
  return bytes;
}

std::uint64_t default_memory_budget() {
  return available_memory_bytes() / 2;
}

void apply_memory_budget(std::optional<std::uint64_t> bytes) {
  const std::uint64_t budget = bytes ? *bytes : default_memory_budget();
  for (const io::Problem* problem : io::all_problems())
    problem->set_memory_budget(budget);
}

int run_cli(int argc, char** argv) {
  set_up_logging();
  CLI::App app(
      "gamebatch: exact answers for large test sets of two-player game problems.\n"
      "Games:" +
          game_list_help(),
      "gamebatch");
  app.set_version_flag("--version", std::string("gamebatch ") + kVersion);
  app.require_subcommand(1);
  SolveJob solve_job;
  RunSettings solve_settings;
  add_solve_command(app, solve_job, solve_settings);
  RunArguments run_arguments;
  add_run_command(app, run_arguments);
  GenArguments gen_arguments;
  add_gen_command(app, gen_arguments);
  CacheArguments cache_arguments;
  add_cache_commands(app, cache_arguments);
  TableArguments table_arguments;
  add_table_command(app, table_arguments);
  SetterArguments setter_arguments;
  add_setter_commands(app, setter_arguments);
  app.footer(
      "Exit status: 0 all inputs solved, 1 some input rejected (the others were still\n"
      "solved), 2 usage or configuration error. 'gamebatch SUBCOMMAND --help' tells more.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int status = app.exit(error);  // prints help, version, or the error
    return status == 0 ? kExitSolved : kExitUsage;
  }
  // Safe to kill at any point (the cache's writes are transactions, validate writes nothing): a
  // Ctrl-C ends them by the signal.
  if (app.got_subcommand("cache"))
    return run_cache_command(app, cache_arguments);
  if (app.got_subcommand("validate"))
    return run_setter_command(app, setter_arguments);
  // The long commands stop cleanly on the first SIGINT or SIGTERM (io/run/stop_signals.hpp) and
  // then exit with 128 + the signal, whatever they would have said otherwise.
  io::stop_on_signals();
  int status = kExitUsage;
  if (app.got_subcommand("solve")) {
    status = run_solve_command(solve_job, solve_settings);
  } else if (app.got_subcommand("run")) {
    status = run_run_command(run_arguments);
  } else if (app.got_subcommand("gen")) {
    status = run_gen_command(gen_arguments);
  } else if (app.got_subcommand("table")) {
    status = run_table(table_arguments);
  } else if (const int setter_status = run_setter_command(app, setter_arguments);
             setter_status >= 0) {
    status = setter_status;
  }
  if (const int stopped = io::stop_exit_status(); stopped != 0)
    return stopped;
  return status;
}

}  // namespace gamebatch::cli
