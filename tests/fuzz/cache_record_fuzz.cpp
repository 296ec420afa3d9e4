// libFuzzer target: the decoders of one stored record, from any bytes. The first byte picks which:
//   0  StateTable::decode of the rest (doublemove's state table, the artefact the cache stores);
//   1  the same with the rest's last 8 bytes replaced by its checksum, so that the fuzzer reaches
//      the checks behind it (n, state count, width, length, value bounds, the last turn);
//   2  decode_table_artefact (what the cache's artefact source does with a stored artefact): the
//      rest is the name, a newline, and table bytes with their checksum made sound as in 1;
//   3  the bundle's records (the payload of decode_bundle), the rest given a sound header.
// Each decodes or throws its documented error (TableDecodeError, nullptr, CacheFormatError), never
// another exception, a crash or a huge allocation. A decoded table encodes to exactly the bytes it
// came from; a decoded artefact's table is of the n its name says; a decoded bundle encodes and
// decodes again to the same cache.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/doublemove/state_table.hpp"
#include "io/cache/answer_cache.hpp"
#include "io/doublemove/problem.hpp"
#include "tests/fuzz/bundle_support.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

namespace io = gamebatch::io;
namespace fuzz = gamebatch::fuzz;
namespace game = gamebatch::doublemove;

constexpr std::size_t kChecksumBytes = 8;

// FNV-1a 64, the table encoding's checksum (core/doublemove/state_table.cpp).
std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325u;
  for (const char byte : bytes) {
    hash ^= static_cast<unsigned char>(byte);
    hash *= 0x100000001b3u;
  }
  return hash;
}

std::string with_sound_checksum(std::string_view bytes) {
  std::string fixed(bytes);
  if (fixed.size() < kChecksumBytes)
    return fixed;
  const std::size_t body = fixed.size() - kChecksumBytes;
  const std::uint64_t checksum = fnv1a(std::string_view(fixed).substr(0, body));
  for (std::size_t k = 0; k < kChecksumBytes; ++k)
    fixed[body + k] = static_cast<char>((checksum >> (8 * k)) & 0xff);
  return fixed;
}

void check_table(std::string_view bytes) {
  std::shared_ptr<const game::StateTable> table;
  try {
    table = game::StateTable::decode(bytes);
  } catch (const game::TableDecodeError&) {
    return;
  }
  if (table == nullptr || table->n() < 1 || table->n() > game::kMaxN ||
      table->state_count() != game::state_count_for(table->n()))
    fuzz::fail("cache_record: decode returned no table or one of another shape");
  if (table->encode() != bytes)
    fuzz::fail("cache_record: a decoded table encodes to other bytes");
}

void check_artefact(std::string_view rest) {
  const std::size_t newline = rest.find('\n');
  const std::string_view name = rest.substr(0, newline);
  const std::string_view bytes =
      newline == std::string_view::npos ? std::string_view() : rest.substr(newline + 1);
  const io::Artefact artefact{std::string(name), game::StateTable::kVersion,
                              with_sound_checksum(bytes)};
  const std::shared_ptr<const game::StateTable> table =
      io::doublemove::decode_table_artefact(artefact);
  if (table != nullptr && game::StateTable::name_for(table->n()) != artefact.name)
    fuzz::fail("cache_record: the artefact '" + artefact.name +
               "' holds the table of n = " + std::to_string(table->n()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0)
    return 0;
  const std::string_view rest = fuzz::as_text(data + 1, size - 1);
  try {
    switch (data[0] % 4) {
      case 0:
        check_table(rest);
        break;
      case 1:
        check_table(with_sound_checksum(rest));
        break;
      case 2:
        check_artefact(rest);
        break;
      default: {
        io::AnswerCache cache;
        fuzz::decode_and_round_trip(fuzz::bundle_with_header(rest), cache);
        break;
      }
    }
  } catch (const std::exception& error) {
    fuzz::fail(std::string("cache_record: unexpected exception: ") + error.what());
  }
  return 0;
}
