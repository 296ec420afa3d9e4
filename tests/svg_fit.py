#!/usr/bin/env python3
"""Whether an SVG picture of gamebatch's fits as a person sees it: every text inside the view box,
and no two texts overlapping. A text's box comes from each character's wider advance width of
DejaVu Sans (Debian's sans-serif) and Helvetica (the pictures ask for sans-serif), its height from
the font size: 0.8 of it above the baseline, 0.25 below.

Used by docs_pictures_test.py; run alone: svg_fit.py FILE.svg... (exit 1 when one does not fit).
"""
import html
import re
import sys

# Advance widths in 1/1000 em, characters 32 (space) to 126 (~): each the wider of DejaVu Sans
# (Debian's sans-serif, from its hmtx table) and Helvetica (its AFM; Arial's are the same). The
# same table as io/picture/svg.hpp's text_width.
WIDTHS = [
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,  # space../
    636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 556,  # 0..?
    1015, 684, 686, 722, 770, 667, 611, 778, 752, 295, 500, 667, 557, 863, 748, 787,  # @..O
    667, 787, 722, 667, 611, 732, 684, 989, 685, 667, 685, 390, 337, 390, 838, 556,  # P.._
    500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,  # `..o
    635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,  # p..~
]
ASCENT, DESCENT = 0.8, 0.25
# Two texts may touch: boxes overlapping by less than this (pixels) are not counted.
TOLERANCE = 0.5

TEXT = re.compile(r"<text\b([^>]*)>(.*?)</text>", re.S)
ATTRIBUTE = re.compile(r'([a-z-]+)="([^"]*)"')


def text_width(content, size):
    """The advance width of `content` at font size `size`, in pixels (1000 for a character
    outside printable ASCII: no glyph of this table is wider)."""
    return size * sum(WIDTHS[ord(c) - 32] if 32 <= ord(c) <= 126 else 1000
                      for c in content) / 1000.0


def text_boxes(svg):
    """(left, top, right, bottom, content) of every <text> element."""
    boxes = []
    for attributes, content in TEXT.findall(svg):
        found = dict(ATTRIBUTE.findall(attributes))
        content = html.unescape(re.sub(r"<[^>]+>", "", content))
        if not content.strip():
            continue
        x, y = float(found.get("x", 0)), float(found.get("y", 0))
        size = float(found.get("font-size", 16))
        width = text_width(content, size)
        anchor = found.get("text-anchor", "start")
        left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
        boxes.append((left, y - ASCENT * size, left + width, y + DESCENT * size, content))
    return boxes


def view_box(svg):
    found = re.search(r'viewBox="([-\d. ]+)"', svg)
    if not found:
        return None
    x, y, width, height = (float(value) for value in found.group(1).split())
    return x, y, x + width, y + height


def problems_of(svg):
    """What does not fit: texts outside the view box and pairs of texts that overlap."""
    problems = []
    box = view_box(svg)
    boxes = text_boxes(svg)
    if box is None:
        return ["no viewBox"]
    for left, top, right, bottom, content in boxes:
        if left < box[0] - TOLERANCE or top < box[1] - TOLERANCE or \
                right > box[2] + TOLERANCE or bottom > box[3] + TOLERANCE:
            problems.append(f"text {content!r} ({left:.1f}, {top:.1f})-({right:.1f}, "
                            f"{bottom:.1f}) leaves the view box {box}")
    # Sorted by left edge: a text is compared with those that start before it ends.
    ordered = sorted(boxes)
    for i, first in enumerate(ordered):
        for second in ordered[i + 1:]:
            if second[0] >= first[2] - TOLERANCE:
                break
            if min(first[3], second[3]) - max(first[1], second[1]) > TOLERANCE and \
                    min(first[2], second[2]) - max(first[0], second[0]) > TOLERANCE:
                problems.append(f"texts {first[4]!r} and {second[4]!r} overlap at "
                                f"({max(first[0], second[0]):.1f}, {max(first[1], second[1]):.1f})")
    return problems


def main():
    failed = False
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as picture:
            for problem in problems_of(picture.read()):
                print(f"{path}: {problem}")
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
