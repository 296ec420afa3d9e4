#!/usr/bin/env python3
"""Every picture gamebatch draws fits as a person sees it (svg_fit.py: every text inside the view
box, no two texts overlapping): the manual's pictures in docs/games/, and `gamebatch draw` of each
game's smallest and largest cases that `gen` makes, in the shapes most crowded for a picture. And
where Chromium is installed, four of the manual's pictures rendered by it: nothing drawn outside
the picture's bounds.

Usage: docs_pictures_test.py REPOSITORY_ROOT GAMEBATCH
"""
import glob
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import svg_fit  # noqa: E402

# (game, gen options): one case each, drawn whole.
CASES = [
    ("willow", ["--cities", "2"]),
    ("willow", ["--cities", "50", "--shape", "caterpillar"]),
    ("willow", ["--cities", "4000", "--shape", "random"]),
    ("willow", ["--cities", "100000", "--shape", "caterpillar"]),
    ("doublemove", ["--n", "1", "--k", "2", "--pattern", "loops"]),
    ("doublemove", ["--n", "4", "--k", "5", "--pattern", "repeats"]),
    ("doublemove", ["--n", "12", "--k", "0"]),
    ("doublemove", ["--n", "35", "--k", "36", "--pattern", "loops"]),
    ("doublemove", ["--n", "35", "--k", "30", "--pattern", "repeats"]),
    ("wallgame", ["--height", "2", "--width", "1"]),
    ("wallgame", ["--height", "50", "--width", "50"]),
    ("wallgame", ["--height", "300", "--width", "300"]),
    ("boigame", ["--size", "2"]),
    ("boigame", ["--size", "300", "--shape", "open"]),
    ("boigame", ["--size", "2000", "--shape", "open"]),
]


def png_pixels(data):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, chunks, width, height, kind = 8, b"", 0, 0, 0
    while position < len(data):
        length = struct.unpack(">I", data[position:position + 4])[0]
        name = data[position + 4:position + 8]
        body = data[position + 8:position + 8 + length]
        if name == b"IHDR":
            width, height, depth, kind = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and kind in (2, 6), f"PNG of depth {depth}, colour type {kind}"
        elif name == b"IDAT":
            chunks += body
        position += 12 + length
    channels = 3 if kind == 2 else 4
    raw = zlib.decompress(chunks)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind_of_filter = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind_of_filter == 1:
                line[x] = (line[x] + left) & 255
            elif kind_of_filter == 2:
                line[x] = (line[x] + up) & 255
            elif kind_of_filter == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind_of_filter == 4:
                estimate = left + up - corner
                best = min((abs(estimate - left), 0, left), (abs(estimate - up), 1, up),
                           (abs(estimate - corner), 2, corner))[2]
                line[x] = (line[x] + best) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
        previous = line
    return width, height, rows


def rendered_outside(chromium, svg_path, scratch):
    """Whether Chromium draws anything of the picture outside its own bounds: the picture inline
    in a page, nothing clipped, 40 px of white round it; the bounding box of the pixels that are
    not white must lie within the picture's."""
    with open(svg_path, encoding="utf-8") as picture:
        svg = picture.read()
    box = svg_fit.view_box(svg)
    width, height = box[2] - box[0], box[3] - box[1]
    svg = re.sub(r"<\?xml[^>]*\?>", "", svg).replace("<svg ", '<svg style="overflow:visible" ', 1)
    page = os.path.join(scratch, os.path.basename(svg_path) + ".html")
    with open(page, "w", encoding="utf-8") as html:
        html.write('<!DOCTYPE html><html><body style="margin:40px;background:white">'
                   f'<div style="width:{width}px;height:{height}px">{svg}</div></body></html>')
    png = page + ".png"
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-dev-shm-usage", "--hide-scrollbars",
                    "--user-data-dir=" + os.path.join(scratch, "profile"), "--screenshot=" + png,
                    f"--window-size={int(width) + 80},{int(height) + 80}", "file://" + page],
                   check=True, capture_output=True, timeout=120)
    with open(png, "rb") as image:
        _, _, rows = png_pixels(image.read())
    outside = []
    for y, row in enumerate(rows):
        for x, pixel in enumerate(row):
            if min(pixel) < 200 and not (39 <= x <= 41 + width and 39 <= y <= 41 + height):
                outside.append((x - 40, y - 40))
    return outside[:3]


def main():
    root, binary = sys.argv[1], sys.argv[2]
    failures = []
    for path in sorted(glob.glob(os.path.join(root, "docs", "games", "*.svg"))):
        with open(path, encoding="utf-8") as picture:
            failures += [f"{os.path.relpath(path, root)}: {problem}"
                         for problem in svg_fit.problems_of(picture.read())]
    drawn = 0
    with tempfile.TemporaryDirectory() as scratch:
        for number, (game, options) in enumerate(CASES):
            folder = os.path.join(scratch, str(number))
            subprocess.run([binary, "gen", game, "--count", "1", "--cases-per-file", "1", "--seed",
                            str(number + 1),
                            "--out", folder] + options, check=True, capture_output=True)
            case = glob.glob(os.path.join(folder, "*.in"))[0]
            picture = os.path.join(scratch, f"{number}.svg")
            subprocess.run([binary, "draw", "-p", game, case, "-o", picture], check=True,
                           capture_output=True)
            drawn += 1
            with open(picture, encoding="utf-8") as text:
                problems = svg_fit.problems_of(text.read())
            failures += [f"gamebatch draw of gen {game} {' '.join(options)}: {problem}"
                         for problem in problems[:5]]
    # As a person sees them: a few pictures rendered by Chromium, where it is installed.
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    rendered = 0
    if chromium:
        with tempfile.TemporaryDirectory() as scratch:
            for name in ("doublemove-examples-4.svg", "wallgame-examples-2.svg",
                         "willow-sample-3.svg", "boigame-sample-1.svg"):
                outside = rendered_outside(chromium, os.path.join(root, "docs", "games", name),
                                           scratch)
                rendered += 1
                if outside:
                    failures.append(f"docs/games/{name}: Chromium draws outside the picture, at "
                                    f"{outside} (x, y from its top left)")
    else:
        print("docs_pictures: no Chromium here: the rendered pictures are not checked")
    for failure in failures:
        print(failure, file=sys.stderr)
    if not failures:
        print(f"docs_pictures: the manual's pictures and {drawn} drawn cases fit; {rendered} "
              f"rendered by Chromium stay within their bounds")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
