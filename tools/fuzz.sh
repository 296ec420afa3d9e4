#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang and runs each for SECONDS (tools/dev.sh fuzz
# runs this after installing clang and libclang-rt-dev).
#   tools/fuzz.sh SECONDS [TARGET...]   all targets, or the ones named
# Prints one line per target, "fuzz NAME: RUNS runs, FINDINGS findings", then the path of each
# finding (a crash-, leak-, timeout- or oom- input libFuzzer kept under BUILD/findings/NAME/).
# libFuzzer stops a target at its first finding. Exit status: 1 on any finding (or a target that
# failed without one), 2 for a usage error, else 0.
# Each target keeps its corpus in BUILD/corpus/NAME across runs; the seeds (tests/data, configs,
# tests/fuzz/seeds, and stores and bundles this build makes) are assembled in BUILD/seeds/NAME.
# Environment: FUZZ_BUILD_DIR (default build-fuzz), JOBS (default: number of cores; also how many
# targets run at once).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${FUZZ_BUILD_DIR:-build-fuzz}
JOBS=${JOBS:-$(nproc)}

# Each target, with the largest input libFuzzer makes for it: texts stay small enough to parse in
# microseconds; a store is at least four 4 KiB pages.
declare -A MAX_LEN=(
  [willow_parse]=8192 [doublemove_parse]=8192 [wallgame_parse]=8192 [boigame_parse]=8192
  [cache_store]=65536 [cache_record]=16384 [bundle_import]=16384 [run_config]=4096
  [strict_format]=8192 [written_validator_willow]=8192 [written_validator_doublemove]=8192
  [written_validator_wallgame]=8192 [written_validator_boigame]=8192
  [package_plan]=4096 [problem_yaml]=4096 [submissions_yaml]=4096 [group_yaml]=4096
  [task_yaml]=4096 [problem_xml]=4096
)
TARGETS=(willow_parse doublemove_parse wallgame_parse boigame_parse cache_store cache_record
         bundle_import run_config strict_format written_validator_willow
         written_validator_doublemove written_validator_wallgame written_validator_boigame
         package_plan problem_yaml submissions_yaml group_yaml task_yaml problem_xml)
# Per input: seconds before a timeout finding, and the memory that makes an oom finding (one
# allocation above MALLOC_LIMIT_MB is one too).
TIMEOUT=10
RSS_LIMIT_MB=2048
MALLOC_LIMIT_MB=1024

usage() {
  echo "usage: tools/fuzz.sh SECONDS [TARGET...]  (targets: ${TARGETS[*]})" >&2
  exit 2
}

[[ $# -ge 1 && $1 =~ ^[1-9][0-9]*$ ]] || usage
SECONDS_EACH=$1
shift
SELECTED=("$@")
[ ${#SELECTED[@]} -gt 0 ] || SELECTED=("${TARGETS[@]}")
for name in "${SELECTED[@]}"; do
  [ -n "${MAX_LEN[$name]:-}" ] || { echo "tools/fuzz.sh: no target '$name'" >&2; usage; }
done

# Every library is instrumented for coverage and checked by AddressSanitizer and UBSan (a UB report
# aborts, so libFuzzer keeps the input). -O1 -g: asserts on, line numbers in reports.
SANITIZE="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
SANITIZE+=" -fno-omit-frame-pointer"
mkdir -p "$BUILD"
BUILD_LOG=$BUILD/fuzz-build.log
# Only what the fuzz targets need: one make goal for all of them builds in parallel best.
build_targets=(gamebatch_fuzz_targets)
if [ ${#SELECTED[@]} -lt ${#TARGETS[@]} ]; then
  build_targets=(fuzz_seed_corpus)
  for name in "${SELECTED[@]}"; do
    build_targets+=("${name}_fuzz")
  done
fi
if ! {
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_CXX_FLAGS="$SANITIZE" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DGAMEBATCH_FUZZ=ON -DGAMEBATCH_MPI=OFF -DGAMEBATCH_BUILD_BENCHMARKS=OFF &&
    cmake --build "$BUILD" -j "$JOBS" --target "${build_targets[@]}"
} >"$BUILD_LOG" 2>&1; then
  tail -n 40 "$BUILD_LOG" >&2
  echo "tools/fuzz.sh: the build failed (log: $BUILD_LOG)" >&2
  exit 1
fi

# Seeds, made afresh: the games' inputs (files up to 64 KiB), the configs, earlier findings, and
# what fuzz_seed_corpus writes (stores, bundles, encoded tables).
SEEDS=$BUILD/seeds
rm -rf "$SEEDS"
mkdir -p "$SEEDS"
"$BUILD/tests/fuzz/fuzz_seed_corpus" "$SEEDS" tests/data
copy_seeds() {  # copy_seeds TARGET FILE...: each under a name that says where it came from
  local target=$1 file
  shift
  mkdir -p "$SEEDS/$target"
  for file in "$@"; do
    cp "$file" "$SEEDS/$target/${file//\//_}"
  done
}
for game in willow doublemove wallgame boigame; do
  mapfile -t inputs < <(find "tests/data/$game" "configs/demo/$game" -name '*.in' -size -65k | sort)
  copy_seeds "${game}_parse" "${inputs[@]}"
  # The strict targets take a first byte of their own (the game, or the arguments) before it.
  for target in strict_format "written_validator_$game"; do
    mkdir -p "$SEEDS/$target"
    for file in "${inputs[@]}"; do
      case $game in willow) byte='\x00' ;; doublemove) byte='\x01' ;; wallgame) byte='\x02' ;; *) byte='\x03' ;; esac
      { printf "$byte"; cat "$file"; } >"$SEEDS/$target/${file//\//_}"
    done
  done
done
mapfile -t configs < <(find configs tests/fuzz/seeds/run_config -maxdepth 1 -name '*.toml' | sort)
copy_seeds run_config "${configs[@]}"
# The package readers: their seeds (tests/fuzz/seeds/NAME), and the bundled packages' files.
for name in package_plan problem_yaml submissions_yaml group_yaml task_yaml problem_xml; do
  mapfile -t seeds < <(find "tests/fuzz/seeds/$name" -type f | sort)
  copy_seeds "$name" "${seeds[@]}"
done
mapfile -t plans < <(find tests/data/packages -name gamebatch.toml | sort)
copy_seeds package_plan "${plans[@]}"
mapfile -t problems < <(find tests/data/packages -maxdepth 2 -name problem.yaml | sort)
copy_seeds problem_yaml "${problems[@]}"
mapfile -t tasks < <(find tests/data/packages -maxdepth 2 -name task.yaml | sort)
copy_seeds task_yaml "${tasks[@]}"
# What the targets found before (tests/data/fuzz/NAME-*, kept by tests/fuzz_regression_test.cpp).
for name in "${SELECTED[@]}"; do
  mapfile -t found < <(find tests/data/fuzz -name "$name-*" | sort)
  [ ${#found[@]} -eq 0 ] || copy_seeds "$name" "${found[@]}"
done

# Runs one target for SECONDS_EACH; its log is BUILD/logs/NAME.log, its exit status NAME.status.
run_target() {
  local name=$1
  local corpus=$BUILD/corpus/$name findings=$BUILD/findings/$name log=$BUILD/logs/$name.log
  mkdir -p "$corpus" "$findings" "$BUILD/logs"
  touch "$BUILD/logs/$name.start"  # findings newer than this are this run's
  local status=0
  UBSAN_OPTIONS=print_stacktrace=1 "$BUILD/tests/fuzz/${name}_fuzz" \
    -max_total_time="$SECONDS_EACH" -timeout="$TIMEOUT" -rss_limit_mb="$RSS_LIMIT_MB" \
    -malloc_limit_mb="$MALLOC_LIMIT_MB" -max_len="${MAX_LEN[$name]}" -print_final_stats=1 \
    -artifact_prefix="$findings/" "$corpus" "$SEEDS/$name" >"$log" 2>&1 || status=$?
  echo "$status" >"$BUILD/logs/$name.status"
}

# JOBS targets at a time.
running=0
for name in "${SELECTED[@]}"; do
  if [ "$running" -ge "$JOBS" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_target "$name" &
  running=$((running + 1))
done
wait

exit_status=0
for name in "${SELECTED[@]}"; do
  log=$BUILD/logs/$name.log
  # The executed inputs: the final stats, else the last "Done N runs", else the last status line.
  runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
  [ -n "$runs" ] || runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
  [ -n "$runs" ] || runs=$(sed -n 's/^#\([0-9]*\)[[:space:]].*/\1/p' "$log" | tail -n 1)
  mapfile -t found < <(find "$BUILD/findings/$name" -type f -newer "$BUILD/logs/$name.start" \
    \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort)
  echo "fuzz $name: ${runs:-0} runs, ${#found[@]} findings"
  for file in "${found[@]}"; do
    echo "  $file"
  done
  status=$(cat "$BUILD/logs/$name.status")
  if [ ${#found[@]} -gt 0 ]; then
    exit_status=1
  elif [ "$status" -ne 0 ]; then
    echo "  libFuzzer exited with status $status without a finding (log: $log)"
    exit_status=1
  fi
done
exit "$exit_status"
