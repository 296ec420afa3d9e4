#!/usr/bin/env python3
"""Every picture gamebatch draws fits as a person sees it (svg_fit.py: every text inside the view
box, no two texts overlapping): the manual's pictures in docs/games/, and `gamebatch draw` of each
game's smallest and largest cases that `gen` makes, in the shapes most crowded for a picture.

Usage: docs_pictures_test.py REPOSITORY_ROOT GAMEBATCH
"""
import glob
import os
import subprocess
import sys
import tempfile

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
    ("boigame", ["--size", "2"]),
    ("boigame", ["--size", "300", "--shape", "open"]),
    ("boigame", ["--size", "2000", "--shape", "open"]),
]


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
    for failure in failures:
        print(failure, file=sys.stderr)
    if not failures:
        print(f"docs_pictures: the manual's pictures and {drawn} drawn cases fit")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
