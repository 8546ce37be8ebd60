#!/usr/bin/env bash
# `cmake --install` gives a working aerun anywhere: binary, demo workload, templates found beside
# the binary (not in the source tree), docs, the man page and the bash completion.
# Usage: tests/install_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
prefix=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$prefix" "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/aerun bin/aerun-demo-train share/aerun/templates/slurm.sbatch \
         share/aerun/templates/pbs.sh share/doc/aerun/presets.md \
         share/bash-completion/completions/aerun share/aerun/case.schema.json share/aerun/systems/aurora.yaml; do
  [ -e "$prefix/$f" ] || fail "$f not installed"
done
if command -v help2man >/dev/null; then
  [ -s "$prefix/share/man/man1/aerun.1" ] || fail "no man page"
  grep -q 'ingest' "$prefix/share/man/man1/aerun.1" || fail "the man page lacks the subcommands"
fi

# The installed templates are the ones used: mark them and look for the mark in a job script.
echo '# installed-template-mark' >> "$prefix/share/aerun/templates/slurm.sbatch"
cat > "$work/c.yaml" <<'YAML'
case: inst
params: {x: [1]}
command: echo {x}
YAML
# The dry run writes the job script and prints its path.
script_of() { (cd "$work" && env -u AERUN_TEMPLATES "$1" case c.yaml --scheduler slurm --dry-run) | grep '\.sbatch$'; }
script=$(script_of "$prefix/bin/aerun")
grep -q 'installed-template-mark' "$script" || fail "the installed templates were not used: $script"
# Without an installed tree, the source tree's templates are used.
script=$(script_of "$build/aerun")
grep -q 'installed-template-mark' "$script" && fail "a build used an installed template"
# The installed system profiles are the ones listed (issue 41).
sed -i 's/^title: .*/title: "installed profile"/' "$prefix/share/aerun/systems/polaris.yaml"
(cd "$work" && env -u AERUN_SYSTEMS "$prefix/bin/aerun" systems --format json) | grep -q '"installed profile"' \
  || fail "the installed system profiles were not used"
# The installed completion, run by bash against the installed aerun, completes a subcommand.
words=$(cd "$work" && bash -c 'source "$1"; COMP_WORDS=("$2" ing); COMP_CWORD=1; _aerun; echo "${COMPREPLY[*]}"' \
  _ "$prefix/share/bash-completion/completions/aerun" "$prefix/bin/aerun")
[ "$words" = ingest ] || fail "the installed completion gave '$words' for 'aerun ing'"
echo "install test passed"
