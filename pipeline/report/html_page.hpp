// The --html pages' common parts. Each command's page is made in its engine's room
// (solve/solve_page.hpp, judge/judge_pages.hpp, package/package_pages.hpp) from these parts: one
// self-contained HTML file, made from the same numbers as the JSON reports (which stay the data of
// record). Inline CSS and SVG only: no script, no font, no network, so a page opens offline in any
// browser; a Content-Security-Policy forbids scripts as a second line of defence. Every string
// that comes from files or commands (paths, messages, commands, outputs) goes through escape_html.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace gamebatch::pipeline {

// `text` with & < > " ' replaced by entities, safe inside elements and quoted attributes.
std::string escape_html(std::string_view text);

// The pages' parts, in a namespace of their own: the pages are compiled in batches (unity builds)
// with other files whose private helpers have the same names (format, seconds_text).
namespace html {

// printf's `pattern` with `values`, as a string.
std::string format(const char* pattern, auto... values) {
  const int size = std::snprintf(nullptr, 0, pattern, values...);
  std::string text(static_cast<std::size_t>(std::max(size, 0)) + 1, '\0');
  std::snprintf(text.data(), text.size(), pattern, values...);
  text.pop_back();
  return text;
}

// Numbers as the pages write them: 20000 -> "20,000"; three significant digits of seconds in the
// unit that suits ("33 us", "8.9 ms"); bytes as "812 B", "9.5 KiB", "12.0 MiB".
std::string count_text(std::size_t count);
std::string seconds_text(double seconds);
std::string bytes_text(std::uintmax_t bytes);
// The smallest of 1, 2, 2.5, 5 times a power of ten that is at least `value` > 0.
double round_up(double value);

// A JSON value as text (strings unquoted); the header's member `key` as text, or `fallback`.
std::string json_text(const nlohmann::json& value);
std::string member_text(const nlohmann::json& header, const char* key, const char* fallback);

// The page's frame: the head with its style sheet, and the footer naming the version.
std::string page_start(std::string_view title);
std::string page_end(const nlohmann::json& header, bool has_json_report = true);
// A figure with its label, red when `bad`.
std::string card(const std::string& label, const std::string& value, bool bad = false);
// The header's members (version, command, options) as a table.
std::string options_section(const nlohmann::json& header);
// One sentence on how the programs ran, from the header's "sandbox" (empty without one).
std::string sandbox_sentence(const nlohmann::json& header);
// Text for a <pre>: escaped, cut at 16 KiB with a note of what was left out.
std::string shown_text(std::string_view text);
// "PATH:LINE" escaped, or PATH when `line` is 0.
std::string location(const std::string& path, std::size_t line);

// A bar chart's frame: its size and the margins around the plot.
struct ChartBox {
  double width = 720, height = 190;
  double left = 52, right = 34, top = 12, bottom = 34;
  double plot_width() const { return width - left - right; }
  double plot_height() const { return height - top - bottom; }
};
// The chart's <svg> element, labelled for screen readers.
std::string svg_start(const ChartBox& box, const std::string& label);
// Horizontal grid lines and the y axis labels at 0, half and the highest count.
std::string count_axis(const ChartBox& box, std::size_t highest);
// One bar of `count` in slot `slot` of `slots`; at least a pixel high, so a lone file shows.
std::string bar(const ChartBox& box, std::size_t slot, std::size_t slots, std::size_t count,
                std::size_t highest, const char* css_class, const std::string& tooltip);
// A tick and its label under the plot at `x`, and the x axis' title.
std::string x_tick(const ChartBox& box, double x, const std::string& label);
std::string x_title(const ChartBox& box, const std::string& title);

}  // namespace html
}  // namespace gamebatch::pipeline
