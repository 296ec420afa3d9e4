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
#   2. The k = 0 tables: doublemove_table_bench --threads 1 --budget-seconds 10 (tables of
#      n = 1..35, then one per n up to 10 s) of the candidate and of the baseline, one after the
#      other, with the total build time of the tables both reached. Target: no slower (the
#      candidate's total at most 1.1x the baseline's, for noise).
# --quick: one repeat instead of 3 in section 1. The baseline of section 1 takes minutes and up
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
else
  repeat=3
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

echo "### k = 0 tables: doublemove_table_bench --threads 1 --budget-seconds 10"
echo
# The total build seconds of the one-table-per-n section for n up to max_n, and the largest n.
table_total() {
  awk -F'|' -v max_n="${2:-1000}" '
    /^#### One table per n/ { in_section = 1; next }
    in_section && $2 ~ /^ *[0-9]+ *$/ { n = $2 + 0; if (n <= max_n) { total += $6; last = n } }
    END { printf "%.3f %d\n", total, last }' "$1"
}
nice "$table_bench" --threads 1 --budget-seconds 10 >"$scratch/table-candidate.md" || fail_section
read -r candidate_total candidate_last < <(table_total "$scratch/table-candidate.md")
if [[ -n $baseline_build ]]; then
  nice "$baseline_build/tools/bench/doublemove_table_bench" --threads 1 --budget-seconds 10 \
    >"$scratch/table-baseline.md" || fail_section
  read -r _ baseline_last < <(table_total "$scratch/table-baseline.md")
  common=$((candidate_last < baseline_last ? candidate_last : baseline_last))
  read -r candidate_total _ < <(table_total "$scratch/table-candidate.md" "$common")
  read -r baseline_total _ < <(table_total "$scratch/table-baseline.md" "$common")
  ratio=$(awk -v c="$candidate_total" -v b="$baseline_total" 'BEGIN { printf "%.2f", c / b }')
  echo "| build | tables n = 1..35, s | one table per n, n = 1..$common, total s |"
  echo "| :-- | --: | --: |"
  for who in candidate baseline; do
    first=$(awk -F'|' '/ranked partitions/ { gsub(/ /, "", $4); print $4 }' "$scratch/table-$who.md")
    total=$([[ $who == candidate ]] && echo "$candidate_total" || echo "$baseline_total")
    echo "| $who | $first | $total |"
  done
  echo
  if awk -v r="$ratio" 'BEGIN { exit !(r <= 1.1) }'; then
    echo "Candidate / baseline: ${ratio}x: target met (no slower, 1.1x allowed for noise)."
  else
    echo "Candidate / baseline: ${ratio}x: **target missed**."
    failed=1
  fi
else
  echo "Candidate: tables of n = 1..$candidate_last built one by one in $candidate_total s in all."
fi
echo

bench_finish
