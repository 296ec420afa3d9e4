#!/usr/bin/env python3
"""The house's floors and the rooms of io/ and pipeline/, checked on every quoted #include.

    tests/rooms_test.py [SOURCE_DIR]

Floors: tools -> pipeline -> io -> core, nothing pointing back up.

Rooms: io/ and pipeline/ are each a floor of rooms, one folder a room (io/problem.hpp and
pipeline/engines.hpp draw the maps). ROOMS below says, for each room, which rooms it may include,
which of its headers others may include (its public headers), and which file opens it with its
theory of operation. A file's room is its folder's; a file directly in pipeline/ is the floor's
shared top, and a game's strict rules (io/GAME/strict.hpp) are the format room's, kept beside
their game so that a game stays one folder. Inside a room any header goes; from outside (other
rooms, tools/, tests/ but for the room's own tests/ROOM/) only its public headers. Each theory
file names every public header of its room, so the rules and the theory cannot drift apart. A
folder of io/ or pipeline/ that no rule knows is a breach (a new room is declared here first), and
io/ and pipeline/ hold at most MAX_TOP_LEVEL_FILES files each besides their rooms.

The command floor (tools/, but its benchmarks in tools/bench/): a command file (tools/NAME.cpp)
includes of tools/ only the support unit (tools/support/) and its own header (tools/NAME.hpp, kept
for its tests); the support unit includes only itself; cli.cpp registers the commands through the
support unit, so no command file includes another and nothing includes cli.cpp's commands.

Prints every breach as FILE:LINE: what is wrong, and exits 1 if there is any.
tests/rooms_breach_test.py plants a breach of each kind in a copy of the tree and checks that
this test reports it.
"""
import pathlib
import posixpath
import re
import sys
from dataclasses import dataclass

FLOORS = ["core", "io", "pipeline", "tools"]  # each may use the ones before it
GAMES = {"willow", "doublemove", "wallgame", "boigame"}


@dataclass(frozen=True)
class Room:
    may_use: frozenset     # the rooms of its floor it may include (itself included)
    public: frozenset      # headers others may include; None: every header
    theory: str            # the file that opens the room with its theory of operation


def room(may_use, public, theory):
    return Room(frozenset(may_use), None if public is None else frozenset(public), theory)


ROOMS = {
    "io": {
        "format": room({"format"},
                       {"input_error.hpp", "official_limits.hpp", "strict_format.hpp",
                        "token_scanner.hpp"}, "io/format/strict_format.hpp"),
        "picture": room({"picture"}, {"svg.hpp"}, "io/picture/svg.hpp"),
        "games": room({"games", "format", "picture"}, None, "io/problem.hpp"),
        "files": room({"files", "games", "format"},
                      {"input_set.hpp", "problem_package.hpp", "package_plan.hpp", "shard.hpp",
                       "atomic_file.hpp", "generate.hpp", "content_hash.hpp",
                       "validator_settings.hpp"}, "io/files/input_set.hpp"),
        "cache": room({"cache", "files", "games", "format"},
                      {"answer_cache.hpp", "cache_store.hpp"}, "io/cache/cache_store.hpp"),
        "mutation": room({"mutation"}, {"cpp_mutants.hpp"}, "io/mutation/cpp_mutants.hpp"),
        "run": room({"run", "files"},
                    {"compiled_store.hpp", "limited_process.hpp", "sandbox.hpp",
                     "solution_build.hpp", "stop_signals.hpp"}, "io/run/limited_process.hpp"),
    },
    "pipeline": {
        "top": room({"top"}, None, "pipeline/engines.hpp"),
        # The shared rooms: what the engines have in common.
        "report": room({"report", "top"},
                       {"html_page.hpp", "logging.hpp", "output_files.hpp", "progress.hpp",
                        "terminal_text.hpp"}, "pipeline/report/terminal_text.hpp"),
        "answers": room({"answers", "report", "top"},
                        {"cache_session.hpp", "case_dispatcher.hpp", "solve_run.hpp"},
                        "pipeline/answers/solve_run.hpp"),
        "programs": room({"programs", "top"}, {"run_setup.hpp"},
                         "pipeline/programs/run_setup.hpp"),
        # The engines, one line of work each: none uses another.
        "solve": room({"solve", "answers", "report", "top"},
                      {"solve_jobs.hpp", "run_config.hpp", "run_report.hpp", "solve_page.hpp",
                       "cache_maintenance.hpp", "explain_job.hpp"},
                      "pipeline/solve/solve_jobs.hpp"),
        "judge": room({"judge", "answers", "programs", "report", "top"},
                      {"check_job.hpp", "stress_job.hpp", "check_run.hpp", "stress_run.hpp",
                       "judge.hpp", "expectation.hpp", "judge_pages.hpp"},
                      "pipeline/judge/judge.hpp"),
        "package": room({"package", "answers", "programs", "report", "top"},
                        {"build_job.hpp", "validate_job.hpp", "validator_job.hpp",
                         "game_options.hpp", "package_pages.hpp", "test_makers.hpp",
                         "data_bounds.hpp"}, "pipeline/package/build_job.hpp"),
        # The engine built on two others: it judges the tests a package builds.
        "strength": room({"strength", "judge", "package", "answers", "programs", "report", "top"},
                         {"strength_job.hpp", "selection.hpp", "candidates.hpp"},
                         "pipeline/strength/strength_job.hpp"),
    },
}
TOP_ROOM = {"io": "games", "pipeline": "top"}  # the room of a file directly in the floor
MAX_TOP_LEVEL_FILES = 8
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def floor_of(path):
    first = path.split("/", 1)[0]
    return first if first in FLOORS or first == "tests" else None


def room_of(path):
    """The room of io/ or pipeline/ file `path`: its folder's, or None for a folder no rule knows."""
    parts = path.split("/")
    floor = parts[0]
    if len(parts) == 2:
        return TOP_ROOM[floor]
    if floor == "io" and parts[1] in GAMES:
        return "format" if parts[2:] == ["strict.hpp"] else "games"
    return parts[1] if parts[1] in ROOMS[floor] else None


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


def room_breach(relative, target, floor):
    """Why `relative` must not include `target`, a header of `floor`'s rooms, or None."""
    to_room = room_of(target)
    if to_room is None:
        return f"includes {target}, in a folder of {floor}/ that is no room"
    from_room = room_of(relative) if floor_of(relative) == floor else None
    if from_room is not None and to_room not in ROOMS[floor][from_room].may_use:
        return f"{floor}'s {from_room} room includes {target} of the {to_room} room, which it must not use"
    if from_room == to_room or relative.startswith(f"tests/{to_room}/"):
        return None  # inside a room (or its own tests) any header goes
    public = ROOMS[floor][to_room].public
    if public is not None and posixpath.basename(target) not in public:
        return f"{target} is private to {floor}/{to_room} (its public headers: {' '.join(sorted(public))})"
    return None


def breaches_of(relative, text):
    from_floor = floor_of(relative)
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
        elif to_floor == "tools" and (why := tools_breach(relative, target)):
            yield f"{where}: includes {target}: {why}"
        elif to_floor in ROOMS and (why := room_breach(relative, target, to_floor)):
            yield f"{where}: {why}"


def floor_breaches(root, floor):
    """A floor's own shape: its folders are rooms, its top is small, each theory names its headers."""
    top = sorted(path.name for path in (root / floor).iterdir() if path.is_file())
    if len(top) > MAX_TOP_LEVEL_FILES:
        yield (f"{floor}: {len(top)} files directly in {floor}/ (at most {MAX_TOP_LEVEL_FILES}: "
               "the rest belong in a room)")
    known = set(ROOMS[floor]) | (GAMES if floor == "io" else set())
    for folder in sorted(path.name for path in (root / floor).iterdir() if path.is_dir()):
        if folder not in known:
            yield f"{floor}/{folder}: a folder that no room rule knows (declare it in tests/rooms_test.py)"
    for name, rules in ROOMS[floor].items():
        theory = root / rules.theory
        if not theory.is_file():
            yield f"{rules.theory}: the theory of the {name} room is missing"
            continue
        text = theory.read_text(errors="replace")
        opening = " ".join(text.split("#pragma once")[0].replace("//", " ").split())
        if "theory of operation" not in opening:
            yield f"{rules.theory}:1: does not open with the {name} room's theory of operation"
        for header in sorted(rules.public or ()):
            if header not in text:
                yield f"{rules.theory}: the {name} room's theory does not name its public header {header}"


def breaches_in(root):
    """Every breach under source tree `root`, and the number of files checked."""
    files = sorted(path for top in FLOORS + ["tests"] for path in (root / top).rglob("*")
                   if path.suffix in {".cpp", ".hpp", ".h"} and path.is_file()
                   and "tests/data" not in path.relative_to(root).as_posix())
    breaches = []
    for path in files:
        relative = path.relative_to(root).as_posix()
        breaches += breaches_of(relative, path.read_text(errors="replace"))
    for floor in ROOMS:
        breaches += floor_breaches(root, floor)
    return breaches, len(files)


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
    breaches, checked = breaches_in(root)
    if checked == 0:
        print(f"no source file under {root}: wrong source directory?")
        return 1
    for breach in breaches:
        print(breach)
    if breaches:
        print(f"{len(breaches)} breaches of the floors and rooms")
        return 1
    print(f"floors and rooms hold: {checked} source files checked, rooms of "
          + ", ".join(f"{floor}/ ({len(rooms)})" for floor, rooms in ROOMS.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
