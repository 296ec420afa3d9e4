// The build and validate pages (package_pages.hpp): groups, tests, bounds and the package's
// validators.
#include "pipeline/package/package_pages.hpp"

#include "pipeline/report/html_page.hpp"

namespace gamebatch::pipeline {
namespace html {
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

}  // namespace html
}  // namespace gamebatch::pipeline
