#!/usr/bin/env bash
# One entry point for setting up, building, demoing and testing gamebatch on Debian.
#   tools/dev.sh demo   install what the build of gamebatch needs, build gamebatch and its sandbox
#                       helper only, solve the bundled demo sets of every game (configs/demo/GAME),
#                       print the answers and what to try next
#   tools/dev.sh test   install what is missing (and headless Chromium, which the --html page tests
#                       load the pages in), build (warnings are errors), run the whole suite
#   tools/dev.sh build  install what is missing (what test installs: the tests' packages, Slurm,
#                       munge and Open MPI too) and build everything, without running the tests
#   tools/dev.sh sanitize  build with AddressSanitizer and UndefinedBehaviorSanitizer (build-asan)
#                       and run the whole suite (tools/sanitize.sh)
#   tools/dev.sh fuzz SECONDS  build the libFuzzer targets with clang (build-fuzz) and run each
#                       for SECONDS (tools/fuzz.sh)
# Environment: BUILD_DIR (default: build), JOBS (default: number of cores).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}

# Debian packages the build of gamebatch and its sandbox helper needs (found by CMake's
# find_package): all that `demo` installs.
BUILD_PACKAGES=(g++ cmake make pkg-config libtbb-dev libboost-serialization-dev libspdlog-dev
                libcli11-dev libxxhash-dev nlohmann-json3-dev libtomlplusplus-dev libsqlite3-dev
                libyaml-cpp-dev libpugixml-dev libclang-dev libglpk-dev)
# What the tests and benchmarks add: GoogleTest and RapidCheck, the MPI mode with Open MPI's
# mpirun, a local Slurm with munge (tools/cluster/local-slurm.sh), gcc and python3 for the
# problem-package tests' C and Python solutions (Java ones run where a JDK is installed), LMDB for
# the cache-store benchmark, and cpack's Depends (dpkg-shlibdeps, file) and man -l for
# tests/install.
TEST_PACKAGES=(gcc python3 libgtest-dev librapidcheck-dev liblmdb-dev
               libboost-mpi-dev libopenmpi-dev openmpi-bin
               slurmctld slurmd slurm-client munge
               dpkg-dev file man-db universal-ctags)
PACKAGES=("${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}")

install_missing_packages() {
  local missing=()
  for package in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing missing packages: ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends \
    "${missing[@]}"
}

build() {
  install_missing_packages
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "$BUILD_DIR" -j "$JOBS"
}

# The demo's build: gamebatch, gamebatch-box and the man page (build/man/gamebatch.1) only. A build directory made here leaves out the
# tests, the benchmarks and the MPI mode (their packages are not installed); one that exists is
# built as it is configured (`tools/dev.sh test` turns them on).
build_demo() {
  PACKAGES=("${BUILD_PACKAGES[@]}")
  install_missing_packages
  if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
    cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DGAMEBATCH_BUILD_TESTS=OFF \
      -DGAMEBATCH_BUILD_BENCHMARKS=OFF -DGAMEBATCH_MPI=OFF
  else
    cmake -S . -B "$BUILD_DIR" >/dev/null
  fi
  cmake --build "$BUILD_DIR" -j "$JOBS" --target gamebatch gamebatch-box gamebatch_man_page
}

case "${1:-}" in
  build)
    build
    ;;
  demo)
    build_demo
    # configs/demo.toml: one job per game over configs/demo/GAME, answers under
    # build/demo-answers/GAME, answer cache build/demo.cache: a second demo answers every case
    # from it (the config caches even the cheapest cases).
    rm -rf build/demo-answers
    echo "== gamebatch run configs/demo.toml"
    "$BUILD_DIR/tools/gamebatch" run configs/demo.toml
    for file in $(find build/demo-answers -name '*.ans' | sort); do
      echo "== $file"
      cat "$file"
    done
    gamebatch="$BUILD_DIR/tools/gamebatch"
    package=tests/data/packages/kattis-doublemove
    cat <<EOF

What next, from $(pwd) (README.md has a setter's day; docs/ the manual):
  $gamebatch run configs/demo.toml                # again: every case from the cache
  $gamebatch cache stats build/demo.cache
  $gamebatch validate -p willow configs/demo/willow
  $gamebatch gen boigame --count 3 --seed 1 --out /tmp/boigame-set
  $gamebatch solve -p boigame /tmp/boigame-set --html /tmp/boigame.html
  cp -rT $package /tmp/kattis-doublemove              # a problem package with subtasks
  $gamebatch build /tmp/kattis-doublemove
  $gamebatch check -p doublemove /tmp/kattis-doublemove
  $gamebatch stress -p doublemove -s /tmp/kattis-doublemove/submissions/partial/k0_table.cpp --out /tmp/found
  $gamebatch --help
EOF
    ;;
  test)
    # Only the tests need a browser (tests/html_report_cli_test.cpp, skipped without one): the
    # build does not. The options undo what a demo's build directory left out.
    PACKAGES+=(chromium)
    build -DGAMEBATCH_WERROR=ON -DGAMEBATCH_BUILD_TESTS=ON -DGAMEBATCH_BUILD_BENCHMARKS=ON \
      -DGAMEBATCH_MPI=AUTO
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"
    ;;
  sanitize)
    install_missing_packages
    shift
    exec tools/sanitize.sh "$@"
    ;;
  fuzz)
    PACKAGES+=(clang libclang-rt-dev)
    install_missing_packages
    shift
    exec tools/fuzz.sh "$@"
    ;;
  *)
    echo "usage: tools/dev.sh demo|test|build|sanitize|fuzz SECONDS" >&2
    exit 2
    ;;
esac
