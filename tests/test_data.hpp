// Helpers shared by the tests: where the checked-in fixtures live, reading and writing files,
// and building messages.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <concepts>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <system_error>

namespace gamebatch::testing {

inline std::filesystem::path test_data(const std::string& relative) {
  return std::filesystem::path(GAMEBATCH_TEST_DATA) / relative;
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string read_test_file(const std::string& relative) {
  return read_text(test_data(relative));
}

// Writes `content` to `path`, creating missing directories.
inline void write_text(const std::filesystem::path& path, const std::string& content) {
  if (path.has_parent_path())
    std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

// Concatenates text and integers. (Appending avoids GCC 12's false -Wrestrict warnings on
// "literal" + std::string.)
inline void append(std::string& text, std::string_view part) {
  text += part;
}
template <std::integral Integer>
void append(std::string& text, Integer value) {
  text += std::to_string(value);
}
template <typename... Parts>
std::string cat(const Parts&... parts) {
  std::string text;
  (append(text, parts), ...);
  return text;
}

// Where the bytes of `answer` lie in a closed cache file, or npos: a record holds the game's name,
// then the solver version (no byte for versions 0 and 1, one byte for small others), then the
// answer.
inline std::size_t answer_offset(const std::string& bytes, const std::string& game,
                                 const std::string& answer) {
  for (std::size_t at = bytes.find(game); at != std::string::npos; at = bytes.find(game, at + 1)) {
    for (std::size_t gap = 0; gap <= 1; ++gap) {
      if (bytes.compare(at + game.size() + gap, answer.size(), answer) == 0)
        return at + game.size() + gap;
    }
  }
  return std::string::npos;
}

// A fresh directory for one test under the system's temporary directory, named after the test,
// the process and a random number (parallel ctest runs never meet), removed with its contents.
class TestDirectory {
 public:
  explicit TestDirectory(std::string_view prefix) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::random_device seed;
    path_ = std::filesystem::temp_directory_path() /
            cat(prefix, "_", info != nullptr ? info->name() : "", "_", ::getpid(), "_", seed());
    std::filesystem::create_directories(path_);
  }
  ~TestDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TestDirectory(const TestDirectory&) = delete;
  TestDirectory& operator=(const TestDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// How many times `needle` occurs in `text`, without overlaps.
inline std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + needle.size()))
    ++count;
  return count;
}

}  // namespace gamebatch::testing
