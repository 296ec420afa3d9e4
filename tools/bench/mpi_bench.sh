#!/usr/bin/env bash
# The MPI mode against one process and against static shards, on a skewed willow set: 300 small
# files (three cases of 2..50 cities each) and three files of five N = 4000 cases (the heavy
# tail that static shards cannot spread). Every command runs with --jobs 1 per process and
# --no-cache, and the answer trees are checked identical:
#   mpi -np 2   mpirun -np 2 gamebatch solve --mpi --jobs 1 (rank 0 solves too)
#   single      gamebatch solve --jobs 1
#   2 shards    gamebatch solve --shard 1/2 and --shard 2/2, side by side, --jobs 1 each
# Targets: mpi -np 2 takes at most 0.6x the single process's time (speed-up >= 1.67x) and beats
# the two shards (speed-up > 1). Beside them, mpi -np 2 with `--mca pml ob1` (Open MPI's
# shared-memory transport without probing UCX first: a faster start on one machine). Then the cost of the mode itself: mpirun -np 1 against a plain
# process on 2,000 small files (--jobs 2), where every case goes through the work pool; and the
# skewed set with twice the heavy files (reported: MPI's start is a fixed cost).
#
#   tools/bench/mpi_bench.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch built with the MPI mode and
# tools/bench/{command_bench,make_willow_case}; mpirun must be installed (openmpi-bin). As root,
# OMPI_ALLOW_RUN_AS_ROOT is set for mpirun. --quick: one run of each command (5 otherwise).
# Prints Markdown on stdout; exits 1 when a run fails, answers differ or a target is missed.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_init 1 "$@"

gamebatch=$build/tools/gamebatch
command_bench=$build/tools/bench/command_bench
make_willow=$build/tools/bench/make_willow_case
bench_require_built "$gamebatch" "$command_bench" "$make_willow"
command -v mpirun >/dev/null || die "mpirun is missing (apt-get install openmpi-bin)"
[[ $("$gamebatch" solve --help) == *--mpi* ]] || die "this gamebatch has no MPI mode (--mpi)"
if [[ $(id -u) -eq 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
bench_make_scratch "$build"
repeat=$((quick ? 1 : 5))
gb=$(quote "$gamebatch")

set_dir=$scratch/skewed
echo "$bench_name: generating the skewed set" >&2
"$gamebatch" gen willow --count 300 --cases-per-file 3 --seed 1 --out "$set_dir/small" >/dev/null
mkdir -p "$set_dir/heavy"
for k in 1 2 3; do
  "$make_willow" --shape random --cities 4000 --cases 5 --seed "$k" \
    --output "$set_dir/heavy/n4000-$k.in"
done
reference=$scratch/reference
"$gamebatch" solve --problem willow --no-cache --quiet --out "$reference" "$set_dir" 2>/dev/null

solve="$gb solve --problem willow --jobs 1 --no-cache --quiet"
set_q=$(quote "$set_dir")
# Where the heavy files fall (a shard's answers tell): static shards cannot move them.
shard_of_heavy=""
for shard in 1 2; do
  "$gamebatch" solve --problem willow --no-cache --quiet --shard "$shard/2" \
    --out "$scratch/shard-$shard" "$set_dir" 2>/dev/null
  for k in 1 2 3; do
    [[ -f $scratch/shard-$shard/heavy/n4000-$k.ans ]] && shard_of_heavy+=" n4000-$k.in in $shard/2;"
  done
done

echo "## MPI mode: a skewed willow set"
echo
bench_machine_line
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`; repeats: $repeat; Open MPI $(mpirun --version | head -1 | awk '{print $NF}')."
echo
echo "300 small files (3 cases of 2..50 cities) and 3 files of 5 cases with N = 4000 (one"
echo "process, --jobs 1: ~4 s); every process --jobs 1, --no-cache. Static shards:${shard_of_heavy}"
echo "Targets: mpi -np 2 <= 0.6x single (speed-up >= 1.67x), and faster than 2 shards."
echo
table=$scratch/skewed.md
shards="sh -c '$solve --shard 1/2 --out {out} $set_q & $solve --shard 2/2 --out {out} $set_q; wait'"
# Open MPI probes its UCX transport at start (0.2 s here); on one machine `--mca pml ob1` goes
# straight to shared memory. Measured beside the default, not instead of it.
if "$command_bench" --markdown --repeat "$repeat" --timeout 600 \
  --run "mpi -np 2=mpirun -np 2 $solve --mpi --out {out} $set_q" \
  --run "single=$solve --out {out} $set_q" \
  --run "2 shards=$shards" \
  --run "mpi -np 2, pml ob1=mpirun --mca pml ob1 -np 2 $solve --mpi --out {out} $set_q" \
  --check "mpi -np 2={out}/heavy/n4000-2.ans:$reference/heavy/n4000-2.ans" \
  --check "2 shards={out}/heavy/n4000-3.ans:$reference/heavy/n4000-3.ans" >"$table"; then
  cat "$table"
  single_s=$(bench_column "$table" single 3)
  echo
  for row in "mpi -np 2" "2 shards" "mpi -np 2, pml ob1"; do
    echo "- $row: $(awk -v a="$(bench_column "$table" "${row// /}" 3)" -v b="$single_s" \
      'BEGIN { printf "%.2f", a / b }')x the single process's time"
  done
  over_single=$(bench_column "$table" single 7)
  over_shards=$(bench_column "$table" 2shards 7)
  if ! awk -v a="$over_single" -v b="$over_shards" 'BEGIN { exit !(a >= 1 / 0.6 && b > 1) }'; then
    echo "$bench_name: target missed (mpi -np 2: speed-up ${over_single}x over single, ${over_shards}x over shards)" >&2
    failed=1
  fi
else
  cat "$table"
  fail_section
fi
# The whole tree, once: the MPI run writes every file as one process does.
mpirun -np 2 "$gamebatch" solve --problem willow --jobs 1 --no-cache --quiet --mpi \
  --out "$scratch/mpi-tree" "$set_dir" 2>/dev/null
trees=identical
if ! diff -r -q "$reference" "$scratch/mpi-tree" >&2; then
  echo "$bench_name: the MPI run's answers differ from one process's" >&2
  trees=DIFFERENT
  failed=1
fi
echo
echo "Answer trees of mpi -np 2 and one process: $trees."
echo
# MPI's own start: a job of one tiny file against mpirun starting two `true`s.
/usr/bin/time -o "$scratch/tiny.time" -f %e mpirun -np 2 "$gamebatch" solve --problem willow \
  --no-cache --quiet --mpi --out "$scratch/tiny" "$set_dir/small/willow-000001.in" 2>/dev/null
/usr/bin/time -o "$scratch/true.time" -f %e mpirun -np 2 true
echo "MPI's start on this machine: \`mpirun -np 2 gamebatch solve --mpi\` of one tiny file takes"
echo "$(tail -1 "$scratch/tiny.time") s; \`mpirun -np 2 true\` $(tail -1 "$scratch/true.time") s."
echo

echo "### Twice the heavy work: MPI's fixed cost amortised"
echo
echo "The same 300 small files and 6 heavy files (the 3 above and 3 more): MPI's start is a fixed"
echo "cost, so the ratio moves towards 0.5x as the work grows. Reported, no target."
echo
double_dir=$scratch/skewed-6
mkdir -p "$double_dir/heavy"
cp -r "$set_dir/small" "$double_dir/small"
cp "$set_dir"/heavy/*.in "$double_dir/heavy/"
for k in 4 5 6; do
  "$make_willow" --shape random --cities 4000 --cases 5 --seed "$k" \
    --output "$double_dir/heavy/n4000-$k.in"
done
double_q=$(quote "$double_dir")
shards6="sh -c '$solve --shard 1/2 --out {out} $double_q & $solve --shard 2/2 --out {out} $double_q; wait'"
table6=$scratch/skewed-6.md
if "$command_bench" --markdown --repeat "$repeat" --timeout 600 \
  --run "mpi -np 2=mpirun -np 2 $solve --mpi --out {out} $double_q" \
  --run "single=$solve --out {out} $double_q" \
  --run "2 shards=$shards6" >"$table6"; then
  cat "$table6"
  echo
  echo "mpi -np 2: $(awk -v a="$(bench_column "$table6" mpi-np2 3)" -v b="$(bench_column "$table6" single 3)" \
    'BEGIN { printf "%.2f", a / b }')x the single process's time."
else
  cat "$table6"
  fail_section
fi
echo

echo "### The mode's own cost: mpirun -np 1 against a plain process"
echo
small=$scratch/small2000
"$gamebatch" gen willow --count 2000 --cases-per-file 3 --seed 2 --out "$small" >/dev/null
echo "2,000 small files (3 cases of 2..50 cities each), --jobs 2, --no-cache. With one rank every"
echo "case still goes through the work pool; the difference includes MPI's start."
echo
solve2="$gb solve --problem willow --jobs 2 --no-cache --quiet"
"$command_bench" --markdown --repeat "$repeat" --timeout 600 \
  --run "mpi -np 1=mpirun -np 1 $solve2 --mpi --out {out} $(quote "$small")" \
  --run "plain=$solve2 --out {out} $(quote "$small")" || fail_section
echo
bench_finish
