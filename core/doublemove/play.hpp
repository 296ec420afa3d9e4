// doublemove's optimal play, reconstructed move by move from the solver (`gamebatch explain`).
#pragma once

#include <string>
#include <vector>

#include "core/doublemove/doublemove.hpp"

namespace gamebatch::doublemove {

// The declared graph's components: tree sizes (largest first), one-cycle components, and whether
// some component holds two cycles (every pick sequence has ended).
struct ComponentSummary {
  std::vector<int> tree_sizes;
  int one_cycle = 0;
  bool ended = false;
};

ComponentSummary summarise_components(const Instance& instance);

// One declaration still to come, as its owner plays it.
struct PlayedDeclaration {
  int turn = 0;  // 1-based; odd: Alice's
  Declaration pair;
  ComponentSummary after;
  Value alice_wins_after = 0;  // the game's value once it is declared
};

struct Play {
  Value value = 0;  // the answer: the value before the first declaration to come
  std::vector<PlayedDeclaration> declarations;
};

// For each declaration from k + 1 to n + 1, the owner's optimal pair: among the pairs whose value
// is best for the owner (Alice maximises, Bob minimises), the lexicographically first (a, b).
// One solve(instance, store), keeping what valued the game (the table of n, or the search from
// the case's state with its memo); then each turn values each kind of move (the kinds of the
// pair's components: a few) by a look-up there, and reads the pairs in order for the first best.
// The line costs a solve plus about n turns x (kinds of moves) look-ups. Throws
// std::invalid_argument for an instance check_instance rejects.
Play optimal_play(const Instance& instance, StateTableStore& store);
Play optimal_play(const Instance& instance);

// The play as text, one line per declaration, ending with "answer: VALUE".
std::string describe_play(const Instance& instance, const Play& play);

}  // namespace gamebatch::doublemove
