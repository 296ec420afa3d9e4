// The page of `gamebatch solve --html` and `gamebatch run --html` (report/html_page.hpp has what
// every page shares): what the run did per game, how long its files took, which were rejected.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pipeline/answers/solve_run.hpp"

namespace gamebatch::pipeline {

// Per-file solve times are put in log-scale buckets: kBucketsPerDecade per power of ten from
// 10^kFirstDecade seconds (1 us) up to 10^(kFirstDecade + kDecades) seconds (10^4 s); times
// outside go to the first or last bucket.
inline constexpr int kFirstDecade = -6;
inline constexpr int kDecades = 10;
inline constexpr int kBucketsPerDecade = 5;
inline constexpr std::size_t kTimeBuckets = kDecades * kBucketsPerDecade;

// The bucket of a solve time of `seconds` > 0.
std::size_t time_bucket(double seconds);

// What the solve/run page shows, gathered file by file from SolveOptions::on_file_done. Memory
// stays bounded whatever the number of files: per-game counts and histograms, the kSlowest slowest
// files (by solve time, and by time per case), the first kRejectedShown rejected files and a
// count of the rest. add_file is called from one thread at a time, as on_file_done is.
class SolvePage {
 public:
  static constexpr std::size_t kSlowest = 20;
  static constexpr std::size_t kRejectedShown = 100;

  struct GameTally {
    std::string game;
    std::size_t files = 0, solved_files = 0, cached_files = 0, rejected_files = 0;
    std::size_t cases = 0, solved_cases = 0, cached_cases = 0;
    double solve_seconds = 0;
    std::size_t untimed_files = 0;  // no solver time: all cached, or rejected
    std::array<std::size_t, kTimeBuckets> histogram{};
  };
  struct TimedFile {
    double key = 0;  // what it is ranked by: solve seconds, or seconds per solved case
    std::string path;
    std::string game;
    std::size_t job = 0;
    std::size_t cases = 0, solved = 0;
    double solve_seconds = 0;
  };
  struct Rejected {
    std::string path;
    std::size_t line = 0;  // 0: not about one line
    std::string message;
  };

  void add_file(const FileReport& file, std::size_t job_number);

  // The whole page. `header` holds what the JSON report puts before its files (version, command,
  // options); `totals` is the summary line's. Input sizes are read from the disk here.
  std::string render(const nlohmann::json& header, const RunSummary& totals) const;

  const std::vector<GameTally>& games() const { return games_; }
  // Slowest first.
  std::vector<TimedFile> slowest_files() const { return sorted(slowest_files_); }
  std::vector<TimedFile> slowest_per_case() const { return sorted(slowest_per_case_); }
  const std::vector<Rejected>& rejected() const { return rejected_; }
  std::size_t rejected_not_kept() const { return rejected_not_kept_; }

 private:
  static std::vector<TimedFile> sorted(std::vector<TimedFile> heap);
  static void keep_if_slower(std::vector<TimedFile>& heap, TimedFile file);

  std::vector<GameTally> games_;             // in the order first seen
  std::vector<TimedFile> slowest_files_;     // min-heap on key, at most kSlowest
  std::vector<TimedFile> slowest_per_case_;  // min-heap on key, at most kSlowest
  std::vector<Rejected> rejected_;
  std::size_t rejected_not_kept_ = 0;
};

}  // namespace gamebatch::pipeline
