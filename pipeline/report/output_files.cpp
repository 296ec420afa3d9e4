#include "pipeline/report/output_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <spdlog/spdlog.h>

#include "io/files/atomic_file.hpp"

namespace gamebatch::pipeline {

bool html_page_writable(const std::string& path) {
  const std::filesystem::path page(path);
  std::error_code error;
  if (page.has_parent_path())
    std::filesystem::create_directories(page.parent_path(), error);
  std::string reason = error ? error.message() : "";
  if (!error) {
    const std::string probe = path + ".tmp.probe." + std::to_string(::getpid());
    const int descriptor = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (descriptor < 0) {
      reason = std::strerror(errno);
    } else {
      ::close(descriptor);
      ::unlink(probe.c_str());
    }
  }
  if (reason.empty())
    return true;
  spdlog::error("cannot write the HTML page {}: {}", path, reason);
  return false;
}

namespace {

// Writes `text` whole at `path`; false after "cannot write the WHAT PATH: why" when it cannot.
bool write_whole(const std::string& path, const std::string& text, const char* what) {
  try {
    io::write_file_atomically(path, text);
    return true;
  } catch (const std::exception& error) {
    spdlog::error("cannot write the {} {}: {}", what, path, error.what());
    return false;
  }
}

}  // namespace

bool write_html_page(const std::string& path, const std::string& page) {
  return write_whole(path, page, "HTML page");
}

bool write_report_file(const std::string& path, const std::string& json_text) {
  return write_whole(path, json_text, "report");
}

}  // namespace gamebatch::pipeline
