#!/usr/bin/env python3
"""docs/games.md's samples are what gamebatch makes today: each committed picture under
docs/games/ is byte for byte what `gamebatch draw` writes for its sample, and each explained play
in docs/games.md is what `gamebatch explain` prints for it. The same for the smallest
counterexample of every wrong idea of test strength (tests/data/strength/ideas/GAME-IDEA.in,
drawn as docs/games/idea-GAME-IDEA.svg; tests/strength/wrong_ideas_test.cpp checks that each is
the idea's shrunk counterexample).

Usage: docs_games_test.py REPOSITORY_ROOT GAMEBATCH_BINARY
"""
import os
import re
import subprocess
import sys
import tempfile

SAMPLES = [  # game, input under tests/data, case, picture under docs/games
    ("willow", "willow/sample.in", 3, "willow-sample-3.svg"),
    ("doublemove", "doublemove/examples.in", 4, "doublemove-examples-4.svg"),
    ("wallgame", "wallgame/examples.in", 2, "wallgame-examples-2.svg"),
    ("boigame", "boigame/sample.in", 1, "boigame-sample-1.svg"),
]


def idea_samples(root):
    """The wrong ideas' counterexamples, as SAMPLES' rows."""
    folder = os.path.join(root, "tests", "data", "strength", "ideas")
    rows = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".in"):
            game = name.split("-", 1)[0]
            rows.append((game, "strength/ideas/" + name, 1, "idea-" + name[:-3] + ".svg"))
    return rows


def main():
    root, binary = sys.argv[1], os.path.abspath(sys.argv[2])
    with open(os.path.join(root, "docs", "games.md"), encoding="utf-8") as chapter:
        text = chapter.read()
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        for game, data, case, picture in SAMPLES + idea_samples(root):
            data_path = os.path.join(root, "tests", "data", data)
            drawn = os.path.join(scratch, picture)
            subprocess.run([binary, "draw", "-p", game, data_path, "--case", str(case), "-o", drawn],
                           check=True)
            with open(drawn, "rb") as made, open(os.path.join(root, "docs", "games", picture),
                                                 "rb") as committed:
                if made.read() != committed.read():
                    failures.append(f"docs/games/{picture} is not what gamebatch draw makes today "
                                    f"(gamebatch draw -p {game} tests/data/{data} --case {case} "
                                    f"-o docs/games/{picture})")
            if f"![" not in text or f"(games/{picture})" not in text:
                failures.append(f"docs/games.md does not show games/{picture}")
            play = subprocess.run([binary, "explain", "-p", game, data_path, "--case", str(case)],
                                  check=True, capture_output=True, text=True).stdout
            if "```\n" + play + "```" not in text:
                failures.append(f"docs/games.md's play of {game} case {case} is not what "
                                f"gamebatch explain prints today")
    # Every draw command the chapter shows runs as written (from the repository root).
    for command in re.findall(r"`(gamebatch draw [^`]+)`", text):
        arguments = [os.path.abspath(os.path.join(root, word))
                     if os.path.exists(os.path.join(root, word)) else word
                     for word in command.split()[1:]]
        with tempfile.TemporaryDirectory() as scratch:  # the picture is written there
            done = subprocess.run([binary] + arguments, cwd=scratch, capture_output=True, text=True)
        if done.returncode != 0:
            failures.append(f"docs/games.md's `{command}` fails: {done.stderr.strip()}")
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
