#!/usr/bin/env bash
# What early decisions save `gamebatch check`, and whether its verdicts stay put: a 21-file
# willow package (tests/data/packages/kattis-willow's sample, its two secret files and 18 files
# of gen willow --cities 40..80 --cases-per-file 100, with its four submissions: accepted C++ and
# Python, a wrong-answer C program, a time-limit Python brute force) is checked by a baseline
# gamebatch (main 52b5444, which runs every file of every submission) and by this build, in one
# interleaved series, each check with a fresh cache directory; then this build checks it five
# times in a row.
#
#   tools/bench/group_check_bench.sh [--quick] [BUILD_DIR [BASELINE_GAMEBATCH]]
#
# BUILD_DIR (default: build) must hold tools/gamebatch; BASELINE_GAMEBATCH (default:
# /work/base/build/tools/gamebatch, a Release build of 52b5444) is the baseline's binary. Prints
# a Markdown table on stdout (progress on stderr): the median wall time of each over the rounds
# (3, 1 with --quick) and the ratio. Checks, and exits 1 when one fails: every check exits 0
# (every submission meets its expectation), both give each submission the same expectation and
# the same "meets"; the ratio is at most 0.6; the five checks give the same verdict to every
# (submission, file) that two of them decided.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 2 "$@"
gamebatch=$build/tools/gamebatch
baseline=${positional[1]:-/work/base/build/tools/gamebatch}
bench_require_built "$gamebatch"
[[ -x $baseline ]] || die "no baseline gamebatch at $baseline (build main 52b5444 there)"
bench_make_scratch
rounds=3
((quick)) && rounds=1

package=$scratch/willow21
cp -r tests/data/packages/kattis-willow "$package"
"$gamebatch" gen willow --count 18 --seed 21 --cities 40..80 --cases-per-file 100 \
  -o "$package/data/secret" >/dev/null
files=$(find "$package/data" -name '*.in' | wc -l)
((files == 21)) || die "the package holds $files inputs, not 21"

# check_ms BINARY NAME: checks the package with BINARY, its cache and report under NAME; prints
# the wall milliseconds.
check_ms() {
  local binary=$1 name=$2 started ended status=0
  mkdir -p "$scratch/$name"
  started=$(date +%s%N)
  "$binary" check -p willow --cache "$scratch/$name/answers.cache" \
    --report "$scratch/$name/report.json" "$package" >"$scratch/$name/out.txt" \
    2>"$scratch/$name/err.txt" || status=$?
  ended=$(date +%s%N)
  if ((status != 0)); then
    echo "$bench_name: $name: exit status $status" >&2
    cat "$scratch/$name/out.txt" "$scratch/$name/err.txt" >&2
    return 1
  fi
  echo $(((ended - started) / 1000000))
}

# "name expected meets" per solution of a report, sorted.
expectations() {
  python3 -c '
import json, sys
for s in json.load(open(sys.argv[1]))["solutions"]:
    print(s["name"], s["expected"], s["meets"])' "$1" | sort
}

declare -a base_ms new_ms
for ((round = 1; round <= rounds; ++round)); do
  echo "$bench_name: round $round of $rounds" >&2
  base_ms+=("$(check_ms "$baseline" "base-$round")") || failed=1
  new_ms+=("$(check_ms "$gamebatch" "new-$round")") || failed=1
  if ! diff <(expectations "$scratch/base-$round/report.json") \
    <(expectations "$scratch/new-$round/report.json") >&2; then
    echo "$bench_name: round $round: the expectations differ (above)" >&2
    failed=1
  fi
done

echo "$bench_name: five checks in a row" >&2
for ((run = 1; run <= 5; ++run)); do
  check_ms "$gamebatch" "repeat-$run" >/dev/null || failed=1
done
if ! python3 - "$scratch" <<'EOF' >&2; then
import json, sys
seen = {}
conflicts = 0
decided = 0
for run in range(1, 6):
    report = json.load(open(f"{sys.argv[1]}/repeat-{run}/report.json"))
    for solution in report["solutions"]:
        for verdict in solution["verdicts"]:
            key = (solution["name"], verdict["path"])
            decided += 1
            if key in seen and seen[key] != verdict["verdict"]:
                conflicts += 1
                print(f"{key}: {seen[key]} then {verdict['verdict']}")
            seen.setdefault(key, verdict["verdict"])
print(f"five checks: {decided} decided verdicts over {len(seen)} (submission, file) pairs, "
      f"{conflicts} that changed")
sys.exit(1 if conflicts else 0)
EOF
  failed=1
fi

base=$(median "${base_ms[@]}")
new=$(median "${new_ms[@]}")
ratio=$(awk -v a="$new" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
echo "| check of the 21-file willow package (4 submissions) | median wall ms | ratio |"
echo "|---|---:|---:|"
echo "| main 52b5444 (every run) | $base | 1.00 |"
echo "| this build (early decisions, TLEs confirmed alone) | $new | $ratio |"
echo
echo "Rounds: $rounds; base ${base_ms[*]} ms, new ${new_ms[*]} ms."
for name in "new-1"; do
  echo
  echo "Verdicts of this build (round 1):"
  echo '```'
  cat "$scratch/$name/out.txt"
  echo '```'
done
if awk -v r="$ratio" 'BEGIN { exit !(r > 0.6) }'; then
  echo "$bench_name: the ratio $ratio is above the target 0.6" >&2
  failed=1
fi
bench_finish
