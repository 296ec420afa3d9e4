// The check and stress pages (judge_pages.hpp): verdicts as badges and matrix cells, time
// distributions against the limit, failing cases and their optimal play.
#include "pipeline/judge/judge_pages.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>

#include "pipeline/programs/run_setup.hpp"
#include "pipeline/report/html_page.hpp"

namespace gamebatch::pipeline {
namespace html {
namespace {

constexpr Verdict kVerdicts[] = {Verdict::accepted, Verdict::wrong_answer, Verdict::time_limit,
                                 Verdict::memory_limit, Verdict::runtime_error};

std::string badge(Verdict verdict) {
  const std::string name(short_name(verdict));
  return "<span class=\"badge b-" + name + "\">" + name + "</span>";
}

std::string verdict_legend() {
  std::string legend = "<p class=\"legend note\">";
  const char* meanings[] = {"accepted", "wrong answer", "time limit", "memory limit",
                            "runtime error"};
  for (std::size_t k = 0; k < std::size(kVerdicts); ++k)
    legend += "<span>" + badge(kVerdicts[k]) + " " + meanings[k] + "</span>";
  return legend + "</p>\n";
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

// The header's "time" (the whole command's, as its summary line gives it), or the runs' alone.
std::string time_of(const nlohmann::json& header, const CheckResult& result) {
  CommandTime time{result.seconds, 0};
  if (header.contains("time")) {
    time.seconds = header["time"].value("seconds", time.seconds);
    time.compiling_seconds = header["time"].value("compiling_seconds", 0.0);
  }
  return time_text(time);
}

// The check page's title, summary, limits, sandbox and verdict legend.
void add_check_heading(std::string& html, const nlohmann::json& header, const CheckOptions& options,
                       const CheckResult& result, const std::string& game) {
  html += "<h1>gamebatch check: " + escape_html(game) + "</h1>\n";
  html += "<div class=\"summary\">" +
          escape_html(check_summary_line(result, options.inputs.size(), time_of(header, result))) +
          "</div>\n";
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

}  // namespace html
}  // namespace gamebatch::pipeline
