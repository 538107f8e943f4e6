#!/usr/bin/env bash
# The performance gate: short versions of the benchmarks (bench/perfgate*.cpp) whose figures are
# ratios measured in the same run (the import against the decoding floor on the same file; the
# LogGP, flow and packet replays, the wait-state analysis and a real extrapolation against a fixed
# reference loop; timeline frames against a reference paint), compared with bench/thresholds.yaml.
# A ratio worse than its threshold by more than the run's measured noise (half the range of its
# samples, relative to their median) fails, printing the figure and the threshold.
#
# Usage: bash scripts/perf-gate.sh [PRESET]      (default: ci; builds the gate if it is missing)
# Environment: PERF_GATE_REPEAT (samples per ratio, default 7), PERF_GATE_ARGS (more options,
# e.g. "--case import --json").
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-ci}
build=build/$preset
if [ ! -x "$build/rankscope-perf-gate" ]; then
    cmake --build --preset "$preset" --target rankscope-perf-gate
fi
# shellcheck disable=SC2086 # PERF_GATE_ARGS is a list of options
exec "$build/rankscope-perf-gate" --thresholds bench/thresholds.yaml --data "$build/bench-data" \
    --repeat "${PERF_GATE_REPEAT:-7}" ${PERF_GATE_ARGS:-}
