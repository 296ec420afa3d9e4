#!/usr/bin/env bash
# Builds gamebatch with sanitizers and runs its tests (tools/dev.sh sanitize runs this).
#   tools/sanitize.sh          AddressSanitizer (with LeakSanitizer) and UndefinedBehaviorSanitizer
#                              in build-asan; runs the whole ctest suite
#   tools/sanitize.sh thread   ThreadSanitizer in build-tsan; runs the pipeline, cache and MPI tests
# Any sanitizer report fails the run, also one from a program that a test started and whose exit
# status it did not look at (an mpirun rank, gamebatch in a run expected to exit 1): ASan, LSan
# and TSan write their reports to files under BUILD_DIR/sanitizer-reports, and any file there is a
# failure; UBSan (which GCC's runtime writes only to stderr beside ASan) aborts the program, and a
# report in any test's output (Testing/Temporary/LastTest.log) is a failure.
# Suppressions, each saying why it is not ours: tools/sanitizers/*.supp.
# Environment: SANITIZE_BUILD_DIR (default build-asan, or build-tsan for thread),
# JOBS (default: number of cores), CTEST_ARGS (more ctest arguments, e.g. "-R Cache").
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
MODE=${1:-address}
JOBS=${JOBS:-$(nproc)}
SUPP=$PWD/tools/sanitizers

case "$MODE" in
  address)
    BUILD_DIR=${SANITIZE_BUILD_DIR:-build-asan}
    SANITIZERS="address;undefined"
    TESTS=()  # all of them
    ;;
  thread)
    BUILD_DIR=${SANITIZE_BUILD_DIR:-build-tsan}
    SANITIZERS="thread"
    # The flow graph, the answer cache (threads reading while another commits, checkpoints, two
    # runs at once), the process runner and judge (runs at once), and the MPI mode.
    TESTS=(-R 'Pipeline|Cache|LimitedProcess|Judge|Check|Stress|Scale|Mpi')
    ;;
  *)
    echo "usage: tools/sanitize.sh [address|thread]" >&2
    exit 2
    ;;
esac
REPORTS=$PWD/$BUILD_DIR/sanitizer-reports

# -O1 -g1: quicker to build than -O2 and quick enough to run, with line numbers in reports; tests/
# and tools/ (template-heavy, not where the time goes) build at -O0 in sanitizer builds, which
# takes two minutes off the build and nothing from the tests. No benchmark drivers: no test runs
# them.
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DGAMEBATCH_SANITIZE="$SANITIZERS" \
  -DGAMEBATCH_WERROR=ON -DGAMEBATCH_BUILD_BENCHMARKS=OFF
rm -rf "$REPORTS"
mkdir -p "$REPORTS"

# Set before the build too: it runs test programs (gtest_discover_tests) and gamebatch (man page).
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:check_initialization_order=1:strict_init_order=1:print_suppressions=0:log_path=$REPORTS/asan"
export LSAN_OPTIONS="suppressions=$SUPP/lsan.supp"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:suppressions=$SUPP/ubsan.supp"
# ThreadSanitizer: every race of a run is reported (the program still exits 66 at its end), with
# the earlier access's stack kept (history_size) so that tsan.supp can match it.
export TSAN_OPTIONS="halt_on_error=0:history_size=7:second_deadlock_stack=1:print_suppressions=0:suppressions=$SUPP/tsan.supp:log_path=$REPORTS/tsan"
# mpirun's ranks (also those of the Slurm test's job) unwind malloc stacks the slow way: Open MPI
# has no frame pointers, and only a whole stack shows that a leak is Open MPI's own (lsan.supp).
if [[ $MODE == address ]]; then
  export OMPI_MCA_mca_base_env_list="ASAN_OPTIONS=$ASAN_OPTIONS:fast_unwind_on_malloc=0"
fi
cmake --build "$BUILD_DIR" -j "$JOBS"

status=0
# shellcheck disable=SC2086  # CTEST_ARGS is split into arguments
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" "${TESTS[@]}" ${CTEST_ARGS:-} ||
  status=$?
if grep -E -m 20 'runtime error:|Sanitizer:' "$BUILD_DIR/Testing/Temporary/LastTest.log"; then
  echo "sanitize: sanitizer reports in the tests' output (above)" >&2
  status=1
fi
if compgen -G "$REPORTS/*" >/dev/null; then
  for report in "$REPORTS"/*; do
    echo "== $report"
    cat "$report"
  done
  echo "sanitize: $(find "$REPORTS" -type f | wc -l) sanitizer report(s) (above)" >&2
  status=1
fi
exit "$status"
