// The run configuration of `gamebatch run CONFIG.toml`: the jobs and settings of a run, read from a
// TOML file.
//
// The format (every key is checked: unknown keys and wrong types are errors):
//
//   # Settings for every job (all optional; the command line's options override them)
//   jobs = 2                 # threads at most; 0 or absent: all cores
//   cache = "answers.cache"  # the answer cache file; false: no cache; absent: the default location
//   strict_cache = false     # an untrustworthy cache file is an error instead of a warning
//   checkpoint = 5           # seconds between cache commits (integer or float); 0: at the end only
//   cache_min_solve_us = 70  # cases estimated to solve faster than this skip the cache; 0: none
//   report = "report.json"   # write a JSON run report here
//   html = "report.html"     # write a self-contained HTML page of the run here
//   quiet = false            # no progress line
//   shard = "1/4"            # solve only this shard of the inputs ("I/N", 1 <= I <= N)
//   layout = "polygon"       # read directories as kattis | polygon | cms problem packages (as
//                            # solve --layout); absent: each package's layout detected
//
//   [[job]]                  # one or more, run one after another
//   game = "willow"          # required: willow | doublemove | wallgame | boigame
//   inputs = ["sets/willow/*.in", "sets/willow/large"]  # required, non-empty
//   out = "answers/willow"   # optional: answers under this directory instead of beside the inputs
//   layout = "cms"           # optional: this job's layout, over the top-level one
//
//   [languages.cpp]          # optional: how `check --languages CONFIG` and `stress --languages
//   compile = "g++ -O2 -o {binary} {files}"  # CONFIG` compile and run sources (io/
//   run = "{binary}"         # solution_build.hpp); `run` only checks it
//
// Relative paths (inputs, out, cache, report, html) are relative to the config file's directory, so
// a config means the same from any working directory. An entry of `inputs` is a file, a directory
// (walked for *.in files as `solve` does) or a glob: `*`, `?` and `[...]` match within one path
// component as glob(3) does (a leading '.' only explicitly), and a `**` component matches any
// number of directories, none included (hidden ones and symbolic links to directories are not
// entered). A glob's matches are sorted; a glob that matches nothing or a path that does not exist
// is an error.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/solve/solve_jobs.hpp"

namespace gamebatch::pipeline {

// A config that cannot be read or does not follow the format. The message names the file, the
// line (when there is one) and the key: "configs/x.toml:7: job 2: unknown key 'outt' (...)".
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunConfig {
  RunSettings settings;
  std::vector<SolveJob> jobs;
};

// Reads and checks the config in `file`. Throws ConfigError.
RunConfig load_run_config(const std::filesystem::path& file);

// Checks the config text `text` as if read from `source`: messages name `source`, and relative
// paths are resolved against its directory (which must hold the inputs). Throws ConfigError.
RunConfig parse_run_config(std::string_view text, const std::filesystem::path& source);

// Whether `pattern` holds a wildcard (`*`, `?` or `[`), so is a glob rather than a plain path.
bool has_wildcards(std::string_view pattern);

// The existing paths that `pattern` matches ('/'-separated; relative to `base` unless absolute),
// sorted and without duplicates; each is `base` joined with the matched components. A pattern
// without wildcards matches itself when it exists. A trailing '/' matches directories only.
std::vector<std::filesystem::path> expand_glob(std::string_view pattern,
                                               const std::filesystem::path& base);

}  // namespace gamebatch::pipeline
