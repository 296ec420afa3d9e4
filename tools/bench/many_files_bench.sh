#!/usr/bin/env bash
# Many small files: gamebatch solve over tens of thousands of one-board boigame files against
# what a user would otherwise run (GNU parallel starting the plain solver once per file), peak
# memory as the file count grows, the cost per file, and a mix of small files and huge cases.
#
#   tools/bench/many_files_bench.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch (with `gen`) and tools/bench/{command_bench,
# boigame_baseline, make_willow_case}; GNU parallel must be installed (valgrind is optional: the
# instruction counts). Inputs are generated (`gamebatch gen boigame --count N --seed 1 --size
# 2..12`, one board per file). Prints Markdown on stdout (progress on stderr):
#   1. 20,000 files: gamebatch --jobs 2 --no-cache vs `parallel -j2 'boigame_baseline < {} >
#      {.}.ans' ::: DIR/*.in` (one run each), answer trees checked identical; then cold and warm
#      cache.
#      Target: speed-up >= 20x.
#   2. Peak memory for 5,000 and 50,000 files, --no-cache and with a cache. Target: the peak at
#      50,000 files is at most 1.5x that at 5,000 (--no-cache).
#   3. Cost per file: (wall of N files - wall of 1 file) / N for --jobs 1 and 2, and callgrind's
#      instructions per file (--jobs 1) on 2,000 files.
#   4. 5,000 small willow files + 3 huge willow cases (N = 6000, 8000, 10000) in one directory:
#      cpu s / wall s with --jobs 2, answers byte-identical for --jobs 1, 2 and 3.
# --quick: a tenth of the files and one run of each command (3 otherwise). Files are written
# beside the build (a disk, not tmpfs). Exits 1 when a run fails, answers differ or a target is
# missed; all sections still run.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 1 "$@"

gamebatch=$build/tools/gamebatch
command_bench=$build/tools/bench/command_bench
baseline=$build/tools/bench/boigame_baseline
make_willow=$build/tools/bench/make_willow_case
bench_require_built "$gamebatch" "$command_bench" "$baseline" "$make_willow"
command -v parallel >/dev/null || die "GNU parallel is missing (apt-get install parallel)"
"$gamebatch" gen --help >/dev/null 2>&1 || die "this gamebatch has no 'gen' subcommand"

bench_make_scratch "$build"
scale=$((quick ? 10 : 1))
repeat=$((quick ? 1 : 3))
gb=$(quote "$gamebatch")

# gen_boigame COUNT DIR: COUNT one-board files DIR/boigame-NNNNNN.in, boards of side 2..12.
gen_boigame() {
  "$gamebatch" gen boigame --count "$1" --seed 1 --size 2..12 --out "$2" >/dev/null ||
    die "gamebatch gen boigame --count $1 failed"
}

echo "## Many small files"
echo
bench_machine_line
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`; repeats: $repeat. MB = 10^6 bytes."
echo

# ---------------------------------------------------------------- 1. throughput
count=$((20000 / scale))
set_dir=$scratch/small
echo "$bench_name: generating $count boigame files" >&2
gen_boigame "$count" "$set_dir"
model_dir=$scratch/model  # the baseline writes beside its inputs: its own copy
cp -r "$set_dir" "$model_dir"
parallel_run="parallel -j2 '$(quote "$baseline") < {} > {.}.ans' ::: $(quote "$model_dir")/*.in"
solve="$gb solve --problem boigame --jobs 2"
warm_cache=$scratch/warm.cache
"$gb" solve --problem boigame --jobs 2 --cache "$warm_cache" --out "$scratch/warm-answers" \
  "$set_dir" 2>/dev/null || die "filling the warm cache failed"

echo "### $count one-board files (n = 2..12): gamebatch --jobs 2 vs GNU parallel + boigame_baseline"
echo
echo "Baseline: \`$(basename "$(command -v parallel)") -j2 'boigame_baseline < {} > {.}.ans' ::: DIR/*.in\`."
echo "Target: speed-up >= 20x."
echo
# The baseline starts a process (and parallel a shell) per file: minutes for 20,000, so one run
# each; the ratio is far from the target either way. Both answer trees are compared right after.
"$command_bench" --markdown --repeat 1 --timeout 1800 --min-ratio 20 \
  --run "gamebatch=$solve --no-cache --out $(quote "$scratch/check") $(quote "$set_dir")" \
  --run "parallel=sh -c $(quote "$parallel_run")" || fail_section
if ! diff -r -q -x '*.in' "$scratch/check" "$model_dir" >&2; then
  echo "$bench_name: the answer trees differ" >&2
  failed=1
fi
echo
echo "Answer trees of both: $( ((failed)) && echo DIFFERENT || echo identical)."
echo
echo "With the answer cache (fresh answer directory each run): cold = an empty cache, warm = one"
echo "holding every case."
echo
"$command_bench" --markdown --no-baseline --repeat "$repeat" --timeout 1200 \
  --run "no cache=$solve --no-cache --out {out} $(quote "$set_dir")" \
  --run "cold cache=$solve --cache {out}/answers.cache --out {out}/answers $(quote "$set_dir")" \
  --run "warm cache=$solve --cache $(quote "$warm_cache") --out {out} $(quote "$set_dir")" ||
  fail_section
echo
rm -rf "$model_dir" "$scratch/check" "$scratch/warm-answers"

# ---------------------------------------------------------------- 2. memory
small=$((5000 / scale))
large=$((50000 / scale))
echo "$bench_name: generating $large boigame files" >&2
gen_boigame "$small" "$scratch/n$small"
gen_boigame "$large" "$scratch/n$large"
echo "### Peak memory: $small vs $large files (--jobs 2)"
echo
echo "Target: peak at $large files <= 1.5x the peak at $small (--no-cache)."
echo
table=$scratch/memory.md
"$command_bench" --markdown --no-baseline --repeat 1 --timeout 1200 \
  --run "$small no-cache=$solve --no-cache --out {out} $(quote "$scratch/n$small")" \
  --run "$large no-cache=$solve --no-cache --out {out} $(quote "$scratch/n$large")" \
  --run "$small cache=$solve --cache {out}/c --out {out}/a $(quote "$scratch/n$small")" \
  --run "$large cache=$solve --cache {out}/c --out {out}/a $(quote "$scratch/n$large")" \
  >"$table" || fail_section
cat "$table"
echo
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }'; }
no_cache_ratio=$(ratio "$(bench_column "$table" "${large}no-cache" 6)" "$(bench_column "$table" "${small}no-cache" 6)")
cache_ratio=$(ratio "$(bench_column "$table" "${large}cache" 6)" "$(bench_column "$table" "${small}cache" 6)")
verdict=met
awk -v r="$no_cache_ratio" 'BEGIN { exit !(r != "?" && r <= 1.5) }' || {
  verdict="NOT met"
  failed=1
}
echo "Peak ratio $large / $small files: ${no_cache_ratio}x --no-cache (target <= 1.5x: $verdict), ${cache_ratio}x with a cache."
echo

# ---------------------------------------------------------------- 3. cost per file
per_file=$((2000 / (scale > 1 ? 2 : 1)))
echo "### Cost per file: $per_file files vs 1"
echo
gen_boigame "$per_file" "$scratch/p$per_file"
one=$scratch/one
mkdir -p "$one"
cp "$scratch/p$per_file/boigame-000001.in" "$one/"
table=$scratch/per-file.md
"$command_bench" --markdown --no-baseline --repeat "$((repeat + 2))" --warmup 1 --timeout 600 \
  --run "1 file, jobs 1=$gb solve -p boigame --jobs 1 --no-cache --out {out} $(quote "$one")" \
  --run "$per_file files, jobs 1=$gb solve -p boigame --jobs 1 --no-cache --out {out} $(quote "$scratch/p$per_file")" \
  --run "1 file, jobs 2=$gb solve -p boigame --jobs 2 --no-cache --out {out} $(quote "$one")" \
  --run "$per_file files, jobs 2=$gb solve -p boigame --jobs 2 --no-cache --out {out} $(quote "$scratch/p$per_file")" \
  >"$table" || fail_section
cat "$table"
echo
for jobs in 1 2; do
  us=$(awk -v n="$(bench_column "$table" "${per_file}files,jobs$jobs" 3)" -v o="$(bench_column "$table" "1file,jobs$jobs" 3)" \
    -v count="$per_file" 'BEGIN { printf "%.0f", (n - o) / count * 1e6 }')
  echo "- --jobs $jobs: $us µs per file (wall of $per_file files - wall of 1, / $per_file)."
done
# The same in memory (tmpfs), when there is one: what the file system's file creation costs
# (each answer file is a new inode, the temporary renamed into place) against gamebatch's own work.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
  memory_dir=$scratch/shm
  ln -s "$(mktemp -d /dev/shm/many-files-bench.XXXXXX)" "$memory_dir"
  trap 'rm -rf "$(readlink "$memory_dir")" "$scratch"' EXIT
  cp -r "$one" "$scratch/p$per_file" "$memory_dir/"
  in_memory() {  # in_memory JOBS SET: a fresh answer directory each run, as on the disk
    echo "sh -c $(quote "rm -rf $memory_dir/out && $gb solve -p boigame --jobs $1 --no-cache --out $memory_dir/out $memory_dir/$2")"
  }
  table_memory=$scratch/per-file-memory.md
  "$command_bench" --markdown --no-baseline --repeat "$((repeat + 2))" --warmup 1 --timeout 600 \
    --run "1 file, jobs 1, tmpfs=$(in_memory 1 one)" \
    --run "$per_file files, jobs 1, tmpfs=$(in_memory 1 "p$per_file")" \
    --run "1 file, jobs 2, tmpfs=$(in_memory 2 one)" \
    --run "$per_file files, jobs 2, tmpfs=$(in_memory 2 "p$per_file")" \
    >"$table_memory" || fail_section
  echo
  echo "Inputs and answers in /dev/shm (tmpfs):"
  echo
  cat "$table_memory"
  echo
  for jobs in 1 2; do
    us=$(awk -v n="$(bench_column "$table_memory" "${per_file}files,jobs$jobs,tmpfs" 3)" \
      -v o="$(bench_column "$table_memory" "1file,jobs$jobs,tmpfs" 3)" -v count="$per_file" \
      'BEGIN { printf "%.0f", (n - o) / count * 1e6 }')
    echo "- tmpfs, --jobs $jobs: $us µs per file."
  done
fi
if command -v valgrind >/dev/null; then
  instructions() {
    rm -rf "$scratch/cg-out"
    valgrind --tool=callgrind --callgrind-out-file="$scratch/cg.out" "$gamebatch" solve -p boigame \
      --jobs 1 --no-cache --out "$scratch/cg-out" "$1" >/dev/null 2>&1 || die "callgrind failed"
    awk '/^(summary|totals):/ { print $2; exit }' "$scratch/cg.out"
  }
  ir_one=$(instructions "$one")
  ir_many=$(instructions "$scratch/p$per_file")
  echo "- callgrind, --jobs 1: $(( (ir_many - ir_one) / per_file )) instructions per file ($ir_many for $per_file files, $ir_one for 1)."
fi
echo

# ---------------------------------------------------------------- 4. small files and huge cases
mixed=$scratch/mixed
small_willow=$((5000 / scale))
echo "$bench_name: writing the mixed set" >&2
"$gamebatch" gen willow --count "$small_willow" --seed 1 --cities 2..60 --out "$mixed" >/dev/null ||
  die "gamebatch gen willow failed"
# Huge cases among the small files (sorted names put them between them): they run their outer
# loop in parallel while the small files keep flowing.
for cities in 6000 8000 10000; do
  "$make_willow" --shape random --cities "$cities" --seed 1 \
    --output "$mixed/willow-00$((cities / 2000 - 2))000-huge.in"
done
echo "### $small_willow small willow files (N = 2..60) + 3 huge ones (N = 6000, 8000, 10000) in one set"
echo
echo "One \`gamebatch solve\` over the directory; cpu s / wall s is the cores kept busy. Answers"
echo "checked byte-identical for --jobs 1, 2 and 3."
echo
for jobs in 1 2 3; do
  "$gb" solve -p willow --jobs "$jobs" --no-cache --quiet --out "$scratch/mixed-$jobs" "$mixed" 2>/dev/null ||
    die "the mixed run with --jobs $jobs failed"
done
for jobs in 2 3; do
  if ! diff -r -q "$scratch/mixed-1" "$scratch/mixed-$jobs" >&2; then
    echo "$bench_name: answers of --jobs $jobs differ from --jobs 1" >&2
    failed=1
  fi
done
table=$scratch/mixed.md
"$command_bench" --markdown --no-baseline --repeat "$repeat" --timeout 1200 \
  --run "jobs 1=$gb solve -p willow --jobs 1 --no-cache --out {out} $(quote "$mixed")" \
  --run "jobs 2=$gb solve -p willow --jobs 2 --no-cache --out {out} $(quote "$mixed")" >"$table" ||
  fail_section
cat "$table"
echo
echo "- cpu s / wall s with --jobs 2 = $(ratio "$(bench_column "$table" jobs2 5)" "$(bench_column "$table" jobs2 3)") on $(nproc) cores; speed-up of --jobs 2 over --jobs 1: $(ratio "$(bench_column "$table" jobs1 3)" "$(bench_column "$table" jobs2 3)")x; --jobs 1, 2, 3 answers identical: $( ((failed)) && echo no || echo yes)."
echo

bench_finish
