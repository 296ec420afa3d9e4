// The --html pages (see html_report.hpp). Each page is one string built here: a fixed style sheet,
// then sections of plain HTML tables and inline SVG charts. Nothing from a file or a command is
// written without escape_html.
#include "pipeline/report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "io/files/input_set.hpp"

namespace gamebatch::pipeline {
namespace {

constexpr Verdict kVerdicts[] = {Verdict::accepted, Verdict::wrong_answer, Verdict::time_limit,
                                 Verdict::memory_limit, Verdict::runtime_error};
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

std::string format(const char* pattern, auto... values) {
  const int size = std::snprintf(nullptr, 0, pattern, values...);
  std::string text(static_cast<std::size_t>(std::max(size, 0)) + 1, '\0');
  std::snprintf(text.data(), text.size(), pattern, values...);
  text.pop_back();
  return text;
}

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

std::string page_end(const nlohmann::json& header, bool has_json_report = true) {
  return "<footer>Made by gamebatch " + escape_html(member_text(header, "gamebatch_version", "")) +
         (has_json_report ? "; the JSON report (--report) holds the same numbers" : "") +
         ".</footer>\n</body>\n</html>\n";
}

std::string card(const std::string& label, const std::string& value, bool bad = false) {
  return std::string("<div class=\"card") + (bad ? " bad" : "") + "\"><div class=\"value\">" +
         value + "</div><div class=\"label\">" + label + "</div></div>";
}

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

std::string options_section(const nlohmann::json& header) {
  std::string rows;
  if (header.is_object())
    option_rows(header, "", 0, rows);
  return "<h2>Version and options</h2>\n<table class=\"options\">\n" + rows + "</table>\n";
}

std::string badge(Verdict verdict) {
  const std::string name(short_name(verdict));
  return "<span class=\"badge b-" + name + "\">" + name + "</span>";
}

// One sentence on how the programs ran: the header's "sandbox" (tools/setter_commands.cpp).
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

std::string verdict_legend() {
  std::string legend = "<p class=\"legend note\">";
  const char* meanings[] = {"accepted", "wrong answer", "time limit", "memory limit",
                            "runtime error"};
  for (std::size_t k = 0; k < std::size(kVerdicts); ++k)
    legend += "<span>" + badge(kVerdicts[k]) + " " + meanings[k] + "</span>";
  return legend + "</p>\n";
}

// Text for a <pre>: escaped, cut at kShownBytes with a note of what was left out.
std::string shown_text(std::string_view text) {
  if (text.size() <= kShownBytes)
    return escape_html(text);
  return escape_html(text.substr(0, kShownBytes)) + "\n\u2026 (" +
         count_text(text.size() - kShownBytes) + " more bytes not shown)";
}

// ---- charts

struct ChartBox {
  double width = 720, height = 190;
  double left = 52, right = 34, top = 12, bottom = 34;
  double plot_width() const { return width - left - right; }
  double plot_height() const { return height - top - bottom; }
};

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

double bucket_start(std::size_t bucket) {
  return std::pow(10.0, kFirstDecade + static_cast<double>(bucket) / kBucketsPerDecade);
}

// "1 us", "10 ms", "1 s", "100 s" for a power of ten.
std::string decade_label(int exponent) {
  static const char* units[] = {"\u00b5s", "ms", "s"};
  if (exponent >= 0)
    return format("%.0f s", std::pow(10.0, exponent));
  const int unit = (exponent + 6) / 3;  // -6..-4: us, -3..-1: ms
  return format("%.0f %s", std::pow(10.0, (exponent + 6) % 3), units[unit]);
}

// Files per solve-time bucket, log scale, over the whole decades that hold any; empty when no
// file took solver time.
std::string time_histogram_svg(const std::array<std::size_t, kTimeBuckets>& histogram,
                               const std::string& game) {
  const auto first = std::find_if(histogram.begin(), histogram.end(), [](auto n) { return n; });
  if (first == histogram.end())
    return "";
  const auto last = std::find_if(histogram.rbegin(), histogram.rend(), [](auto n) { return n; });
  const std::size_t low =
      static_cast<std::size_t>(first - histogram.begin()) / kBucketsPerDecade * kBucketsPerDecade;
  const std::size_t high =
      (static_cast<std::size_t>(histogram.rend() - last - 1) / kBucketsPerDecade + 1) *
      kBucketsPerDecade;
  const std::size_t highest = *std::max_element(histogram.begin() + static_cast<long>(low),
                                                histogram.begin() + static_cast<long>(high));
  const ChartBox box;
  std::string svg = svg_start(box, "histogram of per-file solve time of " + game);
  svg += count_axis(box, highest);
  const std::size_t slots = high - low;
  for (std::size_t bucket = low; bucket < high; ++bucket) {
    if (histogram[bucket] == 0)
      continue;
    svg +=
        bar(box, bucket - low, slots, histogram[bucket], highest, "bar",
            seconds_text(bucket_start(bucket)) + " to " + seconds_text(bucket_start(bucket + 1)) +
                ": " + count_text(histogram[bucket]) + " files");
  }
  for (std::size_t edge = low; edge <= high; edge += kBucketsPerDecade) {
    svg += x_tick(
        box,
        box.left + box.plot_width() * static_cast<double>(edge - low) / static_cast<double>(slots),
        decade_label(kFirstDecade + static_cast<int>(edge / kBucketsPerDecade)));
  }
  svg += x_title(box, "solve time per file (log scale)   \u2022   files per bar: left axis");
  return svg + "</svg>\n";
}

// A bar split in proportion: solved cases, cached cases, rejected files.
std::string share_bar_svg(std::size_t solved, std::size_t cached, std::size_t rejected) {
  const double total = static_cast<double>(solved + cached + rejected);
  if (total == 0)
    return "";
  constexpr double kWidth = 260, kHeight = 16;
  std::string svg = format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" role=\"img\" "
      "aria-label=\"solved and cached\" style=\"margin:0\">",
      kWidth, kHeight);
  double x = 0;
  const std::pair<std::size_t, const char*> parts[] = {
      {solved, "solved"}, {cached, "cached"}, {rejected, "rejected"}};
  for (const auto& [count, name] : parts) {
    if (count == 0)
      continue;
    const double width = kWidth * static_cast<double>(count) / total;
    svg += format("<rect class=\"%s\" x=\"%.2f\" y=\"0\" width=\"%.2f\" height=\"%.0f\">", name, x,
                  width, kHeight) +
           "<title>" + count_text(count) + " " + name + "</title></rect>";
    x += width;
  }
  return svg + "</svg>";
}

// A solution's CPU times against the time limit: 30 bins from 0 to 1.5 times the limit (where
// runs are stopped) or the slowest run, bins past the limit in red, the limit dashed.
std::string time_distribution_svg(const std::vector<double>& seconds, double limit,
                                  const std::string& command) {
  if (seconds.empty())
    return "";
  constexpr std::size_t kBins = 30;
  const double slowest = *std::max_element(seconds.begin(), seconds.end());
  const double range = round_up(std::max(limit * kStopFactor, slowest) * 1.0001);
  std::array<std::size_t, kBins> bins{};
  for (const double value : seconds)
    ++bins[std::min(kBins - 1, static_cast<std::size_t>(value / range * kBins))];
  const std::size_t highest = *std::max_element(bins.begin(), bins.end());
  ChartBox box;
  box.width = 560;
  box.height = 130;
  std::string svg = svg_start(box, "CPU time of each run of " + command);
  svg += count_axis(box, highest);
  const double bin_width = range / kBins;
  for (std::size_t bin = 0; bin < kBins; ++bin) {
    if (bins[bin] == 0)
      continue;
    const double start = bin_width * static_cast<double>(bin);
    svg += bar(box, bin, kBins, bins[bin], highest, start >= limit ? "over" : "bar",
               seconds_text(start) + " to " + seconds_text(start + bin_width) + ": " +
                   count_text(bins[bin]) + " runs");
  }
  for (const double share : {0.0, 0.25, 0.5, 0.75, 1.0}) {
    svg += x_tick(box, box.left + box.plot_width() * share, seconds_text(range * share));
  }
  const double limit_x = box.left + box.plot_width() * limit / range;
  svg += format("<line class=\"limit\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", limit_x,
                box.top - 2, limit_x, box.top + box.plot_height());
  svg += format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" style=\"fill:#d0392f\">",
                limit_x + (limit_x > box.left + box.plot_width() * 0.8 ? -4 : 4), box.top + 10,
                limit_x > box.left + box.plot_width() * 0.8 ? "end" : "start") +
         "time limit " + seconds_text(limit) + "</text>\n";
  svg += x_title(box, "CPU time per run");
  return svg + "</svg>\n";
}

}  // namespace

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

std::size_t time_bucket(double seconds) {
  const double position = (std::log10(seconds) - kFirstDecade) * kBucketsPerDecade;
  if (!(position > 0))  // also NaN
    return 0;
  return std::min(kTimeBuckets - 1, static_cast<std::size_t>(position));
}

// ---- solve / run

void SolvePage::keep_if_slower(std::vector<TimedFile>& heap, TimedFile file) {
  const auto slower = [](const TimedFile& a, const TimedFile& b) { return a.key > b.key; };
  if (heap.size() < kSlowest) {
    heap.push_back(std::move(file));
    std::push_heap(heap.begin(), heap.end(), slower);
  } else if (file.key > heap.front().key) {
    std::pop_heap(heap.begin(), heap.end(), slower);
    heap.back() = std::move(file);
    std::push_heap(heap.begin(), heap.end(), slower);
  }
}

std::vector<SolvePage::TimedFile> SolvePage::sorted(std::vector<TimedFile> heap) {
  std::stable_sort(heap.begin(), heap.end(),
                   [](const TimedFile& a, const TimedFile& b) { return a.key > b.key; });
  return heap;
}

void SolvePage::add_file(const FileReport& file, std::size_t job_number) {
  auto tally = std::find_if(games_.begin(), games_.end(),
                            [&file](const GameTally& game) { return game.game == file.game; });
  if (tally == games_.end()) {
    games_.push_back({});
    games_.back().game = std::string(file.game);
    tally = games_.end() - 1;
  }
  ++tally->files;
  tally->cases += file.cases;
  tally->solved_cases += file.solved;
  tally->cached_cases += file.cached;
  tally->solve_seconds += file.solve_seconds;
  switch (file.status) {
    case FileStatus::solved:
      ++tally->solved_files;
      break;
    case FileStatus::cached:
      ++tally->cached_files;
      break;
    case FileStatus::rejected:
      ++tally->rejected_files;
      if (rejected_.size() < kRejectedShown)
        rejected_.push_back({file.input.string(), file.error_line, std::string(file.error)});
      else
        ++rejected_not_kept_;
      break;
    case FileStatus::interrupted:  // counted in the totals' unfinished files
      break;
  }
  if (file.solve_seconds <= 0) {
    ++tally->untimed_files;
    return;
  }
  ++tally->histogram[time_bucket(file.solve_seconds)];
  TimedFile timed{file.solve_seconds, file.input.string(), std::string(file.game), job_number,
                  file.cases,         file.solved,         file.solve_seconds};
  // Only the slowest files pay for copying their names.
  if (slowest_files_.size() < kSlowest || timed.key > slowest_files_.front().key)
    keep_if_slower(slowest_files_, timed);
  if (file.solved != 0) {
    timed.key = file.solve_seconds / static_cast<double>(file.solved);
    if (slowest_per_case_.size() < kSlowest || timed.key > slowest_per_case_.front().key)
      keep_if_slower(slowest_per_case_, std::move(timed));
  }
}

namespace {

std::string input_size(const std::string& path) {
  std::error_code error;
  const std::uintmax_t bytes = std::filesystem::file_size(path, error);
  return error ? std::string("?") : bytes_text(bytes);
}

std::string slowest_table(const std::vector<SolvePage::TimedFile>& files, bool per_case) {
  if (files.empty())
    return "<p class=\"note\">No file took solver time (every case came from the cache, or every "
           "file was rejected).</p>\n";
  std::string table =
      "<table>\n<tr><th class=\"num\">#</th><th>file</th><th>game</th><th class=\"num\">job</th>"
      "<th class=\"num\">cases</th><th class=\"num\">solved</th><th class=\"num\">size</th>"
      "<th class=\"num\">solve time</th><th class=\"num\">per solved case</th></tr>\n";
  for (std::size_t rank = 0; rank < files.size(); ++rank) {
    const SolvePage::TimedFile& file = files[rank];
    const std::string per_solved_case =
        file.solved == 0 ? "-"
                         : seconds_text(file.solve_seconds / static_cast<double>(file.solved));
    table += "<tr><td class=\"num\">" + std::to_string(rank + 1) + "</td><td class=\"path\">" +
             escape_html(file.path) + "</td><td>" + escape_html(file.game) +
             "</td><td class=\"num\">" + std::to_string(file.job) + "</td><td class=\"num\">" +
             count_text(file.cases) + "</td><td class=\"num\">" + count_text(file.solved) +
             "</td><td class=\"num\">" + input_size(file.path) + "</td><td class=\"num\">" +
             (per_case ? seconds_text(file.solve_seconds)
                       : "<b>" + seconds_text(file.solve_seconds) + "</b>") +
             "</td><td class=\"num\">" +
             (per_case ? "<b>" + per_solved_case + "</b>" : per_solved_case) + "</td></tr>\n";
  }
  return table + "</table>\n";
}

std::string location(const std::string& path, std::size_t line) {
  return escape_html(path) + (line == 0 ? "" : ":" + std::to_string(line));
}

// The solve page's title, summary and cards.
void add_solve_heading(std::string& html, const std::string& command,
                       const std::vector<SolvePage::GameTally>& games, const RunSummary& totals) {
  std::string names;
  for (const SolvePage::GameTally& game : games)
    names += (names.empty() ? "" : ", ") + game.game;
  html += "<h1>gamebatch " + escape_html(command) +
          (names.empty() ? "" : ": " + escape_html(names)) + "</h1>\n";
  html += "<div class=\"summary\">" + escape_html(summary_line(totals)) + "</div>\n";
  if (totals.interrupted) {
    html +=
        "<p class=\"note\"><b>Interrupted.</b> The run was stopped (Ctrl-C or SIGTERM) before " +
        count_text(totals.unfinished()) +
        " files were finished: they have no answer file from this run. Every case solved "
        "before the stop is in the answer cache, so a rerun solves only the rest.</p>\n";
  }
  double solver_seconds = 0;
  for (const SolvePage::GameTally& game : games)
    solver_seconds += game.solve_seconds;
  html += "<div class=\"cards\">" + card("files", count_text(totals.files)) +
          card("cases", count_text(totals.cases)) + card("solved", count_text(totals.solved)) +
          card("cached", count_text(totals.cached)) +
          card("rejected", count_text(totals.rejected), totals.rejected != 0) +
          (totals.interrupted ? card("unfinished", count_text(totals.unfinished()), true) : "") +
          card("wall time", seconds_text(totals.seconds)) +
          card("solver time (all threads)", seconds_text(solver_seconds)) + "</div>\n";
}

void add_games_table(std::string& html, const std::vector<SolvePage::GameTally>& games) {
  html +=
      "<h2>Cached and solved, per game</h2>\n<table>\n<tr><th>game</th>"
      "<th class=\"num\">files</th><th class=\"num\">solved files</th>"
      "<th class=\"num\">cached files</th><th class=\"num\">rejected files</th>"
      "<th class=\"num\">cases</th><th class=\"num\">solved cases</th>"
      "<th class=\"num\">cached cases</th><th class=\"num\">solver time</th>"
      "<th>cases: <span style=\"color:#4f7fd9\">solved</span> / "
      "<span style=\"color:#2e9d4a\">cached</span>, files: "
      "<span style=\"color:#d0392f\">rejected</span></th></tr>\n";
  for (const SolvePage::GameTally& game : games) {
    html += "<tr><td>" + escape_html(game.game) + "</td><td class=\"num\">" +
            count_text(game.files) + "</td><td class=\"num\">" + count_text(game.solved_files) +
            "</td><td class=\"num\">" + count_text(game.cached_files) + "</td><td class=\"num\">" +
            count_text(game.rejected_files) + "</td><td class=\"num\">" + count_text(game.cases) +
            "</td><td class=\"num\">" + count_text(game.solved_cases) + "</td><td class=\"num\">" +
            count_text(game.cached_cases) + "</td><td class=\"num\">" +
            seconds_text(game.solve_seconds) + "</td><td>" +
            share_bar_svg(game.solved_cases, game.cached_cases, game.rejected_files) +
            "</td></tr>\n";
  }
  html += "</table>\n";
}

void add_time_histograms(std::string& html, const std::vector<SolvePage::GameTally>& games) {
  html += "<h2>Solve time per file</h2>\n";
  if (games.empty())
    html += "<p class=\"note\">No files.</p>\n";
  for (const SolvePage::GameTally& game : games) {
    html += "<h3>" + escape_html(game.game) + "</h3>\n";
    const std::string chart = time_histogram_svg(game.histogram, game.game);
    html +=
        chart.empty() ? "<p class=\"note\">No file of this game took solver time.</p>\n" : chart;
    if (game.untimed_files != 0) {
      html += "<p class=\"note\">" + count_text(game.untimed_files) +
              " files took no solver time (every case cached, or rejected) and are not in the "
              "histogram.</p>\n";
    }
  }
  html +=
      "<p class=\"note\">Solve time is the time the solver spent on a file's cases, summed over "
      "threads (the JSON report's <code>solve_seconds</code>); it leaves out reading, the "
      "cache and writing.</p>\n";
}

// The slowest files, then the slowest cases (files ranked by time per case), unless every one
// of them holds one case: then the two lists are one.
void add_slowest(std::string& html, const std::vector<SolvePage::TimedFile>& files,
                 const std::vector<SolvePage::TimedFile>& per_case) {
  html += "<h2>The " + std::to_string(SolvePage::kSlowest) + " slowest files</h2>\n" +
          slowest_table(files, false);
  html += "<h2>The " + std::to_string(SolvePage::kSlowest) + " slowest cases</h2>\n";
  const auto one_case = [](const SolvePage::TimedFile& file) { return file.cases == 1; };
  if (std::all_of(per_case.begin(), per_case.end(), one_case) &&
      std::all_of(files.begin(), files.end(), one_case)) {
    html +=
        "<p class=\"note\">Each of these files holds one case: the slowest cases are the "
        "slowest files above.</p>\n";
  } else {
    html +=
        "<p class=\"note\">The run times files, not single cases: a case's time here is its "
        "file's solve time divided by the cases solved in it, exact for files of one case. "
        "Files ranked by that time per case.</p>\n" +
        slowest_table(per_case, true);
  }
}

void add_rejected_files(std::string& html, const std::vector<SolvePage::Rejected>& rejected,
                        std::size_t not_kept) {
  html += "<h2>Rejected files</h2>\n";
  if (rejected.empty()) {
    html += "<p class=\"ok\">None.</p>\n";
    return;
  }
  html += "<pre>";
  for (const SolvePage::Rejected& file : rejected)
    html += location(file.path, file.line) + ": " + escape_html(file.message) + "\n";
  html += "</pre>\n";
  if (not_kept != 0) {
    html += "<p class=\"note\">\u2026 and " + count_text(not_kept) +
            " more rejected files (the JSON report and stderr list every one).</p>\n";
  }
}

}  // namespace

std::string SolvePage::render(const nlohmann::json& header, const RunSummary& totals) const {
  const std::string command = member_text(header, "command", "solve");
  std::string html = page_start("gamebatch " + command + " report");
  add_solve_heading(html, command, games_, totals);
  add_games_table(html, games_);
  add_time_histograms(html, games_);
  add_slowest(html, slowest_files(), slowest_per_case());
  add_rejected_files(html, rejected_, rejected_not_kept_);
  html += options_section(header);
  return html + page_end(header);
}

// ---- check

namespace {

struct SolutionFigures {
  std::map<Verdict, std::size_t> counts;
  std::vector<double> seconds;
  double peak_mb = 0;
};

SolutionFigures figures_of(const SolutionVerdicts& solution) {
  SolutionFigures figures;
  for (const std::optional<RunVerdict>& verdict : solution.files) {
    if (!verdict)
      continue;
    ++figures.counts[verdict->verdict];
    figures.seconds.push_back(verdict->seconds);
    figures.peak_mb = std::max(figures.peak_mb, verdict->peak_mb);
  }
  return figures;
}

std::string matrix_cell(const std::optional<RunVerdict>& verdict) {
  if (!verdict)
    return "<td class=\"c-none\">not run</td>";
  const std::string name(short_name(verdict->verdict));
  std::string cell = "<td class=\"c-" + name + "\">" + badge(verdict->verdict) +
                     " <span class=\"cell-time\">" + seconds_text(verdict->seconds) + " \u00b7 " +
                     format("%.1f MiB", verdict->peak_mb) + "</span>";
  if (verdict->rerun_alone)
    cell += " <span class=\"note\">(rerun alone)</span>";
  if (verdict->verdict == Verdict::wrong_answer) {
    cell += "<div class=\"why\">";
    if (verdict->case_number)
      cell += "case " + std::to_string(*verdict->case_number) + ": ";
    if (verdict->expected || verdict->got) {
      cell += "expected <code>" + escape_html(verdict->expected.value_or("")) +
              "</code> got <code>" + escape_html(verdict->got.value_or("")) + "</code>";
    } else {
      cell += escape_html(verdict->detail);
    }
    cell += "</div>";
  } else if (verdict->verdict != Verdict::accepted && !verdict->detail.empty()) {
    cell += "<div class=\"why\">" + escape_html(verdict->detail) + "</div>";
  }
  return cell + "</td>";
}

// The check page's title, summary, limits, sandbox and verdict legend.
void add_check_heading(std::string& html, const nlohmann::json& header, const CheckOptions& options,
                       const CheckResult& result, const std::string& game) {
  html += "<h1>gamebatch check: " + escape_html(game) + "</h1>\n";
  html += "<div class=\"summary\">" +
          escape_html(check_summary_line(result, options.inputs.size())) + "</div>\n";
  if (result.interrupted) {
    html += "<p class=\"note\"><b>Interrupted.</b> The check was stopped (Ctrl-C or SIGTERM): " +
            count_text(result.runs_not_judged) +
            " runs have no verdict (never started, or ended by the stop); the matrix shows them "
            "empty.</p>\n";
  }
  std::string limits = "time limit " + seconds_text(result.time_limit_seconds) + " of CPU (" +
                       escape_html(result.time_limit_source) + ")";
  if (options.limits.memory_limit_bytes != 0) {
    limits += format(", memory limit %.0f MiB",
                     static_cast<double>(options.limits.memory_limit_bytes) / (1 << 20));
  }
  html += "<p>" + limits + ".</p>\n" + sandbox_sentence(header) + verdict_legend();
}

// Each solution's counts, then its times against the limit.
void add_solutions_table(std::string& html, const CheckResult& result,
                         const std::vector<SolutionFigures>& figures) {
  html +=
      "<h2>Solutions</h2>\n<table>\n<tr><th class=\"num\">#</th><th>solution</th>"
      "<th>expected</th><th>met</th>";
  for (const Verdict verdict : kVerdicts)
    html += "<th class=\"num\">" + badge(verdict) + "</th>";
  html += "<th class=\"num\">slowest run</th><th class=\"num\">highest peak</th></tr>\n";
  for (std::size_t s = 0; s < result.solutions.size(); ++s) {
    const SolutionFigures& of = figures[s];
    const SolutionVerdicts& solution = result.solutions[s];
    html += "<tr><td class=\"num\">" + std::to_string(s + 1) + "</td><td class=\"path mono\">" +
            escape_html(solution.name) + "</td><td>" +
            std::string(expected_short_name(solution.expected)) + "</td>" +
            (solution.meets ? "<td class=\"ok\">yes</td>"
                            : "<td class=\"c-WA\" title=\"" + escape_html(solution.why_not) +
                                  "\"><b>NO</b></td>");
    for (const Verdict verdict : kVerdicts) {
      const auto found = of.counts.find(verdict);
      const std::size_t count = found == of.counts.end() ? 0 : found->second;
      html += count == 0 ? std::string("<td class=\"num\">0</td>")
                         : "<td class=\"num c-" + std::string(short_name(verdict)) + "\"><b>" +
                               count_text(count) + "</b></td>";
    }
    const double slowest =
        of.seconds.empty() ? 0 : *std::max_element(of.seconds.begin(), of.seconds.end());
    html += "<td class=\"num\">" + seconds_text(slowest) + "</td><td class=\"num\">" +
            format("%.1f MiB", of.peak_mb) + "</td></tr>\n";
  }
  html += "</table>\n";
}

// The solutions that do not get what they must, and why (a compile error in full).
void add_missed_solutions(std::string& html, const CheckResult& result) {
  std::string missed;
  for (const SolutionVerdicts& solution : result.solutions) {
    if (!solution.meets && !solution.compile_error) {
      missed +=
          "<li><code>" + escape_html(solution.name) + "</code>: " + escape_html(solution.why_not) +
          (solution.too_weak ? ": <b>the tests are too weak to catch it</b>" : "") + "</li>\n";
    }
    if (solution.compile_error) {
      missed += "<li><code>" + escape_html(solution.name) + "</code>: compile error (CE):<pre>" +
                escape_html(*solution.compile_error) + "</pre></li>\n";
    }
  }
  if (!missed.empty())
    html += "<p class=\"note\">Solutions that do not get what they must:</p>\n<ul>\n" + missed +
            "</ul>\n";
}

// The groups: a row per solution, a column per group, the first failure's verdict and points.
void add_groups_matrix(std::string& html, const CheckResult& result) {
  if (result.groups.empty())
    return;
  html +=
      "<h2>Groups: solutions \u00d7 groups</h2>\n<table class=\"matrix\">\n<tr><th>solution</th>";
  for (const io::TestGroup& group : result.groups) {
    html += "<th class=\"num\" title=\"" + escape_html(group.path) + "\">" +
            escape_html(group.name) + "</th>";
  }
  html += "<th class=\"num\">total</th><th>expected</th><th>met</th></tr>\n";
  for (std::size_t s = 0; s < result.solutions.size(); ++s) {
    const SolutionVerdicts& solution = result.solutions[s];
    html += "<tr><td class=\"path mono\">#" + std::to_string(s + 1) + " " +
            escape_html(solution.name) + "</td>";
    for (const GroupOutcome& group : solution.groups) {
      const std::string title =
          group.expected.empty() ? "" : " title=\"" + escape_html(group.expected) + "\"";
      if (!group.verdict) {
        html += "<td class=\"c-none\"" + title + ">-</td>";
        continue;
      }
      html += "<td class=\"num c-" + std::string(short_name(*group.verdict)) + "\"" + title + ">" +
              badge(*group.verdict) + " " + format("%g", group.score) +
              (group.meets ? "" : " <b>NO</b>") + "</td>";
    }
    html += "<td class=\"num\">" +
            format("%g / %g", solution.score.value_or(0), solution.max_score.value_or(0)) +
            "</td><td>" + std::string(expected_short_name(solution.expected)) + "</td>" +
            (solution.meets ? "<td class=\"ok\">yes</td>" : "<td class=\"c-WA\"><b>NO</b></td>") +
            "</tr>\n";
  }
  html += "</table>\n";
}

// The files the matrix shows: all of them up to kMatrixRows, else those with a failure first,
// then the others, in file order; `left_out` says how many are not shown.
std::vector<std::size_t> matrix_rows(const CheckOptions& options, const CheckResult& result,
                                     std::size_t& left_out) {
  std::vector<std::size_t> rows;
  std::vector<std::size_t> failing, passing;
  for (std::size_t file = 0; file < options.inputs.size(); ++file) {
    bool failed = false;
    for (const SolutionVerdicts& solution : result.solutions) {
      const std::optional<RunVerdict>& verdict = solution.files[file];
      failed = failed || !verdict || verdict->verdict != Verdict::accepted;
    }
    (failed ? failing : passing).push_back(file);
  }
  if (options.inputs.size() <= kMatrixRows) {
    for (std::size_t file = 0; file < options.inputs.size(); ++file)
      rows.push_back(file);
  } else {
    rows.assign(failing.begin(),
                failing.begin() + static_cast<long>(std::min(failing.size(), kMatrixRows)));
    const std::size_t room = kMatrixRows - rows.size();
    rows.insert(rows.end(), passing.begin(),
                passing.begin() + static_cast<long>(std::min(passing.size(), room)));
    std::sort(rows.begin(), rows.end());
    left_out = options.inputs.size() - rows.size();
  }
  return rows;
}

// The matrix: a row per file, a column per solution.
void add_verdict_matrix(std::string& html, const CheckOptions& options, const CheckResult& result) {
  std::size_t all_accepted_left_out = 0;
  const std::vector<std::size_t> rows = matrix_rows(options, result, all_accepted_left_out);
  html += "<h2>Verdicts: files \u00d7 solutions</h2>\n";
  if (all_accepted_left_out != 0) {
    html += "<p class=\"note\">" + count_text(rows.size()) + " of " +
            count_text(options.inputs.size()) + " files shown, those with a failure first; " +
            count_text(all_accepted_left_out) +
            " files are left out (the JSON report has every run).</p>\n";
  }
  html += "<table class=\"matrix\">\n<tr><th>file</th>";
  for (std::size_t s = 0; s < result.solutions.size(); ++s) {
    html += "<th class=\"solution\">#" + std::to_string(s + 1) + " <code>" +
            escape_html(result.solutions[s].name) + "</code></th>";
  }
  html += "</tr>\n";
  for (const std::size_t file : rows) {
    html += "<tr><td class=\"path\">" + escape_html(options.inputs[file].input.string()) + "</td>";
    for (const SolutionVerdicts& solution : result.solutions) {
      html += (file < solution.skipped.size() && solution.skipped[file])
                  ? "<td class=\"c-none\">skipped (decided)</td>"
                  : matrix_cell(solution.files[file]);
    }
    html += "</tr>\n";
  }
  html += "</table>\n";
}

// Each solution's CPU times, summarised and drawn against the time limit.
void add_time_distributions(std::string& html, const CheckResult& result,
                            const std::vector<SolutionFigures>& figures) {
  html += "<h2>CPU time per run against the time limit</h2>\n<div class=\"columns\">\n";
  for (std::size_t s = 0; s < result.solutions.size(); ++s) {
    std::vector<double> sorted = figures[s].seconds;
    std::sort(sorted.begin(), sorted.end());
    html += "<div><h3>#" + std::to_string(s + 1) + " <code>" +
            escape_html(result.solutions[s].name) + "</code></h3>\n";
    if (sorted.empty()) {
      html += "<p class=\"note\">No runs.</p></div>\n";
      continue;
    }
    html += "<p class=\"note\">" + count_text(sorted.size()) + " runs: fastest " +
            seconds_text(sorted.front()) + ", median " + seconds_text(sorted[sorted.size() / 2]) +
            ", slowest " + seconds_text(sorted.back()) + ".</p>\n";
    html += time_distribution_svg(figures[s].seconds, result.time_limit_seconds,
                                  result.solutions[s].name) +
            "</div>\n";
  }
  html += "</div>\n";
}

void add_rejected_inputs(std::string& html, const CheckOptions& options,
                         const CheckResult& result) {
  html += "<h2>Rejected inputs</h2>\n";
  if (result.rejected.empty()) {
    html += "<p class=\"ok\">None.</p>\n";
    return;
  }
  html += "<pre>";
  for (const RejectedInput& input : result.rejected) {
    html += location(options.inputs[input.file_index].input.string(), input.line) + ": " +
            escape_html(input.message) + "\n";
  }
  html += "</pre>\n";
}

// The case whose canonical text is `canonical` drawn (inline SVG) with its optimal play
// (io::Problem::draw, explain); a case the game cannot explain says why.
std::string played_case(const io::Problem& problem, const std::string& canonical) {
  try {
    std::string picture = problem.draw(canonical);
    picture.erase(0, picture.find("<svg"));  // inline: no XML declaration
    return "<div class=\"picture\">" + picture + "</div>\n<p class=\"note\">optimal play</p><pre>" +
           shown_text(problem.explain(canonical)) + "</pre>\n";
  } catch (const std::exception& error) {
    return "<p class=\"note\">" + escape_html(error.what()) + "</p>\n";
  }
}

// A wrong answer's case is drawn when its text is at most this long (a picture of a large case
// says less than its numbers), for at most kPlayedWrongAnswers distinct cases.
constexpr std::size_t kDrawableCaseBytes = 4096;
constexpr std::size_t kPlayedWrongAnswers = 3;

// The first WAs' cases, small enough to draw, drawn with their optimal play beside what each
// failing solution answered.
void add_wrong_answers_played(std::string& html, const CheckOptions& options,
                              const CheckResult& result) {
  if (options.problem == nullptr)
    return;
  std::vector<std::pair<std::size_t, std::size_t>> shown;  // (file, case)
  std::string section;
  for (const SolutionVerdicts& solution : result.solutions) {
    for (std::size_t file = 0; file < solution.files.size(); ++file) {
      const std::optional<RunVerdict>& verdict = solution.files[file];
      if (!verdict || verdict->verdict != Verdict::wrong_answer || !verdict->case_number ||
          shown.size() == kPlayedWrongAnswers)
        continue;
      const std::pair<std::size_t, std::size_t> key{file, *verdict->case_number};
      if (std::find(shown.begin(), shown.end(), key) != shown.end())
        continue;
      std::string canonical;
      try {
        const auto cases = options.problem->parse(io::read_file(options.inputs[file].input));
        canonical = cases.at(*verdict->case_number - 1)->canonical();
      } catch (const std::exception&) {
        continue;
      }
      if (canonical.size() > kDrawableCaseBytes)
        continue;
      shown.push_back(key);
      section += "<div><h3>" + escape_html(options.inputs[file].input.string()) + ", case " +
                 std::to_string(key.second) + "</h3>\n" + played_case(*options.problem, canonical) +
                 "<p class=\"note\">" + escape_html(solution.name) + " answered</p><pre>" +
                 shown_text(verdict->got.value_or("") + "\n") + "</pre>\n</div>\n";
    }
  }
  if (!section.empty())
    html += "<h2>Wrong answers played out</h2>\n<div class=\"columns\">\n" + section + "</div>\n";
}

}  // namespace

std::string check_page(const nlohmann::json& header, const CheckOptions& options,
                       const CheckResult& result) {
  const std::string game = options.problem != nullptr ? std::string(options.problem->name()) : "";
  std::string html = page_start("gamebatch check " + game + " report");
  add_check_heading(html, header, options, result, game);
  std::vector<SolutionFigures> figures;
  for (const SolutionVerdicts& solution : result.solutions)
    figures.push_back(figures_of(solution));
  add_solutions_table(html, result, figures);
  add_missed_solutions(html, result);
  add_groups_matrix(html, result);
  add_verdict_matrix(html, options, result);
  add_wrong_answers_played(html, options, result);
  add_time_distributions(html, result, figures);
  add_rejected_inputs(html, options, result);
  html += options_section(header);
  return html + page_end(header);
}

// ---- stress

namespace {

std::string failing_case_column(const io::Problem& problem, const std::string& title,
                                const FailingCase& failing) {
  std::string answers;
  for (std::size_t k = 0; k < failing.expected.size(); ++k)
    answers += problem.answer_line(k + 1, failing.expected[k]);
  return "<div><h3>" + title + "</h3>\n<p>" + badge(failing.verdict.verdict) + " " +
         escape_html(describe(failing.verdict)) + "</p>\n<p class=\"note\">input (" +
         bytes_text(failing.input.size()) + ")</p><pre>" + shown_text(failing.input) +
         "</pre>\n<p class=\"note\">expected</p><pre>" + shown_text(answers) +
         "</pre>\n<p class=\"note\">the solution's output</p><pre>" + shown_text(failing.output) +
         "</pre>\n</div>\n";
}

// At most this many cases of a counterexample are drawn and explained on the page.
constexpr std::size_t kExplainedCases = 3;

// Each case of a failing input (up to kExplainedCases) drawn with its optimal play beside the
// answer the solution gave: the game played out instead of "expected 0, got 1".
std::string played_cases(const io::Problem& problem, const FailingCase& failing) {
  std::vector<std::string> cases;
  try {
    for (const std::unique_ptr<io::Case>& one : problem.parse(failing.input))
      cases.push_back(one->canonical());
  } catch (const std::exception&) {
    return "";  // not a valid input of the game: nothing to play
  }
  std::vector<std::string> got;
  for (std::size_t begin = 0; begin < failing.output.size();) {
    const std::size_t end = std::min(failing.output.find('\n', begin), failing.output.size());
    got.push_back(failing.output.substr(begin, end - begin));
    begin = end + 1;
  }
  std::string html = "<h2>The shrunk counterexample played out</h2>\n<div class=\"columns\">\n";
  for (std::size_t k = 0; k < cases.size() && k < kExplainedCases; ++k) {
    html += "<div><h3>Case " + std::to_string(k + 1) + "</h3>\n" + played_case(problem, cases[k]);
    html += "<p class=\"note\">the solution's answer</p><pre>" +
            shown_text(k < got.size() ? got[k] + "\n" : "(none)\n") + "</pre>\n</div>\n";
  }
  return html + "</div>\n";
}

}  // namespace

std::string stress_page(const nlohmann::json& header, const StressOptions& options,
                        const StressResult& result) {
  const io::Problem& problem = *options.problem;
  const std::string game(problem.name());
  std::string html = page_start("gamebatch stress " + game + " report");
  html += "<h1>gamebatch stress: " + escape_html(game) + "</h1>\n";
  const auto seed = static_cast<unsigned long long>(options.seed);
  std::string summary;
  if (result.shrunk) {
    summary = format("stress: case %lld of seed %llu fails: ",
                     static_cast<long long>(*result.failing_case_number), seed) +
              escape_html(describe(result.first_failure->verdict)) + "<br>" +
              format("shrunk in %zu steps (%zu smaller cases run) to a case that fails: ",
                     result.shrink_steps, result.shrink_candidates_run) +
              escape_html(describe(result.shrunk->verdict));
  } else if (result.interrupted) {
    summary = format("stress: interrupted after %lld cases, all passed (seed %llu)",
                     static_cast<long long>(result.cases_run), seed);
  } else {
    summary = format("stress: the solution passed all %lld cases (seed %llu)",
                     static_cast<long long>(result.cases_run), seed);
  }
  html += "<div class=\"summary\">" + summary + "</div>\n" + sandbox_sentence(header);
  if (result.interrupted) {
    html += std::string(
                "<p class=\"note\"><b>Interrupted.</b> The run was stopped (Ctrl-C or "
                "SIGTERM)") +
            (result.shrunk ? " while shrinking: the case shown is the smallest failing one found "
                             "by then."
                           : ": the cases tried were judged in order and all passed.") +
            "</p>\n";
  }
  html += "<div class=\"cards\">" + card("seed", std::to_string(seed)) +
          card("cases tried", count_text(static_cast<std::size_t>(result.cases_run)) + " of " +
                                  count_text(static_cast<std::size_t>(options.count))) +
          card("result", result.shrunk ? "failed" : (result.interrupted ? "interrupted" : "passed"),
               result.shrunk.has_value() || result.interrupted);
  if (result.shrunk) {
    html += card("failing case", std::to_string(*result.failing_case_number), true) +
            card("shrink steps", count_text(result.shrink_steps)) +
            card("smaller cases run", count_text(result.shrink_candidates_run));
  }
  html += card("time", seconds_text(result.seconds)) + "</div>\n";
  html += "<p>Solution: <code>" + escape_html(options.solution) + "</code></p>\n";
  if (result.shrunk) {
    html +=
        "<h2>The counterexample, before and after shrinking</h2>\n<div class=\"columns\">\n" +
        failing_case_column(problem,
                            "Before: case " + std::to_string(*result.failing_case_number) +
                                " of seed " + std::to_string(seed),
                            *result.first_failure) +
        failing_case_column(problem, "After " + count_text(result.shrink_steps) + " shrink steps",
                            *result.shrunk) +
        "</div>\n" + played_cases(problem, *result.shrunk);
  } else if (!result.interrupted) {
    html += "<p class=\"ok\">No counterexample: every case was accepted.</p>\n";
  }
  html += options_section(header);
  return html + page_end(header, false);
}

namespace {

// A bound's end as the table shows it: the value, marked when no test reaches the limit's end.
std::string bound_cell(const nlohmann::json& value, bool reached) {
  return std::string("<td class=\"num") + (reached ? "" : " c-WA") + "\"" +
         (reached ? "" : " title=\"no test reaches the limit's end\"") + ">" +
         escape_html(json_text(value)) + "</td>";
}

}  // namespace

std::string package_checks_section(const nlohmann::json& checks) {
  std::string html = "<h2>The package's validators</h2>\n";
  const nlohmann::json validators = checks.value("validators", nlohmann::json::array());
  if (validators.empty())
    html += "<p class=\"note\">The package has no input validator of its own.</p>\n";
  for (const auto& name : validators)
    html += "<p class=\"mono\">" + escape_html(json_text(name)) + "</p>\n";
  html += "<p class=\"note\">" + json_text(checks.value("tests", 0)) + " tests, " +
          json_text(checks.value("invalid_inputs", 0)) + " invalid inputs, " +
          json_text(checks.value("mutants", 0)) +
          " mutants: " + json_text(checks.value("runs", 0)) + " validator runs.</p>\n";
  const nlohmann::json problems = checks.value("problems", nlohmann::json::array());
  if (problems.empty()) {
    html += "<p class=\"ok\">Every validator agrees with gamebatch on every input.</p>\n";
  } else {
    html += "<ul>\n";
    for (const auto& problem : problems)
      html += "<li class=\"mono\">" + escape_html(json_text(problem)) + "</li>\n";
    html += "</ul>\n";
  }
  html +=
      "<h2>Bounds the data reaches</h2>\n<table>\n<tr><th>group</th><th>parameter</th>"
      "<th class=\"num\">smallest</th><th class=\"num\">largest</th><th>limit</th></tr>\n";
  for (const auto& group : checks.value("bounds", nlohmann::json::array())) {
    for (const auto& parameter : group.value("parameters", nlohmann::json::array())) {
      const nlohmann::json low = parameter.value("limit_min", nlohmann::json());
      const nlohmann::json high = parameter.value("limit_max", nlohmann::json());
      const std::string limit = low.is_null() && high.is_null()
                                    ? std::string("&ndash;")
                                    : escape_html((low.is_null() ? "" : json_text(low)) + ".." +
                                                  (high.is_null() ? "" : json_text(high)) + " (" +
                                                  member_text(parameter, "limit_owner", "") + ")");
      html += "<tr><td class=\"mono\">" + escape_html(member_text(group, "group", "")) +
              "</td><td class=\"mono\">" + escape_html(member_text(parameter, "parameter", "")) +
              "</td>" +
              bound_cell(parameter.value("min", nlohmann::json()),
                         parameter.value("min_reached", true)) +
              bound_cell(parameter.value("max", nlohmann::json()),
                         parameter.value("max_reached", true)) +
              "<td>" + limit + "</td></tr>\n";
    }
  }
  return html + "</table>\n";
}

std::string validate_page(const nlohmann::json& report) {
  const std::string game = member_text(report, "game", "");
  std::string html = page_start("gamebatch validate " + game + " report");
  html += "<h1>gamebatch validate: " + escape_html(game) + "</h1>\n";
  const nlohmann::json invalid = report.value("invalid", nlohmann::json(0));
  html += "<div class=\"cards\">" + card("files", json_text(report.value("files", 0))) +
          card("not valid", json_text(invalid), invalid != 0) + "</div>\n";
  for (const auto& package : report.value("packages", nlohmann::json::array())) {
    html += "<h2 class=\"mono\">" + escape_html(member_text(package, "path", "")) + "</h2>\n";
    html += package_checks_section(package.value("package_checks", nlohmann::json::object()));
  }
  return html + page_end(report);
}

std::string build_page(const nlohmann::json& report) {
  const std::string game = member_text(report, "game", "");
  std::string html = page_start("gamebatch build " + game + " report");
  html += "<h1>gamebatch build: " + escape_html(member_text(report, "package", "")) + "</h1>\n";
  const std::size_t failures = report.value("failures", nlohmann::json::array()).size();
  html += "<div class=\"cards\">" + card("tests", json_text(report.value("tests", 0))) +
          card("made", json_text(report.value("made", 0))) +
          card("unchanged", json_text(report.value("unchanged", 0))) +
          card("files written", json_text(report.value("files_written", 0))) +
          card("not written", std::to_string(failures), failures != 0) +
          card("time", seconds_text(report.value("seconds", 0.0))) + "</div>\n";
  html +=
      "<h2>Groups</h2>\n<table>\n<tr><th>group</th><th class=\"num\">tests</th>"
      "<th>largest values</th><th class=\"num\">points</th></tr>\n";
  for (const auto& group : report.value("groups", nlohmann::json::array())) {
    std::string largest;
    // Held here: items() of the temporary value() returns would outlive it.
    const nlohmann::json values = group.value("largest", nlohmann::json::object());
    for (const auto& [parameter, value] : values.items())
      largest += (largest.empty() ? "" : ", ") + parameter + " &le; " + json_text(value);
    html += "<tr><td class=\"mono\">" + escape_html(member_text(group, "name", "")) +
            "</td><td class=\"num\">" + json_text(group.value("tests", 0)) + "</td><td>" + largest +
            "</td><td class=\"num\">" + json_text(group.value("score", 0)) + "</td></tr>\n";
  }
  html += "</table>\n";
  if (failures != 0) {
    html += "<h2>Tests not written</h2>\n<ul>\n";
    for (const auto& failure : report["failures"])
      html += "<li class=\"mono\">" + escape_html(failure.get<std::string>()) + "</li>\n";
    html += "</ul>\n";
  }
  if (report.contains("package_checks"))
    html += package_checks_section(report["package_checks"]);
  return html + page_end(report);
}

}  // namespace gamebatch::pipeline
