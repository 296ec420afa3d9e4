#!/usr/bin/env bash
# Answer cache at scale: runs with a big cache (10^6 small entries plus the doublemove tables of
# n = 30..43; with --big also one of 10^7) against the same runs with --no-cache, in one series:
# a run's cost must follow the run, not what the cache has accumulated.
#
#   tools/bench/cache_scale_bench.sh [--quick] [--big] [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch (with `gen`) and tools/bench/{command_bench,
# cache_store_lookup_bench, make_willow_case, make_boigame_case, make_wallgame_case}. Relative
# paths are taken from the repo root. Files go beside the build (a disk, not tmpfs). Prints
# Markdown on stdout (progress on stderr); every time and peak is command_bench's (--jobs 2):
#   1. Building the big cache: one `solve --cache-min-solve-us 0` over 10^6 small wallgame boards
#      (`gen wallgame --height 2..6 --width 1..6`, 10,000 cases per file; tiny boards repeat, so
#      there are somewhat fewer entries), beside the same run with --no-cache; then one file of
#      doublemove cases n = 30..43 (k = 0) solved into it, which stores their state tables (74 MB).
#      Entries, file size and bytes on disk per entry.
#   2. Look-ups in the big cache (cache_store_lookup_bench, read only): opening it, hit and miss
#      look-ups per second from 1 and 2 threads, one case's key + look-up.
#   3. A 10-case run of another game (10 boigame boards n = 50..60), warm (a first run filled the
#      cache), every board looked up (--cache-min-solve-us 0). Targets: at most 25% + 0.1 s
#      slower than --no-cache, and within +0.15 s and +48 MB of it (peak memory follows the run,
#      not the cache).
#   4. A warm rerun of the 10^6 cases of section 1: default --cache-min-solve-us (these boards,
#      cheaper to solve than to look up, skip the cache) and 0 (every one looked up).
#   5. 200,000 new small cases (another seed): default threshold (nothing looked up or stored) and
#      0 (each looked up, then stored) into a fresh copy of the big cache, made inside the timed
#      command (the copy alone is timed too and subtracted).
#   6. The mixed set of cache_bench.sh (willow D-large-practice.in, 4 x 5 willow cases with
#      N = 4000, ten boigame 300 x 300 boards, 2,000 small wallgame files: three solve commands),
#      cold (a copy of the big cache without its answers, copy subtracted) and warm (the big
#      cache after a run filled it; answers to that run's directory, as a rerun does). Answers
#      are checked identical to a --no-cache run. Target: warm >= 40x faster than cold.
#   7. The 20,000-file set (`gen boigame --count 20000 --seed 1 --size 2..12`), warm.
# Target of every run with the big cache at the default threshold (sections 3 to 7): median wall
# at most 1.25 x that of --no-cache + 0.1 s. Runs with --cache-min-solve-us 0 are shown beside
# them but not held to it: 0 makes the cache look up cases cheaper to solve than a look-up, which
# is what the threshold is there to avoid.
# --quick: a tenth of every count (a 10^5 cache; 10^6 with --big) and one run of each command
# (3 of the 10-case run; otherwise 3, and 5 of the 10-case run): about 3 minutes on 2 cores, 15
# without. --big adds the 10^7 cache to every section: many minutes more, about 3 GB of disk.
# Exits 1 when a run fails, answers differ or a target is missed; all sections still run.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

# --big is this script's own option; bench_init parses the rest.
big=0
arguments=()
for arg in "$@"; do
  if [[ $arg == --big ]]; then
    big=1
  else
    arguments+=("$arg")
  fi
done
bench_init 1 "${arguments[@]}"

gamebatch=$build/tools/gamebatch
bench_dir=$build/tools/bench
command_bench=$bench_dir/command_bench
lookup_bench=$bench_dir/cache_store_lookup_bench
bench_require_built "$gamebatch" "$command_bench" "$lookup_bench" "$bench_dir/make_willow_case" \
  "$bench_dir/make_boigame_case" "$bench_dir/make_wallgame_case"
"$gamebatch" gen --help >/dev/null 2>&1 || die "this gamebatch has no 'gen' subcommand"
large_in=tests/data/willow/D-large-practice.in
[[ -f $large_in ]] || die "'$large_in' not found"

bench_make_scratch "$build"
scale=$((quick ? 10 : 1))
repeat=$((quick ? 1 : 3))
gb=$(quote "$gamebatch")
cases_per_file=10000

# The big caches: label ("10^6"), case count, cache file (in a directory of its own, as
# ~/.cache/gamebatch is), and the wallgame set it is built from.
labels=()
counts=()
caches=()
sets=()
add_cache() {
  local count=$1 exponent
  exponent=$(awk -v n="$count" 'BEGIN { printf "%d", log(n) / log(10) + 0.5 }')
  labels+=("10^$exponent")
  counts+=("$count")
  caches+=("$scratch/cache-$count/answers.cache")
  sets+=("$scratch/wallgame-$count")
}
add_cache $((1000000 / scale))
((big)) && add_cache $((10000000 / scale))

# Bytes as MB with one decimal.
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }

# verdict MET TEXT: a "- PASS: TEXT" or "- FAIL: TEXT" line (MET: 1 or 0); a FAIL marks the run
# failed and is repeated on stderr.
verdict() {
  if (($1)); then
    echo "- PASS: $2"
  else
    echo "- FAIL: $2"
    echo "$bench_name: target missed: $2" >&2
    failed=1
  fi
}

# overhead TABLE NAME BASE [COPY]: the wall of row NAME (less the median of row COPY, a copy its
# command makes first) against row BASE (--no-cache). Prints "wall base limit peak base_peak", the
# limit being 1.25 x base + 0.1 s; nothing when a row is missing (a failed section).
overhead() {
  local table=$1 name=$2 base=$3 copy=${4:-}
  local wall base_wall peak base_peak copy_wall=0
  wall=$(bench_column "$table" "$name" 3)
  base_wall=$(bench_column "$table" "$base" 3)
  peak=$(bench_column "$table" "$name" 6)
  base_peak=$(bench_column "$table" "$base" 6)
  [[ -n $copy ]] && copy_wall=$(bench_column "$table" "$copy" 3)
  [[ -n $wall && -n $base_wall && -n $peak && -n $base_peak && -n $copy_wall ]] || return 0
  awk -v w="$wall" -v c="$copy_wall" -v b="$base_wall" -v p="$peak" -v q="$base_peak" \
    'BEGIN { printf "%.3f %.3f %.3f %.1f %.1f\n", w - c, b, 1.25 * b + 0.1, p, q }'
}

# check_overhead TABLE NAME BASE [COPY]: the target on one run with the big cache: median wall
# (less row COPY's) at most 1.25 x row BASE's + 0.1 s. INFO=1 prints the same line without a
# verdict (runs with --cache-min-solve-us 0).
check_overhead() {
  local numbers wall base limit peak base_peak text
  numbers=$(overhead "$@")
  if [[ -z $numbers ]]; then
    verdict 0 "'$2' vs '$3': no timing (the run failed)"
    return
  fi
  read -r wall base limit peak base_peak <<<"$numbers"
  text="$2: $wall s${4:+ (copy subtracted)} vs $base s with --no-cache (limit 1.25 x + 0.1 s = $limit s); peak $peak MB vs $base_peak MB ($(awk -v p="$peak" -v q="$base_peak" 'BEGIN { printf "%+.1f", p - q }') MB)"
  if ((${INFO:-0})); then
    echo "- info (not a target: --cache-min-solve-us 0): $text, $(awk -v w="$wall" -v b="$base" 'BEGIN { printf "%.1f", w / b }')x the --no-cache wall"
  else
    verdict "$(awk -v w="$wall" -v l="$limit" 'BEGIN { print (w <= l) ? 1 : 0 }')" "$text"
  fi
}

# The summary lines ("files: F cases: C solved: S cached: H ...") of one more run of the shell
# command line COMMAND, in a code block: what a warm run took from the cache.
summary_block() {
  echo '```'
  sh -c "$1" 2>&1 >/dev/null | grep '^files: ' || echo "(no summary line: the run failed)"
  echo '```'
}

# A solve command line of GAME with the cache option CACHE_OPTION (--no-cache, or --cache FILE
# and more), answers to OUT, inputs the rest: solve_line GAME CACHE_OPTION OUT PATH...
solve_line() {
  local game=$1 cache_option=$2 out=$3
  shift 3
  local line="$gb solve -p $game --jobs 2 $cache_option --out $out"
  local path
  for path in "$@"; do
    line+=" $(quote "$path")"
  done
  echo "$line"
}

echo "## The answer cache at scale"
echo
bench_machine_line
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`; repeats: $repeat; caches: ${labels[*]} small entries. MB = 10^6 bytes."
echo

# ---------------------------------------------------------------- inputs
echo "$bench_name: generating the inputs under $scratch" >&2
gen() {  # gen GAME COUNT SEED DIR [OPTIONS...]
  local game=$1 count=$2 seed=$3 dir=$4
  shift 4
  "$gamebatch" gen "$game" --count "$count" --seed "$seed" --out "$dir" "$@" >/dev/null ||
    die "gamebatch gen $game --count $count failed"
}
for k in "${!labels[@]}"; do
  gen wallgame $((counts[k] / cases_per_file)) 1 "${sets[k]}" --cases-per-file "$cases_per_file" \
    --height 2..6 --width 1..6
done
new_count=$((200000 / scale))
new_set=$scratch/wallgame-new
gen wallgame $((new_count / cases_per_file)) 2 "$new_set" --cases-per-file "$cases_per_file" \
  --height 2..6 --width 1..6
tables_dir=$scratch/doublemove
mkdir -p "$tables_dir"
{
  echo 14
  for n in $(seq 30 43); do
    echo "$n 0"
  done
} >"$tables_dir/tables.in"
boigame_10=$scratch/boigame-10
gen boigame 10 1 "$boigame_10" --size 50..60
file_count=$((20000 / scale))
files_set=$scratch/boigame-files
gen boigame "$file_count" 1 "$files_set" --size 2..12
# The mixed set, made as cache_bench.sh makes it.
mixed=$scratch/mixed
bench_make_mixed_set "$mixed" "$bench_dir" "$large_in"
# One run of the mixed set: three solve commands with the cache option $1, answers under $2.
# It goes inside sh -c '...': paths must not hold single quotes (mktemp's do not).
run_mixed() {
  echo "$(solve_line willow "$1" "$2/willow" "$mixed/willow") &&" \
    "$(solve_line boigame "$1" "$2/boigame" "$mixed/boigame") &&" \
    "$(solve_line wallgame "$1" "$2/wallgame" "$mixed/wallgame")"
}

# ---------------------------------------------------------------- 1. building
echo "### 1. Building the big cache"
echo
echo "One \`solve -p wallgame --cache-min-solve-us 0\` over the set (boards 2..6 x 1..6, $cases_per_file per file), beside"
echo "the same run with --no-cache; then the doublemove tables n = 30..43 (one file of 14 cases,"
echo "k = 0) solved into the cache. One run each."
echo
for k in "${!labels[@]}"; do
  label=${labels[k]}
  cache=${caches[k]}
  echo "$bench_name: building the $label cache" >&2
  table=$scratch/build-$k.md
  "$command_bench" --markdown --no-baseline --repeat 1 --timeout 7200 \
    --run "build $label=$(solve_line wallgame "--cache-min-solve-us 0 --cache $(quote "$cache")" "{out}" "${sets[k]}")" \
    --run "no cache=$(solve_line wallgame --no-cache "{out}" "${sets[k]}")" >"$table" || fail_section
  entries=$("$gamebatch" cache stats "$cache" | awk '/^entries:/ { print $2 }')
  entry_bytes=$(stat -c %s "$cache")
  "$command_bench" --markdown --no-baseline --repeat 1 --timeout 3600 \
    --run "tables into $label=$(solve_line doublemove "--cache-min-solve-us 0 --cache $(quote "$cache")" "{out}" "$tables_dir")" \
    >"$scratch/tables-$k.md" || fail_section
  echo "$label cases, then the tables:"
  echo
  cat "$table"
  echo
  cat "$scratch/tables-$k.md"
  echo
  build_wall=$(bench_column "$table" "build $label" 3)
  echo "- $entries entries; $(mb "$entry_bytes") MB on disk before the tables: $(awk -v b="$entry_bytes" -v e="$entries" 'BEGIN { printf "%.1f", b / e }') bytes per entry; $(mb "$(stat -c %s "$cache")") MB with the tables."
  echo "- Saved while solving: $(awk -v e="$entries" -v w="$build_wall" 'BEGIN { if (w > 0) printf "%.0f", e / w; else print "?" }') entries per second of the build's wall time (solving, looking up and committing included)."
  echo
done

# ---------------------------------------------------------------- 2. look-ups
echo "### 2. Look-ups in the big cache (no loading)"
echo
echo "cache_store_lookup_bench: keys of the first $((10 * cases_per_file)) cases of section 1's set (all stored), misses"
echo "are random keys; the cache file is in the OS page cache. Bytes per entry here count the"
echo "doublemove tables too."
echo
key_files=()
while IFS= read -r file; do
  key_files+=("$file")
done < <(find "${sets[0]}" -name '*.in' | sort | head -10)
for k in "${!labels[@]}"; do
  "$lookup_bench" --cache "${caches[k]}" --problem wallgame --repeat "$repeat" "${key_files[@]}" ||
    fail_section
  echo
done

# ---------------------------------------------------------------- 3. a 10-case run
echo "### 3. A 10-case run of another game: 10 boigame boards n = 50..60, warm"
echo
echo "Every board is looked up (--cache-min-solve-us 0: at the default these boards, estimated"
echo "under 70 µs, would skip the cache): a first run stored the 10 answers in each cache, and each"
echo "measured run finds them there."
echo
for k in "${!labels[@]}"; do
  sh -c "$(solve_line boigame "--cache $(quote "${caches[k]}") --cache-min-solve-us 0" "$(quote "$scratch/fill")" "$boigame_10")" \
    2>/dev/null || die "filling the ${labels[k]} cache with the 10 boigame cases failed"
done
runs=(--run "no cache=$(solve_line boigame --no-cache "{out}" "$boigame_10")")
for k in "${!labels[@]}"; do
  runs+=(--run "cache ${labels[k]}=$(solve_line boigame "--cache $(quote "${caches[k]}") --cache-min-solve-us 0" "{out}" "$boigame_10")")
done
table=$scratch/ten.md
"$command_bench" --markdown --no-baseline --repeat $((quick ? 3 : 5)) --warmup 1 --timeout 600 \
  "${runs[@]}" >"$table" || fail_section
cat "$table"
echo
echo "Summary line of one more warm run with the ${labels[0]} cache:"
echo
summary_block "$(solve_line boigame "--cache $(quote "${caches[0]}") --cache-min-solve-us 0" "$(quote "$scratch/fill")" "$boigame_10")"
echo
for k in "${!labels[@]}"; do
  check_overhead "$table" "cache ${labels[k]}" "no cache"
  numbers=$(overhead "$table" "cache ${labels[k]}" "no cache")
  [[ -n $numbers ]] || continue  # check_overhead said FAIL
  read -r wall base _ peak base_peak <<<"$numbers"
  verdict "$(awk -v w="$wall" -v b="$base" -v p="$peak" -v q="$base_peak" \
    'BEGIN { print (w <= b + 0.15 && p <= q + 48) ? 1 : 0 }')" \
    "cache ${labels[k]}: $(awk -v w="$wall" -v b="$base" 'BEGIN { printf "%+.3f", w - b }') s and $(awk -v p="$peak" -v q="$base_peak" 'BEGIN { printf "%+.1f", p - q }') MB against --no-cache (limits +0.15 s, +48 MB)"
done
echo

# ---------------------------------------------------------------- 4. warm rerun of the small cases
echo "### 4. Warm rerun of the ${labels[0]} small wallgame cases of section 1"
echo
echo "Each cache holds every one of them (built from this set or a larger one)."
echo
runs=(--run "no cache=$(solve_line wallgame --no-cache "{out}" "${sets[0]}")")
for k in "${!labels[@]}"; do
  runs+=(--run "cache ${labels[k]}=$(solve_line wallgame "--cache $(quote "${caches[k]}")" "{out}" "${sets[0]}")")
  runs+=(--run "cache ${labels[k]}, min-solve-us 0=$(solve_line wallgame "--cache-min-solve-us 0 --cache $(quote "${caches[k]}")" "{out}" "${sets[0]}")")
done
table=$scratch/rerun.md
"$command_bench" --markdown --no-baseline --repeat "$repeat" --timeout 3600 "${runs[@]}" \
  >"$table" || fail_section
cat "$table"
echo
for k in "${!labels[@]}"; do
  check_overhead "$table" "cache ${labels[k]}" "no cache"
  INFO=1 check_overhead "$table" "cache ${labels[k]}, min-solve-us 0" "no cache"
done
echo

# ---------------------------------------------------------------- 5. new cases
echo "### 5. $new_count new small wallgame cases (seed 2)"
echo
echo "Default threshold: the boards are cheaper to solve than to look up, so the cache is opened"
echo "and nothing else (each run sees them new). --cache-min-solve-us 0: each is looked up, then"
echo "stored, in a fresh copy of the cache made by the timed command (the copy alone is timed too,"
echo "and subtracted). Tiny boards of this set can be among the stored ones: those are hits."
echo
runs=(--run "no cache=$(solve_line wallgame --no-cache "{out}" "$new_set")")
for k in "${!labels[@]}"; do
  cache=$(quote "${caches[k]}")
  runs+=(--run "cache ${labels[k]}=$(solve_line wallgame "--cache $cache" "{out}/answers" "$new_set")")
  runs+=(--run "copy ${labels[k]}=cp $cache {out}/copy.cache")
  runs+=(--run "copy ${labels[k]} + min-solve-us 0=sh -c 'cp $cache {out}/copy.cache && $(solve_line wallgame "--cache-min-solve-us 0 --cache {out}/copy.cache" "{out}/answers" "$new_set")'")
done
table=$scratch/new.md
"$command_bench" --markdown --no-baseline --repeat "$repeat" --timeout 3600 "${runs[@]}" \
  >"$table" || fail_section
cat "$table"
echo
for k in "${!labels[@]}"; do
  check_overhead "$table" "cache ${labels[k]}" "no cache"
  INFO=1 check_overhead "$table" "copy ${labels[k]} + min-solve-us 0" "no cache" "copy ${labels[k]}"
done
echo

# ---------------------------------------------------------------- 6. the mixed set
echo "### 6. The mixed set of cache_bench.sh, cold and warm"
echo
echo "$(find "$mixed" -type f | wc -l) files; one run = three solve commands. Cold: a copy of the big cache (which"
echo "lacks the set's answers) made by the timed command, the copy alone timed too and subtracted."
echo "Warm: the big cache after a cold run stored the set in it, answers to that run's directory."
echo
echo "$bench_name: the mixed set: --no-cache reference answers" >&2
sh -c "$(run_mixed --no-cache "$(quote "$scratch/mixed-reference")")" 2>/dev/null ||
  die "the --no-cache run of the mixed set failed"
runs=(--run "no cache=sh -c '$(run_mixed --no-cache "{out}")'")
for k in "${!labels[@]}"; do
  cache=$(quote "${caches[k]}")
  runs+=(--run "cold ${labels[k]}=sh -c 'cp $cache {out}/copy.cache && $(run_mixed "--cache {out}/copy.cache" "{out}")'")
  runs+=(--run "copy ${labels[k]}=cp $cache {out}/copy.cache")
done
table=$scratch/mixed-cold.md
"$command_bench" --markdown --no-baseline --repeat "$repeat" --timeout 3600 "${runs[@]}" \
  >"$table" || fail_section
runs=()
for k in "${!labels[@]}"; do
  answers=$scratch/mixed-answers-$k
  sh -c "$(run_mixed "--cache $(quote "${caches[k]}")" "$(quote "$answers")")" 2>/dev/null ||
    die "filling the ${labels[k]} cache with the mixed set failed"
  runs+=(--run "warm ${labels[k]}=sh -c '$(run_mixed "--cache $(quote "${caches[k]}")" "$(quote "$answers")")'")
done
"$command_bench" --markdown --no-baseline --repeat "$repeat" --timeout 3600 "${runs[@]}" \
  >"$scratch/mixed-warm.md" || fail_section
# One table: the warm rows below the cold ones.
cat "$table"
awk 'NR > 2' "$scratch/mixed-warm.md"
cat "$scratch/mixed-warm.md" >>"$table"
echo
echo "Summary lines of one more warm run with the ${labels[0]} cache:"
echo
summary_block "$(run_mixed "--cache $(quote "${caches[0]}")" "$(quote "$scratch/mixed-answers-0")")"
echo
for k in "${!labels[@]}"; do
  if ! diff -r -q "$scratch/mixed-reference" "$scratch/mixed-answers-$k" >&2; then
    verdict 0 "the answers with the ${labels[k]} cache differ from --no-cache's"
  fi
  check_overhead "$table" "cold ${labels[k]}" "no cache" "copy ${labels[k]}"
  check_overhead "$table" "warm ${labels[k]}" "no cache"
  read -r cold _ <<<"$(overhead "$table" "cold ${labels[k]}" "no cache" "copy ${labels[k]}")"
  read -r warm _ <<<"$(overhead "$table" "warm ${labels[k]}" "no cache")"
  verdict "$(awk -v c="${cold:-0}" -v w="${warm:-0}" 'BEGIN { print (w > 0 && c / w >= 40) ? 1 : 0 }')" \
    "warm ${labels[k]} is $(awk -v c="${cold:-0}" -v w="${warm:-0}" 'BEGIN { if (w > 0) printf "%.1f", c / w; else print "?" }')x faster than cold (copy subtracted; target >= 40x)"
done
echo

# ---------------------------------------------------------------- 7. many files
echo "### 7. The $file_count-file set (boigame, n = 2..12, one board per file), warm"
echo
echo "A first run stored in each cache what it caches of the set."
echo
runs=(--run "no cache=$(solve_line boigame --no-cache "{out}" "$files_set")")
for k in "${!labels[@]}"; do
  sh -c "$(solve_line boigame "--cache $(quote "${caches[k]}")" "$(quote "$scratch/fill-files")" "$files_set")" \
    2>/dev/null || die "filling the ${labels[k]} cache with the $file_count files failed"
  runs+=(--run "warm ${labels[k]}=$(solve_line boigame "--cache $(quote "${caches[k]}")" "{out}" "$files_set")")
done
table=$scratch/files.md
"$command_bench" --markdown --no-baseline --repeat "$repeat" --timeout 3600 "${runs[@]}" \
  >"$table" || fail_section
cat "$table"
echo
echo "Summary line of one more warm run with the ${labels[0]} cache (boards the game expects to solve"
echo "in under 70 µs (the default --cache-min-solve-us) skip the cache):"
echo
summary_block "$(solve_line boigame "--cache $(quote "${caches[0]}")" "$(quote "$scratch/fill-files")" "$files_set")"
echo
for k in "${!labels[@]}"; do
  check_overhead "$table" "warm ${labels[k]}" "no cache"
done
echo

for k in "${!labels[@]}"; do
  echo "The ${labels[k]} cache at the end: $("$gamebatch" cache stats "${caches[k]}" | grep '^entries:'); $(mb "$(stat -c %s "${caches[k]}")") MB."
done
echo

bench_finish
