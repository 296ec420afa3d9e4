// The files a command writes beside its work: HTML pages and JSON reports, each written whole.
#pragma once

#include <string>

namespace gamebatch::pipeline {

// Whether an --html page can be written at `path`: its directory is made if missing and a file
// is created there and removed. Logs why not and returns false, so that a run stops before its
// work rather than losing the page at the end.
bool html_page_writable(const std::string& path);

// Writes an --html page whole; false (after saying why) when it cannot.
bool write_html_page(const std::string& path, const std::string& page);

// Writes a --report FILE.json whole; false (after saying why) when it cannot.
bool write_report_file(const std::string& path, const std::string& json_text);

}  // namespace gamebatch::pipeline
