// The version gamebatch reports (--version, table headers, run reports): the CMake project's.
#pragma once

namespace gamebatch::cli {

inline constexpr const char* kVersion = GAMEBATCH_VERSION;

}  // namespace gamebatch::cli
