#!/usr/bin/env bash
# Polling figure (docs/schedulers.md, issue 12): on the local test Slurm, a 100-task array
# (each task `sleep 1`) followed by `aerun case --scheduler slurm`, against a plain script that
# submits the same job script (aerun's, from --dry-run) and asks squeue once a second until the
# array is gone. Counts squeue calls
# (PATH shim) and times both, one after the other, in one run.
# Usage (root, Slurm test packages installed): bench/slurm_polling.sh AERUN_BINARY
set -euo pipefail
aerun=$(readlink -f "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
cleanup() { bash "$here/scripts/slurm-test-cluster.sh" stop "$work/cluster" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
bash "$here/scripts/slurm-test-cluster.sh" start "$work/cluster" $$ >"$work/start.log" 2>&1
export SLURM_CONF="$work/cluster/slurm.conf"
real=$(command -v squeue)
mkdir -p "$work/shim"
printf '#!/bin/sh\necho x >> "$SQUEUE_CALLS"\nexec %s "$@"\n' "$real" > "$work/shim/squeue"
chmod +x "$work/shim/squeue"
export PATH="$work/shim:$PATH"

mkdir -p "$work/a" && cd "$work/a"
{
  echo 'case: hundred'
  echo "params: {i: [$(seq -s, 0 99)]}"
  echo 'command: echo "step 1 i={i}"; sleep 1'
  echo 'resources: {nodes: 1, tasks_per_node: 1, walltime: 5m, partition: debug}'
} > c.yaml
export SQUEUE_CALLS="$work/a/calls"; : > "$SQUEUE_CALLS"
t0=$(date +%s.%N)
"$aerun" case c.yaml --scheduler slurm --no-progress >out 2>err
t1=$(date +%s.%N)
aerun_calls=$(wc -l < "$SQUEUE_CALLS")

# The same job script aerun writes (its stamps and wrapper included), submitted by hand.
mkdir -p "$work/b" && cd "$work/b" && cp ../a/c.yaml .
script=$("$aerun" case c.yaml --scheduler slurm --dry-run 2>/dev/null | sed -n 2p)
export SQUEUE_CALLS="$work/b/calls"; : > "$SQUEUE_CALLS"
t2=$(date +%s.%N)
id=$(sbatch --parsable --chdir="$work/b" "$script")
while [ -n "$(squeue --noheader --jobs="$id" 2>/dev/null)" ]; do sleep 1; done
t3=$(date +%s.%N)
script_calls=$(wc -l < "$SQUEUE_CALLS")
awk -v t0="$t0" -v t1="$t1" -v t2="$t2" -v t3="$t3" -v ca="$aerun_calls" -v cb="$script_calls" \
  'BEGIN { a = t1 - t0; b = t3 - t2; printf "aerun: %.1f s, %d squeue calls; script polling once a second: %.1f s, %d calls; wall ratio %.3f\n", a, ca, b, cb, a / b }'
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
