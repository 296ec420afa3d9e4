#!/usr/bin/env python3
"""The house's floors and io/'s rooms, checked on every quoted #include of the source tree.

    tests/rooms_test.py [SOURCE_DIR]

Floors: tools -> pipeline -> io -> core, nothing pointing back up.
Rooms of io/ (io/problem.hpp says what each is for): games (io/ itself and io/GAME/), files,
cache, run. A room may include only the rooms below it: games <- files <- {cache, run}; the cache
and the run room know nothing of each other. From outside a room (other rooms, pipeline/, tools/,
tests/ other than the room's own tests/ROOM/), only the headers its theory of operation names as
used from outside may be included. And io/ itself holds at most 12 files.
The command floor (tools/, but its benchmarks in tools/bench/): a command file (tools/NAME.cpp)
includes of tools/ only the support unit (tools/support/) and its own header (tools/NAME.hpp, kept
for its tests); the support unit includes only itself; cli.cpp registers the commands through the
support unit, so no command file includes another and nothing includes cli.cpp's commands.
Prints every breach as FILE:LINE: what is wrong, and exits 1 if there is any.
"""
import pathlib
import posixpath
import re
import sys

FLOORS = ["core", "io", "pipeline", "tools"]  # each may use the ones before it
# The headers each room lets others include (its theory of operation names them).
PUBLIC_HEADERS = {
    "files": {"input_set.hpp", "problem_package.hpp", "package_plan.hpp", "shard.hpp", "atomic_file.hpp",
              "generate.hpp", "content_hash.hpp", "validator_settings.hpp"},
    "cache": {"answer_cache.hpp", "cache_store.hpp"},
    "run": {"compiled_store.hpp", "limited_process.hpp", "sandbox.hpp", "solution_build.hpp",
            "stop_signals.hpp"},
}
# The rooms each room may include.
MAY_USE = {
    "games": {"games"},
    "files": {"games", "files"},
    "cache": {"games", "files", "cache"},
    "run": {"files", "run"},
}
MAX_TOP_LEVEL_FILES = 12
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def floor_of(path):
    first = path.split("/", 1)[0]
    return first if first in FLOORS or first == "tests" else None


def room_of(path):
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[1] in PUBLIC_HEADERS else "games"


def tools_breach(relative, target):
    """Why the command floor's file `relative` must not include tools/ header `target`, or None."""
    if not relative.startswith("tools/") or relative.startswith("tools/bench/"):
        return None
    if target.startswith("tools/support/"):
        return None
    if relative.startswith("tools/support/"):
        return "the support unit includes only itself"
    own_header = relative.rsplit(".", 1)[0] + ".hpp"
    if target == own_header or (relative, target) == ("tools/gamebatch.cpp", "tools/cli.hpp"):
        return None  # main() calls run_cli
    return "a command file includes of tools/ only tools/support/ and its own header"


def breaches_of(relative, text):
    from_floor = floor_of(relative)
    from_room = room_of(relative) if from_floor == "io" else None
    for number, line in enumerate(text.splitlines(), 1):
        match = INCLUDE.match(line)
        if not match:
            continue
        target = posixpath.normpath(match.group(1))  # "pipeline/../tools/x.hpp" is tools/
        to_floor = floor_of(target)
        if to_floor is None:
            continue
        where = f"{relative}:{number}"
        if (from_floor in FLOORS and to_floor in FLOORS
                and FLOORS.index(to_floor) > FLOORS.index(from_floor)):
            yield f"{where}: {from_floor}/ includes {target}, a floor above it"
            continue
        if to_floor == "tools" and (why := tools_breach(relative, target)):
            yield f"{where}: includes {target}: {why}"
            continue
        if to_floor != "io":
            continue
        to_room = room_of(target)
        if from_room is not None and to_room not in MAY_USE[from_room]:
            yield (f"{where}: io's {from_room} room includes {target} of the {to_room} room, "
                   "which it must not use")
            continue
        if from_room == to_room or relative.startswith(f"tests/{to_room}/"):
            continue  # inside a room (or its own tests) any header goes
        header = target.split("/", 2)[-1]
        if to_room in PUBLIC_HEADERS and header not in PUBLIC_HEADERS[to_room]:
            public = " ".join(sorted(PUBLIC_HEADERS[to_room]))
            yield f"{where}: {target} is private to io/{to_room} (its public headers: {public})"


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
    files = sorted(path for top in FLOORS + ["tests"] for path in (root / top).rglob("*")
                   if path.suffix in {".cpp", ".hpp", ".h"} and path.is_file()
                   and "tests/data" not in path.relative_to(root).as_posix())
    if not files:
        print(f"no source file under {root}: wrong source directory?")
        return 1
    breaches = []
    for path in files:
        relative = path.relative_to(root).as_posix()
        breaches += breaches_of(relative, path.read_text(errors="replace"))
    top_level = [path for path in (root / "io").iterdir() if path.is_file()]
    if len(top_level) > MAX_TOP_LEVEL_FILES:
        breaches.append(f"io: {len(top_level)} files directly in io/ (at most "
                        f"{MAX_TOP_LEVEL_FILES}: the rest belong in a room)")
    for breach in breaches:
        print(breach)
    if breaches:
        print(f"{len(breaches)} breaches of the floors and rooms")
        return 1
    print(f"floors and rooms hold: {len(files)} source files checked, "
          f"{len(top_level)} files directly in io/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
