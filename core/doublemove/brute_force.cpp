// The doublemove oracle: plays the rules literally. After t declarations it keeps, for every set
// of t distinct values, how many pick prefixes picked exactly that set and are still running;
// that multiset is all the future depends on. A declaration (a, b) extends each running prefix
// by a and by b (both, also when a == b); a pick already in the set ends the prefix at this turn,
// and its 2^(n+1-i) completions are Alice's when i is even. Owners try every ordered pair and
// maximise (Alice) or minimise (Bob) the total. No graphs, no components: easy to trust.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/doublemove/doublemove.hpp"

namespace gamebatch::doublemove {
namespace {

// Running prefixes per picked set: entry `mask` counts prefixes that picked the values of `mask`.
// After t declarations they number at most 2^t in all, t <= n <= 8: 16 bits hold them.
using AliveSets = std::u16string;
static_assert(kBruteForceMaxN <= 15);

struct Step {
  Value alice_wins = 0;  // sequences that end at this turn and are Alice's
  AliveSets next;
};

Step declare(const AliveSets& alive, int n, int turn, int a, int b) {
  Step step;
  step.next.assign(alive.size(), u'\0');
  const Value completions = Value{1} << (n + 1 - turn);
  for (std::size_t mask = 0; mask < alive.size(); ++mask) {
    const auto count = static_cast<std::uint16_t>(alive[mask]);
    if (count == 0)
      continue;
    for (const int pick : {a, b}) {
      const std::size_t bit = std::size_t{1} << (pick - 1);
      if ((mask & bit) != 0) {
        if (turn % 2 == 0)
          step.alice_wins += count * completions;
      } else {
        auto& slot = step.next[mask | bit];
        slot = static_cast<char16_t>(slot + count);
      }
    }
  }
  return step;
}

bool any_alive(const AliveSets& alive) {
  return std::any_of(alive.begin(), alive.end(), [](char16_t count) { return count != 0; });
}

}  // namespace

struct BruteForceOracle::Memo {
  // By the number of declarations made so far.
  std::vector<std::unordered_map<AliveSets, Value>> values;
};

BruteForceOracle::BruteForceOracle(int n) : n_(n), memo_(std::make_unique<Memo>()) {
  if (n < 1 || n > kBruteForceMaxN) {
    throw std::invalid_argument("doublemove brute force: n = " + std::to_string(n) +
                                " outside 1.." + std::to_string(kBruteForceMaxN));
  }
  memo_->values.resize(static_cast<std::size_t>(n) + 2);
}

BruteForceOracle::~BruteForceOracle() = default;

int BruteForceOracle::n() const {
  return n_;
}

namespace {

// Alice's wins among the completions of `alive` after `made` declarations, under optimal play.
Value best_future(const AliveSets& alive, int n, int made,
                  std::vector<std::unordered_map<AliveSets, Value>>& memo) {
  if (made == n + 1 || !any_alive(alive))
    return 0;
  auto& known = memo[static_cast<std::size_t>(made)];
  if (const auto found = known.find(alive); found != known.end())
    return found->second;
  const int turn = made + 1;
  const bool alice_declares = turn % 2 == 1;
  Value best = alice_declares ? Value{0} : ~Value{0};
  for (int a = 1; a <= n; ++a) {
    for (int b = 1; b <= n; ++b) {
      const Step step = declare(alive, n, turn, a, b);
      const Value total = step.alice_wins + best_future(step.next, n, turn, memo);
      best = alice_declares ? std::max(best, total) : std::min(best, total);
    }
  }
  known.emplace(alive, best);
  return best;
}

}  // namespace

Value BruteForceOracle::solve(const Instance& instance) {
  if (instance.n != n_) {
    throw std::invalid_argument("doublemove brute force: oracle of n = " + std::to_string(n_) +
                                " asked about n = " + std::to_string(instance.n));
  }
  if (const std::string problem = check_instance(instance); !problem.empty())
    throw std::invalid_argument("doublemove brute force: " + problem);
  AliveSets alive(std::size_t{1} << n_, u'\0');
  alive[0] = 1;  // one empty prefix
  Value decided = 0;
  int made = 0;
  for (const auto& [a, b] : instance.declarations) {
    Step step = declare(alive, n_, ++made, a, b);
    decided += step.alice_wins;
    alive = std::move(step.next);
  }
  return decided + best_future(alive, n_, made, memo_->values);
}

Value solve_brute_force(const Instance& instance) {
  BruteForceOracle oracle(instance.n);
  return oracle.solve(instance);
}

}  // namespace gamebatch::doublemove
