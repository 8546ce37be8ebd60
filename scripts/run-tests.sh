#!/usr/bin/env bash
# Fresh Debian 12 machine -> every test (unit and integration, CTest) built and run under
# AddressSanitizer + UndefinedBehaviorSanitizer (float-cast-overflow included: GCC's `undefined`
# leaves it out; every finding fatal), then each libFuzzer target for a bounded 15 s
# (scripts/run-fuzz.sh: clang, build/fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test --sanitize
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1" \
  -DAERUN_SANITIZE=ON "${launcher[@]}" >/dev/null
cmake --build build/test -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build/test --output-on-failure -j"$(nproc)" --timeout 300
scripts/run-fuzz.sh --seconds 15
