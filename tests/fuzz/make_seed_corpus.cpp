// Writes the seed inputs of the cache targets that the test data does not hold as files: stores
// made by this build, bundles and their payloads, encoded state tables. tools/fuzz.sh runs it into
// build-fuzz/seeds before fuzzing.
//   fuzz_seed_corpus OUT_DIR TEST_DATA_DIR
// OUT_DIR/cache_store, OUT_DIR/bundle_import and OUT_DIR/cache_record get the seeds, in each
// target's input layout (see the targets' first comments).
#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/doublemove/state_table.hpp"
#include "io/cache/answer_cache.hpp"
#include "io/cache/cache_store.hpp"
#include "io/files/input_set.hpp"
#include "io/problem.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

namespace fs = std::filesystem;
namespace io = gamebatch::io;
namespace game = gamebatch::doublemove;

constexpr std::int64_t kNow = 1'700'000'000;
constexpr std::size_t kCasesPerGame = 3;

struct Record {
  io::CacheKey key;
  io::CacheEntry entry;
};

// A few solved cases of each game: from the smallest input of tests/data/GAME.
std::vector<Record> solved_records(const fs::path& test_data) {
  std::vector<Record> records;
  for (const io::Problem* problem : io::all_problems()) {
    std::vector<fs::path> inputs;
    for (const auto& file : fs::directory_iterator(test_data / std::string(problem->name()))) {
      if (file.path().extension() == ".in")
        inputs.push_back(file.path());
    }
    if (inputs.empty())
      continue;
    const fs::path smallest = *std::min_element(
        inputs.begin(), inputs.end(),
        [](const fs::path& a, const fs::path& b) { return fs::file_size(a) < fs::file_size(b); });
    const auto cases = problem->parse(io::read_file(smallest));
    for (std::size_t index = 0; index < std::min(cases.size(), kCasesPerGame); ++index) {
      io::CacheEntry entry{std::string(problem->name()), problem->solver_version(),
                           cases[index]->canonical(), cases[index]->solve()};
      const io::CacheKey key = io::case_key(entry.game, entry.solver_version, entry.canonical_case);
      records.push_back({key, std::move(entry)});
    }
  }
  return records;
}

io::Artefact table_artefact(int n) {
  return {game::StateTable::name_for(n), game::StateTable::kVersion,
          game::StateTable::build(n)->encode()};
}

void write_store(const fs::path& path, const std::vector<Record>& records,
                 const std::vector<io::Artefact>& artefacts) {
  gamebatch::fuzz::remove_database(path);
  io::CacheStore store(path, io::CacheStore::Mode::read_write);
  std::vector<io::NewEntry> entries;
  for (const Record& record : records)
    entries.push_back({record.key, record.entry, false});
  store.add_entries(entries, kNow);
  for (const io::Artefact& artefact : artefacts)
    store.put_artefact("doublemove", artefact, kNow);
}  // closing the last connection folds the log in: the file alone is the store

std::string bundle_of(const std::vector<Record>& records,
                      const std::vector<io::Artefact>& artefacts) {
  io::AnswerCache cache;
  for (const Record& record : records)
    cache.insert(record.key, record.entry);
  for (const io::Artefact& artefact : artefacts)
    cache.put_artefact("doublemove", artefact);
  return io::encode_bundle(cache);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: fuzz_seed_corpus OUT_DIR TEST_DATA_DIR\n");
    return 2;
  }
  try {
    const fs::path out = argv[1];
    const fs::path test_data = argv[2];
    for (const char* target : {"cache_store", "bundle_import", "cache_record"})
      fs::create_directories(out / target);
    const std::vector<Record> records = solved_records(test_data);
    const std::vector<Record> one(records.begin(), records.begin() + 1);
    const std::vector<io::Artefact> tables = {table_artefact(3)};

    write_store(out / "cache_store/empty.cache", {}, {});
    write_store(out / "cache_store/one-entry.cache", one, {});
    write_store(out / "cache_store/entries-and-table.cache", records, tables);
    for (const char* bundle : {"version1.cache", "stale.bundle"})
      fs::copy_file(test_data / "cache" / bundle, out / "cache_store" / bundle,
                    fs::copy_options::overwrite_existing);

    // Whole bundles, and their payloads alone (the target gives those a header).
    const std::string whole = bundle_of(records, tables);
    const std::string empty = bundle_of({}, {});
    using gamebatch::fuzz::write_bytes;
    write_bytes(out / "bundle_import/entries-and-table.bundle", whole);
    write_bytes(out / "bundle_import/empty.bundle", empty);
    write_bytes(out / "bundle_import/entries-and-table.payload",
                whole.substr(io::kBundleHeaderSize));
    write_bytes(out / "bundle_import/one-entry.payload",
                bundle_of(one, {}).substr(io::kBundleHeaderSize));
    for (const char* bundle : {"version1.cache", "stale.bundle"}) {
      fs::copy_file(test_data / "cache" / bundle, out / "bundle_import" / bundle,
                    fs::copy_options::overwrite_existing);
    }

    // cache_record: a mode byte, then the bytes (see cache_record_fuzz.cpp).
    for (int n = 1; n <= 4; ++n) {
      const std::string table = table_artefact(n).bytes;
      const std::string suffix = "-n" + std::to_string(n);
      write_bytes(out / ("cache_record/table" + suffix), std::string(1, '\0') + table);
      write_bytes(out / ("cache_record/fixed-table" + suffix), std::string(1, '\1') + table);
      write_bytes(out / ("cache_record/artefact" + suffix),
                  "\2" + game::StateTable::name_for(n) + "\n" + table);
    }
    write_bytes(out / "cache_record/wide-table-n2",
                std::string(1, '\1') +
                    game::StateTable::build(2, game::StateTable::Storage::wide)->encode());
    write_bytes(out / "cache_record/bundle-payload", "\3" + whole.substr(io::kBundleHeaderSize));
    write_bytes(out / "cache_record/empty-bundle-payload",
                "\3" + empty.substr(io::kBundleHeaderSize));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "fuzz_seed_corpus: %s\n", error.what());
    return 1;
  }
  return 0;
}
