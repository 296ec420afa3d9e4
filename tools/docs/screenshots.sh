#!/usr/bin/env bash
# Retakes the screenshots of docs/reports.md (docs/html-report-{solve,check,stress,strength}.png)
# from real runs of a built gamebatch, as the captions there describe, rendered by headless
# Chromium.
#
# Usage: tools/docs/screenshots.sh [BUILD_DIR]   (from anywhere; BUILD_DIR defaults to build)
# Needs BUILD_DIR/tools/gamebatch and the test solutions of BUILD_DIR/tests/solutions (a default
# build makes both), and chromium on PATH; optipng, where installed, makes the files smaller.
# A page is cut at a fixed height that ends after the part each caption is about: if a page's
# layout changes, look at the pictures and change the heights below.
# The solve page shows solve times: on a busy machine a few files wait for a core and look slow,
# so take it when the machine is quiet (and look at the histogram before committing).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
gamebatch=$build/tools/gamebatch
solutions=$build/tests/solutions
browser=$(command -v chromium || command -v chromium-browser || true)
[ -x "$gamebatch" ] || { echo "screenshots: no $gamebatch: build gamebatch first" >&2; exit 2; }
[ -n "$browser" ] || { echo "screenshots: no chromium on PATH (apt-get install chromium)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$solutions"/reference_solution "$solutions"/wrong_solution "$solutions"/faulty_solution .

# Runs COMMAND... expecting exit status STATUS (pages of runs that find faults exit 1).
expect() {
  local status=$1 got=0
  shift
  "$@" >/dev/null 2>"$work/stderr" || got=$?
  if [ "$got" != "$status" ]; then
    echo "screenshots: '$*' exited $got, not $status:" >&2
    tail -5 "$work/stderr" >&2
    exit 1
  fi
}

# shot PAGE KIND HEIGHT: PAGE's top 1200 x HEIGHT pixels as docs/html-report-KIND.png.
shot() {
  local png=$root/docs/html-report-$2.png
  "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
    --user-data-dir="$work/profile" --screenshot="$png" --window-size="1200,$3" \
    "file://$work/$1" >/dev/null 2>&1
  if command -v optipng >/dev/null; then optipng -quiet -o2 -strip all "$png"; fi
  echo "$png: $(stat -c %s "$png") bytes"
}

# solve: 20,000 one-case willow files and two broken ones, after a run over the first 5,000
# filled the answer cache.
expect 0 "$gamebatch" gen willow --count 5000 --seed 11 --out willow
expect 0 "$gamebatch" solve -p willow --cache answers.cache --cache-min-solve-us 0 willow
expect 0 "$gamebatch" gen willow --count 20000 --seed 11 --out willow
printf '1\n3\n5\n7\n' >willow/broken-1.in
printf '2\n3\n2\n1\n1\n2\n3\nx\n' >willow/broken-2.in
expect 1 "$gamebatch" solve -p willow --cache answers.cache --cache-min-solve-us 0 \
  --html solve.html willow
shot solve.html solve 1600

# check: four generated willow files of ten small cases and the small practice file, five
# solutions, every run made (--all-runs) so that the matrix is whole and three WAs are drawn.
expect 0 "$gamebatch" gen willow --count 4 --seed 1 --cities 5..10 --cases-per-file 10 \
  --out sets/willow
cp "$root/tests/data/willow/D-small-practice.in" sets/willow/
expect 1 "$gamebatch" check -p willow --time-limit 0.5 --memory-limit 64 --all-runs --no-cache \
  -s './reference_solution willow' -s './wrong_solution willow' -s './faulty_solution loop' \
  -s './faulty_solution hog-forever' -s './faulty_solution segfault' --html check.html sets/willow
shot check.html check 2490

# stress: the wrong solver on willow cases of 20 to 40 cities, shrunk to a counterexample.
expect 1 "$gamebatch" stress -p willow -s './wrong_solution willow' --cities 20..40 --out found \
  --html stress.html
shot stress.html stress 1590

# strength: the draft package tests/data/packages/strength-willow, built, with 60 of its
# accepted solution's mutants (spread over it): its gaps drawn and the coverage it misses.
cp -r "$root/tests/data/packages/strength-willow" pkg
expect 0 "$gamebatch" build --no-cache pkg
expect 1 "$gamebatch" strength --no-cache --mutants 60 --html strength.html pkg
shot strength.html strength 2400
