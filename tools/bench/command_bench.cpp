// command_bench: runs shell commands several times, interleaved, and prints their wall time,
// peak memory and the speed-up of the candidate (the first --run) over each baseline.
//
// It measures whole processes (fork + exec, wait4's rusage), so it can compare programs that
// share no code, e.g. gamebatch against the contest editorial. All commands are measured in the
// same invocation because the machine is noisy: only ratios taken side by side mean anything.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

namespace {

namespace fs = std::filesystem;

// Thrown for a failed run or a wrong output: the benchmark's numbers are void then.
struct BenchFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Command {
  std::string name;
  std::string shell;  // with placeholders still in it
};

struct Check {
  std::string command_name;
  std::string produced;  // may contain placeholders
  std::string expected;
};

struct Sample {
  double wall_s = 0;
  double cpu_s = 0;   // user + system of the command and its descendants
  long peak_kib = 0;  // ru_maxrss: the largest resident set of the command or a descendant
};

struct Options {
  std::vector<std::string> runs;
  std::vector<std::string> checks;
  int repeat = 3;
  int warmup = 0;
  double timeout_s = 0;
  double min_ratio = 0;
  double max_peak_mb = 0;
  bool markdown = false;
  bool no_baseline = false;
  bool keep = false;
  bool quiet = false;
  std::string tmp_root;
};

// Splits "NAME=REST" at the first '='.
std::pair<std::string, std::string> split_named(const std::string& text, const char* what) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    throw CLI::ValidationError(what, "expected NAME=VALUE, got '" + text + "'");
  }
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (auto pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos)) {
    text.replace(pos, from.size(), to);
    pos += to.size();
  }
  return text;
}

// Placeholders of a command line or a checked path, for one run.
std::string expand(const std::string& text, const fs::path& out_dir, int rep) {
  return replace_all(replace_all(text, "{out}", out_dir.string()), "{rep}", std::to_string(rep));
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw BenchFailure("cannot read '" + path.string() + "'");
  }
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The last `max_lines` lines of a log, to show why a command failed.
std::string tail_of(const fs::path& log, int max_lines) {
  std::ifstream in(log, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    lines.push_back(std::move(line));
  }
  std::string text;
  const auto first = lines.size() > static_cast<std::size_t>(max_lines)
                         ? lines.size() - static_cast<std::size_t>(max_lines)
                         : 0;
  for (auto i = first; i < lines.size(); ++i) {
    text += "    | " + lines[i] + "\n";
  }
  if (text.empty()) {
    return "    | (no output)";
  }
  text.pop_back();  // the caller ends the message
  return text;
}

// Byte equality; on a mismatch says where, by line, so the failure can be read at once.
void compare_files(const fs::path& produced, const fs::path& expected, const std::string& who) {
  if (!fs::exists(produced)) {
    throw BenchFailure(who + ": expected output file '" + produced.string() + "' was not written");
  }
  const std::string got = read_file(produced);
  const std::string want = read_file(expected);
  if (got == want) {
    return;
  }
  const auto diff = std::mismatch(got.begin(), got.end(), want.begin(), want.end());
  const auto offset = static_cast<std::size_t>(diff.first - got.begin());
  const auto line_no = std::count(got.begin(), diff.first, '\n') + 1;
  auto line_at = [offset](const std::string& text) {
    if (offset >= text.size()) {
      return std::string("<end of file>");
    }
    const auto begin = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    const auto start = (begin == std::string::npos || offset == 0) ? 0 : begin + 1;
    const auto end = text.find('\n', offset);
    return "'" + text.substr(start, end == std::string::npos ? end : end - start) + "'";
  };
  std::ostringstream msg;
  msg << who << ": output '" << produced.string() << "' differs from '" << expected.string()
      << "' at byte " << offset << ", line " << line_no << ":\n    got:      " << line_at(got)
      << "\n    expected: " << line_at(want) << "\n    (sizes " << got.size() << " vs "
      << want.size() << " bytes)";
  throw BenchFailure(msg.str());
}

double seconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
}

// Runs `sh -c "exec CMD"` with stdin from /dev/null and stdout+stderr into `log`. The `exec`
// makes the measured process the command itself rather than a shell around it.
Sample run_once(const std::string& shell_command, const fs::path& log, double timeout_s,
                const std::string& who) {
  const std::string script = "exec " + shell_command;
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0) {
    throw BenchFailure("cannot create log '" + log.string() + "': " + std::strerror(errno));
  }
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(log_fd);
    throw BenchFailure(std::string("fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) {
      ::dup2(null_fd, STDIN_FILENO);
    }
    ::dup2(log_fd, STDOUT_FILENO);
    ::dup2(log_fd, STDERR_FILENO);
    ::execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(log_fd);

  int status = 0;
  rusage usage{};
  bool timed_out = false;
  for (;;) {
    // Without a time limit block in wait4; with one, poll every millisecond (noise far below
    // the run times that are worth benchmarking).
    const pid_t done = ::wait4(pid, &status, timeout_s > 0 ? WNOHANG : 0, &usage);
    if (done == pid) {
      break;
    }
    if (done < 0 && errno != EINTR) {
      throw BenchFailure(std::string("wait4 failed: ") + std::strerror(errno));
    }
    if (timeout_s > 0 && done == 0) {
      const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
      if (!timed_out && elapsed.count() > timeout_s) {
        timed_out = true;
        ::kill(pid, SIGKILL);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;

  if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::ostringstream msg;
    msg << who << ": ";
    if (timed_out) {
      msg << "killed after the time limit of " << timeout_s << " s";
    } else if (WIFSIGNALED(status)) {
      msg << "killed by signal " << WTERMSIG(status) << " (" << ::strsignal(WTERMSIG(status))
          << ")";
    } else {
      msg << "exit status " << WEXITSTATUS(status)
          << (WEXITSTATUS(status) == 127 ? " (command not found?)" : "");
    }
    msg << "\n    command: " << shell_command << "\n    last lines of its output:\n"
        << tail_of(log, 15);
    throw BenchFailure(msg.str());
  }
  return {wall.count(), seconds(usage.ru_utime) + seconds(usage.ru_stime), usage.ru_maxrss};
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const auto n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double to_mb(long kib) {
  return static_cast<double>(kib) * 1024.0 / 1e6;
}

struct Row {
  std::string name;
  std::size_t runs = 0;
  double median_s = 0;
  double min_s = 0;
  double median_cpu_s = 0;
  double peak_mb = 0;
};

Row summarize(const std::string& name, const std::vector<Sample>& samples) {
  std::vector<double> wall;
  std::vector<double> cpu;
  long peak = 0;
  for (const auto& s : samples) {
    wall.push_back(s.wall_s);
    cpu.push_back(s.cpu_s);
    peak = std::max(peak, s.peak_kib);
  }
  return {name,        samples.size(), median(wall), *std::min_element(wall.begin(), wall.end()),
          median(cpu), to_mb(peak)};
}

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

// Seconds with three significant-ish digits: 0.0123, 1.23, 41.2.
std::string format_seconds(double s) {
  return s < 0.1 ? fixed(s, 4) : s < 10 ? fixed(s, 3) : fixed(s, 2);
}

void print_table(const std::vector<Row>& rows, bool markdown, bool with_ratios) {
  const std::vector<std::string> header = {"command", "runs",    "median s", "min s",
                                           "cpu s",   "peak MB", "speed-up", "memory ratio"};
  std::vector<std::vector<std::string>> cells;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const auto& candidate = rows.front();
    // Ratios are baseline / candidate: "speed-up 12x" = the candidate is 12 times faster.
    std::string speed = "(candidate)";
    std::string memory = "(candidate)";
    if (i > 0) {
      speed = fixed(r.median_s / candidate.median_s, 2) + "x";
      memory = fixed(r.peak_mb / candidate.peak_mb, 2) + "x";
    }
    cells.push_back({r.name, std::to_string(r.runs), format_seconds(r.median_s),
                     format_seconds(r.min_s), format_seconds(r.median_cpu_s), fixed(r.peak_mb, 1),
                     speed, memory});
  }
  // Without baselines the ratio columns say nothing.
  const std::size_t columns = with_ratios ? header.size() : header.size() - 2;
  std::vector<std::size_t> width(columns);
  for (std::size_t c = 0; c < columns; ++c) {
    width[c] = header[c].size();
    for (const auto& row : cells) {
      width[c] = std::max(width[c], row[c].size());
    }
  }
  auto print_row = [&](const std::vector<std::string>& row) {
    std::string line = markdown ? "|" : "";
    for (std::size_t c = 0; c < columns; ++c) {
      const auto pad = std::string(width[c] - row[c].size(), ' ');
      // Names left-aligned, numbers right-aligned.
      const auto cell = c == 0 ? row[c] + pad : pad + row[c];
      line += markdown ? " " + cell + " |" : (c == 0 ? "" : "  ") + cell;
    }
    std::cout << line << "\n";
  };
  print_row(header);
  if (markdown) {
    std::string rule = "|";
    for (std::size_t c = 0; c < columns; ++c) {
      rule += c == 0 ? " :" + std::string(width[c] - 1, '-') + " |"
                     : " " + std::string(width[c] - 1, '-') + ": |";
    }
    std::cout << rule << "\n";
  }
  for (const auto& row : cells) {
    print_row(row);
  }
  std::cout.flush();
}

// A private scratch directory for this invocation; removed at the end unless --keep.
class ScratchDir {
 public:
  ScratchDir(const std::string& root, bool keep) : keep_(keep) {
    std::string pattern = (fs::path(root) / "command_bench.XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw BenchFailure("cannot create a scratch directory under '" + root +
                         "': " + std::strerror(errno));
    }
    path_ = pattern;
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    if (keep_) {
      std::cerr << "command_bench: kept scratch directory " << path_ << "\n";
      return;
    }
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  bool keep_;
};

int run_benchmark(const Options& opt) {
  std::vector<Command> commands;
  for (const auto& spec : opt.runs) {
    auto [name, shell] = split_named(spec, "--run");
    for (const auto& c : commands) {
      if (c.name == name) {
        throw CLI::ValidationError("--run", "duplicate command name '" + name + "'");
      }
    }
    commands.push_back({name, shell});
  }
  std::vector<Check> checks;
  for (const auto& spec : opt.checks) {
    auto [name, files] = split_named(spec, "--check");
    const auto colon = files.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == files.size()) {
      throw CLI::ValidationError("--check", "expected NAME=PRODUCED:EXPECTED, got '" + spec + "'");
    }
    if (std::none_of(commands.begin(), commands.end(),
                     [&](const Command& c) { return c.name == name; })) {
      throw CLI::ValidationError("--check", "no --run named '" + name + "'");
    }
    const auto expected = files.substr(colon + 1);
    if (!fs::is_regular_file(expected)) {
      throw CLI::ValidationError("--check", "expected file '" + expected + "' does not exist");
    }
    checks.push_back({name, files.substr(0, colon), expected});
  }
  if (opt.min_ratio > 0 && (commands.size() < 2 || opt.no_baseline)) {
    throw CLI::ValidationError("--min-ratio", "needs at least one baseline (a second --run)");
  }

  ScratchDir scratch(opt.tmp_root, opt.keep);
  std::vector<std::vector<Sample>> samples(commands.size());
  const int total = opt.warmup + opt.repeat;
  for (int rep = 0; rep < total; ++rep) {
    const bool warm = rep < opt.warmup;
    // Interleave the commands and rotate who goes first, so slow phases of a noisy machine and
    // warm caches hit every command alike.
    for (std::size_t k = 0; k < commands.size(); ++k) {
      const std::size_t index = (k + static_cast<std::size_t>(rep)) % commands.size();
      const auto& cmd = commands[index];
      // Named by index: command names are free text (spaces, slashes).
      const auto run_dir =
          scratch.path() / ("cmd" + std::to_string(index) + ".rep" + std::to_string(rep));
      const auto out_dir = run_dir / "out";
      fs::create_directories(out_dir);
      const std::string who = "'" + cmd.name + "' (" + (warm ? "warm-up " : "run ") +
                              std::to_string((warm ? rep : rep - opt.warmup) + 1) + ")";
      const Sample s =
          run_once(expand(cmd.shell, out_dir, rep), run_dir / "log.txt", opt.timeout_s, who);
      for (const auto& check : checks) {
        if (check.command_name == cmd.name) {
          compare_files(expand(check.produced, out_dir, rep), check.expected, who);
        }
      }
      if (!opt.keep) {
        fs::remove_all(run_dir);
      }
      if (!opt.quiet) {
        std::cerr << "  " << who << ": " << format_seconds(s.wall_s) << " s wall, "
                  << format_seconds(s.cpu_s) << " s cpu, " << fixed(to_mb(s.peak_kib), 1)
                  << " MB peak\n";
      }
      if (!warm) {
        samples[index].push_back(s);
      }
    }
  }

  std::vector<Row> rows;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    rows.push_back(summarize(commands[i].name, samples[i]));
  }
  print_table(rows, opt.markdown, rows.size() > 1 && !opt.no_baseline);

  int status = 0;
  for (std::size_t i = 1; i < rows.size() && !opt.no_baseline; ++i) {
    const double ratio = rows[i].median_s / rows[0].median_s;
    if (opt.min_ratio > 0 && ratio < opt.min_ratio) {
      std::cerr << "command_bench: FAIL: '" << rows[0].name << "' is " << fixed(ratio, 2)
                << "x faster than '" << rows[i].name << "', required at least "
                << fixed(opt.min_ratio, 2) << "x\n";
      status = 1;
    }
  }
  // The bound is the candidate's; with --no-baseline every command is a candidate.
  const std::size_t bounded = opt.no_baseline ? rows.size() : 1;
  for (std::size_t i = 0; i < bounded; ++i) {
    if (opt.max_peak_mb > 0 && rows[i].peak_mb > opt.max_peak_mb) {
      std::cerr << "command_bench: FAIL: '" << rows[i].name << "' peaked at "
                << fixed(rows[i].peak_mb, 1) << " MB, allowed at most " << fixed(opt.max_peak_mb, 1)
                << " MB\n";
      status = 1;
    }
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Runs shell commands several times, interleaved, and prints wall time, CPU time and peak\n"
      "memory of each, with the speed-up of the candidate over every baseline.\n"
      "\n"
      "The first --run is the candidate; every further --run is a baseline it is compared with\n"
      "(with --no-baseline all are measured side by side, without ratios).\n"
      "  speed-up     = baseline median wall time / candidate median wall time\n"
      "  memory ratio = baseline peak RSS / candidate peak RSS\n"
      "Each command runs as `/bin/sh -c 'exec COMMAND'` (so the measured process is the command\n"
      "itself; wrap pipelines or lists in `sh -c '...'`), with stdin from /dev/null and its\n"
      "stdout/stderr captured to a log whose tail is shown if it fails. Peak memory is\n"
      "ru_maxrss from wait4: the largest resident set of the process or any descendant.\n"
      "MB = 10^6 bytes.\n"
      "\n"
      "Placeholders in COMMAND and in PRODUCED of --check:\n"
      "  {out}  a fresh, empty directory for this one run (removed afterwards unless --keep)\n"
      "  {rep}  the repetition index, 0-based (warm-up runs included)\n"
      "\n"
      "Exits 1 when a run fails (non-zero exit, signal, time limit), an output differs from its\n"
      "expected file, or a --min-ratio / --max-peak-mb bound is missed; 2 on bad usage.\n"
      "\n"
      "Example:\n"
      "  command_bench --repeat 3 --markdown --min-ratio 10 \\\n"
      "    --run 'gamebatch=gamebatch solve --problem willow --jobs 2 --out {out} in/D.in' \\\n"
      "    --run 'editorial=editorial < in/D.in > {out}/D.ans' \\\n"
      "    --check 'gamebatch={out}/D.ans:in/D.correct' --check "
      "'editorial={out}/D.ans:in/D.correct'\n",
      "command_bench"};
  app.get_formatter()->column_width(34);

  Options opt;
  const char* tmp_env = std::getenv("TMPDIR");
  opt.tmp_root = tmp_env != nullptr && *tmp_env != '\0' ? tmp_env : "/tmp";

  app.add_option("--run", opt.runs,
                 "NAME=COMMAND, repeatable; the first is the candidate, the rest are baselines")
      ->required()
      ->allow_extra_args(false);
  app.add_option("--check", opt.checks,
                 "NAME=PRODUCED:EXPECTED, repeatable: after every run of NAME, the file PRODUCED "
                 "must equal EXPECTED byte for byte (split at the first ':')")
      ->allow_extra_args(false);
  app.add_option("-r,--repeat", opt.repeat, "measured runs of each command")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--warmup", opt.warmup, "unmeasured runs of each command before the measured ones")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  app.add_option("--timeout", opt.timeout_s,
                 "seconds after which a run is killed and fails; 0 = none")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--min-ratio", opt.min_ratio,
                 "fail (exit 1) when the candidate's speed-up over any baseline is below this")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--max-peak-mb", opt.max_peak_mb,
                 "fail (exit 1) when the candidate's peak memory exceeds this many MB")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--markdown", opt.markdown, "print the table as a Markdown table");
  app.add_flag("--no-baseline", opt.no_baseline,
               "no command is a baseline: print no ratios; --max-peak-mb bounds every command");
  app.add_flag("--keep", opt.keep, "keep the scratch directories, outputs and logs");
  app.add_flag("-q,--quiet", opt.quiet, "do not print a progress line per run on stderr");
  app.add_option("--tmp-dir", opt.tmp_root, "where the scratch directory is made ($TMPDIR or /tmp)")
      ->check(CLI::ExistingDirectory);

  try {
    app.parse(argc, argv);
    return run_benchmark(opt);
  } catch (const CLI::Error& e) {
    // --help exits 0; every usage error exits 2.
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const BenchFailure& e) {
    std::cerr << "command_bench: FAIL: " << e.what() << "\n";
    if (!opt.keep) {
      std::cerr << "command_bench: rerun with --keep to inspect the outputs and logs\n";
    }
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "command_bench: error: " << e.what() << "\n";
    return 1;
  }
}
