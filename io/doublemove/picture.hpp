// doublemove's picture for `gamebatch draw`: the declaration graph once the optimal play has
// declared everything, values on a circle, each declaration an edge numbered by its turn, and
// each component coloured by its kind (a tree, one cycle, more: every pick sequence ended).
#pragma once

#include <string>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/play.hpp"

namespace gamebatch::io::doublemove {

// The SVG picture (at most n = 67 values and 68 edges: a few kB).
std::string draw_play(const gamebatch::doublemove::Instance& instance);
// The picture of `play`, the case's optimal play (explain --svg: one solve for text and picture).
std::string draw_play(const gamebatch::doublemove::Instance& instance,
                      const gamebatch::doublemove::Play& play);

}  // namespace gamebatch::io::doublemove
