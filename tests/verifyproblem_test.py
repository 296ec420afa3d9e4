#!/usr/bin/env python3
"""The judges' reference tool on a package gamebatch builds: Kattis problemtools' verifyproblem.

    GAMEBATCH_PROBLEMTOOLS=/path/to/problemtools \\
        python3 tests/verifyproblem_test.py REPO_ROOT GAMEBATCH_BINARY

Copies the bundled fixture tests/data/packages/kattis-doublemove (a legacy problem.yaml, a
statement, a plan with five scoring groups) into a temporary directory named `doublemove`, gives
it three submissions that problemtools runs (accepted/full.cpp: 100 points;
partially_accepted/k0_table.cpp: the k0 group, 20 points; wrong_answer/zero.cpp: 0 points, WA),
runs `gamebatch build` and `gamebatch check --report`, then

    python3 -m problemtools.verifyproblem doublemove -p config validators data submissions

and requires "0 errors" and, for each submission, verifyproblem's points (its results table)
equal to check's "score". Prints verifyproblem's whole output.

problemtools is never needed to build or test gamebatch: without GAMEBATCH_PROBLEMTOOLS (a
checkout of github.com/Kattis/problemtools, checked with commit a185fe9), or where its Python
modules (pydantic 2, PyYAML, colorlog) cannot be imported, or its default output validator is not
built (`make -C $GAMEBATCH_PROBLEMTOOLS/support`), the test prints why and exits 77, which ctest
reports as skipped. nh3 (which problemtools imports only to render Markdown statements, a part not
run here) is stood in for by a module that raises when called, where it is not installed.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
PARTS = ["config", "validators", "data", "submissions"]
RUN_DIRECTORIES = ["accepted", "partially_accepted", "wrong_answer", "time_limit_exceeded",
                   "run_time_error"]

ZERO_CPP = """// Prints 0 for every case: wrong on every group.
#include <cstdio>
int main() {
  int cases = 0;
  if (std::scanf("%d", &cases) != 1) return 0;
  while (cases-- > 0) std::printf("0\\n");
}
"""

SUBMISSIONS_YAML = """# What check holds each submission to (verifyproblem goes by the directories).
accepted/full.cpp:
  score: 100
partially_accepted/k0_table.cpp:
  score: [20, 20]
  secret/k0:
    permitted: [AC]
wrong_answer/zero.cpp:
  score: 0
"""

NH3_STAND_IN = """# Stands in for nh3, which problemtools imports to render Markdown statements (not run here).
def clean(*args, **kwargs):
    raise RuntimeError("nh3 is not installed: statements are not rendered by this test")

ALLOWED_TAGS = set()
"""


def skip(reason):
    print(f"SKIPPED: {reason}")
    sys.exit(SKIP)


def fail(message):
    print(f"FAILED: {message}")
    sys.exit(1)


def python_environment(problemtools, scratch):
    """The environment verifyproblem runs in, or skips the test saying what is missing."""
    env = dict(os.environ)
    paths = [problemtools]
    probe = subprocess.run([sys.executable, "-c", "import nh3"], capture_output=True, env=env)
    if probe.returncode != 0:
        stand_in = os.path.join(scratch, "stand-ins")
        os.makedirs(stand_in)
        with open(os.path.join(stand_in, "nh3.py"), "w") as out:
            out.write(NH3_STAND_IN)
        paths.append(stand_in)
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    probe = subprocess.run([sys.executable, "-c", "import problemtools.verifyproblem"],
                           capture_output=True, text=True, env=env)
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["(no message)"])[-1]
        skip(f"problemtools' verifyproblem cannot be imported from {problemtools}: {last} "
             "(it needs pydantic 2, PyYAML and colorlog)")
    validator = os.path.join(problemtools, "support", "default_validator", "default_validator")
    if not os.access(validator, os.X_OK):
        skip(f"{validator} is not built: run make -C {os.path.join(problemtools, 'support')}")
    return env


def make_package(repo, scratch):
    package = os.path.join(scratch, "doublemove")  # verifyproblem wants [a-z0-9]+
    shutil.copytree(os.path.join(repo, "tests", "data", "packages", "kattis-doublemove"), package)
    for stale in ["data", "input_validators", "gamebatch-build.json", ".gamebatch-build.json"]:
        path = os.path.join(package, stale)
        if os.path.isdir(path):
            shutil.rmtree(path)
        elif os.path.exists(path):
            os.remove(path)
    submissions = os.path.join(package, "submissions")
    os.makedirs(os.path.join(submissions, "partially_accepted"))
    os.makedirs(os.path.join(submissions, "wrong_answer"))
    os.rename(os.path.join(submissions, "partial", "k0_table.cpp"),
              os.path.join(submissions, "partially_accepted", "k0_table.cpp"))
    shutil.rmtree(os.path.join(submissions, "partial"))  # the brute force's TLEs take minutes
    with open(os.path.join(submissions, "wrong_answer", "zero.cpp"), "w") as out:
        out.write(ZERO_CPP)
    with open(os.path.join(submissions, "submissions.yaml"), "w") as out:
        out.write(SUBMISSIONS_YAML)
    return package


def run(command, **kwargs):
    print("$ " + " ".join(command), flush=True)
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def check_scores(gamebatch, package, scratch):
    """check's points per submission, by its name under submissions/."""
    report = os.path.join(scratch, "check.json")
    checked = run([gamebatch, "check", "-p", "doublemove", "--no-cache", "--report", report,
                   package])
    print(checked.stdout + checked.stderr)
    if checked.returncode != 0:
        fail(f"gamebatch check exited {checked.returncode}")
    with open(report) as file:
        solutions = json.load(file)["solutions"]
    return {solution["name"]: solution["score"] for solution in solutions}


def verifyproblem_points(output):
    """The Pts column of verifyproblem's results table, by submission file name."""
    lines = output.splitlines()
    try:
        start = next(k for k, line in enumerate(lines) if line.strip() == "Submission results:")
    except StopIteration:
        fail("verifyproblem printed no results table")
    header = re.split(r"\s{2,}", lines[start + 1].strip())
    if "Pts" not in header:
        fail("verifyproblem's results table has no Pts column (is the problem scoring?)")
    column = header.index("Pts")
    points = {}
    for line in lines[start + 2:]:
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) != len(header) or not line.startswith("   "):
            break
        points[cells[0]] = float(cells[column])
    return points


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        sys.exit(2)
    repo, gamebatch = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    problemtools = os.environ.get("GAMEBATCH_PROBLEMTOOLS", "")
    if not problemtools:
        skip("GAMEBATCH_PROBLEMTOOLS is not set (a checkout of Kattis/problemtools)")
    if not os.path.isdir(os.path.join(problemtools, "problemtools")):
        skip(f"GAMEBATCH_PROBLEMTOOLS={problemtools} is no problemtools checkout")
    with tempfile.TemporaryDirectory(prefix="gamebatch-verifyproblem-") as scratch:
        env = python_environment(os.path.abspath(problemtools), scratch)
        package = make_package(repo, scratch)
        built = run([gamebatch, "build", "--no-cache", package])
        print(built.stdout + built.stderr)
        if built.returncode != 0:
            fail(f"gamebatch build exited {built.returncode}")
        scores = check_scores(gamebatch, package, scratch)
        verified = run([sys.executable, "-m", "problemtools.verifyproblem", "doublemove", "-p",
                        *PARTS], cwd=scratch, env=env)
        output = verified.stdout + verified.stderr
        print(output)
        summary = re.search(r"doublemove tested: (\d+) errors?, (\d+) warnings?", output)
        if summary is None:
            fail(f"verifyproblem exited {verified.returncode} without its summary line")
        if int(summary.group(1)) != 0:
            fail(f"verifyproblem reports {summary.group(1)} errors")
        points = verifyproblem_points(output)
        compared = 0
        for name, score in sorted(scores.items()):
            directory, _, file = name.partition("/")
            if directory not in RUN_DIRECTORIES:
                continue
            if file not in points:
                fail(f"verifyproblem gives no points to {name}")
            print(f"{name}: check {score}, verifyproblem {points[file]:g}")
            if score is None or abs(points[file] - score) > 1e-9:
                fail(f"{name}: check gives {score} points, verifyproblem {points[file]:g}")
            compared += 1
        if compared != 3:
            fail(f"{compared} submissions compared, 3 expected")
        print(f"verifyproblem: 0 errors, {summary.group(2)} warnings; the points of "
              f"{compared} submissions equal check's")


if __name__ == "__main__":
    main()
