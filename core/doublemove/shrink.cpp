// Shrink candidates for doublemove: fewer values, fewer declarations, lower values (see
// shrink.hpp).
#include "core/doublemove/shrink.hpp"

#include <algorithm>
#include <cstddef>
#include <set>
#include <utility>
#include <vector>

namespace gamebatch::doublemove {
namespace {

constexpr int kDropped = 0;  // a value whose declarations are dropped

// The instance on values 1..new_n with value v renamed new_value[v] (kDropped: every declaration
// naming v dropped), keeping at most new_n + 1 declarations.
Instance renumber(const Instance& instance, int new_n, const std::vector<int>& new_value) {
  Instance renumbered;
  renumbered.n = new_n;
  for (const auto& [a, b] : instance.declarations) {
    const int new_a = new_value[static_cast<std::size_t>(a)];
    const int new_b = new_value[static_cast<std::size_t>(b)];
    if (new_a == kDropped || new_b == kDropped)
      continue;
    if (renumbered.declarations.size() == static_cast<std::size_t>(new_n) + 1)
      break;
    renumbered.declarations.push_back({new_a, new_b});
  }
  return renumbered;
}

// new_value tables, indexed 0..n (index 0 unused).
std::vector<int> identity_values(int n) {
  std::vector<int> values(static_cast<std::size_t>(n) + 1);
  for (int value = 0; value <= n; ++value)
    values[static_cast<std::size_t>(value)] = value;
  return values;
}

void add_fewer_values(const Instance& instance, std::vector<Instance>& candidates) {
  const int n = instance.n;
  if (n < 2)
    return;
  // Every smaller n' with the values above it dropped: answers can depend on n in cycles (a
  // case may fail for n = 8 and 5 but not for 7 or 6), so n - 1 alone can get stuck.
  for (int smaller = 1; smaller < n - 1; ++smaller) {
    std::vector<int> dropped = identity_values(n);
    for (int value = smaller + 1; value <= n; ++value)
      dropped[static_cast<std::size_t>(value)] = kDropped;
    candidates.push_back(renumber(instance, smaller, dropped));
  }
  const int half = n / 2;
  if (half < n - 1) {  // for n <= 3 the fold is among the merges below
    std::vector<int> folded = identity_values(n);
    for (int value = half + 1; value <= n; ++value)
      folded[static_cast<std::size_t>(value)] = (value - 1) % half + 1;
    candidates.push_back(renumber(instance, half, folded));
  }
  for (int removed = n; removed >= 1; --removed) {
    std::vector<int> values = identity_values(n);
    for (int value = removed; value <= n; ++value)
      values[static_cast<std::size_t>(value)] = value == removed ? kDropped : value - 1;
    candidates.push_back(renumber(instance, n - 1, values));
  }
  for (int merged = n; merged >= 2; --merged) {
    std::vector<int> values = identity_values(n);
    for (int value = merged; value <= n; ++value)
      values[static_cast<std::size_t>(value)] = value - 1;
    candidates.push_back(renumber(instance, n - 1, values));
  }
}

void add_fewer_declarations(const Instance& instance, std::vector<Instance>& candidates) {
  const std::size_t count = instance.declarations.size();
  const auto keep_first = [&](std::size_t kept) {
    Instance shorter{instance.n, {}};
    shorter.declarations.assign(instance.declarations.begin(),
                                instance.declarations.begin() + static_cast<std::ptrdiff_t>(kept));
    candidates.push_back(std::move(shorter));
  };
  if (count >= 1)
    keep_first(0);
  if (count >= 2)
    keep_first(count / 2);
  for (std::size_t dropped = count; dropped-- > 0;) {
    Instance shorter = instance;
    shorter.declarations.erase(shorter.declarations.begin() + static_cast<std::ptrdiff_t>(dropped));
    candidates.push_back(std::move(shorter));
  }
}

int value_sum(const Instance& instance) {
  int sum = 0;
  for (const auto& [a, b] : instance.declarations)
    sum += a + b;
  return sum;
}

void add_lower_values(const Instance& instance, std::vector<Instance>& candidates) {
  // Values renamed 1, 2, 3, ... in order of first appearance: the same game (values are
  // interchangeable), offered when it lowers the sum.
  std::vector<int> renamed(static_cast<std::size_t>(instance.n) + 1, 0);
  int next_name = 1;
  Instance canonical = instance;
  for (auto& [a, b] : canonical.declarations) {
    for (int* value : {&a, &b}) {
      int& name = renamed[static_cast<std::size_t>(*value)];
      if (name == 0)
        name = next_name++;
      *value = name;
    }
  }
  if (value_sum(canonical) < value_sum(instance))
    candidates.push_back(std::move(canonical));

  for (std::size_t index = 0; index < instance.declarations.size(); ++index) {
    // Both values lowered together until the smaller is 1: a loop stays a loop.
    const auto [a, b] = instance.declarations[index];
    if (std::min(a, b) > 1) {
      Instance lowered = instance;
      lowered.declarations[index] = {a - std::min(a, b) + 1, b - std::min(a, b) + 1};
      candidates.push_back(std::move(lowered));
    }
  }
  for (std::size_t index = 0; index < instance.declarations.size(); ++index) {
    for (int Declaration::*side : {&Declaration::a, &Declaration::b}) {
      const int value = instance.declarations[index].*side;
      for (const int lower : {1, value - 1}) {
        if (lower < 1 || lower >= value)
          continue;
        Instance lowered = instance;
        lowered.declarations[index].*side = lower;
        candidates.push_back(std::move(lowered));
      }
    }
  }
}

std::vector<int> content_key(const Instance& instance) {
  std::vector<int> key{instance.n};
  for (const auto& [a, b] : instance.declarations) {
    key.push_back(a);
    key.push_back(b);
  }
  return key;
}

}  // namespace

std::vector<Instance> shrink_candidates(const Instance& instance) {
  if (!check_instance(instance).empty())
    return {};
  std::vector<Instance> candidates;
  add_fewer_values(instance, candidates);
  add_fewer_declarations(instance, candidates);
  add_lower_values(instance, candidates);
  // Biggest cuts first: fewest values, then fewest declarations; within those, as generated.
  std::stable_sort(candidates.begin(), candidates.end(), [](const Instance& x, const Instance& y) {
    if (x.n != y.n)
      return x.n < y.n;
    return x.declarations.size() < y.declarations.size();
  });
  // Different cuts can meet (a removed value no declaration names); offer each variant once.
  std::set<std::vector<int>> seen{content_key(instance)};
  std::vector<Instance> distinct;
  for (Instance& candidate : candidates) {
    if (seen.insert(content_key(candidate)).second)
      distinct.push_back(std::move(candidate));
  }
  return distinct;
}

}  // namespace gamebatch::doublemove
