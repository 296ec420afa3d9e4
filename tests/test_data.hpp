// Where the checked-in test fixtures live, and a reader for them.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace gamebatch::testing {

inline std::filesystem::path test_data(const std::string& relative) {
  return std::filesystem::path(GAMEBATCH_TEST_DATA) / relative;
}

inline std::string read_test_file(const std::string& relative) {
  std::ifstream stream(test_data(relative), std::ios::binary);
  std::ostringstream content;
  content << stream.rdbuf();
  return content.str();
}

}  // namespace gamebatch::testing
