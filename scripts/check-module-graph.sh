#!/usr/bin/env bash
# The module graph, checked (docs/architecture.md): every module's sources and public headers
# include only the public headers (include/aerun/<module>/) of modules CMakeLists.txt links it
# to, nobody includes another module's private headers (src/<module>/*.hpp), and every module
# dependency CMakeLists.txt declares is used. Exit 1 with a line per problem.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
status=0
modules=$( (ls -d src/*/ include/aerun/*/ | xargs -n1 basename) | sort -u)
# declared[m] = the aerun_<dep> names of `aerun_module(m ...)`, one line per module.
declared() {
  awk -v m="$1" '
    /^aerun_module\(/ { line = $0; while (line !~ /\)/ && (getline more) > 0) line = line " " more
      gsub(/[()]/, " ", line); n = split(line, w, /[ \t]+/)
      if (w[2] == m) for (i = 3; i <= n; i++) if (w[i] ~ /^aerun_/) { sub(/^aerun_/, "", w[i]); print w[i] } }
  ' CMakeLists.txt | sort -u
}
# The modules whose headers a module's files include (public "aerun/<x>/", private "<x>/").
for m in $modules; do
  files=$(ls src/"$m"/*.cpp src/"$m"/*.hpp include/aerun/"$m"/*.hpp 2>/dev/null || true)
  [ -n "$files" ] || continue
  used=$(grep -ho '#include "aerun/[a-z_]*/' $files | sed 's|#include "aerun/||; s|/$||' |
    grep -vx "$m" | sort -u || true)
  for x in $(grep -ho '#include "[a-z_]*/[a-z_0-9]*\.hpp"' $files | sed 's|#include "||; s|/.*||' | sort -u); do
    if [ "$x" != "$m" ] && [ "$x" != aerun ]; then
      echo "module $m includes a private header of module $x"
      status=1
    fi
  done
  want=$(declared "$m")
  for x in $used; do
    if ! grep -qx "$x" <<<"$want"; then
      echo "module $m includes aerun/$x/ but CMakeLists.txt does not link aerun_$x"
      status=1
    fi
  done
  for x in $want; do
    if ! grep -qx "$x" <<<"$used"; then
      echo "CMakeLists.txt links module $m to aerun_$x, which it never includes"
      status=1
    fi
  done
done
# Tests: a unit test of module m may include m's private headers, nobody else's.
for d in tests/unit/*/; do
  m=$(basename "$d")
  for x in $(grep -ho '#include "[a-z_]*/[a-z_0-9]*\.hpp"' "$d"*.cpp "$d"*.hpp 2>/dev/null |
    sed 's|#include "||; s|/.*||' | sort -u); do
    if [ "$x" != "$m" ] && [ "$x" != aerun ] && [ -d "src/$x" ]; then
      echo "tests/unit/$m includes a private header of module $x"
      status=1
    fi
  done
done
# Benchmarks measure a module's inner paths (the SIMD newline counter, Teddy) and may include them.
for f in tests/integration/*.cpp tests/integration/*.hpp; do
  [ -e "$f" ] || continue
  for x in $(grep -ho '#include "[a-z_]*/[a-z_0-9]*\.hpp"' "$f" | sed 's|#include "||; s|/.*||' | sort -u); do
    if [ "$x" != aerun ] && [ -d "src/$x" ]; then
      echo "$f includes a private header of module $x"
      status=1
    fi
  done
done
[ $status -eq 0 ] && echo "module graph: every include is a declared, public dependency"
exit $status
