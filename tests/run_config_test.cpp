// `gamebatch run CONFIG.toml`: reading configs (settings, jobs, errors), globs, command-line
// overrides, the repository's example configs.
#include "pipeline/solve/run_config.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/problem.hpp"
#include "pipeline/answers/cache_session.hpp"
#include "test_data.hpp"
#include "tools/run_command.hpp"

namespace gamebatch::cli {
namespace {

namespace fs = std::filesystem;
using gamebatch::testing::cat;
using gamebatch::testing::read_text;
using gamebatch::testing::TestDirectory;
using gamebatch::testing::write_text;
using pipeline::ConfigError;
using pipeline::expand_glob;
using pipeline::has_wildcards;
using pipeline::load_run_config;
using pipeline::parse_run_config;
using pipeline::RunConfig;
using pipeline::RunSettings;
using pipeline::SolveJob;

// The bundled willow sample and its answers.
std::string willow_sample() {
  return read_text(fs::path(GAMEBATCH_CONFIGS_DIR) / "demo/willow/sample.in");
}
constexpr const char* kWillowSampleAnswers = "Case #1: 200\nCase #2: -2\nCase #3: 5100\n";

// The games as messages list them: the registry's order.
std::string game_names() {
  std::string names;
  for (const io::Problem* problem : io::all_problems())
    names += (names.empty() ? "" : ", ") + std::string(problem->name());
  return names;
}

// `message` with "GAMES" replaced by the list of games.
std::string with_games(std::string message) {
  if (const std::size_t at = message.find("GAMES"); at != std::string::npos)
    message.replace(at, 5, game_names());
  return message;
}

class RunConfigTest : public ::testing::Test {
 protected:
  const fs::path& dir() const { return scratch_.path(); }
  fs::path config_path() const { return dir() / "run.toml"; }
  std::string config_name() const { return config_path().string(); }

  // Parses `text` as the config run.toml in the scratch directory.
  RunConfig parse(const std::string& text) const { return parse_run_config(text, config_path()); }

  // The message of the ConfigError that parsing `text` throws ("" when it throws none).
  std::string error_of(const std::string& text) const {
    try {
      parse(text);
    } catch (const ConfigError& error) {
      return error.what();
    }
    return "";
  }

  void touch(const std::string& relative) const { write_text(dir() / relative, "1\n"); }

  std::string in_dir(const std::string& relative) const { return (dir() / relative).string(); }

  TestDirectory scratch_{"gamebatch_run_config"};
};

TEST_F(RunConfigTest, DefaultsWhenOnlyAJobIsGiven) {
  touch("a.in");
  const RunConfig config = parse("[[job]]\ngame = \"willow\"\ninputs = [\"a.in\"]\n");
  const RunSettings defaults;
  EXPECT_EQ(config.settings.jobs, 0);
  EXPECT_EQ(config.settings.cache_file, "");
  EXPECT_FALSE(config.settings.no_cache);
  EXPECT_FALSE(config.settings.strict_cache);
  EXPECT_EQ(config.settings.checkpoint_seconds, defaults.checkpoint_seconds);
  EXPECT_EQ(config.settings.cache_min_solve_us, pipeline::kDefaultCacheMinSolveMicroseconds);
  EXPECT_EQ(config.settings.report_file, "");
  EXPECT_EQ(config.settings.html_file, "");
  EXPECT_FALSE(config.settings.memory_budget.has_value());  // half of the machine's memory
  EXPECT_FALSE(config.settings.quiet);
  EXPECT_FALSE(config.settings.shard.has_value());
  ASSERT_EQ(config.jobs.size(), 1u);
  EXPECT_EQ(config.jobs[0].problem, "willow");
  EXPECT_EQ(config.jobs[0].paths, std::vector<std::string>{in_dir("a.in")});
  EXPECT_EQ(config.jobs[0].out_dir, "");
}

TEST_F(RunConfigTest, ReadsEverySettingAndResolvesPathsAgainstTheConfigDirectory) {
  touch("sets/w/1.in");
  touch("sets/b/x.in");
  const RunConfig config = parse(
      "jobs = 3\n"
      "cache = \"caches/answers.cache\"\n"
      "strict_cache = true\n"
      "checkpoint = 2.5\n"
      "cache_min_solve_us = 250\n"
      "memory_budget = \"3Gi\"\n"
      "report = \"out/report.json\"\n"
      "html = \"out/report.html\"\n"
      "quiet = true\n"
      "shard = \"2/5\"\n"
      "[[job]]\n"
      "game = \"willow\"\n"
      "inputs = [\"sets/w\"]\n"
      "out = \"answers/willow\"\n"
      "[[job]]\n"
      "game = \"boigame\"\n"
      "inputs = [\"sets/b/x.in\", \"/\"]\n");
  EXPECT_EQ(config.settings.jobs, 3);
  EXPECT_EQ(config.settings.cache_file, in_dir("caches/answers.cache"));
  EXPECT_FALSE(config.settings.no_cache);
  EXPECT_TRUE(config.settings.strict_cache);
  EXPECT_EQ(config.settings.checkpoint_seconds, 2.5);
  EXPECT_EQ(config.settings.cache_min_solve_us, 250.0);
  EXPECT_EQ(config.settings.memory_budget, std::uint64_t{3} << 30);
  EXPECT_EQ(config.settings.report_file, in_dir("out/report.json"));
  EXPECT_EQ(config.settings.html_file, in_dir("out/report.html"));
  EXPECT_TRUE(config.settings.quiet);
  EXPECT_EQ(config.settings.shard, (io::Shard{2, 5}));
  ASSERT_EQ(config.jobs.size(), 2u);
  EXPECT_EQ(config.jobs[0].problem, "willow");
  EXPECT_EQ(config.jobs[0].paths, std::vector<std::string>{in_dir("sets/w")});
  EXPECT_EQ(config.jobs[0].out_dir, in_dir("answers/willow"));
  EXPECT_EQ(config.jobs[1].problem, "boigame");
  // An absolute path stays as it is.
  EXPECT_EQ(config.jobs[1].paths, (std::vector<std::string>{in_dir("sets/b/x.in"), "/"}));
  EXPECT_EQ(config.jobs[1].out_dir, "");
}

TEST_F(RunConfigTest, RelativePathsMayLeaveTheConfigDirectory) {
  touch("data/a.in");
  fs::create_directory(dir() / "configs");
  const fs::path source = dir() / "configs" / "run.toml";
  const RunConfig config = parse_run_config(
      "cache = \"../build/x.cache\"\n[[job]]\ngame = \"wallgame\"\ninputs = [\"../data/a.in\"]\n"
      "out = \"/tmp/answers\"\n",
      source);
  EXPECT_EQ(config.settings.cache_file, (dir() / "configs" / "../build/x.cache").string());
  EXPECT_EQ(config.jobs[0].paths,
            std::vector<std::string>{(dir() / "configs" / "../data/a.in").string()});
  EXPECT_EQ(config.jobs[0].out_dir, "/tmp/answers");
}

TEST_F(RunConfigTest, AConfigNamedRelativelyResolvesAgainstItsOwnDirectory) {
  touch("sub/sets/a.in");
  write_text(dir() / "sub/run.toml",
             "report = \"r.json\"\n[[job]]\ngame = \"willow\"\ninputs = [\"sets/*.in\"]\n");
  const fs::path working_directory = fs::current_path();
  fs::current_path(dir());
  RunConfig config;
  EXPECT_NO_THROW(config = load_run_config("sub/run.toml"));
  fs::current_path(working_directory);
  EXPECT_EQ(config.settings.report_file, "sub/r.json");
  EXPECT_EQ(config.jobs.at(0).paths, std::vector<std::string>{"sub/sets/a.in"});
}

TEST_F(RunConfigTest, CacheFalseMeansNoCache) {
  touch("a.in");
  const RunConfig config =
      parse("cache = false\n[[job]]\ngame = \"willow\"\ninputs = [\"a.in\"]\n");
  EXPECT_TRUE(config.settings.no_cache);
  EXPECT_EQ(config.settings.cache_file, "");
}

TEST_F(RunConfigTest, ALanguagesTableIsCheckedAsCheckWouldReadIt) {
  touch("a.in");
  const std::string job = "[[job]]\ngame = \"willow\"\ninputs = [\"a.in\"]\n";
  EXPECT_NO_THROW(parse(job + "[languages.cpp]\ncompile = \"g++ -O2 -o {binary} {files}\"\n"));
  try {
    parse(job + "[languages.cpp]\ncompiler = \"g++\"\n");
    ADD_FAILURE() << "an unknown key of [languages.cpp] was taken";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find(config_path().string() + ":5"), std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("compiler"), std::string::npos) << error.what();
  }
  EXPECT_THROW(parse("languages = 3\n" + job), ConfigError);
}

TEST_F(RunConfigTest, CheckpointTakesIntegersAndFloats) {
  touch("a.in");
  const std::string job = "[[job]]\ngame = \"willow\"\ninputs = [\"a.in\"]\n";
  EXPECT_EQ(parse("checkpoint = 0\n" + job).settings.checkpoint_seconds, 0.0);
  EXPECT_EQ(parse("checkpoint = 45\n" + job).settings.checkpoint_seconds, 45.0);
  EXPECT_EQ(parse("checkpoint = 0.25\n" + job).settings.checkpoint_seconds, 0.25);
}

TEST_F(RunConfigTest, CacheMinSolveTakesIntegersAndFloatsAndZeroForEveryCase) {
  touch("a.in");
  const std::string job = "[[job]]\ngame = \"willow\"\ninputs = [\"a.in\"]\n";
  EXPECT_EQ(parse("cache_min_solve_us = 0\n" + job).settings.cache_min_solve_us, 0.0);
  EXPECT_EQ(parse("cache_min_solve_us = 40\n" + job).settings.cache_min_solve_us, 40.0);
  EXPECT_EQ(parse("cache_min_solve_us = 2.5\n" + job).settings.cache_min_solve_us, 2.5);
  EXPECT_EQ(parse("cache_min_solve_us = 1e9\n" + job).settings.cache_min_solve_us, 1e9);
}

TEST_F(RunConfigTest, MemoryBudgetTakesSizesAndBytesAndZeroForNoBound) {
  touch("a.in");
  const std::string job = "[[job]]\ngame = \"willow\"\ninputs = [\"a.in\"]\n";
  EXPECT_EQ(parse("memory_budget = \"3G\"\n" + job).settings.memory_budget, 3'000'000'000u);
  EXPECT_EQ(parse("memory_budget = \"512Mi\"\n" + job).settings.memory_budget,
            std::uint64_t{512} << 20);
  EXPECT_EQ(parse("memory_budget = 1000000\n" + job).settings.memory_budget, 1'000'000u);
  EXPECT_EQ(parse("memory_budget = 0\n" + job).settings.memory_budget, 0u);
}

TEST_F(RunConfigTest, JobsTakesZeroForAllCores) {
  touch("a.in");
  const std::string job = "[[job]]\ngame = \"willow\"\ninputs = [\"a.in\"]\n";
  EXPECT_EQ(parse("jobs = 0\n" + job).settings.jobs, 0);
  EXPECT_EQ(parse("jobs = 65536\n" + job).settings.jobs, 65536);
}

TEST_F(RunConfigTest, GlobsExpandSortedAndEachPathOnce) {
  touch("c.in");
  touch("a.in");
  touch("b.in");
  touch("notes.txt");
  touch("deep/x/d.in");
  const RunConfig config = parse(
      "[[job]]\ngame = \"doublemove\"\ninputs = [\"b.in\", \"*.in\", \"**/d.in\", \"deep\"]\n");
  EXPECT_EQ(config.jobs[0].paths,
            (std::vector<std::string>{in_dir("b.in"), in_dir("a.in"), in_dir("c.in"),
                                      in_dir("deep/x/d.in"), in_dir("deep")}));
}

TEST_F(RunConfigTest, LoadReadsTheFile) {
  touch("sets/a.in");
  write_text(config_path(), "jobs = 2\n[[job]]\ngame = \"boigame\"\ninputs = [\"sets\"]\n");
  const RunConfig config = load_run_config(config_path());
  EXPECT_EQ(config.settings.jobs, 2);
  EXPECT_EQ(config.jobs[0].paths, std::vector<std::string>{in_dir("sets")});
}

TEST_F(RunConfigTest, AnUnreadableFileIsAnErrorNamingIt) {
  try {
    load_run_config(dir() / "missing.toml");
    FAIL() << "no error";
  } catch (const ConfigError& error) {
    EXPECT_EQ(std::string(error.what()),
              (dir() / "missing.toml").string() + ": cannot open: No such file or directory");
  }
  try {
    load_run_config(dir());  // a directory
    FAIL() << "no error";
  } catch (const ConfigError& error) {
    EXPECT_TRUE(std::string(error.what()).starts_with(dir().string() + ": cannot "))
        << error.what();
  }
}

// One config that must be refused, and the message's tail after "FILE:" (the line, the key).
struct BadConfig {
  const char* name;
  std::string text;
  std::string message;  // what follows "FILE:"
};

void PrintTo(const BadConfig& config, std::ostream* out) {
  *out << config.name;
}

class RunConfigErrorTest : public RunConfigTest, public ::testing::WithParamInterface<BadConfig> {};

TEST_P(RunConfigErrorTest, NamesTheFileTheLineAndTheKey) {
  touch("a.in");
  touch("sets/b.in");
  EXPECT_EQ(error_of(GetParam().text), config_name() + ":" + with_games(GetParam().message));
}

const std::string kJob = "[[job]]\ngame = \"willow\"\ninputs = [\"a.in\"]\n";

INSTANTIATE_TEST_SUITE_P(
    Every, RunConfigErrorTest,
    ::testing::Values(
        BadConfig{"UnknownSetting", "jobs = 1\nthreads = 4\n" + kJob,
                  "2: unknown key 'threads' (expected jobs, cache, strict_cache, checkpoint, "
                  "cache_min_solve_us, memory_budget, report, html, quiet, shard, layout, "
                  "languages, job)"},
        BadConfig{"UnknownTable", kJob + "[settings]\njobs = 1\n",
                  "4: unknown key 'settings' (expected jobs, cache, strict_cache, checkpoint, "
                  "cache_min_solve_us, memory_budget, report, html, quiet, shard, layout, "
                  "languages, job)"},
        BadConfig{"FirstUnknownKeyOfTheFile", "zzz = 1\naaa = 2\n" + kJob,
                  "1: unknown key 'zzz' (expected jobs, cache, strict_cache, checkpoint, "
                  "cache_min_solve_us, memory_budget, report, html, quiet, shard, layout, "
                  "languages, job)"},
        BadConfig{"UnknownJobKey",
                  kJob + "\n[[job]]\ngame = \"willow\"\ninputs = [\"a.in\"]\n"
                         "outt = \"x\"\n",
                  "8: job 2: unknown key 'outt' (expected game, inputs, out, layout)"},
        BadConfig{"JobsString", "jobs = \"two\"\n" + kJob,
                  "1: 'jobs' must be an integer from 0 to 65536, found \"two\""},
        BadConfig{"JobsNegative", "jobs = -1\n" + kJob,
                  "1: 'jobs' must be an integer from 0 to 65536, found -1"},
        BadConfig{"JobsTooMany", "jobs = 65537\n" + kJob,
                  "1: 'jobs' must be an integer from 0 to 65536, found 65537"},
        BadConfig{"JobsFloat", "\njobs = 2.0\n" + kJob,
                  "2: 'jobs' must be an integer from 0 to 65536, found 2.0"},
        BadConfig{"JobsTables", "[[jobs]]\ngame = \"willow\"\ninputs = [\"a.in\"]\n",
                  "1: 'jobs' must be an integer from 0 to 65536, found an array (the jobs "
                  "themselves are [[job]] tables)"},
        BadConfig{"CacheTrue", "cache = true\n" + kJob,
                  "1: 'cache' must be a file name or false (no cache; leave it out for the "
                  "default location), found true"},
        BadConfig{"CacheNumber", "cache = 7\n" + kJob,
                  "1: 'cache' must be a file name or false (no cache; leave it out for the "
                  "default location), found 7"},
        BadConfig{"CacheEmpty", "cache = \"\"\n" + kJob,
                  "1: 'cache' must be a file name (a non-empty string), found \"\""},
        BadConfig{"StrictCacheString", "strict_cache = \"yes\"\n" + kJob,
                  "1: 'strict_cache' must be true or false, found \"yes\""},
        BadConfig{"CheckpointNegative", "checkpoint = -5\n" + kJob,
                  "1: 'checkpoint' must be a number of seconds from 0 to 1000000000 (0: at the "
                  "end only), found -5"},
        BadConfig{"CheckpointInfinite", "checkpoint = inf\n" + kJob,
                  "1: 'checkpoint' must be a number of seconds from 0 to 1000000000 (0: at the "
                  "end only), found inf"},
        BadConfig{"CheckpointString", "checkpoint = \"30\"\n" + kJob,
                  "1: 'checkpoint' must be a number of seconds from 0 to 1000000000 (0: at the "
                  "end only), found \"30\""},
        BadConfig{"MemoryBudgetNotASize", "memory_budget = \"lots\"\n" + kJob,
                  "1: 'memory_budget' must be a size such as \"3G\" or \"3Gi\", or a number of "
                  "bytes (0: no bound), found \"lots\""},
        BadConfig{"MemoryBudgetNegative", "memory_budget = -1\n" + kJob,
                  "1: 'memory_budget' must be a size such as \"3G\" or \"3Gi\", or a number of "
                  "bytes (0: no bound), found -1"},
        BadConfig{"CacheMinSolveNegative", "cache_min_solve_us = -1\n" + kJob,
                  "1: 'cache_min_solve_us' must be a number of microseconds from 0 to 1000000000 "
                  "(0: cache every case), found -1"},
        BadConfig{"CacheMinSolveTooLarge", "cache_min_solve_us = 2e9\n" + kJob,
                  "1: 'cache_min_solve_us' must be a number of microseconds from 0 to 1000000000 "
                  "(0: cache every case), found 2000000000.0"},
        BadConfig{"CacheMinSolveNan", "cache_min_solve_us = nan\n" + kJob,
                  "1: 'cache_min_solve_us' must be a number of microseconds from 0 to 1000000000 "
                  "(0: cache every case), found nan"},
        BadConfig{"CacheMinSolveString", "cache_min_solve_us = \"10\"\n" + kJob,
                  "1: 'cache_min_solve_us' must be a number of microseconds from 0 to 1000000000 "
                  "(0: cache every case), found \"10\""},
        BadConfig{"ReportArray", "report = [\"r.json\"]\n" + kJob,
                  "1: 'report' must be a file name (a non-empty string), found an array"},
        BadConfig{"HtmlEmpty", "html = \"\"\n" + kJob,
                  "1: 'html' must be a file name (a non-empty string), found \"\""},
        BadConfig{"QuietInteger", "quiet = 1\n" + kJob,
                  "1: 'quiet' must be true or false, found 1"},
        BadConfig{"ShardOutOfRange", "shard = \"5/4\"\n" + kJob,
                  "1: 'shard' must be \"I/N\" with 1 <= I <= N, found \"5/4\""},
        BadConfig{"ShardInteger", "shard = 1\n" + kJob,
                  "1: 'shard' must be \"I/N\" with 1 <= I <= N, found 1"},
        BadConfig{"NoJob", "jobs = 1\n",
                  " no [[job]]: a config needs at least one [[job]] table with game and inputs"},
        BadConfig{"JobNotTables", "job = \"willow\"\n",
                  "1: 'job' must be one or more [[job]] tables, found \"willow\""},
        BadConfig{"JobSingleTable", "[job]\ngame = \"willow\"\ninputs = [\"a.in\"]\n",
                  "1: 'job' must be one or more [[job]] tables, found a table"},
        BadConfig{"GameUnknown", "[[job]]\ngame = \"chess\"\ninputs = [\"a.in\"]\n",
                  "2: job 1: 'game' must be one of GAMES, "
                  "found \"chess\""},
        BadConfig{"GameMissing", kJob + "\n[[job]]\ninputs = [\"a.in\"]\n",
                  "5: job 2: missing 'game' (one of GAMES)"},
        BadConfig{"InputsMissing", "[[job]]\ngame = \"wallgame\"\n",
                  "1: job 1: missing 'inputs' (an array of input files, directories and globs)"},
        BadConfig{"InputsEmpty", "[[job]]\ngame = \"wallgame\"\ninputs = []\n",
                  "3: job 1: 'inputs' must be a non-empty array of input files, directories and "
                  "globs, found an array"},
        BadConfig{"InputsString", "[[job]]\ngame = \"wallgame\"\ninputs = \"a.in\"\n",
                  "3: job 1: 'inputs' must be a non-empty array of input files, directories and "
                  "globs, found \"a.in\""},
        BadConfig{"InputsEntryNumber",
                  "[[job]]\ngame = \"wallgame\"\ninputs = [\n  \"a.in\",\n  3,\n]\n",
                  "5: job 1: 'inputs' entries must be input files, directories or globs "
                  "(non-empty strings), found 3"},
        BadConfig{"InputsEntryEmpty", "[[job]]\ngame = \"wallgame\"\ninputs = [\"\"]\n",
                  "3: job 1: 'inputs' entries must be input files, directories or globs "
                  "(non-empty strings), found \"\""},
        BadConfig{"OutEmpty", kJob + "out = \"\"\n",
                  "4: job 1: 'out' must be a directory name (a non-empty string), found \"\""},
        BadConfig{"TomlSyntax", "jobs = 1\ncache = \n" + kJob,
                  "2: not valid TOML: Error while parsing key-value pair: expected value, saw "
                  "'\\n' (column 9)"},
        BadConfig{"TomlDuplicateKey", "jobs = 1\njobs = 2\n" + kJob,
                  "2: not valid TOML: Error while parsing key-value pair: cannot redefine "
                  "existing integer 'jobs' (column 8)"}),
    [](const ::testing::TestParamInfo<BadConfig>& param_info) {
      return std::string(param_info.param.name);
    });

TEST_F(RunConfigTest, AGlobThatMatchesNothingIsAnErrorNamingTheEntry) {
  touch("a.in");
  EXPECT_EQ(
      error_of("[[job]]\ngame = \"boigame\"\ninputs = [\n  \"a.in\",\n  \"sets/*.in\",\n]\n"),
      cat(config_name(), ":5: job 1: 'inputs' entry \"sets/*.in\" matches nothing (looked for ",
          in_dir("sets/*.in"), ")"));
}

TEST_F(RunConfigTest, APathThatDoesNotExistIsAnErrorNamingTheEntry) {
  EXPECT_EQ(error_of("[[job]]\ngame = \"boigame\"\ninputs = [\"sets/missing.in\"]\n"),
            cat(config_name(), ":3: job 1: 'inputs' entry \"sets/missing.in\" does not exist ",
                "(looked for ", in_dir("sets/missing.in"), ")"));
}

TEST_F(RunConfigTest, AStringWithControlCharactersIsQuotedAsInTheConfig) {
  EXPECT_EQ(error_of("[[job]]\ngame = \"a\\\"b\\\\c\\td\"\ninputs = [\"a.in\"]\n"),
            cat(config_name(), with_games(":2: job 1: 'game' must be one of GAMES, found "),
                "\"a\\\"b\\\\c\\u0009d\""));
}

class GlobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* file : {"b.in", "a.in", "c.txt", ".hidden.in", "sets/one/x.in",
                             "sets/one/deep/y.in", "sets/two/z.in", "sets/.git/h.in", "s1/q.in"})
      write_text(dir() / file, "1\n");
  }
  const fs::path& dir() const { return scratch_.path(); }

  // The matches of `pattern` in the scratch directory, relative to it.
  std::vector<std::string> matches(std::string_view pattern) const {
    std::vector<std::string> relative;
    for (const fs::path& path : expand_glob(pattern, dir()))
      relative.push_back(path.lexically_relative(dir()).generic_string());
    return relative;
  }

  using Paths = std::vector<std::string>;
  TestDirectory scratch_{"gamebatch_glob"};
};

TEST_F(GlobTest, KnowsWhichEntriesAreGlobs) {
  EXPECT_TRUE(has_wildcards("*.in"));
  EXPECT_TRUE(has_wildcards("a/?.in"));
  EXPECT_TRUE(has_wildcards("a/[ab].in"));
  EXPECT_TRUE(has_wildcards("**/x"));
  EXPECT_FALSE(has_wildcards("sets/one/x.in"));
}

TEST_F(GlobTest, StarMatchesWithinOneComponentSorted) {
  EXPECT_EQ(matches("*.in"), (Paths{"a.in", "b.in"}));
  EXPECT_EQ(matches("sets/*/*.in"), (Paths{"sets/one/x.in", "sets/two/z.in"}));
  EXPECT_EQ(matches("s*"), (Paths{"s1", "sets"}));
}

TEST_F(GlobTest, QuestionMarkAndBracketsMatchOneCharacter) {
  EXPECT_EQ(matches("?.in"), (Paths{"a.in", "b.in"}));
  EXPECT_EQ(matches("[bc].*"), (Paths{"b.in", "c.txt"}));
  EXPECT_EQ(matches("[!a].in"), (Paths{"b.in"}));
  EXPECT_EQ(matches("s[0-9]/q.in"), (Paths{"s1/q.in"}));
}

TEST_F(GlobTest, WildcardsMatchALeadingDotOnlyExplicitly) {
  EXPECT_EQ(matches(".*.in"), (Paths{".hidden.in"}));
  EXPECT_EQ(matches("sets/*/h.in"), Paths{});
  EXPECT_EQ(matches("sets/.git/*.in"), (Paths{"sets/.git/h.in"}));
}

TEST_F(GlobTest, DoubleStarMatchesAnyNumberOfDirectoriesButHiddenOnes) {
  EXPECT_EQ(matches("**/*.in"), (Paths{"a.in", "b.in", "s1/q.in", "sets/one/deep/y.in",
                                       "sets/one/x.in", "sets/two/z.in"}));
  EXPECT_EQ(matches("sets/**/y.in"), (Paths{"sets/one/deep/y.in"}));
  EXPECT_EQ(matches("sets/one/**/x.in"), (Paths{"sets/one/x.in"}));  // zero directories
  EXPECT_EQ(matches("sets/**"), (Paths{"sets", "sets/one", "sets/one/deep", "sets/two"}));
}

TEST_F(GlobTest, DoubleStarTwiceMatchesEachPathOnce) {
  EXPECT_EQ(matches("**/**/*.in"), matches("**/*.in"));
}

TEST_F(GlobTest, DoubleStarDoesNotFollowSymbolicLinks) {
  fs::create_directory_symlink("..", dir() / "sets/two/up");
  EXPECT_EQ(matches("sets/**/z.in"), (Paths{"sets/two/z.in"}));
}

TEST_F(GlobTest, ATrailingSlashMatchesDirectoriesOnly) {
  EXPECT_EQ(matches("s*/"), (Paths{"s1", "sets"}));
  EXPECT_EQ(matches("*/"), (Paths{"s1", "sets"}));
  EXPECT_EQ(matches("a.in/"), Paths{});
}

TEST_F(GlobTest, APlainPathMatchesItselfWhenItExists) {
  EXPECT_EQ(matches("sets/one/x.in"), (Paths{"sets/one/x.in"}));
  EXPECT_EQ(matches("./sets//one"), (Paths{"sets/one"}));
  EXPECT_EQ(matches("sets/none.in"), Paths{});
  EXPECT_EQ(matches("nothing/*.in"), Paths{});
  EXPECT_EQ(matches("a.in/*"), Paths{});
}

TEST_F(GlobTest, AnAbsolutePatternIgnoresTheBase) {
  const std::string pattern = (dir() / "sets" / "*").string();
  EXPECT_EQ(expand_glob(pattern, "/elsewhere"),
            (std::vector<fs::path>{dir() / "sets" / "one", dir() / "sets" / "two"}));
}

TEST_F(GlobTest, WildcardsInTheBaseAreNotPatterns) {
  write_text(dir() / "[x]" / "m.in", "1\n");
  EXPECT_EQ(expand_glob("*.in", dir() / "[x]"), (std::vector<fs::path>{dir() / "[x]" / "m.in"}));
}

// Parses `command_line` as `gamebatch run ...` and applies it over `config`.
RunSettings overridden(RunSettings config, const std::string& command_line) {
  CLI::App app("test");
  RunArguments arguments;
  add_run_command(app, arguments);
  app.parse(command_line, false);
  EXPECT_EQ(arguments.config, "x.toml");
  override_settings(config, arguments);
  return config;
}

TEST(RunOverrideTest, OptionsNotGivenKeepTheConfigsSettings) {
  RunSettings config;
  config.jobs = 3;
  config.cache_file = "c.cache";
  config.strict_cache = true;
  config.checkpoint_seconds = 7;
  config.cache_min_solve_us = 0;
  config.report_file = "r.json";
  config.html_file = "r.html";
  config.quiet = true;
  config.shard = io::Shard{1, 2};
  const RunSettings settings = overridden(config, "run x.toml");
  EXPECT_EQ(settings.jobs, 3);
  EXPECT_EQ(settings.cache_file, "c.cache");
  EXPECT_FALSE(settings.no_cache);
  EXPECT_TRUE(settings.strict_cache);
  EXPECT_EQ(settings.checkpoint_seconds, 7);  // not the option's default of 5
  EXPECT_EQ(settings.cache_min_solve_us, 0);  // not the option's default of 10
  EXPECT_EQ(settings.report_file, "r.json");
  EXPECT_EQ(settings.html_file, "r.html");
  EXPECT_TRUE(settings.quiet);
  EXPECT_EQ(settings.shard, (io::Shard{1, 2}));
}

TEST(RunOverrideTest, GivenOptionsReplaceTheConfigsSettings) {
  RunSettings config;
  config.jobs = 3;
  config.cache_file = "c.cache";
  config.checkpoint_seconds = 5;
  config.report_file = "r.json";
  const RunSettings settings =
      overridden(config,
                 "run x.toml --jobs 7 --cache other.cache --strict-cache --checkpoint 0 "
                 "--cache-min-solve-us 0.5 --report z.json --html z.html --quiet --shard 3/4");
  EXPECT_EQ(settings.jobs, 7);
  EXPECT_EQ(settings.cache_file, "other.cache");  // relative to the working directory, as given
  EXPECT_TRUE(settings.strict_cache);
  EXPECT_EQ(settings.checkpoint_seconds, 0);
  EXPECT_EQ(settings.cache_min_solve_us, 0.5);
  EXPECT_EQ(settings.report_file, "z.json");
  EXPECT_EQ(settings.html_file, "z.html");
  EXPECT_TRUE(settings.quiet);
  EXPECT_EQ(settings.shard, (io::Shard{3, 4}));
}

TEST(RunOverrideTest, CacheOptionsOverrideCacheFalseAndTheOtherWayRound) {
  RunSettings no_cache;
  no_cache.no_cache = true;
  const RunSettings with_cache = overridden(no_cache, "run x.toml --cache a.cache");
  EXPECT_FALSE(with_cache.no_cache);
  EXPECT_EQ(with_cache.cache_file, "a.cache");

  RunSettings cache;
  cache.cache_file = "c.cache";
  const RunSettings without_cache = overridden(cache, "run x.toml --no-cache");
  EXPECT_TRUE(without_cache.no_cache);
  EXPECT_EQ(without_cache.cache_file, "");
}

TEST_F(RunConfigTest, RunCommandReturns2ForAConfigError) {
  write_text(config_path(), "jobs = \"two\"\n");
  CLI::App app("test");
  RunArguments arguments;
  add_run_command(app, arguments);
  app.parse("run " + config_name(), false);
  EXPECT_EQ(run_run_command(arguments), 2);
}

TEST_F(RunConfigTest, RunCommandSolvesTheJobsAndRecordsTheConfigInTheReport) {
  write_text(dir() / "sets/w/sample.in", willow_sample());
  write_text(dir() / "sets/w/sample2.in", willow_sample());
  write_text(config_path(),
             "cache = false\nquiet = true\nreport = \"report.json\"\n"
             "[[job]]\ngame = \"willow\"\ninputs = [\"sets/w/*.in\"]\nout = \"answers\"\n");
  CLI::App app("test");
  RunArguments arguments;
  add_run_command(app, arguments);
  // --shard 1/1: a Slurm job array around the test must not shard it.
  app.parse("run " + config_name() + " --jobs 2 --shard 1/1", false);
  ::testing::internal::CaptureStderr();
  const int status = run_run_command(arguments);
  const std::string output = ::testing::internal::GetCapturedStderr();
  ASSERT_EQ(status, 0) << output;
  EXPECT_EQ(read_text(dir() / "answers/sample.ans"), kWillowSampleAnswers);
  EXPECT_EQ(read_text(dir() / "answers/sample2.ans"), kWillowSampleAnswers);
  const nlohmann::json report = nlohmann::json::parse(read_text(dir() / "report.json"));
  const nlohmann::json& options = report.at("options");
  EXPECT_EQ(options.at("config"), config_name());
  EXPECT_EQ(options.at("settings").at("jobs"), 2);
  EXPECT_EQ(options.at("settings").at("no_cache"), true);
  EXPECT_EQ(options.at("settings").at("cache_min_solve_us"),
            pipeline::kDefaultCacheMinSolveMicroseconds);
  EXPECT_EQ(
      options.at("jobs"),
      nlohmann::json::parse(cat(R"([{"game": "willow", "inputs": [)",
                                nlohmann::json(in_dir("sets/w/sample.in")).dump(), ", ",
                                nlohmann::json(in_dir("sets/w/sample2.in")).dump(), R"(], "out": )",
                                nlohmann::json(in_dir("answers")).dump(), "}]")));
}

// The repository's example configs run as they are: they parse and their inputs exist (loading
// checks that), and configs/GAME.toml holds jobs of GAME only.
TEST(ExampleConfigsTest, EveryConfigParsesAndItsInputsExist) {
  std::vector<fs::path> configs;
  for (const fs::directory_entry& entry : fs::directory_iterator(GAMEBATCH_CONFIGS_DIR)) {
    if (entry.path().extension() == ".toml")
      configs.push_back(entry.path());
  }
  std::sort(configs.begin(), configs.end());
  ASSERT_GE(configs.size(), 5u);
  for (const fs::path& file : configs) {
    SCOPED_TRACE(file.string());
    RunConfig config;
    ASSERT_NO_THROW(config = load_run_config(file));
    ASSERT_FALSE(config.jobs.empty());
    EXPECT_FALSE(config.settings.cache_file.empty());  // a cache of its own, not the user's
    for (const SolveJob& job : config.jobs) {
      EXPECT_FALSE(job.paths.empty());
      for (const std::string& path : job.paths)
        EXPECT_TRUE(fs::exists(path)) << path;
      if (file.stem() != "demo") {
        EXPECT_EQ(job.problem, file.stem().string());
      }
    }
  }
}

TEST(ExampleConfigsTest, TheDemoConfigSolvesEveryDemoSet) {
  const RunConfig config = load_run_config(fs::path(GAMEBATCH_CONFIGS_DIR) / "demo.toml");
  std::vector<std::string> games;
  for (const SolveJob& job : config.jobs) {
    games.push_back(job.problem);
    EXPECT_EQ(job.paths,
              std::vector<std::string>{cat(GAMEBATCH_CONFIGS_DIR, "/demo/", job.problem)});
    EXPECT_EQ(job.out_dir, cat(GAMEBATCH_CONFIGS_DIR, "/../build/demo-answers/", job.problem));
  }
  EXPECT_EQ(games, (std::vector<std::string>{"willow", "doublemove", "wallgame", "boigame"}));
  EXPECT_EQ(config.settings.cache_file, cat(GAMEBATCH_CONFIGS_DIR, "/../build/demo.cache"));
}

}  // namespace
}  // namespace gamebatch::cli
