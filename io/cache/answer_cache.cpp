#include "io/cache/answer_cache.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <istream>
#include <mutex>
#include <streambuf>
#include <system_error>

#include <xxhash.h>
#include <boost/archive/basic_archive.hpp>
#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/string.hpp>

#include "io/files/atomic_file.hpp"
#include "io/files/content_hash.hpp"
#include "io/files/input_set.hpp"

namespace gamebatch::io {

// ------------------------------------------------------------------------------------------ keys

std::string CacheKey::hex() const {
  return io::hex(Hash128{high, low});
}

CacheKey case_key(std::string_view game, std::uint32_t solver_version,
                  std::string_view canonical_case) {
  const Hash128 hash =
      content_hash128({game.size(), solver_version, canonical_case.size()}, {game, canonical_case});
  return CacheKey{hash.high, hash.low};
}

// ----------------------------------------------------------------------------------- the cache

std::optional<std::string> AnswerCache::find_answer(const CacheKey& key) const {
  std::shared_lock lock(mutex_);
  const auto found = entries_.find(key);
  if (found == entries_.end())
    return std::nullopt;
  return found->second.answer;
}

bool AnswerCache::insert(const CacheKey& key, CacheEntry entry) {
  std::unique_lock lock(mutex_);
  return entries_.try_emplace(key, std::move(entry)).second;
}

void AnswerCache::put_artefact(const std::string& game, Artefact artefact) {
  std::unique_lock lock(mutex_);
  for (StoredArtefact& stored : artefacts_) {
    if (stored.game == game && stored.artefact.name == artefact.name) {
      stored.artefact = std::move(artefact);
      return;
    }
  }
  artefacts_.push_back({game, std::move(artefact)});
}

std::vector<Artefact> AnswerCache::artefacts_of(std::string_view game) const {
  std::shared_lock lock(mutex_);
  std::vector<Artefact> found;
  for (const StoredArtefact& stored : artefacts_) {
    if (stored.game == game)
      found.push_back(stored.artefact);
  }
  return found;
}

std::size_t AnswerCache::size() const {
  std::shared_lock lock(mutex_);
  return entries_.size();
}

std::size_t AnswerCache::artefact_count() const {
  std::shared_lock lock(mutex_);
  return artefacts_.size();
}

void AnswerCache::for_each_entry(
    const std::function<void(const CacheKey&, const CacheEntry&)>& visit) const {
  std::shared_lock lock(mutex_);
  for (const auto& [key, entry] : entries_)
    visit(key, entry);
}

void AnswerCache::for_each_artefact(const std::function<void(const StoredArtefact&)>& visit) const {
  std::shared_lock lock(mutex_);
  for (const StoredArtefact& stored : artefacts_)
    visit(stored);
}

// ------------------------------------------------------------------------------------ the file
//
// A cache file is a 48-byte header followed by the payload. Header fields are little-endian:
//
//   offset  size  field
//        0     8  magic "GBCACHE\n"
//        8     4  format version (kBundleFormatVersion); other versions are refused
//       12     4  Boost archive library version of the writer (BOOST_ARCHIVE_VERSION)
//       16     8  platform signature: byte order (1 little, 2 big), then sizeof int, long,
//                 long long, size_t, double, wchar_t, and a zero byte. Boost binary archives
//                 store these natively, so a file from another platform is refused.
//       24     8  payload length in bytes (the file is exactly 48 + this long)
//       32    16  XXH3-128 of the payload (high half, then low half)
//       48     -  payload: a Boost binary archive without its own header, holding
//                 u64 entry count, then per entry: u64 key high, u64 key low, string game,
//                 u32 solver version, string canonical case, string answer;
//                 u64 artefact count, then per artefact: string game, string name,
//                 u32 version, string bytes.
//
// Nothing of the payload is deserialized before every header field and the checksum agree, so a
// damaged file is refused with a reason instead of being trusted (Boost archives are not safe to
// load from untrusted bytes).
namespace {

constexpr std::array<char, 8> kMagic = {'G', 'B', 'C', 'A', 'C', 'H', 'E', '\n'};

std::array<unsigned char, 8> platform_signature() {
  return {static_cast<unsigned char>(std::endian::native == std::endian::little ? 1 : 2),
          static_cast<unsigned char>(sizeof(int)),
          static_cast<unsigned char>(sizeof(long)),
          static_cast<unsigned char>(sizeof(long long)),
          static_cast<unsigned char>(sizeof(std::size_t)),
          static_cast<unsigned char>(sizeof(double)),
          static_cast<unsigned char>(sizeof(wchar_t)),
          0};
}

std::uint32_t boost_archive_version() {
  const boost::serialization::library_version_type version =
      boost::archive::BOOST_ARCHIVE_VERSION();
  return static_cast<std::uint16_t>(version);  // the library's base type is 16 bits
}

template <typename Unsigned>
void put_little_endian(std::string& out, Unsigned value) {
  for (std::size_t k = 0; k < sizeof(Unsigned); ++k)
    out.push_back(static_cast<char>((value >> (8 * k)) & 0xff));
}

template <typename Unsigned>
Unsigned get_little_endian(std::string_view bytes, std::size_t offset) {
  Unsigned value = 0;
  for (std::size_t k = 0; k < sizeof(Unsigned); ++k)
    value |= static_cast<Unsigned>(static_cast<unsigned char>(bytes[offset + k])) << (8 * k);
  return value;
}

// Reads an archive straight from the file bytes, without copying them into a stringstream.
class ViewBuffer : public std::streambuf {
 public:
  explicit ViewBuffer(std::string_view bytes) {
    char* begin = const_cast<char*>(bytes.data());  // only ever read
    setg(begin, begin, begin + bytes.size());
  }
};

// Appends what an archive writes to a string.
class StringSink : public std::streambuf {
 public:
  explicit StringSink(std::string& out) : out_(out) {}

 protected:
  std::streamsize xsputn(const char* data, std::streamsize count) override {
    out_.append(data, static_cast<std::size_t>(count));
    return count;
  }
  int_type overflow(int_type character) override {
    if (!traits_type::eq_int_type(character, traits_type::eof()))
      out_.push_back(traits_type::to_char_type(character));
    return traits_type::not_eof(character);
  }

 private:
  std::string& out_;
};

// Every value the payload holds, in order; nothing is put into a cache until all of it decoded.
struct DecodedPayload {
  std::vector<std::pair<CacheKey, CacheEntry>> entries;
  std::vector<StoredArtefact> artefacts;
};

DecodedPayload decode_payload(std::string_view payload) {
  ViewBuffer buffer(payload);
  std::istream stream(&buffer);
  boost::archive::binary_iarchive archive(stream, boost::archive::no_header);
  // Reads a string as Boost writes it (a std::size_t length, then the bytes). Boost's own loading
  // resizes the string to the announced length before reading: a damaged length would allocate
  // (and zero) up to exabytes. Here it is checked against the bytes left first.
  const auto load_string = [&](std::string& text) {
    std::size_t length = 0;
    archive >> length;
    if (length > static_cast<std::size_t>(stream.rdbuf()->in_avail()))
      throw CacheFormatError("the payload announces a string longer than the bytes left");
    text.resize(length);
    if (length > 0)
      archive.load_binary(text.data(), length);
  };
  DecodedPayload decoded;
  std::uint64_t entry_count = 0;
  archive >> entry_count;
  // An entry takes at least 40 bytes (two key halves, three string lengths), so a count beyond
  // that is damage, not a reason to reserve gigabytes.
  if (entry_count > payload.size() / 40)
    throw CacheFormatError("the payload announces more entries than it can hold");
  decoded.entries.resize(entry_count);
  for (auto& [key, entry] : decoded.entries) {
    archive >> key.high >> key.low;
    load_string(entry.game);
    archive >> entry.solver_version;
    load_string(entry.canonical_case);
    load_string(entry.answer);
  }
  std::uint64_t artefact_count = 0;
  archive >> artefact_count;
  if (artefact_count > payload.size() / 28)
    throw CacheFormatError("the payload announces more artefacts than it can hold");
  decoded.artefacts.resize(artefact_count);
  for (StoredArtefact& stored : decoded.artefacts) {
    load_string(stored.game);
    load_string(stored.artefact.name);
    archive >> stored.artefact.version;
    load_string(stored.artefact.bytes);
  }
  if (stream.rdbuf()->in_avail() != 0)
    throw CacheFormatError("the payload has bytes after its last artefact");
  return decoded;
}

}  // namespace

std::string encode_bundle(const AnswerCache& cache) {
  // The archive is written straight after room for the header, which is filled in last: no copy
  // of the (possibly 100 MB) payload is ever made.
  std::string bytes(kBundleHeaderSize, '\0');
  StringSink sink(bytes);
  std::ostream stream(&sink);
  {
    std::shared_lock lock(cache.mutex_);
    std::size_t estimate = kBundleHeaderSize + 64;
    for (const auto& [key, entry] : cache.entries_)
      estimate += 60 + entry.game.size() + entry.canonical_case.size() + entry.answer.size();
    bytes.reserve(estimate);
    boost::archive::binary_oarchive archive(stream, boost::archive::no_header);
    const std::uint64_t entry_count = cache.entries_.size();
    archive << entry_count;
    for (const auto& [key, entry] : cache.entries_) {
      archive << key.high << key.low << entry.game << entry.solver_version << entry.canonical_case
              << entry.answer;
    }
    const std::uint64_t artefact_count = cache.artefacts_.size();
    archive << artefact_count;
    for (const StoredArtefact& stored : cache.artefacts_) {
      archive << stored.game << stored.artefact.name << stored.artefact.version
              << stored.artefact.bytes;
    }
  }
  if (!stream)
    throw std::runtime_error("cannot encode the answer cache");
  const std::string_view payload = std::string_view(bytes).substr(kBundleHeaderSize);
  const XXH128_hash_t checksum = XXH3_128bits(payload.data(), payload.size());
  std::string header;
  header.append(kMagic.data(), kMagic.size());
  put_little_endian<std::uint32_t>(header, kBundleFormatVersion);
  put_little_endian<std::uint32_t>(header, boost_archive_version());
  for (const unsigned char byte : platform_signature())
    header.push_back(static_cast<char>(byte));
  put_little_endian<std::uint64_t>(header, payload.size());
  put_little_endian<std::uint64_t>(header, checksum.high64);
  put_little_endian<std::uint64_t>(header, checksum.low64);
  bytes.replace(0, kBundleHeaderSize, header);
  return bytes;
}

void decode_bundle(std::string_view bytes, AnswerCache& cache) {
  const std::size_t magic_bytes = std::min(bytes.size(), kMagic.size());
  if (bytes.empty() || std::memcmp(bytes.data(), kMagic.data(), magic_bytes) != 0)
    throw CacheFormatError("not a gamebatch cache (it does not start with the cache's magic)");
  if (bytes.size() < kBundleHeaderSize) {
    throw CacheFormatError("truncated: " + std::to_string(bytes.size()) +
                           " bytes, shorter than the " + std::to_string(kBundleHeaderSize) +
                           "-byte header");
  }
  const auto version = get_little_endian<std::uint32_t>(bytes, 8);
  if (version != kBundleFormatVersion) {
    throw CacheFormatError("format version " + std::to_string(version) +
                           ", but this gamebatch reads version " +
                           std::to_string(kBundleFormatVersion) + " only");
  }
  const auto archive_version = get_little_endian<std::uint32_t>(bytes, 12);
  if (archive_version != boost_archive_version()) {
    throw CacheFormatError("written with Boost archive version " + std::to_string(archive_version) +
                           ", but this build uses version " +
                           std::to_string(boost_archive_version()));
  }
  const auto signature = platform_signature();
  if (std::memcmp(bytes.data() + 16, signature.data(), signature.size()) != 0) {
    throw CacheFormatError(
        "written on another platform (byte order or type sizes differ); binary caches are not "
        "portable: use 'gamebatch cache export' there");
  }
  const auto payload_size = get_little_endian<std::uint64_t>(bytes, 24);
  const std::size_t actual_size = bytes.size() - kBundleHeaderSize;
  if (payload_size != actual_size) {
    throw CacheFormatError(std::string(payload_size > actual_size ? "truncated" : "damaged") +
                           ": the header announces " + std::to_string(payload_size) +
                           " payload bytes, the file holds " + std::to_string(actual_size));
  }
  const std::string_view payload = bytes.substr(kBundleHeaderSize);
  const XXH128_hash_t checksum = XXH3_128bits(payload.data(), payload.size());
  if (checksum.high64 != get_little_endian<std::uint64_t>(bytes, 32) ||
      checksum.low64 != get_little_endian<std::uint64_t>(bytes, 40)) {
    throw CacheFormatError("corrupted: the payload's checksum does not match the header");
  }
  DecodedPayload decoded;
  try {
    decoded = decode_payload(payload);
  } catch (const CacheFormatError&) {
    throw;
  } catch (const std::exception& error) {
    throw CacheFormatError(std::string("the payload does not decode: ") + error.what());
  }
  std::unique_lock lock(cache.mutex_);
  cache.entries_.reserve(cache.entries_.size() + decoded.entries.size());
  for (auto& [key, entry] : decoded.entries)
    cache.entries_.try_emplace(key, std::move(entry));
  lock.unlock();
  for (StoredArtefact& stored : decoded.artefacts)
    cache.put_artefact(stored.game, std::move(stored.artefact));
}

void load_bundle_file(const std::filesystem::path& path, AnswerCache& cache) {
  const std::string bytes = read_file(path);
  decode_bundle(bytes, cache);
}

void save_bundle_file(const std::filesystem::path& path, const AnswerCache& cache) {
  write_file_durably(path, encode_bundle(cache));
}

}  // namespace gamebatch::io
