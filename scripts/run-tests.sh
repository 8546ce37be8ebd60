#!/usr/bin/env bash
# Fresh Debian 12 machine -> every test (unit and integration, CTest) built with clang and run
# under AddressSanitizer + UndefinedBehaviorSanitizer (float-cast-overflow included, every finding
# fatal) in build/sanitize, then each libFuzzer target of the same build for a bounded 15 s
# (scripts/run-fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test --sanitize
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build/sanitize -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" -DAERUN_SANITIZE=ON -DAERUN_FUZZ=ON \
  "${launcher[@]}" >/dev/null
cmake --build build/sanitize -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build/sanitize --output-on-failure -j"$(nproc)" --timeout 300
scripts/run-fuzz.sh --build build/sanitize --seconds 15
