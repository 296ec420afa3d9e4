#!/usr/bin/env python3
"""The figures the README and docs/performance.md both give agree: every row of the README's
performance table is in docs/performance.md's with the same target and the same measured figures,
and the README's rows speak to users (no commit hashes, issue numbers or internal names). And no
user text (README.md, docs/*.md) names an issue number or a commit of this repository (a
hexadecimal word that git resolves to one of its commits; other projects' commits may be named).

Usage: docs_figures_test.py REPOSITORY_ROOT
"""
import glob
import os
import re
import subprocess
import sys


def performance_rows(path, heading=None):
    """The rows (benchmark -> (target, measured)) of the first table after `heading` (or the
    first table of the file), as Markdown pipes split them."""
    rows = {}
    inside = heading is None
    in_table = False
    with open(path, encoding="utf-8") as text:
        for number, line in enumerate(text, 1):
            if heading is not None and line.startswith("## "):
                inside = line.strip() == heading
                continue
            if not inside:
                continue
            if line.startswith("| benchmark |"):
                in_table = True
                continue
            if in_table and line.startswith("|---"):
                continue
            if in_table and line.startswith("| "):
                cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
                if len(cells) == 3:
                    rows[cells[0]] = (cells[1], cells[2], number)
                continue
            if in_table:
                return rows
    return rows


def our_commit(root, word):
    """Whether `word` names a commit of the repository at `root` (False outside a git checkout)."""
    try:
        found = subprocess.run(["git", "-C", root, "rev-parse", "--verify", "-q", word + "^{commit}"],
                               capture_output=True, check=False)
    except OSError:
        return False
    return found.returncode == 0


def developer_words(root):
    """Issue numbers and this repository's commit hashes in the README and the manual."""
    problems = []
    texts = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    for path in texts:
        name = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as text:
            for number, line in enumerate(text, 1):
                for match in re.finditer(r"\b(issues?|PR|pull request) #?\d+\b", line, re.IGNORECASE):
                    problems.append(f"{name}:{number}: names an issue number ({match.group(0)!r}): "
                                    f"user text speaks of what the program does")
                for match in re.finditer(r"\b[0-9a-f]{7,40}\b", line):
                    word = match.group(0)
                    if re.search(r"[a-f]", word) and re.search(r"[0-9]", word) and \
                            our_commit(root, word):
                        problems.append(f"{name}:{number}: names this repository's commit {word}")
    return problems


def main():
    root = sys.argv[1]
    readme = performance_rows(os.path.join(root, "README.md"), "## Performance")
    manual = performance_rows(os.path.join(root, "docs", "performance.md"))
    problems = []
    if not readme:
        problems.append("README.md: no performance table under '## Performance'")
    for benchmark, (target, measured, line) in readme.items():
        if benchmark not in manual:
            problems.append(f"README.md:{line}: '{benchmark}' is not a row of docs/performance.md")
            continue
        if manual[benchmark][:2] != (target, measured):
            problems.append(f"README.md:{line}: '{benchmark}' says {target!r} / {measured!r}, "
                            f"docs/performance.md:{manual[benchmark][2]} says "
                            f"{manual[benchmark][0]!r} / {manual[benchmark][1]!r}")
        for pattern, what in ((r"\bmain [0-9a-f]{7}\b", "a commit hash"),
                              (r"\bissue \d+", "an issue number"), (r"\bthe walk\b", "'the walk'")):
            if re.search(pattern, benchmark + target + measured):
                problems.append(f"README.md:{line}: '{benchmark}' names {what}; the README "
                                f"speaks to users")
    problems += developer_words(root)
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"docs_figures: {len(readme)} README rows agree with docs/performance.md")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
