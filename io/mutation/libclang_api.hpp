// libclang's C API as this room uses it, loaded when a source is first parsed rather than linked:
// libclang brings all of LLVM, whose loading alone costs every gamebatch run about 60 MB resident
// and 15 ms at start-up, and only `gamebatch strength` (and the tests of this room) parse C++.
// The library is the one CMake found (its soname, GAMEBATCH_LIBCLANG_SONAME); the package's
// Depends names it, so an installed gamebatch finds it.
#pragma once

#include <clang-c/Index.h>

namespace gamebatch::io::detail {

// X-macro of the functions used: one member of LibclangApi per entry, of the function's own type.
#define GAMEBATCH_LIBCLANG_FUNCTIONS(X)    \
  X(clang_File_isEqual)                    \
  X(clang_Location_isFromMainFile)         \
  X(clang_createIndex)                     \
  X(clang_defaultDiagnosticDisplayOptions) \
  X(clang_disposeDiagnostic)               \
  X(clang_disposeIndex)                    \
  X(clang_disposeString)                   \
  X(clang_disposeTokens)                   \
  X(clang_disposeTranslationUnit)          \
  X(clang_formatDiagnostic)                \
  X(clang_getCString)                      \
  X(clang_getCanonicalType)                \
  X(clang_getCursorExtent)                 \
  X(clang_getCursorKind)                   \
  X(clang_getCursorLocation)               \
  X(clang_getCursorReferenced)             \
  X(clang_getCursorSemanticParent)         \
  X(clang_getCursorSpelling)               \
  X(clang_getCursorType)                   \
  X(clang_getDiagnostic)                   \
  X(clang_getDiagnosticSeverity)           \
  X(clang_getExpansionLocation)            \
  X(clang_getFile)                         \
  X(clang_getLocationForOffset)            \
  X(clang_getNullCursor)                   \
  X(clang_getNumDiagnostics)               \
  X(clang_getRange)                        \
  X(clang_getRangeEnd)                     \
  X(clang_getRangeStart)                   \
  X(clang_getSpellingLocation)             \
  X(clang_getTokenExtent)                  \
  X(clang_getTokenKind)                    \
  X(clang_getTokenSpelling)                \
  X(clang_getTranslationUnitCursor)        \
  X(clang_getTranslationUnitSpelling)      \
  X(clang_isExpression)                    \
  X(clang_isStatement)                     \
  X(clang_parseTranslationUnit2)           \
  X(clang_tokenize)                        \
  X(clang_visitChildren)

struct LibclangApi {
#define GAMEBATCH_LIBCLANG_MEMBER(name) decltype(&::name) name = nullptr;
  GAMEBATCH_LIBCLANG_FUNCTIONS(GAMEBATCH_LIBCLANG_MEMBER)
#undef GAMEBATCH_LIBCLANG_MEMBER
};

// The API, the library loaded on the first call (thread-safe; it stays loaded). Throws
// MutationError naming the library and the loader's reason where it cannot be loaded or lacks
// a function.
const LibclangApi& libclang();

}  // namespace gamebatch::io::detail
