// The offline precomputation of doublemove: for one n, the minimax value of every state reachable
// from the empty graph, and a thread-safe store that builds each n's table at most once.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/state_space.hpp"

namespace gamebatch::doublemove {

// Thrown by StateTable::decode for bytes that are not a sound encoded table.
class TableDecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The value of every state of n: the number of pick sequences Alice wins from that state on (the
// turns still to come only), under optimal play. Immutable once built; shared read-only.
class StateTable {
 public:
  // Bumped whenever the encoding or the values could change: older cached tables are discarded.
  static constexpr std::uint32_t kVersion = 1;

  // Builds the table of n (1 <= n <= kMaxN) from the last turn back to turn 0, each turn one
  // parallel loop over its states on the current oneTBB arena (isolated, so a waiting thread
  // never picks up unrelated work). The values do not depend on the schedule.
  static std::shared_ptr<const StateTable> build(int n);

  // How values are held: 64-bit (only n <= kLargestNarrowN) or 128-bit. build(n) picks the
  // narrowest; the other choice exists so that tests can run the 128-bit code on small n.
  enum class Storage { narrow, wide };
  static Storage storage_for(int n) {
    return n <= kLargestNarrowN ? Storage::narrow : Storage::wide;
  }
  static std::shared_ptr<const StateTable> build(int n, Storage storage);

  // The table as bytes (layout beside the code in state_table.cpp), and back. decode validates
  // everything it can without recomputing the minimax (magic, version, n, state count, value
  // width (8 only where n allows it, or 16), length, checksum, value bounds, the fully determined
  // last turn) and throws
  // TableDecodeError on anything else; it allocates only after the length has been checked.
  std::string encode() const;
  static std::shared_ptr<const StateTable> decode(std::string_view bytes);

  // The table's name among the game's cached artefacts: "states n=<n>".
  static std::string name_for(int n) { return "states n=" + std::to_string(n); }
  std::string name() const { return name_for(n()); }

  int n() const { return space_.n(); }
  const StateSpace& space() const { return space_; }
  std::uint64_t state_count() const { return space_.state_count(); }
  Storage storage() const { return narrow_ ? Storage::narrow : Storage::wide; }
  // Bytes held by the values (8 per state for narrow storage, 16 for wide).
  std::uint64_t value_bytes() const;

  Value value_at(std::uint64_t index) const {
    return narrow_ ? Value{narrow_[index]} : wide_[index];
  }
  // The value still to be won from the state with these trees and one-cycle components. Throws
  // std::invalid_argument when that is not a state of n.
  Value remaining_value(const SizeRuns& trees, int one_cycle_components) const {
    return value_at(space_.index_of(trees, one_cycle_components));
  }
  // The answer for k = 0: n trees of one vertex, no cycles.
  Value initial_value() const { return value_at(0); }

  friend bool operator==(const StateTable& left, const StateTable& right);

 private:
  StateTable(int n, Storage storage);

  StateSpace space_;
  std::unique_ptr<std::uint64_t[]> narrow_;  // n <= kLargestNarrowN
  std::unique_ptr<Value[]> wide_;            // otherwise
};

// Thrown by StateTableStore::get for an n whose table alone is larger than the memory budget.
class TableBudgetError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Tables by n, each built at most once at a time however many threads ask at the same moment:
// the first asker builds (in parallel), the others join that build's work and then share the
// result. Thread-safe.
//
// Under a memory budget, the bytes of table values alive at once (tables held here, tables being
// built or read, and tables dropped from here that a caller still holds) stay within it: before a
// table is made, the least recently used tables are dropped, and when dropping is not enough the
// asker waits for callers to let go of theirs (solve holds a table for one look-up). A dropped
// table is made again (loaded or built) when next asked for.
class StateTableStore {
 public:
  StateTableStore();
  ~StateTableStore();
  StateTableStore(const StateTableStore&) = delete;
  StateTableStore& operator=(const StateTableStore&) = delete;

  // The table of n (1 <= n <= kMaxN, else std::invalid_argument), built on first use. Throws
  // TableBudgetError when the table of n alone exceeds the memory budget.
  std::shared_ptr<const StateTable> get(int n);
  // The table of n when the store holds it now (counted as a use, like get), else nullptr; never
  // builds or loads one.
  std::shared_ptr<const StateTable> held(int n);
  // Offers a table from elsewhere (the answer cache). Returns false, keeping the held one, when
  // the store already holds a table of that n, or when the table does not fit the budget even
  // after dropping every other table not in use.
  bool adopt(std::shared_ptr<const StateTable> table);
  // The tables held, n ascending.
  std::vector<std::shared_ptr<const StateTable>> tables() const;
  // Where get(n) looks for a table before building it (the answer cache): a loader returns the
  // table of n or nullptr. Called once each time n's table is to be made, by the first asker. A
  // loaded table whose size is not that of a built one is discarded (the budget reserved the
  // built size). Set it while no table is being asked for.
  using Loader = std::function<std::shared_ptr<const StateTable>(int n)>;
  void set_loader(Loader loader);

  // The most bytes of table values alive at once; 0 (the default): no limit. A lower budget
  // takes effect when the next table is made.
  void set_memory_budget(std::uint64_t bytes);
  std::uint64_t memory_budget() const;
  // Bytes of table values alive now, and the most alive at once since the store was made.
  std::uint64_t bytes_alive() const;
  std::uint64_t peak_bytes_alive() const;
  // How many tables this store has built (not adopted or loaded), and dropped for the budget.
  std::uint64_t builds() const { return builds_.load(); }
  std::uint64_t drops() const { return drops_.load(); }

 private:
  struct Slot;
  struct Budget;
  struct Lease;
  // Counts `bytes` as alive, first dropping tables (never n's) or waiting as the budget needs;
  // wait = false gives up (returns false) instead of waiting.
  bool reserve(std::uint64_t bytes, int n, bool wait);
  // Drops the least recently used table held (not n's); false when none is held.
  bool drop_least_recently_used(int n);
  // Loads or builds n's table into its slot (reserving its bytes first); returns it.
  std::shared_ptr<const StateTable> make(int n);
  // `table` wrapped so that its bytes, reserved already, are given back when the last holder
  // lets go; stored in n's slot unless one is held there (then the reservation is given back).
  std::shared_ptr<const StateTable> hold(std::shared_ptr<const StateTable> table,
                                         std::uint64_t reserved);

  std::unique_ptr<Slot[]> slots_;   // index n = 1..kMaxN
  std::shared_ptr<Budget> budget_;  // shared with the leases, which may outlive the store
  Loader loader_;
  std::atomic<std::uint64_t> use_clock_{0};
  std::atomic<std::uint64_t> builds_{0};
  std::atomic<std::uint64_t> drops_{0};
};

// The store solve(instance) uses.
StateTableStore& default_store();

}  // namespace gamebatch::doublemove
