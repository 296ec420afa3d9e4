#include "io/files/content_hash.hpp"

// The state's layout is public with this macro (stable across libxxhash 0.8): it lives on the
// stack, so hashing a case costs no allocation (it runs once or twice per case).
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

namespace gamebatch::io {
namespace {

template <typename Reset, typename Update>
void feed(XXH3_state_t& state, Reset reset, Update update,
          std::initializer_list<std::uint64_t> header,
          std::initializer_list<std::string_view> parts) {
  reset(&state);
  update(&state, header.begin(), header.size() * sizeof(std::uint64_t));
  for (const std::string_view part : parts)
    update(&state, part.data(), part.size());
}

}  // namespace

std::uint64_t content_hash64(std::initializer_list<std::uint64_t> header,
                             std::initializer_list<std::string_view> parts) {
  XXH3_state_t state;
  XXH3_INITSTATE(&state);
  feed(state, XXH3_64bits_reset, XXH3_64bits_update, header, parts);
  return XXH3_64bits_digest(&state);
}

Hash128 content_hash128(std::initializer_list<std::uint64_t> header,
                        std::initializer_list<std::string_view> parts) {
  XXH3_state_t state;
  XXH3_INITSTATE(&state);
  feed(state, XXH3_128bits_reset, XXH3_128bits_update, header, parts);
  const XXH128_hash_t hash = XXH3_128bits_digest(&state);
  return {hash.high64, hash.low64};
}

std::string hex(const Hash128& hash) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text(32, '0');
  for (int k = 0; k < 16; ++k) {
    text[static_cast<std::size_t>(15 - k)] = kDigits[(hash.high >> (4 * k)) & 0xf];
    text[static_cast<std::size_t>(31 - k)] = kDigits[(hash.low >> (4 * k)) & 0xf];
  }
  return text;
}

}  // namespace gamebatch::io
