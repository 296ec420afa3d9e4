// doublemove (olympiad problem D, "Double Move"): Alice and Bob declare pairs of values, Claire
// picks one value of each pair, the first repeated pick ends the game. The instance type and the
// solvers; pure functions, no I/O. Rules: ../shared/spec/doublemove.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace gamebatch::doublemove {

// Answers are below 2^(n+1): 64 bits hold them up to n = 62, 128 bits beyond.
__extension__ using Value = unsigned __int128;

// The largest n whose answers fit the 64-bit storage of a state table.
inline constexpr int kLargestNarrowN = 62;

// Tables of larger n are not built: one table of n = kMaxN takes at most this many bytes.
inline constexpr std::uint64_t kMaxTableBytes = std::uint64_t{2} << 30;  // 2 GiB

// Reachable states of the game on n values (see StateSpace): the partitions of i <= n tree
// vertices, times the number of one-cycle components the other n - i vertices can form.
constexpr std::uint64_t state_count_for(int n) {
  // p(i) for i = 0..n, by the usual coin-change recurrence over part sizes.
  std::vector<std::uint64_t> partitions(static_cast<std::size_t>(n) + 1, 0);
  partitions[0] = 1;
  for (int part = 1; part <= n; ++part) {
    for (int total = part; total <= n; ++total) {
      partitions[static_cast<std::size_t>(total)] +=
          partitions[static_cast<std::size_t>(total - part)];
    }
  }
  std::uint64_t states = partitions[static_cast<std::size_t>(n)];  // every vertex in a tree
  for (int trees = 0; trees < n; ++trees) {
    states += partitions[static_cast<std::size_t>(trees)] * static_cast<std::uint64_t>(n - trees);
  }
  return states;
}

constexpr std::uint64_t table_bytes_for(int n) {
  return state_count_for(n) * (n <= kLargestNarrowN ? 8u : 16u);
}

constexpr int largest_n_within(std::uint64_t bytes) {
  int n = 1;
  while (table_bytes_for(n + 1) <= bytes)
    ++n;
  return n;
}

// The largest n solved; an input above it is rejected naming this limit.
inline constexpr int kMaxN = largest_n_within(kMaxTableBytes);

struct Declaration {
  int a = 1;
  int b = 1;
  friend bool operator==(const Declaration&, const Declaration&) = default;
};

// One case: values 1..n and the first k = declarations.size() declarations (k <= n + 1).
struct Instance {
  int n = 1;
  std::vector<Declaration> declarations;
};

// Returns an empty string for a valid instance (1 <= n <= kMaxN, k <= n + 1, every value in
// 1..n), else what is wrong.
std::string check_instance(const Instance& instance);

// The decimal digits of `value`.
std::string to_decimal(Value value);

class StateTableStore;

// How solve() values the game still to be played after the given declarations. Every method gives
// the same answer; they differ in time and memory.
enum class SolveMethod {
  // The table when `store` holds n's already. Otherwise a search, unless cheap bounds on the
  // states reachable show it would take more than its limit (an eighth of the table's states in
  // moves, at most 2^20: late cases, a dozen declarations left or fewer, stay far within it);
  // a search that reaches the limit gives up for the table.
  automatic,
  // Look the state up in the state table of n, which the store builds (or loads) at most once
  // and shares: 8 or 16 bytes for every state of n, up to 1.87 GB for n = kMaxN.
  table,
  // A memoised search over the states reachable from the case's own state (search.hpp): no table,
  // however many states that takes.
  search,
};

// The number of pick sequences Alice wins under optimal play: replays the given declarations, then
// values the state they lead to by `method`. Throws std::invalid_argument for an instance that
// check_instance rejects.
Value solve(const Instance& instance, StateTableStore& store,
            SolveMethod method = SolveMethod::automatic);
// The same with the process-wide store (default_store()).
Value solve(const Instance& instance);

// What solve(instance) does with the automatic method and a store that holds no table of n, for
// cost estimates; instance must be valid (check_instance).
struct SolvePlan {
  enum class Path {
    replay,             // the given declarations end every pick sequence: the replay is all
    search,             // a search that surely stays within its limit
    search_then_table,  // a search that may reach its limit, then the table
    table,              // the table: a search surely would not stay within its limit
  };
  Path path = Path::table;
  // search: at most the states the search visits (an upper bound); search_then_table and table:
  // the table's state count; replay: 0.
  double states = 0;
};
SolvePlan plan_solve(const Instance& instance);

// The same value by playing the literal game: labelled declarations, every ordered pair (a, b)
// as a move, every pick sequence, memoised on the multiset of alive pick sets. Knows nothing of
// components. Exponential: meant for n <= kBruteForceMaxN (its first case of n = 8 takes about
// 1.5 s, n = 7 0.15 s). Reuse one oracle for many cases of the same n: its memo carries over.
inline constexpr int kBruteForceMaxN = 8;

class BruteForceOracle {
 public:
  explicit BruteForceOracle(int n);
  ~BruteForceOracle();
  BruteForceOracle(const BruteForceOracle&) = delete;
  BruteForceOracle& operator=(const BruteForceOracle&) = delete;

  int n() const;
  Value solve(const Instance& instance);

 private:
  struct Memo;
  int n_;
  std::unique_ptr<Memo> memo_;
};

Value solve_brute_force(const Instance& instance);

}  // namespace gamebatch::doublemove
