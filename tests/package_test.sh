#!/usr/bin/env bash
# `cpack -G DEB` builds an aerun .deb: its control file names the shared libraries it needs as
# dependencies, and its files, unpacked into a scratch root (dpkg -x: no container, no install on
# this machine), hold a working aerun with its templates, docs, man page and bash completion.
# Usage: tests/package_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

(cd "$build" && cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log"; fail "cpack"; }
deb=$(ls "$out"/aerun_*.deb)
[ -n "$deb" ] || fail "no aerun_*.deb in $out"
info=$(dpkg-deb -I "$deb")
echo "$info" | grep -q '^ Package: aerun$' || fail "package name: $info"
depends=$(echo "$info" | sed -n 's/^ Depends: //p')
for lib in libsqlite3-0 libyaml-cpp0.7 libfmt9 libre2-9 libssl3 libstdc++6 libc6 bash; do
  [[ $depends == *"$lib"* ]] || fail "Depends lacks $lib: $depends"
done
root="$out/root"
dpkg -x "$deb" "$root"
for f in usr/bin/aerun usr/bin/aerun-demo-train usr/share/aerun/templates/slurm.sbatch \
         usr/share/aerun/templates/pbs.sh usr/share/doc/aerun/case-format.md \
         usr/share/bash-completion/completions/aerun usr/share/aerun/case.schema.json; do
  [ -e "$root/$f" ] || fail "$f is not in the package"
done
if command -v help2man >/dev/null; then
  [ -s "$root/usr/share/man/man1/aerun.1" ] || fail "no man page in the package"
fi
"$root/usr/bin/aerun" --version | grep -q . || fail "the packaged aerun does not run"
# The packaged aerun finds the packaged templates (beside it, ../share/aerun/templates).
work="$out/work"
mkdir -p "$work"
printf 'case: pkg\nparams: {x: [1]}\ncommand: echo {x}\n' > "$work/c.yaml"
echo '# packaged-template-mark' >> "$root/usr/share/aerun/templates/slurm.sbatch"
script=$(cd "$work" && env -u AERUN_TEMPLATES "$root/usr/bin/aerun" case c.yaml --scheduler slurm --dry-run | grep '\.sbatch$')
grep -q 'packaged-template-mark' "$script" || fail "the packaged templates were not used"
echo "package test passed: $(basename "$deb"), Depends: $depends"
