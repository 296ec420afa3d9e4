// What test strength (`gamebatch strength`) knows of willow: which of gen's shapes a tree has,
// and the usual wrong ideas, each a strategy contestants submit (docs/games.md draws the smallest
// case each gets wrong). Pure functions.
#pragma once

#include <string>
#include <vector>

#include "core/willow/willow.hpp"

namespace gamebatch::willow {

// gen's shapes that `instance` has ("path", "star", "caterpillar", "broom", "binary", or "random"
// for a tree none of them; a path is a caterpillar and a binary tree too), and its coins' pattern
// where gen names it ("coins all_zero", "coins all_equal").
std::vector<std::string> shapes_of(const Instance& instance);

// B answers only from A's city or a neighbour of it (she should stay close to block A).
Coins b_near_a(const Instance& instance);

// A starts on the richest city (the lowest-numbered of them); B answers her perfectly.
Coins richest_start(const Instance& instance);

// A takes the tree's richest path, B the richest path of what is left (A's cities emptied, her
// roads gone): their sums' difference, as if the players took turns path by path.
Coins greedy_paths(const Instance& instance);

}  // namespace gamebatch::willow
