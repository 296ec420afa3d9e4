#!/usr/bin/env python3
"""tests/rooms_test.py catches a breach of each kind: planted, one at a time, in a copy of the tree.

    tests/rooms_breach_test.py [SOURCE_DIR]

The copy holds the tree's sources as they are (rooms_test passes on it first), then each plant
adds or changes one file; rooms_test must report that file, with the words of its rule, and no
breach elsewhere. Exits 1, naming the plants it missed, if any goes unreported.
"""
import pathlib
import shutil
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import rooms_test  # noqa: E402

# (what is planted, the file, its text, words the breach must say). A text starting with "+"
# is appended to the file as it is.
PLANTS = [
    ("a floor including one above it", "core/planted.hpp",
     '#include "pipeline/engines.hpp"\n', "a floor above it"),
    ("io's format room using the games' room", "io/format/planted.cpp",
     '#include "io/problem.hpp"\n', "format room includes io/problem.hpp of the games room"),
    ("io's cache room using the run room", "io/cache/planted.cpp",
     '#include "io/run/sandbox.hpp"\n', "cache room includes io/run/sandbox.hpp of the run room"),
    ("a private header of io/run from pipeline/", "pipeline/solve/planted.cpp",
     '#include "io/run/raw_io.hpp"\n', "private to io/run"),
    ("a shared room of pipeline/ using an engine", "pipeline/report/planted.cpp",
     '#include "pipeline/judge/judge.hpp"\n', "report room includes pipeline/judge/judge.hpp"),
    ("an engine using another engine", "pipeline/judge/planted.cpp",
     '#include "pipeline/package/build_job.hpp"\n', "judge room includes pipeline/package"),
    ("an engine using another engine, the other way", "pipeline/package/planted.cpp",
     '#include "pipeline/judge/check_run.hpp"\n', "package room includes pipeline/judge"),
    ("the solve engine running programs", "pipeline/solve/planted2.cpp",
     '#include "pipeline/programs/run_setup.hpp"\n', "solve room includes pipeline/programs"),
    ("a shared room using the strength engine", "pipeline/answers/planted2.cpp",
     '#include "pipeline/strength/strength_job.hpp"\n', "answers room includes pipeline/strength"),
    ("an engine using the strength engine", "pipeline/judge/planted2.cpp",
     '#include "pipeline/strength/selection.hpp"\n', "judge room includes pipeline/strength"),
    ("the answers room using the programs room", "pipeline/answers/planted.cpp",
     '#include "pipeline/programs/run_setup.hpp"\n', "answers room includes pipeline/programs"),
    ("pipeline's top using a room", "pipeline/machine.cpp",
     '+#include "pipeline/report/logging.hpp"\n', "top room includes pipeline/report/logging.hpp"),
    ("a private header of pipeline/ from tools/", "tools/planted_command.cpp",
     '#include "pipeline/answers/graph_handoff.hpp"\n', "private to pipeline/answers"),
    ("a private header of pipeline/ from tests/", "tests/planted_test.cpp",
     '#include "pipeline/package/package_build.hpp"\n', "private to pipeline/package"),
    ("a folder of pipeline/ that is no room", "pipeline/planted_room/planted.cpp",
     '#include "pipeline/engines.hpp"\n', "a folder that no room rule knows"),
    ("a command file including another", "tools/planted2_command.cpp",
     '#include "tools/run_command.hpp"\n', "a command file includes of tools/ only"),
]
# Too many files at a floor's top: (floor, files added).
CROWDS = [("io", 6), ("pipeline", 4)]


def copy_sources(source, target):
    for top in rooms_test.FLOORS + ["tests"]:
        shutil.copytree(source / top, target / top,
                        ignore=shutil.ignore_patterns("data", "__pycache__"))


def plant(root, path, text):
    file = root / path
    file.parent.mkdir(parents=True, exist_ok=True)
    if text.startswith("+"):
        file.write_text(file.read_text() + text[1:])
    else:
        file.write_text(text)


def main():
    source = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
    missed = []
    with tempfile.TemporaryDirectory() as scratch:
        clean = pathlib.Path(scratch) / "clean"
        copy_sources(source, clean)
        breaches, _ = rooms_test.breaches_in(clean)
        if breaches:
            print("the tree itself breaches its rules:", *breaches, sep="\n  ")
            return 1
        for number, (what, path, text, words) in enumerate(PLANTS):
            root = pathlib.Path(scratch) / f"plant{number}"
            shutil.copytree(clean, root)
            plant(root, path, text)
            breaches, _ = rooms_test.breaches_in(root)
            where = (path, path.rsplit("/", 1)[0] + ":")  # a file, or its folder
            caught = [b for b in breaches if b.startswith(where) and words in b]
            if not caught or len(caught) != len(breaches):
                missed.append(f"{what} ({path}): reported {breaches or 'nothing'}")
            else:
                print(f"caught {what}: {caught[0]}")
        for floor, count in CROWDS:
            root = pathlib.Path(scratch) / f"crowd-{floor}"
            shutil.copytree(clean, root)
            for k in range(count):
                plant(root, f"{floor}/planted{k}.hpp", "#pragma once\n")
            breaches, _ = rooms_test.breaches_in(root)
            if not any(b.startswith(f"{floor}: ") and "files directly in" in b for b in breaches):
                missed.append(f"{count} more files at {floor}/'s top: reported {breaches or 'nothing'}")
            else:
                print(f"caught {count} more files at {floor}/'s top")
        root = pathlib.Path(scratch) / "theory"
        shutil.copytree(clean, root)
        theory = root / "pipeline/report/terminal_text.hpp"
        theory.write_text(theory.read_text().replace("html_page.hpp", "the pages' parts"))
        breaches, _ = rooms_test.breaches_in(root)
        if not any("does not name its public header html_page.hpp" in b for b in breaches):
            missed.append(f"a theory that leaves out a public header: reported {breaches or 'nothing'}")
        else:
            print("caught a theory that leaves out a public header")
    for miss in missed:
        print("MISSED:", miss)
    print(f"{len(PLANTS) + len(CROWDS) + 1 - len(missed)} of {len(PLANTS) + len(CROWDS) + 1} "
          "planted breaches caught")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
