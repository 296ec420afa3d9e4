#!/usr/bin/env python3
"""Checks the documentation: README.md, docs/*.md and tools/bench/README.md.

    python3 tests/docs_links_test.py REPO_ROOT [GAMEBATCH_BINARY]

- Every relative link and image ([text](target), ![alt](target), reference definitions
  [name]: target, and href/src of inline HTML) outside code resolves to a file or directory
  inside the repository, relative to the linking file; a #fragment (alone: this file) names a
  heading of the target .md file by GitHub's anchor rules (lowercase, punctuation other than - and
  _ dropped, spaces to -, a repeated anchor gets -1, -2, ...). http(s):, mailto: and other
  schemes are not followed.
- README.md is under 300 lines (the README is the guide; the manual is docs/).
- With GAMEBATCH_BINARY: every subcommand that `gamebatch --help` lists, and every long option
  that `gamebatch CMD --help` (and `gamebatch CMD SUB --help` for a command with subcommands)
  defines, is named in docs/commands.md, so the manual keeps in step with --help.

Prints one line per problem, FILE:LINE: what is wrong, and exits 1 when there is any.
"""

import os
import re
import subprocess
import sys
import unicodedata
from urllib.parse import unquote

README_MAX_LINES = 300

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
HTML_ANCHOR = re.compile(r"""<a\s[^>]*?(?:name|id)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
HTML_LINK = re.compile(r"""<(?:a|img)\s[^>]*?(?:href|src)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[([^\]]+)\]:[ \t]*<?([^\s>]+)>?")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def without_fences(lines):
    """The lines with fenced code blocks blanked (line numbers kept)."""
    kept = []
    fence = None
    for line in lines:
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)[0] * len(match.group(1))
            kept.append("")
        elif fence is not None:
            if line.strip().startswith(fence) and set(line.strip()) <= {fence[0]}:
                fence = None
            kept.append("")
        else:
            kept.append(line)
    return kept


def blank_code_spans(text):
    """Inline code spans (which may run over lines, not over a blank line) turned into spaces,
    newlines kept, so offsets and line numbers stay where they were."""
    out = []
    i = 0
    while i < len(text):
        if text[i] != "`":
            out.append(text[i])
            i += 1
            continue
        run = len(text) - i - len(text[i:].lstrip("`"))
        ticks = "`" * run
        j = i + run
        close = None
        while True:
            k = text.find(ticks, j)
            if k < 0:
                break
            if "\n\n" in text[i:k]:
                break
            end = k + run
            if end < len(text) and text[end] == "`":  # a longer run: not the closer
                j = end + len(text[end:]) - len(text[end:].lstrip("`"))
                continue
            close = k
            break
        if close is None:  # a lone backtick run is literal text
            out.append(ticks)
            i = j
            continue
        span = text[i:close + run]
        out.append("".join("\n" if c == "\n" else " " for c in span))
        i = close + run
    return "".join(out)


def github_slug(heading):
    """GitHub's anchor of a heading's text (without its duplicate suffix)."""
    text = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # images: alt text
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links: their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML tags
    text = text.replace("`", "")
    text = re.sub(r"(\*\*|__|\*|(?<![\w])_|_(?![\w]))", "", text)  # emphasis markers
    text = text.strip().lower()
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if char in "-_ " or category[0] in ("L", "N") or category in ("Mn", "Mc", "Pc"):
            kept.append(char)
    return "".join(kept).replace(" ", "-")


def anchors_of(path, cache={}):
    """Every anchor of a Markdown file: its headings' GitHub anchors and HTML name/id anchors."""
    if path in cache:
        return cache[path]
    with open(path, encoding="utf-8") as f:
        lines = without_fences(f.read().split("\n"))
    anchors = set()
    seen = {}
    previous = ""
    for line in lines:
        heading = None
        match = ATX_HEADING.match(line)
        if match:
            heading = match.group(2)
        elif SETEXT_UNDERLINE.match(line) and previous.strip() and not previous.startswith(
                ("    ", "\t")) and not ATX_HEADING.match(previous):
            # "---" under a paragraph line is a heading; under a list or table it is not ours
            # to worry about: take it only when the line above is plain text.
            if not re.match(r"^\s*([-*+]|\d+\.|\|)", previous):
                heading = previous.strip()
        if heading is not None:
            slug = github_slug(heading)
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            anchors.add(slug if count == 0 else f"{slug}-{count}")
        for name in HTML_ANCHOR.findall(line):
            anchors.add(name)
        previous = line
    cache[path] = anchors
    return anchors


def link_targets(text):
    """(offset, target) of every inline link or image, and of every full or collapsed
    reference (target None, the label instead, for the caller to look up)."""
    found = []
    i = 0
    while True:
        start = text.find("[", i)
        if start < 0:
            break
        if start > 0 and text[start - 1] == "\\":  # an escaped bracket is text
            i = start + 1
            continue
        # The matching ] (brackets nest in link text).
        depth = 0
        end = None
        k = start
        while k < len(text):
            if text[k] == "\\":  # an escaped character is text
                k += 2
                continue
            if text[k] == "[":
                depth += 1
            elif text[k] == "]":
                depth -= 1
                if depth == 0:
                    end = k
                    break
            elif text[k] == "\n" and text[k - 1:k + 1] == "\n\n":
                break
            k += 1
        if end is None:
            i = start + 1
            continue
        after = text[end + 1:end + 2]
        if after == "(":
            # The destination: <...> or up to the matching ) (parentheses may nest), then an
            # optional title.
            k = end + 2
            while k < len(text) and text[k] in " \t\n":
                k += 1
            if text[k:k + 1] == "<":
                close = text.find(">", k)
                target = text[k + 1:close] if close >= 0 else ""
            else:
                depth = 0
                m = k
                while m < len(text):
                    c = text[m]
                    if c == "(":
                        depth += 1
                    elif c == ")":
                        if depth == 0:
                            break
                        depth -= 1
                    elif c in " \t\n":
                        break
                    m += 1
                target = text[k:m]
            found.append((start, target, None))
            i = start + 1  # an image inside the link text is checked too
        elif after == "[":
            close = text.find("]", end + 2)
            if close >= 0:
                label = text[end + 2:close] or text[start + 1:end]
                found.append((start, None, label))
                i = close + 1
            else:
                i = end + 1
        else:
            i = start + 1  # a shortcut reference or plain brackets: links inside may follow
    return found


def normalise_label(label):
    return " ".join(label.lower().split())


def check_target(repo, source, line, target, problems):
    if not target or SCHEME.match(target):
        return
    path_part, _, fragment = target.partition("#")
    path_part = unquote(path_part)
    fragment = unquote(fragment)
    where = f"{os.path.relpath(source, repo)}:{line}"
    if path_part:
        if path_part.startswith("/"):
            resolved = os.path.normpath(os.path.join(repo, path_part.lstrip("/")))
        else:
            resolved = os.path.normpath(os.path.join(os.path.dirname(source), path_part))
        inside = os.path.relpath(resolved, repo)
        if inside == ".." or inside.startswith(".." + os.sep):
            problems.append(f"{where}: link '{target}' leads outside the repository "
                            f"(a user's checkout has nothing there)")
            return
        if not os.path.exists(resolved):
            problems.append(f"{where}: link '{target}': no such file or directory "
                            f"({os.path.relpath(resolved, repo)})")
            return
    else:
        resolved = source
    if fragment and resolved.endswith(".md") and os.path.isfile(resolved):
        if fragment not in anchors_of(resolved):
            problems.append(f"{where}: link '{target}': {os.path.relpath(resolved, repo)} has "
                            f"no heading with the anchor '#{fragment}'")


def check_links(repo, source, problems):
    with open(source, encoding="utf-8") as f:
        lines = without_fences(f.read().split("\n"))
    text = "\n".join(lines)
    definitions = {}
    for number, line in enumerate(lines, 1):
        match = REFERENCE_DEFINITION.match(line)
        if match and not match.group(1).startswith("^"):  # not a footnote
            definitions[normalise_label(match.group(1))] = match.group(2)
            check_target(repo, source, number, match.group(2), problems)
    prose = blank_code_spans(text)
    for offset, target, label in link_targets(prose):
        line = prose.count("\n", 0, offset) + 1
        if target is None:
            if normalise_label(label) not in definitions:
                problems.append(f"{os.path.relpath(source, repo)}:{line}: reference "
                                f"'[{label}]' has no definition")
            continue
        check_target(repo, source, line, target, problems)
    for match in HTML_LINK.finditer(prose):
        line = prose.count("\n", 0, match.start()) + 1
        check_target(repo, source, line, match.group(1), problems)


def help_text(binary, *args):
    result = subprocess.run([binary, *args, "--help"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, timeout=60,
                            env=dict(os.environ, LC_ALL="C"))
    if result.returncode != 0:
        raise RuntimeError(f"'{binary} {' '.join(args)} --help' exited {result.returncode}")
    return result.stdout


def subcommands_of(help_output):
    """The names listed under 'Subcommands:' (CLI11's layout)."""
    names = []
    listing = False
    for line in help_output.split("\n"):
        if line.strip() == "Subcommands:":
            listing = True
            continue
        if listing:
            match = re.match(r"^  ([a-z][a-z0-9-]*)\s", line + " ")
            if match:
                names.append(match.group(1))
            elif line.strip() and not line.startswith("    "):
                listing = False
    return names


def long_options_of(help_output):
    """The long options a help text defines: those starting an option line (CLI11's
    '  -j,--jobs N ...' and '  --cache FILE ...'), in the Options and game-options sections."""
    options = []
    for line in help_output.split("\n"):
        match = re.match(r"^ {2}(?:-[A-Za-z0-9],)*--([A-Za-z0-9][A-Za-z0-9-]*)", line)
        if match and match.group(1) not in options:
            options.append(match.group(1))
    return options


def check_help(repo, binary, problems):
    commands_md = os.path.join(repo, "docs", "commands.md")
    if not os.path.isfile(commands_md):
        problems.append("docs/commands.md: missing (the manual of every command and option)")
        return
    with open(commands_md, encoding="utf-8") as f:
        manual = f.read()

    def named(pattern):
        return re.search(pattern, manual) is not None

    top = help_text(binary)
    commands = subcommands_of(top)
    if not commands:
        problems.append(f"{binary} --help: no subcommands found in its output")
        return
    for option in long_options_of(top):
        if not named(r"--" + re.escape(option) + r"(?![A-Za-z0-9-])"):
            problems.append(f"docs/commands.md:1: does not name '--{option}' "
                            f"(gamebatch --help defines it)")
    for command in commands:
        if not named(r"gamebatch " + re.escape(command) + r"\b"):
            problems.append(f"docs/commands.md:1: does not name the command "
                            f"'gamebatch {command}' (gamebatch --help lists it)")
        texts = [((command,), help_text(binary, command))]
        for sub in subcommands_of(texts[0][1]):
            if not named(r"gamebatch " + re.escape(command) + r" " + re.escape(sub) + r"\b"):
                problems.append(f"docs/commands.md:1: does not name 'gamebatch {command} {sub}' "
                                f"(gamebatch {command} --help lists it)")
            texts.append(((command, sub), help_text(binary, command, sub)))
        for words, text in texts:
            for option in long_options_of(text):
                if not named(r"--" + re.escape(option) + r"(?![A-Za-z0-9-])"):
                    problems.append(f"docs/commands.md:1: does not name '--{option}' "
                                    f"(gamebatch {' '.join(words)} --help defines it)")


def main(argv):
    if len(argv) not in (2, 3):
        print(f"usage: {argv[0]} REPO_ROOT [GAMEBATCH_BINARY]", file=sys.stderr)
        return 2
    repo = os.path.abspath(argv[1])
    problems = []

    readme = os.path.join(repo, "README.md")
    sources = [readme]
    docs = os.path.join(repo, "docs")
    if os.path.isdir(docs):
        sources += sorted(os.path.join(docs, name) for name in os.listdir(docs)
                          if name.endswith(".md"))
    else:
        problems.append("docs/: missing (the manual's chapters)")
    bench = os.path.join(repo, "tools", "bench", "README.md")
    if os.path.isfile(bench):
        sources.append(bench)
    for source in sources:
        if not os.path.isfile(source):
            problems.append(f"{os.path.relpath(source, repo)}: missing")
            continue
        check_links(repo, source, problems)

    if os.path.isfile(readme):
        with open(readme, encoding="utf-8") as f:
            count = len(f.read().splitlines())
        if count >= README_MAX_LINES:
            problems.append(f"README.md:{count}: {count} lines; the guide must stay under "
                            f"{README_MAX_LINES} (move the details into docs/)")

    if len(argv) == 3:
        try:
            check_help(repo, argv[2], problems)
        except (OSError, RuntimeError, subprocess.TimeoutExpired) as error:
            problems.append(f"{argv[2]}: {error}")

    def order(problem):  # by file (README first, as checked), then line
        name, _, rest = problem.partition(":")
        line = rest.split(":", 1)[0]
        ranks = [os.path.relpath(source, repo) for source in sources]
        return (ranks.index(name) if name in ranks else len(ranks), name,
                int(line) if line.isdigit() else 0)

    for problem in sorted(problems, key=order):
        print(problem)
    if problems:
        print(f"docs_links: {len(problems)} problem(s) in {len(sources)} files", file=sys.stderr)
        return 1
    print(f"docs_links: {len(sources)} files, every link resolves"
          + (", docs/commands.md names every command and option of --help" if len(argv) == 3
             else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
