#!/usr/bin/env python3
"""The figures the README and docs/performance.md both give agree: every row of the README's
performance table is in docs/performance.md's with the same target and the same measured figures,
and the README's rows speak to users (no commit hashes, issue numbers or internal names).

Usage: docs_figures_test.py REPOSITORY_ROOT
"""
import os
import re
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
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"docs_figures: {len(readme)} README rows agree with docs/performance.md")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
