// willow's optimal play. One pass over the tree gives every directed road's richest walk (a
// player who walks a road and never comes back can collect at most that); a start pair (a, b) is
// then a chain of states along the path a = v_0 ... v_d = b, valued from the meeting outwards in
// O(d) with running maxima (pruned.cpp's chain, written out for one pair), and the play follows
// the chain forwards until someone leaves the path; from there each walks her richest way.
#include "core/willow/play.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

namespace gamebatch::willow {
namespace {

using City = std::int32_t;
constexpr City kNone = -1;
constexpr Coins kLowest = std::numeric_limits<Coins>::min() / 4;

// The tree with each city's roads sorted by neighbour, and each directed road's richest walk:
// walk[e] for the entry e = (u -> w) is w's coins plus the richest walk on from w not back to u.
class WalkTree {
 public:
  explicit WalkTree(const Instance& instance);

  City size() const { return static_cast<City>(first_.size()) - 1; }
  std::int32_t begin(City u) const { return first_[static_cast<std::size_t>(u)]; }
  std::int32_t end(City u) const { return first_[static_cast<std::size_t>(u) + 1]; }
  City to(std::int32_t e) const { return to_[static_cast<std::size_t>(e)]; }
  std::int32_t road(std::int32_t e) const { return road_[static_cast<std::size_t>(e)]; }
  Coins walk(std::int32_t e) const { return walk_[static_cast<std::size_t>(e)]; }
  Coins coins(City u) const { return coins_[static_cast<std::size_t>(u)]; }

  // The richest and second richest walk out of u avoiding the neighbours x, y and z (0 where
  // none), and whether there is any.
  struct Branches {
    Coins best = 0;
    Coins second = 0;
    bool any = false;
  };
  Branches branches(City u, City x, City y, City z = kNone) const {
    Branches result;
    for (const auto& [value, neighbour] : top_[static_cast<std::size_t>(u)]) {
      if (neighbour == kNone || neighbour == x || neighbour == y || neighbour == z)
        continue;
      (result.any ? result.second : result.best) = value;
      if (result.any)
        break;
      result.any = true;
    }
    return result;
  }
  // The path from a to b into `path` (`scratch`: room for the part from b).
  void path(City a, City b, std::vector<City>& path, std::vector<City>& scratch) const;

 private:
  void compute_walks();

  std::vector<std::int32_t> first_;
  std::vector<City> to_;
  std::vector<std::int32_t> road_;
  std::vector<Coins> walk_;
  std::vector<Coins> coins_;
  std::vector<City> parent_;
  std::vector<std::int32_t> depth_;
  // Each city's four richest walks out, richest first (ties: lower neighbour first).
  std::vector<std::array<std::pair<Coins, City>, 4>> top_;
};

WalkTree::WalkTree(const Instance& instance)
    : first_(static_cast<std::size_t>(instance.city_count()) + 1, 0), coins_(instance.coins) {
  for (const auto& [u, w] : instance.roads) {
    ++first_[static_cast<std::size_t>(u) + 1];
    ++first_[static_cast<std::size_t>(w) + 1];
  }
  for (std::size_t k = 1; k < first_.size(); ++k)
    first_[k] += first_[k - 1];
  // Each city's entries sorted by neighbour, in two passes without a sort: the roads in input
  // order into an unsorted table, then read back city by city, which appends each city v to its
  // neighbours' lists in increasing v.
  std::vector<City> unsorted_to(2 * instance.roads.size());
  std::vector<std::int32_t> unsorted_road(unsorted_to.size());
  std::vector<std::int32_t> fill(first_.begin(), first_.end() - 1);
  for (std::size_t r = 0; r < instance.roads.size(); ++r) {
    const auto [u, w] = instance.roads[r];
    for (const auto& [from, other] : {std::pair{u, w}, std::pair{w, u}}) {
      const auto e = static_cast<std::size_t>(fill[static_cast<std::size_t>(from)]++);
      unsorted_to[e] = other;
      unsorted_road[e] = static_cast<std::int32_t>(r);
    }
  }
  to_.resize(unsorted_to.size());
  road_.resize(unsorted_to.size());
  std::copy(first_.begin(), first_.end() - 1, fill.begin());
  for (City v = 0; v < size(); ++v) {
    for (std::int32_t e = begin(v); e < end(v); ++e) {
      const City u = unsorted_to[static_cast<std::size_t>(e)];
      const auto at = static_cast<std::size_t>(fill[static_cast<std::size_t>(u)]++);
      to_[at] = v;
      road_[at] = unsorted_road[static_cast<std::size_t>(e)];
    }
  }
  compute_walks();
}

void WalkTree::compute_walks() {
  const City n = size();
  walk_.assign(to_.size(), 0);
  parent_.assign(static_cast<std::size_t>(n), kNone);
  depth_.assign(static_cast<std::size_t>(n), 0);
  std::vector<City> order{0};
  order.reserve(static_cast<std::size_t>(n));
  std::vector<std::int32_t> up(static_cast<std::size_t>(n), -1);  // entry u -> parent(u)
  for (std::size_t k = 0; k < order.size(); ++k) {
    const City u = order[k];
    for (std::int32_t e = begin(u); e < end(u); ++e) {
      const City w = to(e);
      if (w == parent_[static_cast<std::size_t>(u)])
        up[static_cast<std::size_t>(u)] = e;
      else {
        parent_[static_cast<std::size_t>(w)] = u;
        depth_[static_cast<std::size_t>(w)] = depth_[static_cast<std::size_t>(u)] + 1;
        order.push_back(w);
      }
    }
  }
  std::vector<Coins> down(static_cast<std::size_t>(n), 0);  // richest walk below u, u excluded
  for (std::size_t k = order.size(); k-- > 0;) {
    const City u = order[k];
    for (std::int32_t e = begin(u); e < end(u); ++e)
      if (e != up[static_cast<std::size_t>(u)]) {
        walk_[static_cast<std::size_t>(e)] = coins(to(e)) + down[static_cast<std::size_t>(to(e))];
        down[static_cast<std::size_t>(u)] =
            std::max(down[static_cast<std::size_t>(u)], walk_[static_cast<std::size_t>(e)]);
      }
  }
  top_.assign(static_cast<std::size_t>(n), {});
  for (const City u : order) {  // parents first: u's walk up is known
    auto& top = top_[static_cast<std::size_t>(u)];
    top.fill({0, kNone});
    for (std::int32_t e = begin(u); e < end(u); ++e) {
      std::pair<Coins, City> entry{walk(e), to(e)};
      for (auto& slot : top) {
        if (slot.second == kNone || entry.first > slot.first ||
            (entry.first == slot.first && entry.second < slot.second))
          std::swap(slot, entry);
      }
    }
    for (std::int32_t e = begin(u); e < end(u); ++e) {
      const City child = to(e);
      if (child == parent_[static_cast<std::size_t>(u)])
        continue;
      const Branches others = branches(u, child, kNone);
      walk_[static_cast<std::size_t>(up[static_cast<std::size_t>(child)])] = coins(u) + others.best;
    }
  }
}

void WalkTree::path(City a, City b, std::vector<City>& from_a, std::vector<City>& from_b) const {
  from_a.assign(1, a);
  from_b.assign(1, b);
  while (from_a.back() != from_b.back()) {
    const City x = from_a.back();
    const City y = from_b.back();
    if (depth_[static_cast<std::size_t>(x)] >= depth_[static_cast<std::size_t>(y)])
      from_a.push_back(parent_[static_cast<std::size_t>(x)]);
    else
      from_b.push_back(parent_[static_cast<std::size_t>(y)]);
  }
  from_b.pop_back();
  from_a.insert(from_a.end(), from_b.rbegin(), from_b.rend());
}

// The chain of states of one start pair. State t (t = 0 .. d): A on v_l, B on v_r with
// l = ceil(t / 2), r = d - floor(t / 2), A to move when t is even; t = d is the meeting.
// value[t]: the mover's coins minus the other's from there on (the cities they stand on are
// taken); other_best[t]: the other player's richest way if the mover leaves now, but for the
// branch at the mover's city.
struct Chain {
  std::vector<City> path;
  std::vector<City> scratch;
  std::vector<Coins> prefix;  // prefix[k] = coins of v_0 .. v_{k-1}
  std::vector<WalkTree::Branches> off_path;
  std::vector<Coins> value;
  std::vector<Coins> other_best;

  std::int32_t d() const { return static_cast<std::int32_t>(path.size()) - 1; }
  static std::int32_t l(std::int32_t t) { return (t + 1) / 2; }
  std::int32_t r(std::int32_t t) const { return d() - t / 2; }
  Coins interior(std::int32_t t) const {
    return prefix[static_cast<std::size_t>(r(t))] - prefix[static_cast<std::size_t>(l(t)) + 1];
  }
};

Coins branch_of(const Chain& chain, std::int32_t k) {
  return chain.off_path[static_cast<std::size_t>(k)].best;
}

// Values the chain of (a, b); returns A's coins minus B's for the whole game.
Coins evaluate(const WalkTree& tree, City a, City b, Chain& chain) {
  tree.path(a, b, chain.path, chain.scratch);
  const std::int32_t d = chain.d();
  chain.prefix.assign(static_cast<std::size_t>(d) + 2, 0);
  chain.off_path.resize(static_cast<std::size_t>(d) + 1);
  for (std::int32_t k = 0; k <= d; ++k) {
    const City v = chain.path[static_cast<std::size_t>(k)];
    chain.prefix[static_cast<std::size_t>(k) + 1] =
        chain.prefix[static_cast<std::size_t>(k)] + tree.coins(v);
    chain.off_path[static_cast<std::size_t>(k)] =
        tree.branches(v, k > 0 ? chain.path[static_cast<std::size_t>(k) - 1] : kNone,
                      k < d ? chain.path[static_cast<std::size_t>(k) + 1] : kNone);
  }
  chain.value.assign(static_cast<std::size_t>(d) + 1, 0);
  chain.other_best.assign(static_cast<std::size_t>(d) + 1, 0);
  const WalkTree::Branches& meeting = chain.off_path[static_cast<std::size_t>(Chain::l(d))];
  chain.value[static_cast<std::size_t>(d)] = meeting.best - meeting.second;
  // Running maxima over the interior cities k of each state: B walking to k and leaving there
  // (branch - prefix[k], plus prefix[r]), or A doing so (branch + prefix[k + 1], less prefix[l +
  // 1]).
  Coins b_walks = kLowest;
  Coins a_walks = kLowest;
  std::int32_t low = Chain::l(d - 1) + 1;
  std::int32_t high = low - 1;
  auto add = [&](std::int32_t k) {
    b_walks = std::max(b_walks, branch_of(chain, k) - chain.prefix[static_cast<std::size_t>(k)]);
    a_walks =
        std::max(a_walks, branch_of(chain, k) + chain.prefix[static_cast<std::size_t>(k) + 1]);
  };
  for (std::int32_t t = d - 1; t >= 0; --t) {
    const std::int32_t l = Chain::l(t);
    const std::int32_t r = chain.r(t);
    while (low > l + 1)
      add(--low);
    while (high < r - 1)
      add(++high);
    const bool a_moves = t % 2 == 0;
    const std::int32_t mover = a_moves ? l : r;
    const std::int32_t other = a_moves ? r : l;
    const Coins walks = a_moves ? b_walks + chain.prefix[static_cast<std::size_t>(r)]
                                : a_walks - chain.prefix[static_cast<std::size_t>(l) + 1];
    chain.other_best[static_cast<std::size_t>(t)] = std::max(branch_of(chain, other), walks);
    const std::int32_t next = a_moves ? l + 1 : r - 1;
    const Coins gain = next == other ? 0 : tree.coins(chain.path[static_cast<std::size_t>(next)]);
    Coins best = gain - chain.value[static_cast<std::size_t>(t) + 1];
    const WalkTree::Branches& here = chain.off_path[static_cast<std::size_t>(mover)];
    if (here.any)
      best = std::max(best, here.best - std::max(chain.other_best[static_cast<std::size_t>(t)],
                                                 chain.interior(t) + here.second));
    chain.value[static_cast<std::size_t>(t)] = best;
  }
  return tree.coins(a) - (a == b ? 0 : tree.coins(b)) + chain.value[0];
}

// The play as it happens: where the players stand, what is used and taken.
class Board {
 public:
  Board(const WalkTree& tree, Play& play, City a, City b)
      : tree_(tree),
        play_(play),
        used_(static_cast<std::size_t>(tree.size()), false),
        taken_(static_cast<std::size_t>(tree.size()), false),
        at_{a, b} {
    taken_[static_cast<std::size_t>(a)] = taken_[static_cast<std::size_t>(b)] = true;
    score_ = tree.coins(a) - (a == b ? 0 : tree.coins(b));
    play.a_start = a;
    play.b_start = b;
    play.score_after_starts = score_;
  }

  City at(int player) const { return at_[player]; }

  void walk(int player, std::int32_t entry) {
    const City to = tree_.to(entry);
    used_[static_cast<std::size_t>(tree_.road(entry))] = true;
    const Coins taken = taken_[static_cast<std::size_t>(to)] ? 0 : tree_.coins(to);
    taken_[static_cast<std::size_t>(to)] = true;
    score_ += player == 0 ? taken : -taken;
    play_.moves.push_back({player == 0 ? 'A' : 'B', at_[player], to, taken, score_});
    at_[player] = to;
  }

  // The player's richest way on over unused roads (she must walk while she can): the entries,
  // in order, ties to the lowest neighbour.
  std::vector<std::int32_t> richest_route(int player) const;

  bool used(std::int32_t entry) const { return used_[static_cast<std::size_t>(tree_.road(entry))]; }
  const std::vector<bool>& used_roads() const { return used_; }

 private:
  const WalkTree& tree_;
  Play& play_;
  std::vector<bool> used_;
  std::vector<bool> taken_;
  std::array<City, 2> at_;
  Coins score_ = 0;
};

std::vector<std::int32_t> Board::richest_route(int player) const {
  // Breadth first over unused roads, then the best walk below each city, leaves first.
  std::vector<std::pair<City, std::int32_t>> order{{at_[player], -1}};  // city, entry into it
  std::vector<City> parent{kNone};
  for (std::size_t k = 0; k < order.size(); ++k) {
    const City u = order[k].first;
    for (std::int32_t e = tree_.begin(u); e < tree_.end(u); ++e) {
      if (!used(e) && tree_.to(e) != parent[k]) {
        order.emplace_back(tree_.to(e), e);
        parent.push_back(u);
      }
    }
  }
  std::vector<Coins> best(order.size(), 0);
  std::vector<std::size_t> next(order.size(), 0);  // the best child's place in `order`
  std::vector<std::size_t> place_of_parent(order.size(), 0);
  for (std::size_t k = 1, p = 0; k < order.size(); ++k) {
    while (order[p].first != parent[k])
      ++p;
    place_of_parent[k] = p;
  }
  for (std::size_t k = order.size(); k-- > 1;) {
    const City v = order[k].first;
    const Coins value = best[k] + (taken_[static_cast<std::size_t>(v)] ? 0 : tree_.coins(v));
    const std::size_t p = place_of_parent[k];
    // Children come in increasing neighbour order; walking backwards, >= keeps the lowest.
    if (next[p] == 0 || value >= best[p]) {
      best[p] = value;
      next[p] = k;
    }
  }
  std::vector<std::int32_t> route;
  for (std::size_t k = 0; next[k] != 0; k = next[k])
    route.push_back(order[next[k]].second);
  return route;
}

// Both players walk their richest ways, `player` first; a player with no road left passes.
void play_apart(Board& board, int player) {
  std::array<std::vector<std::int32_t>, 2> routes{board.richest_route(0), board.richest_route(1)};
  std::array<std::size_t, 2> done{0, 0};
  while (done[0] < routes[0].size() || done[1] < routes[1].size()) {
    const auto p = static_cast<std::size_t>(player);
    if (done[p] < routes[p].size())
      board.walk(player, routes[p][done[p]++]);
    player = 1 - player;
  }
}

// The entry out of `city` towards `to`.
std::int32_t entry_to(const WalkTree& tree, City city, City to) {
  for (std::int32_t e = tree.begin(city); e < tree.end(city); ++e)
    if (tree.to(e) == to)
      return e;
  throw std::logic_error("willow play: no such road");
}

// The mover's best entry out of path city k when she leaves the path: the value of leaving by
// each branch e is its walk less what the other then gets (other_best, or the interior and the
// richest other branch at the mover's city). Returns -1 when there is no branch.
std::int32_t best_branch(const WalkTree& tree, const Chain& chain, std::int32_t k, Coins other_best,
                         Coins interior, Coins& value) {
  const City v = chain.path[static_cast<std::size_t>(k)];
  const City behind = k > 0 ? chain.path[static_cast<std::size_t>(k) - 1] : kNone;
  const City ahead = k < chain.d() ? chain.path[static_cast<std::size_t>(k) + 1] : kNone;
  std::int32_t chosen = -1;
  for (std::int32_t e = tree.begin(v); e < tree.end(v); ++e) {
    const City x = tree.to(e);
    if (x == behind || x == ahead)
      continue;
    const Coins rest = tree.branches(v, behind, ahead, x).best;
    const Coins option = tree.walk(e) - std::max(other_best, interior + rest);
    if (chosen < 0 || option > value) {
      chosen = e;
      value = option;
    }
  }
  return chosen;
}

// Plays the chain of (a, b) forwards until someone leaves the path or they meet, then apart.
void play_pair(const WalkTree& tree, const Chain& chain, Board& board) {
  const std::int32_t d = chain.d();
  for (std::int32_t t = 0; t < d; ++t) {
    const bool a_moves = t % 2 == 0;
    const std::int32_t l = Chain::l(t);
    const std::int32_t r = chain.r(t);
    const std::int32_t mover = a_moves ? l : r;
    const std::int32_t next = a_moves ? l + 1 : r - 1;
    const City here = chain.path[static_cast<std::size_t>(mover)];
    const City toward = chain.path[static_cast<std::size_t>(next)];
    const Coins gain = next == (a_moves ? r : l) ? 0 : tree.coins(toward);
    const Coins step_value = gain - chain.value[static_cast<std::size_t>(t) + 1];
    Coins leave_value = 0;
    const std::int32_t branch =
        best_branch(tree, chain, mover, chain.other_best[static_cast<std::size_t>(t)],
                    chain.interior(t), leave_value);
    const bool leave = branch >= 0 && (leave_value > step_value ||
                                       (leave_value == step_value && tree.to(branch) < toward));
    board.walk(a_moves ? 0 : 1, leave ? branch : entry_to(tree, here, toward));
    if (leave) {
      play_apart(board, a_moves ? 1 : 0);
      return;
    }
  }
  // The meeting: the mover takes the branch that leaves the other least, then both walk apart.
  const std::int32_t m = Chain::l(d);
  Coins value = 0;
  const std::int32_t branch = best_branch(tree, chain, m, 0, 0, value);
  const int mover = d % 2 == 0 ? 0 : 1;
  if (branch >= 0)
    board.walk(mover, branch);
  play_apart(board, branch >= 0 ? 1 - mover : mover);
}

// The search for A's start and B's reply, counting its path steps against kMaxPlaySteps.
class StartSearch {
 public:
  StartSearch(const WalkTree& tree, Coins answer, std::int64_t max_steps)
      : tree_(tree),
        answer_(answer),
        max_steps_(max_steps),
        stamp_(static_cast<std::size_t>(tree.size()), -1) {}

  Coins value(City a, City b) {
    const Coins v = evaluate(tree_, a, b, chain_);
    steps_ += chain_.d() + 1;
    if (steps_ > max_steps_)
      throw std::invalid_argument(
          "willow explain: finding the optimal starts of this case takes more than " +
          std::to_string(max_steps_) + " path steps (a long path-like tree); refused");
    return v;
  }

  // Whether every B start gives A at least the answer from `a`; the first B start (lowest city)
  // that gives exactly the answer into `reply`. Cheap refutations first; then every B start
  // nearest first, valued as the breadth-first search reaches it.
  bool is_optimal(City a, City& reply) {
    // B on a costs no path, the last refuting B start refutes most rows, B next to a a short
    // path; the other recent refuting B starts last (measured on random trees of 10^5 cities:
    // a third of the rows fall to a neighbour).
    if (refutes(a, a) || (!killers_.empty() && refutes(a, killers_.front())))
      return false;
    for (std::int32_t e = tree_.begin(a); e < tree_.end(a); ++e)
      if (refutes(a, tree_.to(e)))
        return false;
    for (std::size_t k = 1; k < killers_.size(); ++k)
      if (refutes(a, killers_[k]))
        return false;
    // Every B start nearest first, breadth first from a, each valued as it is reached.
    row_.assign(static_cast<std::size_t>(tree_.size()), 0);
    order_.assign(1, a);
    stamp_[static_cast<std::size_t>(a)] = a;
    for (std::size_t k = 0; k < order_.size(); ++k) {
      const City b = order_[k];
      row_[static_cast<std::size_t>(b)] = value(a, b);
      if (row_[static_cast<std::size_t>(b)] < answer_) {
        remember(b);
        return false;
      }
      for (std::int32_t e = tree_.begin(b); e < tree_.end(b); ++e) {
        const City w = tree_.to(e);
        if (stamp_[static_cast<std::size_t>(w)] != a) {
          stamp_[static_cast<std::size_t>(w)] = a;
          order_.push_back(w);
        }
      }
    }
    const auto lowest = std::find(row_.begin(), row_.end(), answer_);
    if (lowest == row_.end())
      throw std::logic_error("willow play: the solver's answer is not reached");
    reply = static_cast<City>(lowest - row_.begin());
    return true;
  }

 private:
  bool refutes(City a, City b) {
    if (value(a, b) >= answer_)
      return false;
    remember(b);
    return true;
  }
  // The B starts that refuted recent rows, the latest first: a rich region that A must give up
  // refutes many rows.
  void remember(City b) {
    const auto known = std::find(killers_.begin(), killers_.end(), b);
    if (known != killers_.end())
      killers_.erase(known);
    else if (killers_.size() == kKillers)
      killers_.pop_back();
    killers_.insert(killers_.begin(), b);
  }
  static constexpr std::size_t kKillers = 8;

  const WalkTree& tree_;
  Coins answer_;
  std::int64_t max_steps_;
  Chain chain_;
  std::vector<City> stamp_;
  std::vector<City> order_;
  std::vector<Coins> row_;  // A's value against each B start, for the row being valued
  std::vector<City> killers_;
  std::int64_t steps_ = 0;
};

// The lowest optimal start of A and B's lowest best reply by valuing start pairs one by one,
// for the cases where the pruned search gave up and the walk answered.
std::pair<City, City> search_starts_pair_by_pair(const WalkTree& tree, Coins answer,
                                                 std::int64_t max_steps) {
  StartSearch search(tree, answer, max_steps);
  City a = 0;
  City reply = kNone;
  while (a < tree.size() && !search.is_optimal(a, reply))
    ++a;
  if (reply == kNone)
    throw std::logic_error("willow play: no start of A reaches the solver's answer");
  return {a, reply};
}

}  // namespace

Play optimal_play(const Instance& instance, const SolverOptions& options,
                  std::int64_t max_fallback_steps) {
  if (const std::string problem = check_instance(instance); !problem.empty())
    throw std::invalid_argument("willow: invalid instance: " + problem);
  SolverOptions finding = options;
  finding.find_optimal_starts = true;
  const SolveReport report = solve_with_report(instance, finding);
  const Coins answer = report.value;
  const WalkTree tree(instance);
  const auto [a, reply] = report.a_start >= 0
                              ? std::pair<City, City>{report.a_start, report.b_start}
                              : search_starts_pair_by_pair(tree, answer, max_fallback_steps);
  Play play;
  play.value = answer;
  Chain chain;
  evaluate(tree, a, reply, chain);
  Board board(tree, play, a, reply);
  play_pair(tree, chain, board);
  for (std::size_t r = 0; r < instance.roads.size(); ++r)
    if (!board.used_roads()[r])
      play.roads_left.push_back(static_cast<std::int32_t>(r));
  if (play.moves.empty() ? play.score_after_starts != answer : play.moves.back().score != answer)
    throw std::logic_error("willow play: the line does not add up to the answer");
  return play;
}

std::string describe_play(const Instance& instance, const Play& play) {
  const auto city = [](City v) { return std::to_string(v + 1); };
  std::string text =
      "A starts on city " + city(play.a_start) + " (" +
      std::to_string(instance.coins[static_cast<std::size_t>(play.a_start)]) + " coins), B on " +
      city(play.b_start) +
      (play.a_start == play.b_start
           ? " too (A took its coins)"
           : " (" + std::to_string(instance.coins[static_cast<std::size_t>(play.b_start)]) +
                 " coins)") +
      "; score A - B: " + std::to_string(play.score_after_starts) + "\n";
  for (const Move& move : play.moves)
    text += std::string(1, move.player) + ": " + city(move.from) + " -> " + city(move.to) +
            ", takes " + std::to_string(move.taken) + ", score " + std::to_string(move.score) +
            "\n";
  text += "roads never walked: " + std::to_string(play.roads_left.size());
  constexpr std::size_t kListed = 20;
  for (std::size_t k = 0; k < play.roads_left.size() && k < kListed; ++k) {
    const auto& [u, w] = instance.roads[static_cast<std::size_t>(play.roads_left[k])];
    text += (k == 0 ? " (" : ", ") + city(u) + "-" + city(w);
  }
  if (!play.roads_left.empty())
    text += play.roads_left.size() > kListed ? ", ...)" : ")";
  return text + "\nanswer: " + std::to_string(play.value) + "\n";
}

PairValues::PairValues(const Instance& instance) {
  const std::string problem = check_instance(instance);
  if (!problem.empty())
    throw std::invalid_argument("willow: " + problem);
  auto tree = std::make_shared<const WalkTree>(instance);
  auto chain = std::make_shared<Chain>();
  value_ = [tree, chain](City a, City b) { return evaluate(*tree, a, b, *chain); };
}

}  // namespace gamebatch::willow
