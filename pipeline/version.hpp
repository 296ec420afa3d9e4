// The version gamebatch reports (--version, table headers, reports, build recipes): the CMake
// project's, defined for gamebatch_pipeline and all that links it.
#pragma once

namespace gamebatch::pipeline {

inline constexpr const char* kVersion = GAMEBATCH_VERSION;

}  // namespace gamebatch::pipeline
