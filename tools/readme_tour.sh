#!/usr/bin/env bash
# Runs the README's "A setter's day" as a script: its sh blocks in order, under `set -euo
# pipefail`, in a scratch directory of their own with its own XDG_CACHE_HOME (the tour's first
# block makes both), so a step that fails, or a step that must fail and is not written to go on,
# stops it. The MPI step runs only where the binary has --mpi and mpirun is installed.
#   tools/readme_tour.sh [BUILD_DIR]     (default: build; its tools/gamebatch is the one run)
# Exit status: 0 every step ran, 1 a step failed (the script and its output name which), 2 usage.
# Nothing outside the scratch directory is written; the scratch directory is removed at the end.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
build_dir=$(realpath -m "${1:-build}")
[ -x "$build_dir/tools/gamebatch" ] || {
  echo "readme_tour: no $build_dir/tools/gamebatch (build first: tools/dev.sh build)" >&2
  exit 2
}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The blocks between "## A setter's day" and the next "## " heading, the first with the repository
# root as its directory and the build's binary first on PATH.
tour=$scratch/tour.sh
has_mpi=0
if "$build_dir/tools/gamebatch" solve --help 2>/dev/null | grep -q -- '--mpi' &&
  command -v mpirun >/dev/null; then
  has_mpi=1
fi
awk -v build="$build_dir" -v has_mpi="$has_mpi" '
  /^## A setter.s day/ { inside = 1; next }
  inside && /^## / { exit }
  !inside { next }
  /^ *```sh$/ { in_block = 1; next }
  /^ *```$/ { in_block = 0; next }
  in_block {
    sub(/^    |^   /, "")
    sub(/\$PWD\/build\/tools:\$PATH/, build "/tools:$PATH")
    if ($0 ~ /^mpirun / && has_mpi == 0) { print "echo \"readme_tour: no MPI here: skipped: " $0 "\""; next }
    if ($0 ~ /^mpirun /) sub(/^mpirun /, "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun ")
    print
  }
' README.md >"$tour.steps"
[ -s "$tour.steps" ] || {
  echo "readme_tour: README.md has no sh blocks under \"A setter's day\"" >&2
  exit 2
}
{
  echo 'set -euo pipefail'
  echo 'set -x'
  cat "$tour.steps"
  echo 'echo "readme_tour: every step ran"'
} >"$tour"
# The tour's own `mktemp -d` lands in the scratch directory, which goes with it.
if TMPDIR=$scratch bash "$tour"; then
  exit 0
fi
echo "readme_tour: a step failed (the last command shown above)" >&2
exit 1
