#include "core/doublemove/state_table.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <mutex>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/collaborative_call_once.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

namespace gamebatch::doublemove {
namespace {

// ---------------------------------------------------------------------------------------------
// Building.
//
// With A(s) = f(G_t) * 2^(n+1-t) the pick sequences still alive in state s at turn t, the
// sequences ending at turn t+1 number A(s) - A(s'), and they are Alice's when t+1 is even. So
// V(s) = max over moves of V(s')                      (Alice declares: t+1 odd)
// V(s) = min over moves of A(s) - A(s') + V(s')       (Bob declares: t+1 even)
// with a game-ending move (s' with a two-cycle component: A = V = 0) available once a one-cycle
// component exists. Every product below is a count of pick sequences, so it stays <= 2^(n+1).

// Per move of one partition, shared by all its c: where the successor's values start in the next
// turn, and A(s) - A(s') at c = 0 (both scale by 2^c).
template <typename Word>
struct Move {
  std::uint64_t start;
  Word discount;
};

constexpr int kMaxMoves = kMaxDistinctSizes * (kMaxDistinctSizes + 1) / 2 + 2 * kMaxDistinctSizes;

template <typename Word>
class TurnBuilder {
 public:
  TurnBuilder(const StateSpace& space, int turn, Word* values)
      : space_(space),
        n_(space.n()),
        turn_(turn),
        parts_(space.n() - turn),
        bob_declares_((turn + 1) % 2 == 0),
        values_(values) {}

  // Partitions [begin, end) of the turn in layout order.
  void run(std::uint64_t begin, std::uint64_t end) const {
    std::array<int, 128> ascending{};
    int total = parts_;
    while (space_.partition_begin(turn_, total + 1) <= begin)
      ++total;
    std::uint64_t rank = begin - space_.partition_begin(turn_, total);
    colex_unrank(rank, total, parts_, ascending.data());
    for (std::uint64_t position = begin; position < end; ++position) {
      evaluate(ascending.data(), total, rank);
      if (position + 1 == end)
        break;
      if (colex_next(ascending.data(), parts_)) {
        ++rank;
      } else {  // first partition of the next total: all ones but the last part
        ++total;
        rank = 0;
        std::fill(ascending.begin(), ascending.begin() + parts_, 1);
        ascending[static_cast<std::size_t>(parts_ - 1)] = total - parts_ + 1;
      }
    }
  }

 private:
  void evaluate(const int* ascending, int total, std::uint64_t rank) const {
    const SizeRuns trees = SizeRuns::of_ascending(ascending, parts_);
    Word product = 1;
    for (int part = 0; part < parts_; ++part)
      product *= static_cast<Word>(ascending[part]);
    const int low = space_.lowest_cycles(total);
    const int choices = space_.cycle_choices(total);
    const Word alive = product << (n_ + 1 - turn_);  // A(s) at c = 0
    const int next = turn_ + 1;

    std::array<Move<Word>, kMaxMoves> moves;
    int move_count = 0;
    // Join two trees (sizes s <= t): the c range is unchanged.
    for (int first = 0; first < trees.runs; ++first) {
      for (int second = first; second < trees.runs; ++second) {
        const int s = trees.size[static_cast<std::size_t>(first)];
        const int t = trees.size[static_cast<std::size_t>(second)];
        if (first == second && trees.count[static_cast<std::size_t>(first)] < 2)
          continue;
        const Word joined_product = product / static_cast<Word>(s * t) * static_cast<Word>(s + t);
        add_move(moves, move_count,
                 space_.index(next, total, successor_rank(trees, first, second, s + t, total), low),
                 alive - (joined_product << (n_ - turn_)));
      }
    }
    for (int run = 0; run < trees.runs; ++run) {
      const int s = trees.size[static_cast<std::size_t>(run)];
      const Word rest_product = product / static_cast<Word>(s);
      // States of the rest start at c = 1 (its vertices outside trees need a cycle).
      const std::uint64_t rest_start =
          space_.index(next, total - s, successor_rank(trees, run, -1, 0, total - s), 1);
      // Close the tree into a one-cycle component: c + 1.
      add_move(moves, move_count, rest_start + static_cast<std::uint64_t>(low),
               alive - (rest_product << (n_ - turn_ + 1)));
      // Hang the tree on a one-cycle component: c unchanged, needs c >= 1.
      if (low == 1) {
        add_move(moves, move_count, rest_start, alive - (rest_product << (n_ - turn_)));
      }
    }

    const std::uint64_t own = space_.index(turn_, total, rank, low);
    for (int choice = 0; choice < choices; ++choice) {
      const int cycles = low + choice;
      const auto offset = static_cast<std::uint64_t>(choice);
      Word best;
      if (bob_declares_) {
        // The game-ending move needs a one-cycle component; it hands Alice all alive sequences.
        best = cycles >= 1 ? alive << cycles : std::numeric_limits<Word>::max();
        for (int move = 0; move < move_count; ++move) {
          const Move<Word>& m = moves[static_cast<std::size_t>(move)];
          best = std::min(best, values_[m.start + offset] + (m.discount << cycles));
        }
      } else {
        best = 0;  // the game-ending move gives Alice nothing more
        for (int move = 0; move < move_count; ++move) {
          best = std::max(best, values_[moves[static_cast<std::size_t>(move)].start + offset]);
        }
      }
      values_[own + offset] = best;
    }
  }

  // Colex rank (among partitions into parts_ - 1 parts) of `trees` less one tree of run `first`,
  // less one of run `second` (-1: none), plus one tree of size `added` (0: none). Writes the
  // successor's runs in one pass instead of editing a copy of `trees`.
  std::uint64_t successor_rank(const SizeRuns& trees, int first, int second, int added,
                               int successor_total) const {
    std::array<int, kMaxDistinctSizes + 1> sizes;
    std::array<int, kMaxDistinctSizes + 1> counts;
    int runs = 0;
    bool placed = added == 0;
    for (int run = 0; run < trees.runs; ++run) {
      const int size = trees.size[static_cast<std::size_t>(run)];
      int count = trees.count[static_cast<std::size_t>(run)] - (run == first) - (run == second);
      if (!placed && added <= size) {
        placed = true;
        if (added == size) {
          ++count;
        } else {
          sizes[static_cast<std::size_t>(runs)] = added;
          counts[static_cast<std::size_t>(runs++)] = 1;
        }
      }
      if (count > 0) {
        sizes[static_cast<std::size_t>(runs)] = size;
        counts[static_cast<std::size_t>(runs++)] = count;
      }
    }
    if (!placed) {
      sizes[static_cast<std::size_t>(runs)] = added;
      counts[static_cast<std::size_t>(runs++)] = 1;
    }
    return colex_rank(sizes.data(), counts.data(), runs, successor_total, parts_ - 1);
  }

  // The successors' values lie scattered over the next turn, far beyond the caches for large n:
  // fetching each as soon as its index is known overlaps the misses with the ranking work.
  void add_move(std::array<Move<Word>, kMaxMoves>& moves, int& move_count, std::uint64_t start,
                Word discount) const {
    __builtin_prefetch(values_ + start);
    moves[static_cast<std::size_t>(move_count++)] = {start, discount};
  }

  const StateSpace& space_;
  int n_;
  int turn_;
  int parts_;
  bool bob_declares_;
  Word* values_;
};

// Turn n: no trees, c one-cycle components; declaration n + 1 must end the game, and its
// sequences are Alice's when n + 1 is even.
template <typename Word>
Word last_turn_value(int n, int cycles) {
  return (n + 1) % 2 == 0 ? Word{1} << (cycles + 1) : Word{0};
}

template <typename Word>
void build_values(const StateSpace& space, Word* values) {
  const int n = space.n();
  for (int cycles = 1; cycles <= n; ++cycles)
    values[space.index(n, 0, 0, cycles)] = last_turn_value<Word>(n, cycles);
  for (int turn = n - 1; turn >= 0; --turn) {
    const TurnBuilder<Word> builder(space, turn, values);
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, space.partitions_in_turn(turn), 64),
                      [&builder](const tbb::blocked_range<std::uint64_t>& range) {
                        builder.run(range.begin(), range.end());
                      });
  }
}

// ---------------------------------------------------------------------------------------------
// Encoding. All integers little-endian:
//   offset  size  field
//        0     8  magic "GBDMSTAT"
//        8     4  StateTable::kVersion
//       12     4  n
//       16     8  state count (must equal StateSpace(n).state_count())
//       24     4  bytes per value: 8 (only for n <= kLargestNarrowN) or 16
//       28     4  zero
//       32   S*W  the values in layout order (state_space.hpp)
//    32+SW     8  FNV-1a 64 of every byte before it
// FNV-1a changes its state bijectively at every byte, so any single changed byte changes the
// checksum; a truncated or padded encoding fails the length check first.

constexpr std::string_view kMagic = "GBDMSTAT";
constexpr std::size_t kHeaderBytes = 32;
constexpr std::size_t kChecksumBytes = 8;

std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325u;
  for (const char byte : bytes) {
    hash ^= static_cast<unsigned char>(byte);
    hash *= 0x100000001b3u;
  }
  return hash;
}

void put_bytes(std::string& out, Value value, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) {
    out.push_back(static_cast<char>(static_cast<unsigned char>(value & 0xff)));
    value >>= 8;
  }
}

Value get_bytes(std::string_view bytes, std::size_t offset, std::size_t width) {
  Value value = 0;
  for (std::size_t i = width; i-- > 0;) {
    value = (value << 8) | static_cast<unsigned char>(bytes[offset + i]);
  }
  return value;
}

}  // namespace

StateTable::StateTable(int n, Storage storage) : space_(n) {
  if (storage == Storage::narrow && n > kLargestNarrowN) {
    throw std::invalid_argument("doublemove: 64-bit values cannot hold the answers of n = " +
                                std::to_string(n));
  }
  const auto count = static_cast<std::size_t>(space_.state_count());
  // Left uninitialised: the build writes every value, first touching the memory on the thread
  // that computes it.
  if (storage == Storage::narrow) {
    narrow_ = std::make_unique_for_overwrite<std::uint64_t[]>(count);
  } else {
    wide_ = std::make_unique_for_overwrite<Value[]>(count);
  }
}

std::shared_ptr<const StateTable> StateTable::build(int n) {
  return build(n, storage_for(n));
}

std::shared_ptr<const StateTable> StateTable::build(int n, Storage storage) {
  std::shared_ptr<StateTable> table(new StateTable(n, storage));
  tbb::this_task_arena::isolate([&] {
    if (table->narrow_) {
      build_values(table->space_, table->narrow_.get());
    } else {
      build_values(table->space_, table->wide_.get());
    }
  });
  return table;
}

std::uint64_t StateTable::value_bytes() const {
  return state_count() * (narrow_ ? 8u : 16u);
}

bool operator==(const StateTable& left, const StateTable& right) {
  if (left.n() != right.n())
    return false;
  for (std::uint64_t index = 0; index < left.state_count(); ++index) {
    if (left.value_at(index) != right.value_at(index))
      return false;
  }
  return true;
}

std::string StateTable::encode() const {
  const std::size_t width = narrow_ ? 8 : 16;
  std::string out;
  out.reserve(kHeaderBytes + static_cast<std::size_t>(state_count()) * width + kChecksumBytes);
  out += kMagic;
  put_bytes(out, kVersion, 4);
  put_bytes(out, static_cast<Value>(n()), 4);
  put_bytes(out, state_count(), 8);
  put_bytes(out, width, 4);
  put_bytes(out, 0, 4);
  for (std::uint64_t index = 0; index < state_count(); ++index)
    put_bytes(out, value_at(index), width);
  put_bytes(out, fnv1a(out), kChecksumBytes);
  return out;
}

std::shared_ptr<const StateTable> StateTable::decode(std::string_view bytes) {
  auto fail = [](const std::string& what) -> TableDecodeError {
    return TableDecodeError("doublemove state table: " + what);
  };
  if (bytes.size() < kHeaderBytes + kChecksumBytes)
    throw fail("only " + std::to_string(bytes.size()) + " bytes, shorter than any table");
  if (bytes.substr(0, kMagic.size()) != kMagic)
    throw fail("not a doublemove state table (bad magic)");
  const Value version = get_bytes(bytes, 8, 4);
  if (version != kVersion) {
    throw fail("version " + to_decimal(version) + ", expected " + std::to_string(kVersion));
  }
  const Value declared_n = get_bytes(bytes, 12, 4);
  if (declared_n < 1 || declared_n > static_cast<Value>(kMaxN))
    throw fail("n = " + to_decimal(declared_n) + " outside 1.." + std::to_string(kMaxN));
  const int n = static_cast<int>(declared_n);
  const std::uint64_t expected_states = state_count_for(n);
  if (get_bytes(bytes, 16, 8) != expected_states) {
    throw fail("state count " + to_decimal(get_bytes(bytes, 16, 8)) + ", n = " + std::to_string(n) +
               " has " + std::to_string(expected_states));
  }
  const Value width_field = get_bytes(bytes, 24, 4);
  const bool narrow_fits = n <= kLargestNarrowN;
  if (!(width_field == 16 || (width_field == 8 && narrow_fits)) || get_bytes(bytes, 28, 4) != 0) {
    throw fail("value width " + to_decimal(width_field) + " bytes, expected " +
               (narrow_fits ? "8 or 16" : "16") + " for n = " + std::to_string(n));
  }
  const auto width = static_cast<std::size_t>(width_field);
  const std::size_t expected_size =
      kHeaderBytes + static_cast<std::size_t>(expected_states) * width + kChecksumBytes;
  if (bytes.size() != expected_size) {
    throw fail(std::to_string(bytes.size()) + " bytes, expected " + std::to_string(expected_size));
  }
  const std::size_t body = expected_size - kChecksumBytes;
  if (get_bytes(bytes, body, kChecksumBytes) != fnv1a(bytes.substr(0, body)))
    throw fail("checksum mismatch (corrupted)");

  std::shared_ptr<StateTable> table(
      new StateTable(n, width == 8 ? Storage::narrow : Storage::wide));
  const Value bound = Value{1} << (n + 1);  // every value counts pick sequences
  for (std::uint64_t index = 0; index < expected_states; ++index) {
    const Value value =
        get_bytes(bytes, kHeaderBytes + static_cast<std::size_t>(index) * width, width);
    if (value > bound)
      throw fail("value of state " + std::to_string(index) + " exceeds 2^(n+1)");
    if (table->narrow_) {
      table->narrow_[index] = static_cast<std::uint64_t>(value);
    } else {
      table->wide_[index] = value;
    }
  }
  for (int cycles = 1; cycles <= n; ++cycles) {
    if (table->value_at(table->space_.index(n, 0, 0, cycles)) !=
        last_turn_value<Value>(n, cycles)) {
      throw fail("the last turn's values are not the rules' values");
    }
  }
  return table;
}

// ---------------------------------------------------------------------------------------------
// The store.

struct StateTableStore::Slot {
  tbb::collaborative_once_flag built;
  mutable std::mutex mutex;
  std::shared_ptr<const StateTable> table;

  std::shared_ptr<const StateTable> load() const {
    std::lock_guard lock(mutex);
    return table;
  }
  bool store_if_empty(std::shared_ptr<const StateTable> offered) {
    std::lock_guard lock(mutex);
    if (table)
      return false;
    table = std::move(offered);
    return true;
  }
};

StateTableStore::StateTableStore() : slots_(new Slot[static_cast<std::size_t>(kMaxN) + 1]) {}

StateTableStore::~StateTableStore() = default;

std::shared_ptr<const StateTable> StateTableStore::get(int n) {
  if (n < 1 || n > kMaxN) {
    throw std::invalid_argument("doublemove: n = " + std::to_string(n) +
                                " is above the largest supported n, " + std::to_string(kMaxN));
  }
  Slot& slot = slots_[static_cast<std::size_t>(n)];
  if (auto held = slot.load())
    return held;
  // Other askers of the same n wait inside the call and help with the build's parallel loops.
  tbb::collaborative_call_once(slot.built, [&] {
    if (slot.load())
      return;  // adopted meanwhile
    if (loader_) {
      if (auto loaded = loader_(n); loaded && loaded->n() == n) {
        slot.store_if_empty(std::move(loaded));
        return;
      }
    }
    auto table = StateTable::build(n);
    builds_.fetch_add(1);
    slot.store_if_empty(std::move(table));
  });
  return slot.load();
}

void StateTableStore::set_loader(Loader loader) {
  loader_ = std::move(loader);
}

bool StateTableStore::adopt(std::shared_ptr<const StateTable> table) {
  if (!table)
    return false;
  return slots_[static_cast<std::size_t>(table->n())].store_if_empty(std::move(table));
}

std::vector<std::shared_ptr<const StateTable>> StateTableStore::tables() const {
  std::vector<std::shared_ptr<const StateTable>> held;
  for (int n = 1; n <= kMaxN; ++n) {
    if (auto table = slots_[static_cast<std::size_t>(n)].load())
      held.push_back(std::move(table));
  }
  return held;
}

StateTableStore& default_store() {
  static StateTableStore store;
  return store;
}

}  // namespace gamebatch::doublemove
