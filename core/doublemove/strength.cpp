// The wrong ideas' search. A state is the sorted sizes of the tree components and the number c
// of one-cycle components (the turn is n - trees): Surv = the product of the tree sizes times
// 2^c pick prefixes are alive. A declaration of the player to move (Alice on even turns) either
// joins two trees, closes a cycle in a tree (an edge inside it, or a loop), joins a tree to a
// one-cycle component, or gives a component a second cycle (every prefix ends). Of the 2 Surv
// extended prefixes, Surv' survive; the others end on this declaration, lost by its owner, each
// with 2^(n - t) completions: Alice wins them when Bob declared. So the value of a state is
// max (Alice) or min (Bob) over the moves of that gain plus the next state's value.
#include "core/doublemove/strength.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

namespace gamebatch::doublemove {
// Not an anonymous namespace: the unity batches hold other files' helpers of the same names.
namespace strength_parts {

struct State {
  std::string trees;  // sizes, ascending, one char each
  int cycles = 0;
};

Value survivors(const State& state) {
  Value alive = Value{1} << state.cycles;
  for (const char size : state.trees)
    alive *= static_cast<Value>(size);
  return alive;
}

// Every declaration's outcome from `state`, in a fixed order: joins (x <= y), cycles closed,
// trees hung on a cycle, then the ending.
struct Move {
  State next;
  bool ends = false;
  bool loop_alone = false;  // closes the cycle of a tree of one value: only a loop does that
};

std::vector<Move> moves_of(const State& state) {
  std::vector<Move> moves;
  const std::string& trees = state.trees;
  auto without = [&](std::size_t a, std::size_t b) {
    std::string rest;
    for (std::size_t k = 0; k < trees.size(); ++k) {
      if (k != a && k != b)
        rest += trees[k];
    }
    return rest;
  };
  for (std::size_t a = 0; a < trees.size(); ++a) {
    if (a > 0 && trees[a] == trees[a - 1])
      continue;  // the same sizes as the last
    for (std::size_t b = a + 1; b < trees.size(); ++b) {
      if (b > a + 1 && trees[b] == trees[b - 1])
        continue;
      std::string rest = without(a, b);
      rest.insert(
          std::upper_bound(rest.begin(), rest.end(), static_cast<char>(trees[a] + trees[b])),
          static_cast<char>(trees[a] + trees[b]));
      moves.push_back({{rest, state.cycles}, false, false});
    }
  }
  for (std::size_t a = 0; a < trees.size(); ++a) {
    if (a > 0 && trees[a] == trees[a - 1])
      continue;
    moves.push_back({{without(a, a), state.cycles + 1}, false, trees[a] == 1});
  }
  if (state.cycles > 0) {
    for (std::size_t a = 0; a < trees.size(); ++a) {
      if (a > 0 && trees[a] == trees[a - 1])
        continue;
      moves.push_back({{without(a, a), state.cycles}, false, false});
    }
    moves.push_back({{}, true, false});
  }
  return moves;
}

class Search {
 public:
  Search(int n, Rules rules) : n_(n), rules_(rules) {}

  Value value(const State& state) {
    const int turn = n_ - static_cast<int>(state.trees.size());
    if (turn > n_)
      return 0;
    std::string key = state.trees;
    key += static_cast<char>(state.cycles);
    if (const auto found = memo_.find(key); found != memo_.end())
      return found->second;
    const bool alice = turn % 2 == 0;
    const Value alive = survivors(state);
    const Value completions = Value{1} << (n_ - turn);
    std::optional<Value> best;
    Value best_alive = 0;
    for (const Move& move : moves_of(state)) {
      if (rules_ == Rules::no_loops && move.loop_alone)
        continue;
      const Value next_alive = move.ends ? 0 : survivors(move.next);
      const Value gain = alice ? 0 : (2 * alive - next_alive) * completions;
      if (rules_ == Rules::myopic) {
        if (!best || next_alive > best_alive) {
          best_alive = next_alive;
          best = gain + (move.ends ? 0 : value(move.next));
        }
        continue;
      }
      const Value total = gain + (move.ends ? 0 : value(move.next));
      const bool maximise = alice || rules_ == Rules::both_maximize;
      if (!best || (maximise ? total > *best : total < *best))
        best = total;
    }
    const Value result = best.value_or(0);
    memo_.emplace(std::move(key), result);
    return result;
  }

 private:
  int n_;
  Rules rules_;
  std::unordered_map<std::string, Value> memo_;
};

// One search per n and rules in each thread: their memos carry over between cases.
Search& search_for(int n, Rules rules) {
  thread_local std::map<std::pair<int, Rules>, Search> searches;
  return searches.try_emplace({n, rules}, n, rules).first->second;
}

// The components after the given declarations, with what the losses of each gave Alice.
struct Replay {
  State state;
  Value alice_wins = 0;
  bool over = false;  // no pick sequence is alive
};

Replay replay(const Instance& instance) {
  const int n = instance.n;
  std::vector<int> parent(static_cast<std::size_t>(n) + 1), size(parent.size(), 1),
      edges(parent.size(), 0);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int v) {
    while (parent[static_cast<std::size_t>(v)] != v)
      v = parent[static_cast<std::size_t>(v)] =
          parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(v)])];
    return v;
  };
  auto alive_now = [&] {
    Value alive = 1;
    for (int v = 1; v <= n; ++v) {
      if (find(v) != v)
        continue;
      const int cycles = edges[static_cast<std::size_t>(v)] - size[static_cast<std::size_t>(v)] + 1;
      if (cycles >= 2)
        return Value{0};
      alive *= cycles == 1 ? 2 : static_cast<Value>(size[static_cast<std::size_t>(v)]);
    }
    return alive;
  };
  Replay result;
  Value alive = 1;
  for (std::size_t t = 0; t < instance.declarations.size(); ++t) {
    const int a = find(instance.declarations[t].a);
    const int b = find(instance.declarations[t].b);
    if (a != b) {
      parent[static_cast<std::size_t>(a)] = b;
      size[static_cast<std::size_t>(b)] += size[static_cast<std::size_t>(a)];
      edges[static_cast<std::size_t>(b)] += edges[static_cast<std::size_t>(a)];
    }
    ++edges[static_cast<std::size_t>(b)];
    const Value next = alive_now();
    if (t % 2 == 1)
      result.alice_wins += (2 * alive - next) * (Value{1} << (n - static_cast<int>(t)));
    alive = next;
    if (alive == 0) {
      result.over = true;
      return result;
    }
  }
  for (int v = 1; v <= n; ++v) {
    if (find(v) != v)
      continue;
    if (edges[static_cast<std::size_t>(v)] == size[static_cast<std::size_t>(v)] - 1)
      result.state.trees += static_cast<char>(size[static_cast<std::size_t>(v)]);
    else
      ++result.state.cycles;
  }
  std::sort(result.state.trees.begin(), result.state.trees.end());
  return result;
}

}  // namespace strength_parts

std::vector<std::string> shapes_of(const Instance& instance) {
  const std::vector<Declaration>& given = instance.declarations;
  std::size_t loops = 0;
  bool repeats = false;
  std::map<std::pair<int, int>, int> seen;
  for (const Declaration& d : given) {
    loops += d.a == d.b ? 1 : 0;
    repeats = repeats || seen[{std::min(d.a, d.b), std::max(d.a, d.b)}]++ > 0;
  }
  const strength_parts::Replay replayed = strength_parts::replay(instance);
  std::vector<std::string> shapes;
  if (given.size() >= 2 && 3 * loops >= given.size())
    shapes.emplace_back(to_string(DeclarationPattern::loops));
  if (repeats)
    shapes.emplace_back(to_string(DeclarationPattern::repeats));
  if (given.size() >= 2 && !replayed.over && replayed.state.cycles == 0)
    shapes.emplace_back(to_string(DeclarationPattern::forest));
  if (replayed.over)
    shapes.emplace_back(to_string(DeclarationPattern::ending));
  if (shapes.empty())
    shapes.emplace_back(to_string(DeclarationPattern::uniform));
  return shapes;
}

Value value_under(const Instance& instance, Rules rules) {
  const std::string problem = check_instance(instance);
  if (!problem.empty())
    throw std::invalid_argument("doublemove: " + problem);
  const strength_parts::Replay replayed = strength_parts::replay(instance);
  if (replayed.over)
    return replayed.alice_wins;
  return replayed.alice_wins + strength_parts::search_for(instance.n, rules).value(replayed.state);
}

}  // namespace gamebatch::doublemove
