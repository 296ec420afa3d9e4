#!/usr/bin/env bash
# doublemove performance benchmark: the state tables, and many cases through the gamebatch binary.
#
#   tools/bench/doublemove_bench.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch and tools/bench/{command_bench,
# doublemove_table_bench,make_doublemove_case}. Relative paths are taken from the repo root.
# Prints Markdown tables on stdout (progress on stderr):
#   1. doublemove_table_bench on one core: the tables of n = 1..35 against a hash-map minimax
#      (target: under 1 s), then time and memory of one table per n upwards until a build takes
#      over 60 s or the largest supported n is done.
#   2. 10,000 random cases of n = 35 (k random in 0..n+1, every declaration pattern) through
#      `gamebatch solve`, beside a file holding one case of n = 35: the many-case file should
#      cost one table plus look-ups. The --jobs 2 answers are checked against the --jobs 1 ones.
# --quick: budget 10 s instead of 60 in section 1, one repeat instead of 3 in section 2.
# Exits 1 when a run fails or an answer differs; all sections still run.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 1 "$@"

gamebatch=$build/tools/gamebatch
command_bench=$build/tools/bench/command_bench
table_bench=$build/tools/bench/doublemove_table_bench
make_case=$build/tools/bench/make_doublemove_case
bench_require_built "$gamebatch" "$command_bench" "$table_bench" "$make_case"

if ((quick)); then
  budget=10
  repeat=1
else
  budget=60
  repeat=3
fi

bench_make_scratch

echo "# doublemove benchmark"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`."
echo
"$table_bench" --threads 1 --budget-seconds "$budget" || fail_section
echo

echo "## 10,000 cases of n = 35 through gamebatch solve"
echo
echo "Inputs: \`make_doublemove_case --n 35 --cases 10000 --seed 1\` (k random in 0..36, mixed"
echo "declaration patterns) and \`make_doublemove_case --n 35 --k 0 --cases 1\`. No answer cache."
echo "The 10,000 cases should cost little more than the one: one table plus look-ups."
echo
many=$scratch/many-35.in
one=$scratch/one-35.in
"$make_case" --n 35 --cases 10000 --seed 1 --output "$many" || die "make_doublemove_case failed"
"$make_case" --n 35 --k 0 --cases 1 --seed 1 --output "$one" || die "make_doublemove_case failed"
solve="$(quote "$gamebatch") solve --problem doublemove --no-cache"
# The reference answers for the check: one run on one thread.
mkdir -p "$scratch/reference"
eval "$solve --jobs 1 --out $(quote "$scratch/reference") $(quote "$many")" 2>/dev/null ||
  die "gamebatch failed on $many"
"$command_bench" --markdown --no-baseline --repeat "$repeat" --timeout 600 \
  --run "10000 cases, --jobs 1=$solve --jobs 1 --out {out} $(quote "$many")" \
  --run "10000 cases, --jobs 2=$solve --jobs 2 --out {out} $(quote "$many")" \
  --run "1 case, --jobs 1=$solve --jobs 1 --out {out} $(quote "$one")" \
  --check "10000 cases, --jobs 2={out}/many-35.ans:$scratch/reference/many-35.ans" ||
  fail_section
echo

bench_finish "all runs succeeded"
