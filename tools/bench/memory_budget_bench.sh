#!/usr/bin/env bash
# doublemove under --memory-budget: a file of cases with n = 60..67 (their state tables take
# 7.5 GiB together, the largest 1.74 GiB) solved under a 3 GB budget and without one.
#
#   tools/bench/memory_budget_bench.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch and tools/bench/command_bench. Prints a
# Markdown table: time and peak memory of each run; the budgeted run must peak below 3,000 MB
# (ru_maxrss of the process) and give the unbounded run's answers. The unbounded run needs about
# 8 GB of memory. Two cases per n (k = 0, and two declarations), in ascending n: each table is
# built once either way, and under the budget the older ones are dropped to make room.
# --quick: n = 60..64 only (3.1 GiB of tables), budget 1.5 GB.
# Exits 1 when a run fails, an answer differs or the budgeted run peaks above its budget.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 1 "$@"

gamebatch=$build/tools/gamebatch
command_bench=$build/tools/bench/command_bench
bench_require_built "$gamebatch" "$command_bench"

if ((quick)); then
  largest_n=64
  budget_mb=1500
else
  largest_n=67
  budget_mb=3000
fi

bench_make_scratch
input=$scratch/tables.in
{
  echo $((2 * (largest_n - 60 + 1)))
  for ((n = 60; n <= largest_n; ++n)); do
    printf '%d 0\n%d 2\n1 2\n3 4\n' "$n" "$n"
  done
} >"$input"

echo "# doublemove under a memory budget"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`. Two cases per n = 60..$largest_n,"
echo "\`--no-cache\`, all cores. Peak memory: ru_maxrss of the process."
echo
solve="$(quote "$gamebatch") solve --problem doublemove --no-cache"
mkdir -p "$scratch/budget" "$scratch/unbounded"
"$command_bench" --markdown --repeat 1 --timeout 3600 --max-peak-mb "$budget_mb" \
  --run "--memory-budget ${budget_mb}M=$solve --memory-budget ${budget_mb}M --out $(quote "$scratch/budget") $(quote "$input")" \
  --run "no budget=$solve --memory-budget 0 --out $(quote "$scratch/unbounded") $(quote "$input")" ||
  fail_section
cmp "$scratch/budget/tables.ans" "$scratch/unbounded/tables.ans" ||
  { echo "the answers under the budget differ" >&2; fail_section; }
echo

bench_finish "all runs succeeded"
