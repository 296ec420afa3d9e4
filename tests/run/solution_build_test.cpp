// io/run/solution_build: compiling solutions once into a content-keyed store, each language's
// default commands end to end (built, then run through run_limited), in a sandbox too, and the
// languages' configuration.
#include "io/run/solution_build.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <toml++/toml.h>

#include "io/run/limited_process.hpp"
#include "io/run/sandbox.hpp"

namespace {

namespace fs = std::filesystem;
using gamebatch::io::apply_languages_config;
using gamebatch::io::build_solution;
using gamebatch::io::BuildSettings;
using gamebatch::io::BuiltSolution;
using gamebatch::io::default_languages;
using gamebatch::io::describe;
using gamebatch::io::Language;
using gamebatch::io::language_of;
using gamebatch::io::LanguageTable;
using gamebatch::io::load_languages_file;
using gamebatch::io::ProcessEnd;
using gamebatch::io::ProcessLimits;
using gamebatch::io::ProcessResult;
using gamebatch::io::run_limited;
using gamebatch::io::SandboxPool;
using gamebatch::io::StdinText;

constexpr const char* kCppEcho = R"(#include <iostream>
#include <string>
int main() {
  std::string line;
  while (std::getline(std::cin, line)) std::cout << "cpp " << line << "\n";
}
)";

constexpr const char* kCEcho = R"(#include <math.h>
#include <stdio.h>
int main(void) {
  char line[256];
  volatile double sixteen = 16;  /* not folded: sqrt comes from libm */
  while (fgets(line, sizeof line, stdin)) printf("c %s", line);
  printf("%.0f\n", sqrt(sixteen));
  return 0;
}
)";

constexpr const char* kPythonEcho = R"(import sys
for line in sys.stdin:
    print("py", line.rstrip("\n"))
)";

constexpr const char* kJavaEcho = R"(import java.io.*;
public class Main {
  public static void main(String[] args) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    for (String line; (line = in.readLine()) != null;) System.out.println("java " + line);
  }
}
)";

::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not hold \"" << part << "\"";
}

bool on_path(const std::string& program) {
  const char* const path = std::getenv("PATH");
  std::istringstream directories(path != nullptr ? path : "");
  for (std::string directory; std::getline(directories, directory, ':');) {
    if (!directory.empty() && ::access((fs::path(directory) / program).c_str(), X_OK) == 0)
      return true;
  }
  return false;
}

class SolutionBuildTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("GAMEBATCH_BOX", GAMEBATCH_BOX_PATH, 1);
    directory_ = fs::temp_directory_path() /
                 ("gamebatch-solution-build-test-" + std::to_string(::getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(directory_);
    fs::create_directories(directory_);
    settings_.store = directory_ / "store";
  }
  void TearDown() override { fs::remove_all(directory_); }

  fs::path write(const std::string& name, const std::string& text) const {
    const fs::path path = directory_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  // The program's output for `input`; a failed run fails the test.
  static std::string run(const BuiltSolution& built, const std::string& input,
                         SandboxPool* sandbox = nullptr) {
    EXPECT_FALSE(built.compile_error) << *built.compile_error;
    EXPECT_FALSE(built.command.empty());
    ProcessLimits limits;
    limits.cpu_seconds = 20;
    limits.wall_seconds = 40;
    const ProcessResult result = run_limited(built.command, StdinText{input}, limits, sandbox);
    EXPECT_EQ(result.end, ProcessEnd::exited) << describe(result) << ": " << result.stderr_tail;
    EXPECT_EQ(result.exit_status, 0) << built.command << ": " << result.stderr_tail;
    return result.output;
  }

  // The store's entries (half-made ones counted apart).
  std::vector<std::string> entries(const fs::path& store, bool temporaries = false) const {
    std::vector<std::string> names;
    if (!fs::exists(store))
      return names;
    for (const fs::directory_entry& entry : fs::directory_iterator(store)) {
      const std::string name = entry.path().filename().string();
      if ((name.find(".tmp.") != std::string::npos) == temporaries)
        names.push_back(name);
    }
    return names;
  }

  // A pool whose boxes work in the test's directory; nullptr where no box can be made.
  SandboxPool* sandbox() {
    pool_ = std::make_unique<SandboxPool>(gamebatch::io::SandboxSettings{}, directory_);
    if (const std::string problem = pool_->probe(); !problem.empty()) {
      std::cerr << "no sandbox on this machine: " << problem << "\n";
      return nullptr;
    }
    return pool_.get();
  }

  fs::path directory_;
  BuildSettings settings_;
  LanguageTable languages_ = default_languages();
  std::unique_ptr<SandboxPool> pool_;
};

TEST_F(SolutionBuildTest, DefaultLanguagesAreAJudgesOnes) {
  const LanguageTable table = default_languages();
  ASSERT_EQ(table.size(), 4u);
  EXPECT_EQ(table[0].name, "cpp");
  EXPECT_EQ(table[0].compile, "g++ -std=gnu++20 -O2 -pipe -o {binary} {files}");
  EXPECT_EQ(table[0].run, "{binary}");
  EXPECT_EQ(table[1].compile, "gcc -std=gnu17 -O2 -pipe -o {binary} {files} -lm");
  EXPECT_EQ(table[2].name, "python3");
  EXPECT_EQ(table[2].run, "python3 {mainfile}");
  EXPECT_EQ(table[3].name, "java");
  EXPECT_TRUE(contains(table[3].run, "-cp {binary} {mainclass}"));
}

TEST_F(SolutionBuildTest, LanguageOfAFileIsByItsExtensionAndOfADirectoryByItsFiles) {
  EXPECT_EQ(language_of(languages_, write("a.cc", ""))->name, "cpp");
  EXPECT_EQ(language_of(languages_, write("b.c", ""))->name, "c");
  EXPECT_EQ(language_of(languages_, write("Main.java", ""))->name, "java");
  EXPECT_EQ(language_of(languages_, write("notes.txt", "")), nullptr);
  EXPECT_EQ(language_of(languages_, directory_ / "missing.cpp"), nullptr);
  write("py/readme.txt", "");
  write("py/solve.py", "");
  EXPECT_EQ(language_of(languages_, directory_ / "py")->name, "python3");
  fs::create_directories(directory_ / "empty");
  EXPECT_EQ(language_of(languages_, directory_ / "empty"), nullptr);
  EXPECT_THROW(build_solution(directory_ / "notes.txt", languages_, settings_), std::runtime_error);
}

TEST_F(SolutionBuildTest, CppIsCompiledRunAndThenTakenFromTheStore) {
  const fs::path source = write("echo.cpp", kCppEcho);
  const auto cold_start = std::chrono::steady_clock::now();
  const BuiltSolution cold = build_solution(source, languages_, settings_);
  const std::chrono::duration<double> cold_time = std::chrono::steady_clock::now() - cold_start;
  EXPECT_EQ(cold.language, "cpp");
  EXPECT_TRUE(cold.compiled_now);
  EXPECT_GT(cold.compile_seconds, 0);
  EXPECT_EQ(cold.key.size(), 32u);
  EXPECT_EQ(cold.entry, settings_.store / cold.key);
  EXPECT_TRUE(fs::exists(cold.entry / "program"));
  EXPECT_TRUE(fs::exists(cold.entry / "src" / "echo.cpp"));
  EXPECT_EQ(run(cold, "a\nb\n"), "cpp a\ncpp b\n");

  const auto warm_start = std::chrono::steady_clock::now();
  const BuiltSolution warm = build_solution(source, languages_, settings_);
  const std::chrono::duration<double> warm_time = std::chrono::steady_clock::now() - warm_start;
  EXPECT_FALSE(warm.compiled_now);
  EXPECT_EQ(warm.command, cold.command);
  EXPECT_EQ(warm.key, cold.key);
  EXPECT_LT(warm_time.count(), 0.1);
  EXPECT_EQ(run(warm, "x\n"), "cpp x\n");
  EXPECT_EQ(entries(settings_.store).size(), 1u);
  std::cout << "cold C++ build " << cold_time.count() << " s (compile " << cold.compile_seconds
            << " s), store hit " << warm_time.count() * 1e3 << " ms\n";
}

TEST_F(SolutionBuildTest, ChangingOneByteChangesTheKey) {
  const fs::path source = write("echo.cpp", kCppEcho);
  const BuiltSolution first = build_solution(source, languages_, settings_);
  std::string changed = kCppEcho;
  changed.replace(changed.find("cpp "), 4, "cxx ");
  write("echo.cpp", changed);
  const BuiltSolution second = build_solution(source, languages_, settings_);
  EXPECT_TRUE(second.compiled_now);
  EXPECT_NE(second.key, first.key);
  EXPECT_EQ(run(first, "a\n"), "cpp a\n");  // the first program is still there, as it was
  EXPECT_EQ(run(second, "a\n"), "cxx a\n");
  EXPECT_EQ(entries(settings_.store).size(), 2u);
}

TEST_F(SolutionBuildTest, CIsCompiledWithTheMathLibrary) {
  const BuiltSolution built = build_solution(write("echo.c", kCEcho), languages_, settings_);
  EXPECT_EQ(built.language, "c");
  EXPECT_EQ(run(built, "hi\n"), "c hi\n4\n");
}

TEST_F(SolutionBuildTest, PythonIsCheckedWithoutWritingBesideTheSourcesAndRun) {
  const fs::path source = write("py/echo.py", kPythonEcho);
  const BuiltSolution built = build_solution(source, languages_, settings_);
  EXPECT_EQ(built.language, "python3");
  EXPECT_TRUE(built.compiled_now);
  EXPECT_EQ(run(built, "one\ntwo\n"), "py one\npy two\n");
  EXPECT_FALSE(fs::exists(directory_ / "py" / "__pycache__"));
  EXPECT_FALSE(build_solution(source, languages_, settings_).compiled_now);
}

TEST_F(SolutionBuildTest, PythonSyntaxErrorNamesTheFileAndLine) {
  const BuiltSolution built =
      build_solution(write("bad.py", "x = 1\ndef f(:\n    pass\n"), languages_, settings_);
  ASSERT_TRUE(built.compile_error);
  EXPECT_TRUE(contains(*built.compile_error, "bad.py\", line 2"));
  EXPECT_TRUE(contains(*built.compile_error, "SyntaxError"));
  EXPECT_FALSE(contains(*built.compile_error, "Traceback"));
  EXPECT_TRUE(built.command.empty());
}

TEST_F(SolutionBuildTest, JavaIsCompiledIntoAJarAndRun) {
  if (!on_path("javac") || !on_path("jar"))
    GTEST_SKIP() << "no JDK (javac and jar) on this machine";
  const BuiltSolution built =
      build_solution(write("java/Main.java", kJavaEcho), languages_, settings_);
  EXPECT_EQ(built.language, "java");
  EXPECT_TRUE(fs::exists(built.entry / "program"));
  EXPECT_EQ(run(built, "a\nb\n"), "java a\njava b\n");
}

TEST_F(SolutionBuildTest, CppDirectoryCompilesAllItsFilesWithTheirHeader) {
  write("multi/main.cpp", R"(#include <iostream>
#include <string>
#include "greet.h"
int main() {
  std::string line;
  while (std::getline(std::cin, line)) std::cout << greet(line) << "\n";
}
)");
  write("multi/greet.h", "#include <string>\nstd::string greet(const std::string& name);\n");
  write("multi/greet.cpp",
        "#include \"greet.h\"\nstd::string greet(const std::string& name) { return \"hello \" + "
        "name; }\n");
  const BuiltSolution built = build_solution(directory_ / "multi", languages_, settings_);
  EXPECT_EQ(built.language, "cpp");
  EXPECT_EQ(run(built, "ann\nbob\n"), "hello ann\nhello bob\n");

  // The header is part of the key: changing it compiles again.
  write("multi/greet.h",
        "#include <string>\n// changed\nstd::string greet(const std::string& name);\n");
  EXPECT_TRUE(build_solution(directory_ / "multi", languages_, settings_).compiled_now);
}

TEST_F(SolutionBuildTest, PythonDirectoryImportsItsSiblingModule) {
  write("pymulti/main.py",
        "import sys\nfrom helper import shout\nfor line in sys.stdin:\n"
        "    print(shout(line.strip()))\n");
  write("pymulti/helper.py", "def shout(text):\n    return text.upper() + '!'\n");
  const BuiltSolution built = build_solution(directory_ / "pymulti", languages_, settings_);
  EXPECT_EQ(built.language, "python3");
  EXPECT_TRUE(contains(built.command, (built.entry / "src").string()));
  EXPECT_EQ(run(built, "hey\n"), "HEY!\n");
}

TEST_F(SolutionBuildTest, DirectoryWithoutAMainFileIsACompileError) {
  write("two/a.py", "print(1)\n");
  write("two/b.py", "print(2)\n");
  const BuiltSolution built = build_solution(directory_ / "two", languages_, settings_);
  ASSERT_TRUE(built.compile_error);
  EXPECT_TRUE(contains(*built.compile_error, "main.py"));
}

TEST_F(SolutionBuildTest, CompileErrorShowsTheCompilersFirstLinesAndIsStored) {
  std::string broken = "int first = first_missing_name;\n";
  for (int line = 0; line < 200; ++line)
    broken += "int later" + std::to_string(line) + " = later_missing_name;\n";
  broken += "int main() {}\n";
  const fs::path source = write("broken.cpp", broken);
  const BuiltSolution built = build_solution(source, languages_, settings_);
  ASSERT_TRUE(built.compile_error);
  EXPECT_TRUE(built.compiled_now);
  EXPECT_TRUE(built.command.empty());
  const std::string& error = *built.compile_error;
  EXPECT_TRUE(contains(error, "broken.cpp:1:"));
  EXPECT_TRUE(contains(error, "error:"));
  EXPECT_TRUE(contains(error, "first_missing_name"));
  EXPECT_LE(std::count(error.begin(), error.end(), '\n'), 9);
  EXPECT_LE(error.size(), 2000u);

  // Stored: the second build reports the same without compiling.
  const BuiltSolution again = build_solution(source, languages_, settings_);
  EXPECT_FALSE(again.compiled_now);
  EXPECT_EQ(again.compile_error, built.compile_error);

  // The same source elsewhere: the stored error, naming this copy.
  const fs::path copy = write("copy/broken.cpp", broken);
  const BuiltSolution copied = build_solution(copy, languages_, settings_);
  EXPECT_FALSE(copied.compiled_now);
  ASSERT_TRUE(copied.compile_error);
  EXPECT_TRUE(contains(*copied.compile_error, copy.string() + ":1:"));

  // The others build as before.
  EXPECT_EQ(run(build_solution(write("echo.cpp", kCppEcho), languages_, settings_), "z\n"),
            "cpp z\n");
}

TEST_F(SolutionBuildTest, MissingCompilerIsACompileErrorThatIsNotStored) {
  LanguageTable table = languages_;
  table.push_back({"nolang", {".nolang"}, "no-such-compiler -o {binary} {files}", "{binary}"});
  const fs::path source = write("x.nolang", "anything\n");
  const BuiltSolution built = build_solution(source, table, settings_);
  ASSERT_TRUE(built.compile_error);
  EXPECT_TRUE(contains(*built.compile_error, "no-such-compiler: not found"));
  EXPECT_TRUE(built.command.empty());
  EXPECT_TRUE(entries(settings_.store).empty());

  // A program missing later in the command (as jar after javac): sh's message, not stored.
  table.back().compile = "true && no-such-packer {files}";
  const BuiltSolution later = build_solution(source, table, settings_);
  ASSERT_TRUE(later.compile_error);
  EXPECT_TRUE(contains(*later.compile_error, "no-such-packer: not found"));
  EXPECT_TRUE(build_solution(source, table, settings_).compiled_now);
  EXPECT_TRUE(entries(settings_.store).empty());
  EXPECT_TRUE(entries(settings_.store, true).empty());
}

TEST_F(SolutionBuildTest, CompileOverTheCpuLimitIsNotStored) {
  LanguageTable table = {{"spin", {".spin"}, "while :; do :; done", "true"}};
  settings_.compile_cpu_seconds = 0.3;
  const fs::path source = write("x.spin", "");
  const BuiltSolution built = build_solution(source, table, settings_);
  ASSERT_TRUE(built.compile_error);
  EXPECT_TRUE(contains(*built.compile_error, "CPU time limit"));
  EXPECT_TRUE(entries(settings_.store).empty());
}

TEST_F(SolutionBuildTest, TwoThreadsBuildingOneSourceBothGetItFromOneEntry) {
  const fs::path source = write("echo.cpp", kCppEcho);
  BuiltSolution results[2];
  std::thread first([&] { results[0] = build_solution(source, languages_, settings_); });
  std::thread second([&] { results[1] = build_solution(source, languages_, settings_); });
  first.join();
  second.join();
  for (const BuiltSolution& built : results)
    EXPECT_EQ(run(built, "t\n"), "cpp t\n");
  EXPECT_EQ(results[0].command, results[1].command);
  EXPECT_LE(results[0].compiled_now + results[1].compiled_now, 1);
  EXPECT_EQ(entries(settings_.store).size(), 1u);
  EXPECT_TRUE(entries(settings_.store, true).empty());
}

TEST_F(SolutionBuildTest, AbandonedHalfMadeEntriesAreRemoved) {
  // The sweep is once per store in a process: a store of its own (--gtest_repeat).
  static int repeat = 0;
  settings_.store = directory_ / ("store-" + std::to_string(repeat++));
  // A pid that cannot run: above the kernel's largest.
  fs::create_directories(settings_.store / "0123.tmp.99999999.0" / "src");
  build_solution(write("echo.cpp", kCppEcho), languages_, settings_);
  EXPECT_TRUE(entries(settings_.store, true).empty());
}

TEST_F(SolutionBuildTest, SandboxedCompileGivesTheSameProgram) {
  SandboxPool* const box = sandbox();
  if (box == nullptr)
    GTEST_SKIP() << "no sandbox on this machine";
  const fs::path source = write("echo.cpp", kCppEcho);
  const BuiltSolution plain = build_solution(source, languages_, settings_);
  BuildSettings boxed = settings_;
  boxed.store = directory_ / "boxed-store";
  boxed.sandbox = box;
  const BuiltSolution built = build_solution(source, languages_, boxed);
  EXPECT_TRUE(built.compiled_now);
  EXPECT_EQ(run(built, "q\n", box), "cpp q\n");
  EXPECT_EQ(run(built, "q\n"), "cpp q\n");
  std::ifstream plain_program(plain.entry / "program", std::ios::binary);
  std::ifstream boxed_program(built.entry / "program", std::ios::binary);
  EXPECT_TRUE(std::equal(std::istreambuf_iterator<char>(plain_program), {},
                         std::istreambuf_iterator<char>(boxed_program), {}))
      << "the same compiler made different programs in and out of the box";
  EXPECT_FALSE(build_solution(source, languages_, boxed).compiled_now);

  // Its errors are the compiler's first lines too.
  const BuiltSolution broken = build_solution(
      write("broken.cpp", "int main() { return missing_name; }\n"), languages_, boxed);
  ASSERT_TRUE(broken.compile_error);
  EXPECT_TRUE(contains(*broken.compile_error, "broken.cpp:1:"));
  EXPECT_TRUE(contains(*broken.compile_error, "missing_name"));
}

TEST_F(SolutionBuildTest, SandboxedDirectorySolutionsCompileAndRunInTheBox) {
  SandboxPool* const box = sandbox();
  if (box == nullptr)
    GTEST_SKIP() << "no sandbox on this machine";
  settings_.sandbox = box;
  write("multi/main.cpp",
        "#include \"twice.h\"\n#include <cstdio>\n"
        "int main() { int x; while (std::scanf(\"%d\", &x) == 1) "
        "std::printf(\"%d\\n\", twice(x)); }\n");
  write("multi/twice.h", "inline int twice(int x) { return 2 * x; }\n");
  EXPECT_EQ(run(build_solution(directory_ / "multi", languages_, settings_), "4 5\n", box),
            "8\n10\n");

  write("pymulti/main.py",
        "import sys\nfrom helper import shout\nfor line in sys.stdin:\n"
        "    print(shout(line.strip()))\n");
  write("pymulti/helper.py", "def shout(text):\n    return text.upper() + '!'\n");
  const BuiltSolution python = build_solution(directory_ / "pymulti", languages_, settings_);
  EXPECT_EQ(run(python, "box\n", box), "BOX!\n");
  EXPECT_FALSE(fs::exists(directory_ / "pymulti" / "__pycache__"));
}

TEST_F(SolutionBuildTest, SandboxedJavaCompilesAndRunsInTheBox) {
  if (!on_path("javac") || !on_path("jar"))
    GTEST_SKIP() << "no JDK (javac and jar) on this machine";
  SandboxPool* const box = sandbox();
  if (box == nullptr)
    GTEST_SKIP() << "no sandbox on this machine";
  settings_.sandbox = box;
  const BuiltSolution built =
      build_solution(write("java/Main.java", kJavaEcho), languages_, settings_);
  EXPECT_EQ(run(built, "in a box\n", box), "java in a box\n");
}

// ---- Configuration ----

TEST_F(SolutionBuildTest, LanguagesConfigChangesAndAddsLanguages) {
  const fs::path file = write("languages.toml", R"([languages.cpp]
compile = "g++ -std=gnu++17 -O2 -o {binary} {files}"

[languages.pypy]
compile = ""
run = "pypy3 {mainfile}"
extensions = [".py", ".pypy"]
)");
  LanguageTable table = default_languages();
  load_languages_file(table, file);
  EXPECT_EQ(table[0].compile, "g++ -std=gnu++17 -O2 -o {binary} {files}");
  EXPECT_EQ(table[0].run, "{binary}");  // kept
  ASSERT_EQ(table.size(), 5u);
  EXPECT_EQ(table[4].name, "pypy");
  EXPECT_EQ(language_of(table, write("x.py", ""))->name, "pypy");  // .py is pypy's now
  EXPECT_TRUE(table[2].extensions.empty());

  // The table itself, as a run config's [languages] is handed over.
  const toml::table root = toml::parse("[languages.c]\nrun = \"{binary} --fast\"\n");
  apply_languages_config(table, *root["languages"].as_table(), "run.toml");
  EXPECT_EQ(table[1].run, "{binary} --fast");
}

struct BadConfig {
  std::string text;
  std::string message;  // a part of the error
};

TEST_F(SolutionBuildTest, LanguagesConfigErrorsNameTheFileTheLineAndTheKey) {
  const std::vector<BadConfig> cases = {
      {"[languages.cpp]\ncompile = \"g++\"\nflags = \"-O3\"\n",
       "bad.toml:3: unknown key 'languages.cpp.flags'"},
      {"[languages.cpp]\n\ncompile = 3\n", "bad.toml:3: 'languages.cpp.compile' must be a command"},
      {"[languages.cpp]\nrun = \"\"\n", "bad.toml:2: 'languages.cpp.run' must be a command"},
      {"[languages.kotlin]\nrun = \"kotlin {binary}\"\n",
       "bad.toml:1: 'languages.kotlin' is a new language: it needs 'run' and 'extensions'"},
      {"[languages.cpp]\ncompile = \"g++ -o {binry} {files}\"\n",
       "bad.toml:2: unknown placeholder {binry} in 'languages.cpp.compile'"},
      {"[languages.cpp]\nrun = \"{binary} {workdir}\"\n",
       "bad.toml:2: unknown placeholder {workdir} in 'languages.cpp.run'"},
      {"[languages.cpp]\nextensions = [\"cpp\"]\n",
       "bad.toml:2: 'languages.cpp.extensions' must be a list of file extensions"},
      {"[languages.cpp]\nextensions = []\n", "'languages.cpp.extensions' must be a list"},
      {"[languages]\ncpp = \"g++\"\n", "bad.toml:2: 'languages.cpp' must be a table"},
      {"languages = 3\n", "bad.toml:1: 'languages' must be a table"},
      {"[other]\nx = 1\n", "bad.toml: no [languages] table"},
      {"[languages.cpp\n", "bad.toml:1: not valid TOML"},
  };
  for (const BadConfig& bad : cases) {
    const fs::path file = write("bad.toml", bad.text);
    LanguageTable table = default_languages();
    try {
      load_languages_file(table, file);
      ADD_FAILURE() << "accepted: " << bad.text;
    } catch (const std::runtime_error& error) {
      EXPECT_TRUE(contains(error.what(), bad.message)) << bad.text;
      EXPECT_TRUE(contains(error.what(), file.string()));
    }
    EXPECT_EQ(table[0].compile, default_languages()[0].compile) << "changed half way";
  }
  LanguageTable table = default_languages();
  EXPECT_THROW(load_languages_file(table, directory_ / "missing.toml"), std::runtime_error);
}

}  // namespace
