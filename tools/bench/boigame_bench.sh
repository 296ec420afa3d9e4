#!/usr/bin/env bash
# boigame performance benchmark: gamebatch against a straightforward DP of the analysis, measured
# in one run.
#
#   tools/bench/boigame_bench.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch and tools/bench/{command_bench,
# make_boigame_case,boigame_baseline}. A relative path is taken from the repo root. The inputs
# are generated (the same bytes on every machine). Prints Markdown tables on stdout (progress on
# stderr):
#   1. Ten 300 x 300 boards in one file (open, sparse, dense, snake, maze; A and B in opposite
#      corners, then at random): gamebatch --jobs 2 vs boigame_baseline, both answer files
#      checked equal to the baseline's answers. Targets: speed-up >= 3x, gamebatch peak <= 24 MB.
#   2. Single boards of side 2000, every shape, corners: gamebatch --jobs 2 vs boigame_baseline.
# --quick measures each command once instead of 5 (section 1) / 2 (section 2) times.
# Exits 1 when a run fails, an answer differs or a target is missed; all sections still run.
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
      echo "boigame_bench.sh: unknown option '$arg'" >&2
      usage >&2
      exit 2
      ;;
    *) positional+=("$arg") ;;
  esac
done
if ((${#positional[@]} > 1)); then
  usage >&2
  exit 2
fi

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo_root"
build=$(realpath -m "${positional[0]:-build}")

# Paths go into `sh -c` command lines: quote them for the shell.
quote() { printf '%q' "$1"; }

die() {
  echo "boigame_bench.sh: error: $*" >&2
  exit 2
}

gamebatch=$build/tools/gamebatch
command_bench=$build/tools/bench/command_bench
make_case=$build/tools/bench/make_boigame_case
baseline=$build/tools/bench/boigame_baseline
for exe in "$gamebatch" "$command_bench" "$make_case" "$baseline"; do
  [[ -x $exe ]] || die "'$exe' is missing. Build it first:
    cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DGAMEBATCH_BUILD_BENCHMARKS=ON
    cmake --build $build -j2"
done

# An answer cache would turn repeats into look-ups: bypass it.
solve="$(quote "$gamebatch") solve --problem boigame --jobs 2"
if "$gamebatch" solve --help 2>/dev/null | grep -q -- '--no-cache'; then
  solve+=" --no-cache"
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/boigame_bench.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

if ((quick)); then
  file_repeat=1
  large_repeat=1
else
  file_repeat=5
  large_repeat=2
fi
failed=0
# Keeps the Markdown readable when a section has no (or a failing) table.
fail_section() {
  failed=1
  echo
  echo "**FAILED**: see the messages on stderr."
}

# Writes the input and the baseline's answers to it (the reference both programs are checked
# against in every measured run).
make_input() {
  local input=$1
  shift
  "$make_case" "$@" --output "$input" || die "make_boigame_case $* failed"
  "$baseline" <"$input" >"${input%.in}.expected" || die "boigame_baseline failed on $input"
}

echo "## boigame benchmark"
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')."
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); build: \`$build\`; repeats: $file_repeat (300 file), $large_repeat (n = 2000)."
echo "Speed-up = baseline median wall time / gamebatch median wall time; MB = 10^6 bytes."
echo

echo "### Ten 300 x 300 boards in one file: gamebatch --jobs 2 vs boigame_baseline"
echo
echo "\`make_boigame_case --shape mixed --placement mixed -n 300 -T 10 --seed 1\`: open, sparse,"
echo "dense, snake, maze with A and B in opposite corners, then the same five at random squares."
echo "Targets: speed-up >= 3x, gamebatch peak <= 24 MB. Both answer files checked against the"
echo "baseline's answers, produced beforehand."
echo
file_in=$scratch/mixed-300.in
make_input "$file_in" --shape mixed --placement mixed -n 300 -T 10 --seed 1
"$command_bench" --markdown --repeat "$file_repeat" --warmup 1 --timeout 600 \
  --min-ratio 3 --max-peak-mb 24 \
  --run "gamebatch=$solve --out {out} $(quote "$file_in")" \
  --run "baseline=$(quote "$baseline") < $(quote "$file_in") > {out}/mixed-300.ans" \
  --check "gamebatch={out}/mixed-300.ans:${file_in%.in}.expected" \
  --check "baseline={out}/mixed-300.ans:${file_in%.in}.expected" || fail_section
echo

echo "### Single boards of side 2000, A and B in opposite corners: gamebatch --jobs 2 vs boigame_baseline"
echo
echo "One board per file, made by \`make_boigame_case --shape S --placement corners -n 2000 --seed 1\`."
echo
for shape in open sparse dense snake maze; do
  input=$scratch/$shape-2000.in
  make_input "$input" --shape "$shape" --placement corners -n 2000 --seed 1
  echo "#### $shape, n = 2000 (answer $(cat "${input%.in}.expected"))"
  echo
  "$command_bench" --markdown --repeat "$large_repeat" --timeout 600 \
    --run "gamebatch=$solve --out {out} $(quote "$input")" \
    --run "baseline=$(quote "$baseline") < $(quote "$input") > {out}/$shape-2000.ans" \
    --check "gamebatch={out}/$shape-2000.ans:${input%.in}.expected" \
    --check "baseline={out}/$shape-2000.ans:${input%.in}.expected" || fail_section
  echo
done

if ((failed)); then
  echo "boigame_bench.sh: FAILED (see the messages above)" >&2
  exit 1
fi
echo "boigame_bench.sh: all runs succeeded and all targets were met" >&2
