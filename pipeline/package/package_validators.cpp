#include "pipeline/package/package_validators.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <mutex>
#include <set>
#include <stdexcept>
#include <system_error>

#include <spdlog/spdlog.h>

#include "io/files/atomic_file.hpp"
#include "io/files/input_set.hpp"
#include "io/run/limited_process.hpp"
#include "pipeline/programs/run_setup.hpp"

namespace gamebatch::pipeline {

namespace fs = std::filesystem;

namespace {

std::string shell_word(std::string_view text) {
  std::string word = "'";
  for (const char c : text)
    word += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return word + "'";
}

// The last lines of a validator's standard error, on one line, at most 300 characters.
std::string stderr_message(const std::string& tail) {
  std::string text;
  std::size_t end = tail.find_last_not_of(" \t\r\n");
  if (end == std::string::npos)
    return text;
  std::string_view kept(tail.data(), end + 1);
  if (kept.size() > 300)
    kept.remove_prefix(kept.size() - 300);
  for (const char c : kept)
    text += c == '\n' ? std::string(" / ") : std::string(1, c == '\r' || c == '\t' ? ' ' : c);
  return text;
}

bool under_invalid_inputs(const fs::path& root, const fs::path& input) {
  const fs::path relative = input.lexically_relative(root);
  auto part = relative.begin();
  if (part == relative.end() || *part != "data" || ++part == relative.end())
    return false;
  return *part == "invalid_input" || *part == "invalid_inputs";
}

io::ProcessLimits validator_limits(const JudgeSettings& judge) {
  io::ProcessLimits limits = process_limits(judge_limits(judge));
  limits.output_bytes = kValidatorOutputBytes;
  return limits;
}

}  // namespace

std::string_view verdict_words(ValidatorVerdict verdict) {
  switch (verdict) {
    case ValidatorVerdict::accepted:
      return "accepts";
    case ValidatorVerdict::rejected:
      return "rejects";
    case ValidatorVerdict::failed:
      return "failed on";
  }
  return "?";
}

PackageValidators::PackageValidators(const io::ProblemPackage& package, const JudgeSettings& judge,
                                     const std::string& cache_file, bool no_cache,
                                     io::SandboxPool* sandbox)
    : sandbox_(sandbox), judge_(judge) {
  for (io::PackageValidator& found : io::find_package_validators(package, warnings_))
    validators_.push_back({std::move(found), std::string()});
  arguments_ = std::make_unique<io::ValidatorArguments>(package);
  warnings_.insert(warnings_.end(), arguments_->warnings().begin(), arguments_->warnings().end());
  if (validators_.empty())
    return;
  io::LanguageTable languages;
  if (!load_languages(judge, languages))
    throw std::runtime_error("the languages of --languages cannot be read");
  std::string pattern = (fs::temp_directory_path() / "gamebatch-validators-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::system_error(errno, std::generic_category(), "cannot make " + pattern);
  scratch_ = pattern;
  store_.emplace(cache_file, no_cache);
  prepare(languages, store_->path());
}

PackageValidators::~PackageValidators() {
  if (!scratch_.empty()) {
    std::error_code ignored;
    fs::remove_all(scratch_, ignored);
  }
}

// Each validator's command: a source compiled (Polygon's with the headers beside it), a
// directory's `build` run, a program run as it is.
void PackageValidators::prepare(const io::LanguageTable& languages, const fs::path& store) {
  io::BuildSettings settings;
  settings.store = store;
  settings.sandbox = sandbox_;
  std::mutex mutex;  // guards problems_
  run_at_once(validators_.size(), 2, [&](std::size_t k) {
    Prepared& prepared = validators_[k];
    const io::PackageValidator& found = prepared.found;
    std::error_code error;
    try {
      if (found.build_script) {
        prepared.command = build_directory(found);
        return;
      }
      fs::path source = found.path;
      if (found.convention == io::ValidatorConvention::testlib)
        source = source_with_headers(found);
      if (io::language_of(languages, source) != nullptr) {
        const io::BuiltSolution built = io::build_solution(source, languages, settings);
        if (built.compile_error)
          throw std::runtime_error("compile error: " + stderr_message(*built.compile_error));
        prepared.command = built.command;
      } else if (fs::is_regular_file(found.path, error) &&
                 ::access(found.path.c_str(), X_OK) == 0) {
        prepared.command = shell_word(found.path.string());
      } else {
        throw std::runtime_error(
            "neither a program (not executable) nor a source of a language gamebatch knows");
      }
    } catch (const std::exception& failure) {
      prepared.command.clear();
      const std::lock_guard lock(mutex);
      problems_.push_back(found.name + ": cannot be run: " + failure.what());
    }
  });
  std::sort(problems_.begin(), problems_.end());
}

// A Polygon validator's source with the headers of its folder (testlib.h), in a folder of its
// own: compiled as a directory solution, whose headers the store keeps.
fs::path PackageValidators::source_with_headers(const io::PackageValidator& validator) {
  const fs::path folder = scratch_ / ("polygon-" + validator.path.stem().string());
  fs::create_directories(folder);
  fs::copy_file(validator.path, folder / validator.path.filename(),
                fs::copy_options::overwrite_existing);
  std::error_code error;
  for (const fs::directory_entry& entry :
       fs::directory_iterator(validator.path.parent_path(), error)) {
    const std::string extension = entry.path().extension().string();
    if ((extension == ".h" || extension == ".hpp") && entry.is_regular_file(error))
      fs::copy_file(entry.path(), folder / entry.path().filename(),
                    fs::copy_options::overwrite_existing);
  }
  return folder;
}

// A directory with `build` and `run`: a copy of it built in the sandbox (its scratch is the
// working directory) and brought out as a tar stream, or built as the user without one.
std::string PackageValidators::build_directory(const io::PackageValidator& validator) {
  const fs::path built = scratch_ / ("built-" + validator.path.filename().string());
  fs::create_directories(built);
  io::ProcessLimits limits;
  limits.cpu_seconds = 60;
  limits.wall_seconds = 180;
  limits.memory_bytes = std::uint64_t{2} << 30;
  const std::string steps =
      "if [ -f build ]; then sh ./build >&2 || exit 1; fi; [ -f run ] || { echo 'no run script "
      "after build' >&2; exit 1; }";
  io::ProcessResult result;
  if (sandbox_ != nullptr) {
    limits.output_bytes = std::uint64_t{256} << 20;
    result = io::run_limited("cp -R " + shell_word((validator.path / ".").string()) +
                                 " ./validator && cd ./validator && " + steps + " && tar -cf - .",
                             io::StdinText{}, limits, sandbox_);
    if (result.end == io::ProcessEnd::exited && result.exit_status == 0) {
      const fs::path archive = scratch_ / (built.filename().string() + ".tar");
      io::write_file_atomically(archive, result.output);
      result = io::run_limited(
          "tar -xf " + shell_word(archive.string()) + " -C " + shell_word(built.string()),
          io::StdinText{}, limits);
    }
  } else {
    fs::copy(validator.path, built, fs::copy_options::recursive);
    result = io::run_limited("cd " + shell_word(built.string()) + " && " + steps, io::StdinText{},
                             limits);
  }
  if (result.end != io::ProcessEnd::exited || result.exit_status != 0)
    throw std::runtime_error("its build failed: " + io::describe(result) + ": " +
                             stderr_message(result.stderr_tail));
  return "cd " + shell_word(built.string()) + " && sh ./run";
}

std::vector<std::string> PackageValidators::arguments(std::size_t k, const fs::path& test) const {
  return arguments_->of(validators_[k].found, test);
}

ValidatorRun PackageValidators::run(std::size_t k, const fs::path& input,
                                    const fs::path& flags_of) const {
  const Prepared& prepared = validators_[k];
  const io::ValidatorConvention convention = prepared.found.convention;
  std::string command = prepared.command;
  std::vector<std::string> words = arguments(k, flags_of);
  if (convention == io::ValidatorConvention::task_maker)
    words.insert(words.begin(), input.string());
  for (const std::string& word : words) {
    command += ' ';  // appended apart: GCC 12 warns (-Wrestrict) of " " + word, wrongly
    command += shell_word(word);
  }
  const io::ProcessResult result =
      io::run_limited(command, io::StdinFile{input}, validator_limits(judge_), sandbox_);
  ValidatorRun run;
  run.message = stderr_message(result.stderr_tail);
  if (result.end != io::ProcessEnd::exited) {
    run.message = io::describe(result) + (run.message.empty() ? "" : ": " + run.message);
    return run;
  }
  const int status = result.exit_status;
  if (convention == io::ValidatorConvention::kattis) {
    if (status == 42 || status == 43) {
      run.verdict = status == 42 ? ValidatorVerdict::accepted : ValidatorVerdict::rejected;
      return run;
    }
    run.message = "exit status " + std::to_string(status) + ", neither 42 (valid) nor 43" +
                  (run.message.empty() ? "" : ": " + run.message);
    return run;
  }
  if (status == 126 || status == 127) {  // the shell could not start it
    run.message = "exit status " + std::to_string(status) + " (it did not start)" +
                  (run.message.empty() ? "" : ": " + run.message);
    return run;
  }
  run.verdict = status == 0 ? ValidatorVerdict::accepted : ValidatorVerdict::rejected;
  return run;
}

ValidatorComparison compare_with_validators(
    const PackageValidators& validators, const std::vector<fs::path>& tests,
    const std::function<std::string(const fs::path&)>& gamebatch_rejection,
    const std::function<std::string(const fs::path&)>& shown, std::size_t jobs) {
  ValidatorComparison comparison;
  comparison.tests = tests.size();
  bool any = false;
  for (std::size_t k = 0; k < validators.size(); ++k)
    any = any || validators.runnable(k);
  if (!any)
    return comparison;
  std::vector<std::string> lines(tests.size());
  std::vector<std::size_t> runs(tests.size());
  run_at_once(tests.size(), jobs, [&](std::size_t t) {
    const std::string rejection = gamebatch_rejection(tests[t]);
    for (std::size_t k = 0; k < validators.size(); ++k) {
      if (!validators.runnable(k))
        continue;
      ++runs[t];
      const ValidatorRun run = validators.run(k, tests[t], tests[t]);
      const bool agree = (run.verdict == ValidatorVerdict::accepted && rejection.empty()) ||
                         (run.verdict == ValidatorVerdict::rejected && !rejection.empty());
      if (agree)
        continue;
      std::string line = shown(tests[t]) + ": " + validators.validator(k).name + " " +
                         std::string(verdict_words(run.verdict)) + " it";
      if (!run.message.empty())
        line += " (" + run.message + ")";
      line += rejection.empty() ? "; gamebatch accepts it" : "; gamebatch rejects it: " + rejection;
      lines[t] += line + "\n";
    }
  });
  for (std::size_t t = 0; t < tests.size(); ++t) {
    comparison.runs += runs[t];
    if (!lines[t].empty())
      comparison.disagreements.push_back(lines[t].substr(0, lines[t].size() - 1));
  }
  return comparison;
}

std::vector<fs::path> package_tests(const io::ProblemPackage& package) {
  std::vector<fs::path> tests;
  std::set<fs::path> seen;
  if (!package.groups.empty()) {
    for (const io::TestGroup& group : package.groups) {
      for (const fs::path& test : group.tests) {
        if (seen.insert(test).second)
          tests.push_back(test);
      }
    }
    return tests;
  }
  const io::InputList inputs =
      io::collect_input_list({package.root.string()}, std::nullopt, package.layout);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const fs::path input = fs::absolute(inputs[k].input).lexically_normal();
    if (!under_invalid_inputs(package.root, input))
      tests.push_back(input);
  }
  return tests;
}

}  // namespace gamebatch::pipeline
