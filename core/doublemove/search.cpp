#include "core/doublemove/search.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <memory>
#include <vector>

#include "core/stop_request.hpp"

namespace gamebatch::doublemove {
// Named rather than anonymous: KeptSearch (search.hpp) holds a RemainingGameSearch.
namespace search_internal {

// Open addressing over state indices (linear probing, at most half full): a memo of a few
// thousand states costs 24 to 48 bytes each, with no allocation per state.
class StateMemo {
 public:
  StateMemo() { resize(kInitialSlots); }

  // The value memoised for `key`, or nullptr. The pointer is valid until the next insert.
  const Value* find(std::uint64_t key) const {
    for (std::size_t slot = home(key);; slot = (slot + 1) & mask_) {
      if (keys_[slot] == key)
        return &values_[slot];
      if (keys_[slot] == kEmpty)
        return nullptr;
    }
  }

  // `key` must not be present yet.
  void insert(std::uint64_t key, Value value) {
    if (2 * (size_ + 1) > keys_.size())
      resize(2 * keys_.size());
    place(key, value);
    ++size_;
  }

  std::uint64_t size() const { return size_; }

 private:
  // No state index reaches it: a table of kMaxN has about 2^27 states.
  static constexpr std::uint64_t kEmpty = std::numeric_limits<std::uint64_t>::max();
  static constexpr std::size_t kInitialSlots = 256;

  // Fibonacci hashing: indices of one search are clustered, the multiply spreads them.
  std::size_t home(std::uint64_t key) const {
    return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15u) >> shift_);
  }

  void place(std::uint64_t key, Value value) {
    std::size_t slot = home(key);
    while (keys_[slot] != kEmpty)
      slot = (slot + 1) & mask_;
    keys_[slot] = key;
    values_[slot] = value;
  }

  void resize(std::size_t slots) {  // a power of two
    std::vector<std::uint64_t> old_keys(slots, kEmpty);
    std::vector<Value> old_values(slots);
    old_keys.swap(keys_);
    old_values.swap(values_);
    mask_ = slots - 1;
    shift_ = 64 - std::countr_zero(slots);
    for (std::size_t slot = 0; slot < old_keys.size(); ++slot) {
      if (old_keys[slot] != kEmpty)
        place(old_keys[slot], old_values[slot]);
    }
  }

  std::vector<std::uint64_t> keys_;
  std::vector<Value> values_;
  std::size_t mask_ = 0;
  int shift_ = 64;
  std::uint64_t size_ = 0;
};

// Polling the stop request costs a relaxed load; every 16384 moves is every millisecond or so.
constexpr std::uint64_t kMovesPerStopCheck = 16384;

// The table's recurrence (state_table.cpp) from one state down. With A(s) the pick sequences
// still alive in state s, Alice (declaring when the turn after s is odd) takes the largest value
// of a successor, Bob the smallest A(s) - A(s') + V(s'); the game-ending move (a two-cycle
// component, needs a one-cycle component) is worth 0 to Alice and A(s) to Bob.
class RemainingGameSearch {
 public:
  // Thrown out of the recursion at the move beyond max_moves.
  struct TooManyMoves {};

  RemainingGameSearch(int n, std::uint64_t max_moves) : space_(n), n_(n), max_moves_(max_moves) {}

  Value value(const SizeRuns& trees, int parts, int total, int cycles) {
    count_move();
    const std::uint64_t key =
        space_.index(n_ - parts, total, colex_rank(trees, total, parts), cycles);
    if (const Value* known = memo_.find(key))
      return *known;
    const Value result = evaluate(trees, parts, total, cycles);
    memo_.insert(key, result);
    return result;
  }

  // The same for the state a search starts from, checked: throws std::invalid_argument when it is
  // not a state of n.
  Value start(const SizeRuns& trees, int cycles) {
    count_move();
    const std::uint64_t key = space_.index_of(trees, cycles);
    const Value result = evaluate(trees, trees.parts(), trees.total(), cycles);
    memo_.insert(key, result);
    return result;
  }

  // The value of a state of the search's game, from the memo when it is there (after start(),
  // every state reachable from the start is); else searched from it with no limit on moves.
  // Throws std::invalid_argument when it is not a state of n.
  Value kept_value(const SizeRuns& trees, int cycles) {
    const std::uint64_t key = space_.index_of(trees, cycles);
    if (const Value* known = memo_.find(key))
      return *known;
    max_moves_ = std::numeric_limits<std::uint64_t>::max();
    const Value result = evaluate(trees, trees.parts(), trees.total(), cycles);
    memo_.insert(key, result);
    return result;
  }

  std::uint64_t states() const { return memo_.size(); }
  std::uint64_t moves() const { return moves_; }

 private:
  // Every look-up of a state's value, memoised or not, is a move: the unit of the search's work.
  void count_move() {
    if (++moves_ > max_moves_)
      throw TooManyMoves{};
    if (moves_ % kMovesPerStopCheck == 0)
      throw_if_stop_requested();
  }

  Value evaluate(const SizeRuns& trees, int parts, int total, int cycles) {
    const int turn = n_ - parts;
    const bool bob_declares = (turn + 1) % 2 == 0;
    Value product = 1;
    for (int run = 0; run < trees.runs; ++run) {
      for (int tree = 0; tree < trees.count[static_cast<std::size_t>(run)]; ++tree)
        product *= static_cast<Value>(trees.size[static_cast<std::size_t>(run)]);
    }
    const Value alive = product << (cycles + n_ + 1 - turn);
    Value best = bob_declares ? (cycles >= 1 ? alive : std::numeric_limits<Value>::max()) : 0;
    // A successor with trees multiplying to `next_product` and `next_cycles` one-cycle components.
    auto consider = [&](const SizeRuns& next, int next_total, int next_cycles, Value next_product) {
      const Value next_value = value(next, parts - 1, next_total, next_cycles);
      if (bob_declares) {
        const Value next_alive = next_product << (next_cycles + n_ - turn);
        best = std::min(best, alive - next_alive + next_value);
      } else {
        best = std::max(best, next_value);
      }
    };
    // Join two trees (sizes s <= t): one tree of s + t.
    for (int first = 0; first < trees.runs; ++first) {
      for (int second = first; second < trees.runs; ++second) {
        if (first == second && trees.count[static_cast<std::size_t>(first)] < 2)
          continue;
        const int s = trees.size[static_cast<std::size_t>(first)];
        const int t = trees.size[static_cast<std::size_t>(second)];
        consider(with_move(trees, first, second, s + t), total, cycles,
                 product / static_cast<Value>(s * t) * static_cast<Value>(s + t));
      }
    }
    for (int run = 0; run < trees.runs; ++run) {
      const int s = trees.size[static_cast<std::size_t>(run)];
      const SizeRuns rest = with_move(trees, run, -1, 0);
      const Value rest_product = product / static_cast<Value>(s);
      // Close the tree into a one-cycle component.
      consider(rest, total - s, cycles + 1, rest_product);
      // Hang the tree on a one-cycle component.
      if (cycles >= 1)
        consider(rest, total - s, cycles, rest_product);
    }
    return best;
  }

  StateSpace space_;
  int n_;
  std::uint64_t max_moves_;
  StateMemo memo_;
  std::uint64_t moves_ = 0;
};

}  // namespace search_internal

namespace {

// stirling[a][b]: the partitions of a labelled set of a elements into b blocks (a, b <= 128),
// as doubles (they pass 2^64 early and 10^150 at the largest).
using StirlingTable = std::array<std::array<double, 129>, 129>;

const StirlingTable& stirling_table() {
  static const StirlingTable table = [] {
    StirlingTable stirling{};
    stirling[0][0] = 1;
    for (std::size_t a = 1; a < stirling.size(); ++a) {
      for (std::size_t b = 1; b <= a; ++b)
        stirling[a][b] = static_cast<double>(b) * stirling[a - 1][b] + stirling[a - 1][b - 1];
    }
    return stirling;
  }();
  return table;
}

}  // namespace

// States with j trees left: each comes from grouping some of the m trees into j groups and
// removing the others (closed into a cycle or hung on one), which bounds them twice over:
//  - the groupings themselves: S(m + 1, j + 1) (the removed trees form the extra block), counting
//    every labelling of equal sizes apart, so loose when many trees have the same size;
//  - the multisets of j sizes, each at least the smallest tree's, holding at most the trees'
//    vertices: loose when the sizes are distinct, exact for trees of one vertex.
// Each of the m - j trees gone raised the one-cycle components by one or by none, so c takes
// at most m - j + 1 values there, and never more than the table's range for that total.
double reachable_states_at_most(int n, const SizeRuns& trees, double enough) {
  const int parts = trees.parts();
  const int total = trees.total();
  const int smallest = trees.runs > 0 ? trees.size[0] : 1;
  const StirlingTable& stirling = stirling_table();
  double bound = 0;
  for (int left = parts; left >= 0 && bound <= enough; --left) {
    const int cycle_values = parts - left + 1;
    const double by_grouping =
        stirling[static_cast<std::size_t>(parts) + 1][static_cast<std::size_t>(left) + 1] *
        cycle_values;
    double by_sizes = 0;
    for (int held = left * smallest; held <= total && by_sizes < by_grouping; ++held) {
      const int table_range = held == n ? 1 : n - held;
      by_sizes += static_cast<double>(partitions_into_exactly(held - left * (smallest - 1), left)) *
                  std::min(cycle_values, table_range);
    }
    bound += std::min(by_grouping, by_sizes);
  }
  return bound;
}

// The states reached when the trees of one size, r of them, are grouped among themselves or
// removed, and the trees of every other size are kept or removed. They are told apart as long as
// no group of the first size is as large as a tree of another size: groups of q trees only where
// q times the size is none of the other sizes. So for each g <= r grouped that way (counted by the
// partitions of g into allowed q), times every choice of how many trees of each other size stay,
// times the r - g + 1 counts of one-cycle components that removing r - g trees leaves open (each
// closed into a cycle or hung on one; r - g when there is no cycle yet, the first one removed
// must be closed). The best of the sizes is the bound.
double reachable_states_at_least(const SizeRuns& trees, int one_cycle_components, double enough) {
  double best = 0;
  for (int chosen = 0; chosen < trees.runs && best <= enough; ++chosen) {
    const int size = trees.size[static_cast<std::size_t>(chosen)];
    const int count = trees.count[static_cast<std::size_t>(chosen)];
    double others_kept = 1;
    for (int run = 0; run < trees.runs; ++run) {
      if (run != chosen)
        others_kept *= trees.count[static_cast<std::size_t>(run)] + 1;
    }
    // groupings[g]: partitions of g into group sizes q that clash with no other size.
    std::vector<double> groupings(static_cast<std::size_t>(count) + 1, 0);
    groupings[0] = 1;
    for (int q = 1; q <= count; ++q) {
      bool clashes = false;
      for (int run = 0; run < trees.runs; ++run)
        clashes =
            clashes || (run != chosen && trees.size[static_cast<std::size_t>(run)] == q * size);
      if (clashes)
        continue;
      for (int g = q; g <= count; ++g)
        groupings[static_cast<std::size_t>(g)] += groupings[static_cast<std::size_t>(g - q)];
    }
    double states = 0;
    for (int grouped = 0; grouped <= count; ++grouped) {
      const int removed = count - grouped;
      const int cycle_values = one_cycle_components >= 1 || removed == 0 ? removed + 1 : removed;
      states += groupings[static_cast<std::size_t>(grouped)] * cycle_values;
    }
    best = std::max(best, states * others_kept);
  }
  return best;
}

KeptSearch::KeptSearch(int n, std::uint64_t max_moves)
    : search_(std::make_unique<search_internal::RemainingGameSearch>(n, max_moves)) {}

KeptSearch::~KeptSearch() = default;

std::optional<SearchResult> KeptSearch::start(const SizeRuns& trees, int one_cycle_components) {
  SearchResult result;
  try {
    result.remaining_value = search_->start(trees, one_cycle_components);
  } catch (const search_internal::RemainingGameSearch::TooManyMoves&) {
    return std::nullopt;
  }
  result.states = search_->states();
  result.moves = search_->moves();
  return result;
}

Value KeptSearch::remaining_value(const SizeRuns& trees, int one_cycle_components) {
  return search_->kept_value(trees, one_cycle_components);
}

std::optional<SearchResult> search_remaining_value(int n, const SizeRuns& trees,
                                                   int one_cycle_components,
                                                   std::uint64_t max_moves) {
  return KeptSearch(n, max_moves).start(trees, one_cycle_components);
}

}  // namespace gamebatch::doublemove
