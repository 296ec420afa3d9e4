// XXH3 over a header of integers followed by byte strings: the one way the cache hashes keys and
// checksums records. The header holds the strings' lengths, so that no two lists of strings can
// run together into the same bytes.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace gamebatch::io {

struct Hash128 {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
};

std::uint64_t content_hash64(std::initializer_list<std::uint64_t> header,
                             std::initializer_list<std::string_view> parts);
Hash128 content_hash128(std::initializer_list<std::uint64_t> header,
                        std::initializer_list<std::string_view> parts);

// 32 lowercase hex digits, high half first.
std::string hex(const Hash128& hash);

}  // namespace gamebatch::io
