#!/usr/bin/env bash
# boigame performance benchmark: gamebatch against a straightforward DP of the analysis, measured
# in one run.
#
#   tools/bench/boigame_bench.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch and tools/bench/{command_bench,
# make_boigame_case,boigame_baseline}. A relative path is taken from the repo root. The inputs
# are generated (the same bytes on every machine). Prints Markdown tables on stdout (progress on
# stderr):
#   1. Ten 300 x 300 boards in one file (open, sparse, dense, snake, maze; A and B in opposite
#      corners, then at random): gamebatch --jobs 2 vs boigame_baseline, both answer files
#      checked equal to the baseline's answers. Targets: speed-up >= 3x, gamebatch peak <= 24 MB.
#   2. Single boards of side 2000, every shape, corners: gamebatch --jobs 2 vs boigame_baseline.
# --quick measures each command once instead of 5 (section 1) / 2 (section 2) times.
# Exits 1 when a run fails, an answer differs or a target is missed; all sections still run.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 1 "$@"

gamebatch=$build/tools/gamebatch
command_bench=$build/tools/bench/command_bench
make_case=$build/tools/bench/make_boigame_case
baseline=$build/tools/bench/boigame_baseline
bench_require_built "$gamebatch" "$command_bench" "$make_case" "$baseline"

solve=$(bench_solve_command "$gamebatch" boigame)
bench_make_scratch

if ((quick)); then
  file_repeat=1
  large_repeat=1
else
  file_repeat=5
  large_repeat=2
fi

# Writes the input and the baseline's answers to it (the reference both programs are checked
# against in every measured run).
make_input() {
  local input=$1
  shift
  "$make_case" "$@" --output "$input" || die "make_boigame_case $* failed"
  "$baseline" <"$input" >"${input%.in}.expected" || die "boigame_baseline failed on $input"
}

echo "## boigame benchmark"
echo
bench_machine_line
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`; repeats: $file_repeat (300 file), $large_repeat (n = 2000)."
echo "Speed-up = baseline median wall time / gamebatch median wall time; MB = 10^6 bytes."
echo

echo "### Ten 300 x 300 boards in one file: gamebatch --jobs 2 vs boigame_baseline"
echo
echo "\`make_boigame_case --shape mixed --placement mixed -n 300 -T 10 --seed 1\`: open, sparse,"
echo "dense, snake, maze with A and B in opposite corners, then the same five at random squares."
echo "Targets: speed-up >= 3x, gamebatch peak <= 24 MB. Both answer files checked against the"
echo "baseline's answers, produced beforehand."
echo
file_in=$scratch/mixed-300.in
make_input "$file_in" --shape mixed --placement mixed -n 300 -T 10 --seed 1
"$command_bench" --markdown --repeat "$file_repeat" --warmup 1 --timeout 600 \
  --min-ratio 3 --max-peak-mb 24 \
  --run "gamebatch=$solve --out {out} $(quote "$file_in")" \
  --run "baseline=$(quote "$baseline") < $(quote "$file_in") > {out}/mixed-300.ans" \
  --check "gamebatch={out}/mixed-300.ans:${file_in%.in}.expected" \
  --check "baseline={out}/mixed-300.ans:${file_in%.in}.expected" || fail_section
echo

echo "### Single boards of side 2000, A and B in opposite corners: gamebatch --jobs 2 vs boigame_baseline"
echo
echo "One board per file, made by \`make_boigame_case --shape S --placement corners -n 2000 --seed 1\`."
echo
for shape in open sparse dense snake maze; do
  input=$scratch/$shape-2000.in
  make_input "$input" --shape "$shape" --placement corners -n 2000 --seed 1
  echo "#### $shape, n = 2000 (answer $(cat "${input%.in}.expected"))"
  echo
  "$command_bench" --markdown --repeat "$large_repeat" --timeout 600 \
    --run "gamebatch=$solve --out {out} $(quote "$input")" \
    --run "baseline=$(quote "$baseline") < $(quote "$input") > {out}/$shape-2000.ans" \
    --check "gamebatch={out}/$shape-2000.ans:${input%.in}.expected" \
    --check "baseline={out}/$shape-2000.ans:${input%.in}.expected" || fail_section
  echo
done

bench_finish
