#!/bin/bash
# Solves a test set on a Slurm cluster as a job array of SHARDS tasks (shards.sbatch: task I
# solves shard I/SHARDS with its own cache CACHE.shard-I-of-SHARDS), then, once every task has
# ended, merges the shards' caches into CACHE (a job that depends on the array, afterany: a task
# that rejected some input exits 1, and its cache still holds every answer it found).
#
#   tools/cluster/submit-shards.sh          # submit both jobs, print their ids and logs
#   tools/cluster/submit-shards.sh --wait   # ... and wait for them: exit 0 when all succeeded
#
# Edit the settings below, or set them in the environment (the environment wins). The paths must
# be reachable from every compute node (a shared file system), and should be absolute.

GAMEBATCH=${GAMEBATCH:-gamebatch}                   # the gamebatch binary
PROBLEM=${PROBLEM:-willow}                          # willow | doublemove | wallgame | boigame
INPUTS=${INPUTS:-/shared/sets/willow}               # input files or directories (space-separated)
OUT=${OUT:-/shared/answers/willow}                  # answer tree (empty: beside the inputs)
CACHE=${CACHE:-/shared/gamebatch/answers.cache}     # the merged cache; shards beside it
SHARDS=${SHARDS:-8}                                 # array tasks, one shard each
JOBS=${JOBS:-32}                                    # threads (and cores) per task
EXTRA_OPTIONS=${EXTRA_OPTIONS:-}                    # more options of gamebatch solve
LOGS=${LOGS:-$PWD/logs}                             # directory of the jobs' logs (created)
SBATCH_OPTIONS=${SBATCH_OPTIONS:-}                  # more sbatch options for both jobs,
                                                    #   e.g. --partition=batch --time=2:00:00

# ---- nothing to edit below ----
set -euo pipefail
me=$(basename "$0")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SHARDS_SBATCH=${SHARDS_SBATCH:-$here/shards.sbatch}

wait_for_jobs=false
case ${1:-} in
  --wait) wait_for_jobs=true ;;
  '') ;;
  *) echo "usage: $me [--wait]" >&2; exit 2 ;;
esac
[[ $SHARDS =~ ^[1-9][0-9]*$ ]] || { echo "$me: SHARDS must be a positive number" >&2; exit 2; }
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || { echo "$me: JOBS must be a positive number" >&2; exit 2; }
[[ -n $CACHE ]] || { echo "$me: set CACHE (the merge needs the shards' caches)" >&2; exit 2; }
[[ -r $SHARDS_SBATCH ]] || { echo "$me: no $SHARDS_SBATCH" >&2; exit 2; }
mkdir -p "$LOGS" "$(dirname "$CACHE")"
[[ -n $OUT ]] && mkdir -p "$OUT"

# shards.sbatch reads its settings from the environment that sbatch passes on.
export GAMEBATCH PROBLEM INPUTS OUT CACHE JOBS EXTRA_OPTIONS
read -r -a sbatch_options <<<"$SBATCH_OPTIONS"

array_id=$(sbatch --parsable "${sbatch_options[@]}" --array="1-$SHARDS" --cpus-per-task="$JOBS" \
  --job-name="gamebatch-$PROBLEM" --output="$LOGS/shards-%A-%a.log" "$SHARDS_SBATCH")
array_id=${array_id%%;*}  # --parsable prints ID or ID;CLUSTER

# The merge: every shard's cache, listed (a missing one fails the merge rather than passing for a
# whole cache). afterany, not afterok: gamebatch exits 1 when it rejected some input, and the
# answers it found are no less sound; a task that never ran leaves no cache, and the merge fails.
merge_command=$(printf '%q ' "$GAMEBATCH" cache merge "$CACHE")
for ((i = 1; i <= SHARDS; i++)); do
  merge_command+=$(printf '%q ' "$CACHE.shard-$i-of-$SHARDS")
done
merge_id=$(sbatch --parsable "${sbatch_options[@]}" --dependency="afterany:$array_id" \
  --ntasks=1 --cpus-per-task=1 --job-name="gamebatch-$PROBLEM-merge" \
  --output="$LOGS/merge-%j.log" --wrap="exec $merge_command")
merge_id=${merge_id%%;*}

echo "$me: job array $array_id ($SHARDS shards of $INPUTS), logs $LOGS/shards-$array_id-*.log"
echo "$me: merge job $merge_id (once every task has ended) into $CACHE," \
  "log $LOGS/merge-$merge_id.log"
$wait_for_jobs || exit 0

# Waits until neither job is queued or running (squeue, once a second: sbatch --wait polls far
# more slowly), then reads their final states from slurmctld, which keeps them MinJobAge seconds
# (300 by default) and needs no accounting database for it.
while [[ -n $(squeue -h -j "$array_id,$merge_id" -o %i 2>/dev/null) ]]; do
  sleep 1
done
# "TASK JOBID STATE EXITCODE" of each array task that did not end COMPLETED with exit 0.
failed=$(scontrol -o show job "$array_id" 2>/dev/null | awk '
  function field(name,   text) {
    if (!match($0, "(^| )" name "=[^ ]*")) return "?"
    text = substr($0, RSTART, RLENGTH)
    sub(/^ /, "", text)
    return substr(text, length(name) + 2)
  }
  field("JobState") != "COMPLETED" || field("ExitCode") != "0:0" {
    printf "  task %s (job %s): %s, exit code %s\n", field("ArrayTaskId"), field("JobId"),
           field("JobState"), field("ExitCode")
  }') || true
merge_record=$(scontrol -o show job "$merge_id" 2>/dev/null) || true
merge_state=$(sed -n 's/.* JobState=\([A-Z_]*\) .* ExitCode=\([0-9:]*\).*/\1 \2/p' \
  <<<"$merge_record")

status=0
if [[ -n $failed ]]; then
  echo "$me: array tasks that did not succeed (logs $LOGS/shards-$array_id-TASK.log):" >&2
  echo "$failed" >&2
  status=1
fi
if [[ $merge_state == "COMPLETED 0:0" ]]; then
  echo "$me: done: every shard solved, their caches merged into $CACHE"
else
  echo "$me: the merge job $merge_id did not succeed (${merge_state:-its record is gone})" >&2
  [[ -e $LOGS/merge-$merge_id.log ]] && echo "$me: see $LOGS/merge-$merge_id.log" >&2
  status=1
fi
exit "$status"
