#!/usr/bin/env bash
# The libFuzzer targets (fuzz/: case loader, host lists, hostfiles, command and job-script
# templates, log extractor against RE2), built with clang, ASan and UBSan in build/fuzz and run
# from seed corpora made of the tests' inputs (fuzz/make_seeds.sh).
# Usage: scripts/run-fuzz.sh [--seconds N] [--build DIR]
#   --seconds N  each of the 5 targets runs N seconds (default 15)
#   --build DIR  use the fuzz targets of a build already configured with -DAERUN_FUZZ=ON
#                (scripts/run-tests.sh passes build/sanitize); default: build/fuzz, made here
# Findings (crash-*, leak-*, timeout-*, oom-*) are kept in DIR/fuzz-findings/<target>/ and the
# script fails; the corpus each run grows stays in DIR/fuzz-corpus/<target>/ for the next run.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=15 build=
while (($#)); do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    *) echo "usage: $0 [--seconds N] [--build DIR]" >&2; exit 2 ;;
  esac
done
scripts/install-deps.sh --sanitize
if [[ -z "$build" ]]; then
  build=build/fuzz
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" -DAERUN_SANITIZE=ON -DAERUN_FUZZ=ON \
    -DAERUN_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
fi
cmake --build "$build" --target fuzz_targets -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
seeds=$build/fuzz-seeds
rm -rf "$seeds" && bash fuzz/make_seeds.sh "$seeds" >/dev/null
for t in case_loader hostlist hostfile templates extractor; do
  corpus=$build/fuzz-corpus/$t findings=$build/fuzz-findings/$t log=$build/fuzz-$t.log
  mkdir -p "$corpus" "$findings"
  # -timeout: an input taking over 10 s is a finding (a hang); -rss_limit_mb: so is 2 GB of memory.
  if ! "$build/fuzz/fuzz_$t" "$corpus" "$seeds/$t" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$findings/" -print_final_stats=1 \
    2>"$log"; then
    tail -40 "$log"
    echo "fuzz_$t found a problem: $(ls "$findings")" >&2
    exit 1
  fi
  printf 'fuzz_%s: %s s, %s inputs run, corpus %s\n' "$t" "$seconds" \
    "$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")" "$(ls "$corpus" | wc -l)"
done
