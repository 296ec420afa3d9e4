// libFuzzer target: the strict reader (io/format/strict_format.hpp) on any bytes. The first byte
// picks the game, the rest is the input. strict_check never throws for a known game; a rejection
// names a rule and a place inside the text; what it accepts, the parser solve uses reads with no
// limit broken and writes back byte for byte; and every mutant of an accepted input is rejected for
// the rule it names.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/format/strict_format.hpp"
#include "io/problem.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

namespace io = gamebatch::io;
using gamebatch::fuzz::fail;

constexpr const char* kGames[] = {"willow", "doublemove", "wallgame", "boigame"};

void check_rejection(const io::StrictRejection& rejection, std::string_view text) {
  std::size_t lines = 1;
  for (const char c : text)
    lines += c == '\n' ? 1 : 0;
  if (rejection.rule.empty() || rejection.message.empty() || rejection.line == 0 ||
      rejection.line > lines || rejection.column == 0)
    fail("a rejection without a rule or outside the text: " + io::describe(rejection));
}

void check_accepted(const std::string& game, const std::string& text, std::uint64_t seed) {
  const io::Problem& problem = *io::find_problem(game);
  std::vector<std::string> canonical;
  try {
    for (const auto& parsed : problem.parse(text))
      canonical.push_back(parsed->canonical());
  } catch (const std::exception& error) {
    fail(game + ": strict accepts what solve's parser rejects: " + error.what());
  }
  if (problem.file_of_cases(canonical) != text)
    fail(game + ": a strict input is not written back byte for byte");
  if (problem.check_official_limits(text).count != 0)
    fail(game + ": strict accepts what breaks the statement's limits");
  for (const io::Mutant& mutant : io::make_mutants(game, text, {}, seed)) {
    const std::optional<io::StrictRejection> rejection = io::strict_check(game, mutant.text);
    if (!rejection || rejection->rule != mutant.rule)
      fail(game + ": the mutant '" + mutant.what + "' is not rejected for " + mutant.rule);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0)
    return 0;
  const std::string game = kGames[data[0] % 4];
  const std::string text(gamebatch::fuzz::as_text(data + 1, size - 1));
  std::optional<io::StrictRejection> rejection;
  try {
    rejection = io::strict_check(game, text);
  } catch (const std::exception& error) {
    fail(game + ": strict_check threw: " + error.what());
  }
  if (rejection)
    check_rejection(*rejection, text);
  else
    check_accepted(game, text, size);
  return 0;
}
