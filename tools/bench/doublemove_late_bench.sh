#!/usr/bin/env bash
# doublemove late cases: games still running with 3..13 declarations left, n = 45..67, through
# `gamebatch solve`, against the previous main (which builds the state table of every n).
#
#   tools/bench/doublemove_late_bench.sh [--quick] [BUILD_DIR [BASELINE_BUILD_DIR]]
#
# BUILD_DIR (default: build) must hold tools/gamebatch and tools/bench/{command_bench,
# make_doublemove_late_case,doublemove_table_bench}. BASELINE_BUILD_DIR (optional) is a build of
# the previous main with tools/gamebatch and tools/bench/doublemove_table_bench; without it only
# the candidate is measured. Relative paths are taken from the repo root. Prints Markdown on stdout
# (progress on stderr):
#   1. The 40 cases of tests/data/doublemove/late-cases.in (make_doublemove_late_case --n 45..67
#      --left 3..13 --cases 40 --seed 1) through `gamebatch solve --jobs 2`, candidate and
#      baseline, each run's answers checked against late-cases.ans (made by the tables).
#      Targets: at most 0.05x the baseline's time and 0.1x its peak memory.
#   2. The k = 0 tables: doublemove_table_bench --threads 1 --budget-seconds 10 --skip-baseline
#      (tables of n = 1..35, then one per n until a build takes 10 s) of the candidate and of the
#      baseline, alternating, twice each; the total build time of the tables all runs reached.
#      Target: no slower (the candidate's total at most 1.1x the baseline's, for noise).
# --quick: one repeat instead of 3 in section 1, one round instead of 2 in section 2. The baseline of section 1 takes minutes and up
# to 8 GB: run it on a machine otherwise idle.
# Exits 1 when a run fails, an answer differs or a target is missed; all sections still run.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 2 "$@"
baseline_build=""
if ((${#positional[@]} > 1)); then
  baseline_build=$(realpath -m "${positional[1]}")
fi

gamebatch=$build/tools/gamebatch
command_bench=$build/tools/bench/command_bench
table_bench=$build/tools/bench/doublemove_table_bench
bench_require_built "$gamebatch" "$command_bench" "$table_bench"
if [[ -n $baseline_build ]]; then
  for exe in "$baseline_build/tools/gamebatch" "$baseline_build/tools/bench/doublemove_table_bench"; do
    [[ -x $exe ]] || die "'$exe' is missing: build the baseline's gamebatch and doublemove_table_bench"
  done
fi

if ((quick)); then
  repeat=1
  table_rounds=1
else
  repeat=3
  table_rounds=2
fi

bench_make_scratch

late_in=tests/data/doublemove/late-cases.in
late_ans=tests/data/doublemove/late-cases.ans

echo "## doublemove late cases"
echo
bench_machine_line
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`; baseline: \`${baseline_build:-none}\`."
echo "MB = 10^6 bytes; speed-up and memory ratio: baseline / candidate."
echo
echo "### 40 late cases of n = 45..67 (3..13 declarations left) through gamebatch solve --jobs 2"
echo
echo "Input: \`$late_in\` (\`make_doublemove_late_case --n 45..67 --left 3..13 --cases 40 --seed 1\`)."
echo "Targets: candidate at most 0.05x the baseline's time (speed-up >= 20x) and 0.1x its peak"
echo "memory (memory ratio >= 10x). Every run's answers checked against \`$late_ans\`."
echo
# Both under nice, as the baseline must be on a shared machine: the same priority for both.
runs=(--run "candidate=nice $(bench_solve_command "$gamebatch" doublemove) --out {out} $(quote "$late_in")"
  --check "candidate={out}/late-cases.ans:$late_ans")
limits=()
if [[ -n $baseline_build ]]; then
  runs+=(--run "baseline=nice $(bench_solve_command "$baseline_build/tools/gamebatch" doublemove) --out {out} $(quote "$late_in")"
    --check "baseline={out}/late-cases.ans:$late_ans")
  limits=(--min-ratio 20)
else
  runs+=(--no-baseline)
fi
late_table=$scratch/late.md
if "$command_bench" --markdown --repeat "$repeat" --timeout 1200 "${limits[@]}" "${runs[@]}" >"$late_table"; then
  cat "$late_table"
else
  cat "$late_table"
  fail_section
fi
if [[ -n $baseline_build ]]; then
  candidate_peak=$(bench_column "$late_table" candidate 6)
  baseline_peak=$(bench_column "$late_table" baseline 6)
  if awk -v c="$candidate_peak" -v b="$baseline_peak" 'BEGIN { exit !(c <= 0.1 * b) }'; then
    echo
    echo "Peak memory: $candidate_peak MB against $baseline_peak MB: target met."
  else
    echo
    echo "Peak memory: $candidate_peak MB against $baseline_peak MB: **target missed** (0.1x)."
    failed=1
  fi
fi
echo

echo "### k = 0 tables: doublemove_table_bench --threads 1 --budget-seconds 10 --skip-baseline"
echo
echo "Each build's table bench $table_rounds times, alternating; the least of each figure is kept."
echo
# The build seconds summed over the one-table-per-n section for n <= MAX_N (default: all), and
# the largest n there: table_total FILE [MAX_N].
table_total() {
  awk -F'|' -v max_n="${2:-1000}" '
    /One table per n/ { in_section = 1; next }
    in_section && $2 ~ /^ *[0-9]+ *$/ { n = $2 + 0; if (n <= max_n) { total += $6; last = n } }
    END { printf "%.3f %d\n", total, last }' "$1"
}
# The seconds of the tables of n = 1..35 (the first section).
first_tables() { awk -F'|' '/ranked partitions/ { gsub(/ /, "", $4); print $4 }' "$1"; }
# The least of the numbers on standard input.
least() { sort -g | head -n 1; }

builds=(candidate)
[[ -n $baseline_build ]] && builds+=(baseline)
for round in $(seq "$table_rounds"); do
  for who in "${builds[@]}"; do
    exe=$table_bench
    [[ $who == baseline ]] && exe=$baseline_build/tools/bench/doublemove_table_bench
    nice "$exe" --threads 1 --budget-seconds 10 --skip-baseline >"$scratch/table-$who-$round.md" ||
      fail_section
  done
done
# Every round of every build reached n = common at least.
common=1000
for file in "$scratch"/table-*.md; do
  read -r _ last < <(table_total "$file")
  ((last < common)) && common=$last
done
echo "| build | tables n = 1..35, s | one table per n, n = 1..$common, total s |"
echo "| :-- | --: | --: |"
declare -A first_s total_s
for who in "${builds[@]}"; do
  first_s[$who]=$(for file in "$scratch"/table-"$who"-*.md; do first_tables "$file"; done | least)
  total_s[$who]=$(for file in "$scratch"/table-"$who"-*.md; do
    read -r total _ < <(table_total "$file" "$common")
    echo "$total"
  done | least)
  echo "| $who | ${first_s[$who]} | ${total_s[$who]} |"
done
echo
if [[ -n $baseline_build ]]; then
  ratio=$(awk -v c="${total_s[candidate]}" -v b="${total_s[baseline]}" \
    'BEGIN { if (b > 0 && c > 0) printf "%.2f", c / b; else print "none" }')
  if [[ $ratio != none ]] && awk -v r="$ratio" 'BEGIN { exit !(r <= 1.1) }'; then
    echo "Candidate / baseline: ${ratio}x: target met (no slower; 1.1x allowed for noise)."
  else
    echo "Candidate / baseline: ${ratio}x: **target missed**."
    failed=1
  fi
fi
echo

bench_finish
