#include "core/doublemove/generators.hpp"

#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/random.hpp"

namespace gamebatch::doublemove {

std::string_view to_string(DeclarationPattern pattern) {
  switch (pattern) {
    case DeclarationPattern::uniform:
      return "uniform";
    case DeclarationPattern::loops:
      return "loops";
    case DeclarationPattern::repeats:
      return "repeats";
    case DeclarationPattern::forest:
      return "forest";
    case DeclarationPattern::ending:
      return "ending";
    case DeclarationPattern::mixed:
      return "mixed";
  }
  return "unknown";
}

namespace {

int uniform_value(std::mt19937_64& rng, int n) {
  return 1 + static_cast<int>(uniform_below(rng, static_cast<std::uint64_t>(n)));
}

// Tracks components so that the forest pattern can pick two values in different ones, and which
// of them hold a cycle, to tell a declaration that would end the game.
class Forest {
 public:
  explicit Forest(int n)
      : parent_(static_cast<std::size_t>(n) + 1), has_cycle_(static_cast<std::size_t>(n) + 1) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  int find(int value) {
    while (parent_[static_cast<std::size_t>(value)] != value)
      value = parent_[static_cast<std::size_t>(value)];
    return value;
  }
  void join(int a, int b) {
    const int root_a = find(a);
    const int root_b = find(b);
    const bool cycle = root_a == root_b || has_cycle_[static_cast<std::size_t>(root_a)];
    parent_[static_cast<std::size_t>(root_a)] = root_b;
    if (cycle)
      has_cycle_[static_cast<std::size_t>(root_b)] = true;
  }
  bool has_cycle(int value) { return has_cycle_[static_cast<std::size_t>(find(value))]; }
  // Whether the edge (a, b) would give a component a second cycle.
  bool would_end(int a, int b) {
    return find(a) == find(b) ? has_cycle(a) : has_cycle(a) && has_cycle(b);
  }

 private:
  std::vector<int> parent_;
  std::vector<bool> has_cycle_;  // by root
};

Declaration draw(DeclarationPattern pattern, int n, const std::vector<Declaration>& earlier,
                 Forest& forest, std::mt19937_64& rng) {
  switch (pattern) {
    case DeclarationPattern::loops:
      if (one_in(rng, 2)) {
        const int value = uniform_value(rng, n);
        return {value, value};
      }
      break;
    case DeclarationPattern::repeats:
      if (!earlier.empty() && one_in(rng, 2)) {
        Declaration again = earlier[uniform_below(rng, earlier.size())];
        if (one_in(rng, 2))
          std::swap(again.a, again.b);
        return again;
      }
      break;
    case DeclarationPattern::forest: {
      // A few tries at two values in different components; all in one tree: anything goes.
      for (int attempt = 0; attempt < 4 * n; ++attempt) {
        const int a = uniform_value(rng, n);
        const int b = uniform_value(rng, n);
        if (forest.find(a) != forest.find(b))
          return {a, b};
      }
      break;
    }
    case DeclarationPattern::mixed: {
      constexpr DeclarationPattern kParts[] = {
          DeclarationPattern::uniform, DeclarationPattern::loops, DeclarationPattern::repeats,
          DeclarationPattern::forest};
      return draw(kParts[uniform_below(rng, std::size(kParts))], n, earlier, forest, rng);
    }
    case DeclarationPattern::uniform:
    case DeclarationPattern::ending:
      break;
  }
  return {uniform_value(rng, n), uniform_value(rng, n)};
}

}  // namespace

Instance generate_instance(int n, int k, DeclarationPattern pattern, std::mt19937_64& rng) {
  if (n < 1 || n > kMaxN)
    throw std::invalid_argument("doublemove generator: n = " + std::to_string(n) + " out of range");
  if (k < 0 || k > n + 1) {
    throw std::invalid_argument("doublemove generator: k = " + std::to_string(k) +
                                " outside 0..n+1");
  }
  Instance instance;
  instance.n = n;
  Forest forest(n);
  for (int made = 0; made < k; ++made) {
    const Declaration next = draw(pattern, n, instance.declarations, forest, rng);
    forest.join(next.a, next.b);
    instance.declarations.push_back(next);
  }
  if (pattern == DeclarationPattern::ending && k >= 2) {
    // Two loops on one value at two random turns: its component has two cycles from the second.
    const int value = uniform_value(rng, n);
    const auto first = uniform_below(rng, static_cast<std::uint64_t>(k));
    auto second = uniform_below(rng, static_cast<std::uint64_t>(k - 1));
    if (second >= first)
      ++second;
    instance.declarations[first] = {value, value};
    instance.declarations[second] = {value, value};
  }
  return instance;
}

Instance generate_running_instance(int n, int k, DeclarationPattern pattern, std::mt19937_64& rng) {
  if (n < 1 || n > kMaxN)
    throw std::invalid_argument("doublemove generator: n = " + std::to_string(n) + " out of range");
  if (k < 0 || k > n) {
    throw std::invalid_argument("doublemove generator: k = " + std::to_string(k) +
                                " outside 0..n for a running game");
  }
  if (pattern == DeclarationPattern::ending)
    throw std::invalid_argument("doublemove generator: the ending pattern ends the game");
  Instance instance;
  instance.n = n;
  Forest forest(n);
  for (int made = 0; made < k; ++made) {
    // A tree is left (n - made of them), so some draw keeps the game running; after many misses
    // (few tree vertices among many in cycles) a loop closes the first tree instead.
    std::optional<Declaration> next;
    for (int attempt = 0; attempt < 64 * n && !next; ++attempt) {
      const Declaration drawn = draw(pattern, n, instance.declarations, forest, rng);
      if (!forest.would_end(drawn.a, drawn.b))
        next = drawn;
    }
    if (!next) {
      int value = 1;
      while (forest.has_cycle(value))
        ++value;
      next = Declaration{value, value};
    }
    forest.join(next->a, next->b);
    instance.declarations.push_back(*next);
  }
  return instance;
}

int random_declaration_count(int n, std::mt19937_64& rng) {
  switch (uniform_below(rng, 4)) {
    case 0:
      return 0;
    case 1:
      return n + 1;
    default:
      return static_cast<int>(uniform_below(rng, static_cast<std::uint64_t>(n) + 2));
  }
}

}  // namespace gamebatch::doublemove
