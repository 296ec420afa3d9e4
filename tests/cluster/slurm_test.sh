#!/bin/bash
# The cluster recipes of tools/cluster/ run on a real one-node Slurm (tools/cluster/local-slurm.sh),
# as a user runs them. One mode per ctest test (tests/cluster/CMakeLists.txt):
#
#   slurm_test.sh start  GAMEBATCH REPO RECORD   fixture setup: a fresh temp dir, Slurm up in it
#   slurm_test.sh shards GAMEBATCH REPO RECORD   submit-shards.sh: 3 shards + the dependent merge
#   slurm_test.sh shards_rejected ...             the same with a bad input: the merge still runs
#   slurm_test.sh mpi    GAMEBATCH REPO RECORD   sbatch -n 2 mpi.sbatch (gamebatch solve --mpi)
#   slurm_test.sh stop   GAMEBATCH REPO RECORD   fixture cleanup: Slurm down, temp dir removed
#
# RECORD is a file holding the temp dir of the Slurm that start brought up, for the other modes.
# Exit 77 (skipped) when not root or the Slurm/munge (for mpi: Open MPI) binaries are missing.
set -uo pipefail

mode=${1:?mode}
GAMEBATCH=${2:?gamebatch binary}
REPO=${3:?repository root}
RECORD=${4:?record file}
CLUSTER=$REPO/tools/cluster
LOCAL_SLURM=$CLUSTER/local-slurm.sh

say() { echo "slurm_test ($mode): $*"; }
fail() { echo "slurm_test ($mode): FAILED: $*" >&2; exit 1; }
skip() { echo "slurm_test ($mode): SKIPPED: $*"; exit 77; }

require_prerequisites() {
  [[ $(id -u) -eq 0 ]] || skip "needs root (a local slurmctld, slurmd and munged)"
  local missing=() binary
  for binary in slurmctld slurmd sbatch squeue scontrol scancel sinfo munged mungekey munge \
                unmunge "$@"; do
    command -v "$binary" >/dev/null 2>&1 || [[ -x /usr/sbin/$binary ]] || missing+=("$binary")
  done
  ((${#missing[@]} == 0)) || skip "missing ${missing[*]} (Debian packages slurmctld slurmd" \
    "slurm-client munge openmpi-bin; tools/dev.sh installs them)"
}

# The temp dir of the running test Slurm; SLURM_CONF for the clients.
attach() {
  [[ -s $RECORD ]] || fail "no local Slurm is up ($RECORD is missing: did the fixture" \
    "cluster.slurm_start fail?)"
  TMP=$(cat "$RECORD")
  [[ -f $TMP/slurm/etc/slurm.conf ]] || fail "no slurm.conf in $TMP/slurm (see cluster.slurm_start)"
  export SLURM_CONF=$TMP/slurm/etc/slurm.conf
  if ! LOCAL_SLURM_DIR=$TMP/slurm "$LOCAL_SLURM" status >/dev/null 2>&1; then
    LOCAL_SLURM_DIR=$TMP/slurm "$LOCAL_SLURM" status
    fail "the local Slurm is not (all) running"
  fi
}

stop_slurm() {  # stop_slurm TMP: Slurm down, TMP removed
  local tmp=$1
  [[ -n $tmp && -d $tmp ]] || return 0
  LOCAL_SLURM_DIR=$tmp/slurm "$LOCAL_SLURM" stop || true
  rm -rf -- "$tmp"
}

# A port pair free on this machine (a user's local Slurm keeps 6817/6818).
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_ports() {
  local try base
  for ((try = 0; try < 50; try++)); do
    base=$((20000 + (RANDOM % 2000) * 2))
    if port_free "$base" && port_free "$((base + 1))"; then
      echo "$base $((base + 1))"
      return 0
    fi
  done
  return 1
}

show_logs() {  # show_logs FILE...: every job log, for the failure report
  local log
  for log in "$@"; do
    [[ -e $log ]] || continue
    echo "---- $log ----" >&2
    cat "$log" >&2
  done
}

show_slurm_logs() {
  local log
  echo "---- squeue; scontrol show node ----" >&2
  squeue >&2 2>&1
  scontrol show node >&2 2>&1
  for log in "$TMP/slurm/log/slurmctld.log" "$TMP/slurm/log/slurmd.log"; do
    [[ -e $log ]] || continue
    echo "---- last lines of $log ----" >&2
    tail -n 30 "$log" >&2
  done
}

# Waits until job ID has left the queue (squeue every 0.2 s; sbatch --wait polls every few
# seconds) and prints its final "STATE EXIT" from slurmctld (kept MinJobAge = 300 s; there is
# no accounting database).
wait_job() {
  local id=$1 deadline=$((SECONDS + ${2:-180}))
  while [[ -n $(squeue -h -j "$id" -o %i 2>/dev/null) ]]; do
    ((SECONDS < deadline)) || { echo "TIMEOUT (still queued or running)"; return; }
    sleep 0.2
  done
  scontrol -o show job "$id" 2>/dev/null |
    sed -n 's/.* JobState=\([A-Z_]*\) .* ExitCode=\([0-9:]*\).*/\1 \2/p' | head -n 1
}

# A small willow set, its answers from one plain process, and the cache of one plain run.
make_set() {
  local work=$1
  "$GAMEBATCH" gen willow --count 12 --seed 7 --cases-per-file 2 --cities 2..200 --out "$work/set" \
    >/dev/null || fail "gamebatch gen"
  "$GAMEBATCH" solve --problem willow --no-cache --quiet --out "$work/reference" "$work/set" \
    2>"$work/reference.log" || { cat "$work/reference.log" >&2; fail "the reference run"; }
  "$GAMEBATCH" solve --problem willow --cache "$work/reference.cache" --cache-min-solve-us 0 \
    --quiet --out "$work/reference-cached" "$work/set" 2>"$work/reference-cached.log" ||
    { cat "$work/reference-cached.log" >&2; fail "the reference run with a cache"; }
}

# The answers under DIR equal the reference, byte for byte.
check_answers() {
  local work=$1 answers=$2 what=$3
  if ! diff -r "$work/reference" "$answers" >"$work/answers.diff" 2>&1; then
    head -n 40 "$work/answers.diff" >&2
    return 1
  fi
  say "$what: the answers equal one plain process's" \
    "($(find "$answers" -name '*.ans' | wc -l) files)"
}

# CACHE answers every case: a rerun solves nothing, and it holds the entries of a plain run's.
check_cache() {
  local work=$1 cache=$2 what=$3 summary
  "$GAMEBATCH" solve --problem willow --cache "$cache" --cache-min-solve-us 0 --quiet \
    --out "$work/rerun-$what" "$work/set" 2>"$work/rerun-$what.log" ||
    { cat "$work/rerun-$what.log" >&2; echo "the rerun on $cache failed" >&2; return 1; }
  summary=$(grep '^files:' "$work/rerun-$what.log")
  [[ $summary == *" solved: 0 "* ]] ||
    { echo "a rerun on $cache solved cases: $summary" >&2; return 1; }
  "$GAMEBATCH" cache export "$cache" --format jsonl | sort >"$work/$what.jsonl" ||
    { echo "cache export $cache failed" >&2; return 1; }
  "$GAMEBATCH" cache export "$work/reference.cache" --format jsonl |
    sort >"$work/reference.jsonl" ||
    { echo "cache export of the reference cache failed" >&2; return 1; }
  [[ -s $work/reference.jsonl ]] || { echo "the reference cache is empty" >&2; return 1; }
  if ! diff "$work/reference.jsonl" "$work/$what.jsonl" >"$work/$what.jsonl.diff"; then
    echo "$cache holds other entries than one plain run's cache ($(wc -l <"$work/$what.jsonl")" \
      "against $(wc -l <"$work/reference.jsonl") lines):" >&2
    head -n 20 "$work/$what.jsonl.diff" >&2
    return 1
  fi
  say "$what: $cache answers every case (rerun: $summary; $(wc -l <"$work/$what.jsonl") entries," \
    "the same as one plain run's cache)"
}

case $mode in
  start)
    require_prerequisites
    # What an interrupted earlier run left behind goes first.
    if [[ -s $RECORD ]]; then
      say "stopping the test Slurm an earlier run left in $(cat "$RECORD")"
      stop_slurm "$(cat "$RECORD")"
      rm -f "$RECORD"
    fi
    TMP=$(mktemp -d "${TMPDIR:-/tmp}/gamebatch-slurm-test.XXXXXX") || fail "mktemp"
    chmod 0755 "$TMP"
    trap 'stop_slurm "$TMP"; rm -f "$RECORD"' EXIT  # on success the trap is cleared below
    ports=$(pick_ports) || fail "no two free ports"
    read -r ctld_port slurmd_port <<<"$ports"
    # At least 2 CPUs, so that mpi.sbatch gets its 2 tasks on any machine.
    cpus=$(nproc)
    ((cpus >= 2)) || cpus=2
    LOCAL_SLURM_DIR=$TMP/slurm LOCAL_SLURM_CTLD_PORT=$ctld_port \
      LOCAL_SLURM_SLURMD_PORT=$slurmd_port LOCAL_SLURM_CPUS=$cpus LOCAL_SLURM_TIMEOUT=60 \
      "$LOCAL_SLURM" start ||
      fail "tools/cluster/local-slurm.sh start"
    echo "$TMP" >"$RECORD"
    trap - EXIT
    say "local Slurm up in $TMP/slurm (ports $ctld_port, $slurmd_port)"
    ;;

  stop)
    [[ $(id -u) -eq 0 ]] || skip "needs root"
    if [[ ! -s $RECORD ]]; then
      say "no test Slurm to stop"
      exit 0
    fi
    TMP=$(cat "$RECORD")
    stop_slurm "$TMP"
    rm -f "$RECORD"
    LOCAL_SLURM_DIR=$TMP/slurm "$LOCAL_SLURM" status >/dev/null 2>&1
    [[ $? -eq 3 ]] || fail "daemons still running after stop"
    say "local Slurm stopped, $TMP removed"
    ;;

  shards)
    require_prerequisites
    attach
    work=$(mktemp -d "$TMP/shards.XXXXXX")
    trap 'rm -rf -- "$work"' EXIT
    make_set "$work"
    # Exactly as a user: the settings in the environment, then submit-shards.sh.
    started=$SECONDS
    GAMEBATCH=$GAMEBATCH PROBLEM=willow INPUTS=$work/set OUT=$work/answers \
      CACHE=$work/cache/answers.cache SHARDS=3 JOBS=1 EXTRA_OPTIONS="--cache-min-solve-us 0" \
      LOGS=$work/logs SBATCH_OPTIONS="--time=5" \
      timeout 180 "$CLUSTER/submit-shards.sh" --wait
    submitted=$?
    if ((submitted != 0)); then
      show_logs "$work"/logs/*.log
      show_slurm_logs
      ((submitted == 124)) && fail "submit-shards.sh --wait: the jobs had not ended after 180 s"
      fail "submit-shards.sh --wait: the job array or the merge did not succeed (exit $submitted)"
    fi
    say "job array and merge done in $((SECONDS - started)) s"
    status=0
    for ((i = 1; i <= 3; i++)); do
      [[ -f $work/cache/answers.cache.shard-$i-of-3 ]] ||
        { echo "no shard cache answers.cache.shard-$i-of-3" >&2; status=1; }
    done
    # Each task solved its own shard (from the array variables), and the shards are disjoint and
    # complete: the tasks' summary lines add up to the 12 files.
    logs_with_shard=$(grep -l 'solving shard [123]/3' "$work"/logs/shards-*.log 2>/dev/null | wc -l)
    if [[ $logs_with_shard -ne 3 ]]; then
      echo "expected 3 task logs saying 'solving shard I/3', found $logs_with_shard" >&2
      status=1
    fi
    files_solved=$(cat "$work"/logs/shards-*.log | sed -n 's/^files: \([0-9]*\) .*/\1/p' |
      awk '{ n += $1 } END { print n + 0 }')
    [[ $files_solved -eq 12 ]] ||
      { echo "the tasks' summary lines add up to $files_solved files, not 12" >&2; status=1; }
    check_answers "$work" "$work/answers" "3 shards" || status=1
    check_cache "$work" "$work/cache/answers.cache" merged || status=1
    if ((status != 0)); then
      show_logs "$work"/logs/*.log
      fail "the sharded run's answers or merged cache (above)"
    fi
    ;;

  shards_rejected)
    # A task whose gamebatch rejects an input exits 1; the merge still runs (afterany), and the
    # merged cache answers every good case.
    require_prerequisites
    attach
    work=$(mktemp -d "$TMP/shards-rejected.XXXXXX")
    trap 'rm -rf -- "$work"' EXIT
    make_set "$work"
    mkdir -p "$work/bad"
    printf '2\n3\n1\n2\n3\n2\n3\n' >"$work/bad/truncated.in"  # case 2 is missing
    GAMEBATCH=$GAMEBATCH PROBLEM=willow INPUTS="$work/set $work/bad" OUT=$work/answers \
      CACHE=$work/cache/answers.cache SHARDS=3 JOBS=1 EXTRA_OPTIONS="--cache-min-solve-us 0" \
      LOGS=$work/logs SBATCH_OPTIONS="--time=5" \
      timeout 180 "$CLUSTER/submit-shards.sh" --wait >"$work/submit.log" 2>&1
    submitted=$?
    cat "$work/submit.log"
    status=0
    if ((submitted != 1)); then
      echo "submit-shards.sh --wait exited $submitted, expected 1 (a task rejected an input)" >&2
      status=1
    fi
    grep -q 'array tasks that did not succeed' "$work/submit.log" ||
      { echo "submit-shards.sh did not name the task that rejected an input" >&2; status=1; }
    grep -q 'truncated.in:7: ' "$work"/logs/shards-*.log ||
      { echo "no task log names truncated.in:7" >&2; status=1; }
    check_answers "$work" "$work/answers" "3 shards, one input rejected" || status=1
    check_cache "$work" "$work/cache/answers.cache" merged-despite-rejection || status=1
    if ((status != 0)); then
      show_logs "$work"/logs/*.log
      fail "the merge after a rejected input (above)"
    fi
    ;;

  mpi)
    require_prerequisites mpirun
    attach
    work=$(mktemp -d "$TMP/mpi.XXXXXX")
    trap 'rm -rf -- "$work"' EXIT
    make_set "$work"
    mkdir -p "$work/logs"
    help=$("$GAMEBATCH" solve --help 2>&1)
    [[ $help == *--mpi* ]] ||
      say "note: this gamebatch's solve --help has no --mpi: the job will fail"
    oversubscribe=0
    (($(nproc) >= 2)) || oversubscribe=1
    started=$SECONDS
    job=$(GAMEBATCH=$GAMEBATCH PROBLEM=willow INPUTS=$work/set OUT=$work/answers \
          CACHE=$work/cache/answers.cache JOBS=1 EXTRA_OPTIONS="--cache-min-solve-us 0" \
          OVERSUBSCRIBE=$oversubscribe \
          sbatch --parsable -n 2 --time=5 --output="$work/logs/mpi-%j.log" "$CLUSTER/mpi.sbatch") ||
      fail "sbatch -n 2 mpi.sbatch"
    job=${job%%;*}
    state=$(wait_job "$job")
    log=$work/logs/mpi-$job.log
    if [[ $state != "COMPLETED 0:0" ]]; then
      show_logs "$log"
      show_slurm_logs
      fail "job $job (sbatch -n 2 mpi.sbatch) ended ${state:-with no record}"
    fi
    say "job $job (2 ranks) done in $((SECONDS - started)) s"
    status=0
    # One gamebatch over 2 ranks, not 2 runs: rank 0 alone prints the summary line.
    summaries=$(grep -c '^files: ' "$log")
    [[ $summaries -eq 1 ]] ||
      { echo "expected 1 summary line (rank 0's) in $log, found $summaries" >&2; status=1; }
    check_answers "$work" "$work/answers" "2 MPI ranks" || status=1
    check_cache "$work" "$work/cache/answers.cache" mpi || status=1
    if ((status != 0)); then
      show_logs "$log"
      fail "the MPI run's answers or cache (above)"
    fi
    ;;

  *)
    echo "usage: $0 start|shards|shards_rejected|mpi|stop GAMEBATCH REPO RECORD" >&2
    exit 2
    ;;
esac
exit 0
