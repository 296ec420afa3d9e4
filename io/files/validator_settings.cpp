#include "io/files/validator_settings.hpp"

#include <algorithm>
#include <cctype>
#include <system_error>

#include <yaml-cpp/yaml.h>
#include <pugixml.hpp>

#include "io/files/input_set.hpp"

namespace gamebatch::io {

namespace fs = std::filesystem;

namespace {

bool hidden(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.empty() || name.front() == '.' || name.back() == '~';
}

// The entries of `directory` by name, hidden ones and editor backups left out; none when it is
// no directory.
std::vector<fs::path> entries_of(const fs::path& directory) {
  std::vector<fs::path> entries;
  std::error_code error;
  if (!fs::is_directory(directory, error))
    return entries;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory, error)) {
    if (!hidden(entry.path()))
      entries.push_back(entry.path());
  }
  std::sort(entries.begin(), entries.end());
  return entries;
}

bool is_file(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

void find_kattis(const ProblemPackage& package, std::vector<PackageValidator>& found,
                 std::vector<std::string>& warnings) {
  for (const char* folder : kInputValidatorFolders) {
    const std::vector<fs::path> entries = entries_of(package.root / folder);
    if (!entries.empty() && folder != std::string_view(kInputValidatorFolders[0]))
      warnings.push_back(std::string(folder) +
                         "/: the legacy name of input_validators/ (verifyproblem warns that it "
                         "is deprecated)");
    for (const fs::path& entry : entries) {
      PackageValidator validator;
      validator.name = std::string(folder) + "/" + entry.filename().string();
      validator.path = entry;
      std::error_code error;
      validator.build_script =
          fs::is_directory(entry, error) && (is_file(entry / "build") || is_file(entry / "run"));
      found.push_back(std::move(validator));
    }
  }
}

std::optional<pugi::xml_document> read_problem_xml(const ProblemPackage& package) {
  const fs::path file = package.root / "problem.xml";
  if (!is_file(file))
    return std::nullopt;
  std::string text;
  try {
    text = read_file(file);
  } catch (const std::system_error&) {
    return std::nullopt;
  }
  std::optional<pugi::xml_document> document(std::in_place);
  if (!document->load_buffer(text.data(), text.size()))
    return std::nullopt;
  return document;
}

void find_polygon(const ProblemPackage& package, std::vector<PackageValidator>& found,
                  std::vector<std::string>& warnings) {
  const std::optional<pugi::xml_document> document = read_problem_xml(package);
  if (!document)
    return;
  for (const pugi::xpath_node& source :
       document->select_nodes("//validators/validator/source[@path]")) {
    const std::string path = source.node().attribute("path").value();
    const fs::path relative = fs::path(path).lexically_normal();
    if (path.empty() || relative.is_absolute() || *relative.begin() == "..") {
      warnings.push_back("problem.xml: validator source '" + path +
                         "' is not inside the package; left out");
      continue;
    }
    found.push_back({path, package.root / relative, ValidatorConvention::testlib, false});
  }
}

void find_task_maker(const ProblemPackage& package, std::vector<PackageValidator>& found) {
  for (const fs::path& entry : entries_of(package.root / "gen")) {
    const std::string stem = entry.stem().string();
    if ((stem == "validator" || stem == "valida") && is_file(entry)) {
      found.push_back(
          {"gen/" + entry.filename().string(), entry, ValidatorConvention::task_maker, false});
      return;  // task-maker takes the first
    }
  }
}

// A YAML node of strings (a list, or one string split at spaces) as arguments.
std::vector<std::string> arguments_of(const YAML::Node& node) {
  std::vector<std::string> arguments;
  if (node.IsSequence()) {
    for (const YAML::Node& item : node)
      arguments.push_back(item.as<std::string>());
  } else if (node.IsScalar()) {
    arguments = split_flags(node.as<std::string>());
  }
  return arguments;
}

}  // namespace

std::string_view convention_name(ValidatorConvention convention) {
  switch (convention) {
    case ValidatorConvention::kattis:
      return "kattis";
    case ValidatorConvention::testlib:
      return "testlib";
    case ValidatorConvention::task_maker:
      return "task-maker";
  }
  return "?";
}

std::vector<std::string> split_flags(const std::string& flags) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : flags) {
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      if (!word.empty())
        words.push_back(std::move(word));
      word.clear();
    } else {
      word.push_back(c);
    }
  }
  if (!word.empty())
    words.push_back(std::move(word));
  return words;
}

std::vector<PackageValidator> find_package_validators(const ProblemPackage& package,
                                                      std::vector<std::string>& warnings) {
  std::vector<PackageValidator> found;
  switch (package.layout) {
    case Layout::kattis:
      find_kattis(package, found, warnings);
      break;
    case Layout::polygon:
      find_polygon(package, found, warnings);
      break;
    case Layout::cms:
      find_task_maker(package, found);
      break;
  }
  return found;
}

ValidatorArguments::ValidatorArguments(const ProblemPackage& package) : root_(package.root) {
  switch (package.layout) {
    case Layout::kattis:
      read_kattis(package.root / "data", Flags{});
      break;
    case Layout::polygon:
      read_polygon(package);
      break;
    case Layout::cms: {
      // task-maker numbers subtasks from 1 after gen/GEN, from 0 after gen/cases.gen.
      std::size_t number = is_file(package.root / "gen" / "cases.gen") ? 0 : 1;
      for (const TestGroup& group : package.groups) {
        if (group.name == "sample")
          continue;
        for (const fs::path& test : group.tests)
          subtask_.emplace(test, number);
        ++number;
      }
      break;
    }
  }
}

// The settings of `directory` over those it inherits, then its subdirectories'.
void ValidatorArguments::read_kattis(const fs::path& directory, const Flags& inherited) {
  std::error_code error;
  if (!fs::is_directory(directory, error))
    return;
  Flags flags = inherited;
  for (const char* name : {"test_group.yaml", "testdata.yaml"}) {
    const fs::path file = directory / name;
    if (!is_file(file))
      continue;
    const std::string shown = file.lexically_relative(root_).generic_string();
    try {
      const YAML::Node root = YAML::Load(read_file(file));
      const YAML::Node args = root.IsMap() ? root["input_validator_args"] : YAML::Node();
      const YAML::Node legacy = root.IsMap() ? root["input_validator_flags"] : YAML::Node();
      if (const YAML::Node given = args ? args : legacy) {
        flags = Flags{};
        flags.is_map = given.IsMap();
        if (given.IsMap()) {
          for (const auto& entry : given)
            flags.by_name[entry.first.as<std::string>()] = arguments_of(entry.second);
        } else {
          flags.all = arguments_of(given);
        }
      }
    } catch (const std::exception& failure) {
      warnings_.push_back(shown + ": " + failure.what() + "; its validator flags are not used");
    }
    break;  // test_group.yaml, where there is one, is the group's settings
  }
  kattis_[directory.lexically_normal()] = flags;
  for (const fs::path& entry : entries_of(directory)) {
    if (fs::is_directory(entry, error))
      read_kattis(entry, flags);
  }
}

// problem.xml's testset "tests": the k-th <test> (tests/0k) with group="G".
void ValidatorArguments::read_polygon(const ProblemPackage& package) {
  const std::optional<pugi::xml_document> document = read_problem_xml(package);
  if (!document)
    return;
  const pugi::xpath_node_set tests = document->select_nodes("//testset[@name='tests']/tests/test");
  std::size_t number = 0;
  for (const pugi::xpath_node& test : tests) {
    ++number;
    if (const pugi::xml_attribute group = test.node().attribute("group"))
      polygon_groups_[std::to_string(number)] = group.value();
  }
}

std::vector<std::string> ValidatorArguments::of(const PackageValidator& validator,
                                                const fs::path& input) const {
  switch (validator.convention) {
    case ValidatorConvention::kattis: {
      const auto found = kattis_.find(input.parent_path().lexically_normal());
      if (found == kattis_.end())
        return {};
      if (!found->second.is_map)
        return found->second.all;
      const fs::path program = validator.path.filename();
      for (const std::string& key : {program.string(), program.stem().string()}) {
        if (const auto named = found->second.by_name.find(key);
            named != found->second.by_name.end())
          return named->second;
      }
      return {};
    }
    case ValidatorConvention::testlib: {
      std::string name = input.filename().string();
      if (name.empty() || !std::all_of(name.begin(), name.end(),
                                       [](unsigned char c) { return std::isdigit(c) != 0; }))
        return {};
      name.erase(0, std::min(name.find_first_not_of('0'), name.size() - 1));
      const auto group = polygon_groups_.find(name);
      if (group == polygon_groups_.end())
        return {};
      return {"--group", group->second};
    }
    case ValidatorConvention::task_maker: {
      const auto subtask = subtask_.find(input.lexically_normal());
      if (subtask == subtask_.end())
        return {};
      return {std::to_string(subtask->second)};
    }
  }
  return {};
}

}  // namespace gamebatch::io
