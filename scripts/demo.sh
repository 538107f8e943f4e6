#!/usr/bin/env bash
# The demo, from a fresh Debian 12 machine: installs dependencies, builds the release preset,
# generates a 16-rank stencil run and shows what Rankscope finds in it (summary, profile,
# execution intervals), then does the same for a real Score-P trace when one is beside the
# checkout. Everything printed is also saved in build/demo/report.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target rankscope-cli

cli=./build/release/rankscope-cli
out=build/demo
rm -rf "$out/stencil2d-16"   # the demo regenerates its trace on every run
mkdir -p "$out"
{
    echo "### Generated: stencil2d, 16 ranks, 40 iterations"
    "$cli" generate --pattern stencil2d --ranks 16 --iterations 40 --seed 7 -o "$out/stencil2d-16"
    "$cli" info "$out/stencil2d-16"
    echo
    "$cli" profile "$out/stencil2d-16"
    echo
    "$cli" intervals "$out/stencil2d-16"

    real=../shared/traces/scorep84-npb-mg-W-8
    if [ -f "$real/traces.otf2" ]; then
        echo
        echo "### Measured: NAS MG class W on 8 ranks (Score-P 8.4)"
        "$cli" info "$real"
        echo
        "$cli" intervals "$real" > "$out/mg-W-8-intervals.txt"
        head -25 "$out/mg-W-8-intervals.txt"
        echo "(all $(($(wc -l < "$out/mg-W-8-intervals.txt") - 3)) intervals in $out/mg-W-8-intervals.txt)"
    fi
} 2>&1 | tee "$out/report.txt"
echo
echo "report saved to $out/report.txt"
