// libFuzzer target: the program `gamebatch validator GAME` prints, compiled in (its main renamed)
// for one game per target (GAME, WRITTEN_VALIDATOR: tests/fuzz/CMakeLists.txt). The first byte
// picks the arguments (none, a group's range, a bad one), the rest is stdin. Its exit status and
// message must be those of strict_check with the same limits: 42 and nothing, or 43 and
// describe(rejection); 2 for a bad argument.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/format/strict_format.hpp"
#include "tests/fuzz/fuzz_support.hpp"

// In a namespace of its own: it defines gamebatch_strict as io/format/strict_format.hpp does. Every
// standard header it includes is included above, so its includes add nothing inside.
namespace written {
#define main written_validator_main
#include WRITTEN_VALIDATOR
#undef main
}  // namespace written

namespace {

namespace io = gamebatch::io;

// Arguments of the written validator, and the same limits for strict_check (nullopt: rejected).
struct Arguments {
  std::vector<std::string> words;
  std::optional<std::vector<io::NarrowLimit>> limits;
};

Arguments arguments_for(std::uint8_t choice) {
  const std::string parameter = io::statement_ranges(GAME).begin()->first;
  switch (choice % 4) {
    case 0:
      return {{}, std::vector<io::NarrowLimit>{}};
    case 1:
      return {{"--" + parameter, "1..3"}, std::vector<io::NarrowLimit>{{parameter, 1, 3, ""}}};
    case 2:
      return {{"--" + parameter + "=2"}, std::vector<io::NarrowLimit>{{parameter, 2, 2, ""}}};
    default:
      return {{"--no-such-parameter", "1..3"}, std::nullopt};
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0)
    return 0;
  const Arguments arguments = arguments_for(data[0]);
  const std::string text(gamebatch::fuzz::as_text(data + 1, size - 1));
  std::vector<std::string> words = {"validate"};
  words.insert(words.end(), arguments.words.begin(), arguments.words.end());
  std::vector<char*> argv;
  for (std::string& word : words)
    argv.push_back(word.data());
  argv.push_back(nullptr);
  std::istringstream input(text);
  std::ostringstream errors;
  std::streambuf* const cin_buffer = std::cin.rdbuf(input.rdbuf());
  std::streambuf* const cerr_buffer = std::cerr.rdbuf(errors.rdbuf());
  std::cin.clear();
  const int status = written::written_validator_main(static_cast<int>(words.size()), argv.data());
  std::cin.rdbuf(cin_buffer);
  std::cerr.rdbuf(cerr_buffer);
  if (!arguments.limits) {
    if (status != 2)
      gamebatch::fuzz::fail("a bad argument gave exit " + std::to_string(status));
    return 0;
  }
  const std::optional<io::StrictRejection> rejection =
      io::strict_check(GAME, text, *arguments.limits);
  const int expected = rejection ? 43 : 42;
  const std::string said = rejection ? io::describe(*rejection) + "\n" : "";
  if (status != expected || errors.str() != said)
    gamebatch::fuzz::fail("the written validator said " + std::to_string(status) + " '" +
                          errors.str() + "', validate " + std::to_string(expected) + " '" + said +
                          "'");
  return 0;
}
