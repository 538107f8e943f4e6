#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine: installs dependencies, checks the layout
# (scripts/check-layout.sh), builds, runs every
# test in a normal build (GCC; the `ci` preset: `dev` without debug info), checks the installed
# package and runs the performance gate on it (scripts/perf-gate.sh: ratios against
# bench/thresholds.yaml), then runs every test again under the address and undefined-behaviour sanitizers
# (clang), then runs each fuzz target for 30 s from that sanitizer build (scripts/fuzz.sh with
# FUZZ_PRESET=asan: its libraries carry the fuzzers' coverage instrumentation, so they are built
# once). Each phase's start is printed with the seconds elapsed; CI allows 90 minutes, keep it
# under 75 on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
phase() { echo "=== [$(( $(date +%s) - start )) s] $*"; }
bash scripts/install-deps.sh
jobs=$(nproc)

phase "layout: layers, no Qt below views/, files of at most 600 lines"
bash scripts/check-layout.sh

for preset in ci asan; do
    phase "$preset: configure, build"
    cmake --preset "$preset" -DRANKSCOPE_WERROR=ON >/dev/null
    cmake --build --preset "$preset" -j "$jobs"
    phase "$preset: test"
    ctest --preset "$preset" -j "$jobs"
    if [ "$preset" = ci ]; then
        phase "ci: the installed package"
        bash scripts/check-install.sh ci
        phase "ci: performance gate (ratios against bench/thresholds.yaml)"
        bash scripts/perf-gate.sh ci
    fi
done

phase "fuzz: run each target for 30 s (the asan build's fuzz targets)"
FUZZ_PRESET=asan bash scripts/fuzz.sh 30
phase "done"
