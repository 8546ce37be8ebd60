#!/usr/bin/env bash
# Scale figure (docs/schedulers.md, issue 29): on the local test Slurm with MaxArraySize=1000, a
# sweep of AERUN_BENCH_SCALE_RUNS (default 10,000) runs of `true` through `aerun case --scheduler
# slurm`, against a hand-written loop that submits the same number of tasks as `sbatch --array`
# chunks of 1,000 (a plain script running `true`) and asks squeue once a second until they are
# gone. Reports arrays used, job script sizes, sbatch and squeue calls (PATH shims), wall times and
# their ratio, and aerun's peak memory, one after the other in one run.
# Usage (root, Slurm test packages installed): bench/slurm_scale.sh AERUN_BINARY
set -euo pipefail
aerun=$(readlink -f "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
n=${AERUN_BENCH_SCALE_RUNS:-10000}
chunk=1000
work=$(mktemp -d)
cleanup() { bash "$here/scripts/slurm-test-cluster.sh" stop "$work/cluster" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
# MaxArraySize=1000: indices 0..999. Finished tasks leave the controller after 60 s, so that
# 10,000 of them stay under the default MaxJobCount (10,000).
export SLURM_TEST_EXTRA_CONF=$'MaxArraySize=1000\nMinJobAge=60'
bash "$here/scripts/slurm-test-cluster.sh" start "$work/cluster" $$ >"$work/start.log" 2>&1
export SLURM_CONF="$work/cluster/slurm.conf"
mkdir -p "$work/shim"
for tool in sbatch squeue; do
  printf '#!/bin/sh\necho x >> "$CALLS.%s"\nexec %s "$@"\n' "$tool" "$(command -v "$tool")" > "$work/shim/$tool"
  chmod +x "$work/shim/$tool"
done
export PATH="$work/shim:$PATH"
calls() { if [ -f "$CALLS.$1" ]; then wc -l < "$CALLS.$1"; else echo 0; fi; }

mkdir -p "$work/a" && cd "$work/a"
{
  echo 'case: scale'
  echo "params: {i: [$(seq -s, 0 $((n - 1)))]}"
  echo "command: 'true'"
  echo 'resources: {nodes: 1, tasks_per_node: 1, walltime: 5m, partition: debug}'
} > c.yaml
export CALLS="$work/a/calls"
t0=$(date +%s.%N)
/usr/bin/time -f "%M" -o "$work/a/rss" "$aerun" case c.yaml --scheduler slurm --no-progress >out 2>err || true
t1=$(date +%s.%N)
ok=$(sqlite3 results/aerun.db "SELECT count(*) FROM runs WHERE status='ok'")
arrays=$(find results/logs/scale/jobs -name '*.sbatch' | wc -l)
biggest=$(find results/logs/scale/jobs -name '*.sbatch' -printf '%s\n' | sort -n | tail -1)
table=$(find results/logs/scale/jobs -name '*.tasks' -printf '%s\n' | sort -n | tail -1)
a_sbatch=$(calls sbatch) a_squeue=$(calls squeue)

# By hand: the same number of tasks as chunks of `sbatch --array`, polled once a second.
mkdir -p "$work/b" && cd "$work/b"
printf '#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=1\n#SBATCH --time=5\n#SBATCH --partition=debug\n#SBATCH --output=%s/b/%%A_%%a.log\ntrue\n' "$work" > job.sh
export CALLS="$work/b/calls"
t2=$(date +%s.%N)
ids=()
for ((start = 0; start < n; start += chunk)); do
  last=$((start + chunk - 1 < n - 1 ? chunk - 1 : n - 1 - start))
  ids+=("$(sbatch --parsable --array=0-$last job.sh)")
done
while [ -n "$(squeue --noheader --jobs="$(IFS=,; echo "${ids[*]}")" 2>/dev/null)" ]; do sleep 1; done
t3=$(date +%s.%N)
awk -v t0="$t0" -v t1="$t1" -v t2="$t2" -v t3="$t3" -v n="$n" -v ok="$ok" -v arrays="$arrays" \
  -v big="$biggest" -v table="$table" -v as="$a_sbatch" -v aq="$a_squeue" -v bs="$(calls sbatch)" \
  -v bq="$(calls squeue)" -v rss="$(cat "$work/a/rss")" 'BEGIN {
  a = t1 - t0; b = t3 - t2
  printf "aerun: %d runs, %d ok, in %d arrays; biggest job script %d bytes, task table %d bytes; %d sbatch, %d squeue calls; %.1f s; peak RSS %.1f MB\n", n, ok, arrays, big, table, as, aq, a, rss / 1024
  printf "hand-written loop of sbatch --array chunks of 1000, squeue once a second: %d sbatch, %d squeue calls; %.1f s\n", bs, bq, b
  printf "wall ratio aerun / loop: %.3f (goal <= 1.1)\n", a / b }'
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
