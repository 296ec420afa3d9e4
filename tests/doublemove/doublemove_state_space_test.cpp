// doublemove state ranking: colex rank/unrank/next agree with each other and with plain
// enumeration, the state index is a bijection onto 0..count-1, counts match the editorial.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "core/doublemove/state_space.hpp"

namespace gamebatch::doublemove {
namespace {

// Every partition of `total` into exactly `parts` parts, ascending parts, in lexicographic
// order of those ascending sequences (plain recursion, no tables).
std::vector<std::vector<int>> partitions_lexicographic(int total, int parts) {
  std::vector<std::vector<int>> all;
  std::vector<int> current;
  std::function<void(int, int)> extend = [&](int left, int smallest) {
    const int still = parts - static_cast<int>(current.size());
    if (still == 0) {
      if (left == 0)
        all.push_back(current);
      return;
    }
    for (int value = smallest; value * still <= left; ++value) {
      current.push_back(value);
      extend(left - value, value);
      current.pop_back();
    }
  };
  extend(total, 1);
  return all;
}

TEST(DoublemoveStateSpace, ColexRankUnrankAndNextFollowPlainEnumeration) {
  int checked = 0;
  for (int total = 0; total <= 24; ++total) {
    for (int parts = (total == 0 ? 0 : 1); parts <= total; ++parts) {
      const auto expected = partitions_lexicographic(total, parts);
      ASSERT_EQ(partitions_into_exactly(total, parts), expected.size());
      std::vector<int> stepped(static_cast<std::size_t>(parts));
      if (parts > 0)
        colex_unrank(0, total, parts, stepped.data());
      for (std::size_t rank = 0; rank < expected.size(); ++rank) {
        std::vector<int> unranked(static_cast<std::size_t>(parts));
        colex_unrank(rank, total, parts, unranked.data());
        ASSERT_EQ(unranked, expected[rank]) << "total " << total << " parts " << parts;
        ASSERT_EQ(stepped, expected[rank]) << "total " << total << " parts " << parts;
        ASSERT_EQ(colex_rank(SizeRuns::of(expected[rank]), total, parts), rank);
        const bool has_next = colex_next(stepped.data(), parts);
        ASSERT_EQ(has_next, rank + 1 < expected.size());
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 1 + 1 + 2 + 3 + 5 + 7 + 11 + 15 + 22 + 30 + 42 + 56 + 77 + 101 + 135 + 176 +
                         231 + 297 + 385 + 490 + 627 + 792 + 1002 + 1255 + 1575);  // p(0..24)
}

TEST(DoublemoveStateSpace, SizeRunsCountEqualSizesOnce) {
  const SizeRuns runs = SizeRuns::of({3, 1, 3, 7});
  EXPECT_EQ(runs.runs, 3);
  EXPECT_EQ(runs.parts(), 4);
  EXPECT_EQ(runs.total(), 14);
  EXPECT_EQ(runs.size[0], 1);
  EXPECT_EQ(runs.count[0], 1);
  EXPECT_EQ(runs.size[1], 3);
  EXPECT_EQ(runs.count[1], 2);
  EXPECT_EQ(runs.size[2], 7);
  const int ascending[] = {1, 3, 3, 7};
  const SizeRuns same = SizeRuns::of_ascending(ascending, 4);
  EXPECT_EQ(same.runs, runs.runs);
  EXPECT_EQ(same.size, runs.size);
  EXPECT_EQ(same.count, runs.count);
  EXPECT_THROW(SizeRuns::of({0, 2}), std::invalid_argument);
}

// Every state of n by plain enumeration: (ascending tree sizes, one-cycle components).
std::vector<std::pair<std::vector<int>, int>> all_states(int n) {
  std::vector<std::pair<std::vector<int>, int>> states;
  for (int total = 0; total <= n; ++total) {
    for (int parts = (total == 0 ? 0 : 1); parts <= total; ++parts) {
      for (const auto& trees : partitions_lexicographic(total, parts)) {
        if (total == n) {
          states.emplace_back(trees, 0);
        } else {
          for (int cycles = 1; cycles <= n - total; ++cycles)
            states.emplace_back(trees, cycles);
        }
      }
    }
  }
  return states;
}

TEST(DoublemoveStateSpace, IndexIsABijectionOntoTheStateCount) {
  for (int n = 1; n <= 16; ++n) {
    const StateSpace space(n);
    const auto states = all_states(n);
    ASSERT_EQ(space.state_count(), states.size()) << "n = " << n;
    std::vector<bool> seen(states.size(), false);
    for (const auto& [trees, cycles] : states) {
      const std::uint64_t index = space.index_of(SizeRuns::of(trees), cycles);
      ASSERT_LT(index, states.size());
      ASSERT_FALSE(seen[index]) << "n = " << n << ": index " << index << " twice";
      seen[index] = true;
      // The turn is implied: turn t has n - t trees and its states form one block.
      const int turn = n - static_cast<int>(trees.size());
      ASSERT_GE(index, space.turn_begin(turn));
      ASSERT_LT(index, space.turn_begin(turn + 1));
    }
  }
}

TEST(DoublemoveStateSpace, StateCountsMatchTheEditorial) {
  for (int n = 1; n <= kMaxN; ++n)
    ASSERT_EQ(StateSpace(n).state_count(), state_count_for(n)) << "n = " << n;
  // The editorial's formula sum_{i=0..n} p(i) (n - i + 1) counts, besides ours, c = 0 for every
  // i < n, which no game reaches (vertices outside trees lie on cycles): 418,662 for n = 35. The
  // 403,779 it quotes is that sum without its i = n term, p(35) = 14,883.
  std::uint64_t unreachable = 0;
  for (int i = 0; i < 35; ++i) {
    for (int parts = 0; parts <= i; ++parts)
      unreachable += partitions_into_exactly(i, parts);
  }
  std::uint64_t p35 = 0;
  for (int parts = 1; parts <= 35; ++parts)
    p35 += partitions_into_exactly(35, parts);
  EXPECT_EQ(state_count_for(35), 352'389u);
  EXPECT_EQ(state_count_for(35) + unreachable, 418'662u);
  EXPECT_EQ(state_count_for(35) + unreachable - p35, 403'779u);
}

TEST(DoublemoveStateSpace, IndexOfRejectsWhatIsNotAState) {
  const StateSpace space(6);
  EXPECT_THROW(space.index_of(SizeRuns::of({4, 3}), 0), std::invalid_argument);  // 7 > n
  EXPECT_THROW(space.index_of(SizeRuns::of({3}), 0), std::invalid_argument);  // 3 vertices uncycled
  EXPECT_THROW(space.index_of(SizeRuns::of({3}), 4),
               std::invalid_argument);  // 4 cycles, 3 vertices
  EXPECT_THROW(space.index_of(SizeRuns::of({3, 3}), 1), std::invalid_argument);  // no room for one
  EXPECT_NO_THROW(space.index_of(SizeRuns::of({3}), 3));
  EXPECT_NO_THROW(space.index_of(SizeRuns::of({}), 6));
  EXPECT_THROW(StateSpace(0), std::invalid_argument);
  EXPECT_THROW(StateSpace(kMaxN + 1), std::invalid_argument);
}

}  // namespace
}  // namespace gamebatch::doublemove
