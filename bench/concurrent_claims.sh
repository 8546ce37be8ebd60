#!/usr/bin/env bash
# Reliability figure (docs/reliability.md): TRIALS times, 8 `aerun case` processes start together
# on one store (same case, overlapping --only selections, two cases); counts executions per run.
# Usage: bench/concurrent_claims.sh AERUN_BINARY [TRIALS]
set -euo pipefail
aerun=$(readlink -f "$1")
trials=${2:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dup=0; missing=0; bad_rc=0; locked=0; runs=0
for t in $(seq 1 "$trials"); do
  d="$work/$t"; mkdir -p "$d"; cd "$d"
  echo 'case: a
params: {x: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}
command: echo a-{x} >> executions; sleep 0.05' > a.yaml
  echo 'case: b
params: {x: [1, 2, 3, 4, 5, 6, 7, 8]}
command: echo b-{x} >> executions; sleep 0.05' > b.yaml
  args=("case a.yaml" "case a.yaml -j 2" "case a.yaml --only x=1 --only x=2 --only x=3" "case b.yaml"
        "case b.yaml -j 3" "case a.yaml -j 4" "case b.yaml --only x=8" "case a.yaml --only x=16")
  for i in "${!args[@]}"; do
    # shellcheck disable=SC2086
    ( rc=0; "$aerun" ${args[$i]} --no-progress </dev/null >"out.$i" 2>"err.$i" || rc=$?
      echo "$rc" >"rc.$i" ) &
  done
  wait
  runs=$((runs + 24))
  dup=$((dup + $(sort executions | uniq -d | wc -l)))
  missing=$((missing + 24 - $(sort -u executions | wc -l)))
  for i in "${!args[@]}"; do
    [ "$(cat "rc.$i")" = 0 ] || bad_rc=$((bad_rc + 1))
    if grep -qi 'locked' "err.$i"; then locked=$((locked + 1)); fi
  done
done
echo "trials: $trials x 8 processes, $runs runs in all: executed twice: $dup, never: $missing," \
     "non-zero exits: $bad_rc, 'database is locked' seen: $locked"
