// The minimax states of doublemove on n values, ranked into dense integers.
//
// A state is the multiset of tree-component sizes plus the number c of one-cycle components (a
// two-cycle component ends every pick sequence, so it needs no state). Every declaration that
// does not end the game removes one tree, so after t declarations there are n - t trees: the
// turn is implied by the state. With i vertices in trees, c runs over 1..n-i (each one-cycle
// component holds a vertex), or is 0 when i = n.
//
// Layout of a table of n: turn 0 first, turn n last; within a turn, the tree-vertex total i
// ascending; within one total, the partitions of i into exactly n - t parts in colex order (the
// ascending part sequence compared lexicographically); within a partition, c ascending. All
// partitions of one total have the same c range, so an index is a closed-form sum and needs no
// per-partition offsets, and a colex rank costs one table look-up per distinct size.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/doublemove/doublemove.hpp"

namespace gamebatch::doublemove {

// 1 + 2 + ... + 16 > 127 >= kMaxN: no partition of n <= kMaxN has more distinct sizes.
inline constexpr int kMaxDistinctSizes = 16;
static_assert(kMaxN <= 127, "the ranking tables and SizeRuns are sized for n <= 127");

// A multiset of tree sizes in run-length form, sizes strictly ascending: `count[k]` trees of
// size `size[k]`.
struct SizeRuns {
  std::array<int, kMaxDistinctSizes> size{};
  std::array<int, kMaxDistinctSizes> count{};
  int runs = 0;

  int parts() const;
  int total() const;
  // Builds the runs of `sizes` (any order; every size >= 1). Throws std::invalid_argument when
  // they have more distinct sizes than a state of n <= kMaxN can have.
  static SizeRuns of(const std::vector<int>& sizes);
  // The runs of an ascending sequence of `parts` sizes.
  static SizeRuns of_ascending(const int* ascending, int parts);
};

// `trees` less one tree of run `first`, less one of run `second` (-1: none; the same run twice
// takes two trees of it), plus one tree of size `added` (0: none): the trees after a move. The
// result is a partition of at most n <= kMaxN vertices, so its distinct sizes fit SizeRuns.
// Inline: the search's inner loop (search.cpp) makes one per move.
inline SizeRuns with_move(const SizeRuns& trees, int first, int second, int added) {
  SizeRuns next;
  bool placed = added == 0;
  auto append = [&next](int size, int count) {
    next.size[static_cast<std::size_t>(next.runs)] = size;
    next.count[static_cast<std::size_t>(next.runs++)] = count;
  };
  for (int run = 0; run < trees.runs; ++run) {
    const int size = trees.size[static_cast<std::size_t>(run)];
    int count = trees.count[static_cast<std::size_t>(run)] - (run == first) - (run == second);
    if (!placed && added <= size) {
      placed = true;
      if (added == size)
        ++count;
      else
        append(added, 1);
    }
    if (count > 0)
      append(size, count);
  }
  if (!placed)
    append(added, 1);
  return next;
}

// Partitions of `total` into exactly `parts` positive parts (0 <= total, parts <= 127).
std::uint64_t partitions_into_exactly(int total, int parts);

// Position of `trees` (a partition of `total` into exactly `parts` parts) in the colex order of
// all such partitions: the ascending part sequences compared lexicographically.
std::uint64_t colex_rank(const SizeRuns& trees, int total, int parts);
// The same for runs given as arrays: sizes[0..runs) strictly ascending with their counts.
std::uint64_t colex_rank(const int* sizes, const int* counts, int runs, int total, int parts);

// The partition of that rank, written ascending into ascending[0..parts).
void colex_unrank(std::uint64_t rank, int total, int parts, int* ascending);

// Steps ascending[0..parts) to the next partition of the same total in colex order; false when
// it was the last one (the array is then unchanged).
bool colex_next(int* ascending, int parts);

class StateSpace {
 public:
  // 1 <= n <= kMaxN; throws std::invalid_argument otherwise.
  explicit StateSpace(int n);

  int n() const { return n_; }
  std::uint64_t state_count() const { return turn_begin_.back(); }

  // Turns run 0..n (turn t has n - t trees).
  std::uint64_t turn_begin(int turn) const { return turn_begin_[static_cast<std::size_t>(turn)]; }
  std::uint64_t turn_state_count(int turn) const { return turn_begin(turn + 1) - turn_begin(turn); }
  // Partitions (of any total m..n) into m = n - turn parts.
  std::uint64_t partitions_in_turn(int turn) const { return partition_begin(turn, n_ + 1); }
  // Partitions of turn `turn` whose total is below `total`.
  std::uint64_t partition_begin(int turn, int total) const;

  // The c range of states whose trees hold `total` vertices.
  int lowest_cycles(int total) const { return total == n_ ? 0 : 1; }
  int cycle_choices(int total) const { return total == n_ ? 1 : n_ - total; }

  // Index of the state (turn, total, colex rank of the trees, c); arguments must be in range.
  std::uint64_t index(int turn, int total, std::uint64_t rank, int cycles) const {
    return turn_begin(turn) + total_begin_[slot(turn, total)] +
           rank * static_cast<std::uint64_t>(cycle_choices(total)) +
           static_cast<std::uint64_t>(cycles - lowest_cycles(total));
  }

  // Index of the state with these trees and c one-cycle components. Throws std::invalid_argument
  // when that is not a state of the game on n values.
  std::uint64_t index_of(const SizeRuns& trees, int one_cycle_components) const;

 private:
  std::size_t slot(int turn, int total) const {
    return static_cast<std::size_t>(turn) * static_cast<std::size_t>(n_ + 2) +
           static_cast<std::size_t>(total);
  }

  int n_;
  std::vector<std::uint64_t> turn_begin_;       // n + 2 entries; the last is the state count
  std::vector<std::uint64_t> total_begin_;      // states of the turn with a smaller total
  std::vector<std::uint64_t> partition_begin_;  // partitions of the turn with a smaller total
};

}  // namespace gamebatch::doublemove
