// The --report file: one JSON document describing a run, file by file.
//
// Schema "gamebatch-report/1" (docs/reports.md, "Run reports", shows an example):
//   {"schema": "gamebatch-report/1", "gamebatch_version": "0.1.0", "command": "solve" | "run",
//    "options": {... the options of the command, as given ...},
//    "files": [{"path": input file, "answer": answer file, "game": name, "job": 1-based job number,
//               "status": "solved" | "cached" | "rejected" | "interrupted", "cases": C,
//               "solved": S, "cached": H,
//               "solve_seconds": time spent solving its cases (summed over threads),
//               "error": {"line": L or null, "message": M}   (rejected files only)}, ...],
//    "totals": {"files", "cases", "solved", "cached", "rejected", "unfinished", "interrupted",
//               "seconds"}}
// "cached" means every case of the file came from the answer cache. "interrupted": a stop (Ctrl-C,
// SIGTERM) came before all the file's cases were answered; it has no answer file from this run,
// and "solved" counts the cases solved (and cached) before the stop. Files never started are not
// listed; totals "unfinished" counts them with the interrupted ones, and "interrupted" (true or
// false) says whether the run was stopped. "solved" and "cached" of the totals count every case
// solved or answered from the cache, in interrupted files too, so that a rerun with the same cache
// solves totals.cases-to-be minus what this run solved. Files are listed in the order they were
// written: input order within each job, jobs in order.
#pragma once

#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "pipeline/answers/solve_run.hpp"

namespace gamebatch::pipeline {

inline constexpr const char* kReportSchema = "gamebatch-report/1";

// Writes the report as the run goes (memory does not grow with the number of files): to a
// temporary file beside `path`, renamed into place by finish(), so that `path` only ever holds a
// whole report. Thread-safe.
class RunReport {
 public:
  // `header` holds the members before "files" (version, command, options). Throws
  // std::system_error when the temporary file cannot be created.
  RunReport(std::filesystem::path path, const nlohmann::json& header);
  ~RunReport();  // removes the temporary file when finish() was not reached
  RunReport(const RunReport&) = delete;
  RunReport& operator=(const RunReport&) = delete;

  void add_file(const FileReport& file, std::size_t job_number);
  // Writes the totals and moves the report into place. Throws std::system_error on failure.
  void finish(const RunSummary& totals);

 private:
  void write(const std::string& text);

  std::filesystem::path path_;
  std::filesystem::path temporary_;
  std::FILE* stream_ = nullptr;
  bool first_file_ = true;
  bool failed_ = false;
  int write_errno_ = 0;  // errno of the first short write
  std::mutex mutex_;
};

}  // namespace gamebatch::pipeline
