#!/usr/bin/env bash
# willow performance benchmark: gamebatch against the contest editorial, measured in one run.
#
#   tools/bench/willow_bench.sh [--quick] [BUILD_DIR] [SHARED_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch and tools/bench/{command_bench,
# make_willow_case}; SHARED_DIR defaults to ../shared. Relative paths are taken from the repo
# root. Prints Markdown tables on stdout (progress on stderr):
#   1. D-large-practice.in: gamebatch --jobs 2 vs the editorial (g++ -O2 -mcmodel=medium), both
#      outputs checked against D-large-practice.correct. Targets: speed-up >= 10x, peak <= 300 MB.
#   2. Single generated cases, N = 10,000 and 20,000, shapes random/path/star: gamebatch --jobs 2
#      time and peak memory (no baseline: the editorial would need ~7-29 GB).
# --quick measures each command once instead of 3 (large file) / 2 (generated cases) times.
# Exits 1 when a run fails, an answer is wrong or a target is missed; all sections still run.
set -euo pipefail

usage() {
  # The header comment, up to the first line that is not a comment.
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
}

quick=0
positional=()
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    -h | --help)
      usage
      exit 0
      ;;
    -*)
      echo "willow_bench.sh: unknown option '$arg'" >&2
      usage >&2
      exit 2
      ;;
    *) positional+=("$arg") ;;
  esac
done
if ((${#positional[@]} > 2)); then
  usage >&2
  exit 2
fi

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo_root"
build=$(realpath -m "${positional[0]:-build}")
shared=$(realpath -m "${positional[1]:-../shared}")

# Paths go into `sh -c` command lines: quote them for the shell.
quote() { printf '%q' "$1"; }

die() {
  echo "willow_bench.sh: error: $*" >&2
  exit 2
}

gamebatch=$build/tools/gamebatch
command_bench=$build/tools/bench/command_bench
make_case=$build/tools/bench/make_willow_case
for exe in "$gamebatch" "$command_bench" "$make_case"; do
  [[ -x $exe ]] || die "'$exe' is missing. Build it first:
    cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DGAMEBATCH_BUILD_BENCHMARKS=ON
    cmake --build $build -j2"
done

editorial_src=$shared/baselines/willow_editorial.cpp
large_in=$shared/data/willow/D-large-practice.in
large_correct=$shared/data/willow/D-large-practice.correct
for file in "$editorial_src" "$large_in" "$large_correct"; do
  [[ -f $file ]] || die "'$file' not found (is SHARED_DIR '$shared' right?)"
done

# The baseline is built exactly as the spec states, and only when missing or out of date.
editorial=$build/bench/willow_editorial
if [[ ! -x $editorial || $editorial_src -nt $editorial ]]; then
  mkdir -p "$build/bench"
  echo "willow_bench.sh: compiling the baseline $editorial" >&2
  "${CXX_BASELINE:-g++}" -O2 -mcmodel=medium -o "$editorial" "$editorial_src" ||
    die "cannot compile the baseline $editorial_src"
fi

# An answer cache that outlives a run would turn repeats into look-ups: bypass it if gamebatch
# has one.
solve="$(quote "$gamebatch") solve --problem willow --jobs 2"
if "$gamebatch" solve --help 2>/dev/null | grep -q -- '--no-cache'; then
  solve+=" --no-cache"
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/willow_bench.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

if ((quick)); then
  large_repeat=1
  size_repeat=1
else
  large_repeat=3
  size_repeat=2
fi
failed=0
# Keeps the Markdown readable when a section has no (or a failing) table.
fail_section() {
  failed=1
  echo
  echo "**FAILED**: see the messages on stderr."
}

echo "## willow benchmark"
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')."
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`; repeats: $large_repeat (large file), $size_repeat (generated cases)."
echo "Speed-up = baseline median wall time / gamebatch median wall time; MB = 10^6 bytes."
echo

echo "### D-large-practice.in (50 cases, N <= 4000): gamebatch --jobs 2 vs the editorial"
echo
echo "Targets: speed-up >= 10x, gamebatch peak <= 300 MB. Both outputs checked against \`D-large-practice.correct\`."
echo
"$command_bench" --markdown --repeat "$large_repeat" --timeout 600 \
  --min-ratio 10 --max-peak-mb 300 \
  --run "gamebatch=$solve --out {out} $(quote "$large_in")" \
  --run "editorial=$(quote "$editorial") < $(quote "$large_in") > {out}/D-large-practice.ans" \
  --check "gamebatch={out}/D-large-practice.ans:$large_correct" \
  --check "editorial={out}/D-large-practice.ans:$large_correct" || fail_section
echo

echo "### Single generated cases: gamebatch --jobs 2"
echo
echo "One case per file, coins 0..10000, made by \`make_willow_case --shape S --cities N --seed 1\`."
echo
runs=()
for n in 10000 20000; do
  for shape in random path star; do
    input=$scratch/$shape-$n.in
    "$make_case" --shape "$shape" --cities "$n" --seed 1 --output "$input" ||
      die "make_willow_case failed for $shape, N = $n"
    runs+=(--run "$shape, N $n=$solve --out {out} $(quote "$input")")
  done
done
"$command_bench" --markdown --no-baseline --repeat "$size_repeat" --timeout 600 "${runs[@]}" ||
  fail_section
echo

if ((failed)); then
  echo "willow_bench.sh: FAILED (see the messages above)" >&2
  exit 1
fi
echo "willow_bench.sh: all runs succeeded and all targets were met" >&2
