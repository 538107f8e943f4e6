#!/usr/bin/env bash
# The demo, from a fresh Debian 12 machine: installs dependencies, builds the release preset,
# generates a 16-rank stencil run (and a second run of the same program to compare with), and
# shows what Rankscope finds in it. With a display it opens the Rankscope window on the demo
# traces; without one it renders the same views to PNG files and writes a text report
# (summary, profile, execution intervals) of the generated run and of a real Score-P trace.
# Everything is saved under build/demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target rankscope-cli rankscope

cli=./build/release/rankscope-cli
gui=./build/release/rankscope
out=build/demo
rm -rf "$out/stencil2d-16" "$out/stencil2d-16-slow" # the demo regenerates its traces each run
mkdir -p "$out"
real=../shared/traces/scorep84-npb-mg-W-8

"$cli" generate --pattern stencil2d --ranks 16 --iterations 40 --seed 7 -o "$out/stencil2d-16"
# The same program on a much slower network (100 us latency, 0.25 GB/s): what the comparison
# view is for.
"$cli" generate --pattern stencil2d --ranks 16 --iterations 40 --seed 7 --latency-ns 100000 \
    --bandwidth 2.5e8 -o "$out/stencil2d-16-slow"

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    traces=("$out/stencil2d-16" "$out/stencil2d-16-slow")
    [ -f "$real/traces.otf2" ] && traces+=("$real")
    exec "$gui" "${traces[@]}"
fi

{
    echo "### Generated: stencil2d, 16 ranks, 40 iterations"
    "$cli" info "$out/stencil2d-16"
    echo
    "$cli" profile "$out/stencil2d-16"
    echo
    "$cli" intervals "$out/stencil2d-16"
    if [ -f "$real/traces.otf2" ]; then
        echo
        echo "### Measured: NAS MG class W on 8 ranks (Score-P 8.4)"
        "$cli" info "$real"
        echo
        "$cli" intervals "$real" > "$out/mg-W-8-intervals.txt"
        head -25 "$out/mg-W-8-intervals.txt"
        echo "(all $(($(wc -l < "$out/mg-W-8-intervals.txt") - 3)) intervals in $out/mg-W-8-intervals.txt)"
        echo
        "$cli" waitstates "$real"
        echo
        "$cli" rootcause "$real"
    fi
} 2>&1 | tee "$out/report.txt"

"$gui" --screenshot "$out/timeline.png" --size 1600x1000 "$out/stencil2d-16"
"$gui" --screenshot "$out/compare.png" --size 1600x1000 --compare "$out/stencil2d-16" "$out/stencil2d-16-slow"
if [ -f "$real/traces.otf2" ]; then
    "$gui" --screenshot "$out/mg-W-8.png" --size 1600x1000 "$real"
    "$gui" --screenshot "$out/mg-W-8-waits.png" --size 1600x1000 --pane waits "$real"
    "$gui" --screenshot "$out/mg-W-8-causes.png" --size 1600x1000 --pane causes "$real"
fi
echo
echo "no display: views saved as PNG in $out/ (timeline.png, compare.png, mg-W-8*.png); report in $out/report.txt"
