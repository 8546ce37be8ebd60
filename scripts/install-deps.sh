#!/usr/bin/env bash
# Installs the Debian 12 packages aerun builds and runs with (root; apt-get).
# Usage: scripts/install-deps.sh [--test] [--sanitize]   (--test adds what the test suite needs,
# --sanitize clang and its sanitizer and libFuzzer runtimes for scripts/run-sanitized.sh)
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config git ca-certificates
      libyaml-cpp-dev libsqlite3-dev sqlite3
      libfmt-dev libcli11-dev libre2-dev libmuparserx-dev libssl-dev nlohmann-json3-dev zlib1g-dev
      gnuplot-nox help2man)
if [[ " $* " == *" --test "* ]]; then
  pkgs+=(libgtest-dev libgmock-dev googletest gnuplot-nox chromium tmux slurmctld slurmd slurm-client munge libpmix2
        slurmdbd mariadb-server  # accounting: sacct against a real slurmdbd (SLURM_TEST_ACCOUNTING=1)
        mpich openmpi-bin libmpich-dev libopenmpi-dev python3-jsonschema python3-yaml
        file  # file: CPack's DEB generator reads the binaries' dependencies with it
        podman runc busybox-static  # containers: a local image from a busybox tarball (podman import)
        lmod)  # a system profile's module lines, loaded for real (environment-modules conflicts with it)
fi
if [[ " $* " == *" --sanitize "* ]]; then
  pkgs+=(clang libclang-rt-14-dev llvm)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
