#!/usr/bin/env bash
# willow pruned-search benchmark: one case per file of each tree shape (random, path, caterpillar,
# broom, binary, star, prufer: a uniformly random labelled tree, and the slow shapes: the tripod and
# the spiders tools/bench/willow_slow_shapes found) at N = 20,000 and 100,000, and the official
# large practice file, solved by
# `gamebatch solve --jobs 2 --no-cache` against another build's gamebatch (the previous main) in one
# interleaved series; then a random tree, a Pruefer tree, a path and the slow shapes of N = 10^6 by
# the candidate alone (the baseline would take minutes to hours on the slow shapes): time and peak
# memory.
#
#   tools/bench/willow_pruned_bench.sh [--quick] [BUILD_DIR] BASELINE_GAMEBATCH
#
# BUILD_DIR (default: build) must hold tools/gamebatch and tools/bench/{command_bench,
# make_willow_case,willow_work}. The baseline's answers are the expected ones; both builds' answers are
# checked against them (the practice file's against its .correct). Prints one Markdown table per
# case (progress on stderr) and the ratios (candidate time / baseline time). Targets: the random
# tree of N = 100,000 at most 1.0x the baseline's time (no slower than the previous main), the
# path of N = 100,000 at most 0.1x, the practice file at most 1.0x; every shape of N = 100,000 at
# most 5x the candidate's time on the random tree of that size (and the caterpillar, broom and
# Pruefer tree at seeds 2..6 against the random tree of the same seed); the Pruefer tree, the path
# and every slow shape of N = 10^6 at most 20 s. The work table also lists the comb, which has no
# target. --quick: one run of each instead of 3.
# Exits 1 when a run fails, an answer differs or a target is missed.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 2 "$@"
((${#positional[@]} == 2)) || {
  bench_usage >&2
  exit 2
}
baseline=$(realpath -m "${positional[1]}")
[[ -x $baseline ]] || die "baseline '$baseline' is not an executable"

gamebatch=$build/tools/gamebatch
command_bench=$build/tools/bench/command_bench
make_case=$build/tools/bench/make_willow_case
willow_work=$build/tools/bench/willow_work
bench_require_built "$gamebatch" "$command_bench" "$make_case" "$willow_work"

bench_make_scratch
repeat=$((quick ? 1 : 3))

solve_two_cores() {
  echo "$(quote "$1") solve --problem willow --jobs 2 --no-cache"
}
candidate=$(solve_two_cores "$gamebatch")
reference=$(solve_two_cores "$baseline")

echo "## willow: the pruned search"
echo
bench_machine_line
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`; baseline: \`$baseline\`; repeats: $repeat."
echo "One case per file (\`make_willow_case --shape S --cities N --seed 1\`, coins 0..10000),"
echo "\`gamebatch solve --jobs 2 --no-cache\`. Ratio = candidate median wall time / baseline's."
echo

ratios=$scratch/ratios.md
: >"$ratios"

# bench_case NAME INPUT EXPECTED_ANSWERS TARGET_RATIO (empty: none): one interleaved series.
bench_case() {
  local name=$1 input=$2 expected=$3 target=$4
  local answers limits table
  answers=$(basename "${input%.in}").ans
  limits=()
  if [[ -n $target ]]; then
    limits=(--min-ratio "$(awk -v t="$target" 'BEGIN { printf "%.6f", 1 / t }')")
  fi
  echo "### $name"
  echo
  table=$scratch/$name.md
  if "$command_bench" --markdown --repeat "$repeat" --timeout 1200 "${limits[@]}" \
    --run "gamebatch=$candidate --out {out} $(quote "$input")" \
    --run "baseline=$reference --out {out} $(quote "$input")" \
    --check "gamebatch={out}/$answers:$expected" \
    --check "baseline={out}/$answers:$expected" >"$table"; then
    cat "$table"
  else
    cat "$table"
    fail_section
  fi
  echo
  local mine theirs
  mine=$(bench_column "$table" gamebatch 3)
  theirs=$(bench_column "$table" baseline 3)
  if [[ -n $mine && -n $theirs ]]; then
    awk -v name="$name" -v a="$mine" -v b="$theirs" -v t="$target" 'BEGIN {
      printf "| %s | %.3f | %.3f | %.4fx | %s |\n", name, a, b, a / b, t == "" ? "-" : "<= " t "x" }' \
      >>"$ratios"
  fi
}

slow_shapes="tripod comb_spider lopsided_spider rich_teeth_spider"
for cities in 20000 100000; do
  for shape in random path caterpillar broom binary star prufer $slow_shapes; do
    input=$scratch/$shape-$cities.in
    "$make_case" --shape "$shape" --cities "$cities" --seed 1 --output "$input" ||
      die "make_willow_case failed for $shape"
    expected=$scratch/expected-$shape-$cities
    echo "$bench_name: answering $shape, N = $cities with the baseline first" >&2
    sh -c "$reference --quiet --out $(quote "$expected") $(quote "$input")" 2>/dev/null ||
      die "the baseline failed on $input"
    target=""
    if ((cities == 100000)); then
      [[ $shape == random ]] && target=1.0
      [[ $shape == path ]] && target=0.1
    fi
    bench_case "$shape, N = $cities" "$input" "$expected/$shape-$cities.ans" "$target"
  done
done

practice=$scratch/D-large-practice.in
cp tests/data/willow/D-large-practice.in "$practice"
bench_case "D-large-practice (50 cases, N <= 4000)" "$practice" \
  "$repo_root/tests/data/willow/D-large-practice.correct" 1.0

echo "### Ratios"
echo
echo "| case | gamebatch median s | baseline median s | ratio | target |"
echo "| :--- | ---: | ---: | ---: | :--- |"
cat "$ratios"
echo

# Every shape of N = 100,000 against the random tree of that size, both the candidate's times.
echo "### Each shape against the random tree (N = 100000, candidate)"
echo
echo "| shape | gamebatch median s | / random | target |"
echo "| :--- | ---: | ---: | :--- |"
random_time=$(awk -F'|' '$2 ~ /^ random, N = 100000 / { gsub(/ /, "", $3); print $3 }' "$ratios")
for shape in path caterpillar broom binary star prufer $slow_shapes; do
  time=$(awk -F'|' -v name=" $shape, N = 100000 " '$2 == name { gsub(/ /, "", $3); print $3 }' \
    "$ratios")
  [[ -n $time && -n $random_time ]] || continue
  if ! awk -v shape="$shape" -v a="$time" -v r="$random_time" 'BEGIN {
      printf "| %s | %.3f | %.2fx | <= 5x |\n", shape, a, a / r; exit !(a <= 5 * r) }'; then
    echo "$bench_name: $shape, N = 100000 takes more than 5x the random tree's time" >&2
    failed=1
  fi
done
echo

# The work behind the times (willow::solve_with_report; it does not depend on the thread count).
echo "### The pruned search's work, N = 100000 (willow_work)"
echo
echo "| shape | N | chain steps | per N^2 | per N | rows searched | rows whole | walked |"
echo "| :--- | ---: | ---: | ---: | ---: | ---: | ---: | :--- |"
for shape in random path caterpillar broom binary star prufer comb $slow_shapes; do
  input=$scratch/$shape-100000.in
  [[ -f $input ]] || "$make_case" --shape "$shape" --cities 100000 --seed 1 --output "$input" ||
    die "make_willow_case failed for $shape"
  "$willow_work" "$shape" "$input" || die "willow_work failed for $shape"
done
echo
echo "(comb, tripod and the spiders: no gen shape; the tripod is three combs joined at one city, the"
echo "spiders the worst trees willow_slow_shapes found: combs with a leaf on every fourth spine city,"
echo "five joined at one city, four with one half as long again, four with the coins on the leaves.)"
echo

# The shapes whose trees vary most with the seed (a caterpillar's spine is 1..N/2 cities long, a
# broom's handle 1..N), and the Pruefer tree, at more seeds than 1, each against the random tree
# of its seed: the 5x target holds for the shapes, not for one draw of each.
candidate_seconds() {
  local input=$1 table=$scratch/seconds.md
  "$command_bench" --markdown --repeat "$repeat" --timeout 1200 --no-baseline \
    --run "gamebatch=$candidate --out {out} $(quote "$input")" >"$table" || return 1
  bench_column "$table" gamebatch 3
}
echo "### More seeds, N = 100000 (candidate only): each shape against the random tree of its seed"
echo
echo "| seed | random s | caterpillar | broom | prufer |"
echo "| ---: | ---: | ---: | ---: | ---: |"
for seed in 2 3 4 5 6; do
  row="| $seed"
  random_seconds=""
  for shape in random caterpillar broom prufer; do
    input=$scratch/$shape-100000-seed$seed.in
    "$make_case" --shape "$shape" --cities 100000 --seed "$seed" --output "$input" ||
      die "make_willow_case failed for $shape, seed $seed"
    seconds=$(candidate_seconds "$input") || die "the candidate failed on $input"
    if [[ $shape == random ]]; then
      random_seconds=$seconds
      row+=" | $seconds"
      continue
    fi
    row+=$(awk -v a="$seconds" -v r="$random_seconds" 'BEGIN { printf " | %.3f s = %.2fx", a, a / r }')
    if ! awk -v a="$seconds" -v r="$random_seconds" 'BEGIN { exit !(a <= 5 * r) }'; then
      echo "$bench_name: $shape, N = 100000, seed $seed takes more than 5x the random tree's time" >&2
      failed=1
    fi
  done
  echo "$row |"
done
echo

# bench_million SHAPE SECONDS (empty: no limit): one case of N = 10^6 by the candidate alone.
bench_million() {
  local shape=$1 limit=$2 million table
  million=$scratch/$shape-1000000.in
  "$make_case" --shape "$shape" --cities 1000000 --seed 1 --output "$million" ||
    die "make_willow_case failed for $shape, N = 10^6"
  echo "### $shape, N = 1000000 (candidate only${limit:+; target: at most $limit s})"
  echo
  table=$scratch/$shape-million.md
  if "$command_bench" --markdown --repeat 1 --timeout 1800 --no-baseline \
    --run "gamebatch=$candidate --out {out} $(quote "$million")" >"$table"; then
    cat "$table"
    if [[ -n $limit ]] && ! awk -v t="$(bench_column "$table" gamebatch 3)" -v l="$limit" \
      'BEGIN { exit !(t <= l) }'; then
      echo "$bench_name: $shape, N = 10^6 took more than $limit s" >&2
      failed=1
    fi
  else
    cat "$table"
    fail_section
  fi
  echo
}

bench_million random ""
bench_million prufer 20
bench_million path 20
for shape in $slow_shapes; do
  bench_million "$shape" 20
done

bench_finish
