#!/usr/bin/env bash
# One entry point for setting up, building, demoing and testing gamebatch on Debian.
#   tools/dev.sh demo   install what is missing, build, solve the bundled demo sets of every game
#                       (configs/demo/GAME), print the answers
#   tools/dev.sh test   install what is missing (and headless Chromium, which the --html page tests
#                       load the pages in), build (warnings are errors), run the whole suite
#   tools/dev.sh build  install what is missing and build only
#   tools/dev.sh sanitize  build with AddressSanitizer and UndefinedBehaviorSanitizer (build-asan)
#                       and run the whole suite (tools/sanitize.sh)
#   tools/dev.sh fuzz SECONDS  build the libFuzzer targets with clang (build-fuzz) and run each
#                       for SECONDS (tools/fuzz.sh)
# Environment: BUILD_DIR (default: build), JOBS (default: number of cores).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}

# Debian packages the build needs (found by CMake's find_package), and what the tests run:
# Open MPI's mpirun, a local Slurm with munge (tools/cluster/local-slurm.sh), and gcc and python3
# for the problem-package tests' C and Python solutions (Java ones run where a JDK is installed).
PACKAGES=(g++ gcc python3 cmake make pkg-config libtbb-dev libboost-serialization-dev libspdlog-dev
          libcli11-dev libxxhash-dev nlohmann-json3-dev libgtest-dev librapidcheck-dev
          libtomlplusplus-dev libsqlite3-dev liblmdb-dev libyaml-cpp-dev libpugixml-dev
          libboost-mpi-dev libopenmpi-dev openmpi-bin
          slurmctld slurmd slurm-client munge
          # cpack's Depends (dpkg-shlibdeps, file) and man -l, for tests/install
          dpkg-dev file man-db)

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

case "${1:-}" in
  build)
    build
    ;;
  demo)
    build
    # configs/demo.toml: one job per game over configs/demo/GAME, answers under
    # build/demo-answers/GAME, answer cache build/demo.cache (a second demo answers from it).
    rm -rf build/demo-answers
    echo "== gamebatch run configs/demo.toml"
    "$BUILD_DIR/tools/gamebatch" run configs/demo.toml
    for file in $(find build/demo-answers -name '*.ans' | sort); do
      echo "== $file"
      cat "$file"
    done
    ;;
  test)
    # Only the tests need a browser (tests/html_report_cli_test.cpp, skipped without one): the
    # build does not.
    PACKAGES+=(chromium)
    build -DGAMEBATCH_WERROR=ON
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
