#!/usr/bin/env bash
# Schedulers are backends (issue 42): no file outside a scheduler backend's own files
# (src/<module>/<name>_*, include/aerun/<module>/<name>_*: the submitting part in sched, the
# allocation's discovery in cluster) names Slurm, PBS, Flux or LSF, or their
# commands, in code (comments do not count; `srun` is a launcher dialect like `mpiexec`) — except the files scripts/scheduler-names.allow
# lists, each with why, and a listed file that no longer names one must leave the list.
# Exit 1 with a line per problem.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
words='slurm|pbs|sbatch|salloc|squeue|sacct|scontrol|qsub|qstat|qdel|qmgr|flux|lsf|bsub|bjobs|bkill'
backends=$(sed -n 's|^\(src/sched/\)\?\([a-z]*\)_backend\.cpp$|\2|p' <(ls src/sched/*_backend.cpp) |
  grep -vx local | paste -sd'|')
allowed=$(sed 's/#.*//; s/[[:space:]]*$//' scripts/scheduler-names.allow | grep -v '^$' || true)
status=0
for f in $(ls src/*/*.cpp src/*/*.hpp include/aerun/*/*.hpp src/main.cpp); do
  if [[ $f =~ ^(src|include/aerun)/[a-z]+/($backends)_ ]]; then continue; fi
  # Code only: a // comment to the end of its line is dropped (a "//" inside a string cuts it
  # short, which can only hide a name, never invent one).
  if sed 's|//.*||' "$f" | grep -iE "$words" >/dev/null; then  # not -q: sed must not get SIGPIPE (pipefail)
    if ! grep -qx "$f" <<<"$allowed"; then
      echo "$f names a scheduler outside its backend:"
      sed 's|//.*||' "$f" | grep -niE "$words" | head -3 | sed 's/^/  /'
      status=1
    fi
  elif grep -qx "$f" <<<"$allowed"; then
    echo "$f no longer names a scheduler: take it out of scripts/scheduler-names.allow"
    status=1
  fi
done
for f in $allowed; do
  [ -e "$f" ] || { echo "$f is in scripts/scheduler-names.allow but does not exist"; status=1; }
done
[ $status -eq 0 ] && echo "scheduler names: none outside the backends but the $(wc -w <<<"$allowed") files allowed"
exit $status
