#!/usr/bin/env bash
# What the sandbox costs `gamebatch check`: the same check of a solution on many one-case files
# in the sandbox (the default) and with --no-sandbox, interleaved, medians compared.
#
#   tools/bench/sandbox_bench.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch (with tools/gamebatch-box beside it),
# tools/bench/command_bench and the test suite's tests/solutions/reference_solution (gamebatch's
# own solver as a solution program). Inputs: `gamebatch gen willow --count 2000 --seed 1
# --cities 2..40`, one small case per file, so the cost measured is the cost of a run (its start,
# its box, its end), not of solving. Both commands: check -p willow --no-cache --jobs 2 -s
# 'reference_solution willow', run ROUNDS times each (default 5), interleaved by command_bench.
# Prints Markdown on stdout: the median wall time of each and the ratio sandbox / no sandbox.
# Target: at most 1.3. --quick: 200 files. Files are removed only at the end (deleting many
# files slows this machine's ext4 for a while after).
# Exits 1 when a run fails or the target is missed, 2 when the sandbox cannot work here
# (`gamebatch check --sandbox-info` says why).
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 1 "$@"

gamebatch=$build/tools/gamebatch
command_bench=$build/tools/bench/command_bench
solution=$build/tests/solutions/reference_solution
bench_require_built "$gamebatch" "$command_bench" "$solution"
"$gamebatch" check --sandbox-info >&2 || die "the sandbox cannot work on this machine (above)"

files=$((quick ? 200 : 2000))
rounds=${ROUNDS:-5}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$rounds'"
max_ratio=1.3

bench_make_scratch "$build"
set_dir=$scratch/set
"$gamebatch" gen willow --count "$files" --seed 1 --cities 2..40 --out "$set_dir" >/dev/null

sol="$(quote "$solution") willow"
set_q=$(quote "$set_dir")
check="$(quote "$gamebatch") check -p willow --no-cache --jobs 2 -s $(quote "$sol")"

# Not a vacuous comparison: the default check must have run in the sandbox (its report says so).
first_file=$(find "$set_dir" -name '*.in' -print -quit)
"$gamebatch" check -p willow --no-cache -s "$sol" --report "$scratch/probe.json" "$first_file" \
  >/dev/null 2>&1 || die "check of $first_file failed"
grep -Eq '"enabled": *true' "$scratch/probe.json" ||
  die "the default check did not run in the sandbox: $(cat "$scratch/probe.json")"

echo "## check in the sandbox and without: $files one-case willow files, one solution"
echo
bench_machine_line
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`; rounds: $rounds, interleaved."
echo
# --keep with the scratch as command_bench's: its logs go away with the rest, at the end.
table=$scratch/table.md
if "$command_bench" --repeat "$rounds" --markdown --keep --tmp-dir "$scratch" \
  --run "sandbox=$check $set_q" \
  --run "no sandbox=$check --no-sandbox $set_q" >"$table"; then
  cat "$table"
  sandbox_s=$(bench_column "$table" sandbox 3)
  open_s=$(bench_column "$table" nosandbox 3)
  ratio=$(awk -v a="$sandbox_s" -v b="$open_s" 'BEGIN { printf "%.2f", a / b }')
  echo
  echo "Median wall time: sandbox $sandbox_s s, no sandbox $open_s s;" \
    "sandbox / no sandbox = ${ratio}x (target: at most ${max_ratio}x)."
  if ! awk -v r="$ratio" -v max="$max_ratio" 'BEGIN { exit !(r <= max) }'; then
    echo "$bench_name: target missed: the sandbox takes ${ratio}x the time of --no-sandbox" >&2
    failed=1
  fi
else
  cat "$table"
  fail_section
fi
bench_finish
