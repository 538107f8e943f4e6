#!/usr/bin/env bash
# Builds the libFuzzer targets (the fuzz preset: clang with the fuzzer, address and
# undefined-behaviour sanitizers) and runs each for SECONDS (default 60) from its seeds: the
# checked-in ones in fuzz/corpus/<target>/ and those made here from the bundled network specs,
# the demo session and real OTF2 traces (../shared/traces when present, and the demo's).
# Exits non-zero when a target finds a crash, hang, leak or sanitizer report; the input that
# did it is kept as build/fuzz/run/<target>-crash-* (or -timeout-, -leak-, -oom-; build/asan/run/
# with FUZZ_PRESET=asan).
#
#   bash scripts/fuzz.sh [SECONDS [TARGET...]]     # TARGET: otf2import paraverimport pajeimport tiimport
#                                                  #         networkspec session scenario
#   FUZZ_RUNS=1000000 bash scripts/fuzz.sh 1800 networkspec   # stop at 10^6 executions
#   build/fuzz/fuzz_otf2import build/fuzz/run/<target>-crash-...   # replay one finding
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(otf2import paraverimport pajeimport tiimport rsum networkspec session scenario)
runs=()
[ -n "${FUZZ_RUNS:-}" ] && runs=(-runs="$FUZZ_RUNS")
shared=../shared/traces

# FUZZ_PRESET=asan uses the sanitizer build, whose libraries carry the fuzzers' coverage
# instrumentation too (scripts/test.sh: one build of the libraries instead of two).
preset=${FUZZ_PRESET:-fuzz}
build=build/$preset
cmake --preset "$preset" >/dev/null
cmake --build "$build" --target rankscope_fuzzers -j "$(nproc)"

run=$build/run
rm -rf "$run"
mkdir -p "$run"

# An OTF2 archive packed as fuzz_otf2import reads it: an option byte, then for each file the
# marker \xf0RSF, the file's number (0 anchor, 1 global definitions, 2+2k / 3+2k the local
# definitions / events of location k) and its bytes.
pack_otf2() {
    local dir=$1 out=$2 options=$3 f k
    emit() { printf '\xf0RSF'; printf "\\x$(printf %02x "$1")"; cat "$2"; }
    {
        printf "\\x$options"
        emit 0 "$dir/traces.otf2"
        emit 1 "$dir/traces.def"
        for f in "$dir"/traces/*.def; do
            k=$(basename "$f" .def)
            [ "$k" -le 126 ] 2>/dev/null || continue
            emit $((2 + 2 * k)) "$f"
            [ -f "$dir/traces/$k.evt" ] && emit $((3 + 2 * k)) "$dir/traces/$k.evt"
        done
    } >"$out"
}

seeds=$run/seeds
mkdir -p "$seeds"/{otf2import,paraverimport,pajeimport,tiimport,networkspec,session,scenario}
for t in casita-mpi-late-sender-barrier-4r casita-mpi-tags-10r pipit-ping-pong-2r \
         pipit-ping-pong-papi-2r tracer-stencil4d-32r; do
    [ -f "$shared/$t/traces.otf2" ] && pack_otf2 "$shared/$t" "$seeds/otf2import/$t" 00
done
for t in casita-mpi-late-sender-barrier-4r stencil2d-9; do
    pack_otf2 "resources/demo/traces/$t" "$seeds/otf2import/demo-$t" 00
    pack_otf2 "resources/demo/traces/$t" "$seeds/otf2import/demo-$t-partial-2threads" 03
done
# Paraver traces as fuzz_paraverimport reads them: the .prv, then "%%PCF%%" and its .pcf.
for f in tests/data/paraver/*.prv tests/data/paraver/*.prv.gz; do
    pcf=${f%.gz}
    pcf=${pcf%.prv}.pcf
    if [ -f "$pcf" ] && [ "${f%.gz}" = "$f" ]; then
        { cat "$f"; printf '\n%%%%PCF%%%%\n'; cat "$pcf"; } >"$seeds/paraverimport/$(basename "$f")"
    else
        cp "$f" "$seeds/paraverimport/"
    fi
done
# Paje traces: SimGrid's, and the export of the demo trace when the dev build's CLI is there.
cp tests/data/paje/*.paje "$seeds/pajeimport/"
cli=""
for b in build/ci build/dev; do [ -x "$b/rankscope-cli" ] && cli=$b/rankscope-cli && break; done
if [ -n "$cli" ]; then
    "$cli" convert resources/demo/traces/casita-mpi-late-sender-barrier-4r \
        -o "$seeds/pajeimport/demo.paje" >/dev/null 2>&1 || true
fi
# TI traces as fuzz_tiimport reads them: the rank files one after the other, "%%RANK%%" between.
for f in tests/data/ti/*.ti; do
    first=1
    while IFS= read -r name; do
        [ -n "$name" ] || continue
        [ $first = 1 ] || printf '%%%%RANK%%%%\n'
        first=0
        cat "$(dirname "$f")/$name"
    done <"$f" >"$seeds/tiimport/$(basename "$f" .ti)"
done
for f in resources/networks/*.yaml tests/data/networks/*.yaml; do
    cp "$f" "$seeds/networkspec/"
done
# The same specs with one --set override each (after a 0x01 byte).
printf '\x01links.hdr.latency=2us' | cat resources/networks/ib-switch.yaml - \
    >"$seeds/networkspec/ib-switch-set"
printf '\x01networks.0.topology=ring' | cat resources/networks/hybrid-tca-ib.yaml - \
    >"$seeds/networkspec/hybrid-set"
cp resources/demo/demo.rsession "$seeds/session/"
cp resources/demo/demo.rsession "$seeds/scenario/"

# OTF2_Reader_Open keeps a file descriptor open each time it rejects an anchor file (see
# tests/lsan-libotf2.supp): allow as many as the system does. A damaged anchor file can make
# libotf2 ask for tens of GB for a chunk buffer; it copes with a refusal, so the sanitizer
# refuses allocations over 2 GB instead of reporting them.
ulimit -n "$(ulimit -Hn)"
# Each input's files go to a fresh folder: in memory where there is a tmpfs.
[ -w /dev/shm ] && export TMPDIR=/dev/shm

status=0
for target in "${targets[@]}"; do
    [ -x "$build/fuzz_$target" ] || { echo "no fuzz target $target in $build" >&2; exit 2; }
    echo "=== fuzz_$target: $seconds s${FUZZ_RUNS:+ or $FUZZ_RUNS executions}"
    corpus=$run/corpus-$target
    mkdir -p "$corpus"
    log=$run/$target.log
    # Only the seed folders that exist: a target may have no checked-in seeds, and libFuzzer
    # refuses a corpus folder that is missing.
    dirs=("$corpus")
    for d in "fuzz/corpus/$target" "$seeds/$target"; do
        [ -d "$d" ] && dirs+=("$d")
    done
    # fuzz_otf2import: libotf2 leaks on damaged input in more places than tests/lsan-libotf2.supp
    # names, and without frame pointers LeakSanitizer cannot name them (unwinding fully on malloc
    # would, but made one input run 40 s in OTF2_AnchorFile_Load). So its fuzzing ignores leaks
    # whose allocation has a libotf2 frame; Rankscope's own allocations outside OTF2's callbacks
    # are still checked, and the asan test suite checks the importer with the named list only.
    supp=$PWD/tests/lsan-libotf2.supp
    if [ "$target" = otf2import ]; then
        supp=$run/lsan-otf2import.supp
        { cat tests/lsan-libotf2.supp; echo "leak:libopen-trace-format2.so"; } >"$supp"
    fi
    # libFuzzer should stop an input after -timeout, yet a target once ran on for half an hour (an
    # input whose YAML aliases expanded to 10^11 nodes) and held CI past its limit: a target is
    # also stopped from outside, 5 minutes after its time, and that fails like any finding.
    if LSAN_OPTIONS="suppressions=$supp:print_suppressions=0" \
        ASAN_OPTIONS="allocator_may_return_null=1:max_allocation_size_mb=2048" \
        timeout --kill-after=30 "$((seconds + 300))" \
        "$build/fuzz_$target" -max_total_time="$seconds" "${runs[@]}" -timeout=30 -rss_limit_mb=2048 \
        -malloc_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$run/$target-" \
        "${dirs[@]}" >"$log" 2>&1; then
        grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$log" || true
    else
        status=1
        echo "fuzz_$target FAILED (log: $log):"
        # The sanitizer's or libFuzzer's report; the log's end when neither wrote one.
        excerpt=$(grep -E -A30 \
            '^==[0-9]+== ?ERROR|^ERROR|runtime error:|^SUMMARY|deadly signal|Test unit written' \
            "$log" | head -80 || true)
        if [ -n "$excerpt" ]; then echo "$excerpt"; else tail -20 "$log"; fi
    fi
done
exit $status
