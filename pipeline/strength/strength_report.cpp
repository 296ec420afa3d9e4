// The --report file, schema "gamebatch-strength/1":
//   {"schema": "gamebatch-strength/1", ...header (gamebatch_version, problem, package, limits,
//    sandbox, options)...,
//    "time_limit": {"seconds", "source"} (as check chose it),
//    "counts": {"candidates", "caught", "gaps", "survivors", "not_judged", "coverage_points",
//               "coverage_missed", "strong": bool},
//    "before_fill": the same counts before --fill added tests, or null,
//    "mutants": [{"submission", "mutants", "operators": [{"operator": "ROR", "description",
//                 "mutants"}], "left_out": [lines], "lines_left_out", "parse_seconds",
//                 "compile_seconds", "compiled_now", "error": text or null,
//                 "time_factor": its runs' CPU time over its source's}],
//    "tests": [{"path", "groups": [names], "kills", "unique_kills", "accepted_seconds"}],
//    "candidates": [{"name", "kind": "submission" | "mutant" | "idea", "status": "caught" |
//                    "gap" | "survivor" | "not judged", "killed_by": [test indices],
//                    "verdicts": {"AC": n, "WA": n, "TLE": n, "MLE": n, "RE": n, "not_run": n},
//                    "first_kill": text, "gap": {"group", "input", "verdict", "cases_tried",
//                    "shrink_steps"} or null, "diff": text}],
//    "coverage": [{"group", "kind": "limit" | "shape" | "answer", "point", "reached", "detail",
//                  "fill_made"}],
//    "filled": [{"group", "kind", "why", "file"}],
//    "selection": {"tests": [paths], "count", "of", "optimal", "bound", "rows", "seconds"} or null,
//    "interrupted": bool, "seconds", "compile_seconds",
//    "phases": [{"name", "seconds"}] (check, mutant schemas, kill matrix, gaps, coverage, fill,
//    select: where the time went)}
#include "pipeline/strength/strength_report.hpp"

#include <algorithm>
#include <map>

#include "pipeline/report/html_page.hpp"

namespace gamebatch::pipeline {
namespace {

constexpr Verdict kVerdicts[] = {Verdict::accepted, Verdict::wrong_answer, Verdict::time_limit,
                                 Verdict::memory_limit, Verdict::runtime_error};
// Gaps and misses listed on the terminal; the report has them all.
constexpr std::size_t kListed = 12;

std::string seconds_text(double seconds) {
  return html::format("%.1f s", seconds);
}

std::string counts_line(const StrengthCounts& counts) {
  std::string line = std::to_string(counts.caught) + " of " + std::to_string(counts.candidates) +
                     " candidates caught, " + std::to_string(counts.gaps) +
                     (counts.gaps == 1 ? " gap, " : " gaps, ") + std::to_string(counts.survivors) +
                     (counts.survivors == 1 ? " survivor, " : " survivors, ") +
                     std::to_string(counts.coverage_missed) + " of " +
                     std::to_string(counts.coverage_points) + " coverage points missed";
  if (counts.unjudged != 0)
    line += ", " + std::to_string(counts.unjudged) + " not judged";
  return line;
}

nlohmann::json counts_json(const StrengthCounts& counts) {
  return {{"candidates", counts.candidates},
          {"caught", counts.caught},
          {"gaps", counts.gaps},
          {"survivors", counts.survivors},
          {"not_judged", counts.unjudged},
          {"coverage_points", counts.coverage_points},
          {"coverage_missed", counts.coverage_missed},
          {"strong", counts.strong()}};
}

// Per test: how many candidates it kills, and how many no other test kills.
std::pair<std::vector<std::size_t>, std::vector<std::size_t>> kills_per_test(
    const StrengthResult& result) {
  std::vector<std::size_t> kills(result.tests.size(), 0), unique(result.tests.size(), 0);
  for (const CandidateOutcome& outcome : result.candidates) {
    std::size_t killers = 0, last = 0;
    for (std::size_t t = 0; t < outcome.verdicts.tests.size(); ++t) {
      const std::optional<Verdict>& verdict = outcome.verdicts.tests[t];
      if (verdict && *verdict != Verdict::accepted) {
        ++kills[t];
        ++killers;
        last = t;
      }
    }
    if (killers == 1)
      ++unique[last];
  }
  return {kills, unique};
}

std::string test_name(const StrengthResult& result, std::size_t test) {
  std::error_code error;
  const std::filesystem::path relative =
      std::filesystem::relative(result.tests[test].input, result.package, error);
  return error || relative.empty() ? result.tests[test].input.string() : relative.string();
}

nlohmann::json candidate_json(const CandidateOutcome& outcome) {
  nlohmann::json killed_by = nlohmann::json::array();
  std::map<std::string, std::size_t> verdicts;
  for (const Verdict verdict : kVerdicts)
    verdicts[std::string(short_name(verdict))] = 0;
  for (std::size_t t = 0; t < outcome.verdicts.tests.size(); ++t) {
    const std::optional<Verdict>& verdict = outcome.verdicts.tests[t];
    if (!verdict)
      continue;
    ++verdicts[std::string(short_name(*verdict))];
    if (*verdict != Verdict::accepted)
      killed_by.push_back(t);
  }
  nlohmann::json counts = verdicts;
  counts["not_run"] = outcome.verdicts.not_run;
  nlohmann::json gap = nullptr;
  if (outcome.gap && outcome.gap->found) {
    gap = {{"group", outcome.gap->group},
           {"input", outcome.gap->input},
           {"verdict", outcome.gap->verdict},
           {"cases_tried", outcome.gap->cases_tried},
           {"shrink_steps", outcome.gap->shrink_steps}};
  }
  return {{"name", outcome.candidate.name},
          {"kind", kind_name(outcome.candidate.kind)},
          {"status", status_name(outcome.status)},
          {"killed_by", killed_by},
          {"verdicts", counts},
          {"first_kill", outcome.verdicts.first_kill},
          {"gap", gap},
          {"diff", outcome.diff}};
}

}  // namespace

std::string_view status_name(CandidateStatus status) {
  switch (status) {
    case CandidateStatus::caught:
      return "caught";
    case CandidateStatus::gap:
      return "gap";
    case CandidateStatus::survivor:
      return "survivor";
    case CandidateStatus::unjudged:
      return "not judged";
  }
  return "";
}

StrengthCounts StrengthResult::counts() const {
  StrengthCounts counts;
  counts.candidates = candidates.size();
  for (const CandidateOutcome& outcome : candidates) {
    switch (outcome.status) {
      case CandidateStatus::caught:
        ++counts.caught;
        break;
      case CandidateStatus::gap:
        ++counts.gaps;
        break;
      case CandidateStatus::survivor:
        ++counts.survivors;
        break;
      case CandidateStatus::unjudged:
        ++counts.unjudged;
        break;
    }
  }
  counts.coverage_points = coverage.size();
  counts.coverage_missed = static_cast<std::size_t>(std::count_if(
      coverage.begin(), coverage.end(), [](const CoveragePoint& point) { return !point.reached; }));
  return counts;
}

std::string strength_line(const StrengthResult& result) {
  std::string line = "strength: " + counts_line(result.counts());
  line += " (time " + seconds_text(result.seconds) + ", compiling " +
          seconds_text(result.compile_seconds) + ")";
  if (result.interrupted)
    line += " (interrupted)";
  return line;
}

std::string strength_details(const StrengthResult& result) {
  std::string text;
  if (result.before_fill)
    text += "before --fill: " + counts_line(*result.before_fill) + "\n";
  std::size_t listed = 0, gaps = 0;
  for (const CandidateOutcome& outcome : result.candidates) {
    if (outcome.status != CandidateStatus::gap || !outcome.gap)
      continue;
    if (++gaps > kListed)
      continue;
    ++listed;
    const std::size_t bytes = outcome.gap->input.size();
    text += "gap: " + outcome.candidate.name + ": group " + outcome.gap->group + ", a case of " +
            std::to_string(bytes) + " bytes (" + outcome.gap->verdict + ")\n";
  }
  if (gaps > listed)
    text += "... and " + std::to_string(gaps - listed) + " more gaps (the report lists them)\n";
  std::size_t misses = 0;
  for (const CoveragePoint& point : result.coverage) {
    if (point.reached || ++misses > kListed)
      continue;
    text += "coverage: group " + point.group + ": " + point.name + ": " + point.detail + "\n";
  }
  if (misses > kListed)
    text += "... and " + std::to_string(misses - kListed) + " more coverage points missed\n";
  if (!result.filled.empty())
    text += "--fill: " + std::to_string(result.filled.size()) + " tests added to the plan (" +
            std::string(kFillFolder) + "/)\n";
  if (result.selection) {
    const Selection& s = *result.selection;
    text += "--select: " + std::to_string(s.tests.size()) + " of " +
            std::to_string(result.tests.size()) + " tests keep every kill and coverage point (" +
            (s.optimal ? "the fewest" : "at least " + std::to_string(s.bound) + " needed") + ", " +
            seconds_text(s.seconds) + ")\n";
  }
  return text;
}

nlohmann::json strength_report(const nlohmann::json& header, const StrengthResult& result) {
  nlohmann::json report = {{"schema", "gamebatch-strength/1"}};
  report.update(header);
  report["time_limit"] = {{"seconds", result.time_limit_seconds},
                          {"source", result.time_limit_source}};
  report["counts"] = counts_json(result.counts());
  report["before_fill"] = result.before_fill ? counts_json(*result.before_fill) : nlohmann::json();
  nlohmann::json mutants = mutants_json(result.schemas);
  for (std::size_t s = 0; s < mutants.size() && s < result.schema_time_factors.size(); ++s)
    mutants[s]["time_factor"] = result.schema_time_factors[s];
  report["mutants"] = mutants;
  const auto [kills, unique] = kills_per_test(result);
  nlohmann::json tests = nlohmann::json::array();
  for (std::size_t t = 0; t < result.tests.size(); ++t) {
    nlohmann::json groups = nlohmann::json::array();
    for (const StrengthGroup& group : result.groups) {
      if (std::find(group.tests.begin(), group.tests.end(), t) != group.tests.end())
        groups.push_back(group.name);
    }
    tests.push_back({{"path", result.tests[t].input.string()},
                     {"groups", groups},
                     {"kills", kills[t]},
                     {"unique_kills", unique[t]},
                     {"accepted_seconds",
                      t < result.accepted_seconds.size() ? result.accepted_seconds[t] : 0.0}});
  }
  report["tests"] = tests;
  nlohmann::json candidates = nlohmann::json::array();
  for (const CandidateOutcome& outcome : result.candidates)
    candidates.push_back(candidate_json(outcome));
  report["candidates"] = candidates;
  report["coverage"] = coverage_json(result.coverage);
  nlohmann::json filled = nlohmann::json::array();
  for (const FillTest& test : result.filled)
    filled.push_back(
        {{"group", test.group}, {"kind", test.kind}, {"why", test.why}, {"file", test.file}});
  report["filled"] = filled;
  report["selection"] = nullptr;
  if (result.selection) {
    nlohmann::json paths = nlohmann::json::array();
    for (const std::size_t t : result.selection->tests)
      paths.push_back(result.tests[t].input.string());
    report["selection"] = {{"tests", paths},
                           {"count", result.selection->tests.size()},
                           {"of", result.tests.size()},
                           {"optimal", result.selection->optimal},
                           {"bound", result.selection->bound},
                           {"rows", result.selection->rows},
                           {"seconds", result.selection->seconds}};
  }
  report["interrupted"] = result.interrupted;
  report["seconds"] = result.seconds;
  report["compile_seconds"] = result.compile_seconds;
  report["phases"] = nlohmann::json::array();
  for (const PhaseTime& phase : result.phases)
    report["phases"].push_back({{"name", phase.name}, {"seconds", phase.seconds}});
  return report;
}

// ---- the page

namespace {

std::string verdict_cell(const std::optional<Verdict>& verdict) {
  if (!verdict)
    return "<td class=\"c-none\">-</td>";
  const std::string name(short_name(*verdict));
  return "<td class=\"c-" + name + "\">" + name + "</td>";
}

void add_heading(std::string& html, const StrengthResult& result) {
  const StrengthCounts counts = result.counts();
  html += "<h1>gamebatch strength: " + escape_html(result.package) + "</h1>\n";
  html += "<div class=\"summary\">" + escape_html(strength_line(result)) + "</div>\n";
  html += "<div class=\"cards\">" + html::card("candidates", html::count_text(counts.candidates)) +
          html::card("caught", html::count_text(counts.caught)) +
          html::card("gaps", html::count_text(counts.gaps), counts.gaps != 0) +
          html::card("survivors", html::count_text(counts.survivors)) +
          html::card("coverage missed",
                     html::count_text(counts.coverage_missed) + " of " +
                         html::count_text(counts.coverage_points),
                     counts.coverage_missed != 0) +
          html::card("time limit", html::seconds_text(result.time_limit_seconds)) +
          html::card("time", html::seconds_text(result.seconds)) + "</div>\n";
  html += "<p class=\"note\">Time limit: " + escape_html(result.time_limit_source) +
          ". A test kills a candidate where its verdict is not AC. A candidate no test kills is "
          "stressed within each group's limits: a <b>gap</b> where a case kills it, a "
          "<b>survivor</b> where none did (perhaps equivalent to the accepted solution).</p>\n";
}

void add_mutants(std::string& html, const StrengthResult& result) {
  if (result.schemas.empty())
    return;
  html += "<h2>Mutants</h2>\n<table>\n<tr><th>submission</th>";
  for (const io::MutationOperator op : io::kAllMutationOperators)
    html += "<th class=\"num\" title=\"" + escape_html(io::description(op)) + "\">" +
            std::string(io::short_name(op)) + "</th>";
  html += "<th class=\"num\">all</th><th>left out</th></tr>\n";
  for (const MutantSchemaBuild& build : result.schemas) {
    std::map<io::MutationOperator, std::size_t> per;
    for (const io::SourceMutant& mutant : build.schema.mutants)
      ++per[mutant.op];
    html += "<tr><td class=\"mono\">" + escape_html(build.submission) + "</td>";
    for (const io::MutationOperator op : io::kAllMutationOperators)
      html += "<td class=\"num\">" + html::count_text(per[op]) + "</td>";
    std::string left;
    for (const std::string& line : build.schema.left_out)
      left += (left.empty() ? "" : "; ") + line;
    if (!build.error.empty())
      left = build.error;
    html += "<td class=\"num\">" + html::count_text(build.schema.mutants.size()) + "</td><td>" +
            escape_html(left) + "</td></tr>\n";
  }
  html += "</table>\n";
}

void add_matrix(std::string& html, const StrengthResult& result) {
  html += "<h2>The kill matrix</h2>\n";
  if (result.candidates.size() > kMatrixCandidates) {
    html += "<p class=\"note\">" + html::count_text(result.candidates.size()) +
            " candidates: the matrix shows those the tests let through and the first " +
            html::count_text(kMatrixCandidates) + " others; the report has every run.</p>\n";
  }
  std::vector<std::size_t> shown;
  for (std::size_t c = 0; c < result.candidates.size(); ++c) {
    if (result.candidates[c].status != CandidateStatus::caught)
      shown.push_back(c);
  }
  for (std::size_t c = 0; c < result.candidates.size() && shown.size() < kMatrixCandidates; ++c) {
    if (result.candidates[c].status == CandidateStatus::caught)
      shown.push_back(c);
  }
  std::sort(shown.begin(), shown.end());
  for (const StrengthGroup& group : result.groups) {
    html += "<h3>group " + escape_html(group.name) +
            "</h3>\n<table class=\"matrix\">\n<tr><th>candidate</th>";
    for (const std::size_t t : group.tests)
      html += "<th class=\"mono\" title=\"" + escape_html(test_name(result, t)) + "\">" +
              std::to_string(t + 1) + "</th>";
    html += "</tr>\n";
    for (const std::size_t c : shown) {
      const CandidateOutcome& outcome = result.candidates[c];
      html += "<tr><td class=\"mono\">" + escape_html(outcome.candidate.name) + "</td>";
      for (const std::size_t t : group.tests)
        html += verdict_cell(outcome.verdicts.tests[t]);
      html += "</tr>\n";
    }
    html += "</table>\n";
  }
}

void add_tests(std::string& html, const StrengthResult& result) {
  const auto [kills, unique] = kills_per_test(result);
  html +=
      "<h2>Tests</h2>\n<table>\n<tr><th class=\"num\">#</th><th>test</th><th class=\"num\">"
      "kills</th><th class=\"num\">unique kills</th><th class=\"num\">accepted time</th>"
      "<th>selected</th></tr>\n";
  for (std::size_t t = 0; t < result.tests.size(); ++t) {
    const bool selected = result.selection && std::binary_search(result.selection->tests.begin(),
                                                                 result.selection->tests.end(), t);
    html +=
        "<tr><td class=\"num\">" + std::to_string(t + 1) + "</td><td class=\"path\">" +
        escape_html(test_name(result, t)) + "</td><td class=\"num\">" + html::count_text(kills[t]) +
        "</td><td class=\"num\">" + html::count_text(unique[t]) + "</td><td class=\"num\">" +
        html::seconds_text(t < result.accepted_seconds.size() ? result.accepted_seconds[t] : 0) +
        "</td><td>" + (result.selection ? (selected ? "yes" : "") : "-") + "</td></tr>\n";
  }
  html += "</table>\n";
}

void add_gaps(std::string& html, const io::Problem& problem, const StrengthResult& result) {
  std::string section;
  for (const CandidateOutcome& outcome : result.candidates) {
    if (outcome.status != CandidateStatus::gap || !outcome.gap)
      continue;
    section += "<h3 class=\"mono\">" + escape_html(outcome.candidate.name) + "</h3>\n<p>group " +
               escape_html(outcome.gap->group) + ": " + escape_html(outcome.gap->verdict) +
               "</p>\n<pre>" + html::shown_text(outcome.gap->input) + "</pre>\n";
    if (!outcome.diff.empty())
      section += "<pre>" + html::shown_text(outcome.diff) + "</pre>\n";
    try {
      const auto cases = problem.parse(outcome.gap->input);
      const std::string canonical = cases.front()->canonical();
      const io::Problem::Explained play = problem.explain_and_draw(canonical);
      section += "<div>" + play.svg.substr(play.svg.find("<svg")) + "</div>\n<pre>" +
                 html::shown_text(play.text) + "</pre>\n";
    } catch (const std::exception& error) {
      section += "<p class=\"note\">No play shown: " + escape_html(error.what()) + "</p>\n";
    }
  }
  if (!section.empty())
    html += "<h2>Gaps: candidates only the stress caught</h2>\n" + section;
}

void add_survivors(std::string& html, const StrengthResult& result) {
  std::string section;
  for (const CandidateOutcome& outcome : result.candidates) {
    if (outcome.status != CandidateStatus::survivor)
      continue;
    section += "<h3 class=\"mono\">" + escape_html(outcome.candidate.name) + "</h3>\n";
    if (!outcome.diff.empty())
      section += "<pre>" + html::shown_text(outcome.diff) + "</pre>\n";
  }
  if (!section.empty())
    html += "<h2>Survivors: nothing told them from the accepted solution</h2>\n" + section;
}

void add_coverage(std::string& html, const StrengthResult& result) {
  html +=
      "<h2>Coverage</h2>\n<table>\n<tr><th>group</th><th>kind</th><th>point</th><th>reached"
      "</th><th>detail</th></tr>\n";
  for (const CoveragePoint& point : result.coverage) {
    html += "<tr><td class=\"mono\">" + escape_html(point.group) + "</td><td>" +
            std::string(kind_name(point.kind)) + "</td><td>" + escape_html(point.name) +
            "</td><td class=\"" + (point.reached ? "c-AC\">yes" : "c-WA\">no") + "</td><td>" +
            escape_html(point.detail) + "</td></tr>\n";
  }
  html += "</table>\n";
  if (!result.filled.empty()) {
    html +=
        "<h2>Tests added by --fill</h2>\n<table>\n<tr><th>group</th><th>kind</th><th>file"
        "</th><th>why</th></tr>\n";
    for (const FillTest& test : result.filled)
      html += "<tr><td class=\"mono\">" + escape_html(test.group) + "</td><td>" + test.kind +
              "</td><td class=\"mono\">" + escape_html(test.file) + "</td><td>" +
              escape_html(test.why) + "</td></tr>\n";
    html += "</table>\n";
  }
}

}  // namespace

std::string strength_page(const nlohmann::json& header, const io::Problem& problem,
                          const StrengthResult& result) {
  std::string html = html::page_start("gamebatch strength " + result.game + " report");
  // What asks for action first (the gaps, the coverage missed, what --fill added), then what
  // explains it (the mutants, each test's kills, the survivors), the whole matrix last.
  add_heading(html, result);
  add_gaps(html, problem, result);
  add_coverage(html, result);
  add_mutants(html, result);
  add_tests(html, result);
  add_survivors(html, result);
  add_matrix(html, result);
  html += html::options_section(header);
  return html + html::page_end(header);
}

}  // namespace gamebatch::pipeline
