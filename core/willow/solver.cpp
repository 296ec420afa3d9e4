// The fast willow solver.
//
// Model. While the two players can still reach each other, each one only ever steps towards the
// other or leaves the path between them for good; once one leaves, both simply take their best
// remaining path. So a game state is a tree path  p - i ... j - q : the player to move stands on
// i having arrived from p, the other stands on j having arrived from q (p or q is kNone while that
// player still stands on her start). Its value R depends only on that path, there are O(N^2)
// such paths, and each is evaluated in O(1) from the state one step further in (the same path
// without p, the other player to move) plus a few running maxima along the path.
//
// Arrivals. A directed road "came to j from q" is an arrival; a state whose players both arrived
// over roads is the pair (mover's arrival, other's arrival). The states one step further out of
// (m, o) are (e, m) for every arrival e at o's tail except the one coming back from o's head: the
// other player is to move and had come to o's tail over e. So one table row per arrival holds all
// a step needs (the coins of its two ends, the richest branches at its tail that avoid its head,
// the range of arrivals at its tail), and a state costs two row reads, not a scan of neighbours.
// The outer states of one state differ only in which branch the mover may no longer take, which
// matters for at most the two richest.
//
// Order of evaluation. Every state has exactly one inner state, so the states form a forest whose
// roots are the meetings (i == j) and whose leaves are the start pairs (a, b). We walk that forest
// outwards, depth first, from every root. A state needs only its inner state's record, so a
// depth-first walk keeps O(N) records alive, and any pending record is a self-contained unit of
// work that can be handed to another thread: O(N^2) time, O(N) memory per thread, no recursion,
// no N x N tables. Each state (m, o) is one step from exactly one start pair (m's tail, o's tail),
// whose value is folded at once into A's running minimum over B's starts; min and max do not
// depend on the order, so the answer does not depend on the schedule. Large cases run one walk
// per thread (tbb::parallel_for_each): each takes groups of meetings from a shared counter as it
// runs short of states, and hands the older half of its pending states to an idle thread through
// the loop's feeder, so one huge case keeps every core busy to its end.
//
// Arithmetic is 32-bit when the total of all coins allows it (every official case), else 64-bit:
// half the bytes per table row and per pending state. With 32-bit values on a CPU with AVX2 (chosen
// at run time), the walk advances the top eight pending states together, one per vector lane:
// their rows are loaded whole and transposed into one vector per field, the same formulas run
// branch-free, and each lane's outer states are packed onto the stack (kept one array per
// field). While fewer than eight states are pending, the walk starts more meetings, so a narrow
// forest (a path's, where every state has one outer state) still fills the lanes. Cities are
// renumbered in depth-first preorder first, so that the rows a walk reads lie near each other.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for_each.h>
#include <oneapi/tbb/task_arena.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "core/stop_request.hpp"
#include "core/willow/arrival_table.hpp"
#include "core/willow/pruned.hpp"
#include "core/willow/willow.hpp"

namespace gamebatch::willow {
namespace {

using detail::ArrivalId;
using detail::ArrivalRow;
using detail::ArrivalTable;
using detail::City;
using detail::kNoBranch;
using detail::kNone;

// A state  (mover's arrival, other's arrival)  whose outer states are still to be walked, with
// the numbers they need.
template <typename Value>
struct PendingState {
  ArrivalId mover;  // the mover came to mover.head from mover.tail
  ArrivalId other;  // the other player came to other.head from other.tail
  Value value;      // R: the mover's coins minus the other's, from here on
  Value interior;   // coins strictly between the two players
  // For the states one step further out, where the other player moves next from other.tail and
  // the mover stands still, walking towards her:
  Value walker_before;   // best the walker gets branching off before reaching other.tail
  Value walker_through;  // best walk that starts just before the other's city, takes its coins,
                         // and branches off anywhere up to and including the mover's city (for
                         // two steps out)
};

// The pending states of a walk, one array per field, so that eight neighbouring states are eight
// consecutive values of each field for the AVX2 walk.
template <typename Value>
class PendingStack {
 public:
  // Room for `count` more states above `top`, and a vector's width of scratch beyond them (the
  // AVX2 walk stores whole vectors).
  void make_room(std::size_t top, std::size_t count) {
    if (top + count + kScratch > mover_.size())
      grow(std::max(2 * mover_.size(), top + count + kScratch));
  }

  ArrivalId* mover() { return mover_.data(); }
  ArrivalId* other() { return other_.data(); }
  Value* value() { return value_.data(); }
  Value* interior() { return interior_.data(); }
  Value* walker_before() { return walker_before_.data(); }
  Value* walker_through() { return walker_through_.data(); }

  PendingState<Value> get(std::size_t i) const {
    return {mover_[i], other_[i], value_[i], interior_[i], walker_before_[i], walker_through_[i]};
  }
  void set(std::size_t i, const PendingState<Value>& state) {
    mover_[i] = state.mover;
    other_[i] = state.other;
    value_[i] = state.value;
    interior_[i] = state.interior;
    walker_before_[i] = state.walker_before;
    walker_through_[i] = state.walker_through;
  }
  // Drops the states below `from`, moving [from, top) down to 0.
  void drop_below(std::size_t from, std::size_t top) {
    for (std::size_t i = from; i < top; ++i)
      set(i - from, get(i));
  }

 private:
  static constexpr std::size_t kScratch = 8;

  [[gnu::noinline]] void grow(std::size_t size) {
    mover_.resize(size);
    other_.resize(size);
    value_.resize(size);
    interior_.resize(size);
    walker_before_.resize(size);
    walker_through_.resize(size);
  }

  std::vector<ArrivalId> mover_, other_;
  std::vector<Value> value_, interior_, walker_before_, walker_through_;
};

// A pending piece of the walk: already evaluated states whose outer states are still to be walked
// (none for the pieces a walk starts with).
template <typename Value>
struct WorkItem {
  std::vector<PendingState<Value>> evaluated;
};

// The groups of meetings (see ForestWalker::expand_meetings) not yet started, handed out one at
// a time to whichever walk needs more states: a walk never runs short of states until the very
// end, however unequal the groups are.
class MeetingGroups {
 public:
  explicit MeetingGroups(std::int32_t count) : count_(count) {}
  // The next group, or kNone when all are taken.
  std::int32_t take() {
    const std::int32_t group = next_.fetch_add(1, std::memory_order_relaxed);
    return group < count_ ? group : kNone;
  }

 private:
  std::atomic<std::int32_t> next_{0};
  std::int32_t count_;
};

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WILLOW_HAS_AVX2_COPY 1

bool cpu_has_avx2() {
  static const bool has_avx2 = __builtin_cpu_supports("avx2") != 0;
  return has_avx2;
}

// For each 8-bit mask, the lanes whose bit is set, in order, one byte each: a permutation that
// packs the chosen lanes of a vector to its front.
constexpr std::array<std::uint64_t, 256> make_pack_table() {
  std::array<std::uint64_t, 256> table{};
  for (std::uint32_t mask = 0; mask < 256; ++mask) {
    std::uint64_t lanes = 0;
    int packed = 0;
    for (std::uint64_t lane = 0; lane < 8; ++lane) {
      if ((mask >> lane) & 1U)
        lanes |= lane << (8 * packed++);
    }
    table[mask] = lanes;
  }
  return table;
}
constexpr std::array<std::uint64_t, 256> kPackTable = make_pack_table();

[[gnu::target("avx2")]] std::size_t expand_eight_avx2(const ArrivalRow<std::int32_t>* rows,
                                                      std::int32_t* best_by_arrival,
                                                      PendingStack<std::int32_t>& pending,
                                                      std::size_t top);
#else
#define WILLOW_HAS_AVX2_COPY 0
#endif

// Walks the forest of states outwards depth first from the pieces it is given, folding every start
// pair (a, b) into best_by_arrival()[x] = min over B's starts b of A's value for starting on a,
// where x is the arrival at the first city of A's way to b from a.
template <typename Value>
class ForestWalker {
 public:
  ForestWalker(const ArrivalTable<Value>& table, MeetingGroups& groups, bool use_avx2)
      : table_(&table),
        groups_(&groups),
        rows_(table.rows()),
        use_avx2_(use_avx2),
        best_by_arrival_(static_cast<std::size_t>(table.arrival_count()),
                         std::numeric_limits<Value>::max()) {}

  const std::vector<Value>& best_by_arrival() const { return best_by_arrival_; }

  // Evaluates `item` and everything further out of it, and the meeting groups it takes while
  // short of states, until both are done. Now and then asks `sharing.wants_work()`
  // and, if so, hands the older half of its pending states to `sharing.take(...)`: those are the
  // roots of the largest unwalked subtrees, and each is a self-contained piece of work. Throws
  // StopRequested when a stop is requested.
  template <typename Sharing>
  void walk(WorkItem<Value>& item, Sharing& sharing) {
    std::size_t top = item.evaluated.size();
    pending_.make_room(0, top);
    for (std::size_t i = 0; i < top; ++i)
      pending_.set(i, item.evaluated[i]);
    item.evaluated = {};
    std::int32_t group = 0;
    // The AVX2 walk advances the top eight states together: while fewer are pending, more
    // meetings are started, so that a narrow forest (a path's) still fills the lanes.
    const std::size_t wanted = use_avx2_ ? 8 : 1;
    std::size_t until_check = kCheckEvery;
    for (;;) {
      while (top < wanted && group != kNone) {
        group = groups_->take();
        if (group != kNone)
          top = expand_meetings(group, top);
      }
      if (top == 0)
        break;
      if (use_avx2_ && top >= 8) {
        top = expand_eight(top);
      } else {
        --top;
        top = expand<false>(pending_.get(top), top);
      }
      if (--until_check == 0) {
        until_check = kCheckEvery;
        throw_if_stop_requested();
        if (top >= 2 && sharing.wants_work()) {
          const std::size_t half = top / 2;
          std::vector<PendingState<Value>> shared(half);
          for (std::size_t i = 0; i < half; ++i)
            shared[i] = pending_.get(i);
          sharing.take(std::move(shared));
          pending_.drop_below(half, top);
          top -= half;
        }
      }
    }
  }

 private:
  static constexpr std::size_t kCheckEvery = 4096;  // steps of 1 or 8 states, some microseconds

  std::size_t expand_eight(std::size_t top) {
#if WILLOW_HAS_AVX2_COPY
    if constexpr (std::is_same_v<Value, std::int32_t>) {
      return expand_eight_avx2(rows_, best_by_arrival_.data(), pending_, top);
    }
#endif
    return top;  // not reached: use_avx2_ is only set for 32-bit values on x86-64
  }

  // Group g < arrival count: the meetings on g's head whose mover arrived over g; group
  // arrival count + c: those on city c whose mover stood there from the start. Each has one
  // meeting per arrival of the other player. Evaluates them and expands them above `top`, or
  // folds the start pair straight away where that is all that lies further out. Returns the new
  // top.
  std::size_t expand_meetings(std::int32_t group, std::size_t top) {
    const std::int32_t arrival_count = table_->arrival_count();
    const ArrivalId mover_arrival = group < arrival_count ? group : kNone;
    const City city = group < arrival_count ? table_->head(mover_arrival) : group - arrival_count;
    for (ArrivalId other = table_->arrivals_begin(city); other < table_->arrivals_end(city);
         ++other) {
      if (other == mover_arrival)
        continue;
      // The mover takes the richest branch at the city that neither player came from, the other
      // the next one.
      const ArrivalRow<Value>& away = rows_[rows_[other].reverse];  // branches at `city`
      const bool lost_best = mover_arrival == away.best_arrival;
      const bool lost_one = lost_best || mover_arrival == away.second_arrival;
      const Value first = lost_best ? away.second : away.best;
      const Value second = lost_one ? away.third : away.second;
      const PendingState<Value> meeting{mover_arrival,
                                        other,
                                        static_cast<Value>(first - second),
                                        0,
                                        first,
                                        static_cast<Value>(away.tail_coins + first)};
      if (mover_arrival == kNone) {
        // The mover stands on her start: the only state further out is the start pair where the
        // other player starts on other's tail and steps onto the city first.
        const ArrivalRow<Value>& start = rows_[other];
        const Value value = std::max<Value>(
            -meeting.value,
            start.best_or_none - std::max<Value>(meeting.walker_before, start.second));
        Value& best = best_by_arrival_[other];
        best = std::min<Value>(best, start.tail_coins - start.head_coins + value);
      } else {
        top = expand<true>(meeting, top);
      }
    }
    return top;
  }

  // Pushes every state one step further out of `inner` (the other player is to move from
  // inner.other's tail, having come there over any arrival but the one from inner.other's head)
  // above `top`, and folds the start pair one step further out of the state where she stood on
  // her start instead. Returns the new top. kMeeting: both players of `inner` stand on one city.
  template <bool kMeeting>
  [[gnu::always_inline]] std::size_t expand(const PendingState<Value> inner, std::size_t top) {
    // Read once into locals: the stores of outer states could alias the rows otherwise.
    const ArrivalRow<Value>& other = rows_[inner.other];
    const ArrivalRow<Value>& mover = rows_[inner.mover];
    const Value other_head_coins = other.head_coins;
    const Value other_tail_coins = other.tail_coins;
    const Value best = other.best;
    const Value second = other.second;
    const Value third = other.third;
    const Value best_or_none = other.best_or_none;
    const Value second_or_none = other.second_or_none;
    const ArrivalId best_arrival = other.best_arrival;
    const ArrivalId second_arrival = other.second_arrival;
    const ArrivalId earlier_begin = other.earlier_begin;
    const ArrivalId earlier_end = other.earlier_end;
    const ArrivalId reverse = other.reverse;
    const Value mover_head_coins = mover.head_coins;

    // The other player steps towards the mover: into other's head, whose coins are hers unless
    // the mover stands there; or she leaves the path by a branch, and the walker (the mover of
    // inner) comes on and branches off before her or where she stood.
    const Value step_coins = kMeeting ? 0 : other_head_coins;
    const Value interior = kMeeting ? 0 : inner.interior + other_head_coins;
    const Value stepped = step_coins - inner.value;
    const Value walker_through_base = interior + other_tail_coins;

    // She stood on her start other.tail (no branch lost); one step further out is the start pair
    // with A on mover.tail, who steps towards her first.
    const Value b_value = std::max<Value>(
        stepped, best_or_none - std::max<Value>(inner.walker_before, interior + second));
    const Value b_walker_before = std::max<Value>(best, inner.walker_through);
    const Value a_value = std::max<Value>(
        mover_head_coins - b_value,
        mover.best_or_none -
            std::max<Value>(b_walker_before, interior + mover_head_coins + mover.second));
    Value& best_for_a = best_by_arrival_[inner.mover];
    best_for_a = std::min<Value>(best_for_a, mover.tail_coins - other_tail_coins + a_value);

    // Every arrival at her city but the one coming back from where the mover is.
    const ArrivalId before_reverse = reverse - earlier_begin;
    const ArrivalId outer_count = earlier_end - earlier_begin - 1;
    pending_.make_room(top, static_cast<std::size_t>(outer_count));
    ArrivalId* const outer_mover = pending_.mover() + top;
    ArrivalId* const outer_other = pending_.other() + top;
    Value* const outer_value = pending_.value() + top;
    Value* const outer_interior = pending_.interior() + top;
    Value* const outer_walker_before = pending_.walker_before() + top;
    Value* const outer_walker_through = pending_.walker_through() + top;
    for (ArrivalId k = 0; k < outer_count; ++k) {
      const ArrivalId earlier = earlier_begin + k + (k >= before_reverse);
      const bool lost_best = earlier == best_arrival;
      const bool lost_one = lost_best | (earlier == second_arrival);
      const Value leave = lost_best ? second : best;
      const Value leave_or_none = lost_best ? second_or_none : best_or_none;
      const Value next_free = lost_one ? third : second;
      outer_mover[k] = earlier;
      outer_other[k] = inner.mover;
      outer_value[k] = std::max<Value>(
          stepped, leave_or_none - std::max<Value>(inner.walker_before, interior + next_free));
      outer_interior[k] = interior;
      outer_walker_before[k] = std::max<Value>(leave, inner.walker_through);
      outer_walker_through[k] =
          mover_head_coins + std::max<Value>(inner.walker_before, walker_through_base + leave);
    }
    return top + static_cast<std::size_t>(outer_count);
  }

  const ArrivalTable<Value>* table_;
  MeetingGroups* groups_;
  const ArrivalRow<Value>* rows_;
  bool use_avx2_;
  std::vector<Value> best_by_arrival_;
  PendingStack<Value> pending_;
};

#if WILLOW_HAS_AVX2_COPY
// Eight 32-bit lanes: the operations of the scalar walk, by name.
[[gnu::target("avx2"), gnu::always_inline]] inline __m256i load_lanes(const std::int32_t* at) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at));
}
[[gnu::target("avx2"), gnu::always_inline]] inline __m256i add(__m256i a, __m256i b) {
  return _mm256_add_epi32(a, b);
}
[[gnu::target("avx2"), gnu::always_inline]] inline __m256i sub(__m256i a, __m256i b) {
  return _mm256_sub_epi32(a, b);
}
[[gnu::target("avx2"), gnu::always_inline]] inline __m256i max(__m256i a, __m256i b) {
  return _mm256_max_epi32(a, b);
}
// Stores the lanes that `pack` picks (see kPackTable) at `at`, and garbage after them.
[[gnu::target("avx2"), gnu::always_inline]] inline void store_packed(std::int32_t* at,
                                                                     __m256i lanes, __m256i pack) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(at), _mm256_permutevar8x32_epi32(lanes, pack));
}

// Words [first, first + 8) of the rows of eight arrivals, one vector per word.
struct Words {
  __m256i word[8];
};
[[gnu::target("avx2"), gnu::always_inline]] inline Words transpose_rows(
    const ArrivalRow<std::int32_t>* rows, const std::int32_t* arrivals, std::size_t first) {
  __m256i r[8];
  for (int lane = 0; lane < 8; ++lane) {
    r[lane] = load_lanes(reinterpret_cast<const std::int32_t*>(rows + arrivals[lane]) + first);
  }
  __m256i pairs[8];  // lanes 2i, 2i + 1 interleaved: words 0, 1, 4, 5 (lo) or 2, 3, 6, 7 (hi)
  for (int i = 0; i < 4; ++i) {
    pairs[2 * i] = _mm256_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
    pairs[2 * i + 1] = _mm256_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
  }
  __m256i quads[8];  // lanes 0-3 (0..3) or 4-7 (4..7) of words k and k + 4
  for (int half = 0; half < 2; ++half) {
    const __m256i* p = pairs + 4 * half;
    quads[4 * half + 0] = _mm256_unpacklo_epi64(p[0], p[2]);
    quads[4 * half + 1] = _mm256_unpackhi_epi64(p[0], p[2]);
    quads[4 * half + 2] = _mm256_unpacklo_epi64(p[1], p[3]);
    quads[4 * half + 3] = _mm256_unpackhi_epi64(p[1], p[3]);
  }
  Words words;
  for (int k = 0; k < 4; ++k) {
    words.word[k] = _mm256_permute2x128_si256(quads[k], quads[4 + k], 0x20);
    words.word[k + 4] = _mm256_permute2x128_si256(quads[k], quads[4 + k], 0x31);
  }
  return words;
}

// The field at byte kOffset of a row, from its words 0..7 or 8..15.
template <std::size_t kOffset>
[[gnu::target("avx2"), gnu::always_inline]] inline __m256i field_at(const Words& low,
                                                                    const Words& high) {
  if constexpr (kOffset / 4 < 8)
    return low.word[kOffset / 4];
  else
    return high.word[kOffset / 4 - 8];
}

// Eight pending states, one per 32-bit lane, with what ForestWalker::expand reads of their rows
// and computes before the loop over outer states.
struct EightStates {
  __m256i mover, interior, stepped, walker_before, walker_through, walker_through_base;
  __m256i best, second, third, best_or_none, second_or_none, best_arrival, second_arrival;
  __m256i earlier_begin, before_reverse, outer_count, mover_head_coins;
};

// Pops the eight states at [top, top + 8), evaluates them as ForestWalker::expand does and folds
// their start pairs.
[[gnu::target("avx2"), gnu::always_inline]] inline EightStates evaluate_eight(
    const ArrivalRow<std::int32_t>* rows, std::int32_t* best_by_arrival,
    PendingStack<std::int32_t>& pending, std::size_t top) {
  using Row = ArrivalRow<std::int32_t>;
  static_assert(sizeof(Row) == 64);
  EightStates eight;
  eight.mover = load_lanes(pending.mover() + top);
  const __m256i value = load_lanes(pending.value() + top);
  const __m256i inner_interior = load_lanes(pending.interior() + top);
  eight.walker_before = load_lanes(pending.walker_before() + top);
  eight.walker_through = load_lanes(pending.walker_through() + top);

  // The rows' fields, one vector per field: each lane's row loaded whole and the eight rows
  // transposed, which costs a third of gathering the fields one by one.
  const std::int32_t* const other_at = pending.other() + top;
  const std::int32_t* const mover_at = pending.mover() + top;
  const Words other_low = transpose_rows(rows, other_at, 0);
  const Words other_high = transpose_rows(rows, other_at, 8);
  const Words mover_low = transpose_rows(rows, mover_at, 0);
#define WILLOW_FIELD(words, name) field_at<offsetof(Row, name)>(words##_low, other_high)
  const __m256i other_head_coins = WILLOW_FIELD(other, head_coins);
  const __m256i other_tail_coins = WILLOW_FIELD(other, tail_coins);
  eight.best = WILLOW_FIELD(other, best);
  eight.second = WILLOW_FIELD(other, second);
  eight.third = WILLOW_FIELD(other, third);
  eight.best_or_none = WILLOW_FIELD(other, best_or_none);
  eight.second_or_none = WILLOW_FIELD(other, second_or_none);
  eight.best_arrival = WILLOW_FIELD(other, best_arrival);
  eight.second_arrival = WILLOW_FIELD(other, second_arrival);
  eight.earlier_begin = WILLOW_FIELD(other, earlier_begin);
  const __m256i earlier_end = WILLOW_FIELD(other, earlier_end);
  const __m256i reverse = WILLOW_FIELD(other, reverse);
  eight.mover_head_coins = WILLOW_FIELD(mover, head_coins);
  const __m256i mover_tail_coins = WILLOW_FIELD(mover, tail_coins);
  const __m256i mover_best_or_none = WILLOW_FIELD(mover, best_or_none);
  const __m256i mover_second = WILLOW_FIELD(mover, second);
#undef WILLOW_FIELD

  eight.interior = add(inner_interior, other_head_coins);
  eight.stepped = sub(other_head_coins, value);
  eight.walker_through_base = add(eight.interior, other_tail_coins);
  const __m256i b_value =
      max(eight.stepped,
          sub(eight.best_or_none, max(eight.walker_before, add(eight.interior, eight.second))));
  const __m256i b_walker_before = max(eight.best, eight.walker_through);
  const __m256i a_value = max(
      sub(eight.mover_head_coins, b_value),
      sub(mover_best_or_none,
          max(b_walker_before, add(add(eight.interior, eight.mover_head_coins), mover_second))));
  // Two lanes may fold into the same entry: one lane at a time. (Gathering the running minima
  // to store only where one improves, which is rare, makes fewer instructions but measured
  // slower: the branch waits for the gather.)
  alignas(32) std::int32_t fold_at[8];
  alignas(32) std::int32_t fold_values[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(fold_at), eight.mover);
  _mm256_store_si256(reinterpret_cast<__m256i*>(fold_values),
                     add(sub(mover_tail_coins, other_tail_coins), a_value));
  for (int lane = 0; lane < 8; ++lane) {
    std::int32_t& best_for_a = best_by_arrival[fold_at[lane]];
    best_for_a = std::min(best_for_a, fold_values[lane]);
  }
  eight.outer_count = sub(sub(earlier_end, eight.earlier_begin), _mm256_set1_epi32(1));
  eight.before_reverse = sub(reverse, eight.earlier_begin);
  return eight;
}

// Pushes the round-th outer state of each of the eight states that has one onto the stack at
// `top`; returns the new top.
[[gnu::target("avx2"), gnu::always_inline]] inline std::size_t push_outer_round(
    const EightStates& eight, std::int32_t round, PendingStack<std::int32_t>& pending,
    std::size_t top) {
  const __m256i k = _mm256_set1_epi32(round);
  const __m256i active = _mm256_cmpgt_epi32(eight.outer_count, k);
  // earlier_begin + k + (k >= before_reverse): k + 1, less one (a true compare's -1) below it.
  const __m256i earlier = add(add(eight.earlier_begin, _mm256_set1_epi32(round + 1)),
                              _mm256_cmpgt_epi32(eight.before_reverse, k));
  const __m256i lost_best = _mm256_cmpeq_epi32(earlier, eight.best_arrival);
  const __m256i lost_one =
      _mm256_or_si256(lost_best, _mm256_cmpeq_epi32(earlier, eight.second_arrival));
  const __m256i leave = _mm256_blendv_epi8(eight.best, eight.second, lost_best);
  const __m256i leave_or_none =
      _mm256_blendv_epi8(eight.best_or_none, eight.second_or_none, lost_best);
  const __m256i next_free = _mm256_blendv_epi8(eight.second, eight.third, lost_one);
  const auto mask = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(active)));
  const __m256i pack =
      _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(kPackTable[mask])));
  store_packed(pending.mover() + top, earlier, pack);
  store_packed(pending.other() + top, eight.mover, pack);
  store_packed(pending.value() + top,
               max(eight.stepped,
                   sub(leave_or_none, max(eight.walker_before, add(eight.interior, next_free)))),
               pack);
  store_packed(pending.interior() + top, eight.interior, pack);
  store_packed(pending.walker_before() + top, max(leave, eight.walker_through), pack);
  store_packed(
      pending.walker_through() + top,
      add(eight.mover_head_coins, max(eight.walker_before, add(eight.walker_through_base, leave))),
      pack);
  return top + static_cast<std::size_t>(__builtin_popcount(mask));
}

// ForestWalker::expand for the top eight pending states at once, one per lane: the same formulas,
// the outer states packed onto the stack per round of arrivals (round r: every lane's r-th outer
// state, if it has one). (Two or four vectors of states per step measured no faster.)
[[gnu::target("avx2")]] std::size_t expand_eight_avx2(const ArrivalRow<std::int32_t>* rows,
                                                      std::int32_t* best_by_arrival,
                                                      PendingStack<std::int32_t>& pending,
                                                      std::size_t top) {
  top -= 8;
  const EightStates eight = evaluate_eight(rows, best_by_arrival, pending, top);
  // The most outer states of any lane: the rounds to run.
  __m256i most = eight.outer_count;
  most = max(most, _mm256_permute2x128_si256(most, most, 1));
  most = max(most, _mm256_shuffle_epi32(most, 0x4e));
  most = max(most, _mm256_shuffle_epi32(most, 0xb1));
  const std::int32_t rounds = _mm256_cvtsi256_si32(most);
  pending.make_room(top, 8 * static_cast<std::size_t>(std::max(rounds, 0)));
  for (std::int32_t round = 0; round < rounds; ++round)
    top = push_outer_round(eight, round, pending, top);
  return top;
}
#endif

// The value by the forest walk.
template <typename Value>
Coins walk(const ArrivalTable<Value>& table, const SolverOptions& options, bool use_avx2) {
  const std::int32_t n = table.city_count();
  const std::int32_t group_count = table.arrival_count() + n;

  MeetingGroups groups(group_count);
  std::vector<Value> best_by_arrival;
  if (n < options.parallel_from_cities) {
    struct NoSharing {
      bool wants_work() const { return false; }
      void take(std::vector<PendingState<Value>>&&) {}
    } no_sharing;
    ForestWalker<Value> walker(table, groups, use_avx2);
    WorkItem<Value> start;
    walker.walk(start, no_sharing);
    best_by_arrival = walker.best_by_arrival();
  } else {
    const int threads = tbb::this_task_arena::max_concurrency();
    // One walk per thread to start with; they take the groups as they need them.
    std::vector<WorkItem<Value>> starts(static_cast<std::size_t>(threads));
    tbb::enumerable_thread_specific<ForestWalker<Value>> walkers(
        [&table, &groups, use_avx2] { return ForestWalker<Value>(table, groups, use_avx2); });
    // Pieces handed out but not yet started. Sharing only while few are queued keeps the memory
    // at O(N) per thread however unbalanced the forest is.
    std::atomic<int> queued{0};
    const int enough_queued = 2 * threads;
    struct FeederSharing {
      tbb::feeder<WorkItem<Value>>& feeder;
      std::atomic<int>& queued;
      int enough;
      bool wants_work() const { return queued.load(std::memory_order_relaxed) < enough; }
      void take(std::vector<PendingState<Value>>&& states) {
        queued.fetch_add(1, std::memory_order_relaxed);
        feeder.add(WorkItem<Value>{std::move(states)});
      }
    };
    // Isolated so that a thread of this loop never runs another case's work in the middle of a
    // walk and so never re-enters its own walker.
    tbb::this_task_arena::isolate([&] {
      tbb::parallel_for_each(starts.begin(), starts.end(),
                             [&](WorkItem<Value>& item, tbb::feeder<WorkItem<Value>>& feeder) {
                               if (!item.evaluated.empty())
                                 queued.fetch_sub(1, std::memory_order_relaxed);
                               FeederSharing sharing{feeder, queued, enough_queued};
                               walkers.local().walk(item, sharing);
                             });
    });
    best_by_arrival.assign(static_cast<std::size_t>(table.arrival_count()),
                           std::numeric_limits<Value>::max());
    for (const ForestWalker<Value>& walker : walkers) {
      for (std::size_t k = 0; k < best_by_arrival.size(); ++k)
        best_by_arrival[k] = std::min(best_by_arrival[k], walker.best_by_arrival()[k]);
    }
  }

  Coins answer = std::numeric_limits<Coins>::min();
  for (City a = 0; a < n; ++a) {
    Value best_against_a = table.same_start_value(a);
    // A's first steps out of a are the reverses of the arrivals at a.
    for (ArrivalId in = table.arrivals_begin(a); in < table.arrivals_end(a); ++in)
      best_against_a = std::min(best_against_a, best_by_arrival[table.rows()[in].reverse]);
    answer = std::max<Coins>(answer, best_against_a);
  }
  return answer;
}

// The pruned search's budget: about what the walk would cost. The walk evaluates about 3 states
// per start pair, and one chain step of the pruned search (a city of a start pair's path: two
// dependent loads and a dozen operations) costs about as much as 5 walk states (measured on paths
// and random trees of N = 20,000 to 30,000, both on 2 threads: 7 to 13 ns per chain step, 1.5 to
// 3 ns per walk state with AVX2).
constexpr double kWalkStatesPerStartPair = 3.0;
constexpr double kWalkStatesPerChainStep = 5.0;

// `original`: each city's input label, the tie order of SolverOptions::find_optimal_starts.
template <typename Value>
SolveReport solve_table(const Instance& instance, const std::vector<City>& original,
                        const SolverOptions& options, bool use_avx2) {
  const ArrivalTable<Value> table(instance);
  SolveReport report;
  if (options.allow_pruned) {
    const auto n = static_cast<double>(table.city_count());
    const double walk_states = kWalkStatesPerStartPair * n * n;
    detail::PrunedLimits limits;
    limits.budget_chain_steps = static_cast<std::int64_t>(
        std::min(options.pruned_budget_scale * walk_states / kWalkStatesPerChainStep, 0x1p62));
    limits.parallel_from_cities = options.parallel_from_cities;
    if (options.find_optimal_starts)
      limits.tie_order = original.data();
    if (detail::pruned_search(table, limits, report)) {
      if (options.find_optimal_starts) {
        report.a_start = original[static_cast<std::size_t>(report.a_start)];
        report.b_start = original[static_cast<std::size_t>(report.b_start)];
      }
      return report;
    }
  }
  report.walked = true;
  report.value = walk(table, options, use_avx2);
  return report;
}

}  // namespace

SolveReport solve_with_report(const Instance& original, const SolverOptions& options) {
  std::vector<City> original_label;
  const Instance instance = detail::in_preorder(original, &original_label);
  if (options.allow_32_bit && detail::fits_32_bits(instance)) {
#if WILLOW_HAS_AVX2_COPY
    const bool use_avx2 = options.allow_avx2 && cpu_has_avx2();
#else
    const bool use_avx2 = false;
#endif
    return solve_table<std::int32_t>(instance, original_label, options, use_avx2);
  }
  return solve_table<Coins>(instance, original_label, options, false);
}

Coins solve(const Instance& instance, const SolverOptions& options) {
  return solve_with_report(instance, options).value;
}

}  // namespace gamebatch::willow
