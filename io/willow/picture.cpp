// The tidy layout: the drawn cities as a tree rooted on A's start, children in increasing
// number; each leaf gets the next column, each parent the middle of its first and last child's
// columns, each city the row of its depth. O(cities), no recursion, no overlaps (subtrees occupy
// disjoint column ranges). Graphviz would place a small tree more compactly, but not 100,000
// cities in under a second, so the one layout serves every size.
#include "io/willow/picture.hpp"

#include <algorithm>
#include <vector>

#include "core/willow/play.hpp"
#include "io/picture/svg.hpp"

namespace gamebatch::io::willow {
namespace {

using gamebatch::willow::Instance;
using City = std::int32_t;

constexpr double kColumn = 40;
constexpr double kRow = 56;
constexpr double kMargin = 40;
constexpr double kTop = 70;
// A walk's number, from its road's middle: beside a straight road and a slanted one.
constexpr double kStraightStepGap = 5;
constexpr double kSlantedStepGap = 8;
// Texts that may lie over roads get a white outline (one CSS rule for all).
constexpr std::string_view kHalo = " class=\"h\"";
constexpr std::string_view kHaloRule = ".h{stroke:white;stroke-width:3px;paint-order:stroke}";
// The fewest cities a large tree is drawn with when its picture must shrink to fit its bound.
constexpr std::int32_t kFewestDrawnCities = 200;

struct Layout {
  std::vector<std::vector<City>> roads;  // each city's neighbours, sorted
  std::int32_t most_drawn = kMaxDrawnCities;
  std::vector<char> drawn;
  std::vector<City> parent;
  std::vector<double> x, y;
  double columns = 0;
  int depth = 0;
};

// Adds `city` to the drawn set unless full; returns whether it is drawn.
bool take(Layout& layout, City city, std::int32_t& count) {
  if (layout.drawn[static_cast<std::size_t>(city)] == 0 && count < layout.most_drawn) {
    layout.drawn[static_cast<std::size_t>(city)] = 1;
    ++count;
  }
  return layout.drawn[static_cast<std::size_t>(city)] != 0;
}

// The drawn cities: the path between the starts, the routes, their neighbours (see the header).
void choose_cities(Layout& layout, const gamebatch::willow::Play& play) {
  const auto n = layout.roads.size();
  layout.drawn.assign(n, 0);
  std::vector<City> from_a(n, -1);  // breadth first from A's start, for the path to B's
  std::vector<City> order{play.a_start};
  from_a[static_cast<std::size_t>(play.a_start)] = play.a_start;
  for (std::size_t k = 0; k < order.size(); ++k)
    for (const City w : layout.roads[static_cast<std::size_t>(order[k])])
      if (from_a[static_cast<std::size_t>(w)] < 0) {
        from_a[static_cast<std::size_t>(w)] = order[k];
        order.push_back(w);
      }
  std::vector<City> path{play.b_start};
  while (path.back() != play.a_start)
    path.push_back(from_a[static_cast<std::size_t>(path.back())]);
  std::int32_t count = 0;
  for (auto it = path.rbegin(); it != path.rend(); ++it)
    take(layout, *it, count);
  std::vector<City> core(path.begin(), path.end());
  for (const gamebatch::willow::Move& move : play.moves)
    if (take(layout, move.to, count))
      core.push_back(move.to);
  for (const City city : core)
    for (const City w : layout.roads[static_cast<std::size_t>(city)])
      take(layout, w, count);
  if (n <= static_cast<std::size_t>(layout.most_drawn))
    for (const City city : order)
      take(layout, city, count);
}

void place_cities(Layout& layout, City root) {
  const auto n = layout.roads.size();
  layout.parent.assign(n, -1);
  layout.x.assign(n, 0);
  layout.y.assign(n, 0);
  std::vector<City> order;
  std::vector<int> depth(n, 0);
  layout.parent[static_cast<std::size_t>(root)] = root;
  // Depth first, children in increasing number: a preorder whose reverse places parents last.
  std::vector<City> stack{root};
  while (!stack.empty()) {
    const City u = stack.back();
    stack.pop_back();
    order.push_back(u);
    const auto& near = layout.roads[static_cast<std::size_t>(u)];
    for (auto it = near.rbegin(); it != near.rend(); ++it) {
      const auto w = static_cast<std::size_t>(*it);
      if (layout.drawn[w] != 0 && layout.parent[w] < 0) {
        layout.parent[w] = u;
        depth[w] = depth[static_cast<std::size_t>(u)] + 1;
        stack.push_back(*it);
      }
    }
  }
  std::vector<int> children(n, 0);
  for (const City u : order)
    if (u != root)
      ++children[static_cast<std::size_t>(layout.parent[static_cast<std::size_t>(u)])];
  for (const City u : order) {  // the leaves, in preorder, take the columns left to right
    const auto k = static_cast<std::size_t>(u);
    layout.y[k] = kTop + kRow * depth[k];
    layout.depth = std::max(layout.depth, depth[k]);
    if (children[k] == 0)
      layout.x[k] = kMargin + kColumn * layout.columns++;
  }
  std::vector<double> first(n, 0), last(n, 0);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {  // children before parents
    const auto k = static_cast<std::size_t>(*it);
    if (children[k] > 0)
      layout.x[k] = (first[k] + last[k]) / 2;
    if (*it == root)
      continue;
    const auto p = static_cast<std::size_t>(layout.parent[k]);
    first[p] = layout.x[k];  // children come in decreasing order here: the last one is first
    if (last[p] == 0)
      last[p] = layout.x[k];
  }
}

void draw_cities(Svg& svg, const Layout& layout, const Instance& instance,
                 const gamebatch::willow::Play& play) {
  for (std::size_t v = 0; v < layout.roads.size(); ++v) {
    if (layout.drawn[v] == 0)
      continue;
    const bool a = static_cast<City>(v) == play.a_start;
    const bool b = static_cast<City>(v) == play.b_start;
    svg.circle(layout.x[v], layout.y[v], 10,
               a   ? "#fbd5d5"
               : b ? "#d5e0fb"
                   : "white",
               a   ? "#c0392b"
               : b ? "#2c5fb3"
                   : "#555");
    svg.text(layout.x[v], layout.y[v] + 4, 9, std::to_string(v + 1));
    svg.text(layout.x[v], layout.y[v] + 22, 9, std::to_string(instance.coins[v]), "#8a6d00",
             "middle", kHalo);
    const auto hidden = std::count_if(layout.roads[v].begin(), layout.roads[v].end(), [&](City w) {
      return layout.drawn[static_cast<std::size_t>(w)] == 0;
    });
    if (hidden > 0)
      svg.text(layout.x[v] + 13, layout.y[v] - 8, 8,
               std::string(1, '+').append(std::to_string(hidden)), "#888", "start");
  }
}

// A's and B's walks, then their numbers over them (a later road must not cover an earlier
// number).
void draw_walks(Svg& svg, const Layout& layout, const gamebatch::willow::Play& play) {
  const auto drawn = [&](const gamebatch::willow::Move& move) {
    return layout.drawn[static_cast<std::size_t>(move.from)] != 0 &&
           layout.drawn[static_cast<std::size_t>(move.to)] != 0;
  };
  const auto colour = [](const gamebatch::willow::Move& move) {
    return move.player == 'A' ? "#c0392b" : "#2c5fb3";
  };
  for (const gamebatch::willow::Move& move : play.moves) {
    const auto from = static_cast<std::size_t>(move.from);
    const auto to = static_cast<std::size_t>(move.to);
    if (drawn(move))
      svg.line(layout.x[from], layout.y[from], layout.x[to], layout.y[to], colour(move), 4);
  }
  for (std::size_t k = 0; k < play.moves.size(); ++k) {
    const auto& move = play.moves[k];
    if (!drawn(move))
      continue;
    const auto from = static_cast<std::size_t>(move.from);
    const auto to = static_cast<std::size_t>(move.to);
    // Beside the road's middle, on the side its lower end leans to (just right of a straight
    // road, below the coins written under the upper city), off the sibling roads.
    const bool from_is_upper = layout.y[from] < layout.y[to];
    const double lean = layout.x[from_is_upper ? to : from] - layout.x[from_is_upper ? from : to];
    const double gap = lean == 0 ? kStraightStepGap : kSlantedStepGap;
    svg.text((layout.x[from] + layout.x[to]) / 2 + (lean < 0 ? -gap : gap),
             (layout.y[from] + layout.y[to]) / 2 + 4, 10, std::to_string(k + 1), colour(move),
             lean < 0 ? "end" : "start", kHalo);
  }
}

// The picture with at most layout.most_drawn cities.
std::string draw_around_play(Layout& layout, const Instance& instance,
                             const gamebatch::willow::Play& play) {
  choose_cities(layout, play);
  place_cities(layout, play.a_start);
  Svg svg(std::max(2 * kMargin + kColumn * layout.columns, 640.0),
          kTop + kRow * (layout.depth + 1) + kMargin);
  svg.text(kMargin - 20, 24, 14,
           "willow: answer " + std::to_string(play.value) + " (A " +
               "red, B blue; walks numbered in turn order)",
           "black", "start");
  svg.style(kHaloRule);
  for (std::size_t v = 0; v < layout.roads.size(); ++v) {
    const auto p = static_cast<std::size_t>(layout.parent[v]);
    if (layout.drawn[v] != 0 && p != v)
      svg.line(layout.x[p], layout.y[p], layout.x[v], layout.y[v], "#bbb", 1.5);
  }
  draw_walks(svg, layout, play);
  draw_cities(svg, layout, instance, play);
  return svg.finish();
}

}  // namespace

std::string draw_play(const Instance& instance) {
  return draw_play(instance, gamebatch::willow::optimal_play(instance));
}

std::string draw_play(const Instance& instance, const gamebatch::willow::Play& play) {
  Layout layout;
  layout.roads.resize(instance.coins.size());
  for (const auto& [u, w] : instance.roads) {
    layout.roads[static_cast<std::size_t>(u)].push_back(w);
    layout.roads[static_cast<std::size_t>(w)].push_back(u);
  }
  for (auto& near : layout.roads)
    std::sort(near.begin(), near.end());
  // A city costs about 400 bytes and each drawn walk about 200 more, so long routes (a
  // caterpillar's spine) can pass the bound at kMaxDrawnCities: then fewer cities, drawn again.
  for (;;) {
    std::string picture = draw_around_play(layout, instance, play);
    if (picture.size() <= kMaxPictureBytes || layout.most_drawn <= kFewestDrawnCities)
      return picture;
    layout.most_drawn = std::max(kFewestDrawnCities, layout.most_drawn * 2 / 3);
    layout.columns = 0;
    layout.depth = 0;
  }
}

}  // namespace gamebatch::io::willow
