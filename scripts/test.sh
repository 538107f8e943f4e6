#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine: installs dependencies, checks the layout
# (scripts/check-layout.sh), builds, runs every
# test in a normal build and again under the address and undefined-behaviour sanitizers, then
# runs each fuzz target for 40 s (scripts/fuzz.sh; the whole run stays well under an hour on
# 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
phase() { echo "=== [$(( $(date +%s) - start )) s] $*"; }
bash scripts/install-deps.sh
jobs=$(nproc)

phase "layout: layers, no Qt below views/, files of at most 600 lines"
bash scripts/check-layout.sh

for preset in dev asan; do
    phase "$preset: configure, build"
    cmake --preset "$preset" -DRANKSCOPE_WERROR=ON >/dev/null
    cmake --build --preset "$preset" -j "$jobs"
    phase "$preset: test"
    ctest --preset "$preset" -j "$jobs"
    if [ "$preset" = dev ]; then
        phase "dev: the installed package"
        bash scripts/check-install.sh dev
    fi
done

phase "fuzz: build, run each target for 40 s"
bash scripts/fuzz.sh 40
phase "done"
