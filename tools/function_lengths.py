#!/usr/bin/env python3
"""How long the source tree's functions are, and whether any is too long to hold in mind.

    tools/function_lengths.py [SOURCE_DIR] [--max 120] [--max-tools 60] [--list N]

Measures every function, member function, constructor and operator defined in the .cpp and .hpp
files of core/, io/, pipeline/ and tools/, from its first line to its closing brace, as Universal
Ctags sees them (ctags --c++-kinds=f --fields=+ne: the tag's line: and end:). Lambdas (ctags names
them __anon...) are not measured on their own: their lines count inside the enclosing function.
tools/bench/ is left out: its benchmark drivers are not the command floor.

Rules: no function longer than --max lines (default 120) anywhere, and none longer than
--max-tools (default 60) in tools/, the command floor. A file in which ctags finds no function at
all but which has code that looks like a function body (a `{` after a `)`) is reported as
unparsed, so that ctags silently missing code does not pass for short functions.

Prints each breach as FILE:LINE: NAME is N lines (at most M), then a summary line; --list N
prints the N longest functions first. Exits 1 on any breach, 0 otherwise, and 2 when ctags is
missing or is not Universal Ctags (Debian's universal-ctags package).
"""
import argparse
import pathlib
import re
import shutil
import subprocess
import sys

FLOORS = ["core", "io", "pipeline", "tools"]
EXCLUDED = ["tools/bench"]  # benchmark drivers, not the command floor
STRICT_FLOOR = "tools"  # the command floor, held to --max-tools
# A `{` after a `)`: on the same line (`) {`, `) const {`, `) noexcept {`), or opening the next
# line after a line that ends with `)`.
BODY_ON_LINE = re.compile(r"\)\s*(?:const\s*|noexcept\s*|override\s*|final\s*|mutable\s*)*\{")
ENDS_WITH_PAREN = re.compile(r"\)\s*(?:const|noexcept|override|final|\s)*$")


def source_files(root):
    files = []
    for floor in FLOORS:
        for path in sorted((root / floor).rglob("*")):
            relative = path.relative_to(root).as_posix()
            if path.suffix not in (".cpp", ".hpp") or not path.is_file():
                continue
            if any(relative == ex or relative.startswith(ex + "/") for ex in EXCLUDED):
                continue
            files.append(relative)
    return files


def check_ctags():
    """The ctags program, or exits 2 saying why it cannot be used."""
    ctags = shutil.which("ctags")
    if ctags is None:
        print("function_lengths: ctags not found; install Universal Ctags "
              "(Debian: apt-get install universal-ctags, or tools/dev.sh build)", file=sys.stderr)
        sys.exit(2)
    try:
        version = subprocess.run([ctags, "--version"], capture_output=True, text=True).stdout
    except OSError as error:
        print(f"function_lengths: cannot run {ctags}: {error}", file=sys.stderr)
        sys.exit(2)
    if "Universal Ctags" not in version:
        print(f"function_lengths: {ctags} is not Universal Ctags ({version.splitlines()[:1]}); "
              "install the universal-ctags package", file=sys.stderr)
        sys.exit(2)
    return ctags


def tags_of(ctags, root, files):
    """(file, line, end, name) of every function ctags finds in files, and the files with any tag."""
    result = subprocess.run([ctags, "--c++-kinds=f", "--fields=+ne", "-u", "-o", "-", *files],
                            cwd=root, capture_output=True, text=True)
    if result.returncode != 0:
        print(f"function_lengths: ctags failed: {result.stderr.strip()}", file=sys.stderr)
        sys.exit(2)
    functions, tagged = [], set()
    for row in result.stdout.splitlines():
        if row.startswith("!_"):
            continue
        # NAME<TAB>FILE<TAB>/^pattern$/;"<TAB>KIND<TAB>FIELD:VALUE...: the pattern may hold tabs.
        head, _, tail = row.partition(';"\t')
        name, path = head.split("\t", 2)[:2]
        fields = dict(c.split(":", 1) for c in tail.split("\t") if ":" in c)
        tagged.add(path)
        if name.startswith("__anon"):
            continue  # a lambda: counted in its enclosing function
        if "line" not in fields or "end" not in fields:
            functions.append((path, int(fields.get("line", 0)), None, name))
            continue
        scope = fields.get("class") or fields.get("struct") or fields.get("function")
        if scope and not scope.split("::")[-1].startswith("__anon"):
            name = f"{scope.split('::')[-1]}::{name}"
        functions.append((path, int(fields["line"]), int(fields["end"]), name))
    return functions, tagged


def looks_like_code(text):
    """The first line that looks like a function body, or None."""
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        code = line.split("//", 1)[0]
        if BODY_ON_LINE.search(code):
            return number
        if code.lstrip().startswith("{") and number > 1 and ENDS_WITH_PAREN.search(
                lines[number - 2].split("//", 1)[0]):
            return number
    return None


def limit_of(path, maximum, maximum_tools):
    return maximum_tools if path.split("/", 1)[0] == STRICT_FLOOR else maximum


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source_dir", nargs="?", default=pathlib.Path(__file__).resolve().parents[1])
    parser.add_argument("--max", type=int, default=120, help="the most lines of any function")
    parser.add_argument("--max-tools", type=int, default=60,
                        help="the most lines of a function in tools/ (not tools/bench/)")
    parser.add_argument("--list", type=int, default=0, metavar="N", help="print the N longest")
    arguments = parser.parse_args()
    root = pathlib.Path(arguments.source_dir)
    ctags = check_ctags()
    files = source_files(root)
    if not files:
        print(f"function_lengths: no .cpp or .hpp files under {root}/{{{','.join(FLOORS)}}}",
              file=sys.stderr)
        return 2
    functions, tagged = tags_of(ctags, root, files)

    breaches = []
    for path in files:
        if path in tagged:
            continue
        line = looks_like_code((root / path).read_text(errors="replace"))
        if line is not None:
            breaches.append(f"{path}:{line}: unparsed: ctags found no function but this looks "
                            "like one's body")
    measured = []
    for path, line, end, name in functions:
        if end is None:
            breaches.append(f"{path}:{line}: {name}: ctags gave no end line")
            continue
        length = end - line + 1
        measured.append((length, path, line, name))
        limit = limit_of(path, arguments.max, arguments.max_tools)
        if length > limit:
            breaches.append(f"{path}:{line}: {name} is {length} lines (at most {limit})")
    measured.sort(key=lambda m: (-m[0], m[1], m[2]))

    for length, path, line, name in measured[:arguments.list]:
        print(f"{length:5d}  {path}:{line}: {name}")
    for breach in breaches:
        print(breach)
    longest = ", ".join(f"{name} {length} ({path})" for length, path, _, name in measured[:3])
    print(f"function_lengths: {len(files)} files, {len(measured)} functions measured, "
          f"{len(breaches)} breach{'es' if len(breaches) != 1 else ''}; longest: {longest}")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
