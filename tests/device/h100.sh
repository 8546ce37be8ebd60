#!/usr/bin/env bash
# aerun itself on the device machine (one H100): GPU discovery, the torchrun launch line sized
# from it, runs of real training judged and stored, the environment record of a GPU host.
# Usage from the repository root there: bash tests/device/h100.sh OUTDIR (AERUN_BIN: the binary,
# built here on Debian 12; its libraries beside it in lib/).
set -u
out=$1
bin=${AERUN_BIN:-$PWD/.devcarry/aerun}
export LD_LIBRARY_PATH=$(dirname "$bin")/lib
export AERUN_SOURCE=$PWD
work=$(mktemp -d)
cd "$work"
{
  "$bin" --version
  nvidia-smi -L
  echo "== aerun env --launcher torchrun"; "$bin" env --launcher torchrun; echo "exit $?"
  echo "== aerun env --format json"; "$bin" env --format json; echo "exit $?"
  echo "== aerun case --dry-run"; "$bin" case "$AERUN_SOURCE/tests/device/h100.yaml" --dry-run; echo "exit $?"
  echo "== aerun case"; time "$bin" case "$AERUN_SOURCE/tests/device/h100.yaml"; echo "exit $?"
  echo "== aerun runs"; "$bin" runs
  for id in $(sqlite3 results/aerun.db 'select id from runs order by id' 2>/dev/null || seq 1 6); do
    echo "== aerun show $id"; "$bin" show "$id"
  done
  echo "== aerun show 1 --env"; "$bin" show 1 --env
} > "$out/h100.txt" 2>&1
cp results/aerun.db "$out/h100.db"
tar czf "$out/h100-logs.tar.gz" results/logs
