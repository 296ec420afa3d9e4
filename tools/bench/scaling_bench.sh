#!/usr/bin/env bash
# Scaling with threads: every game's typical sets solved with --jobs 1, 2, 4, ... up to the
# machine's cores (nproc, included when not a power of two), one Markdown table of wall time and
# speed-up over --jobs 1 per set, the answers checked identical across --jobs.
#
#   tools/bench/scaling_bench.sh [--quick] [BUILD_DIR [BASELINE_GAMEBATCH]]
#
# BUILD_DIR (default: build) must hold tools/gamebatch and tools/bench/command_bench. The sets are
# generated with `gamebatch gen` beside the build (a disk: the file system is part of what is
# measured), answers go to a fresh directory per run:
#   willow, 20,000 one-case files       gen willow --count 20000 --seed 11, solve --no-cache
#   the same, answers unchanged         a rerun into answers already there: no file written
#   gen willow --count 20000            gen itself (the set above)
#   wallgame, 1,000 small boards        gen wallgame --count 1000 --seed 12 (2..50 x 1..50)
#   boigame, 16 boards of side 1000..2000   gen boigame --size 1000..2000 --count 16 --seed 3
#   willow, 4 cases of 8,000 cities     gen willow --cities 8000 --count 4 --seed 13
#   doublemove, n 30..50                gen doublemove --n 30..50 --count 20 --seed 5
#   doublemove table n <= 35            gamebatch table doublemove --max-n 35
#   willow, warm cache                  500 files of 500..1000 cities, every case in the cache
# With BASELINE_GAMEBATCH (another build's tools/gamebatch, e.g. the previous main), the 20,000
# files and gen are also run by it at --jobs 1 and nproc, interleaved with this build's runs, in a
# table of their own (the baseline is the reference: speed-up = its wall / this build's).
# Answer trees are kept until the end: removing many files makes creating the next ones dearer
# for a while on ext4 (inodes freed in the last minute are skipped), which would slow later rows.
# Targets: at nproc every set at least as fast as at --jobs 1; with 2 cores or more, the 20,000
# files and gen at --jobs 2 at most 0.9x --jobs 1; with 16 cores or more, the 20,000 files at
# --jobs 16 at most 0.5x --jobs 1.
# --quick: a tenth of the 20,000 files, a quarter of the boigame and doublemove sets, half the
# big willow cases, one run of each command (3 otherwise); the sets that take 50 ms are kept
# whole, as a second thread's start would weigh on less. Prints Markdown on stdout
# (progress and each command_bench table's path on stderr). Exits 1 when a run fails, answers
# differ across --jobs or a target is missed; all sets still run.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 2 "$@"
baseline=""
if ((${#positional[@]} == 2)); then
  baseline=$(realpath "${positional[1]}")
  [[ -x $baseline ]] || die "the baseline '$baseline' is not an executable"
fi

gamebatch=$build/tools/gamebatch
command_bench=$build/tools/bench/command_bench
bench_require_built "$gamebatch" "$command_bench"
"$gamebatch" table --help 2>/dev/null | grep -q -- '--jobs' || die "this gamebatch's table has no --jobs"

bench_make_scratch "$build"
scale=$((quick ? 10 : 1))
repeat=$((quick ? 1 : 3))
gb=$(quote "$gamebatch")
cores=$(nproc)
jobs_list=()
for ((j = 1; j < cores; j *= 2)); do jobs_list+=("$j"); done
jobs_list+=("$cores")

gen() {
  local game=$1 out=$2
  shift 2
  "$gamebatch" gen "$game" --out "$out" "$@" >/dev/null 2>&1 || die "gamebatch gen $game $* failed"
}

echo "$bench_name: generating the sets" >&2
small=$((20000 / scale))
gen willow "$scratch/willow-small" --count "$small" --seed 11
gen wallgame "$scratch/wallgame-small" --count 1000 --seed 12
gen boigame "$scratch/boigame-big" --size 1000..2000 --count $((16 / (quick ? 4 : 1))) --seed 3
gen willow "$scratch/willow-big" --cities 8000 --count $((quick ? 2 : 4)) --seed 13
gen doublemove "$scratch/doublemove" --n 30..50 --count $((20 / (quick ? 4 : 1))) --seed 5
gen willow "$scratch/willow-cached" --cities 500..1000 --count 500 --seed 14
"$gamebatch" solve -p willow --cache "$scratch/warm.cache" --cache-min-solve-us 0 \
  --out "$scratch/warm-answers" "$scratch/willow-cached" 2>/dev/null || die "filling the cache failed"
"$gamebatch" solve -p willow --no-cache --out "$scratch/unchanged" "$scratch/willow-small" \
  2>/dev/null || die "solving the set to rerun failed"
sync

summary=$scratch/summary.md
{
  printf '| set |'
  for j in "${jobs_list[@]}"; do printf ' --jobs %s s |' "$j"; done
  printf ' speed-up at %s | cpu s at 1 / %s | peak MB at 1 / %s | answers |\n' "$cores" "$cores" "$cores"
  printf '| :-- |'
  for _ in "${jobs_list[@]}"; do printf ' --: |'; done
  printf ' --: | --: | --: | :-- |\n'
} >"$summary"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }'; }
at_most() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "?" && b != "?" && a <= b) }'; }

# measure NAME PRODUCED TEMPLATE: runs TEMPLATE (a command line in which @JOBS@ stands for the
# thread count and {out} for a fresh directory) for every --jobs, interleaved, and adds a row to
# the summary. PRODUCED (under {out}, or an absolute path) is what must be the same for every
# --jobs: compared after the first run of each.
declare -A wall
measure() {
  local name=$1 produced=$2 template=$3 runs=() j
  for j in "${jobs_list[@]}"; do runs+=(--run "jobs $j=${template//@JOBS@/$j}"); done
  local row_dir=$scratch/runs/${name//[^a-zA-Z0-9]/_}
  mkdir -p "$row_dir"
  local table=$row_dir/table.md
  echo "$bench_name: $name" >&2
  local verdict=identical
  if ! "$command_bench" --markdown --no-baseline --repeat "$repeat" --timeout 1200 --keep \
    --tmp-dir "$row_dir" "${runs[@]}" >"$table" 2>"$row_dir/stderr"; then
    verdict="RUN FAILED"
    failed=1
    tail -n 20 "$row_dir/stderr" >&2
  fi
  echo "$bench_name: table $table" >&2
  local kept first="" index=0
  kept=$(echo "$row_dir"/command_bench.*)
  for j in "${jobs_list[@]}"; do
    local tree=$kept/cmd$index.rep0/out/$produced
    [[ $produced == /* ]] && tree=$produced
    if [[ -z $first ]]; then
      first=$tree
    elif ! diff -r -q "$first" "$tree" >&2; then
      verdict=DIFFERENT
      failed=1
    fi
    index=$((index + 1))
  done
  local row="| $name |"
  for j in "${jobs_list[@]}"; do
    wall[$name,$j]=$(bench_column "$table" "jobs$j" 3)
    row+=" ${wall[$name,$j]} |"
  done
  local speedup
  speedup=$(ratio "${wall[$name,1]}" "${wall[$name,$cores]}")
  at_most "${wall[$name,$cores]}" "${wall[$name,1]}" || {
    speedup+=" (SLOWER)"
    failed=1
  }
  row+=" ${speedup}x | $(bench_column "$table" jobs1 5) / $(bench_column "$table" "jobs$cores" 5) |"
  row+=" $(bench_column "$table" jobs1 6) / $(bench_column "$table" "jobs$cores" 6) | $verdict |"
  echo "$row" >>"$summary"
}

willow_small="willow, $small one-case files"
measure "$willow_small" . \
  "$gb solve -p willow --no-cache --jobs @JOBS@ --out {out} $(quote "$scratch/willow-small")"
measure "the same, answers unchanged" "$scratch/unchanged" \
  "$gb solve -p willow --no-cache --jobs @JOBS@ --out $(quote "$scratch/unchanged") $(quote "$scratch/willow-small")"
gen_row="gen willow --count $small"
measure "$gen_row" set "$gb gen willow --count $small --seed 11 --jobs @JOBS@ --out {out}/set"
measure "wallgame, 1000 small boards" . \
  "$gb solve -p wallgame --no-cache --jobs @JOBS@ --out {out} $(quote "$scratch/wallgame-small")"
measure "boigame, $((16 / (quick ? 4 : 1))) boards of side 1000..2000" . \
  "$gb solve -p boigame --no-cache --jobs @JOBS@ --out {out} $(quote "$scratch/boigame-big")"
measure "willow, $((quick ? 2 : 4)) cases of 8,000 cities" . \
  "$gb solve -p willow --no-cache --jobs @JOBS@ --out {out} $(quote "$scratch/willow-big")"
measure "doublemove, n 30..50" . \
  "$gb solve -p doublemove --no-cache --jobs @JOBS@ --out {out} $(quote "$scratch/doublemove")"
measure "doublemove table n <= 35" table.csv \
  "sh -c '$gb table doublemove --max-n 35 --format csv --jobs @JOBS@ > {out}/table.csv'"
measure "willow, warm cache (500 files)" . \
  "$gb solve -p willow --cache $(quote "$scratch/warm.cache") --jobs @JOBS@ --out {out} $(quote "$scratch/willow-cached")"

# The previous gamebatch against this one on the two sets of many files.
compare_with_baseline() {
  local name=$1 template=$2 runs=() j who exe
  for j in 1 "$cores"; do
    for who in this baseline; do
      exe=$gb
      [[ $who == baseline ]] && exe=$(quote "$baseline")
      local command=${template//@GAMEBATCH@/$exe}
      runs+=(--run "$who, jobs $j=${command//@JOBS@/$j}")
    done
  done
  local row_dir=$scratch/baseline/${name//[^a-zA-Z0-9]/_}
  mkdir -p "$row_dir"
  echo "$bench_name: $name against the baseline" >&2
  echo "#### $name"
  echo
  # --keep: removing the trees between runs would make the next runs' files dearer (see above).
  "$command_bench" --markdown --repeat "$repeat" --timeout 1200 --keep --tmp-dir "$row_dir" \
    "${runs[@]}" 2>"$row_dir/stderr" || fail_section
  echo
}
baseline_tables=$scratch/baseline.md
if [[ -n $baseline ]]; then
  {
    compare_with_baseline "$willow_small" \
      "@GAMEBATCH@ solve -p willow --no-cache --jobs @JOBS@ --out {out} $(quote "$scratch/willow-small")"
    compare_with_baseline "$gen_row" \
      "@GAMEBATCH@ gen willow --count $small --seed 11 --jobs @JOBS@ --out {out}/set"
  } >"$baseline_tables"
fi

echo "## Scaling with --jobs"
echo
bench_machine_line
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`; repeats: $repeat; sets and answers on"
echo "$(df -T "$scratch" | awk 'NR == 2 { print $2 }'). Median wall seconds; speed-up = --jobs 1 / --jobs $cores; cpu s and peak MB"
echo "(whole process) at --jobs 1 and $cores. MB = 10^6 bytes."
echo
cat "$summary"
echo
target() {  # target WHAT MEASURED LIMIT
  if at_most "$2" "$3"; then
    echo "- $1: $2 (target <= $3): met"
  else
    echo "- $1: $2 (target <= $3): NOT met"
    failed=1
  fi
}
if ((cores >= 2)); then
  target "$willow_small, --jobs 2 / --jobs 1" \
    "$(ratio "${wall[$willow_small,2]}" "${wall[$willow_small,1]}")" 0.9
  target "$gen_row, --jobs 2 / --jobs 1" "$(ratio "${wall[$gen_row,2]}" "${wall[$gen_row,1]}")" 0.9
fi
if ((cores >= 16)); then
  target "$willow_small, --jobs 16 / --jobs 1" \
    "$(ratio "${wall[$willow_small,16]}" "${wall[$willow_small,1]}")" 0.5
fi
echo
if [[ -n $baseline ]]; then
  echo "### This build against \`$baseline\`"
  echo
  echo "Speed-up = the row's wall time over the first row's (this build, --jobs 1)."
  echo
  cat "$baseline_tables"
fi
bench_finish
