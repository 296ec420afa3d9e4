#!/usr/bin/env bash
# willow performance benchmark: gamebatch against the contest editorial, measured in one run.
#
#   tools/bench/willow_bench.sh [--quick] [BUILD_DIR] [SHARED_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch and tools/bench/{command_bench,
# make_willow_case}; SHARED_DIR defaults to ../shared. Relative paths are taken from the repo
# root. Prints Markdown tables on stdout (progress on stderr):
#   1. D-large-practice.in: gamebatch --jobs 2 vs the editorial (g++ -O2 -mcmodel=medium), both
#      outputs checked against D-large-practice.correct. Targets: speed-up >= 10x, peak <= 300 MB.
#   2. Single generated cases, N = 10,000 and 20,000, shapes random/path/star: gamebatch --jobs 2
#      time and peak memory (no baseline: the editorial would need ~7-29 GB).
# --quick measures each command once instead of 3 (large file) / 2 (generated cases) times.
# Exits 1 when a run fails, an answer is wrong or a target is missed; all sections still run.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 2 "$@"
shared=$(realpath -m "${positional[1]:-../shared}")

gamebatch=$build/tools/gamebatch
command_bench=$build/tools/bench/command_bench
make_case=$build/tools/bench/make_willow_case
bench_require_built "$gamebatch" "$command_bench" "$make_case"

editorial_src=$shared/baselines/willow_editorial.cpp
large_in=$shared/data/willow/D-large-practice.in
large_correct=$shared/data/willow/D-large-practice.correct
for file in "$editorial_src" "$large_in" "$large_correct"; do
  [[ -f $file ]] || die "'$file' not found (is SHARED_DIR '$shared' right?)"
done

# The baseline is built exactly as the spec states.
editorial=$build/bench/willow_editorial
bench_compile_baseline "$editorial_src" "$editorial" -O2 -mcmodel=medium

solve=$(bench_solve_command "$gamebatch" willow)
bench_make_scratch

if ((quick)); then
  large_repeat=1
  size_repeat=1
else
  large_repeat=3
  size_repeat=2
fi

echo "## willow benchmark"
echo
bench_machine_line
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`; repeats: $large_repeat (large file), $size_repeat (generated cases)."
echo "Speed-up = baseline median wall time / gamebatch median wall time; MB = 10^6 bytes."
echo

echo "### D-large-practice.in (50 cases, N <= 4000): gamebatch --jobs 2 vs the editorial"
echo
echo "Targets: speed-up >= 10x, gamebatch peak <= 300 MB. Both outputs checked against \`D-large-practice.correct\`."
echo
"$command_bench" --markdown --repeat "$large_repeat" --timeout 600 \
  --min-ratio 10 --max-peak-mb 300 \
  --run "gamebatch=$solve --out {out} $(quote "$large_in")" \
  --run "editorial=$(quote "$editorial") < $(quote "$large_in") > {out}/D-large-practice.ans" \
  --check "gamebatch={out}/D-large-practice.ans:$large_correct" \
  --check "editorial={out}/D-large-practice.ans:$large_correct" || fail_section
echo

echo "### Single generated cases: gamebatch --jobs 2"
echo
echo "One case per file, coins 0..10000, made by \`make_willow_case --shape S --cities N --seed 1\`."
echo
runs=()
for n in 10000 20000; do
  for shape in random path star; do
    input=$scratch/$shape-$n.in
    "$make_case" --shape "$shape" --cities "$n" --seed 1 --output "$input" ||
      die "make_willow_case failed for $shape, N = $n"
    runs+=(--run "$shape, N $n=$solve --out {out} $(quote "$input")")
  done
done
"$command_bench" --markdown --no-baseline --repeat "$size_repeat" --timeout 600 "${runs[@]}" ||
  fail_section
echo

bench_finish
