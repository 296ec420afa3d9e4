// Path names as text ("a/b/c.in"), for matching names without touching the file system.
#pragma once

#include <string_view>

namespace gamebatch::io {

// "c.in" of "a/b/c.in"; the name itself when it has no slash.
inline std::string_view last_component(std::string_view name) {
  const std::size_t slash = name.rfind('/');
  return slash == std::string_view::npos ? name : name.substr(slash + 1);
}

}  // namespace gamebatch::io
