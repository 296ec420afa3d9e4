#!/usr/bin/env bash
# What a newcomer and CI wait for: the builds from scratch, side by side, each in a fresh clone.
#   base full   a full build (every target, as `tools/dev.sh test` builds them: tests,
#               benchmarks, warnings as errors) of BASE, the main of 52b5444 by default
#   demo        `tools/dev.sh demo` of HEAD, whole: its package check, configure, the build of
#               gamebatch and gamebatch-box, and the demo's run
#   full        the same full build of HEAD
# The three are interleaved in each round, each in a clone of its own made before any of them
# runs (nothing is removed until the end); the packages must be installed already (the demo then
# installs nothing). HEAD is the repository's committed HEAD: uncommitted changes are not built.
#
#   tools/bench/build_time_bench.sh [--quick] [BASE]
#
# Prints a Markdown table on stdout (progress and the builds' output on stderr): the median wall
# seconds of each over the rounds (1; --quick: the demo only, against nothing) and the ratios to
# the base's full build. Targets: the demo at most 0.20x, the full build at most 0.70x. Exits 1
# when a build fails or a target is missed. JOBS (default: the number of cores) is passed on.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_parse_args 1 "$@"
bench_cd_repo_root
base=${positional[0]:-52b5444}
jobs=${JOBS:-$(nproc)}
git rev-parse --verify -q "$base^{commit}" >/dev/null || die "no commit '$base' in this repository"
head=$(git rev-parse HEAD)
bench_make_scratch
rounds=1

# clone_at DIR COMMIT: a fresh clone of this repository at COMMIT.
clone_at() {
  git clone -q --no-checkout "$repo_root" "$1"
  git -C "$1" checkout -q --detach "$2"
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# full_build_ms DIR: configure and build every target of the clone DIR as `tools/dev.sh test`
# does (without its package check and tests); prints the wall milliseconds.
full_build_ms() {
  local start
  start=$(now_ms)
  {
    cmake -S "$1" -B "$1/build" -DCMAKE_BUILD_TYPE=Release -DGAMEBATCH_WERROR=ON &&
      cmake --build "$1/build" -j "$jobs"
  } >&2 || return 1
  echo $(($(now_ms) - start))
}

# demo_ms DIR: `tools/dev.sh demo` in the clone DIR; prints the wall milliseconds.
demo_ms() {
  local start
  start=$(now_ms)
  (cd "$1" && JOBS=$jobs tools/dev.sh demo) >&2 || return 1
  echo $(($(now_ms) - start))
}

seconds() { awk -v ms="$1" 'BEGIN { printf "%.1f", ms / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

declare -a base_times=() demo_times=() full_times=()
for ((round = 1; round <= rounds; ++round)); do
  clone_at "$scratch/demo-$round" "$head"
  if ((!quick)); then
    clone_at "$scratch/base-$round" "$base"
    clone_at "$scratch/full-$round" "$head"
    echo "$bench_name: round $round: full build of $base" >&2
    base_times+=("$(full_build_ms "$scratch/base-$round")") || die "the build of $base failed"
  fi
  echo "$bench_name: round $round: tools/dev.sh demo of $head" >&2
  demo_times+=("$(demo_ms "$scratch/demo-$round")") || { failed=1; demo_times+=(0); }
  if ((!quick)); then
    echo "$bench_name: round $round: full build of $head" >&2
    full_times+=("$(full_build_ms "$scratch/full-$round")") || { failed=1; full_times+=(0); }
  fi
done

demo=$(median "${demo_times[@]}")
echo "Builds from scratch in fresh clones, $jobs jobs on $(nproc) cores (median of $rounds):"
echo
echo "| build | wall s | vs the full build of $base | target |"
echo "|---|---:|---:|---:|"
if ((quick)); then
  echo "| \`tools/dev.sh demo\` of HEAD | $(seconds "$demo") | - | - |"
else
  base_full=$(median "${base_times[@]}")
  full=$(median "${full_times[@]}")
  demo_ratio=$(ratio "$demo" "$base_full")
  full_ratio=$(ratio "$full" "$base_full")
  echo "| full build of $base (every target) | $(seconds "$base_full") | 1.00x | - |"
  echo "| \`tools/dev.sh demo\` of HEAD (gamebatch, gamebatch-box, the demo) | $(seconds "$demo") | ${demo_ratio}x | <= 0.20x |"
  echo "| full build of HEAD (every target) | $(seconds "$full") | ${full_ratio}x | <= 0.70x |"
  awk -v r="$demo_ratio" 'BEGIN { exit !(r > 0.20) }' && failed=1
  awk -v r="$full_ratio" 'BEGIN { exit !(r > 0.70) }' && failed=1
fi
bench_finish
