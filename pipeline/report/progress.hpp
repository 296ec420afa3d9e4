// Live counters of a solve run and the progress line that shows them on a terminal.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace gamebatch::pipeline {

// Updated by the pipeline as files and cases go through; read by the progress line at any time.
// Relaxed counters: a display may be a moment behind, never wrong at the end.
struct ProgressCounters {
  std::atomic<std::size_t> files_total{0};  // inputs of the run (known before it starts)
  std::atomic<std::size_t> files_done{0};   // written or rejected
  std::atomic<std::size_t> cases_known{0};  // cases of the files read so far
  std::atomic<std::size_t> cases_done{0};   // answered, solved or from the cache
  std::atomic<std::size_t> cached{0};       // answered from the cache
  std::atomic<std::size_t> rejected{0};     // files rejected
};

// "files 1200/20000  cases 2400/2400  1830 cases/s  cached 0  errors 0  ETA 10s": the line the
// progress display draws, from counters sampled `elapsed_seconds` after the start.
std::string progress_text(const ProgressCounters& counters, double elapsed_seconds);

// Redraws the progress line on `stream` (stderr) a few times a second from a background thread,
// in place ('\r', clear to end of line); stop() (or the destructor) erases it so that the lines
// printed afterwards start on a clean line. Shows nothing unless `enabled`; the caller enables it
// only when the stream is a terminal and --quiet is not given.
class ProgressLine {
 public:
  ProgressLine(const ProgressCounters& counters, bool enabled, std::FILE* stream = stderr,
               std::chrono::milliseconds period = std::chrono::milliseconds(250));
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void stop();

 private:
  void loop();

  const ProgressCounters& counters_;
  std::FILE* stream_;
  std::chrono::milliseconds period_;
  std::chrono::steady_clock::time_point started_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

// True when `stream` is a terminal (isatty of its descriptor).
bool is_terminal(std::FILE* stream);

}  // namespace gamebatch::pipeline
