#!/usr/bin/env bash
# Writes the fuzz targets' seed corpora into DIR/<target>/ from the tests' own inputs: the shipped
# cases and hostile case files, the hostlist tests' lists, the cluster hostfile fixtures, command
# templates of the cases, and the fixture logs with the presets' metric patterns.
# Usage: fuzz/make_seeds.sh DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$1"
mkdir -p "$out"/{case_loader,hostlist,hostfile,templates,extractor}
n=0
for f in "$root"/cases/*/*.yaml "$root"/tests/fixtures/hostile/cases/*.yaml; do
  [[ $(stat -c %s "$f") -le 65536 ]] && cp "$f" "$out/case_loader/$((n++)).yaml"
done
grep -oh 'expand_hostlist("[^"]*")' "$root"/tests/unit/cluster/hostlist_test.cpp |
  sed 's/^expand_hostlist("//; s/")$//' | awk -v d="$out/hostlist" '{ printf "%s", $0 > (d "/" NR) }'
printf '2(x3),1' >"$out/hostlist/tasks"
cp "$root"/tests/fixtures/cluster/*hostfile* "$root"/tests/fixtures/cluster/*nodefile* "$out/hostfile/"
i=0
grep -h '^command:' "$root"/cases/*/*.yaml | sed 's/^command: *//' | sort -u | head -40 |
  while IFS= read -r c; do printf '%s\n1\nhello world\n' "$c" >"$out/templates/$((i++))"; done
printf '#!/bin/bash\n#SBATCH --job-name={{job_name}}\necho {{v0|q}} {{v1}}\n{{v2}}\nx\n$(id)\n' \
  >"$out/templates/job"
# extractor: a selector byte (odd: a pattern; even: literals), the pattern, NUL, a log.
j=0
for log in "$root"/tests/fixtures/logs/*.log; do
  for pat in 'elapsed time per iteration \(ms\): ([0-9.]+)' 'lm loss: ([0-9.Ee+-]+)' \
    'iteration\s+(\d+)/\s*\d+' 'SamplesPerSecond: ([0-9.]+)' "'loss': ([0-9.]+)"; do
    { printf "\\x$(printf %02x $(((j % 64) * 2 + 1)))"; printf '%s\0' "$pat"; head -c 4096 "$log"; } \
      >"$out/extractor/$((j++))"
  done
  { printf '\x00'; printf 'iteration\nlm loss\nCUDA out of memory\nTraceback\0'; head -c 4096 "$log"; } \
    >"$out/extractor/$((j++))"
done
echo "seeds in $out: $(find "$out" -type f | wc -l) files"
