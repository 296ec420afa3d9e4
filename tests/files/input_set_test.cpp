// io::answer_name, io::collect_inputs and io::read_file against a real, freshly made directory.
#include "io/files/input_set.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include "tests/test_data.hpp"

namespace gamebatch::io {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards; paths are given relative to it.
class InputSetTest : public ::testing::Test {
 protected:
  fs::path at(const fs::path& relative) const { return root_ / relative; }
  std::string arg(const fs::path& relative) const { return at(relative).string(); }

  void touch(const fs::path& relative, const std::string& content = "1\n1\n0\n") const {
    const fs::path path = at(relative);
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << content;
  }

  gamebatch::testing::TestDirectory scratch_{"gamebatch_input_set"};
  const fs::path root_ = scratch_.path();
};

std::vector<fs::path> inputs_of(const std::vector<InputFile>& files) {
  std::vector<fs::path> inputs;
  for (const InputFile& file : files)
    inputs.push_back(file.input);
  return inputs;
}

// ---------------------------------------------------------------- answer_name

TEST(AnswerName, DotInBecomesDotAns) {
  EXPECT_EQ(answer_name("a.in"), fs::path("a.ans"));
  EXPECT_EQ(answer_name("dir/sub/D-large-practice.in"), fs::path("dir/sub/D-large-practice.ans"));
  EXPECT_EQ(answer_name("/abs/x.y.in"), fs::path("/abs/x.y.ans"));
}

TEST(AnswerName, OtherNamesGetDotAnsAppended) {
  EXPECT_EQ(answer_name("x.txt"), fs::path("x.txt.ans"));
  EXPECT_EQ(answer_name("noext"), fs::path("noext.ans"));
  EXPECT_EQ(answer_name("a.in.txt"), fs::path("a.in.txt.ans"));
  EXPECT_EQ(answer_name("a.inx"), fs::path("a.inx.ans"));
  EXPECT_EQ(answer_name("a.IN"), fs::path("a.IN.ans"));
  EXPECT_EQ(answer_name("old.ans"), fs::path("old.ans.ans"));
}

TEST(AnswerName, AgreesWithThePathExtensionOnEdgeNames) {
  // As path::extension() has it: ".in" alone is a hidden file without extension, "..in" is not.
  for (const char* name : {".in", "d/.in", "..in", "d/..in", "in", "x.in", "a/b/.x.in", "/.in"}) {
    fs::path expected = name;
    if (expected.extension() == ".in") {
      expected.replace_extension(".ans");
    } else {
      expected += ".ans";
    }
    EXPECT_EQ(answer_name(name), expected) << name;
  }
}

TEST(AnswerName, OnlyTheFileNameDecides) {
  EXPECT_EQ(answer_name("dir.in/case"), fs::path("dir.in/case.ans"));
  EXPECT_EQ(answer_name("dir.in/case.in"), fs::path("dir.in/case.ans"));
}

// ---------------------------------------------------------------- collect_inputs

TEST_F(InputSetTest, DirectoryIsWalkedRecursivelyAndSorted) {
  // Created out of order on purpose.
  touch("d/zeta.in");
  touch("d/sub/deeper/c.in");
  touch("d/alpha.in");
  touch("d/sub/b.in");
  touch("d/mid.in");
  const auto files = collect_inputs({arg("d")}, std::nullopt);
  const std::vector<fs::path> expected = {at("d/alpha.in"), at("d/mid.in"), at("d/sub/b.in"),
                                          at("d/sub/deeper/c.in"), at("d/zeta.in")};
  EXPECT_EQ(inputs_of(files), expected);
  for (const InputFile& file : files) {
    EXPECT_EQ(file.answer, answer_name(file.input)) << file.input;
  }
}

TEST_F(InputSetTest, DirectoryWalkTakesOnlyRegularFilesEndingInDotIn) {
  touch("d/take.in");
  touch("d/a.b.in");
  touch("d/notes.txt");
  touch("d/take.in.bak");
  touch("d/upper.IN");
  touch("d/near.inx");
  touch("d/take.ans");
  touch("d/noext");
  touch("d/folder.in/inner.in");  // a directory named *.in is walked, not read
  touch("d/folder.in/inner.txt");
  const auto files = collect_inputs({arg("d")}, std::nullopt);
  const std::vector<fs::path> expected = {at("d/a.b.in"), at("d/folder.in/inner.in"),
                                          at("d/take.in")};
  EXPECT_EQ(inputs_of(files), expected);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].answer, at("d/a.b.ans"));
}

TEST_F(InputSetTest, EmptyDirectoryGivesNoInputs) {
  fs::create_directories(at("empty/sub"));
  touch("empty/sub/readme.txt");
  EXPECT_TRUE(collect_inputs({arg("empty")}, std::nullopt).empty());
}

TEST_F(InputSetTest, ExplicitFileIsAnInputWhateverItsName) {
  touch("d/x.txt");
  touch("d/noext");
  touch("d/y.in");
  const auto files = collect_inputs({arg("d/x.txt"), arg("d/noext"), arg("d/y.in")}, std::nullopt);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].input, at("d/x.txt"));
  EXPECT_EQ(files[0].answer, at("d/x.txt.ans"));
  EXPECT_EQ(files[1].input, at("d/noext"));
  EXPECT_EQ(files[1].answer, at("d/noext.ans"));
  EXPECT_EQ(files[2].input, at("d/y.in"));
  EXPECT_EQ(files[2].answer, at("d/y.ans"));
}

TEST_F(InputSetTest, ArgumentsKeepTheirOrder) {
  touch("z.in");
  touch("d/a.in");
  touch("d/b.in");
  const auto files = collect_inputs({arg("z.in"), arg("d")}, std::nullopt);
  const std::vector<fs::path> expected = {at("z.in"), at("d/a.in"), at("d/b.in")};
  EXPECT_EQ(inputs_of(files), expected);
}

TEST_F(InputSetTest, OutDirKeepsThePathRelativeToTheDirectoryArgument) {
  touch("data/a.in");
  touch("data/sub/b.in");
  touch("data/sub/deeper/c.in");
  const fs::path out = at("out");
  const auto files = collect_inputs({arg("data")}, out);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].input, at("data/a.in"));
  EXPECT_EQ(files[0].answer, out / "a.ans");
  EXPECT_EQ(files[1].answer, out / "sub/b.ans");
  EXPECT_EQ(files[2].answer, out / "sub/deeper/c.ans");
}

TEST_F(InputSetTest, OutDirMappingIgnoresATrailingSlashOnTheArgument) {
  touch("data/sub/b.in");
  const fs::path out = at("out");
  const auto files = collect_inputs({arg("data") + "/"}, out);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].answer.lexically_normal(), (out / "sub/b.ans").lexically_normal());
}

TEST_F(InputSetTest, OutDirTakesJustTheNameOfAFileArgument) {
  touch("data/sub/b.in");
  touch("data/sub/notes");
  const fs::path out = at("out");
  const auto files = collect_inputs({arg("data/sub/b.in"), arg("data/sub/notes")}, out);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].input, at("data/sub/b.in"));
  EXPECT_EQ(files[0].answer, out / "b.ans");
  EXPECT_EQ(files[1].answer, out / "notes.ans");
}

TEST_F(InputSetTest, SameFileNamedTwiceIsKeptOnce) {
  touch("d/a.in");
  const auto files = collect_inputs({arg("d/a.in"), arg("d/a.in")}, std::nullopt);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].input, at("d/a.in"));
}

TEST_F(InputSetTest, FileAlsoReachedThroughItsDirectoryIsKeptOnce) {
  touch("d/a.in");
  touch("d/b.in");
  const auto files = collect_inputs({arg("d"), arg("d/./a.in")}, std::nullopt);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].input, at("d/a.in"));
  EXPECT_EQ(files[1].input, at("d/b.in"));
}

TEST_F(InputSetTest, TwoInputsWithOneAnswerFileAreAUsageError) {
  touch("d/x");
  touch("d/x.in");  // x -> x.ans and x.in -> x.ans
  EXPECT_THROW(collect_inputs({arg("d/x"), arg("d/x.in")}, std::nullopt), UsageError);
}

TEST_F(InputSetTest, SameNameFromTwoDirectoriesClashesUnderOutDir) {
  touch("one/a.in");
  touch("two/a.in");
  EXPECT_NO_THROW(collect_inputs({arg("one/a.in"), arg("two/a.in")}, std::nullopt));
  EXPECT_THROW(collect_inputs({arg("one/a.in"), arg("two/a.in")}, at("out")), UsageError);
  EXPECT_THROW(collect_inputs({arg("one"), arg("two")}, at("out")), UsageError);
}

TEST_F(InputSetTest, ClashMessageNamesTheAnswerFile) {
  touch("d/x");
  touch("d/x.in");
  try {
    collect_inputs({arg("d/x.in"), arg("d/x")}, std::nullopt);
    FAIL() << "no UsageError";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("x.ans"), std::string::npos) << error.what();
  }
}

TEST_F(InputSetTest, MissingPathIsAUsageErrorNamingIt) {
  touch("d/a.in");
  const std::string missing = arg("d/missing.in");
  try {
    collect_inputs({arg("d/a.in"), missing}, std::nullopt);
    FAIL() << "no UsageError";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find(missing), std::string::npos) << error.what();
  }
  EXPECT_THROW(collect_inputs({arg("nowhere")}, at("out")), UsageError);
}

TEST_F(InputSetTest, UnresolvableOutDirGivesAUsageErrorOrNothing) {
  // Resolving out/... fails with ELOOP; no other exception may escape (the CLI would abort).
  touch("a.in");
  fs::create_symlink("loop", at("loop"));
  try {
    collect_inputs({arg("a.in")}, at("loop/out"));
  } catch (const UsageError&) {
  } catch (const std::exception& error) {
    ADD_FAILURE() << "not a UsageError: " << error.what();
  }
}

TEST_F(InputSetTest, SortedComponentByComponentAsPaths) {
  // As strings "a-b.in" < "a/b.in" ('-' < '/'); as paths the directory "a" comes first.
  touch("d/a-b.in");
  touch("d/a/b.in");
  touch("d/a.in");
  touch("d/a0.in");
  const auto files = collect_inputs({arg("d")}, std::nullopt);
  std::vector<fs::path> expected = inputs_of(files);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(inputs_of(files), expected);
  EXPECT_EQ(files.front().input, at("d/a/b.in"));
}

TEST_F(InputSetTest, RelativeIsThePathUnderTheArgument) {
  touch("d/sub/b.in");
  touch("d/a.in");
  touch("e/c.txt");
  const auto files = collect_inputs({arg("d"), arg("e/./c.txt")}, std::nullopt);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].relative, fs::path("a.in"));
  EXPECT_EQ(files[1].relative, fs::path("sub/b.in"));
  EXPECT_EQ(files[2].relative, fs::path("c.txt"));  // a file argument: its name
}

TEST_F(InputSetTest, ListMakesTheSameFilesAsTheVectorAndKeepsAShard) {
  touch("d/a.in");
  touch("d/sub/b.in");
  touch("e/c.txt");
  const std::vector<std::string> paths = {arg("d"), arg("e/./c.txt")};
  const InputList list = collect_input_list(paths, at("out"));
  const auto files = collect_inputs(paths, at("out"));
  ASSERT_EQ(list.size(), files.size());
  ASSERT_EQ(list.size(), 3u);
  for (std::size_t k = 0; k < list.size(); ++k) {
    EXPECT_EQ(list[k].input, files[k].input);
    EXPECT_EQ(list[k].answer, files[k].answer);
    EXPECT_EQ(list[k].relative, files[k].relative);
    EXPECT_EQ(list.relative_name(k), files[k].relative.generic_string());
  }
  EXPECT_EQ(list.relative_name(2), "c.txt");  // a file argument: its name
  InputList odd = list;
  odd.keep_if([](std::size_t index) { return index % 2 == 0; });
  ASSERT_EQ(odd.size(), 2u);
  EXPECT_EQ(odd[0].input, files[0].input);
  EXPECT_EQ(odd[1].input, files[2].input);
}

TEST_F(InputSetTest, AnswerDirectoriesAreTheParentsOfEveryAnswerOnce) {
  touch("d/a.in");
  touch("d/b.in");
  touch("d/sub/c.in");
  touch("d/sub/deeper/e.in");
  touch("f.txt");
  for (const std::optional<fs::path>& out : {std::optional<fs::path>(), std::optional(at("out"))}) {
    const InputList list = collect_input_list({arg("d"), arg("f.txt")}, out);
    std::vector<fs::path> expected;
    for (std::size_t k = 0; k < list.size(); ++k)
      expected.push_back(list[k].answer.parent_path().lexically_normal());
    std::sort(expected.begin(), expected.end());
    expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
    EXPECT_EQ(list.answer_directories(), expected);
    EXPECT_EQ(expected.size(), out ? 3u : 4u);
  }
}

TEST_F(InputSetTest, ListOfGivenFilesKeepsTheirAnswersAndRelativeNames) {
  InputList list({{"a/x.in", "out/one.ans", "x.in"}, {"b/y.in", "elsewhere/y.ans", "b/y.in"}});
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[1].input, fs::path("b/y.in"));
  EXPECT_EQ(list[1].answer, fs::path("elsewhere/y.ans"));
  EXPECT_EQ(list.relative_name(1), "b/y.in");
  list.keep_if([](std::size_t index) { return index == 1; });
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].answer, fs::path("elsewhere/y.ans"));
}

TEST_F(InputSetTest, DirectoryNamedTwoWaysIsWalkedOnce) {
  touch("d/a.in");
  touch("d/b.in");
  const auto files = collect_inputs({arg("d"), arg("d/../d"), arg("d/b.in")}, std::nullopt);
  EXPECT_EQ(inputs_of(files), (std::vector<fs::path>{at("d/a.in"), at("d/b.in")}));
}

TEST_F(InputSetTest, LinkedInputIsTheFileItPointsTo) {
  touch("one/a.in");
  fs::create_directories(at("two"));
  fs::create_symlink(at("one/a.in"), at("two/a.in"));
  // Both answers would be out/a.ans, but they are answers to the same file: kept once.
  const auto files = collect_inputs({arg("one"), arg("two")}, at("out"));
  EXPECT_EQ(inputs_of(files), (std::vector<fs::path>{at("one/a.in")}));
  // A link to another file that clashes is still an error.
  touch("three/a.in", "2\n");
  EXPECT_THROW(collect_inputs({arg("one"), arg("three")}, at("out")), UsageError);
}

TEST_F(InputSetTest, AnswerFileReachedThroughALinkedInputIsAUsageError) {
  touch("d/y.in");
  touch("d/y.ans", "kept\n");
  fs::create_symlink("y.ans", at("d/x.in"));  // x.in is y.ans: writing y.ans destroys it
  EXPECT_THROW(collect_inputs({arg("d")}, std::nullopt), UsageError);
  EXPECT_THROW(collect_inputs({arg("d/y.in"), arg("d/x.in")}, std::nullopt), UsageError);
}

TEST_F(InputSetTest, OutDirBehindALinkClashesWithTheInputsItReaches) {
  touch("d/a");
  fs::create_directory_symlink(at("d"), at("out"));
  // The answer of d/a.ans is out/a.ans.ans; the answer of d/a is out/a.ans = d/a.ans, an input.
  touch("d/a.ans");
  EXPECT_THROW(collect_inputs({arg("d/a"), arg("d/a.ans")}, at("out")), UsageError);
}

// ---------------------------------------------------------------- read_file

TEST_F(InputSetTest, ReadFileReturnsTheExactBytes) {
  using namespace std::string_literals;
  const std::string content = "3\r\n1\n\0binary\xff tail without newline\0"s;
  touch("bytes", content);
  EXPECT_EQ(read_file(at("bytes")), content);
}

TEST_F(InputSetTest, ReadFileReadsFilesLargerThanItsBuffer) {
  std::string content;
  std::mt19937 rng(7);
  for (int i = 0; i < 300'000; ++i)
    content.push_back(static_cast<char>('a' + rng() % 26));
  touch("big", content);
  EXPECT_EQ(read_file(at("big")), content);
}

TEST_F(InputSetTest, ReadFileOfAnEmptyFileIsEmpty) {
  touch("empty", "");
  EXPECT_EQ(read_file(at("empty")), "");
}

TEST_F(InputSetTest, ReadFileOfAMissingFileThrowsSystemError) {
  EXPECT_THROW(read_file(at("missing.in")), std::system_error);
}

TEST_F(InputSetTest, ReadFileErrorSaysWhyWithoutRepeatingThePath) {
  // The caller puts the path in front of the message, so the message must not repeat it.
  const fs::path missing = at("missing.in");
  try {
    read_file(missing);
    FAIL() << "no exception";
  } catch (const std::system_error& error) {
    EXPECT_EQ(error.code(), std::errc::no_such_file_or_directory);
    EXPECT_NE(std::string(error.what()).find("cannot open"), std::string::npos) << error.what();
    EXPECT_EQ(std::string(error.what()).find(missing.string()), std::string::npos) << error.what();
  }
}

TEST_F(InputSetTest, AnswerFileThatIsAnInputIsAUsageError) {
  touch("a", "1\n1\n5\n");
  touch("a.ans", "1\n1\n7\n");
  EXPECT_THROW(collect_inputs({at("a").string(), at("a.ans").string()}, std::nullopt), UsageError);
}

TEST_F(InputSetTest, ReadFileOfADirectoryThrowsSystemError) {
  fs::create_directories(at("dir.in"));
  EXPECT_THROW(read_file(at("dir.in")), std::system_error);
}

}  // namespace
}  // namespace gamebatch::io
