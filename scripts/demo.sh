#!/usr/bin/env bash
# The demo, from a fresh Debian 12 machine: installs dependencies, builds the release preset and
# opens Rankscope on the bundled demo session (resources/demo/) with its guided tour. Without a
# display it runs the tour headless instead (every view of it as PNG in build/demo/views/), and
# adds the views of a generated 16-rank stencil run and a text report (summary, profile,
# execution intervals, wait states) of it and of a real Score-P trace, then drives the real
# window on a virtual X server with xdotool and screenshots it. Output: build/demo/.
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
real=resources/demo/traces/casita-mpi-late-sender-barrier-4r

"$cli" generate --pattern stencil2d --ranks 16 --iterations 40 --seed 7 -o "$out/stencil2d-16"
# The same program on a much slower network (100 us latency, 0.25 GB/s): what the comparison
# view is for.
"$cli" generate --pattern stencil2d --ranks 16 --iterations 40 --seed 7 --latency-ns 100000 \
    --bandwidth 2.5e8 -o "$out/stencil2d-16-slow"

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    exec "$gui" --demo
fi

{
    echo "### Generated: stencil2d, 16 ranks, 40 iterations"
    "$cli" info "$out/stencil2d-16"
    echo
    "$cli" profile "$out/stencil2d-16"
    echo
    "$cli" intervals "$out/stencil2d-16"
    echo
    "$cli" commmatrix "$out/stencil2d-16"
    if [ -f "$real/traces.otf2" ]; then
        echo
        echo "### Measured: a late sender and a barrier on 4 ranks (CASITA test trace, Score-P 1.3)"
        "$cli" info "$real"
        echo
        "$cli" intervals "$real" > "$out/real-intervals.txt"
        head -25 "$out/real-intervals.txt"
        echo "(all $(($(wc -l < "$out/real-intervals.txt") - 3)) intervals in $out/real-intervals.txt)"
        echo
        "$cli" waitstates "$real"
        echo
        "$cli" rootcause "$real"
    fi
} 2>&1 | tee "$out/report.txt"

"$gui" --screenshot "$out/timeline.png" --size 1600x1000 "$out/stencil2d-16"
"$gui" --screenshot "$out/compare.png" --size 1600x1000 --compare "$out/stencil2d-16" "$out/stencil2d-16-slow"
"$gui" --screenshot "$out/commmatrix.png" --size 1600x1000 --pane matrix "$out/stencil2d-16"
rm -rf "$out/views"
"$gui" --demo --screenshot-dir "$out/views"

# The real window on a virtual X server, driven by keys (scripts/xvfb-drive.sh: zoom, Back, Find,
# the Bookmarks panel and menu, Ctrl+Q) over a session of the generated run with two bookmarks;
# skipped with a message when Xvfb, xdotool or ImageMagick is missing.
cat > "$out/xvfb.rsession" <<'SESSION'
rankscope_session: 1
traces: [stencil2d-16]
view: {ranges: {stencil2d-16: [5.0e7, 1.1e8]}}
bookmarks:
  stencil2d-16:
    - {name: two iterations, begin: 6.0e7, end: 7.5e7}
    - {name: start-up (MPI_Init), begin: 0, end: 4.0e6}
SESSION
rm -rf "$out/xvfb"
bash scripts/xvfb-drive.sh "$gui" "$out/xvfb.rsession" "$out/xvfb"
echo
echo "no display: the guided tour's views are in $out/views/, the generated run's in $out/ (timeline.png, compare.png, commmatrix.png), the keyboard-driven window's in $out/xvfb/; report in $out/report.txt"
