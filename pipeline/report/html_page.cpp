// The parts the --html pages share (html_page.hpp): the style sheet, the page's frame, cards,
// tables of options and the charts' axes and bars.
#include "pipeline/report/html_page.hpp"

#include <algorithm>
#include <cmath>

namespace gamebatch::pipeline {
namespace html {
namespace {

// Text shown in a <pre> before it is cut (inputs, outputs), so that a page stays small.
constexpr std::size_t kShownBytes = 16 << 10;

// A light page that prints well; verdict colours as judges use them (AC green, WA red, TLE
// amber, MLE violet, RE orange), each with a lighter tint for matrix cells.
constexpr const char* kStyle = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
  margin:24px auto;max-width:1180px;padding:0 18px;color:#1d2330;background:#fff}
h1{font-size:23px;margin:0 0 6px}
h2{font-size:17px;margin:30px 0 10px;padding-bottom:4px;border-bottom:1px solid #dde2ea}
h3{font-size:14px;margin:16px 0 6px}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;
  font-size:12.5px}
pre{background:#f5f7fa;border:1px solid #e3e7ee;border-radius:5px;padding:8px 10px;margin:4px 0 10px;
  max-height:340px;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}
.summary{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;
  background:#eef2f8;border-radius:6px;padding:8px 12px;margin:8px 0 14px;overflow-wrap:anywhere}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:10px 0}
.card{border:1px solid #dde2ea;border-radius:8px;padding:8px 14px;min-width:110px}
.card .value{font-size:21px;font-weight:650}
.card .label{font-size:12px;color:#5b6475;text-transform:uppercase;letter-spacing:.04em}
.card.bad .value{color:#c0362c}
table{border-collapse:collapse;font-size:13px;margin:4px 0 8px}
th,td{padding:4px 9px;border-bottom:1px solid #e6e9ef;text-align:left;vertical-align:top}
th{background:#f3f5f9;font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.path{overflow-wrap:anywhere;max-width:520px}
.options td{overflow-wrap:anywhere;max-width:860px}
.note{color:#5b6475;font-size:12.5px;margin:4px 0 8px}
.ok{color:#1f7a36;font-weight:600}
.badge{display:inline-block;min-width:34px;text-align:center;font-weight:700;font-size:12px;
  border-radius:4px;padding:1px 5px;color:#fff}
.b-AC{background:#2e9d4a}.b-WA{background:#d0392f}.b-TLE{background:#c98a00}
.b-MLE{background:#7d4fc4}.b-RE{background:#e0661b}
td.c-AC{background:#e3f6e7}td.c-WA{background:#fde4e2}td.c-TLE{background:#fff3cf}
td.c-MLE{background:#eee4ff}td.c-RE{background:#ffe8d6}td.c-none{background:#f3f5f9;color:#8a92a3}
.matrix td{min-width:120px;font-size:12px}
.matrix th.solution{max-width:220px;overflow-wrap:anywhere;font-weight:600}
.cell-time{color:#39404d;white-space:nowrap}
.why{margin-top:3px;overflow-wrap:anywhere}
.why code{background:rgba(255,255,255,.7);padding:0 3px;border-radius:3px}
.legend span{margin-right:10px}
.columns{display:grid;grid-template-columns:1fr 1fr;gap:22px}
.columns>div{min-width:0}
.picture{overflow:auto;max-height:640px;border:1px solid #ddd}.picture svg{max-width:100%;height:auto}
svg{display:block;margin:4px 0 10px}
svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
  font-size:11px;fill:#4a5365}
svg .axis{stroke:#9aa3b2;stroke-width:1}
svg .grid{stroke:#e6e9ef;stroke-width:1}
svg .bar{fill:#4f7fd9}
svg .over{fill:#d0392f}
svg .solved{fill:#4f7fd9}
svg .cached{fill:#2e9d4a}
svg .rejected{fill:#d0392f}
svg .limit{stroke:#d0392f;stroke-width:2;stroke-dasharray:5 3}
footer{margin-top:34px;color:#8a92a3;font-size:12px}
)css";

// The header's members (version, command, options ...) as rows, objects two levels deep as
// "options.settings.jobs".
void option_rows(const nlohmann::json& value, const std::string& name, int depth,
                 std::string& rows) {
  if (value.is_object() && depth < 3) {
    for (const auto& [key, member] : value.items()) {
      if (key != "schema")
        option_rows(member, name.empty() ? key : name + "." + key, depth + 1, rows);
    }
    return;
  }
  rows += "<tr><th>" + escape_html(name) + "</th><td class=\"mono\">" +
          escape_html(json_text(value)) + "</td></tr>\n";
}

}  // namespace

// 20000 -> "20,000".
std::string count_text(std::size_t count) {
  const std::string digits = std::to_string(count);
  std::string text;
  for (std::size_t k = 0; k < digits.size(); ++k) {
    if (k != 0 && (digits.size() - k) % 3 == 0)
      text += ',';
    text += digits[k];
  }
  return text;
}

// Three significant digits in the unit that suits: "33 us", "8.9 ms", "1.25 s", "1234 s".
std::string seconds_text(double seconds) {
  if (seconds <= 0)
    return "0 s";
  if (seconds < 1e-3)
    return format("%.3g \u00b5s", seconds * 1e6);
  if (seconds < 1)
    return format("%.3g ms", seconds * 1e3);
  if (seconds < 1000)
    return format("%.3g s", seconds);
  return format("%.0f s", seconds);
}

// The smallest of 1, 2, 2.5, 5 times a power of ten that is at least `value` > 0: a chart's
// range whose quarter ticks are round.
double round_up(double value) {
  const double power = std::pow(10.0, std::floor(std::log10(value)));
  for (const double step : {1.0, 2.0, 2.5, 5.0}) {
    if (step * power >= value)
      return step * power;
  }
  return 10 * power;
}

std::string bytes_text(std::uintmax_t bytes) {
  if (bytes < 10'000)
    return count_text(bytes) + " B";
  if (bytes < 10'000'000)
    return format("%.1f KiB", static_cast<double>(bytes) / 1024);
  return format("%.1f MiB", static_cast<double>(bytes) / (1024 * 1024));
}

std::string json_text(const nlohmann::json& value) {
  // Paths are not always valid UTF-8: replace what is not rather than throw.
  return value.is_string() ? value.get<std::string>()
                           : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The header's member `key` as text, or `fallback` when there is none (the header may be null).
std::string member_text(const nlohmann::json& header, const char* key, const char* fallback) {
  return header.is_object() && header.contains(key) ? json_text(header.at(key)) : fallback;
}

std::string page_start(std::string_view title) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
         escape_html(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
}

std::string page_end(const nlohmann::json& header, bool has_json_report) {
  return "<footer>Made by gamebatch " + escape_html(member_text(header, "gamebatch_version", "")) +
         (has_json_report ? "; the JSON report (--report) holds the same numbers" : "") +
         ".</footer>\n</body>\n</html>\n";
}

std::string card(const std::string& label, const std::string& value, bool bad) {
  return std::string("<div class=\"card") + (bad ? " bad" : "") + "\"><div class=\"value\">" +
         value + "</div><div class=\"label\">" + label + "</div></div>";
}

std::string options_section(const nlohmann::json& header) {
  std::string rows;
  if (header.is_object())
    option_rows(header, "", 0, rows);
  return "<h2>Version and options</h2>\n<table class=\"options\">\n" + rows + "</table>\n";
}

// One sentence on how the programs ran: the header's "sandbox" (programs/run_setup.hpp's
// sandbox_json).
std::string sandbox_sentence(const nlohmann::json& header) {
  if (!header.is_object() || !header.contains("sandbox") || !header["sandbox"].is_object())
    return {};
  const nlohmann::json& sandbox = header["sandbox"];
  if (!sandbox.value("enabled", false))
    return "<p class=\"note\">The programs ran <b>uncontained</b> (--no-sandbox), as the user "
           "running gamebatch.</p>\n";
  // The values are escaped; the rest is this page's own markup.
  auto value = [&](const char* key) {
    return escape_html(json_text(sandbox.value(key, nlohmann::json())));
  };
  return "<p class=\"note\">The programs ran in a <b>sandbox</b>: their own user (nobody), "
         "mount, PID, network, IPC and UTS namespaces; a read-only view of the system and of the "
         "files their commands name; a scratch of " +
         value("disk_limit_mb") + " MiB; at most " + value("max_processes") +
         " processes and threads; memory: " + value("memory") + ".</p>\n";
}
// Text for a <pre>: escaped, cut at kShownBytes with a note of what was left out.
std::string shown_text(std::string_view text) {
  if (text.size() <= kShownBytes)
    return escape_html(text);
  return escape_html(text.substr(0, kShownBytes)) + "\n\u2026 (" +
         count_text(text.size() - kShownBytes) + " more bytes not shown)";
}
std::string location(const std::string& path, std::size_t line) {
  return escape_html(path) + (line == 0 ? "" : ":" + std::to_string(line));
}

std::string svg_start(const ChartBox& box, const std::string& label) {
  return format(
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
             "viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"",
             box.width, box.height, box.width, box.height) +
         escape_html(label) + "\">\n";
}

// Horizontal grid lines and the y axis labels at 0, half and the highest count.
std::string count_axis(const ChartBox& box, std::size_t highest) {
  std::string svg;
  for (const double share : {0.0, 0.5, 1.0}) {
    const double y = box.top + box.plot_height() * (1 - share);
    const auto count = static_cast<std::size_t>(std::llround(share * static_cast<double>(highest)));
    if (share == 0.5 && (highest < 2 || count * 2 != highest))
      continue;  // only whole counts
    svg += format("<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
                  box.left, y, box.left + box.plot_width(), y);
    svg += format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", box.left - 6, y + 4) +
           count_text(count) + "</text>\n";
  }
  svg +=
      format("<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", box.left,
             box.top + box.plot_height(), box.left + box.plot_width(), box.top + box.plot_height());
  return svg;
}

// One bar of `count` in slot `slot` of `slots`; at least a pixel high, so a lone file shows.
std::string bar(const ChartBox& box, std::size_t slot, std::size_t slots, std::size_t count,
                std::size_t highest, const char* css_class, const std::string& tooltip) {
  const double slot_width = box.plot_width() / static_cast<double>(slots);
  const double height =
      std::max(1.0, box.plot_height() * static_cast<double>(count) / static_cast<double>(highest));
  const double gap = slot_width > 6 ? 1 : 0;
  return format("<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">",
                css_class, box.left + slot_width * static_cast<double>(slot) + gap,
                box.top + box.plot_height() - height, slot_width - 2 * gap, height) +
         "<title>" + escape_html(tooltip) + "</title></rect>\n";
}

std::string x_tick(const ChartBox& box, double x, const std::string& label) {
  const double bottom = box.top + box.plot_height();
  return format("<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x, bottom,
                x, bottom + 4) +
         format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, bottom + 16) + label +
         "</text>\n";
}

std::string x_title(const ChartBox& box, const std::string& title) {
  return format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                box.left + box.plot_width() / 2, box.height - 2) +
         escape_html(title) + "</text>\n";
}

}  // namespace html

std::string escape_html(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&#39;";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

}  // namespace gamebatch::pipeline
