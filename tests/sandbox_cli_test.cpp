// End-to-end: the sandbox that `gamebatch check` runs users' programs in, attacked by
// tests/solutions/hostile_solution (writing the user's files, filling the disk, reading the
// expected answers, the network, killing other processes, fork bombs, daemons, outliving an
// interrupted check), and legitimate programs that it must still accept. Each attack that the
// sandbox must stop is also run with --no-sandbox where that is safe, to show that it works
// there: a test that passes with the sandbox then proves something.
//
// Hostile processes are found in /proc by a token of their own on their command line (tests run
// in parallel); every test ends the ones it finds left, by pid, so a failure leaves none running.
#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <chrono>
#include <cstring>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"
#include "cli_solutions.hpp"

namespace {

using namespace gamebatch::testing;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

const std::string kHostile = GAMEBATCH_HOSTILE_SOLUTION;

// What hostile_solution write-files creates in every directory it can.
constexpr const char* kMarker = "hostile-was-here";

// A word no other test's command line holds: the processes of this test are the ones with it.
std::string unique_token() {
  static int count = 0;
  std::random_device seed;
  return cat("gbtoken", ::getpid(), "x", seed() % 1000000, "x", ++count);
}

// The arguments of process PID, split at their NULs; none for a zombie or a process gone.
std::vector<std::string> command_line(const std::string& pid) {
  std::vector<std::string> words;
  std::string word;
  std::string text;
  try {
    text = read_text(fs::path("/proc") / pid / "cmdline");
  } catch (const std::exception&) {
    return words;  // the process ended between the listing and the read (ESRCH)
  }
  for (const char c : text) {
    if (c != '\0') {
      word += c;
      continue;
    }
    words.push_back(word);
    word.clear();
  }
  return words;
}

// The live processes of hostile_solution MODE with TOKEN among their arguments. Run outside the
// sandbox's PID namespace, so its processes are seen by their pids out here.
std::vector<pid_t> hostile_processes(const std::string& mode, const std::string& token) {
  std::vector<pid_t> pids;
  DIR* const proc = ::opendir("/proc");
  if (proc == nullptr)
    return pids;
  while (const dirent* const entry = ::readdir(proc)) {
    const std::string name = entry->d_name;
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos)
      continue;
    const std::vector<std::string> words = command_line(name);
    if (words.size() >= 3 && fs::path(words[0]).filename() == "hostile_solution" &&
        words[1] == mode && std::find(words.begin() + 2, words.end(), token) != words.end())
      pids.push_back(static_cast<pid_t>(std::stol(name)));
  }
  ::closedir(proc);
  return pids;
}

// util-linux's setpriv, which root runs a program as nobody with; empty when there is none.
std::string setpriv_path() {
  for (const char* candidate : {"/usr/bin/setpriv", "/bin/setpriv"}) {
    if (::access(candidate, X_OK) == 0)
      return candidate;
  }
  return "";
}

// The words that run a program as nobody (uid and gid 65534, no groups) with setpriv.
std::vector<std::string> as_nobody(const std::string& setpriv) {
  return {setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"};
}

std::string pids_text(const std::vector<pid_t>& pids) {
  std::string text;
  for (const pid_t pid : pids)
    text += cat(text.empty() ? "" : " ", pid);
  return text.empty() ? "none" : text;
}

// Ends, at the end of a test, the hostile processes of its token that are still running, so that
// a failed test leaves no fork bomb or spinning program behind.
class EndsLeftovers {
 public:
  EndsLeftovers(std::string mode, std::string token)
      : mode_(std::move(mode)), token_(std::move(token)) {}
  ~EndsLeftovers() {
    for (const pid_t pid : hostile_processes(mode_, token_))
      ::kill(pid, SIGKILL);
  }
  EndsLeftovers(const EndsLeftovers&) = delete;
  EndsLeftovers& operator=(const EndsLeftovers&) = delete;

 private:
  std::string mode_, token_;
};

// Sets an environment variable for the length of a test (inherited by the programs it starts).
class ScopedEnvironment {
 public:
  ScopedEnvironment(std::string name, const std::string& value) : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str()))
      old_ = old;
    ::setenv(name_.c_str(), value.c_str(), 1);
  }
  ~ScopedEnvironment() {
    if (old_)
      ::setenv(name_.c_str(), old_->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

// A TCP listener on 127.0.0.1 at a port the kernel picks. Close-on-exec: gamebatch and the
// programs it runs do not inherit it, so a connection can only come through the network.
class Listener {
 public:
  Listener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(fd_, 16) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0)
      throw std::system_error(errno, std::generic_category(), "cannot listen on 127.0.0.1");
    port_ = ntohs(address.sin_port);
  }
  ~Listener() { ::close(fd_); }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  int port() const { return port_; }

  // What the first connection waiting to be accepted sent (up to its end, or 2 s), or nullopt
  // when none is waiting: the kernel completes a connection to a listening socket before any
  // accept, so one made while check ran waits here.
  std::optional<std::string> accept_one() const {
    const int connection = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0)
      return std::nullopt;
    const timeval two_seconds{2, 0};
    ::setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &two_seconds, sizeof two_seconds);
    std::string received;
    char buffer[256];
    for (ssize_t got; (got = ::read(connection, buffer, sizeof buffer)) > 0;)
      received.append(buffer, static_cast<std::size_t>(got));
    ::close(connection);
    return received;
  }

 private:
  int fd_ = -1;
  int port_ = 0;
};

class SandboxCliTest : public CliTest {
 protected:
  // The sandbox needs kernel features a machine may not allow (user namespaces): where
  // `check --sandbox-info` says it cannot work, the tests are skipped, saying why, unless
  // GAMEBATCH_REQUIRE_SANDBOX is set (a machine known to have it: there it is a failure).
  void SetUp() override {
    CliTest::SetUp();
    const Result info = run({"check", "--sandbox-info"});
    // Exit status 2 with nothing on stdout is a usage error: a gamebatch without the option.
    if (info.status == 2 && !info.out.empty() &&
        std::getenv("GAMEBATCH_REQUIRE_SANDBOX") == nullptr)
      GTEST_SKIP() << "the sandbox cannot work on this machine (check --sandbox-info):\n"
                   << info.out << info.err;
    ASSERT_EQ(info.status, 0) << "check --sandbox-info:\n" << info.out << info.err;
    ASSERT_NE(info.out, "") << info.err;
  }

  // set/sample.in (three cases) and its exact answers, set/sample.ans, beside it: where the
  // answers of a test set usually are, and what a hostile program would like to read.
  void write_set() const {
    write_text(at("set/sample.in"), read_test_file("willow/sample.in"));
    write_text(answers(), read_text(data_file("sample.ans")));
  }
  fs::path answers() const { return at("set/sample.ans"); }

  // `gamebatch check -p willow --no-cache --time-limit T --report r.json OPTIONS... -s S... set`
  // (T: time_limit_, 1 s unless a test says otherwise)
  // (under prefix_: as nobody once it is set), and its report, checked to say whether the sandbox
  // was on (off with --no-sandbox among OPTIONS).
  Result check(const std::vector<std::string>& solutions,
               const std::vector<std::string>& options = {}) {
    std::vector<std::string> command = prefix_;
    command.insert(command.end(), {GAMEBATCH_BINARY, "check", "-p", "willow", "--no-cache",
                                   "--time-limit", time_limit_, "--report", "r.json"});
    command.insert(command.end(), options.begin(), options.end());
    for (const std::string& solution : solutions)
      command.insert(command.end(), {"-s", solution});
    command.push_back("set");
    std::error_code ignored;
    fs::remove(at("r.json"), ignored);  // no stale report stands in for a missing one
    const Result result = finish(start_program(command));
    report_ = nlohmann::json::parse(read_text(at("r.json")), nullptr, false);
    if (report_.is_discarded()) {
      ADD_FAILURE() << "no report r.json; check said:\n" << result.out << result.err;
      report_ = nlohmann::json::object();
    }
    const bool sandboxed =
        std::find(options.begin(), options.end(), "--no-sandbox") == options.end();
    const nlohmann::json enabled = report_.contains("sandbox") && report_["sandbox"].is_object()
                                       ? report_["sandbox"].value("enabled", nlohmann::json())
                                       : nlohmann::json();
    EXPECT_EQ(enabled, nlohmann::json(sandboxed)) << "sandbox.enabled in " << report_.dump();
    return result;
  }

  // The run of solution S (0-based) on set/sample.in, the set's only input, in the last report.
  nlohmann::json run_of(std::size_t s) const {
    const auto solutions = report_.find("solutions");
    if (solutions != report_.end() && solutions->is_array() && solutions->size() > s) {
      const nlohmann::json& verdicts = solutions->at(s).value("verdicts", nlohmann::json());
      if (verdicts.is_array() && verdicts.size() == 1 && verdicts[0].is_object())
        return verdicts[0];
    }
    ADD_FAILURE() << "no single run of solution " << s << " in the report: " << report_.dump();
    return nlohmann::json{{"verdict", "(missing)"}, {"detail", ""}};
  }
  // Two programs that read the answers beside the input if they can (then AC, else WA): one
  // finds set/sample.ans through /proc/self/fd/0 (its stdin's path); the other is told its
  // absolute path as argv[2] by the shell ("$PWD/set/sample.ans"), a path that the command line
  // itself does not name, so that naming does not show it in the sandbox.
  static std::vector<std::string> thieves() {
    return {kHostile + " steal-answers", kHostile + " steal-answers \"$PWD/set/sample.ans\""};
  }

  std::string verdict_of(std::size_t s) const { return run_of(s).value("verdict", "(none)"); }
  std::string detail_of(std::size_t s) const { return run_of(s).value("detail", "(none)"); }

  // Starts `check` of a solution that spins for ever (a 20 s limit: it would run 30 s), waits
  // for the solution to run, sends SIGNAL_NUMBER to gamebatch alone (as `kill PID` does; Ctrl-C
  // sends SIGINT to the terminal's foreground group, which the solution is not in either) and
  // expects gamebatch gone within 10 s and the solution within 2 s more.
  void expect_signal_ends_the_solution(int signal_number, bool sandboxed) {
    write_set();
    const std::string token = unique_token();
    const EndsLeftovers leftovers("spin", token);
    std::vector<std::string> args = {"check",        "-p", "willow", "--no-cache",
                                     "--time-limit", "20", "-s",     kHostile + " spin " + token,
                                     "set"};
    if (!sandboxed)
      args.insert(args.begin() + 1, "--no-sandbox");
    const pid_t gamebatch = start(args);
    const bool started = wait_until([&] { return !hostile_processes("spin", token).empty(); }, 10s);
    if (started)
      EXPECT_EQ(::kill(gamebatch, signal_number), 0);
    else
      ADD_FAILURE() << "the solution did not start within 10 s";
    const bool gamebatch_ended = wait_until(
        [&] {
          siginfo_t info{};
          return ::waitid(P_PID, static_cast<id_t>(gamebatch), &info,
                          WEXITED | WNOHANG | WNOWAIT) == 0 &&
                 info.si_pid == gamebatch;
        },
        10s);
    EXPECT_TRUE(gamebatch_ended) << "gamebatch still runs 10 s after "
                                 << ::strsignal(signal_number);
    if (!gamebatch_ended)
      ::kill(gamebatch, SIGKILL);
    const Result result = finish(gamebatch);
    if (!started)
      return;
    // SIGINT and SIGTERM: gamebatch stopped cleanly and says so by its status; SIGKILL: killed.
    EXPECT_EQ(result.status, 128 + signal_number) << result.err;
    EXPECT_TRUE(wait_until([&] { return hostile_processes("spin", token).empty(); }, 2s))
        << "still spinning 2 s after gamebatch ended by " << ::strsignal(signal_number) << ": pids "
        << pids_text(hostile_processes("spin", token));
  }

  std::vector<std::string> prefix_;  // what gamebatch runs under: setpriv for nobody
  std::string time_limit_ = "1";     // check's --time-limit, in seconds
  nlohmann::json report_;
};

// ---------------------------------------------------------------- the user's files

TEST_F(SandboxCliTest, WriteFilesCreatesNothingOutsideTheScratch) {
  write_set();
  // $HOME and a directory of /tmp of this test's own, so the run without the sandbox below
  // writes nothing of the user's (only /tmp and /var/tmp themselves, cleaned up after it).
  const fs::path home = root_ / "home";
  const fs::path in_tmp = fs::temp_directory_path() / cat("gb-hostile-", unique_token());
  fs::create_directories(home);
  fs::create_directories(in_tmp);
  const ScopedEnvironment fake_home("HOME", home.string());
  struct RemoveAfter {
    std::vector<fs::path> paths;
    ~RemoveAfter() {
      std::error_code ignored;
      for (const fs::path& path : paths)
        fs::remove_all(path, ignored);
    }
  } const cleanup{{in_tmp, fs::path("/tmp") / kMarker, fs::path("/var/tmp") / kMarker}};
  // A marker left in /tmp or /var/tmp by an earlier run (another user's cannot be removed) would
  // pass for one of this run: those two directories are checked only when it is gone.
  std::vector<fs::path> checked = {work_, at("set"), home, in_tmp};
  for (const fs::path& shared : {fs::path("/tmp"), fs::path("/var/tmp")}) {
    std::error_code ignored;
    fs::remove(shared / kMarker, ignored);
    if (!fs::exists(shared / kMarker))
      checked.push_back(shared);
  }
  const std::string solution = kHostile + " write-files " + work_.string() + " " +
                               at("set").string() + " " + home.string() + " " + in_tmp.string();

  const Result sandboxed = check({solution});
  EXPECT_EQ(sandboxed.status, 1) << sandboxed.err;
  EXPECT_EQ(verdict_of(0), "WA");  // it prints nothing
  for (const fs::path& directory : checked)
    EXPECT_FALSE(fs::exists(directory / kMarker)) << directory;

  // Without the sandbox the same program writes where the user can.
  const Result open = check({solution}, {"--no-sandbox"});
  EXPECT_EQ(open.status, 1) << open.err;
  for (const fs::path& directory : {work_, at("set"), home, in_tmp})
    EXPECT_TRUE(fs::exists(directory / kMarker)) << directory;
}

TEST_F(SandboxCliTest, FillingTheScratchIsARuntimeErrorAtTheDiskLimit) {
  write_set();
  const Result result = check({kHostile + " fill-disk"});
  EXPECT_EQ(result.status, 1) << result.err;
  EXPECT_EQ(verdict_of(0), "RE");
  EXPECT_NE(detail_of(0).find("disk limit"), std::string::npos) << detail_of(0);
  // Its working directory was a scratch, gone with the run: nothing of the 3 GiB it tried.
  EXPECT_FALSE(fs::exists(at("big")));
  EXPECT_FALSE(fs::exists(at("set/big")));
}

TEST_F(SandboxCliTest, AnswersBesideTheInputCannotBeRead) {
  write_set();
  const Result sandboxed = check(thieves());
  EXPECT_EQ(sandboxed.status, 1) << sandboxed.out << sandboxed.err;
  EXPECT_EQ(verdict_of(0), "WA") << "read the answers through its stdin's path";
  EXPECT_EQ(verdict_of(1), "WA") << "read the answers at the path it was told";

  // Without the sandbox both attacks work: stdin is the input file itself.
  const Result open = check(thieves(), {"--no-sandbox"});
  EXPECT_EQ(open.status, 0) << open.out << open.err;
  EXPECT_EQ(verdict_of(0), "AC");
  EXPECT_EQ(verdict_of(1), "AC");
}

// What the command names is the setter's choice to show (io::named_paths): the answers named on
// the command line are read, as a file of --sandbox-bind would be. (The thieves above stay WA
// because they find or are told the path at run time.)
TEST_F(SandboxCliTest, AFileTheCommandNamesIsShownReadOnly) {
  write_set();
  const Result result = check({kHostile + " print " + answers().string()});
  EXPECT_EQ(result.status, 0) << result.out << result.err;
  EXPECT_EQ(verdict_of(0), "AC") << detail_of(0);
}

// ---------------------------------------------------------------- the network and other processes

TEST_F(SandboxCliTest, NoConnectionReachesTheMachine) {
  write_set();
  const Listener listener;
  const std::string solution = kHostile + " connect " + std::to_string(listener.port());
  check({solution});
  EXPECT_EQ(verdict_of(0), "WA");
  const std::optional<std::string> sandboxed = listener.accept_one();
  EXPECT_FALSE(sandboxed.has_value())
      << "a connection from the sandbox sent '" << sandboxed.value_or("") << "'";

  check({solution}, {"--no-sandbox"});
  EXPECT_EQ(listener.accept_one().value_or("(no connection)"), "hostile");
}

TEST_F(SandboxCliTest, KillingOtherProcessesByNameFails) {
  write_set();
  // A copy of sleep under a name of its own (a comm of at most 15 characters), so only it has
  // that name. Where this test is root the decoy is nobody, as the sandboxed programs are then:
  // what keeps them from it is their PID namespace alone, not its owner.
  const std::string name = cat("gbdecoy", ::getpid());
  const fs::path sleep = fs::exists("/bin/sleep") ? fs::path("/bin/sleep") : "/usr/bin/sleep";
  fs::copy_file(sleep, at(name));
  fs::permissions(at(name), fs::perms::all & ~fs::perms::group_write & ~fs::perms::others_write);
  std::vector<std::string> decoy_command;
  if (::geteuid() == 0 && !setpriv_path().empty())
    decoy_command = as_nobody(setpriv_path());
  decoy_command.insert(decoy_command.end(), {at(name).string(), "1000"});
  const pid_t decoy = start_program(decoy_command, "decoy");
  struct EndsDecoy {
    pid_t pid;
    bool reaped = false;
    ~EndsDecoy() {
      if (!reaped) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
      }
    }
  } ends_decoy{decoy};
  ASSERT_TRUE(wait_until(
      [&] { return read_text(fs::path("/proc") / std::to_string(decoy) / "comm") == name + "\n"; },
      5s))
      << "the decoy " << name << " did not start";

  check({kHostile + " kill-name " + name});
  EXPECT_EQ(verdict_of(0), "WA");
  int status = 0;
  EXPECT_EQ(::waitpid(decoy, &status, WNOHANG), 0) << "the decoy was killed from the sandbox";

  // Without the sandbox it is found and killed.
  check({kHostile + " kill-name " + name}, {"--no-sandbox"});
  ends_decoy.reaped = wait_until([&] { return ::waitpid(decoy, &status, WNOHANG) == decoy; }, 2s);
  ASSERT_TRUE(ends_decoy.reaped) << "the decoy survived the run without the sandbox";
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
}

TEST_F(SandboxCliTest, AForkBombIsARuntimeErrorAtTheProcessLimitAndLeavesNothing) {
  write_set();
  // The process limit must come before the time limit. Under AddressSanitizer each fork of the
  // instrumented bomb costs some 6 ms of CPU (its shadow memory's mappings), and its 256 forks
  // took 1.47 s on this project's machines: a 1 s limit came first. The bomb ends at the process
  // limit in milliseconds in a plain build, so 10 s changes nothing there.
  time_limit_ = "10";
  const std::string token = unique_token();
  const EndsLeftovers leftovers("fork-bomb", token);
  const Clock::time_point start = Clock::now();
  const Result result = check({kHostile + " fork-bomb " + token});
  EXPECT_LT(Clock::now() - start, 20s);
  EXPECT_EQ(result.status, 1) << result.err;
  EXPECT_EQ(verdict_of(0), "RE");
  EXPECT_NE(detail_of(0).find("process limit"), std::string::npos) << detail_of(0);
  // The children sleep 1000 s: one still there after 2 s was never killed.
  EXPECT_TRUE(wait_until([&] { return hostile_processes("fork-bomb", token).empty(); }, 2s))
      << "left running: " << pids_text(hostile_processes("fork-bomb", token));
}

TEST_F(SandboxCliTest, ADaemonDoesNotOutliveItsRun) {
  write_set();
  const std::string token = unique_token();
  const EndsLeftovers leftovers("daemon", token);
  const Result result = check({kHostile + " daemon " + token});
  EXPECT_EQ(result.status, 1) << result.err;
  EXPECT_EQ(verdict_of(0), "WA");  // it prints nothing
  EXPECT_TRUE(wait_until([&] { return hostile_processes("daemon", token).empty(); }, 2s))
      << "left running: " << pids_text(hostile_processes("daemon", token));
}

// Without the sandbox the daemon leaves the run's process group at once (setsid); when its parent
// ends it comes to gamebatch, the subreaper, which ends it as a process of no run's group.
TEST_F(SandboxCliTest, ADaemonDoesNotOutliveItsRunWithoutTheSandbox) {
  write_set();
  const std::string token = unique_token();
  const EndsLeftovers leftovers("daemon", token);
  const Result result = check({kHostile + " daemon " + token}, {"--no-sandbox"});
  EXPECT_EQ(result.status, 1) << result.err;
  EXPECT_EQ(verdict_of(0), "WA");
  EXPECT_TRUE(wait_until([&] { return hostile_processes("daemon", token).empty(); }, 2s))
      << "left running: " << pids_text(hostile_processes("daemon", token));
}

// ---------------------------------------------------------------- check interrupted

TEST_F(SandboxCliTest, SigintToCheckEndsTheSandboxedSolution) {
  expect_signal_ends_the_solution(SIGINT, true);
}

TEST_F(SandboxCliTest, SigtermToCheckEndsTheSandboxedSolution) {
  expect_signal_ends_the_solution(SIGTERM, true);
}

// gamebatch cannot act on SIGKILL: the sandbox itself must end with it.
TEST_F(SandboxCliTest, SigkillToCheckEndsTheSandboxedSolution) {
  expect_signal_ends_the_solution(SIGKILL, true);
}

TEST_F(SandboxCliTest, SigintToCheckEndsTheSolutionWithoutTheSandbox) {
  expect_signal_ends_the_solution(SIGINT, false);
}

TEST_F(SandboxCliTest, SigtermToCheckEndsTheSolutionWithoutTheSandbox) {
  expect_signal_ends_the_solution(SIGTERM, false);
}

// ---------------------------------------------------------------- legitimate programs

TEST_F(SandboxCliTest, LegitimateSolutionsAreAccepted) {
  write_set();
  // The answers given by --sandbox-bind stand for a file a solution needs (a table, a model). The
  // two programs that read them find them through $PWD, so that the bind alone shows them (the
  // command names no such path).
  const std::string bound = "\"$PWD/set/sample.ans\"";
  const std::vector<std::string> solutions = {
      kReference + " willow",             // a plain program
      "cat | " + kReference + " willow",  // a shell pipeline
      kHostile + " threads 50 " + bound,  // 50 threads at once
      kHostile + " print " + bound,       // a bound file read
  };
  const Result result = check(solutions, {"--sandbox-bind", answers().string()});
  EXPECT_EQ(result.status, 0) << result.out << result.err;
  for (std::size_t s = 0; s < solutions.size(); ++s)
    EXPECT_EQ(verdict_of(s), "AC") << solutions[s] << ": " << detail_of(s);
}

// A script run by the system's Python (not one of PATH, which may live in the user's home) that
// reads a file the sandbox was given with --sandbox-bind: the path is in the script, not on the
// command line.
TEST_F(SandboxCliTest, PythonScriptReadingABoundFileIsAccepted) {
  if (!fs::exists("/usr/bin/python3"))
    GTEST_SKIP() << "no /usr/bin/python3";
  write_set();
  const fs::path script = at("print_answers.py");
  write_text(script, cat("import sys\n"
                         "sys.stdin.read()\n"
                         "with open('",
                         answers().string(),
                         "') as answers:\n"
                         "    sys.stdout.write(answers.read())\n"));
  const Result result =
      check({"/usr/bin/python3 " + script.string()}, {"--sandbox-bind", answers().string()});
  EXPECT_EQ(result.status, 0) << result.out << result.err;
  EXPECT_EQ(verdict_of(0), "AC") << detail_of(0);
}

// ---------------------------------------------------------------- an unprivileged user

// What root could do by its privileges alone (mounts, namespaces) an ordinary user gets through a
// user namespace: the same check, as nobody, in a directory nobody may write.
TEST_F(SandboxCliTest, AnUnprivilegedUserGetsTheSameVerdicts) {
  if (::geteuid() != 0)
    GTEST_SKIP() << "only root can run a check as nobody (setpriv)";
  if (setpriv_path().empty())
    GTEST_SKIP() << "no setpriv (util-linux) to run as nobody";
  write_set();
  fs::permissions(work_, fs::perms::all);
  prefix_ = as_nobody(setpriv_path());

  // The build (under /root, say) or this test's directory may be closed to nobody.
  std::vector<std::string> probe = prefix_;
  probe.insert(probe.end(),
               {"/bin/sh", "-c",
                cat("test -x ", GAMEBATCH_BINARY, " && test -x ", kHostile, " && test -x ",
                    kReference, " && test -r ", answers().string(), " && test -r ",
                    at("set/sample.in").string(), " && test -w ", work_.string())});
  const Result reachable = finish(start_program(probe, "probe"), "probe");
  if (reachable.status != 0)
    GTEST_SKIP() << "the binaries or this test's files are not reachable by nobody: "
                 << reachable.err;
  std::vector<std::string> info = prefix_;
  info.insert(info.end(), {GAMEBATCH_BINARY, "check", "--sandbox-info"});
  const Result nobody_info = finish(start_program(info, "info"), "info");
  if (nobody_info.status == 2)
    GTEST_SKIP() << "the sandbox cannot work for nobody here (no user namespaces?):\n"
                 << nobody_info.out << nobody_info.err;
  ASSERT_EQ(nobody_info.status, 0) << nobody_info.out << nobody_info.err;

  std::vector<std::string> solutions = thieves();
  solutions.insert(solutions.begin(), kReference + " willow");
  const Result sandboxed = check(solutions);
  EXPECT_EQ(sandboxed.status, 1) << sandboxed.out << sandboxed.err;
  EXPECT_EQ(verdict_of(0), "AC") << detail_of(0);
  EXPECT_EQ(verdict_of(1), "WA");
  EXPECT_EQ(verdict_of(2), "WA");

  const Result open = check(solutions, {"--no-sandbox"});
  EXPECT_EQ(open.status, 0) << open.out << open.err;
  for (std::size_t s = 0; s < solutions.size(); ++s)
    EXPECT_EQ(verdict_of(s), "AC") << solutions[s];
}

// Where no box can be made (here: a keeper that ends at once, as where user namespaces are
// switched off), check stops before its first run with one message naming --no-sandbox.
TEST_F(SandboxCliTest, WhereNoSandboxCanBeMadeCheckStopsBeforeAnyRun) {
  write_set();
  const fs::path marker = at("ran");
  ::setenv("GAMEBATCH_BOX", "/bin/false", 1);
  const Result result = run({"check", "-p", "willow", "--no-cache", "--report", "r.json", "-s",
                             "touch " + marker.string(), "set"});
  ::unsetenv("GAMEBATCH_BOX");
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_EQ(error_lines(result.err).size(), 1U) << result.err;
  EXPECT_NE(result.err.find("cannot make a sandbox"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("--no-sandbox"), std::string::npos) << result.err;
  EXPECT_FALSE(fs::exists(at("r.json")));
  EXPECT_FALSE(fs::exists(marker));
}

}  // namespace
