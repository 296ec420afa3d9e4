#!/usr/bin/env bash
# What `gamebatch build` costs beside making the same tests by hand: a willow package whose plan
# has four groups of 250 tests each (gen willow --cities 100..1000 --cases-per-file 10; the groups'
# limits 100 <= N <= 1000, T = 10 checked on every test) is built cold, then rebuilt unchanged; the same
# 1,000 files are made by hand with four `gamebatch gen` runs (a seed each) and one
# `gamebatch solve` of them.
# Rounds interleave the two ways, each in directories of its own with a fresh answer cache
# (nothing is removed until the end).
#
#   tools/bench/package_build_bench.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch. Prints a Markdown table on stdout
# (progress on stderr): the median wall time of each over the rounds (3, 1 with --quick) and the
# ratios. Targets: the cold build at most 1.2x gen + solve; the rebuild at most 5% of the cold
# build, writing no file. Exits 1 when a run fails or a target is missed.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 1 "$@"
gamebatch=$build/tools/gamebatch
bench_require_built "$gamebatch"
bench_make_scratch
rounds=3
((quick)) && rounds=1
options="--cities 100..1000 --cases-per-file 10"

# The plan of package DIR.
write_plan() {
  local dir=$1 group
  mkdir -p "$dir"
  {
    echo 'game = "willow"'
    echo 'seed = 3'
    for group in a b c d; do
      echo '[[group]]'
      echo "name = \"$group\""
      echo 'score = 25'
      echo 'limits = { N = "100..1000", T = "10" }'
      echo '[[group.test]]'
      echo "gen = \"$options\""
      echo 'count = 250'
    done
  } >"$dir/gamebatch.toml"
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# build_ms DIR: builds package DIR; prints the wall milliseconds.
build_ms() {
  local dir=$1 started status=0
  started=$(now_ms)
  "$gamebatch" build --cache "$dir.cache" "$dir" >"$dir.out" 2>"$dir.err" || status=$?
  if ((status != 0)); then
    echo "$bench_name: build of $dir: exit status $status" >&2
    cat "$dir.err" >&2
    return 1
  fi
  echo $(($(now_ms) - started))
}

# by_hand_ms DIR: the same tests with gen (one run per group) and solve; prints the wall ms.
by_hand_ms() {
  local dir=$1 started group seed=3 status=0
  started=$(now_ms)
  for group in a b c d; do
    # A seed per group, as the plan's tests have: the same seed would repeat a group's cases in
    # the next, and the answer cache would answer three quarters of them.
    # shellcheck disable=SC2086 # $options holds several options
    "$gamebatch" gen willow --count 250 --seed $((seed++)) $options -o "$dir/$group" >/dev/null ||
      status=$?
  done
  "$gamebatch" solve -p willow --cache "$dir.cache" --quiet "$dir" >"$dir.out" 2>"$dir.err" ||
    status=$?
  if ((status != 0)); then
    echo "$bench_name: gen + solve in $dir: exit status $status" >&2
    cat "$dir.err" >&2
    return 1
  fi
  echo $(($(now_ms) - started))
}

declare -a cold rebuild hand
for ((round = 1; round <= rounds; ++round)); do
  echo "$bench_name: round $round of $rounds" >&2
  write_plan "$scratch/pkg-$round"
  hand+=("$(by_hand_ms "$scratch/hand-$round")") || failed=1
  cold+=("$(build_ms "$scratch/pkg-$round")") || failed=1
  rebuild+=("$(build_ms "$scratch/pkg-$round")") || failed=1
  if ! grep -q "nothing to write" "$scratch/pkg-$round.err"; then
    echo "$bench_name: round $round: the rebuild wrote something:" >&2
    cat "$scratch/pkg-$round.err" >&2
    failed=1
  fi
  inputs=$(find "$scratch/pkg-$round/data" -name '*.in' | wc -l)
  if ((inputs != 1000)); then
    echo "$bench_name: round $round: the build wrote $inputs inputs, not 1000" >&2
    failed=1
  fi
done

h=$(median "${hand[@]}")
c=$(median "${cold[@]}")
r=$(median "${rebuild[@]}")
cold_ratio=$(awk -v a="$c" -v b="$h" 'BEGIN { printf "%.2f", a / b }')
rebuild_share=$(awk -v a="$r" -v b="$c" 'BEGIN { printf "%.3f", a / b }')
echo "| 1,000 willow tests (4 groups of 250, 10 cases each) | median wall ms | ratio |"
echo "|---|---:|---:|"
echo "| gen (4 runs) + solve, by hand | $h | 1.00 |"
echo "| gamebatch build, cold | $c | $cold_ratio |"
echo "| gamebatch build, rebuild unchanged | $r | $rebuild_share of the cold build |"
echo
echo "Rounds: $rounds; by hand ${hand[*]} ms, cold ${cold[*]} ms, rebuild ${rebuild[*]} ms."
if awk -v x="$cold_ratio" 'BEGIN { exit !(x > 1.2) }'; then
  echo "$bench_name: the cold build takes $cold_ratio x gen + solve, above 1.2" >&2
  failed=1
fi
if awk -v x="$rebuild_share" 'BEGIN { exit !(x > 0.05) }'; then
  echo "$bench_name: the rebuild takes $rebuild_share of the cold build, above 0.05" >&2
  failed=1
fi
bench_finish
