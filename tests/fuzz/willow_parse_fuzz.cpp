// libFuzzer target: any bytes given to the willow parser either parse or raise InputError (never
// another exception, a crash or a huge allocation), and small parsed cases are solved by the fast
// solver and the brute force with the same answer.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/willow/willow.hpp"
#include "io/input_error.hpp"
#include "io/willow/format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    for (const auto& instance : gamebatch::io::willow::parse_file(text)) {
      if (instance.city_count() > 8)
        continue;  // keep the brute force cheap
      if (gamebatch::willow::solve(instance) != gamebatch::willow::solve_brute_force(instance)) {
        std::abort();
      }
    }
  } catch (const gamebatch::io::InputError&) {
    // A rejection with a line and a message is the expected outcome for most inputs.
  }
  return 0;
}
