#include "io/input_set.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <map>
#include <set>
#include <system_error>

namespace gamebatch::io {

namespace fs = std::filesystem;

fs::path answer_name(const fs::path& input_name) {
  fs::path answer = input_name;
  if (answer.extension() == ".in") {
    answer.replace_extension(".ans");
  } else {
    answer += ".ans";
  }
  return answer;
}

namespace {

void add_directory(const fs::path& root, const std::optional<fs::path>& out_dir,
                   std::vector<InputFile>& inputs) {
  std::vector<fs::path> found;
  std::error_code error;
  fs::recursive_directory_iterator walk(root, fs::directory_options::none, error);
  for (; !error && walk != fs::recursive_directory_iterator(); walk.increment(error)) {
    const fs::directory_entry& entry = *walk;
    if (entry.path().extension() == ".in" && entry.is_regular_file(error)) {
      found.push_back(entry.path());
    }
  }
  if (error)
    throw UsageError("cannot walk directory " + root.string() + ": " + error.message());
  std::sort(found.begin(), found.end());
  for (const fs::path& input : found) {
    const fs::path relative = input.lexically_relative(root);
    inputs.push_back({input, answer_name(out_dir ? *out_dir / relative : input)});
  }
}

}  // namespace

std::vector<InputFile> collect_inputs(const std::vector<std::string>& paths,
                                      const std::optional<fs::path>& out_dir) {
  std::vector<InputFile> inputs;
  for (const std::string& argument : paths) {
    const fs::path path(argument);
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (error || !fs::exists(status)) {
      throw UsageError("no such file or directory: " + argument);
    }
    if (fs::is_directory(status)) {
      add_directory(path, out_dir, inputs);
    } else {
      inputs.push_back({path, answer_name(out_dir ? *out_dir / path.filename() : path)});
    }
  }

  // Two inputs may meet at one answer file (a file named twice, a directory and a file in it), and
  // an answer file may be an input itself (`solve a a.ans`): writing it would destroy an input.
  auto resolved = [](const fs::path& path) {
    std::error_code error;
    fs::path canonical = fs::weakly_canonical(path, error);
    if (error)
      throw UsageError("cannot resolve " + path.string() + ": " + error.message());
    return canonical;
  };
  std::map<fs::path, fs::path> input_of_answer;
  std::set<fs::path> input_keys;
  std::vector<InputFile> unique;
  for (InputFile& file : inputs) {
    const fs::path answer_key = resolved(file.answer);
    const fs::path input_key = resolved(file.input);
    input_keys.insert(input_key);
    const auto [it, inserted] = input_of_answer.emplace(answer_key, input_key);
    if (inserted) {
      unique.push_back(std::move(file));
    } else if (it->second != input_key) {
      throw UsageError("two inputs would write the same answer file " + file.answer.string() +
                       ": " + it->second.string() + " and " + input_key.string());
    }
  }
  for (const auto& [answer_key, input_key] : input_of_answer) {
    if (input_keys.count(answer_key) != 0) {
      throw UsageError("the answer file of " + input_key.string() + " would overwrite the input " +
                       answer_key.string());
    }
  }
  return unique;
}

}  // namespace gamebatch::io

namespace gamebatch::io {

std::string read_file(const fs::path& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    throw std::system_error(errno, std::generic_category(), "cannot open");
  }
  std::string content;
  char buffer[1 << 16];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0)
    content.append(buffer, got);
  const bool failed = std::ferror(file) != 0;
  const int saved_errno = errno;
  std::fclose(file);
  if (failed)
    throw std::system_error(saved_errno, std::generic_category(), "cannot read");
  return content;
}

}  // namespace gamebatch::io
