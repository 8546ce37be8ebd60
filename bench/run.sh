#!/usr/bin/env bash
# Benchmarks (never timed unit tests): harness overhead per run, 1,000,000-point dry-run expansion,
# sweep and extraction throughput. Prints figures and ratios measured in this one run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DAERUN_BUILD_TESTS=OFF >/dev/null
cmake --build build/bench -j"$(nproc)" --target aerun bench_sweep bench_extract
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }
aerun=$PWD/build/bench/aerun
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=${AERUN_BENCH_RUNS:-300}

echo "== harness overhead: $n runs of 'true' =="
{ echo "case: overhead"; echo -n "params: {i: ["; seq -s, 1 "$n" | tr -d '\n'; echo "]}";
  echo "command: 'true'"; } > "$work/overhead.yaml"
t0=$(date +%s.%N)
for i in $(seq 1 "$n"); do /bin/bash -c true > "$work/loop.$i.log" 2>&1; done
t1=$(date +%s.%N)
"$aerun" case "$work/overhead.yaml" --db "$work/o.db" --no-progress 2>/dev/null
t2=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="$n" 'BEGIN {
  loop = (b - a) * 1000 / n; harness = (c - b) * 1000 / n;
  printf "shell loop: %.3f ms/run   aerun: %.3f ms/run   overhead: %.3f ms/run (goal <= 2)   ratio: %.2fx\n",
         loop, harness, harness - loop, harness / loop }'

echo "== dry-run expansion of a 1,000,000-point sweep =="
cat > "$work/big.yaml" <<YAML
case: big
params:
  a: [$(seq -s, 1 10)]
  b: [$(seq -s, 1 10)]
  c: [$(seq -s, 1 100)]
  d: [$(seq -s, 1 100)]
command: ./train --a {a} --b {b} --c {c} --d {d}
YAML
/usr/bin/time -f "%e %M" -o "$work/time" "$aerun" case "$work/big.yaml" --dry-run > "$work/big.out"
read -r secs rss < "$work/time"
echo "points: $(($(wc -l < "$work/big.out") - 2))   seconds: $secs (goal <= 2)   peak RSS: $((rss / 1024)) MB (goal <= 200)"

echo "== sweep library =="
build/bench/bench_sweep
build/bench/bench_sweep --derive
echo "== extraction =="
build/bench/bench_extract --generate 256
