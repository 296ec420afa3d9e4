#!/usr/bin/env bash
# How fast Ctrl-C stops a run: SIGINT is sent to `gamebatch solve --jobs 2 --no-cache` while a big
# case of each game is being solved (and once in the middle of many small files), and the time
# from the signal to the exit is measured.
#
#   tools/bench/interrupt_bench.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch and tools/bench/make_{willow,doublemove,
# wallgame,boigame}_case. Prints a Markdown table on stdout (progress on stderr): per workload
# the median and the largest time from SIGINT to the exit over the repeats (5, 1 with --quick).
# Every run must exit with 130 and a summary ending in "(interrupted)" that leaves a file
# unfinished (so the signal came while the work was in progress). Target: every exit within 1 s.
# Exits 1 when a run misbehaves or the target is missed.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 1 "$@"
gamebatch=$build/tools/gamebatch
bench_dir=$build/tools/bench
bench_require_built "$gamebatch" "$bench_dir/make_willow_case" "$bench_dir/make_doublemove_case" \
  "$bench_dir/make_wallgame_case" "$bench_dir/make_boigame_case"
bench_make_scratch
repeats=5
((quick)) && repeats=1

echo "$bench_name: making the inputs in $scratch" >&2
mkdir -p "$scratch/willow" "$scratch/doublemove" "$scratch/wallgame" "$scratch/boigame" \
  "$scratch/small"
"$bench_dir/make_willow_case" --shape tripod --cities 200000 -o "$scratch/willow/big.in"
"$bench_dir/make_doublemove_case" --n 62 --k 0 -o "$scratch/doublemove/big.in"
"$bench_dir/make_wallgame_case" --height 2000 --width 2000 -T 8 >"$scratch/wallgame/big.in"
"$bench_dir/make_boigame_case" --shape open -n 2000 -T 16 >"$scratch/boigame/big.in"
small_count=20000
"$gamebatch" gen willow --count "$small_count" --seed 1 --cities 300 --shape random \
  --out "$scratch/small" >/dev/null

# Runs WORKLOAD's solve, sends SIGINT after DELAY seconds, prints the milliseconds to the exit.
# Fails the run (message on stderr, no number) when it did not stop as it should.
stop_time_ms() {
  local game=$1 dir=$2 delay=$3 err=$scratch/err.txt
  rm -f "$dir"/*.ans
  "$gamebatch" solve --problem "$game" --jobs 2 --no-cache --quiet "$dir" 2>"$err" &
  local pid=$!
  sleep "$delay"
  local sent ended status=0
  sent=$(date +%s%N)
  kill -INT "$pid"
  wait "$pid" || status=$?
  ended=$(date +%s%N)
  local summary
  summary=$(tail -n 1 "$err")
  if ((status != 130)) || [[ $summary != *"(interrupted)" || $summary == *"unfinished: 0 "* ]]; then
    echo "$bench_name: $game: exit status $status, summary '$summary': not stopped mid-run" >&2
    return 1
  fi
  echo $(((ended - sent) / 1000000))
}

echo "## Interruption: from Ctrl-C to the exit"
echo
bench_machine_line
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`; $repeats runs each; \`gamebatch solve --jobs 2 --no-cache\`, SIGINT after the delay given."
echo
echo "| workload | signal after | median ms | largest ms | target |"
echo "|---|--:|--:|--:|---|"
workloads=(
  "willow|$scratch/willow|1.5|one case, a tripod of N = 200,000 (about 6.6 s of work)"
  "doublemove|$scratch/doublemove|1.5|one case, n = 62, k = 0 (its state table, 1.3 GiB, being built)"
  "wallgame|$scratch/wallgame|1.5|eight boards of 2000 x 2000"
  "boigame|$scratch/boigame|1.5|16 open boards of side 2000 (about 3.5 s of work)"
  "willow|$scratch/small|1.5|$small_count one-case files of N = 300"
)
for workload in "${workloads[@]}"; do
  IFS='|' read -r game dir delay label <<<"$workload"
  times=()
  for ((run = 0; run < repeats; ++run)); do
    if time_ms=$(stop_time_ms "$game" "$dir" "$delay"); then
      times+=("$time_ms")
    else
      failed=1
    fi
  done
  if ((${#times[@]} == 0)); then
    echo "| $game: $label | ${delay} s | - | - | **FAILED** |"
    continue
  fi
  sorted=$(printf '%s\n' "${times[@]}" | sort -n)
  median=$(sed -n "$(((${#times[@]} + 1) / 2))p" <<<"$sorted")
  largest=$(tail -n 1 <<<"$sorted")
  verdict="met (<= 1000)"
  if ((largest > 1000)); then
    verdict="**missed**"
    failed=1
  fi
  echo "| $game: $label | ${delay} s | $median | $largest | $verdict |"
done
bench_finish
