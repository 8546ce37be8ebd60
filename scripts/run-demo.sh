#!/usr/bin/env bash
# Fresh Debian 12 machine -> the demo case run for real, stored, and its table printed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DAERUN_BUILD_TESTS=OFF >/dev/null
cmake --build build/release -j"$(nproc)"
cmake --install build/release --prefix /usr/local >/dev/null  # `aerun` on PATH from now on
status=0
aerun case cases/demo.yaml -j 2 --no-progress || status=$?
aerun table demo
exit "$status"
