#!/usr/bin/env bash
# Reliability figures (docs/reliability.md), counted, not timed:
#  1. writers: 8 `aerun case` processes start together on one store, all on the same 1,000-point
#     case (-j 1..8), then 8 processes on 8 different 1,000-point cases: runs lost (no ok row),
#     duplicated (two rows of one point), executed twice (each run appends its name to a file).
#  2. kill -9: TRIALS times, `aerun case -j 4` of a 12-point case whose runs hold a flock on their
#     point while they run is killed with SIGKILL at a random moment, then run again to the end:
#     points not ok after the resume, points that ran twice at once (a lock found taken), stray
#     processes still running afterwards.
# Usage: bench/reliability.sh AERUN_BINARY [KILL_TRIALS]
set -euo pipefail
aerun=$(readlink -f "$1")
trials=${2:-50}
work=$(mktemp -d)
trap 'cd /; rm -rf "$work"' EXIT
seq_list() { seq -s ', ' 1 "$1"; }
procs_in() {  # processes whose working directory is $1, this script's own excepted
  local n=0 p
  for p in /proc/[0-9]*; do
    case "${p#/proc/}" in "$$" | "$BASHPID") continue ;; esac
    [ "$(readlink "$p/cwd" 2>/dev/null)" = "$1" ] && n=$((n + 1))
  done
  echo "$n"
}

# --- 1. concurrent writers ---
d="$work/writers"; mkdir -p "$d"; cd "$d"
printf 'case: same\nparams: {x: [%s]}\ncommand: echo same-{x} >> executions\n' "$(seq_list 1000)" >same.yaml
for i in 1 2 3 4 5 6 7 8; do
  printf 'case: own%s\nparams: {x: [%s]}\ncommand: echo own%s-{x} >> executions\n' "$i" "$(seq_list 1000)" "$i" >own$i.yaml
done
bad_rc=0
run_together() {  # runs "$@" (one aerun argument string each) at once; counts non-zero exits
  local pids=() i=0
  for a in "$@"; do
    # shellcheck disable=SC2086
    "$aerun" $a --no-progress </dev/null >"out.$i" 2>"err.$i" & pids+=($!); i=$((i + 1))
  done
  for p in "${pids[@]}"; do wait "$p" || bad_rc=$((bad_rc + 1)); done
}
start=$(date +%s.%N)
run_together "case same.yaml -j 1" "case same.yaml -j 2" "case same.yaml -j 3" "case same.yaml -j 4" \
             "case same.yaml -j 5" "case same.yaml -j 6" "case same.yaml -j 7" "case same.yaml -j 8"
run_together "case own1.yaml" "case own2.yaml -j 2" "case own3.yaml -j 3" "case own4.yaml -j 4" \
             "case own5.yaml" "case own6.yaml -j 2" "case own7.yaml -j 3" "case own8.yaml -j 4"
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
db=results/aerun.db
planned=9000
ok=$(sqlite3 "$db" "SELECT count(*) FROM runs WHERE status='ok'")
rows=$(sqlite3 "$db" "SELECT count(*) FROM runs")
dup_rows=$(sqlite3 "$db" "SELECT count(*) FROM (SELECT case_name, p.value FROM runs r JOIN run_params p \
  ON p.run_id=r.id GROUP BY case_name, p.value HAVING count(*) > 1)")
twice=$(sort executions | uniq -d | wc -l)
executed=$(sort -u executions | wc -l)
locked=$(cat err.* | grep -ci 'locked' || true)
echo "writers: 16 processes (8 on one 1,000-point case, then 8 on their own), $planned runs planned:" \
     "$rows rows, $ok ok, lost $((planned - ok)), duplicated rows $dup_rows, executed twice $twice," \
     "never executed $((planned - executed)), non-zero exits $bad_rc, 'database is locked' $locked" \
     "(${secs} s)"

# --- 2. kill -9 and resume ---
not_ok=0; ran_twice=0; strays=0; killed_running=0
for t in $(seq 1 "$trials"); do
  d="$work/kill/$t"; mkdir -p "$d/locks"; cd "$d"
  # flock: the lock goes with the last process holding it, however it ends.
  printf 'case: k\nparams: {x: [%s]}\ncommand: exec 9>locks/{x}; flock -n 9 || echo {x} >> twice; sleep 0.4; echo {x} >> done\n' \
    "$(seq_list 12)" >k.yaml
  "$aerun" case k.yaml -j 4 --no-progress </dev/null >out 2>err & pid=$!
  sleep "$(awk -v s="$t" 'BEGIN { srand(s); printf "%.2f", 0.2 + rand() * 1.2 }')"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  killed_running=$((killed_running + $(sqlite3 results/aerun.db "SELECT count(*) FROM runs WHERE status='running'" 2>/dev/null || echo 0)))
  "$aerun" case k.yaml -j 4 --no-progress </dev/null >out2 2>err2 || true
  sleep 0.5  # anything of the killed attempt that still ran would show now
  not_ok=$((not_ok + 12 - $(sqlite3 results/aerun.db "SELECT count(*) FROM runs WHERE status='ok'")))
  [ -f twice ] && ran_twice=$((ran_twice + $(wc -l <twice)))
  strays=$((strays + $(procs_in "$d")))
done
echo "kill -9: $trials trials (12-point case, -j 4, SIGKILL at 0.2-1.4 s, then resumed):" \
     "runs left running by the killed aerun $killed_running, points not ok after the resume $not_ok," \
     "points run twice at once $ran_twice, processes still running after the resume $strays"
