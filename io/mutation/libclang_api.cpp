// libclang loaded with dlopen on first use (libclang_api.hpp says why).
#include "io/mutation/libclang_api.hpp"

#include <dlfcn.h>

#include <string>

#include "io/mutation/cpp_mutants.hpp"

namespace gamebatch::io::detail {
namespace {

LibclangApi load_libclang() {
  const char* library = GAMEBATCH_LIBCLANG_SONAME;
  // Never closed: the API's pointers are used until the program ends.
  void* handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* reason = dlerror();
    throw MutationError(
        std::string("C++ sources are parsed with libclang, which cannot be loaded (") +
        (reason != nullptr ? reason : library) + ")");
  }
  LibclangApi api;
#define GAMEBATCH_LIBCLANG_LOAD(name)                                   \
  api.name = reinterpret_cast<decltype(&::name)>(dlsym(handle, #name)); \
  if (api.name == nullptr)                                              \
    throw MutationError(std::string(library) +                          \
                        " has no function " #name                       \
                        " (a libclang older than the one gamebatch was built with?)");
  GAMEBATCH_LIBCLANG_FUNCTIONS(GAMEBATCH_LIBCLANG_LOAD)
#undef GAMEBATCH_LIBCLANG_LOAD
  return api;
}

}  // namespace

const LibclangApi& libclang() {
  static const LibclangApi api = load_libclang();
  return api;
}

}  // namespace gamebatch::io::detail
