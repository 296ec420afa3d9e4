#include "pipeline/package/invalid_inputs.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <system_error>
#include <tuple>

#include "io/files/atomic_file.hpp"
#include "io/files/input_set.hpp"
#include "io/format/strict_format.hpp"
#include "pipeline/programs/run_setup.hpp"

namespace gamebatch::pipeline {

namespace fs = std::filesystem;

namespace {

// How a blind spot names a group's limit beside the statement's of the same parameter.
constexpr std::string_view kGroupLimit = " (the group's limit)";

// A file name from a rule's name: letters, digits and '-' only.
std::string file_name_part(std::string_view text) {
  std::string name;
  for (const char c : text) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (plain)
      name += c;
    else if (!name.empty() && name.back() != '-')
      name += '-';
  }
  while (!name.empty() && name.back() == '-')
    name.pop_back();
  return name.empty() ? std::string("rule") : name;
}

struct WrittenMutant {
  std::string group;
  std::string rule;  // the rule, or the limit: "N", "N (the group's limit)"
  std::string what;  // what was changed: "N = 81 (the group's max + 1)"
  fs::path file;
  fs::path made_from;  // whose group's flags the validators get
};

// Writes the mutants of each group's first valid tests under `out`; those gamebatch accepts
// (no mutant then) are left out.
std::vector<WrittenMutant> write_mutants(std::string_view game,
                                         const std::vector<GroupTests>& groups, const fs::path& out,
                                         std::uint64_t seed) {
  std::vector<WrittenMutant> written;
  fs::create_directories(out);
  for (const GroupTests& group : groups) {
    const std::size_t tests = std::min(group.tests.size(), kMutatedTests);
    for (std::size_t t = 0; t < tests; ++t) {
      std::vector<io::Mutant> mutants;
      try {
        mutants = io::make_mutants(game, io::read_file(group.tests[t]), group.limits, seed + t);
      } catch (const std::exception&) {
        continue;  // unreadable, or not valid within this group's limits: no mutants of it
      }
      std::map<std::string, std::size_t> of_rule;
      for (const io::Mutant& mutant : mutants) {
        if (!io::strict_check(game, mutant.text, group.limits))
          continue;  // valid after all: no invalid input
        const std::string rule =
            mutant.rule + std::string(mutant.breaks_group_limit ? kGroupLimit : "");
        const std::string name = file_name_part(group.name) + "-" + std::to_string(t + 1) + "-" +
                                 file_name_part(mutant.rule) +
                                 (mutant.breaks_group_limit ? "-group-" : "-") +
                                 std::to_string(++of_rule[rule]) + ".in";
        io::write_file_atomically(out / name, mutant.text);
        written.push_back({group.name, rule, mutant.what, out / name, group.tests[t]});
      }
    }
  }
  return written;
}

}  // namespace

std::vector<fs::path> invalid_input_files(const io::ProblemPackage& package) {
  std::vector<fs::path> files;
  if (package.layout != io::Layout::kattis)
    return files;
  for (const char* folder : {"invalid_input", "invalid_inputs"}) {
    std::error_code error;
    const fs::path root = package.root / "data" / folder;
    if (!fs::is_directory(root, error))
      continue;
    for (auto at = fs::recursive_directory_iterator(root, error);
         !error && at != fs::recursive_directory_iterator(); at.increment(error)) {
      const std::string name = at->path().filename().string();
      if (at->is_regular_file(error) && name.size() > 3 && name.ends_with(".in"))
        files.push_back(at->path().lexically_normal());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

InvalidInputResult check_invalid_files(
    const PackageValidators& validators, const std::vector<fs::path>& files,
    const std::function<std::string(const fs::path&)>& gamebatch_rejection,
    const std::function<std::string(const fs::path&)>& shown, std::size_t jobs) {
  InvalidInputResult result;
  result.files = files.size();
  std::vector<std::string> lines(files.size());
  std::vector<std::size_t> runs(files.size());
  run_at_once(files.size(), jobs, [&](std::size_t f) {
    if (gamebatch_rejection(files[f]).empty())
      lines[f] += shown(files[f]) + ": gamebatch accepts it; it must be rejected\n";
    for (std::size_t k = 0; k < validators.size(); ++k) {
      if (!validators.runnable(k))
        continue;
      ++runs[f];
      const ValidatorRun run = validators.run(k, files[f], files[f]);
      if (run.verdict == ValidatorVerdict::rejected)
        continue;
      lines[f] += shown(files[f]) + ": " + validators.validator(k).name + " " +
                  std::string(verdict_words(run.verdict)) + " it" +
                  (run.message.empty() ? "" : " (" + run.message + ")") +
                  (run.verdict == ValidatorVerdict::accepted ? "; it must be rejected" : "") + "\n";
    }
  });
  for (std::size_t f = 0; f < files.size(); ++f) {
    result.runs += runs[f];
    std::size_t from = 0;
    for (std::size_t end; (end = lines[f].find('\n', from)) != std::string::npos; from = end + 1)
      result.blind_spots.push_back(lines[f].substr(from, end - from));
  }
  return result;
}

InvalidInputResult check_mutants(std::string_view game, const PackageValidators& validators,
                                 const std::vector<GroupTests>& groups, const fs::path& out,
                                 std::uint64_t seed, std::size_t jobs) {
  InvalidInputResult result;
  const std::vector<WrittenMutant> mutants = write_mutants(game, groups, out, seed);
  result.mutants = mutants.size();
  // verdicts[m][k]: what validator k made of mutant m.
  std::vector<std::vector<ValidatorRun>> verdicts(mutants.size());
  run_at_once(mutants.size(), jobs, [&](std::size_t m) {
    verdicts[m].resize(validators.size());
    for (std::size_t k = 0; k < validators.size(); ++k) {
      if (validators.runnable(k))
        verdicts[m][k] = validators.run(k, mutants[m].file, mutants[m].made_from);
    }
  });
  // The first mutant of each (validator, group, rule) that was not rejected, and how many.
  std::map<std::tuple<std::size_t, std::string, std::string>, std::pair<std::size_t, std::size_t>>
      missed;
  std::vector<std::tuple<std::size_t, std::string, std::string>> order;
  for (std::size_t m = 0; m < mutants.size(); ++m) {
    for (std::size_t k = 0; k < validators.size(); ++k) {
      if (!validators.runnable(k))
        continue;
      ++result.runs;
      if (verdicts[m][k].verdict == ValidatorVerdict::rejected)
        continue;
      const auto key = std::make_tuple(k, mutants[m].group, mutants[m].rule);
      const auto [at, added] = missed.try_emplace(key, m, 0);
      at->second.second += 1;
      if (added)
        order.push_back(key);
    }
  }
  for (const auto& key : order) {
    const auto [first, count] = missed[key];
    const std::size_t k = std::get<0>(key);
    const ValidatorRun& run = verdicts[first][k];
    std::string line = validators.validator(k).name + " " +
                       std::string(verdict_words(run.verdict)) + " a mutant breaking '" +
                       std::get<2>(key) + "' in group " + std::get<1>(key) + " (" +
                       mutants[first].what + "): " + mutants[first].file.string();
    if (count > 1)
      line += " (and " + std::to_string(count - 1) + " more of that rule)";
    if (std::get<2>(key).ends_with(kGroupLimit) &&
        validators.arguments(k, mutants[first].made_from).empty())
      line += "; the package gives it no flags in this group";
    if (run.verdict == ValidatorVerdict::failed && !run.message.empty())
      line += ": " + run.message;
    result.blind_spots.push_back(std::move(line));
  }
  return result;
}

}  // namespace gamebatch::pipeline
