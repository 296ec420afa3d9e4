#!/usr/bin/env bash
# `gamebatch check` against what a setter runs today to judge a solution on every file: a shell
# loop, or GNU parallel, running the solution per file and comparing its output with `cmp`
# against answers solved beforehand. check does more per run (its own process group, CPU, memory
# and output watched, token comparison case by case, verdicts and a table) and solves the
# expected answers itself (included in its time); the loops do no more than run and compare.
#
#   tools/bench/check_bench.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch, tools/bench/command_bench and the test
# suite's tests/solutions/reference_solution (gamebatch's own solver as a solution program).
# Inputs: `gamebatch gen willow --count 2000 --seed 1 --cities 2..40`, one small case per file,
# so the cost measured is the cost of a run, not of solving. Prints Markdown on stdout:
#   1. check --jobs 2 vs `parallel -j2`. Target: faster.
#   2. check --jobs 1 vs the loop. Target: at most 1.25x the loop's time (what judging every run
#      under limits may cost).
# --quick: 200 files and one run of each command (3 otherwise). Exits 1 when a run fails or the
# target is missed.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 1 "$@"

gamebatch=$build/tools/gamebatch
command_bench=$build/tools/bench/command_bench
solution=$build/tests/solutions/reference_solution
bench_require_built "$gamebatch" "$command_bench" "$solution"
command -v parallel >/dev/null || die "GNU parallel is missing (apt-get install parallel)"

bench_make_scratch "$build"
files=$((quick ? 200 : 2000))
repeat=$((quick ? 1 : 3))
set_dir=$scratch/set
"$gamebatch" gen willow --count "$files" --seed 1 --cities 2..40 --out "$set_dir" >/dev/null
# The loops compare with answers solved beforehand (not timed).
"$gamebatch" solve --problem willow --no-cache --quiet "$set_dir" 2>/dev/null

sol="$(quote "$solution") willow"
set_q=$(quote "$set_dir")
check="$(quote "$gamebatch") check -p willow --no-cache -s $(quote "$sol")"
out_q=$(quote "$scratch/loop.out")
loop="for f in $set_q/*.in; do $sol < \$f > $out_q; cmp -s $out_q \${f%.in}.ans || exit 1; done"

echo "## check: $files one-case willow files, one solution"
echo
bench_machine_line
echo
"$command_bench" --repeat "$repeat" --markdown --min-ratio 1 \
  --run "check --jobs 2=$check --jobs 2 $set_q" \
  --run "parallel -j2 + cmp=parallel -j2 $(quote "$sol < {} | cmp -s - {.}.ans") ::: $set_q/*.in" \
  || fail_section
echo
"$command_bench" --repeat "$repeat" --markdown --min-ratio 0.8 \
  --run "check --jobs 1=$check --jobs 1 $set_q" \
  --run "shell loop + cmp=sh -c $(quote "$loop")" || fail_section
bench_finish
