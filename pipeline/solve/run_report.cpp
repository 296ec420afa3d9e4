#include "pipeline/solve/run_report.hpp"

#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace gamebatch::pipeline {

namespace {

const char* status_name(FileStatus status) {
  switch (status) {
    case FileStatus::solved:
      return "solved";
    case FileStatus::cached:
      return "cached";
    case FileStatus::rejected:
      return "rejected";
    case FileStatus::interrupted:
      return "interrupted";
  }
  return "unknown";
}

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

// The JSON object of one file's entry (without the job number).
nlohmann::json file_report_json(const FileReport& file) {
  nlohmann::json entry = {
      {"path", file.input.string()}, {"answer", file.answer.string()},
      {"game", file.game},           {"status", status_name(file.status)},
      {"cases", file.cases},         {"solved", file.solved},
      {"cached", file.cached},       {"solve_seconds", file.solve_seconds},
  };
  if (file.status == FileStatus::rejected) {
    entry["error"] = {
        {"line", file.error_line == 0 ? nlohmann::json(nullptr) : nlohmann::json(file.error_line)},
        {"message", file.error}};
  }
  return entry;
}

}  // namespace

RunReport::RunReport(std::filesystem::path path, const nlohmann::json& header)
    : path_(std::move(path)) {
  if (path_.has_parent_path())
    std::filesystem::create_directories(path_.parent_path());
  temporary_ = path_;
  temporary_ += ".tmp." + std::to_string(::getpid());
  stream_ = std::fopen(temporary_.c_str(), "wb");
  if (stream_ == nullptr)
    throw_errno("cannot create the report " + temporary_.string());
  std::string opening = header.dump(2);
  opening.pop_back();  // the closing brace: the files and totals follow
  while (!opening.empty() && (opening.back() == '\n' || opening.back() == ' '))
    opening.pop_back();
  write(opening + (header.empty() ? "\n" : ",\n") + "  \"files\": [");
}

RunReport::~RunReport() {
  if (stream_ != nullptr) {
    std::fclose(stream_);
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
  }
}

void RunReport::write(const std::string& text) {
  if (std::fwrite(text.data(), 1, text.size(), stream_) != text.size() && !failed_) {
    failed_ = true;
    write_errno_ = errno;
  }
}

void RunReport::add_file(const FileReport& file, std::size_t job_number) {
  nlohmann::json entry = file_report_json(file);
  entry["job"] = job_number;
  const std::string text = (first_file_ ? "\n    " : ",\n    ") + entry.dump();
  std::lock_guard<std::mutex> lock(mutex_);
  first_file_ = false;
  write(text);
}

void RunReport::finish(const RunSummary& totals) {
  std::lock_guard<std::mutex> lock(mutex_);
  const nlohmann::json totals_json = {{"files", totals.files},
                                      {"cases", totals.cases},
                                      {"solved", totals.solved},
                                      {"cached", totals.cached},
                                      {"rejected", totals.rejected},
                                      {"unfinished", totals.unfinished()},
                                      {"interrupted", totals.interrupted},
                                      {"seconds", totals.seconds}};
  write(std::string(first_file_ ? "" : "\n  ") + "],\n  \"totals\": " + totals_json.dump() +
        "\n}\n");
  // The first failure's errno: a short write, the flush, or the close.
  int failure = failed_ ? (write_errno_ != 0 ? write_errno_ : EIO) : 0;
  if (std::fflush(stream_) != 0 && failure == 0)
    failure = errno;
  if (std::fclose(stream_) != 0 && failure == 0)
    failure = errno;
  stream_ = nullptr;
  std::error_code error;
  if (failure != 0)
    error = std::error_code(failure, std::generic_category());
  if (!error)
    std::filesystem::rename(temporary_, path_, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
    throw std::system_error(error, "cannot write the report " + path_.string());
  }
}

}  // namespace gamebatch::pipeline
