// The pages of `gamebatch build --html` and `gamebatch validate --html` (report/html_page.hpp has
// what every page shares).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace gamebatch::pipeline {

// Made in the namespace of the pages' parts (report/html_page.hpp), named here.
namespace html {

// The build page: the groups with their tests, largest values and points, and the tests that
// were not written (a limit broken). `report` is build's JSON report (gamebatch-build/1).
std::string build_page(const nlohmann::json& report);

// The package's validators, what they disagreed on, and the bounds its data reaches, from a
// report's "package_checks" (package_checks.hpp): a section of the build and validate pages.
std::string package_checks_section(const nlohmann::json& checks);

// The validate page: the files checked, and each package's checks. `report` is validate's JSON
// report (gamebatch-validate/1, package_checks.hpp).
std::string validate_page(const nlohmann::json& report);

}  // namespace html

using html::build_page;
using html::package_checks_section;
using html::validate_page;

}  // namespace gamebatch::pipeline
