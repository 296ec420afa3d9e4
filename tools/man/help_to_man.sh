#!/usr/bin/env bash
# Writes the man page gamebatch(1) from the program's own help: `gamebatch --help` and every
# subcommand's (found in the help, so a new one gets its section), so the page cannot drift
# from what the program says. The build runs it after linking gamebatch (cmake/install.cmake).
#   tools/man/help_to_man.sh GAMEBATCH VERSION DATADIR OUTPUT
# DATADIR is where the example configs and cluster scripts live; the page names it in the
# string Gd, which `cmake --install` rewrites for the prefix it installs to.
set -euo pipefail

if [ $# -ne 4 ]; then
  echo "usage: $0 GAMEBATCH VERSION DATADIR OUTPUT" >&2
  exit 2
fi
gamebatch=$1
version=$2
datadir=$3
output=$4
roff_awk=$(dirname "${BASH_SOURCE[0]}")/help_to_roff.awk
export LC_ALL=C
trap 'rm -f "$output.tmp"' EXIT  # written whole, then renamed: never half a page

# Help texts by command ("top": gamebatch's own). Read as any user reads them: with HOME='~'
# the default cache shows as ~/.cache/... instead of the build machine's home directory (FILES
# says where XDG_CACHE_HOME puts it).
declare -A help
read_help() {
  help[${*:-top}]=$(env -u XDG_CACHE_HOME HOME='~' "$gamebatch" "$@" --help) ||
    { echo "$0: '$gamebatch $* --help' failed" >&2; exit 1; }
}
# part MODE [COMMAND...]: one part of one command's help, as roff.
part() {
  local mode=$1
  shift
  awk -v mode="$mode" -f "$roff_awk" <<<"${help[${*:-top}]}"
}

read_help
mapfile -t commands < <(part subcommands)
[ ${#commands[@]} -gt 0 ] || { echo "$0: no subcommands in '$gamebatch --help'" >&2; exit 1; }
declare -A subcommands
for command in "${commands[@]}"; do
  read_help "$command"
  subcommands[$command]=$(part subcommands "$command")
  for sub in ${subcommands[$command]}; do
    read_help "$command" "$sub"
  done
done
all_help=$(printf '%s\n' "${help[@]}")
mentions() { grep -q "$@" <<<"$all_help"; }

# Today, or SOURCE_DATE_EPOCH's day for a reproducible build.
date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" +%Y-%m-%d)

{
  echo '.\" Generated from gamebatch --help by tools/man/help_to_man.sh; edit the help texts.'
  echo ".TH GAMEBATCH 1 $date \"gamebatch $version\" \"User Commands\""
  echo ".ds Gd $datadir"
  # Ragged right, no hyphenation: the page is full of long option and file names.
  printf '%s\n' .nh ".ad l"
  echo ".SH NAME"
  part name
  echo ".SH SYNOPSIS"
  echo ".nf"
  for command in "${commands[@]}"; do
    if [ -z "${subcommands[$command]}" ]; then
      part synopsis "$command"
    fi
    for sub in ${subcommands[$command]}; do
      part synopsis "$command" "$sub"
    done
  done
  printf '%s\n' '\fBgamebatch\fR \fISUBCOMMAND\fR \fB\-\-help\fR' \
    '\fBgamebatch \-\-help\fR | \fB\-\-version\fR'
  echo ".fi"
  echo ".SH DESCRIPTION"
  part description
  for command in "${commands[@]}"; do
    echo ".SH \"GAMEBATCH ${command^^}\""
    part command "$command"
    parent_footer=$(part footer "$command")
    for sub in ${subcommands[$command]}; do
      echo ".SS \"gamebatch $command $sub\""
      # CLI11 repeats the parent's footer in each subcommand's help; print it once.
      skip=0
      [ "$(part footer "$command" "$sub")" != "$parent_footer" ] || skip=1
      awk -v mode=command -v skip_footer=$skip -f "$roff_awk" <<<"${help[$command $sub]}"
    done
  done
  echo ".SH \"EXIT STATUS\""
  part exit
  echo ".PP"
  echo "Some subcommands refine these; their sections say how."

  echo ".SH ENVIRONMENT"
  cat <<'EOF'
.TP
.B XDG_CACHE_HOME
The default answer cache is
.IR $XDG_CACHE_HOME/gamebatch/answers.cache
when this is an absolute path.
.TP
.B HOME
Otherwise the default answer cache is
.IR $HOME/.cache/gamebatch/answers.cache ;
with neither set, a run has no cache unless
.B \-\-cache
names one.
EOF
  if mentions SLURM_ARRAY_TASK; then
    cat <<'EOF'
.TP
.BR SLURM_ARRAY_TASK_ID ", " SLURM_ARRAY_TASK_MIN ", " SLURM_ARRAY_TASK_COUNT
Inside a Slurm job array, the commands
.B solve
and
.B run
take the array task's shard of the inputs unless
.B \-\-shard
says otherwise.
EOF
  fi

  echo ".SH FILES"
  cat <<'EOF'
.TP
.I ~/.cache/gamebatch/answers.cache
The default answer cache (see ENVIRONMENT): one SQLite file, with
.I answers.cache\-wal
and
.I answers.cache\-shm
beside it while a run has it open.
.TP
.I \*(Gd/configs/
Example configurations for
.BR "gamebatch run" ,
one per game, and the bundled demo sets
.RI ( demo/GAME/ ).
Copy one beside your own data and edit it.
.TP
.I \*(Gd/cluster/
Scripts for running gamebatch on a cluster.
EOF

  echo ".SH \"SEE ALSO\""
  see_also=()
  if mentions -i mpi; then see_also+=(".BR mpirun (1)"); fi
  if mentions Slurm; then see_also+=(".BR sbatch (1)"); fi
  if mentions SQLite; then see_also+=(".BR sqlite3 (1)"); fi
  for ((i = 0; i < ${#see_also[@]}; i++)); do
    if ((i + 1 < ${#see_also[@]})); then echo "${see_also[i]},"; else echo "${see_also[i]}"; fi
  done
} >"$output.tmp"
mv "$output.tmp" "$output"
