#!/usr/bin/env bash
# willow per-core benchmark: one case of N = 20,000 cities (a random tree, then a path), solved by
# `gamebatch solve --jobs 1`, against another build's gamebatch (the previous main) measured in
# the same interleaved series.
#
#   tools/bench/willow_core_bench.sh [--quick] [BUILD_DIR] [BASELINE_GAMEBATCH]
#
# BUILD_DIR (default: build) must hold tools/gamebatch and tools/bench/{command_bench,
# make_willow_case}. BASELINE_GAMEBATCH (optional) is the gamebatch binary to compare with; its
# answers are the expected ones, and both builds' answers are checked against them. Prints one
# Markdown table per shape (progress on stderr), then ns per start pair (N^2 pairs, the median
# wall time divided among them). Target (issue 28): the candidate takes at most 0.5x the
# baseline's time (speed-up >= 2). --quick: one run of each instead of 3.
# Exits 1 when a run fails, an answer differs or the target is missed.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 2 "$@"
baseline=""
if ((${#positional[@]} > 1)); then
  baseline=$(realpath -m "${positional[1]}")
  [[ -x $baseline ]] || die "baseline '$baseline' is not an executable"
fi

gamebatch=$build/tools/gamebatch
command_bench=$build/tools/bench/command_bench
make_case=$build/tools/bench/make_willow_case
bench_require_built "$gamebatch" "$command_bench" "$make_case"

bench_make_scratch
repeat=$((quick ? 1 : 3))
cities=20000

# Both builds have --no-cache; named here rather than probed (bench_solve_command's probe pipes
# --help into grep -q, which under pipefail can lose the race with SIGPIPE and drop the option).
solve_one_core() {
  echo "$(quote "$1") solve --problem willow --jobs 1 --no-cache"
}
candidate=$(solve_one_core "$gamebatch")

echo "## willow per core"
echo
bench_machine_line
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`; baseline: \`${baseline:-none}\`; repeats: $repeat."
echo "One case of N = $cities per file (\`make_willow_case --shape S --cities $cities --seed 1\`),"
echo "\`gamebatch solve --jobs 1\`. Speed-up = baseline median wall time / candidate median wall time."
echo

for shape in random path; do
  input=$scratch/$shape-$cities.in
  "$make_case" --shape "$shape" --cities "$cities" --seed 1 --output "$input" ||
    die "make_willow_case failed for $shape"
  echo "### $shape tree, N = $cities"
  echo
  runs=(--run "gamebatch=$candidate --out {out} $(quote "$input")")
  checks=()
  limits=(--no-baseline)
  if [[ -n $baseline ]]; then
    expected=$scratch/expected-$shape
    mkdir -p "$expected"
    echo "$bench_name: answering $shape with the baseline first" >&2
    sh -c "$(solve_one_core "$baseline") --quiet --out $(quote "$expected") $(quote "$input")" \
      2>/dev/null || die "the baseline failed on $input"
    runs+=(--run "baseline=$(solve_one_core "$baseline") --out {out} $(quote "$input")")
    for name in gamebatch baseline; do
      checks+=(--check "$name={out}/$shape-$cities.ans:$expected/$shape-$cities.ans")
    done
    limits=(--min-ratio 2)
  fi
  table=$scratch/$shape.md
  if "$command_bench" --markdown --repeat "$repeat" --timeout 600 "${limits[@]}" "${runs[@]}" \
    "${checks[@]}" >"$table"; then
    cat "$table"
  else
    cat "$table"
    fail_section
  fi
  echo
  for name in gamebatch baseline; do
    median=$(bench_column "$table" "$name" 3)
    [[ -n $median ]] || continue
    awk -v name="$name" -v s="$median" -v n="$cities" \
      'BEGIN { printf "- %s: %.2f ns per start pair\n", name, s * 1e9 / (n * n) }'
  done
  echo
done

bench_finish
