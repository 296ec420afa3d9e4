// willow's picture for `gamebatch draw`: the tree in a tidy layout, coins on the cities, A's and
// B's routes of the optimal play in two colours, each walk numbered in turn order.
#pragma once

#include <cstdint>
#include <string>

#include "core/willow/play.hpp"
#include "core/willow/willow.hpp"

namespace gamebatch::io::willow {

// At most this many cities are drawn: all of a smaller tree; of a larger one the path between
// the starts, the routes and then their neighbours, in that order, until the bound (a city with
// roads left out shows how many). A picture that still passes kMaxPictureBytes (long routes,
// each walk drawn) is drawn again with a third fewer cities until it fits.
inline constexpr std::int32_t kMaxDrawnCities = 3000;
inline constexpr std::size_t kMaxPictureBytes = std::size_t{1} << 20;

// The SVG picture of the case's optimal play (core/willow/play.hpp). Throws as optimal_play does.
std::string draw_play(const gamebatch::willow::Instance& instance);
// The picture of `play`, the case's optimal play (explain --svg: one solve for text and picture).
std::string draw_play(const gamebatch::willow::Instance& instance,
                      const gamebatch::willow::Play& play);

}  // namespace gamebatch::io::willow
