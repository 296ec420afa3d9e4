// libFuzzer target: any bytes as a bundle file (the portable form of the answer cache, and the
// version-1 cache file) are decoded or refused with CacheFormatError, never another exception, a
// crash or a huge allocation: by decode_bundle, by load_bundle_file and by `cache import`
// (import_cache_file into a store). The three agree; a decoded bundle encodes and decodes again
// to the same cache, and the import counts exactly its entries and artefacts. Bytes that do not
// start with the bundle's magic are taken as a payload and given a sound header, so that the
// fuzzer reaches the Boost archive decoder behind the checksum.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "io/cache/answer_cache.hpp"
#include "io/cache/cache_store.hpp"
#include "tests/fuzz/bundle_support.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

namespace io = gamebatch::io;
namespace fuzz = gamebatch::fuzz;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = fuzz::as_text(data, size);
  const std::string bytes =
      input.starts_with(fuzz::kBundleMagic) ? std::string(input) : fuzz::bundle_with_header(input);
  const std::filesystem::path path = fuzz::ScratchDirectory::path() / "fuzzed.bundle";
  const std::filesystem::path into_path = fuzz::ScratchDirectory::path() / "into.cache";
  try {
    io::AnswerCache decoded;
    const bool sound = fuzz::decode_and_round_trip(bytes, decoded);

    fuzz::write_bytes(path, bytes);
    io::AnswerCache loaded;
    try {
      io::load_bundle_file(path, loaded);
      if (!sound)
        fuzz::fail("bundle_import: load_bundle_file accepts what decode_bundle refuses");
      if (!fuzz::same_cache(decoded, loaded))
        fuzz::fail("bundle_import: load_bundle_file reads another cache than decode_bundle");
    } catch (const io::CacheFormatError&) {
      if (sound)
        fuzz::fail("bundle_import: load_bundle_file refuses what decode_bundle accepts");
    }

    // The store is made afresh for every bundle that gets imported (a refused one writes nothing).
    static std::unique_ptr<io::CacheStore> into;
    if (!into) {
      fuzz::remove_database(into_path);
      into = std::make_unique<io::CacheStore>(into_path, io::CacheStore::Mode::read_write);
    }
    try {
      const io::ImportCounts counts = io::import_cache_file(*into, path);
      into.reset();
      if (!sound)
        fuzz::fail("bundle_import: import accepts what decode_bundle refuses");
      if (counts.entries + counts.skipped != decoded.size() ||
          counts.artefacts != decoded.artefact_count())
        fuzz::fail("bundle_import: import counts another number of records than were decoded");
    } catch (const io::CacheFormatError&) {
      if (sound)
        fuzz::fail("bundle_import: import refuses what decode_bundle accepts");
    }
  } catch (const std::exception& error) {
    fuzz::fail(std::string("bundle_import: unexpected exception: ") + error.what());
  }
  return 0;
}
