// Values on a circle: with n <= 67 every edge stays readable without a layout engine. The canvas
// is as wide as the circle or the widest title line; edges declared more than once between the
// same two values bend apart, loops on one value fan out from the circle, and each edge's number
// goes to the first of its candidate places that meets no other number and no value's disc.
#include "io/doublemove/picture.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

#include "core/doublemove/play.hpp"
#include "io/picture/svg.hpp"

namespace gamebatch::io::doublemove {
namespace {

constexpr double kMargin = 20;
constexpr double kNodeRadius = 11;
constexpr double kLabelSize = 11;
constexpr double kTitleSize = 14;
constexpr double kLegendSize = 12;

struct Point {
  double x = 0, y = 0;
};

// The numbers placed so far and the values' discs, which a number must not meet.
class LabelPlacer {
 public:
  LabelPlacer(std::vector<Point> nodes, double width, double height)
      : nodes_(std::move(nodes)), width_(width), height_(height) {}

  // The first of `candidates` (centres of the number) where `text` meets nothing; the first
  // candidate where every one does.
  Point place(const std::vector<Point>& candidates, const std::string& text) {
    for (const Point& candidate : candidates) {
      const TextBox box(candidate.x, candidate.y, kLabelSize, text);
      if (fits(box)) {
        placed_.push_back(box);
        return candidate;
      }
    }
    placed_.emplace_back(candidates.front().x, candidates.front().y, kLabelSize, text);
    return candidates.front();
  }

 private:
  bool fits(const TextBox& box) const {
    if (box.left < 0 || box.top < 0 || box.right > width_ || box.bottom > height_)
      return false;
    for (const Point& node : nodes_) {
      if (box.meets_disc(node.x, node.y, kNodeRadius + 1))
        return false;
    }
    return std::none_of(placed_.begin(), placed_.end(),
                        [&box](const TextBox& other) { return box.overlaps(other); });
  }

  std::vector<Point> nodes_;
  double width_, height_;
  std::vector<TextBox> placed_;
};

// Places along the route a -> bend -> b and beside it, the middle first.
std::vector<Point> edge_label_places(Point a, Point bend, Point b) {
  std::vector<Point> places;
  const auto along = [&](double t) {
    // The route's two halves: a -> bend for t <= 0.5, bend -> b after.
    if (t <= 0.5)
      return Point{a.x + (bend.x - a.x) * 2 * t, a.y + (bend.y - a.y) * 2 * t};
    return Point{bend.x + (b.x - bend.x) * (2 * t - 1), bend.y + (b.y - bend.y) * (2 * t - 1)};
  };
  const double length = std::hypot(b.x - a.x, b.y - a.y);
  const Point normal =
      length > 0 ? Point{-(b.y - a.y) / length, (b.x - a.x) / length} : Point{0, 1};
  for (const double t : {0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78}) {
    const Point on = along(t);
    for (const double side : {9.0, -9.0, 16.0, -16.0})
      places.push_back({on.x + side * normal.x, on.y + side * normal.y + 4});
  }
  return places;
}

}  // namespace

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

  const std::vector<std::string> titles = {
      "doublemove n = " + std::to_string(all.n) + ": answer " + game::to_decimal(play.value),
      "edges numbered by turn (given: grey, Alice: red, Bob: blue)"};
  const std::string legend = "components: tree green, one cycle orange, two cycles or more purple";
  double title_width = text_width(legend, kLegendSize);
  for (const std::string& title : titles)
    title_width = std::max(title_width, text_width(title, kTitleSize));
  const double radius = 60 + 9.0 * all.n;
  const double top = 80;  // below the titles and the legend
  const double width = std::max(2 * (radius + 70), 2 * kMargin + title_width);
  const double height = top + 2 * (radius + 70);
  const Point centre{width / 2, top + radius + 70};
  const auto angle = [&](int v) { return 2 * M_PI * (v - 1) / all.n - M_PI / 2; };
  const auto at = [&](int v) {
    return Point{centre.x + radius * std::cos(angle(v)), centre.y + radius * std::sin(angle(v))};
  };

  Svg svg(width, height);
  svg.text(kMargin, 24, kTitleSize, titles[0], "black", "start");
  svg.text(kMargin, 44, kTitleSize, titles[1], "black", "start");
  svg.text(kMargin, 62, kLegendSize, legend, "#444", "start");
  std::vector<Point> nodes;
  for (int v = 1; v <= all.n; ++v)
    nodes.push_back(at(v));
  LabelPlacer labels(nodes, width, height);

  // How many times each pair is declared, and which of those each declaration is.
  std::map<std::pair<int, int>, int> declared;
  std::vector<std::pair<int, int>> copy_of(all.declarations.size());
  for (std::size_t k = 0; k < all.declarations.size(); ++k) {
    const auto [a, b] = all.declarations[k];
    const std::pair<int, int> key{std::min(a, b), std::max(a, b)};
    copy_of[k] = {declared[key]++, 0};
  }
  for (std::size_t k = 0; k < all.declarations.size(); ++k) {
    const auto [a, b] = all.declarations[k];
    copy_of[k].second = declared[{std::min(a, b), std::max(a, b)}];
  }
  for (std::size_t k = 0; k < all.declarations.size(); ++k) {
    const auto [a, b] = all.declarations[k];
    const bool given = k < instance.declarations.size();
    const char* colour = given ? "#888" : k % 2 == 0 ? "#c0392b" : "#2c5fb3";
    const std::string number = std::to_string(k + 1);
    // The copy's offset from the middle of its pair's fan: 0 for a pair declared once.
    const double spread = copy_of[k].first - (copy_of[k].second - 1) / 2.0;
    if (a == b) {
      // A loop: a small circle outside the value, turned by its place in the fan.
      const double direction = angle(a) + 1.1 * spread;
      const Point loop{at(a).x + 20 * std::cos(direction), at(a).y + 20 * std::sin(direction)};
      svg.circle(loop.x, loop.y, 10, "none", colour);
      std::vector<Point> places;
      for (const double distance : {40.0, 50.0, 60.0}) {
        for (const double turn : {0.0, 0.3, -0.3}) {
          places.push_back({at(a).x + distance * std::cos(direction + turn),
                            at(a).y + distance * std::sin(direction + turn) + 4});
        }
      }
      const Point place = labels.place(places, number);
      svg.text(place.x, place.y, kLabelSize, number, colour);
      continue;
    }
    const Point from = at(a), to = at(b);
    const double length = std::hypot(to.x - from.x, to.y - from.y);
    const Point middle{(from.x + to.x) / 2 - 30 * spread * (to.y - from.y) / length,
                       (from.y + to.y) / 2 + 30 * spread * (to.x - from.x) / length};
    if (spread == 0) {
      svg.line(from.x, from.y, to.x, to.y, colour, 2);
    } else {
      svg.polyline(Svg::number(from.x) + "," + Svg::number(from.y) + " " + Svg::number(middle.x) +
                       "," + Svg::number(middle.y) + " " + Svg::number(to.x) + "," +
                       Svg::number(to.y),
                   colour, 2);
    }
    const Point place = labels.place(edge_label_places(from, middle, to), number);
    svg.text(place.x, place.y, kLabelSize, number, colour);
  }
  for (int v = 1; v <= all.n; ++v) {
    const std::size_t r = find(static_cast<std::size_t>(v - 1));
    const int cycles = edges[r] - vertices[r] + 1;
    svg.circle(at(v).x, at(v).y, kNodeRadius,
               cycles == 0   ? "#cdeccd"
               : cycles == 1 ? "#fde2b8"
                             : "#e3cdf0",
               "#444");
    svg.text(at(v).x, at(v).y + 4, 10, std::to_string(v));
  }
  return svg.finish();
}

}  // namespace gamebatch::io::doublemove
