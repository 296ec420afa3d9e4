// A hostile "solution" for the sandbox tests of `check` and `stress` (tests/sandbox_cli_test.cpp):
// each mode is one thing a user's program must not be able to do to the machine, the user's files
// or the judge, plus two legitimate modes. Every mode reads all of stdin first (the input file),
// as a solution would. Arguments after those a mode uses are ignored: the tests add a token so
// that they find their own processes in /proc.
//
//   hostile_solution write-files DIR...  creates DIR/hostile-was-here in each DIR, and in ., $HOME,
//                                        /tmp and /var/tmp; prints nothing, exits 0
//   hostile_solution fill-disk           writes 3 GiB into ./big, 1 MiB at a time, whatever fails
//                                        (stops after 4096 failed writes in a row); exits 0
//   hostile_solution steal-answers [ANS] prints the .ans beside the file its stdin is (found by
//                                        readlink /proc/self/fd/0), or else the file ANS; exits 0
//   hostile_solution connect PORT        connects to 127.0.0.1:PORT over TCP and sends "hostile";
//                                        exits 0 whatever happens
//   hostile_solution kill-name NAME      sends SIGKILL to every process whose comm is NAME; exits 0
//   hostile_solution fork-bomb           forks 3000 children that sleep 1000 s (stops after 100
//                                        failed forks in a row), then sleeps 1000 s itself
//   hostile_solution daemon              leaves a child in its own session, deaf to SIGTERM and
//                                        SIGHUP, sleeping 1000 s; prints nothing, exits 0
//   hostile_solution spin                spins on the CPU for ever
//   hostile_solution threads N FILE      runs N threads that sleep 20 ms each, joins them, then
//                                        prints FILE (a correct answer: a legitimate program)
//   hostile_solution print FILE          prints FILE
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t kMebibyte = std::size_t{1} << 20;
constexpr const char* kMarker = "hostile-was-here";

// Ignores a failed or short write: a hostile program has no one to report it to.
void write_all(int descriptor, std::string_view text) {
  while (!text.empty()) {
    const ssize_t written = ::write(descriptor, text.data(), text.size());
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0)
      return;
    text.remove_prefix(static_cast<std::size_t>(written));
  }
}

// The whole file, or false when it cannot be read.
bool read_file(const std::string& path, std::string& content) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

bool print_file(const std::string& path) {
  std::string content;
  if (!read_file(path, content))
    return false;
  write_all(STDOUT_FILENO, content);
  return true;
}

[[noreturn]] void sleep_long() {
  for (;;)
    ::sleep(1000);
}

void create_marker(const std::string& directory) {
  const std::string path = directory + "/" + kMarker;
  const int descriptor = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (descriptor >= 0) {
    write_all(descriptor, "hostile\n");
    ::close(descriptor);
  }
}

int write_files(int argc, char** argv) {
  for (int k = 2; k < argc; ++k)
    create_marker(argv[k]);
  create_marker(".");
  if (const char* home = std::getenv("HOME"))
    create_marker(home);
  create_marker("/tmp");
  create_marker("/var/tmp");
  return 0;
}

int fill_disk() {
  const std::string block(kMebibyte, 'x');
  const int descriptor = ::open("big", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (descriptor < 0)
    return 0;
  int failures_in_a_row = 0;
  for (std::size_t attempted = 0; attempted < 3 * 1024 && failures_in_a_row < 4096; ++attempted) {
    if (::write(descriptor, block.data(), block.size()) < 0)
      ++failures_in_a_row;
    else
      failures_in_a_row = 0;
  }
  ::close(descriptor);
  return 0;
}

int steal_answers(int argc, char** argv) {
  std::string stdin_path(4096, '\0');
  const ssize_t length = ::readlink("/proc/self/fd/0", stdin_path.data(), stdin_path.size());
  if (length > 0) {
    stdin_path.resize(static_cast<std::size_t>(length));
    const std::string suffix = ".in";
    if (stdin_path.size() > suffix.size() &&
        stdin_path.compare(stdin_path.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        print_file(stdin_path.substr(0, stdin_path.size() - suffix.size()) + ".ans"))
      return 0;
  }
  if (argc > 2)
    print_file(argv[2]);
  return 0;
}

int connect_to(const char* port_text) {
  const int port = std::atoi(port_text);
  const int socket = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (socket < 0 || port <= 0 || port > 65535)
    return 0;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(socket, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0)
    write_all(socket, "hostile");
  ::close(socket);
  return 0;
}

int kill_name(const std::string& name) {
  DIR* const proc = ::opendir("/proc");
  if (proc == nullptr)
    return 0;
  while (const dirent* const entry = ::readdir(proc)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end != '\0' || pid == ::getpid())
      continue;
    std::string comm;
    if (!read_file(std::string("/proc/") + entry->d_name + "/comm", comm))
      continue;
    if (!comm.empty() && comm.back() == '\n')
      comm.pop_back();
    if (comm == name)
      ::kill(static_cast<pid_t>(pid), SIGKILL);
  }
  ::closedir(proc);
  return 0;
}

[[noreturn]] void fork_bomb() {
  int failures_in_a_row = 0;
  for (int child = 0; child < 3000 && failures_in_a_row < 100; ++child) {
    const pid_t pid = ::fork();
    if (pid == 0)
      sleep_long();
    failures_in_a_row = pid < 0 ? failures_in_a_row + 1 : 0;
  }
  sleep_long();
}

int daemon_mode() {
  const pid_t child = ::fork();
  if (child == 0) {
    ::setsid();
    ::signal(SIGTERM, SIG_IGN);
    ::signal(SIGHUP, SIG_IGN);
    // It keeps the judge's stdout and stderr pipes open: the judge must not wait for their end.
    ::sleep(1000);
    ::_exit(0);
  }
  return 0;
}

[[noreturn]] void spin() {
  volatile unsigned long spins = 0;
  for (;;)
    spins = spins + 1;
}

int threads(int count, const std::string& answers) {
  std::vector<std::thread> workers;
  for (int k = 0; k < count; ++k)
    workers.emplace_back([] { std::this_thread::sleep_for(std::chrono::milliseconds(20)); });
  for (std::thread& worker : workers)
    worker.join();
  return print_file(answers) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: hostile_solution MODE [ARG...]\n";
    return 2;
  }
  const std::string_view mode = argv[1];
  const std::string input{std::istreambuf_iterator<char>(std::cin),
                          std::istreambuf_iterator<char>()};

  if (mode == "write-files")
    return write_files(argc, argv);
  if (mode == "fill-disk")
    return fill_disk();
  if (mode == "steal-answers")
    return steal_answers(argc, argv);
  if (mode == "connect" && argc > 2)
    return connect_to(argv[2]);
  if (mode == "kill-name" && argc > 2)
    return kill_name(argv[2]);
  if (mode == "fork-bomb")
    fork_bomb();
  if (mode == "daemon")
    return daemon_mode();
  if (mode == "spin")
    spin();
  if (mode == "threads" && argc > 3)
    return threads(std::atoi(argv[2]), argv[3]);
  if (mode == "print" && argc > 2)
    return print_file(argv[2]) ? 0 : 1;
  std::cerr << "hostile_solution: unknown mode or missing argument: " << mode << "\n";
  return 2;
}
