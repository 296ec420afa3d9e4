// The solve and run page (solve_page.hpp): totals, a table and a solve-time histogram per game,
// the slowest files, the rejected ones.
#include "pipeline/solve/solve_page.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "pipeline/report/html_page.hpp"

namespace gamebatch::pipeline {
namespace html {
namespace {

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
}  // namespace html

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

std::string SolvePage::render(const nlohmann::json& header, const RunSummary& totals) const {
  const std::string command = html::member_text(header, "command", "solve");
  std::string html = html::page_start("gamebatch " + command + " report");
  html::add_solve_heading(html, command, games_, totals);
  html::add_games_table(html, games_);
  html::add_time_histograms(html, games_);
  html::add_slowest(html, slowest_files(), slowest_per_case());
  html::add_rejected_files(html, rejected_, rejected_not_kept_);
  html += html::options_section(header);
  return html + html::page_end(header);
}

}  // namespace gamebatch::pipeline
