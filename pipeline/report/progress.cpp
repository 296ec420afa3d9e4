#include "pipeline/report/progress.hpp"

#include <unistd.h>

#include <cmath>

#include <spdlog/fmt/fmt.h>

namespace gamebatch::pipeline {

namespace {

std::string duration_text(double seconds) {
  const auto whole = static_cast<long long>(std::llround(seconds));
  if (whole < 60)
    return fmt::format("{}s", whole);
  if (whole < 3600)
    return fmt::format("{}m{:02}s", whole / 60, whole % 60);
  return fmt::format("{}h{:02}m", whole / 3600, (whole / 60) % 60);
}

}  // namespace

std::string progress_text(const ProgressCounters& counters, double elapsed_seconds) {
  const std::size_t files_total = counters.files_total.load(std::memory_order_relaxed);
  const std::size_t files_done = counters.files_done.load(std::memory_order_relaxed);
  const std::size_t cases_known = counters.cases_known.load(std::memory_order_relaxed);
  const std::size_t cases_done = counters.cases_done.load(std::memory_order_relaxed);
  const double rate = elapsed_seconds > 0 ? static_cast<double>(cases_done) / elapsed_seconds : 0;
  // The number of cases is known only for the files read so far, so the ETA follows files.
  const double eta_seconds = files_done >= files_total ? 0.0
                             : files_done == 0
                                 ? -1.0
                                 : elapsed_seconds * static_cast<double>(files_total - files_done) /
                                       static_cast<double>(files_done);
  const std::string eta = eta_seconds < 0 ? std::string("?") : duration_text(eta_seconds);
  return fmt::format("files {}/{}  cases {}/{}  {:.0f} cases/s  cached {}  errors {}  ETA {}",
                     files_done, files_total, cases_done, cases_known, rate,
                     counters.cached.load(std::memory_order_relaxed),
                     counters.rejected.load(std::memory_order_relaxed), eta);
}

bool is_terminal(std::FILE* stream) {
  return ::isatty(::fileno(stream)) == 1;
}

ProgressLine::ProgressLine(const ProgressCounters& counters, bool enabled, std::FILE* stream,
                           std::chrono::milliseconds period)
    : counters_(counters),
      stream_(stream),
      period_(period),
      started_(std::chrono::steady_clock::now()) {
  if (enabled)
    thread_ = std::thread([this] { loop(); });
}

ProgressLine::~ProgressLine() {
  stop();
}

void ProgressLine::stop() {
  if (!thread_.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  std::fputs("\r\033[K", stream_);  // erase the line: the summary follows on a clean one
  std::fflush(stream_);
}

void ProgressLine::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, period_, [this] { return stopping_; })) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    const std::string line = progress_text(counters_, elapsed);
    std::fprintf(stream_, "\r%s\033[K", line.c_str());
    std::fflush(stream_);
  }
}

}  // namespace gamebatch::pipeline
