# shellcheck shell=bash disable=SC2034 # the variables set here are read by the sourcing scripts
# Shared parts of the benchmark scripts in tools/bench/; sourced by them, not run. A script keeps
# its own header comment (bench_usage prints it) and everything that is specific to it:
#
#   source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
#   bench_init 1 "$@"           # sets quick, positional and build; cd to the repo root
#   bench_require_built "$build/tools/gamebatch" ...
#   ...
#   "$command_bench" ... || fail_section
#   bench_finish
#
# Exit codes are the scripts' own contract: 0 all ok, 1 a run failed or a target was missed,
# 2 a usage or setup error.

# The script's file name, the prefix of every message.
bench_name=$(basename "$0")
# Set by fail_section (or by a script's own checks); bench_finish turns it into exit status 1.
failed=0

# Prints the script's header comment, up to the first line that is not a comment.
bench_usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
}

# Parses [--quick] [-h|--help] and at most MAX_POSITIONAL other arguments: sets quick (0 or 1)
# and the array positional. Exits 0 after --help, 2 on an unknown option or too many arguments.
bench_parse_args() {
  local max_positional=$1
  shift
  quick=0
  positional=()
  local arg
  for arg in "$@"; do
    case "$arg" in
      --quick) quick=1 ;;
      -h | --help)
        bench_usage
        exit 0
        ;;
      -*)
        echo "$bench_name: unknown option '$arg'" >&2
        bench_usage >&2
        exit 2
        ;;
      *) positional+=("$arg") ;;
    esac
  done
  if ((${#positional[@]} > max_positional)); then
    bench_usage >&2
    exit 2
  fi
}

# Sets repo_root and makes it the working directory: relative arguments are taken from there.
bench_cd_repo_root() {
  repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  cd "$repo_root" || exit 2
}

# The start of every script: bench_parse_args MAX_POSITIONAL ARGS..., then the repo root becomes
# the working directory (relative paths are taken from there) and build is set to the first
# positional argument (default: build) as an absolute path.
bench_init() {
  bench_parse_args "$@"
  bench_cd_repo_root
  build=$(realpath -m "${positional[0]:-build}")
}

# The median of the numbers given (the upper one of the middle two for an even count).
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Paths go into `sh -c` command lines: quote them for the shell.
quote() { printf '%q' "$1"; }

# A setup error: the message on stderr, exit status 2.
die() {
  echo "$bench_name: error: $*" >&2
  exit 2
}

# Dies with the commands that build them unless every EXE (a path under $build) is executable.
bench_require_built() {
  local exe
  for exe in "$@"; do
    [[ -x $exe ]] || die "'$exe' is missing. Build it first:
    cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DGAMEBATCH_BUILD_BENCHMARKS=ON
    cmake --build $build -j2"
  done
}

# Compiles the baseline SOURCE into EXE with the compiler options that follow (as the baseline's
# source or the spec states them), only when EXE is missing or older than SOURCE. $CXX_BASELINE
# picks the compiler (default g++).
bench_compile_baseline() {
  local source=$1 exe=$2
  shift 2
  if [[ ! -x $exe || $source -nt $exe ]]; then
    mkdir -p "$(dirname "$exe")"
    echo "$bench_name: compiling the baseline $exe" >&2
    "${CXX_BASELINE:-g++}" "$@" -o "$exe" "$source" || die "cannot compile the baseline $source"
  fi
}

# Prints the start of a `gamebatch solve` command line for PROBLEM with --jobs 2, with --no-cache
# when this gamebatch has an answer cache: a cache would turn repeats into look-ups.
bench_solve_command() {
  local gamebatch=$1 problem=$2
  local solve help
  solve="$(quote "$gamebatch") solve --problem $problem --jobs 2"
  # The help is read whole first: `--help | grep -q` under pipefail fails whenever grep quits
  # before gamebatch has written it all (SIGPIPE), which silently dropped --no-cache.
  help=$("$gamebatch" solve --help 2>/dev/null || true)
  if grep -q -- '--no-cache' <<<"$help"; then
    solve+=" --no-cache"
  fi
  echo "$solve"
}

# The cell in column COLUMN (3: median s, 4: min s, 5: cpu s, 6: peak MB, 7: speed-up) of the row
# named NAME (spaces ignored) of the command_bench Markdown table in FILE, without spaces or a
# ratio's x: bench_column FILE NAME COLUMN.
bench_column() {
  awk -F'|' -v name="${2// /}" -v column="$3" '
    { gsub(/ /, "", $2) }
    $2 == name { value = $(column + 1); gsub(/ /, "", value); sub(/x$/, "", value); print value }' "$1"
}

# Makes a scratch directory under PARENT (default: $TMPDIR or /tmp), removed on exit, in scratch.
# shellcheck disable=SC2120 # PARENT is optional
bench_make_scratch() {
  scratch=$(mktemp -d "${1:-${TMPDIR:-/tmp}}/${bench_name%.sh}.XXXXXX")
  trap 'rm -rf "$scratch"' EXIT
}

# Marks the run failed and keeps the Markdown readable when a section has no (or a failing) table.
fail_section() {
  failed=1
  echo
  echo "**FAILED**: see the messages on stderr."
}

# The Markdown line that names the machine the numbers were taken on.
bench_machine_line() {
  echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')."
}

# The last line on stderr, and exit status 1 if anything failed. SUCCESS (default: "all runs
# succeeded and all targets were met") is what the line says otherwise.
# shellcheck disable=SC2120 # SUCCESS is optional
bench_finish() {
  if ((failed)); then
    echo "$bench_name: FAILED (see the messages above)" >&2
    exit 1
  fi
  echo "$bench_name: ${1:-all runs succeeded and all targets were met}" >&2
}

# Writes the answer cache benchmarks' mixed set under DIR (willow D-large-practice.in, 4 x 5 willow
# cases with N = 4000, ten boigame 300 x 300 boards, 2,000 small wallgame files of two boards up
# to 12 x 12) with the make_*_case programs of BENCH_DIR; LARGE_IN is the practice file.
bench_make_mixed_set() {
  local dir=$1 bench_dir=$2 large_in=$3 seed=1 shape k
  mkdir -p "$dir/willow" "$dir/boigame" "$dir/wallgame"
  cp "$large_in" "$dir/willow/D-large-practice.in"
  for shape in random path star caterpillar; do
    "$bench_dir/make_willow_case" --shape "$shape" --cities 4000 --cases 5 --seed "$seed" \
      --output "$dir/willow/n4000-$shape.in"
    seed=$((seed + 1))
  done
  "$bench_dir/make_boigame_case" --shape mixed --placement mixed --size 300 --tests 10 --seed 1 \
    --output "$dir/boigame/boards-300.in"
  for k in $(seq -w 0 1999); do
    "$bench_dir/make_wallgame_case" --height 2..12 --width 1..12 --cases 2 --seed "1$k" \
      --output "$dir/wallgame/$k.in"
  done
}
