#!/usr/bin/env bash
# A real, throw-away Slurm cluster on this host for the integration tests: one slurmctld, two slurmd
# "nodes" (n1, n2) each with 2 CPUs and 4 fake GPUs, and a private munged. Every file (config,
# state, spool, pid files, logs, munge socket) lives under DIR; nothing outside DIR is changed.
#
# Usage (root; Debian packages slurmctld slurmd slurm-client munge):
#   scripts/slurm-test-cluster.sh start DIR [OWNER_PID]   start, wait (bounded) until both nodes
#                                                         are idle; with OWNER_PID a watchdog stops
#                                                         the cluster once that process is gone
#   scripts/slurm-test-cluster.sh stop DIR                stop every daemon started for DIR
#   scripts/slurm-test-cluster.sh stop-ctld|start-ctld DIR
#                                 stop / restart (keeping its saved jobs) only slurmctld: the
#                                 "controller unreachable" fault
# After start, DIR/env holds `export SLURM_CONF=...` for the client commands (sbatch, squeue, ...).
# SLURM_TEST_EXTRA_CONF (lines of slurm.conf) is appended to the configuration at start.
# SLURM_TEST_CLUSTER_NAME names the cluster (ClusterName; default aeruntest): two clusters of
# different names, each started in its own DIR, stand for two systems (issue 41).
# SLURM_TEST_ACCOUNTING=1 adds accounting: a private MariaDB (mariadbd, its data, socket and log
# under DIR/db, a free TCP port on 127.0.0.1) and slurmdbd in front of it (docs/design/
# sacct-accounting.md), so that sacct answers; jobacct_gather/linux samples every second (MaxRSS).
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [[ -z "$cmd" || -z "$dir" ]]; then
  echo "usage: $0 start|stop DIR [OWNER_PID]" >&2
  exit 2
fi

# Closes every file descriptor above 2 of this (sub)shell: daemons must not inherit a caller's
# pipes, or a CI run waiting for that pipe never ends.
close_fds() {
  local fd
  for fd in /proc/$BASHPID/fd/*; do
    fd=${fd##*/}
    if ((fd > 2)); then eval "exec $fd>&-" 2>/dev/null || true; fi
  done
}

stop_pidfile() {  # SIGTERM, wait up to 15 s, then SIGKILL
  local f=$1 pid i
  [[ -s "$f" ]] || return 0
  pid=$(<"$f")
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 150; i++)); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$f"; return 0; }
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$f"
}

stop_cluster() {  # every daemon at once (SIGTERM), at most 10 s, then SIGKILL
  local f pid i pids=() files=()
  [[ -d "$dir" ]] || return 0
  for f in "$dir/watchdog.pid" "$dir"/run/slurmd-*.pid "$dir/run/slurmctld.pid" "$dir/run/port-holder.pid" \
           "$dir/run/slurmdbd.pid" "$dir/run/mysqld.pid" "$dir/munge/munged.pid"; do
    [[ -s "$f" ]] || continue
    pid=$(<"$f")
    [[ "$pid" =~ ^[0-9]+$ ]] || continue
    kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
    files+=("$f")
  done
  for ((i = 0; i < 100; i++)); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive)) || break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  rm -f "${files[@]}"
  if [[ -L "$dir/munge" ]]; then
    rm -rf -- "$(readlink "$dir/munge")"
    rm -f "$dir/munge"
  fi
  return 0
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

show_logs() {
  local f
  echo "slurm-test-cluster: start failed; daemon logs:" >&2
  for f in "$dir"/log/* "$dir"/munge/munged.log; do
    [[ -e "$f" ]] && { echo "==> $f <==" >&2; tail -n 40 "$f" >&2; }
  done
  return 0
}

# slurm.conf's accounting lines: none, or slurmdbd on $port_dbd with per-second sampling (the
# clients reach slurmdbd through the munged of AccountingStoragePass, slurm.conf(5)).
accounting_conf() {
  if [[ "${SLURM_TEST_ACCOUNTING:-}" == 1 ]]; then
    printf '%s\n' "AccountingStorageType=accounting_storage/slurmdbd" "AccountingStorageHost=localhost" \
      "AccountingStoragePort=$port_dbd" "AccountingStoragePass=$mdir/munge.socket" \
      "JobAcctGatherType=jobacct_gather/linux" \
      "JobAcctGatherFrequency=task=1"
  else
    printf '%s\n' "AccountingStorageType=accounting_storage/none" "JobAcctGatherType=jobacct_gather/none"
  fi
}

# A private MariaDB and slurmdbd for DIR (SLURM_TEST_ACCOUNTING=1); munged must be up. Waits until
# `sacctmgr list cluster` answers.
start_accounting() {
  local i port_db
  port_db=$(free_port)
  mkdir -p "$dir/db"
  mariadb-install-db --no-defaults --user=root --datadir="$dir/db/data" \
    --auth-root-authentication-method=socket --skip-test-db >"$dir/log/mariadb-install.log" 2>&1 || return 1
  (close_fds
   exec mariadbd --no-defaults --user=root --datadir="$dir/db/data" --socket="$dir/db/mysqld.sock" \
     --pid-file="$dir/run/mysqld.pid" --port="$port_db" --bind-address=127.0.0.1 \
     --log-error="$dir/log/mysqld.err" --innodb-buffer-pool-size=64M \
     --innodb-lock-wait-timeout=900) </dev/null >/dev/null 2>&1 &
  for ((i = 0; i < 300; i++)); do
    mariadb-admin --no-defaults --socket="$dir/db/mysqld.sock" -uroot ping >/dev/null 2>&1 && break
    sleep 0.1
  done
  mariadb --no-defaults --socket="$dir/db/mysqld.sock" -uroot -e "
    CREATE USER 'slurm'@'localhost' IDENTIFIED BY 'aerun'; CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'aerun';
    GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost'; GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';" \
    >>"$dir/log/mariadb-install.log" 2>&1 || return 1
  cat >"$dir/slurmdbd.conf" <<EOF
AuthType=auth/munge
AuthInfo=socket=$mdir/munge.socket
DbdHost=localhost
DbdPort=$port_dbd
SlurmUser=root
PidFile=$dir/run/slurmdbd.pid
LogFile=$dir/log/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$port_db
StorageUser=slurm
StoragePass=aerun
EOF
  chmod 600 "$dir/slurmdbd.conf"  # slurmdbd refuses any other mode
  (close_fds; exec /usr/sbin/slurmdbd) </dev/null >>"$dir/log/start.out" 2>&1 || true
  for ((i = 0; i < 300; i++)); do  # at most 30 s
    sacctmgr -n -P list cluster >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

start_cluster() {
  local host owner=${1:-} i port_ctld port1 port2 port_dbd
  host=$(hostname -s)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  mkdir -p "$dir"/{state,spool,run,log,tmp/n1,tmp/n2,gpu}
  for i in 0 1 2 3; do [[ -e "$dir/gpu/gpu$i" ]] || mknod "$dir/gpu/gpu$i" c 1 3; done
  # munged runs as the munge user, who may not enter DIR (a test's temp dir is 0700): its
  # socket, pid, log and seed go to a directory of its own, linked as DIR/munge, removed on stop.
  local mdir
  mdir=$(mktemp -d /tmp/aerun-munge-XXXXXX)
  chown munge:munge "$mdir"
  chmod 0711 "$mdir"
  ln -sfn "$mdir" "$dir/munge"
  port_ctld=$(free_port)
  port1=$(free_port)
  port2=$(free_port)
  port_dbd=$(free_port)

  cat >"$dir/slurm.conf" <<EOF
ClusterName=${SLURM_TEST_CLUSTER_NAME:-aeruntest}
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port_ctld
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$mdir/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
TmpFS=$dir/tmp/%n
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
$(accounting_conf)
JobCompType=jobcomp/none
MinJobAge=3600
EnforcePartLimits=ALL
MailProg=/bin/true
ReturnToService=2
SlurmdParameters=config_overrides
MpiDefault=none
KillWait=2
MessageTimeout=3
GresTypes=gpu
NodeName=n1 NodeHostname=$host NodeAddr=127.0.0.1 Port=$port1 CPUs=2 RealMemory=1000 Gres=gpu:4 State=UNKNOWN
NodeName=n2 NodeHostname=$host NodeAddr=127.0.0.1 Port=$port2 CPUs=2 RealMemory=1000 Gres=gpu:4 State=UNKNOWN
PartitionName=debug Nodes=n1,n2 Default=YES MaxTime=INFINITE State=UP
EOF
  # A test's own settings (e.g. MaxArraySize=4), one per line, after the defaults above.
  if [[ -n "${SLURM_TEST_EXTRA_CONF:-}" ]]; then printf '%s\n' "$SLURM_TEST_EXTRA_CONF" >>"$dir/slurm.conf"; fi
  cat >"$dir/gres.conf" <<EOF
AutoDetect=off
NodeName=n[1-2] Name=gpu File=$dir/gpu/gpu[0-3]
EOF
  echo "export SLURM_CONF=$dir/slurm.conf" >"$dir/env"
  export SLURM_CONF="$dir/slurm.conf"

  (close_fds
   exec runuser -u munge -- /usr/sbin/munged --force --socket="$mdir/munge.socket" \
     --pid-file="$mdir/munged.pid" --log-file="$mdir/munged.log" \
     --seed-file="$mdir/munged.seed") </dev/null >"$dir/log/munged.start" 2>&1 || true
  for ((i = 0; i < 100; i++)); do
    [[ -S "$mdir/munge.socket" ]] && break
    sleep 0.1
  done
  if ! munge -S "$mdir/munge.socket" -n </dev/null | unmunge -S "$mdir/munge.socket" >/dev/null; then
    show_logs
    stop_cluster
    return 1
  fi
  if [[ "${SLURM_TEST_ACCOUNTING:-}" == 1 ]] && ! start_accounting; then
    show_logs
    stop_cluster
    return 1
  fi
  (close_fds; exec /usr/sbin/slurmctld -c -f "$dir/slurm.conf") </dev/null >>"$dir/log/start.out" 2>&1 || true
  (close_fds; exec /usr/sbin/slurmd -f "$dir/slurm.conf" -N n1) </dev/null >>"$dir/log/start.out" 2>&1 || true
  (close_fds; exec /usr/sbin/slurmd -f "$dir/slurm.conf" -N n2) </dev/null >>"$dir/log/start.out" 2>&1 || true

  if [[ -n "$owner" ]]; then
    # The watchdog stops the cluster when the owner dies, however it dies (kill -9 included).
    (close_fds
     trap '' HUP
     while kill -0 "$owner" 2>/dev/null; do sleep 0.5; done
     rm -f "$dir/watchdog.pid"
     "$0" stop "$dir") </dev/null >/dev/null 2>&1 &
    echo $! >"$dir/watchdog.pid"
  fi

  for ((i = 0; i < 600; i++)); do  # at most 60 s
    if [[ "$(sinfo -h -N -o '%N %t' 2>/dev/null | grep -c ' idle$')" == 2 ]]; then
      echo "slurm-test-cluster: up in $dir (slurmctld port $port_ctld)"
      return 0
    fi
    sleep 0.1
  done
  sinfo -N -l >&2 || true
  show_logs
  stop_cluster
  return 1
}

# While slurmctld is stopped its port is held by a placeholder listener: test clusters pick free
# ports, and one starting meanwhile could otherwise take this port, so that squeue here would
# answer for the other cluster (its jobs, not these).
hold_ctld_port() {
  local port
  port=$(sed -n 's/^SlurmctldPort=//p' "$dir/slurm.conf")
  python3 -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", int(sys.argv[1]))); time.sleep(3600)' "$port" </dev/null >/dev/null 2>&1 &
  echo $! >"$dir/run/port-holder.pid"
}

stop_ctld() {
  stop_pidfile "$dir/run/slurmctld.pid"
  hold_ctld_port
}

start_ctld() {  # restart keeping the saved state (no -c), wait until it answers
  local i
  export SLURM_CONF="$dir/slurm.conf"
  stop_pidfile "$dir/run/port-holder.pid"
  (close_fds; exec /usr/sbin/slurmctld -f "$dir/slurm.conf") </dev/null >>"$dir/log/start.out" 2>&1 || true
  for ((i = 0; i < 600; i++)); do
    sinfo -h >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  show_logs
  return 1
}

case "$cmd" in
  start) start_cluster "${3:-}" ;;
  stop) stop_cluster ;;
  stop-ctld) stop_ctld ;;
  start-ctld) start_ctld ;;
  *) echo "usage: $0 start|stop DIR [OWNER_PID]" >&2; exit 2 ;;
esac
