// The arrival table and the renumbering the willow solvers share (see arrival_table.hpp).
#include "core/willow/arrival_table.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace gamebatch::willow::detail {

namespace {

// Roots the tree at city 0: each city's parent (kNone for the root), and the cities in
// breadth-first order, so that children follow parents.
template <typename Value>
void root_at_city_zero(const ArrivalTable<Value>& table, const std::vector<City>& tails,
                       std::vector<City>& parent, std::vector<City>& order) {
  const std::size_t n = static_cast<std::size_t>(table.city_count());
  parent.assign(n, kNone);
  order.clear();
  order.reserve(n);
  order.push_back(0);
  parent[0] = 0;
  for (std::size_t head = 0; head < order.size(); ++head) {
    const City v = order[head];
    for (ArrivalId in = table.arrivals_begin(v); in < table.arrivals_end(v); ++in) {
      if (parent[tails[in]] == kNone) {
        parent[tails[in]] = v;
        order.push_back(tails[in]);
      }
    }
  }
  parent[0] = kNone;
}

}  // namespace

template <typename Value>
ArrivalTable<Value>::ArrivalTable(const Instance& instance) {
  const std::int32_t n = instance.city_count();
  arrivals_begin_.assign(static_cast<std::size_t>(n) + 1, 0);
  for (const auto& [u, v] : instance.roads) {
    ++arrivals_begin_[u + 1];
    ++arrivals_begin_[v + 1];
  }
  std::partial_sum(arrivals_begin_.begin(), arrivals_begin_.end(), arrivals_begin_.begin());
  const ArrivalId arrival_total = arrivals_begin_[n];
  tails_.resize(static_cast<std::size_t>(arrival_total));
  std::vector<City>& tails = tails_;
  heads_.resize(static_cast<std::size_t>(arrival_total));
  std::vector<ArrivalId> reverse(static_cast<std::size_t>(arrival_total));
  {
    std::vector<ArrivalId> next(arrivals_begin_.begin(), arrivals_begin_.end() - 1);
    for (const auto& [u, v] : instance.roads) {
      const ArrivalId into_v = next[v]++;
      const ArrivalId into_u = next[u]++;
      tails[into_v] = u;
      tails[into_u] = v;
      heads_[into_v] = v;
      heads_[into_u] = u;
      reverse[into_v] = into_u;
      reverse[into_u] = into_v;
    }
  }

  std::vector<City> parent, order;
  root_at_city_zero(*this, tails, parent, order);

  // branch[in] for the arrival in = (u -> v): the richest walk that starts on u and never enters
  // v. down[v] (v's own subtree) bottom-up, then the branches towards the root top-down.
  std::vector<Coins> branch(static_cast<std::size_t>(arrival_total), 0);
  std::vector<Coins> down(static_cast<std::size_t>(n), 0);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const City v = *it;
    Coins best_child = 0;
    for (ArrivalId in = arrivals_begin(v); in < arrivals_end(v); ++in) {
      if (tails[in] != parent[v]) {
        branch[in] = down[tails[in]];
        best_child = std::max(best_child, branch[in]);
      }
    }
    down[v] = instance.coins[v] + best_child;
  }
  // The richest four arrivals' branches of each city, richest first (kNone past the degree).
  std::vector<std::array<ArrivalId, 4>> richest(static_cast<std::size_t>(n));
  for (const City v : order) {
    std::array<ArrivalId, 4>& top = richest[v];
    top.fill(kNone);
    for (ArrivalId in = arrivals_begin(v); in < arrivals_end(v); ++in) {
      for (std::size_t k = 0; k < top.size(); ++k) {
        if (top[k] == kNone || branch[in] > branch[top[k]]) {
          std::copy_backward(top.begin() + static_cast<std::ptrdiff_t>(k), top.end() - 1,
                             top.end());
          top[k] = in;
          break;
        }
      }
    }
    // The branch from v into a child w's direction is known now; w's branch towards v is v's
    // coins plus v's richest branch other than w's.
    for (ArrivalId in = arrivals_begin(v); in < arrivals_end(v); ++in) {
      const City w = tails[in];
      if (w == parent[v])
        continue;
      const ArrivalId richest_other = top[0] == in ? top[1] : top[0];
      branch[reverse[in]] =
          instance.coins[v] + (richest_other == kNone ? 0 : branch[richest_other]);
    }
  }

  same_start_values_.resize(static_cast<std::size_t>(n));
  for (City v = 0; v < n; ++v) {
    const auto coins_of = [&](ArrivalId in) { return in == kNone ? Coins{0} : branch[in]; };
    same_start_values_[v] =
        static_cast<Value>(instance.coins[v] + coins_of(richest[v][0]) - coins_of(richest[v][1]));
  }

  rows_.resize(static_cast<std::size_t>(arrival_total));
  for (ArrivalId arrival = 0; arrival < arrival_total; ++arrival) {
    const City tail = tails[arrival];
    const ArrivalId back = reverse[arrival];  // the arrival at the tail from the head
    ArrivalId kept[3] = {kNone, kNone, kNone};
    std::size_t kept_count = 0;
    for (const ArrivalId in : richest[tail]) {
      if (in != kNone && in != back && kept_count < 3)
        kept[kept_count++] = in;
    }
    const auto coins_of = [&](ArrivalId in) {
      return in == kNone ? Value{0} : static_cast<Value>(branch[in]);
    };
    ArrivalRow<Value>& row = rows_[arrival];
    row.tail_coins = static_cast<Value>(instance.coins[tail]);
    row.head_coins = static_cast<Value>(instance.coins[tails[back]]);
    row.best = coins_of(kept[0]);
    row.second = coins_of(kept[1]);
    row.third = coins_of(kept[2]);
    row.best_or_none = kept[0] == kNone ? kNoBranch<Value> : row.best;
    row.second_or_none = kept[1] == kNone ? kNoBranch<Value> : row.second;
    row.best_arrival = kept[0];
    row.second_arrival = kept[1];
    row.earlier_begin = arrivals_begin(tail);
    row.earlier_end = arrivals_end(tail);
    row.reverse = back;
  }
}

template class ArrivalTable<std::int32_t>;
template class ArrivalTable<Coins>;

bool fits_32_bits(const Instance& instance) {
  Coins total = 0;
  for (const Coins coins : instance.coins) {
    total += coins;
    if (total >= (Coins{1} << 30))
      return false;
  }
  return true;
}

Instance in_preorder(const Instance& instance, std::vector<City>* original) {
  const std::int32_t n = instance.city_count();
  std::vector<std::int32_t> neighbours_begin(static_cast<std::size_t>(n) + 1, 0);
  for (const auto& [u, v] : instance.roads) {
    ++neighbours_begin[u + 1];
    ++neighbours_begin[v + 1];
  }
  std::partial_sum(neighbours_begin.begin(), neighbours_begin.end(), neighbours_begin.begin());
  std::vector<City> neighbours(static_cast<std::size_t>(neighbours_begin[n]));
  {
    std::vector<std::int32_t> next(neighbours_begin.begin(), neighbours_begin.end() - 1);
    for (const auto& [u, v] : instance.roads) {
      neighbours[next[u]++] = v;
      neighbours[next[v]++] = u;
    }
  }
  std::vector<City> label(static_cast<std::size_t>(n), kNone);
  std::vector<City> to_visit{0};
  City next_label = 0;
  while (!to_visit.empty()) {
    const City city = to_visit.back();
    to_visit.pop_back();
    if (label[city] != kNone)
      continue;
    label[city] = next_label++;
    for (std::int32_t k = neighbours_begin[city + 1]; k-- > neighbours_begin[city];) {
      if (label[neighbours[k]] == kNone)
        to_visit.push_back(neighbours[k]);
    }
  }
  Instance relabelled;
  relabelled.coins.resize(instance.coins.size());
  for (City city = 0; city < n; ++city)
    relabelled.coins[label[city]] = instance.coins[city];
  relabelled.roads.reserve(instance.roads.size());
  for (const auto& [u, v] : instance.roads)
    relabelled.roads.emplace_back(label[u], label[v]);
  if (original != nullptr) {
    original->resize(static_cast<std::size_t>(n));
    for (City city = 0; city < n; ++city)
      (*original)[static_cast<std::size_t>(label[city])] = city;
  }
  return relabelled;
}

}  // namespace gamebatch::willow::detail
