// libFuzzer target: any bytes as an answer-cache file are classified, and a file that looks like a
// store either opens read-only or is refused with StoreFormatError; every read path of an open
// store (look-ups, walks, statistics, artefacts, SQLite's integrity check) then either works or
// throws a CacheFormatError (StoreDamagedError for damage met while reading), never another
// exception, a crash or a huge allocation; so does importing it into a new store. On a file whose
// integrity check passes, every walked answer is found again by its key exactly when its checksum
// holds, an artefact found by name is a sound one the walk met, and the import's counts agree with
// the walk.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/cache/cache_store.hpp"
#include "io/doublemove/problem.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

namespace io = gamebatch::io;
namespace fuzz = gamebatch::fuzz;

constexpr std::int64_t kNow = 1'700'000'000;
// Look-ups checked per input; a mutated store can hold thousands of rows.
constexpr std::size_t kMaxChecked = 64;

struct WalkedEntry {
  io::CacheKey key;
  std::string answer;
  bool damaged = false;
};

struct WalkedArtefact {
  std::string game;
  io::Artefact artefact;
  bool damaged = false;
};

void exercise(io::CacheStore& store, const std::filesystem::path& path) {
  store.entry_count();
  store.entry_groups();
  store.entry_ages(kNow);
  store.artefact_infos();
  store.empty_bytes();
  store.disk_bytes();
  store.find(io::CacheKey{1, 2});
  store.has_artefact("doublemove", "states n=3");
  store.find_artefact("doublemove", "states n=3");

  std::vector<WalkedEntry> entries;
  store.for_each_entry(
      [&](const io::CacheKey& key, const io::CacheEntry& entry, std::int64_t, bool damaged) {
        entries.push_back({key, entry.answer, damaged});
        return entries.size() < kMaxChecked;
      });
  std::vector<WalkedArtefact> artefacts;
  store.for_each_artefact([&](const std::string& game, const io::Artefact& artefact, bool damaged) {
    if (artefacts.size() < kMaxChecked)
      artefacts.push_back({game, artefact, damaged});
  });
  // The game's own reading of a stored artefact: a table or nullptr, nothing else.
  for (const WalkedArtefact& walked : artefacts) {
    if (walked.game == "doublemove" && !walked.damaged)
      io::doublemove::decode_table_artefact(walked.artefact);
  }

  // Import reads every record again, through a second connection (into a store made afresh).
  const std::filesystem::path into_path = fuzz::ScratchDirectory::path() / "into.cache";
  fuzz::remove_database(into_path);
  io::ImportCounts counts;
  {
    io::CacheStore into(into_path, io::CacheStore::Mode::read_write);
    counts = io::import_cache_file(into, path);
    if (into.entry_count() > counts.entries || into.artefact_infos().size() > counts.artefacts)
      fuzz::fail("cache_store: the import stored more than it counted");
  }
  fuzz::remove_database(into_path);

  // Damage that SQLite itself sees may make look-ups and walks disagree; nothing more to check.
  if (!store.integrity_problems().empty())
    return;
  // Answers are looked up by row id: the look-up meets the very record the walk met.
  for (const WalkedEntry& walked : entries) {
    const io::Lookup lookup = store.find(walked.key);
    if (lookup.damaged != walked.damaged || lookup.found.has_value() == walked.damaged)
      fuzz::fail("cache_store: find(" + walked.key.hex() + ") disagrees with the walk");
    if (lookup.found && lookup.found->answer != walked.answer)
      fuzz::fail("cache_store: find(" + walked.key.hex() + ") returns another answer");
  }
  if (entries.size() >= kMaxChecked || artefacts.size() >= kMaxChecked)
    return;  // the walks were cut short
  if (counts.entries + counts.skipped != entries.size())
    fuzz::fail("cache_store: the import read another number of entries than the walk");
  std::size_t sound_artefacts = 0;
  for (const WalkedArtefact& walked : artefacts)
    sound_artefacts += walked.damaged ? 0 : 1;
  if (counts.artefacts != sound_artefacts)
    fuzz::fail("cache_store: the import read another number of artefacts than the walk");
  // Artefacts are looked up by (game, name) through an index, which a mutated file may leave
  // unable to find a row (a value of another type under a TEXT column): a miss is allowed, but what
  // is found must be a sound artefact the walk met.
  for (const WalkedArtefact& walked : artefacts) {
    const std::optional<io::Artefact> found =
        store.find_artefact(walked.game, walked.artefact.name);
    if (!found)
      continue;
    bool met = false;
    for (const WalkedArtefact& other : artefacts) {
      met = met ||
            (!other.damaged && other.game == walked.game && other.artefact.name == found->name &&
             other.artefact.version == found->version && other.artefact.bytes == found->bytes);
    }
    if (!met || !store.has_artefact(walked.game, walked.artefact.name))
      fuzz::fail("cache_store: find_artefact(" + walked.game + ", " + walked.artefact.name +
                 ") returns what the walk did not meet");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path path = fuzz::ScratchDirectory::path() / "fuzzed.cache";
  fuzz::remove_database(path);
  fuzz::write_bytes(path, fuzz::as_text(data, size));
  try {
    const io::CacheFileKind kind = io::classify_cache_file(path);
    if (kind == io::CacheFileKind::store) {
      io::CacheStore store(path, io::CacheStore::Mode::read_only);
      exercise(store, path);
    } else {
      try {
        io::CacheStore store(path, io::CacheStore::Mode::read_only);
        fuzz::fail("cache_store: a file that is no store opened");
      } catch (const io::StoreFormatError&) {
        // refused, as it must be (a version-1 file or not SQLite at all)
      } catch (const std::system_error&) {
        if (kind != io::CacheFileKind::missing)
          throw;  // an empty file is as good as no file for a reader
      }
    }
  } catch (const io::CacheFormatError&) {
    // StoreFormatError on opening, StoreDamagedError on reading: the documented refusals.
  } catch (const std::exception& error) {
    fuzz::fail(std::string("cache_store: unexpected exception: ") + error.what());
  }
  fuzz::remove_database(path);
  return 0;
}
