#!/usr/bin/env bash
# What a second `gamebatch check` of a problem package saves: the Kattis package of
# tests/data/packages/kattis-willow (sample and small practice data; accepted C++ and Python, a
# wrong-answer C program, a time-limit Python brute force) is checked twice with a fresh answer
# cache (so a fresh store of compiled programs beside it), and so is the same package without its
# time-limit submission, whose runs (each stopped at 1.5 times the limit) the cache cannot save.
#
#   tools/bench/package_check_bench.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch. Each round runs, in this order, the
# first and second check of the whole package, then of the package without time_limit_exceeded/,
# each pair with a cache directory of its own (nothing is removed until the end). Prints a
# Markdown table on stdout (progress on stderr): the median wall time of each over the rounds (3,
# 1 with --quick) and the second run's share of the first's. Every run must exit 0; the first
# must compile every source and the second none ("nothing compiled"). Target: without the
# time-limit submission the second run takes less than half the time of the first.
# Exits 1 when a run misbehaves or the target is missed.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 1 "$@"
gamebatch=$build/tools/gamebatch
bench_require_built "$gamebatch"
bench_make_scratch
rounds=3
((quick)) && rounds=1

package=tests/data/packages/kattis-willow
cp -r "$package" "$scratch/full"
mkdir "$scratch/no-tle"  # the package without its time-limit submission (nothing removed)
tar -C "$package" --exclude=./submissions/time_limit_exceeded -cf - . | tar -C "$scratch/no-tle" -xf -
sources_full=$(find "$package/submissions" -mindepth 2 -maxdepth 2 | wc -l)
sources_no_tle=$(find "$scratch/no-tle/submissions" -mindepth 2 -maxdepth 2 | wc -l)

# Runs the check of package VARIANT with the cache in DIR; prints its wall milliseconds. WANT is
# what the compile line must say.
check_ms() {
  local variant=$1 dir=$2 want=$3 err=$scratch/err.txt started ended status=0
  mkdir -p "$dir"
  started=$(date +%s%N)
  "$gamebatch" check -p willow --cache "$dir/answers.cache" "$scratch/$variant" \
    >"$scratch/out.txt" 2>"$err" || status=$?
  ended=$(date +%s%N)
  if ((status != 0)); then
    echo "$bench_name: $variant: exit status $status" >&2
    cat "$scratch/out.txt" "$err" >&2
    return 1
  fi
  if ! grep -q "^compile: $want" "$err"; then
    echo "$bench_name: $variant: expected 'compile: $want' in:" >&2
    cat "$err" >&2
    return 1
  fi
  echo $(((ended - started) / 1000000))
}

declare -a full_first full_second no_tle_first no_tle_second
for ((round = 1; round <= rounds; ++round)); do
  echo "$bench_name: round $round of $rounds" >&2
  full_first+=("$(check_ms full "$scratch/cache-full-$round" "$sources_full sources: $sources_full compiled")")
  full_second+=("$(check_ms full "$scratch/cache-full-$round" "$sources_full sources: nothing compiled")")
  no_tle_first+=("$(check_ms no-tle "$scratch/cache-no-tle-$round" "$sources_no_tle sources: $sources_no_tle compiled")")
  no_tle_second+=("$(check_ms no-tle "$scratch/cache-no-tle-$round" "$sources_no_tle sources: nothing compiled")")
done

row() {
  local name=$1 first=$2 second=$3
  printf '| %s | %d | %d | %s |\n' "$name" "$first" "$second" \
    "$(awk -v a="$second" -v b="$first" 'BEGIN { printf "%.2f", a / b }')"
}
echo "## A second check of a problem package"
echo
bench_machine_line
echo
echo "| package | first check (ms) | second check (ms) | second / first |"
echo "|---|---:|---:|---:|"
f1=$(median "${full_first[@]}")
f2=$(median "${full_second[@]}")
n1=$(median "${no_tle_first[@]}")
n2=$(median "${no_tle_second[@]}")
row "kattis-willow ($sources_full submissions)" "$f1" "$f2"
row "without time_limit_exceeded/ ($sources_no_tle)" "$n1" "$n2"
echo
echo "Medians of $rounds rounds. Target: the second check without the time-limit submission in"
echo "less than half the time of the first."
if ((n2 * 2 >= n1)); then
  echo "$bench_name: target missed: ${n2} ms is not under half of ${n1} ms" >&2
  failed=1
fi
bench_finish
