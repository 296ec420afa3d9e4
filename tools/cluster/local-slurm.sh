#!/bin/bash
# A one-node Slurm on this machine, to try the cluster recipes (shards.sbatch, mpi.sbatch) and to
# test them (tests/cluster). Needs root and the Debian packages slurmctld slurmd slurm-client munge.
#
#   tools/cluster/local-slurm.sh start    # prints the line to paste: export SLURM_CONF=...
#   tools/cluster/local-slurm.sh status
#   tools/cluster/local-slurm.sh stop     # ends only what start started; safe to run twice
#
# Everything lives in one directory, LOCAL_SLURM_DIR (default /tmp/gamebatch-local-slurm):
# slurm.conf, cgroup.conf, a private munge key and socket, state, spool, logs and pid files. Its
# own munged (on its own socket, named in slurm.conf's AuthInfo) leaves any system munged alone.
#
# Settings (environment):
#   LOCAL_SLURM_DIR           the state directory (default /tmp/gamebatch-local-slurm)
#   LOCAL_SLURM_CTLD_PORT     slurmctld's port (default 6817)
#   LOCAL_SLURM_SLURMD_PORT   slurmd's port (default 6818)
#   LOCAL_SLURM_TIMEOUT       seconds start waits for the node to be idle (default 60)
#   LOCAL_SLURM_CPUS          the node's CPUs (default: nproc; more than the machine has works,
#                             e.g. to try several tasks on a small machine)
set -euo pipefail

STATE_DIR=${LOCAL_SLURM_DIR:-/tmp/gamebatch-local-slurm}
CTLD_PORT=${LOCAL_SLURM_CTLD_PORT:-6817}
SLURMD_PORT=${LOCAL_SLURM_SLURMD_PORT:-6818}
TIMEOUT=${LOCAL_SLURM_TIMEOUT:-60}
CPUS=${LOCAL_SLURM_CPUS:-$(nproc)}

SLURMCTLD=${SLURMCTLD:-/usr/sbin/slurmctld}
SLURMD=${SLURMD:-/usr/sbin/slurmd}
MUNGED=${MUNGED:-/usr/sbin/munged}
MUNGE_USER=munge

me=$(basename "$0")
die() { echo "$me: error: $*" >&2; exit 1; }
say() { echo "$me: $*" >&2; }

usage() {
  echo "usage: $me start|stop|status   (state directory: \$LOCAL_SLURM_DIR, now $STATE_DIR)" >&2
  exit 2
}

[[ $# -eq 1 ]] || usage
command=$1
case $command in start|stop|status) ;; *) usage ;; esac

# An absolute path: slurm.conf and the daemons' command lines name it, and stop finds the daemons
# by it.
case $STATE_DIR in
  /*) ;;
  *) STATE_DIR=$(pwd)/$STATE_DIR ;;
esac
STATE_DIR=${STATE_DIR%/}
[[ -n $STATE_DIR && $STATE_DIR != / ]] || die "LOCAL_SLURM_DIR must not be /"

CONF=$STATE_DIR/etc/slurm.conf
MUNGE_DIR=$STATE_DIR/munge
MUNGE_SOCKET=$MUNGE_DIR/munge.socket.2
RUN_DIR=$STATE_DIR/run
LOG_DIR=$STATE_DIR/log
NODE=$(hostname -s)
export SLURM_CONF=$CONF

# The daemons start starts: NAME PIDFILE.
daemons() {
  echo "slurmd $RUN_DIR/slurmd.pid"
  echo "slurmctld $RUN_DIR/slurmctld.pid"
  echo "munged $MUNGE_DIR/munged.pid"
}

# Prints the pid in PIDFILE when that process is alive and is the NAME that start started on this
# state directory (its program is NAME, its arguments name this directory's slurm.conf or munge
# socket), so a stale pid file whose pid was reused, or a daemon someone else started (the
# system's munged, another Slurm), is never touched.
our_pid() {
  local name=$1 pidfile=$2 pid
  local -a argv
  [[ -r $pidfile ]] || return 1
  pid=$(tr -dc '0-9' <"$pidfile")
  [[ -n $pid ]] && alive "$pid" || return 1
  mapfile -d '' -t argv <"/proc/$pid/cmdline" 2>/dev/null || return 1
  ((${#argv[@]} >= 2)) && [[ $(basename -- "${argv[0]}") == "$name" ]] || return 1
  case $name in
    munged) [[ " ${argv[*]:1} " == *" --socket=$MUNGE_SOCKET "* ]] || return 1 ;;
    *) [[ " ${argv[*]:1} " == *" -f $CONF "* ]] || return 1 ;;
  esac
  echo "$pid"
}

export_line() { echo "export SLURM_CONF=$CONF"; }

log_tails() {
  local log
  for log in "$LOG_DIR"/{munged,slurmctld,slurmd}.out "$MUNGE_DIR/munged.log" \
             "$LOG_DIR/slurmctld.log" "$LOG_DIR/slurmd.log"; do
    [[ -s $log ]] || continue
    echo "---- last lines of $log ----" >&2
    tail -n 25 "$log" >&2 || true
  done
}

node_state() { sinfo -h -n "$NODE" -o %T 2>/dev/null | head -n 1; }

# A process that runs (a zombie waiting for its reaper does not).
alive() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [[ ${stat%% *} != Z ]]
}

stop_daemons() {
  local waited
  # Jobs first, so that no job step outlives slurmd.
  if our_pid slurmctld "$RUN_DIR/slurmctld.pid" >/dev/null; then
    local -a jobs
    mapfile -t jobs < <(squeue -h -o %A 2>/dev/null || true)
    if ((${#jobs[@]} > 0)); then
      say "cancelling the jobs still queued or running: ${jobs[*]}"
      scancel "${jobs[@]}" 2>/dev/null || true
      for ((waited = 0; waited < 20; waited++)); do
        [[ -z $(squeue -h -o %A 2>/dev/null || true) ]] && break
        sleep 0.5
      done
    fi
  fi
  # slurmd and slurmctld together (each takes a second or two to end), then munged.
  STOPPED=0
  end_daemons slurmd slurmctld
  end_daemons munged
  return 0
}

# end_daemons NAME...: SIGTERM to those of start's daemons that run, wait (SIGKILL after 10 s).
end_daemons() {
  local name pidfile pid waited wanted=" $* "
  local -a pids=() names=() pidfiles=()
  while read -r name pidfile; do
    [[ $wanted == *" $name "* ]] || continue
    pid=$(our_pid "$name" "$pidfile") || { rm -f "$pidfile"; continue; }
    kill -TERM "$pid" 2>/dev/null || continue
    pids+=("$pid") names+=("$name") pidfiles+=("$pidfile")
  done < <(daemons)
  local i
  for i in "${!pids[@]}"; do
    for ((waited = 0; waited < 100; waited++)); do
      alive "${pids[i]}" || break
      sleep 0.1
    done
    if alive "${pids[i]}"; then
      say "${names[i]} (pid ${pids[i]}) did not end on SIGTERM within 10 s: SIGKILL"
      kill -KILL "${pids[i]}" 2>/dev/null || true
    fi
    rm -f "${pidfiles[i]}"
    say "stopped ${names[i]} (pid ${pids[i]})"
    STOPPED=$((STOPPED + 1))
  done
}

write_configs() {
  local mem_mib
  # A little below the machine's memory: a node reporting less than RealMemory is set invalid.
  mem_mib=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
  (( mem_mib >= 1 )) || mem_mib=1
  cat >"$CONF" <<EOF
# Written by tools/cluster/local-slurm.sh: a one-node Slurm for trying the cluster recipes.
ClusterName=gamebatch-local
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
CredType=cred/munge
StateSaveLocation=$STATE_DIR/state
SlurmdSpoolDir=$STATE_DIR/spool/slurmd
SlurmctldPidFile=$RUN_DIR/slurmctld.pid
SlurmdPidFile=$RUN_DIR/slurmd.pid
SlurmctldLogFile=$LOG_DIR/slurmctld.log
SlurmdLogFile=$LOG_DIR/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$STATE_DIR/etc/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
# Start batch jobs (array tasks, a dependent job) as soon as they can run, not up to 3 s later.
SchedulerParameters=batch_sched_delay=0
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$mem_mib State=UNKNOWN
PartitionName=local Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
  cat >"$STATE_DIR/etc/cgroup.conf" <<EOF
CgroupPlugin=autodetect
IgnoreSystemd=yes
EOF
  # Empty: no SPANK plugins (not the system's /etc/slurm/plugstack.conf).
  : >"$STATE_DIR/etc/plugstack.conf"
}

start_munged() {
  local key=$MUNGE_DIR/munge.key
  install -d -m 0755 -o "$MUNGE_USER" -g "$MUNGE_USER" "$MUNGE_DIR"
  rm -f "$MUNGE_SOCKET" "$MUNGE_SOCKET.lock" "$MUNGE_DIR/munged.pid"
  if [[ ! -s $key ]]; then
    runuser -u "$MUNGE_USER" -- mungekey --create --keyfile="$key" ||
      die "mungekey --create --keyfile=$key failed"
  fi
  runuser -u "$MUNGE_USER" -- "$MUNGED" --socket="$MUNGE_SOCKET" --key-file="$key" \
    --pid-file="$MUNGE_DIR/munged.pid" --log-file="$MUNGE_DIR/munged.log" \
    --seed-file="$MUNGE_DIR/munged.seed" --origin=127.0.0.1 \
    </dev/null >>"$LOG_DIR/munged.out" 2>&1 || start_failed "munged did not start"
  local waited
  for ((waited = 0; waited < 50; waited++)); do
    munge -n -S "$MUNGE_SOCKET" 2>/dev/null | unmunge -S "$MUNGE_SOCKET" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  start_failed "munged does not answer on $MUNGE_SOCKET"
}

# The end of a failed start: the logs' last lines, then what it started is stopped.
start_failed() {
  log_tails
  stop_daemons
  die "$* (the logs are in $LOG_DIR)"
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() {
  local missing=() binary
  for binary in "$SLURMCTLD" "$SLURMD" "$MUNGED" mungekey munge unmunge sinfo squeue scancel \
                runuser; do
    command -v "$binary" >/dev/null 2>&1 || missing+=("$binary")
  done
  (( ${#missing[@]} == 0 )) ||
    die "missing ${missing[*]} (Debian packages: slurmctld slurmd slurm-client munge)"
  id "$MUNGE_USER" >/dev/null 2>&1 || die "no user '$MUNGE_USER' (Debian package munge)"

  # Already up on this directory: nothing to do.
  if our_pid munged "$MUNGE_DIR/munged.pid" >/dev/null &&
     our_pid slurmctld "$RUN_DIR/slurmctld.pid" >/dev/null &&
     our_pid slurmd "$RUN_DIR/slurmd.pid" >/dev/null &&
     [[ $(node_state) == idle* || $(node_state) == mix* || $(node_state) == alloc* ]]; then
    say "already running on $STATE_DIR (node $NODE: $(node_state))"
    export_line
    return 0
  fi
  # Whatever is left of an earlier run on this directory (some daemons, stale pid files, old
  # state) goes: a fresh start.
  stop_daemons
  for port in "$CTLD_PORT" "$SLURMD_PORT"; do
    port_in_use "$port" && die "port $port is in use (another Slurm?); choose others with" \
      "LOCAL_SLURM_CTLD_PORT and LOCAL_SLURM_SLURMD_PORT"
  done
  mkdir -p "$STATE_DIR"
  chmod 0755 "$STATE_DIR"
  rm -rf "${STATE_DIR:?}/etc" "$STATE_DIR/state" "$STATE_DIR/spool" "$RUN_DIR" "$LOG_DIR"
  mkdir -p "$STATE_DIR/etc" "$STATE_DIR/state" "$STATE_DIR/spool/slurmd" "$RUN_DIR" "$LOG_DIR"
  write_configs

  start_munged
  # Their output goes to files: a daemon must not hold the caller's stdout (ctest, a pipe) open.
  "$SLURMCTLD" -f "$CONF" -i </dev/null >>"$LOG_DIR/slurmctld.out" 2>&1 ||
    start_failed "slurmctld did not start"
  "$SLURMD" -f "$CONF" </dev/null >>"$LOG_DIR/slurmd.out" 2>&1 ||
    start_failed "slurmd did not start"

  local deadline=$((SECONDS + TIMEOUT)) state=
  while ((SECONDS < deadline)); do
    state=$(node_state)
    [[ $state == idle* ]] && break
    sleep 0.5
  done
  if [[ $state != idle* ]]; then
    sinfo -N -l >&2 2>&1 || true
    start_failed "node $NODE is not idle after ${TIMEOUT} s" \
      "(state: '${state:-no answer from slurmctld}')"
  fi
  say "one-node Slurm up: node $NODE ($CPUS CPUs) idle, state in $STATE_DIR"
  say "to use it from this shell:"
  export_line
}

status() {
  local name pidfile pid running=0 total=0
  while read -r name pidfile; do
    total=$((total + 1))
    if pid=$(our_pid "$name" "$pidfile"); then
      echo "$name: running (pid $pid)"
      running=$((running + 1))
    else
      echo "$name: not running"
    fi
  done < <(daemons)
  if our_pid slurmctld "$RUN_DIR/slurmctld.pid" >/dev/null; then
    sinfo 2>&1 || true
    squeue 2>&1 || true
    export_line
  fi
  ((running == total)) && return 0
  ((running == 0)) && return 3
  return 1
}

if [[ $(id -u) -ne 0 ]]; then
  [[ $command == status ]] || die "needs root (the daemons run as root and munge); run it with sudo"
fi

case $command in
  start) start ;;
  stop)
    stop_daemons
    if ((STOPPED == 0)); then
      say "nothing to stop: no daemon that start started on $STATE_DIR is running"
    else
      say "stopped; the logs and state stay in $STATE_DIR"
    fi
    ;;
  status) status ;;
esac
