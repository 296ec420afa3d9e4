// Values on a circle: with n <= 67 every edge stays readable without a layout engine.
#include "io/doublemove/picture.hpp"

#include <cmath>
#include <numeric>
#include <vector>

#include "core/doublemove/play.hpp"
#include "io/picture/svg.hpp"

namespace gamebatch::io::doublemove {

std::string draw_play(const gamebatch::doublemove::Instance& instance) {
  return draw_play(instance, gamebatch::doublemove::optimal_play(instance));
}

std::string draw_play(const gamebatch::doublemove::Instance& instance,
                      const gamebatch::doublemove::Play& play) {
  namespace game = gamebatch::doublemove;
  game::Instance all = instance;
  for (const game::PlayedDeclaration& move : play.declarations)
    all.declarations.push_back(move.pair);
  // Components and their edge counts, by union-find.
  const auto n = static_cast<std::size_t>(all.n);
  std::vector<std::size_t> root(n);
  std::iota(root.begin(), root.end(), std::size_t{0});
  auto find = [&root](std::size_t v) {
    while (root[v] != v)
      v = root[v] = root[root[v]];
    return v;
  };
  std::vector<int> vertices(n, 1), edges(n, 0);
  for (const game::Declaration& pair : all.declarations) {
    const std::size_t a = find(static_cast<std::size_t>(pair.a - 1));
    const std::size_t b = find(static_cast<std::size_t>(pair.b - 1));
    ++edges[a];
    if (a != b) {
      root[b] = a;
      vertices[a] += vertices[b];
      edges[a] += edges[b];
    }
  }
  const double radius = 60 + 9.0 * all.n;
  const double centre = radius + 70;
  auto x = [&](int v) { return centre + radius * std::cos(2 * M_PI * (v - 1) / all.n - M_PI / 2); };
  auto y = [&](int v) {
    return centre + 30 + radius * std::sin(2 * M_PI * (v - 1) / all.n - M_PI / 2);
  };
  Svg svg(2 * centre, 2 * centre + 60);
  svg.text(20, 24, 14,
           "doublemove n = " + std::to_string(all.n) + ": answer " + game::to_decimal(play.value) +
               "; edges numbered by turn (given: grey, Alice: red, Bob: blue)",
           "black", "start");
  svg.text(20, 44, 12, "components: tree green, one cycle orange, two cycles or more purple",
           "#444", "start");
  for (std::size_t k = 0; k < all.declarations.size(); ++k) {
    const auto [a, b] = all.declarations[k];
    const bool given = k < instance.declarations.size();
    const char* colour = given ? "#888" : k % 2 == 0 ? "#c0392b" : "#2c5fb3";
    if (a == b) {
      svg.circle(x(a) + 14 * std::cos(0.3 * static_cast<double>(k)), y(a) - 14, 12, "none", colour);
    } else {
      svg.line(x(a), y(a), x(b), y(b), colour, 2);
    }
    svg.text((x(a) + x(b)) / 2 + 4, (y(a) + y(b)) / 2 - 4 - (a == b ? 26 : 0), 11,
             std::to_string(k + 1), colour, "start");
  }
  for (int v = 1; v <= all.n; ++v) {
    const std::size_t r = find(static_cast<std::size_t>(v - 1));
    const int cycles = edges[r] - vertices[r] + 1;
    svg.circle(x(v), y(v), 11,
               cycles == 0   ? "#cdeccd"
               : cycles == 1 ? "#fde2b8"
                             : "#e3cdf0",
               "#444");
    svg.text(x(v), y(v) + 4, 10, std::to_string(v));
  }
  return svg.finish();
}

}  // namespace gamebatch::io::doublemove
