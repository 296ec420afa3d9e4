#include "core/doublemove/state_space.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gamebatch::doublemove {
namespace {

constexpr int kTableSize = 128;  // totals and part counts 0..127

// exact[total][parts]: partitions of total into exactly `parts` parts. stride_sum[parts][x]: the
// sum of exact[x - (parts + 1) * j][parts] over j >= 0, so that a run of consecutive candidate
// values in colex_rank costs two look-ups instead of a loop.
struct PartitionTables {
  std::array<std::array<std::uint64_t, kTableSize>, kTableSize> exact{};
  std::array<std::array<std::uint64_t, kTableSize>, kTableSize> stride_sum{};

  PartitionTables() {
    exact[0][0] = 1;
    for (int total = 1; total < kTableSize; ++total) {
      for (int parts = 1; parts <= total; ++parts) {
        // Either a part equals 1 (drop it), or all parts exceed 1 (take 1 from each).
        exact[total][parts] = exact[total - 1][parts - 1] + exact[total - parts][parts];
      }
    }
    for (int parts = 0; parts < kTableSize; ++parts) {
      for (int x = 0; x < kTableSize; ++x) {
        stride_sum[parts][x] =
            exact[x][parts] + (x >= parts + 1 ? stride_sum[parts][x - parts - 1] : 0);
      }
    }
  }
};

const PartitionTables& tables() {
  static const PartitionTables instance;
  return instance;
}

std::uint64_t exact_or_zero(int total, int parts) {
  if (total < 0 || total >= kTableSize || parts < 0 || parts >= kTableSize)
    return 0;
  return tables().exact[static_cast<std::size_t>(total)][static_cast<std::size_t>(parts)];
}

std::uint64_t stride_sum_or_zero(int parts, int x) {
  if (x < 0)
    return 0;
  return tables().stride_sum[static_cast<std::size_t>(parts)][static_cast<std::size_t>(x)];
}

}  // namespace

int SizeRuns::parts() const {
  int parts = 0;
  for (int run = 0; run < runs; ++run)
    parts += count[static_cast<std::size_t>(run)];
  return parts;
}

int SizeRuns::total() const {
  int total = 0;
  for (int run = 0; run < runs; ++run) {
    total += size[static_cast<std::size_t>(run)] * count[static_cast<std::size_t>(run)];
  }
  return total;
}

SizeRuns SizeRuns::of(const std::vector<int>& sizes) {
  std::vector<int> ascending = sizes;
  std::sort(ascending.begin(), ascending.end());
  if (!ascending.empty() && ascending.front() < 1)
    throw std::invalid_argument("doublemove: a tree size below 1");
  SizeRuns result;
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    if (i == 0 || ascending[i] != ascending[i - 1]) {
      if (result.runs == kMaxDistinctSizes)
        throw std::invalid_argument("doublemove: more distinct tree sizes than n allows");
      result.size[static_cast<std::size_t>(result.runs++)] = ascending[i];
    }
    ++result.count[static_cast<std::size_t>(result.runs - 1)];
  }
  return result;
}

SizeRuns SizeRuns::of_ascending(const int* ascending, int parts) {
  SizeRuns result;
  for (int i = 0; i < parts; ++i) {
    if (i == 0 || ascending[i] != ascending[i - 1])
      result.size[static_cast<std::size_t>(result.runs++)] = ascending[i];
    ++result.count[static_cast<std::size_t>(result.runs - 1)];
  }
  return result;
}

std::uint64_t partitions_into_exactly(int total, int parts) {
  if (total >= kTableSize || parts >= kTableSize)
    throw std::invalid_argument("doublemove: partition tables stop at 127");
  return exact_or_zero(total, parts);
}

// Sequences below ours differ first at the start of some run, where they hold a value w from the
// previous run's size up to ours minus one, followed by `after` parts that are all >= w and sum
// to what is left. Subtracting w - 1 from each of those parts makes them a partition of
// left - w - after * (w - 1) into exactly `after` parts; summed over w that is a stride sum.
std::uint64_t colex_rank(const int* sizes, const int* counts, int runs, int total, int parts) {
  std::uint64_t rank = 0;
  int left = total;  // sum of this run and everything after it
  int from = parts;  // parts from this run on
  int previous = 1;
  for (int run = 0; run < runs; ++run) {
    const int value = sizes[run];
    const int after = from - 1;
    const int base = left + after;
    rank += stride_sum_or_zero(after, base - (after + 1) * previous) -
            stride_sum_or_zero(after, base - (after + 1) * value);
    left -= value * counts[run];
    from -= counts[run];
    previous = value;
  }
  return rank;
}

std::uint64_t colex_rank(const SizeRuns& trees, int total, int parts) {
  return colex_rank(trees.size.data(), trees.count.data(), trees.runs, total, parts);
}

void colex_unrank(std::uint64_t rank, int total, int parts, int* ascending) {
  int left = total;
  int previous = 1;
  for (int position = 0; position + 1 < parts; ++position) {
    const int after = parts - 1 - position;
    int value = previous;
    while (value <= left) {
      const std::uint64_t with_value = exact_or_zero(left - value - after * (value - 1), after);
      if (rank < with_value)
        break;
      rank -= with_value;
      ++value;
    }
    ascending[position] = value;
    left -= value;
    previous = value;
  }
  if (parts > 0)
    ascending[parts - 1] = left;
}

bool colex_next(int* ascending, int parts) {
  if (parts < 2)
    return false;
  int suffix = ascending[parts - 1];
  for (int position = parts - 2; position >= 0; --position) {
    suffix += ascending[position];
    const int raised = ascending[position] + 1;
    const int after = parts - 1 - position;
    // The raised value, then the smallest tail: equal values and the rest in the last part.
    if (suffix - raised >= after * raised) {
      for (int k = position; k < parts - 1; ++k)
        ascending[k] = raised;
      ascending[parts - 1] = suffix - raised * after;
      return true;
    }
  }
  return false;
}

StateSpace::StateSpace(int n) : n_(n) {
  if (n < 1 || n > kMaxN) {
    throw std::invalid_argument("doublemove: n = " + std::to_string(n) + " is outside 1.." +
                                std::to_string(kMaxN));
  }
  const auto slots = static_cast<std::size_t>(n + 1) * static_cast<std::size_t>(n + 2);
  total_begin_.assign(slots, 0);
  partition_begin_.assign(slots, 0);
  turn_begin_.assign(static_cast<std::size_t>(n) + 2, 0);
  for (int turn = 0; turn <= n; ++turn) {
    const int trees = n - turn;
    std::uint64_t states = 0;
    std::uint64_t partitions = 0;
    for (int total = 0; total <= n + 1; ++total) {
      total_begin_[slot(turn, total)] = states;
      partition_begin_[slot(turn, total)] = partitions;
      if (total <= n) {
        const std::uint64_t count = exact_or_zero(total, trees);
        partitions += count;
        states += count * static_cast<std::uint64_t>(cycle_choices(total));
      }
    }
    turn_begin_[static_cast<std::size_t>(turn) + 1] =
        turn_begin_[static_cast<std::size_t>(turn)] + states;
  }
}

std::uint64_t StateSpace::partition_begin(int turn, int total) const {
  return partition_begin_[slot(turn, total)];
}

std::uint64_t StateSpace::index_of(const SizeRuns& trees, int one_cycle_components) const {
  for (int run = 0; run < trees.runs; ++run) {
    const auto at = static_cast<std::size_t>(run);
    if (trees.size[at] < 1 || trees.count[at] < 1 ||
        (run > 0 && trees.size[at - 1] >= trees.size[at]))
      throw std::invalid_argument("doublemove: tree sizes are not in run form");
  }
  const int parts = trees.parts();
  const int total = trees.total();
  if (parts > n_ || total > n_) {
    throw std::invalid_argument("doublemove: trees of " + std::to_string(total) +
                                " vertices do not fit n = " + std::to_string(n_));
  }
  const int low = lowest_cycles(total);
  if (one_cycle_components < low || one_cycle_components >= low + cycle_choices(total)) {
    throw std::invalid_argument("doublemove: " + std::to_string(one_cycle_components) +
                                " one-cycle components cannot hold the " +
                                std::to_string(n_ - total) + " vertices outside trees");
  }
  const int turn = n_ - parts;
  return index(turn, total, colex_rank(trees, total, parts), one_cycle_components);
}

}  // namespace gamebatch::doublemove
