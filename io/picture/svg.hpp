// io/picture: the room of the games' pictures' drawing primitives. Its theory of operation.
//
// What it is for. `gamebatch draw` and `explain --svg` draw a case and its optimal play as an SVG
// picture for a statement or an editorial; each game draws its own (io/GAME/picture.cpp) with
// the elements of svg.hpp (this file, the room's one public header), written as text: the
// document with its view box, lines, polylines, circles, rectangles, text and style rules, its
// numbers with two decimals at most and every text escaped; and the width and box of a text
// (text_width, TextBox), so that a picture can make its canvas wide enough for its titles and
// keep its labels apart (what a person sees: tests/svg_fit.py checks every picture by them).
//
// What it must never depend on: the other rooms of io/ (it knows no game), pipeline/, tools/. It is
// the standard library only.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace gamebatch::io {

// The advance width of `content` at font size `size`, in pixels, for any common sans-serif face
// (the pictures ask for sans-serif): each character's wider of DejaVu Sans (Debian's) and
// Helvetica (Arial's are the same), 1 em for a byte outside printable ASCII. A picture sizes its
// canvas and places its labels by it, and the test that every text fits (tests/svg_fit.py)
// measures with the same table.
inline double text_width(std::string_view content, double size) {
  static constexpr unsigned short kWidths[95] = {
      318,  401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,  // space../
      636,  636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 556,  // 0..?
      1015, 684, 686, 722, 770, 667, 611, 778, 752, 295, 500, 667, 557, 863, 748, 787,  // @..O
      667,  787, 722, 667, 611, 732, 684, 989, 685, 667, 685, 390, 337, 390, 838, 556,  // P.._
      500,  613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,  // `..o
      635,  635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838};  // p..~      //
                                                                                    // p..~
  double thousandths = 0;
  for (const char c : content) {
    const auto code = static_cast<unsigned char>(c);
    thousandths += code >= 32 && code <= 126 ? kWidths[code - 32] : 1000;
  }
  return size * thousandths / 1000;
}

// A text's box as text_width and the font's height give it: 0.8 of the size above the baseline,
// 0.25 below.
struct TextBox {
  double left = 0, top = 0, right = 0, bottom = 0;

  TextBox(double x, double y, double size, std::string_view content,
          std::string_view anchor = "middle") {
    const double width = text_width(content, size);
    left = anchor == "middle" ? x - width / 2 : anchor == "end" ? x - width : x;
    right = left + width;
    top = y - 0.8 * size;
    bottom = y + 0.25 * size;
  }
  bool overlaps(const TextBox& other) const {
    return left < other.right && other.left < right && top < other.bottom && other.top < bottom;
  }
  // Whether it meets the disc of radius r round (x, y) (a node of a graph, say).
  bool meets_disc(double x, double y, double r) const {
    const double nearest_x = x < left ? left : x > right ? right : x;
    const double nearest_y = y < top ? top : y > bottom ? bottom : y;
    return (nearest_x - x) * (nearest_x - x) + (nearest_y - y) * (nearest_y - y) < r * r;
  }
};

class Svg {
 public:
  Svg(double width, double height) {
    text_ =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" ";
    text_ += "width=\"" + number(width) + "\" height=\"" + number(height) + "\" viewBox=\"0 0 " +
             number(width) + " " + number(height) + "\" font-family=\"sans-serif\">\n";
    text_ += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  }

  static std::string number(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", value);
    std::string text(buffer);
    while (text.back() == '0')
      text.pop_back();
    if (text.back() == '.')
      text.pop_back();
    return text == "-0" ? "0" : text;
  }
  static std::string escaped(std::string_view raw) {
    std::string text;
    for (const char c : raw) {
      switch (c) {
        case '&':
          text += "&amp;";
          break;
        case '<':
          text += "&lt;";
          break;
        case '>':
          text += "&gt;";
          break;
        case '"':
          text += "&quot;";
          break;
        default:
          text += c;
      }
    }
    return text;
  }

  void line(double x1, double y1, double x2, double y2, std::string_view stroke, double width,
            std::string_view extra = "") {
    text_ += "<line x1=\"" + number(x1) + "\" y1=\"" + number(y1) + "\" x2=\"" + number(x2) +
             "\" y2=\"" + number(y2) + "\" stroke=\"" + std::string(stroke) + "\" stroke-width=\"" +
             number(width) + "\"" + std::string(extra) + "/>\n";
  }
  void circle(double x, double y, double r, std::string_view fill, std::string_view stroke) {
    text_ += "<circle cx=\"" + number(x) + "\" cy=\"" + number(y) + "\" r=\"" + number(r) +
             "\" fill=\"" + std::string(fill) + "\" stroke=\"" + std::string(stroke) + "\"/>\n";
  }
  void rect(double x, double y, double w, double h, std::string_view fill,
            std::string_view stroke = "none") {
    text_ += "<rect x=\"" + number(x) + "\" y=\"" + number(y) + "\" width=\"" + number(w) +
             "\" height=\"" + number(h) + "\" fill=\"" + std::string(fill) + "\" stroke=\"" +
             std::string(stroke) + "\"/>\n";
  }
  // `extra`: more attributes, each with its leading space (a class of style()'s rules).
  void text(double x, double y, double size, std::string_view content,
            std::string_view fill = "black", std::string_view anchor = "middle",
            std::string_view extra = "") {
    text_ += "<text x=\"" + number(x) + "\" y=\"" + number(y) + "\" font-size=\"" + number(size) +
             "\" fill=\"" + std::string(fill) + "\" text-anchor=\"" + std::string(anchor) + "\"" +
             std::string(extra) + ">" + escaped(content) + "</text>\n";
  }
  // CSS rules for the whole picture (rules shared by many elements cost their bytes once).
  void style(std::string_view rules) { text_ += "<style>" + std::string(rules) + "</style>\n"; }
  // A polyline through "x,y x,y ..." points.
  void polyline(const std::string& points, std::string_view stroke, double width) {
    text_ += "<polyline points=\"" + points + "\" fill=\"none\" stroke=\"" + std::string(stroke) +
             "\" stroke-width=\"" + number(width) + "\" stroke-linejoin=\"round\"/>\n";
  }

  std::string finish() { return text_ + "</svg>\n"; }

 private:
  std::string text_;
};

}  // namespace gamebatch::io
