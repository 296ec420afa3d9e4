#include "core/doublemove/state_table.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <limits>
#include <mutex>
#include <utility>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/collaborative_call_once.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include "core/stop_request.hpp"

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
      // The partitioner hands out ranges far larger than the grain: look between partitions.
      if ((position & 255) == 0)
        throw_if_stop_requested();
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
                        // StopRequested from run() cancels the loop; the table is not made.
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

// The budget's books: bytes reserved for tables alive (or being made), and of those, the bytes of
// tables dropped from the store that a caller still holds (they come back by themselves).
struct StateTableStore::Budget {
  std::mutex mutex;
  std::condition_variable changed;  // bytes came back, or a table became droppable
  std::uint64_t limit = 0;          // 0: none
  std::uint64_t alive = 0;
  std::uint64_t dropped_alive = 0;
  std::uint64_t peak = 0;

  void give_back(std::uint64_t bytes, bool dropped) {
    {
      std::lock_guard lock(mutex);
      alive -= bytes;
      if (dropped)
        dropped_alive -= bytes;
    }
    changed.notify_all();
  }
};

// Owns one table and its reservation: the holders share the lease (through aliasing pointers to
// the table), and the last one to let go frees the table and gives its bytes back.
struct StateTableStore::Lease {
  std::shared_ptr<Budget> budget;
  std::uint64_t bytes;
  std::shared_ptr<const StateTable> table;
  bool dropped = false;  // guarded by budget->mutex

  ~Lease() {
    table.reset();  // the memory first, then the books
    bool was_dropped = false;
    {
      std::lock_guard lock(budget->mutex);
      was_dropped = dropped;
    }
    budget->give_back(bytes, was_dropped);
  }
};

struct StateTableStore::Slot {
  mutable std::mutex mutex;
  std::shared_ptr<const StateTable> table;  // an aliasing pointer into `lease`
  Lease* lease = nullptr;                   // valid while `table` is held
  // Askers of n meet here while the table is made; a fresh flag after each drop.
  std::shared_ptr<tbb::collaborative_once_flag> made =
      std::make_shared<tbb::collaborative_once_flag>();
  std::atomic<std::uint64_t> last_used{0};

  std::shared_ptr<const StateTable> load() const {
    std::lock_guard lock(mutex);
    return table;
  }
};

namespace {

// "1.74 GiB", "7.6 MiB", "900 bytes".
std::string readable_size(std::uint64_t bytes) {
  constexpr double kMiB = 1 << 20;
  constexpr double kGiB = 1 << 30;
  std::array<char, 32> text{};
  const auto size = static_cast<double>(bytes);
  if (size >= kGiB) {
    std::snprintf(text.data(), text.size(), "%.2f GiB", size / kGiB);
  } else if (size >= kMiB) {
    std::snprintf(text.data(), text.size(), "%.1f MiB", size / kMiB);
  } else {
    std::snprintf(text.data(), text.size(), "%llu bytes", static_cast<unsigned long long>(bytes));
  }
  return text.data();
}

}  // namespace

StateTableStore::StateTableStore()
    : slots_(new Slot[static_cast<std::size_t>(kMaxN) + 1]), budget_(std::make_shared<Budget>()) {}

StateTableStore::~StateTableStore() = default;

std::shared_ptr<const StateTable> StateTableStore::get(int n) {
  if (n < 1 || n > kMaxN) {
    throw std::invalid_argument("doublemove: n = " + std::to_string(n) +
                                " is above the largest supported n, " + std::to_string(kMaxN));
  }
  Slot& slot = slots_[static_cast<std::size_t>(n)];
  for (;;) {
    std::shared_ptr<tbb::collaborative_once_flag> made;
    {
      std::lock_guard lock(slot.mutex);
      if (slot.table) {
        slot.last_used.store(use_clock_.fetch_add(1) + 1, std::memory_order_relaxed);
        return slot.table;
      }
      made = slot.made;
    }
    // Other askers of the same n wait inside the call and help with the build's parallel loops.
    std::shared_ptr<const StateTable> table;
    tbb::collaborative_call_once(*made, [&] { table = make(n); });
    if (table)
      return table;
    // Made by another asker: held now, or already dropped again (then made again).
  }
}

std::shared_ptr<const StateTable> StateTableStore::held(int n) {
  if (n < 1 || n > kMaxN)
    return nullptr;
  Slot& slot = slots_[static_cast<std::size_t>(n)];
  std::lock_guard lock(slot.mutex);
  if (slot.table)
    slot.last_used.store(use_clock_.fetch_add(1) + 1, std::memory_order_relaxed);
  return slot.table;
}

std::shared_ptr<const StateTable> StateTableStore::make(int n) {
  if (auto held = slots_[static_cast<std::size_t>(n)].load())
    return held;  // adopted meanwhile
  const std::uint64_t bytes = table_bytes_for(n);
  reserve(bytes, n, true);
  std::shared_ptr<const StateTable> table;
  try {
    if (loader_) {
      table = loader_(n);
      if (table && (table->n() != n || table->value_bytes() != bytes))
        table.reset();
    }
    if (!table) {
      table = StateTable::build(n);
      builds_.fetch_add(1);
    }
  } catch (...) {
    budget_->give_back(bytes, false);
    throw;
  }
  return hold(std::move(table), bytes);
}

std::shared_ptr<const StateTable> StateTableStore::hold(std::shared_ptr<const StateTable> table,
                                                        std::uint64_t reserved) {
  const StateTable* raw = table.get();
  auto lease = std::make_shared<Lease>();
  lease->budget = budget_;
  lease->bytes = reserved;
  lease->table = std::move(table);
  Lease* lease_pointer = lease.get();
  std::shared_ptr<const StateTable> tracked(std::move(lease), raw);
  Slot& slot = slots_[static_cast<std::size_t>(raw->n())];
  {
    std::lock_guard lock(slot.mutex);
    if (slot.table)
      return slot.table;  // ours is freed, and its bytes given back, on return
    slot.table = tracked;
    slot.lease = lease_pointer;
    slot.last_used.store(use_clock_.fetch_add(1) + 1, std::memory_order_relaxed);
  }
  budget_->changed.notify_all();  // a waiting asker may drop it
  return tracked;
}

bool StateTableStore::reserve(std::uint64_t bytes, int n, bool wait) {
  std::unique_lock lock(budget_->mutex);
  for (;;) {
    Budget& budget = *budget_;
    if (budget.limit != 0 && bytes > budget.limit) {
      throw TableBudgetError("doublemove: n = " + std::to_string(n) + " needs " +
                             readable_size(bytes) + " for its state table, more than the whole " +
                             "memory budget of " + readable_size(budget.limit));
    }
    if (budget.limit == 0 || budget.alive + bytes <= budget.limit) {
      budget.alive += bytes;
      budget.peak = std::max(budget.peak, budget.alive);
      return true;
    }
    // Tables already dropped come back once their holders let go: wait for them rather than drop
    // more than needed. Otherwise drop one (outside the lock: dropping may free it here).
    const bool enough_coming_back = budget.alive - budget.dropped_alive + bytes <= budget.limit;
    if (!enough_coming_back) {
      lock.unlock();
      const bool dropped = drop_least_recently_used(n);
      lock.lock();
      if (dropped)
        continue;
    }
    if (!wait)
      return false;
    throw_if_stop_requested();
    // Bounded, so that a table stored meanwhile (now droppable) is seen even without a notice.
    budget_->changed.wait_for(lock, std::chrono::milliseconds(10));
  }
}

bool StateTableStore::drop_least_recently_used(int n) {
  for (;;) {
    int victim = 0;
    std::uint64_t oldest = std::numeric_limits<std::uint64_t>::max();
    for (int candidate = 1; candidate <= kMaxN; ++candidate) {
      if (candidate == n)
        continue;
      Slot& slot = slots_[static_cast<std::size_t>(candidate)];
      std::lock_guard lock(slot.mutex);
      const std::uint64_t used = slot.last_used.load(std::memory_order_relaxed);
      if (slot.table && used < oldest) {
        oldest = used;
        victim = candidate;
      }
    }
    if (victim == 0)
      return false;
    Slot& slot = slots_[static_cast<std::size_t>(victim)];
    std::shared_ptr<const StateTable> dropped;
    Lease* lease = nullptr;
    {
      std::lock_guard lock(slot.mutex);
      if (!slot.table)
        continue;  // dropped by another asker meanwhile: look again
      dropped = std::move(slot.table);
      slot.table.reset();
      lease = std::exchange(slot.lease, nullptr);
      slot.made = std::make_shared<tbb::collaborative_once_flag>();
    }
    {
      std::lock_guard lock(budget_->mutex);
      lease->dropped = true;
      budget_->dropped_alive += lease->bytes;
    }
    dropped.reset();      // frees it unless a caller still holds it
    drops_.fetch_add(1);  // counted once freed: drops() then says where the bytes are
    return true;
  }
}

void StateTableStore::set_loader(Loader loader) {
  loader_ = std::move(loader);
}

void StateTableStore::set_memory_budget(std::uint64_t bytes) {
  {
    std::lock_guard lock(budget_->mutex);
    budget_->limit = bytes;
  }
  budget_->changed.notify_all();
}

std::uint64_t StateTableStore::memory_budget() const {
  std::lock_guard lock(budget_->mutex);
  return budget_->limit;
}

std::uint64_t StateTableStore::bytes_alive() const {
  std::lock_guard lock(budget_->mutex);
  return budget_->alive;
}

std::uint64_t StateTableStore::peak_bytes_alive() const {
  std::lock_guard lock(budget_->mutex);
  return budget_->peak;
}

bool StateTableStore::adopt(std::shared_ptr<const StateTable> table) {
  if (!table || slots_[static_cast<std::size_t>(table->n())].load())
    return false;
  const std::uint64_t bytes = table->value_bytes();
  try {
    if (!reserve(bytes, table->n(), false))
      return false;
  } catch (const TableBudgetError&) {
    return false;
  }
  const StateTable* offered = table.get();
  return hold(std::move(table), bytes).get() == offered;
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
