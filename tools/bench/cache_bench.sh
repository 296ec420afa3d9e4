#!/usr/bin/env bash
# Answer cache benchmark: a warm rerun of an unchanged mixed set against the cold run, measured in
# one run, plus the cache's store with a million entries (adding, look-ups, bytes per entry).
#
#   tools/bench/cache_bench.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch and tools/bench/{command_bench,
# make_willow_case, make_boigame_case, make_wallgame_case, cache_file_bench}. Relative paths are
# taken from the repo root. Prints Markdown on stdout (progress on stderr):
#   1. The mixed set: willow D-large-practice.in, twenty willow cases with N = 4000 (four files of
#      five: random, path, star, caterpillar), a boigame file of ten 300 x 300 boards, and 2,000
#      small wallgame files. One "run" is three solve commands (one per game) sharing one cache,
#      --jobs 2, the default --checkpoint and --cache-min-solve-us. Cold: the cache is removed
#      first, answers go to a fresh directory. Warm: a cache filled by an earlier run, answers to
#      the directory that run wrote (as a rerun does).
#      Checked first: with --cache-min-solve-us 0 a warm run solves no case; the answer files of
#      every run are byte-identical. The timed runs use the default threshold (a warm run solves
#      again only the cases cheaper to solve than to look up).
#      Target: the warm run takes at most 1/10 of the cold run (speed-up >= 10x).
#   2. cache_file_bench: the cache's SQLite store with 1,000,000 small wallgame entries: adding
#      them (transactions of 100,000), bytes on disk per entry, opening the closed store, hit and
#      miss look-ups per second from 1 and 2 threads, and what one small case pays the cache
#      (canonical() + key + look-up; its add, amortised over one transaction).
#      Target: a new small case's look-up plus its add <= 17.5 µs, a quarter of the default
#      --cache-min-solve-us (70).
# --quick measures each command once instead of 3 times. BASELINE_GAMEBATCH=PATH in the environment
# adds that gamebatch's warm and cold runs of the mixed set to section 1's series (an older build:
# is a warm rerun still as cheap?); it gets its own cache and answer trees.
# Exits 1 when a run fails, answers differ or a target is missed; all sections still run.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 1 "$@"

gamebatch=$build/tools/gamebatch
bench_dir=$build/tools/bench
bench_require_built "$gamebatch" "$bench_dir/command_bench" "$bench_dir/make_willow_case" \
  "$bench_dir/make_boigame_case" "$bench_dir/make_wallgame_case" "$bench_dir/cache_file_bench"
large_in=tests/data/willow/D-large-practice.in
[[ -f $large_in ]] || die "'$large_in' not found"

# On disk (not tmpfs) beside the build, so that the cache's fsync costs what it costs.
bench_make_scratch "$build"
set_dir=$scratch/set

echo "cache_bench.sh: writing the mixed set under $set_dir" >&2
bench_make_mixed_set "$set_dir" "$bench_dir" "$large_in"

# One run of the whole set: three solve commands sharing the cache $1, answers under $2, further
# solve options in $3. The result goes inside sh -c '...': paths must not hold single quotes
# (mktemp's do not), and {out} stays unquoted for command_bench to replace.
run_set() {
  local cache=$1 out=$2 options=${3:-} binary=${4:-$gamebatch}
  local common="--jobs 2 --cache $cache${options:+ $options}"
  echo "$(quote "$binary") solve -p willow $common --out $out/willow $(quote "$set_dir/willow") &&" \
    "$(quote "$binary") solve -p boigame $common --out $out/boigame $(quote "$set_dir/boigame") &&" \
    "$(quote "$binary") solve -p wallgame $common --out $out/wallgame $(quote "$set_dir/wallgame")"
}

echo "## Answer cache benchmark"
echo
bench_machine_line
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`."
echo

# Correctness first, in separate answer trees compared byte for byte: with --cache-min-solve-us 0
# (every case cached) a warm run solves nothing; with the default threshold (what the timings
# use) a warm run solves only the cases cheaper to solve than to look up.
echo "cache_bench.sh: checking that a warm run solves nothing and writes the same answers" >&2
check_cache=$scratch/check.cache
sh -c "$(run_set "$check_cache" "$scratch/check-cold" "--cache-min-solve-us 0")" \
  2>"$scratch/check-cold.log" || die "the cold run failed: $(tail -5 "$scratch/check-cold.log")"
sh -c "$(run_set "$check_cache" "$scratch/check-warm" "--cache-min-solve-us 0")" \
  2>"$scratch/check-warm.log" || die "the warm run failed: $(tail -5 "$scratch/check-warm.log")"
if grep -q -v ' solved: 0 ' <(grep '^files: ' "$scratch/check-warm.log"); then
  echo "cache_bench.sh: the warm run with --cache-min-solve-us 0 solved cases:" >&2
  grep '^files: ' "$scratch/check-warm.log" >&2
  failed=1
fi
warm_cache=$scratch/warm.cache
sh -c "$(run_set "$warm_cache" "$scratch/cold-answers")" 2>"$scratch/cold.log" ||
  die "the cold run failed: $(tail -5 "$scratch/cold.log")"
cp "$warm_cache" "$scratch/warm-before.cache"
sh -c "$(run_set "$warm_cache" "$scratch/warm-answers")" 2>"$scratch/warm.log" ||
  die "the warm run failed: $(tail -5 "$scratch/warm.log")"
answers_differ=0
for tree in check-cold check-warm warm-answers; do
  if ! diff -r -q "$scratch/cold-answers" "$scratch/$tree" >&2; then
    echo "cache_bench.sh: the answers in $tree differ from the cold run's" >&2
    answers_differ=1
    failed=1
  fi
done
if ! cmp -s "$warm_cache" "$scratch/warm-before.cache"; then
  echo "cache_bench.sh: note: the warm run rewrote the cache file" >&2
fi
echo "### The mixed set: warm rerun vs cold run (--jobs 2)"
echo
echo "Set: D-large-practice.in (50 cases), 4 files x 5 willow cases with N = 4000, one boigame file"
echo "of ten 300 x 300 boards, 2,000 wallgame files of two boards up to 12 x 12; $(find "$set_dir" -type f | wc -l) files."
echo "Summary lines of the cold run, then of the warm run (default --cache-min-solve-us: the"
echo "cases cheaper to solve than to look up are solved again), then of a warm run with"
echo "--cache-min-solve-us 0 (every case cached: it must solve none); all three answer trees are"
echo "byte-identical$( ((answers_differ)) && echo ": NO, they differ (see stderr)")."
echo
echo '```'
grep '^files: ' "$scratch/cold.log"
grep '^files: ' "$scratch/warm.log"
grep '^files: ' "$scratch/check-warm.log"
echo '```'
echo
echo "Cache after the cold run: $(stat -c %s "$warm_cache") bytes; $("$gamebatch" cache stats "$warm_cache" | grep '^entries:')."
echo "Target: the warm run takes at most 1/10 of the cold run (speed-up >= 10x)."
echo

repeat=$((quick ? 1 : 3))
"$bench_dir/command_bench" --markdown --repeat "$repeat" --timeout 1200 --min-ratio 10 \
  --run "warm=sh -c '$(run_set "$warm_cache" "$scratch/warm-answers")'" \
  --run "cold=sh -c 'rm -f {out}/cold.cache; $(run_set "{out}/cold.cache" "{out}")'" ||
  fail_section
echo

if [[ -n ${BASELINE_GAMEBATCH:-} ]]; then
  [[ -x $BASELINE_GAMEBATCH ]] || die "BASELINE_GAMEBATCH '$BASELINE_GAMEBATCH' is not an executable"
  baseline_cache=$scratch/baseline.cache
  sh -c "$(run_set "$baseline_cache" "$scratch/baseline-answers" "" "$BASELINE_GAMEBATCH")" \
    2>"$scratch/baseline.log" || die "the baseline's cold run failed: $(tail -5 "$scratch/baseline.log")"
  if ! diff -r -q "$scratch/cold-answers" "$scratch/baseline-answers" >&2; then
    echo "cache_bench.sh: the baseline's answers differ" >&2
    failed=1
  fi
  echo "#### The same runs beside a baseline gamebatch"
  echo
  echo "Baseline: \`$BASELINE_GAMEBATCH\` ($("$BASELINE_GAMEBATCH" --version)), with its own cache and"
  echo "answer trees; all four interleaved in one series."
  echo
  "$bench_dir/command_bench" --markdown --no-baseline --repeat "$repeat" --timeout 1200 \
    --run "warm=sh -c '$(run_set "$warm_cache" "$scratch/warm-answers")'" \
    --run "baseline warm=sh -c '$(run_set "$baseline_cache" "$scratch/baseline-answers" "" "$BASELINE_GAMEBATCH")'" \
    --run "cold=sh -c 'rm -f {out}/cold.cache; $(run_set "{out}/cold.cache" "{out}")'" \
    --run "baseline cold=sh -c 'rm -f {out}/cold.cache; $(run_set "{out}/cold.cache" "{out}" "" "$BASELINE_GAMEBATCH")'" ||
    fail_section
  echo
fi

echo "### The cache's store with 1,000,000 small entries"
echo
"$bench_dir/cache_file_bench" --entries 1000000 --repeat "$repeat" --dir "$scratch" || fail_section
echo

bench_finish
