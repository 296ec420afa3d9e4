#!/usr/bin/env bash
# wallgame performance benchmark: gamebatch against the contest editorial, measured in one run.
#
#   tools/bench/wallgame_bench.sh [--quick] [BUILD_DIR] [SHARED_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch and tools/bench/{command_bench,
# make_wallgame_case}; SHARED_DIR defaults to ../shared. Relative paths are taken from the repo
# root. Prints Markdown tables on stdout (progress on stderr):
#   1. 1,000 random boards, h 2..50 and w 1..50, digits 0..9 (make_wallgame_case --seed 1):
#      gamebatch --jobs 2 vs the editorial (g++ -O2, as its header says), both outputs checked
#      against the editorial's answers from an unmeasured run. Target: speed-up >= 5x.
#   2. Single boards beyond the original limits (500 x 500, 2000 x 2000): gamebatch --jobs 2
#      time and peak memory (no baseline: the editorial's tables stop at 50 x 50).
# --quick measures each command once instead of 5 (random file) / 3 (single boards) times.
# Exits 1 when a run fails, an answer is wrong or the target is missed; all sections still run.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 2 "$@"
shared=$(realpath -m "${positional[1]:-../shared}")

gamebatch=$build/tools/gamebatch
command_bench=$build/tools/bench/command_bench
make_case=$build/tools/bench/make_wallgame_case
bench_require_built "$gamebatch" "$command_bench" "$make_case"

editorial_src=$shared/baselines/wallgame_editorial.cpp
[[ -f $editorial_src ]] || die "'$editorial_src' not found (is SHARED_DIR '$shared' right?)"

# The baseline is built exactly as its header states.
editorial=$build/bench/wallgame_editorial
bench_compile_baseline "$editorial_src" "$editorial" -O2

solve=$(bench_solve_command "$gamebatch" wallgame)
bench_make_scratch

if ((quick)); then
  file_repeat=1
  size_repeat=1
else
  file_repeat=5
  size_repeat=3
fi

echo "## wallgame benchmark"
echo
bench_machine_line
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`; repeats: $file_repeat (random file), $size_repeat (single boards)."
echo "Speed-up = baseline median wall time / gamebatch median wall time; MB = 10^6 bytes."
echo

random_in=$scratch/random-1000.in
"$make_case" --cases 1000 --height 2..50 --width 1..50 --costs uniform --seed 1 \
  --output "$random_in" || die "make_wallgame_case failed for the random file"
# The reference answers: the editorial's, from a run that is not timed.
random_expected=$scratch/random-1000.expected
"$editorial" < "$random_in" > "$random_expected" || die "the editorial failed on $random_in"

echo "### 1,000 random boards (h 2..50, w 1..50): gamebatch --jobs 2 vs the editorial"
echo
echo "Made by \`make_wallgame_case --cases 1000 --height 2..50 --width 1..50 --seed 1\`."
echo "Target: speed-up >= 5x. Both outputs checked against the editorial's answers (an unmeasured run)."
echo
"$command_bench" --markdown --repeat "$file_repeat" --timeout 600 --min-ratio 5 \
  --run "gamebatch=$solve --out {out} $(quote "$random_in")" \
  --run "editorial=$(quote "$editorial") < $(quote "$random_in") > {out}/random-1000.ans" \
  --check "gamebatch={out}/random-1000.ans:$random_expected" \
  --check "editorial={out}/random-1000.ans:$random_expected" || fail_section
echo

echo "### Single boards beyond the original limits: gamebatch --jobs 2"
echo
echo "One board per file, made by \`make_wallgame_case --height N --width N --costs C --seed 1\`."
echo
runs=()
for n in 500 2000; do
  for costs in uniform sparse; do
    input=$scratch/$costs-$n.in
    "$make_case" --height "$n" --width "$n" --costs "$costs" --seed 1 --output "$input" ||
      die "make_wallgame_case failed for $costs, $n x $n"
    runs+=(--run "$costs, $n x $n=$solve --out {out} $(quote "$input")")
  done
done
"$command_bench" --markdown --no-baseline --repeat "$size_repeat" --timeout 600 "${runs[@]}" ||
  fail_section
echo

bench_finish
