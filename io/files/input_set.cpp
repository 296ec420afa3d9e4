#include "io/files/input_set.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <functional>
#include <system_error>
#include <unordered_map>

#include "io/files/path_names.hpp"

namespace gamebatch::io {

namespace fs = std::filesystem;

namespace {

std::string_view parent_of(std::string_view name) {
  const std::size_t slash = name.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : name.substr(0, slash);
}

// X.in -> X.ans, else ".ans" appended, on the text: path::extension() and replace_extension()
// split the path into components, a tenth of the per-file cost of a run of small files. The Kattis
// layout names answers this way.
std::string answer_text(std::string name) {
  return layout_answer_text(Layout::kattis, std::move(name));
}

// Whether a layout may put an answer in another directory than its input's (cms: input/ ->
// output/); the others only rename the file, so the answer's directory costs nothing to find.
bool answers_elsewhere(const std::optional<Layout>& layout) {
  return layout == Layout::cms;
}

// The answer's name within its directory: every layout maps a file name alone.
std::string answer_file_name(const std::optional<Layout>& layout, std::string_view input_name) {
  return layout ? layout_answer_text(*layout, std::string(input_name))
                : answer_text(std::string(input_name));
}

}  // namespace

fs::path answer_name(const fs::path& input_name) {
  return fs::path(answer_text(input_name.native()));
}

std::vector<fs::path> InputList::answer_directories() const {
  std::vector<fs::path> directories;
  // Names of one walked directory come sorted, so a directory repeats in a run of entries.
  std::size_t previous_root = kGiven;
  std::string_view previous_parent;
  for (const Entry& entry : files_) {
    if (entry.root == kGiven) {
      directories.push_back(given_[entry.name].answer.parent_path());
      continue;
    }
    const std::optional<fs::path>& root = roots_[entry.root];
    const std::string_view relative = name(entry);
    if (const std::optional<Layout>& layout = layouts_[entry.root]; answers_elsewhere(layout)) {
      // Ask the layout (packages are small).
      const fs::path relative_path(relative);
      const fs::path input = root ? *root / relative_path : relative_path;
      directories.push_back(
          answer_of(layout, input, root ? relative_path : relative_path.filename()).parent_path());
      continue;
    }
    if (!root) {  // a file argument
      directories.push_back(out_dir_ ? *out_dir_ : fs::path(relative).parent_path());
      continue;
    }
    const std::string_view parent = parent_of(relative);
    if (entry.root == previous_root && parent == previous_parent)
      continue;
    previous_root = entry.root;
    previous_parent = parent;
    const fs::path& base = out_dir_ ? *out_dir_ : *root;
    directories.push_back(parent.empty() ? base : base / parent);
  }
  for (fs::path& directory : directories) {
    directory = directory.lexically_normal();
    if (directory.has_relative_path() && !directory.has_filename())  // "d/" -> "d"
      directory = directory.parent_path();
  }
  std::sort(directories.begin(), directories.end());
  directories.erase(std::unique(directories.begin(), directories.end()), directories.end());
  return directories;
}

fs::path InputList::answer_of(const std::optional<Layout>& layout, const fs::path& input,
                              const fs::path& relative) const {
  if (!layout)
    return answer_name(out_dir_ ? *out_dir_ / relative : input);
  // Under --out the layout maps the relative path: cms' input/input0.txt -> out/output/...
  if (out_dir_)
    return *out_dir_ / layout_answer_path(*layout, relative);
  return layout_answer_path(*layout, input);
}

InputList::InputList(std::vector<InputFile> files) : given_(std::move(files)) {
  for (std::size_t index = 0; index < given_.size(); ++index)
    files_.push_back({index, kGiven});
}

InputFile InputList::operator[](std::size_t index) const {
  const Entry& entry = files_[index];
  if (entry.root == kGiven)
    return given_[entry.name];
  const std::optional<fs::path>& root = roots_[entry.root];
  const std::optional<Layout>& layout = layouts_[entry.root];
  if (root) {
    fs::path relative(name(entry));
    fs::path input = *root / relative;
    fs::path answer = answer_of(layout, input, relative);
    return {std::move(input), std::move(answer), std::move(relative)};
  }
  fs::path input(name(entry));
  if (input == kStandardStream)
    return {input, input, input};
  fs::path relative = input.filename();
  fs::path answer = answer_of(layout, input, relative);
  return {std::move(input), std::move(answer), std::move(relative)};
}

std::string InputList::relative_name(std::size_t index) const {
  const Entry& entry = files_[index];
  if (entry.root == kGiven)
    return given_[entry.name].relative.generic_string();
  if (roots_[entry.root])
    return std::string(name(entry));
  return fs::path(name(entry)).filename().generic_string();
}

std::vector<InputFile> InputList::to_vector() const {
  std::vector<InputFile> files;
  files.reserve(size());
  for (std::size_t index = 0; index < size(); ++index)
    files.push_back((*this)[index]);
  return files;
}

namespace {

// fs::path's order (component by component) on '/'-separated relative names: a separator sorts
// before every other character.
bool path_less(std::string_view a, std::string_view b) {
  const std::size_t common = std::min(a.size(), b.size());
  for (std::size_t k = 0; k < common; ++k) {
    if (a[k] == b[k])
      continue;
    if (a[k] == '/')
      return true;
    if (b[k] == '/')
      return false;
    return static_cast<unsigned char>(a[k]) < static_cast<unsigned char>(b[k]);
  }
  return a.size() < b.size();
}

// Where a file lives once symbolic links and `..` are resolved: a directory (resolved once per
// distinct directory, an id) and the file's name in it.
struct Key {
  std::uint32_t directory = 0;
  std::string name;
  bool operator==(const Key& other) const {
    return directory == other.directory && name == other.name;
  }
};

std::uint64_t hash_of(const Key& key) {
  std::uint64_t h = std::hash<std::string>()(key.name) ^ (key.directory * 0x9E3779B97F4A7C15ULL);
  h ^= h >> 31;  // splitmix64's finaliser
  h *= 0xBF58476D1CE4E5B9ULL;
  return h ^ (h >> 29);
}

// Resolves each distinct directory once and numbers the results.
class Directories {
 public:
  // `spelled` as written (relative to the working directory); resolved on first sight.
  std::uint32_t of_spelled(const fs::path& spelled) {
    const auto found = spelled_.find(spelled.native());
    if (found != spelled_.end())
      return found->second;
    std::error_code error;
    const fs::path resolved =
        fs::weakly_canonical(spelled.empty() ? fs::path(".") : spelled, error);
    if (error)
      throw UsageError("cannot resolve " + spelled.string() + ": " + error.message());
    const std::uint32_t id = of_resolved(resolved.native());
    spelled_.emplace(spelled.native(), id);
    return id;
  }
  // An already resolved directory.
  std::uint32_t of_resolved(const std::string& resolved) {
    return resolved_.emplace(resolved, static_cast<std::uint32_t>(resolved_.size())).first->second;
  }

 private:
  std::unordered_map<std::string, std::uint32_t> spelled_;
  std::unordered_map<std::string, std::uint32_t> resolved_;
};

// The keys of one input file, kept only while the set is checked.
struct FileKeys {
  std::uint32_t input_directory;   // where the input's own name is (the answer's too without --out)
  std::uint32_t answer_directory;  // where its answer file is
  std::int32_t link = -1;          // the resolved key of a symbolic link, in `links`
};

// One directory argument being walked: a problem package's layout gives its inputs, else every
// *.in file in it is one.
struct DirectoryArgument {
  const std::string& argument;
  const fs::path& path;
  std::optional<Layout> layout;  // the package's, when it is one
  std::string prefix;            // the path as spelled and '/': the walk's names start with it
  std::size_t root;              // its index in roots_
};

}  // namespace

// collect_input_list's steps and what they carry from argument to argument: the list, each
// distinct directory resolved once, and each file's keys, kept only while the set is checked.
struct InputList::Collector {
  Collector(const std::optional<fs::path>& out_directory, std::optional<Layout> given_layout);

  InputList list;
  const std::optional<fs::path>& out_dir;
  const std::optional<Layout> layout;
  Directories directories;
  std::vector<FileKeys> keys;
  std::vector<Key> links;
  std::optional<std::uint32_t> out_id;

  void add_argument(const std::string& argument);
  void add_directory(const std::string& argument, const fs::path& path);
  std::vector<bool> walk_inputs(const DirectoryArgument& directory,
                                const std::vector<fs::path>& walked);
  std::vector<std::size_t> sort_names(std::size_t first);
  void add_walked_keys(const DirectoryArgument& directory, std::size_t first,
                       const std::vector<std::size_t>& order, const std::vector<bool>& is_link);
  std::uint32_t walked_answer_directory(const DirectoryArgument& directory, std::string_view name,
                                        std::string_view relative_directory,
                                        std::uint32_t input_directory);
  void add_name(std::string_view name, std::size_t root);
  std::int32_t link_key(const fs::path& path);
  std::uint32_t layout_answer_directory(Layout answer_layout, const std::string& input,
                                        std::uint32_t input_directory);

  Key input_key(std::size_t index) const;
  Key own_key(std::size_t index) const;
  Key answer_key(std::size_t index) const;
  std::string answer_path(std::size_t index) const { return list[index].answer.string(); }
  std::string input_path(std::size_t index) const { return list[index].input.string(); }
  std::vector<bool> drop_repeated_inputs() const;
  void check_no_answer_is_an_input(const std::vector<bool>& dropped) const;
  void keep(const std::vector<bool>& dropped);
};

InputList::Collector::Collector(const std::optional<fs::path>& out_directory,
                                std::optional<Layout> given_layout)
    : out_dir(out_directory), layout(given_layout) {
  list.out_dir_ = out_dir;
  if (out_dir)
    out_id = directories.of_spelled(*out_dir);
  list.roots_.emplace_back();  // file arguments share one root: none
  list.layouts_.push_back(layout);
}

void InputList::Collector::add_name(std::string_view name, std::size_t root) {
  list.files_.push_back({list.names_.size(), root});
  list.names_.append(name);
  list.names_.push_back('\0');
}

// A symbolic link among the inputs is the file it points to, as well as its own name.
std::int32_t InputList::Collector::link_key(const fs::path& path) {
  std::error_code error;
  const fs::path resolved = fs::weakly_canonical(path, error);
  if (error)
    throw UsageError("cannot resolve " + path.string() + ": " + error.message());
  links.push_back(
      {directories.of_resolved(resolved.parent_path().native()), resolved.filename().native()});
  return static_cast<std::int32_t>(links.size() - 1);
}

// Where a layout puts the answer of the input spelled `input` (a directory of its own for cms),
// given the input's directory: the same id unless the answer's directory differs.
std::uint32_t InputList::Collector::layout_answer_directory(Layout answer_layout,
                                                            const std::string& input,
                                                            std::uint32_t input_directory) {
  const std::string answer = layout_answer_text(answer_layout, input);
  const std::string_view answer_parent = parent_of(answer);
  if (answer_parent == parent_of(input))
    return input_directory;
  return directories.of_spelled(fs::path(answer_parent));
}

void InputList::Collector::add_argument(const std::string& argument) {
  const std::size_t file_root = 0;
  if (argument == kStandardStream) {  // a file of no directory, its answer on stdout
    const std::uint32_t directory = directories.of_spelled(fs::path());
    add_name(argument, file_root);
    keys.push_back({directory, directory, -1});
    return;
  }
  const fs::path path(argument);
  std::error_code error;
  const fs::file_status own = fs::symlink_status(path, error);
  fs::file_status status = own;
  if (!error && fs::is_symlink(own))
    status = fs::status(path, error);
  if (error || !fs::exists(status))
    throw UsageError("no such file or directory: " + argument);
  if (fs::is_directory(status)) {
    add_directory(argument, path);
    return;
  }
  const std::uint32_t directory = directories.of_spelled(path.parent_path());
  std::uint32_t answer_directory = out_id ? *out_id : directory;
  if (answers_elsewhere(layout) && !out_id)
    answer_directory = layout_answer_directory(*layout, argument, directory);
  add_name(argument, file_root);
  keys.push_back({directory, answer_directory, fs::is_symlink(own) ? link_key(path) : -1});
}

// A directory: its files' names relative to it, sorted, then their keys.
void InputList::Collector::add_directory(const std::string& argument, const fs::path& path) {
  // A problem package gives the inputs of its layout under its input roots; any other directory
  // every *.in file in it.
  const std::optional<ProblemPackage> package = recognise_package(path, layout);
  std::optional<Layout> root_layout;
  std::vector<fs::path> walked = {path};
  if (package) {
    root_layout = package->layout;
    walked.clear();
    for (const fs::path& input_root : package->input_roots) {
      const fs::path inside = input_root.lexically_relative(package->root);
      walked.push_back(inside.empty() || inside == "." ? path : path / inside);
    }
  }
  DirectoryArgument directory{argument, path, root_layout, path.native(), list.roots_.size()};
  list.roots_.emplace_back(path);
  list.layouts_.push_back(root_layout);
  if (!directory.prefix.empty() && directory.prefix.back() != '/')
    directory.prefix.push_back('/');
  const std::size_t first = list.files_.size();
  const std::vector<bool> is_link = walk_inputs(directory, walked);
  add_walked_keys(directory, first, sort_names(first), is_link);
}

// Adds the names of the inputs found under `walked`; whether each is a symbolic link, in order.
std::vector<bool> InputList::Collector::walk_inputs(const DirectoryArgument& directory,
                                                    const std::vector<fs::path>& walked) {
  const std::string& prefix = directory.prefix;
  std::vector<bool> is_link;
  std::error_code error;
  for (const fs::path& walk_root : walked) {
    fs::recursive_directory_iterator walk(walk_root, fs::directory_options::none, error);
    for (; !error && walk != fs::recursive_directory_iterator(); walk.increment(error)) {
      const fs::directory_entry& entry = *walk;
      const std::string& found = entry.path().native();
      // Names of the layout's inputs (.in as answer_text reads it), then regular files only.
      const bool named_as_input = directory.layout
                                      ? is_layout_input(*directory.layout, entry.path())
                                      : last_component(found).size() > 3 && found.ends_with(".in");
      if (!named_as_input || !entry.is_regular_file(error))
        continue;
      // The walk joins names to the argument as spelled; a name is what follows.
      if (found.compare(0, prefix.size(), prefix) == 0) {
        add_name(std::string_view(found).substr(prefix.size()), directory.root);
      } else {
        add_name(entry.path().lexically_relative(directory.path).native(), directory.root);
      }
      is_link.push_back(entry.is_symlink(error));
    }
    if (error)
      throw UsageError("cannot walk directory " + walk_root.string() + ": " + error.message());
  }
  return is_link;
}

// Sorts the files from `first` on by name; the walk order of each, in sorted order.
std::vector<std::size_t> InputList::Collector::sort_names(std::size_t first) {
  std::vector<std::size_t> order(list.files_.size() - first);
  for (std::size_t k = 0; k < order.size(); ++k)
    order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return path_less(list.name(list.files_[first + a]), list.name(list.files_[first + b]));
  });
  std::vector<InputList::Entry> sorted(order.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    sorted[k] = list.files_[first + order[k]];
  std::copy(sorted.begin(), sorted.end(), list.files_.begin() + static_cast<std::ptrdiff_t>(first));
  return order;
}

// The keys of the files from `first` on. The walk does not follow links to directories, so a
// file's directory is the argument's, resolved once, joined with its relative directory.
void InputList::Collector::add_walked_keys(const DirectoryArgument& directory, std::size_t first,
                                           const std::vector<std::size_t>& order,
                                           const std::vector<bool>& is_link) {
  std::error_code resolve_error;
  const fs::path resolved_root = fs::weakly_canonical(directory.path, resolve_error);
  if (resolve_error)
    throw UsageError("cannot resolve " + directory.argument + ": " + resolve_error.message());
  std::string root_text = resolved_root.native();
  if (root_text.empty() || root_text.back() != '/')
    root_text.push_back('/');
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::string_view name = list.name(list.files_[first + k]);
    const std::string_view relative_directory = parent_of(name);
    std::string resolved_directory = root_text;
    resolved_directory.append(relative_directory);
    if (relative_directory.empty())
      resolved_directory.pop_back();
    if (resolved_directory.empty())
      resolved_directory = "/";
    const std::uint32_t input_directory = directories.of_resolved(resolved_directory);
    const std::uint32_t answer_directory =
        walked_answer_directory(directory, name, relative_directory, input_directory);
    keys.push_back({input_directory, answer_directory,
                    is_link[order[k]] ? link_key(directory.path / fs::path(name)) : -1});
  }
}

// Where the answer of the walked input `name` goes: beside it, where its package's layout puts
// it, or under --out.
std::uint32_t InputList::Collector::walked_answer_directory(const DirectoryArgument& directory,
                                                            std::string_view name,
                                                            std::string_view relative_directory,
                                                            std::uint32_t input_directory) {
  if (answers_elsewhere(directory.layout)) {
    if (!out_dir)
      return layout_answer_directory(*directory.layout, directory.prefix + std::string(name),
                                     input_directory);
    const std::string answer = layout_answer_text(*directory.layout, std::string(name));
    const std::string_view answer_directory_name = parent_of(answer);
    return answer_directory_name.empty()
               ? *out_id
               : directories.of_spelled(*out_dir / fs::path(answer_directory_name));
  }
  if (out_dir) {
    return relative_directory.empty()
               ? *out_id
               : directories.of_spelled(*out_dir / fs::path(relative_directory));
  }
  return input_directory;
}

// The checks compare keys by hash first and build a key's name only for equal hashes.
Key InputList::Collector::input_key(std::size_t index) const {
  const FileKeys& file = keys[index];
  if (file.link >= 0)
    return links[static_cast<std::size_t>(file.link)];
  return Key{file.input_directory, std::string(last_component(list.name(list.files_[index])))};
}

Key InputList::Collector::own_key(std::size_t index) const {
  return Key{keys[index].input_directory,
             std::string(last_component(list.name(list.files_[index])))};
}

Key InputList::Collector::answer_key(std::size_t index) const {
  const InputList::Entry& entry = list.files_[index];
  return Key{keys[index].answer_directory,
             answer_file_name(list.layouts_[entry.root], last_component(list.name(entry)))};
}

// Two inputs may meet at one answer file (a file named twice, a directory and a file in it): the
// same input is kept once, two different ones are an error. Which files are dropped.
std::vector<bool> InputList::Collector::drop_repeated_inputs() const {
  const std::size_t count = list.files_.size();
  std::vector<std::pair<std::uint64_t, std::size_t>> by_hash(count);
  for (std::size_t index = 0; index < count; ++index)
    by_hash[index] = {hash_of(answer_key(index)), index};
  std::sort(by_hash.begin(), by_hash.end());
  std::vector<bool> dropped(count, false);
  for (std::size_t begin = 0; begin < count;) {
    std::size_t end = begin + 1;
    while (end < count && by_hash[end].first == by_hash[begin].first)
      ++end;
    for (std::size_t a = begin; a < end; ++a) {
      const std::size_t first = by_hash[a].second;
      if (dropped[first])
        continue;
      for (std::size_t b = a + 1; b < end; ++b) {
        const std::size_t later = by_hash[b].second;  // sorted by index within a hash
        if (dropped[later] || !(answer_key(first) == answer_key(later)))
          continue;
        if (!(input_key(first) == input_key(later))) {
          throw UsageError("two inputs would write the same answer file " + answer_path(later) +
                           ": " + input_path(first) + " and " + input_path(later));
        }
        dropped[later] = true;
      }
    }
    begin = end;
  }
  return dropped;
}

// An answer file may be an input itself (`solve a a.ans`): writing it would destroy an input.
void InputList::Collector::check_no_answer_is_an_input(const std::vector<bool>& dropped) const {
  const std::size_t count = list.files_.size();
  std::vector<std::pair<std::uint64_t, std::size_t>> inputs;
  inputs.reserve(count);
  for (std::size_t index = 0; index < count; ++index) {
    if (dropped[index])
      continue;
    inputs.emplace_back(hash_of(own_key(index)), index);
    if (keys[index].link >= 0)
      inputs.emplace_back(hash_of(input_key(index)), index);
  }
  std::sort(inputs.begin(), inputs.end());
  for (std::size_t index = 0; index < count; ++index) {
    if (dropped[index])
      continue;
    const Key answer = answer_key(index);
    const std::uint64_t hash = hash_of(answer);
    auto it = std::lower_bound(inputs.begin(), inputs.end(), std::make_pair(hash, std::size_t{0}));
    for (; it != inputs.end() && it->first == hash; ++it) {
      if (own_key(it->second) == answer || input_key(it->second) == answer) {
        throw UsageError("the answer file of " + input_path(index) + " would overwrite the input " +
                         input_path(it->second));
      }
    }
  }
}

void InputList::Collector::keep(const std::vector<bool>& dropped) {
  std::size_t kept = 0;
  for (std::size_t index = 0; index < list.files_.size(); ++index) {
    if (!dropped[index])
      list.files_[kept++] = list.files_[index];
  }
  list.files_.resize(kept);
  list.files_.shrink_to_fit();
  list.names_.shrink_to_fit();
}

InputList collect_input_list(const std::vector<std::string>& paths,
                             const std::optional<fs::path>& out_dir, std::optional<Layout> layout) {
  InputList::Collector collector(out_dir, layout);
  for (const std::string& argument : paths)
    collector.add_argument(argument);
  const std::vector<bool> dropped = collector.drop_repeated_inputs();
  collector.check_no_answer_is_an_input(dropped);
  collector.keep(dropped);
  return std::move(collector.list);
}

std::vector<InputFile> collect_inputs(const std::vector<std::string>& paths,
                                      const std::optional<fs::path>& out_dir,
                                      std::optional<Layout> layout) {
  return collect_input_list(paths, out_dir, layout).to_vector();
}

}  // namespace gamebatch::io

namespace gamebatch::io {

namespace {

// Reads `descriptor` to its end; closes it unless it is stdin.
std::string read_descriptor(int descriptor) {
  std::string content;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(descriptor, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      const int saved_errno = errno;
      if (descriptor != STDIN_FILENO)
        ::close(descriptor);
      throw std::system_error(saved_errno, std::generic_category(), "cannot read");
    }
    if (got == 0)
      break;
    content.append(buffer, static_cast<std::size_t>(got));
  }
  if (descriptor != STDIN_FILENO)
    ::close(descriptor);
  return content;
}

}  // namespace

std::string read_file(const fs::path& path) {
  if (path == kStandardStream) {
    // Once: a second read of stdin would find its end.
    static const std::string standard_input = read_descriptor(STDIN_FILENO);
    return standard_input;
  }
  // open, read until end of file, close: no stdio buffer, no fstat for a small file.
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor < 0)
    throw std::system_error(errno, std::generic_category(), "cannot open");
  return read_descriptor(descriptor);
}

}  // namespace gamebatch::io
