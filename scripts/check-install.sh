#!/usr/bin/env bash
# Checks the installable application: builds the .deb of a preset's build (default dev, which
# scripts/test.sh has just built, so only the packaging is new work), unpacks it into a temporary
# root (dpkg-deb -x: no root needed) and runs the installed files from there, with the
# RANKSCOPE_RESOURCES override unset: rankscope-cli --version, two analyses of a bundled demo trace,
# a simulation on a bundled network spec found by name, the generated bash completion and man
# page, and the headless demo (every view of the guided tour rendered to PNG). Also checks that
# nothing installed refers to the source tree, and, where user namespaces are allowed, runs the
# installed programs with the source tree hidden under an empty folder. Exits non-zero on any
# failure.
#   scripts/check-install.sh [PRESET]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-dev}
build=build/$preset
src=$(pwd -P)
fail() { echo "check-install: FAILED: $*" >&2; exit 1; }

[ -f "$build/CMakeCache.txt" ] || cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
rm -rf "$build/package"
cpack --config "$build/CPackConfig.cmake" -B "$build/package"
debs=("$build"/package/rankscope_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "expected one rankscope_*.deb in $build/package"
deb=${debs[0]}
echo "=== $deb"
dpkg-deb --field "$deb" Package Version Architecture Maintainer Depends
# Every dependency is installed here (the package's Depends come from dpkg-shlibdeps).
apt-get install --simulate --no-install-recommends "./$deb" >/dev/null ||
    fail "the package's dependencies do not resolve (apt-get --simulate)"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
echo "=== installed files (under $root)"
(cd "$root" && find . -path ./usr/share/rankscope/demo/traces -prune -o -print | sort)
echo "(and $(find "$root/usr/share/rankscope/demo/traces" -type f | wc -l) files of demo traces)"

# Nothing installed may name the source folder (a compiled-in path, a link into the checkout).
if grep -rlF "$src" "$root"; then fail "the files above refer to the source tree $src"; fi
if [ -n "$(find "$root" -type l)" ]; then fail "links in the package: $(find "$root" -type l)"; fi
for f in usr/bin/rankscope usr/bin/rankscope-cli usr/share/rankscope/networks/ib-switch.yaml \
    usr/share/rankscope/demo/demo.rsession usr/share/man/man1/rankscope-cli.1 \
    usr/share/bash-completion/completions/rankscope-cli \
    usr/share/applications/org.rankscope.rankscope.desktop \
    usr/share/icons/hicolor/scalable/apps/org.rankscope.rankscope.svg \
    usr/share/metainfo/org.rankscope.rankscope.metainfo.xml; do
    [ -f "$root/$f" ] || fail "$f is not in the package"
done
desktop-file-validate "$root/usr/share/applications/org.rankscope.rankscope.desktop"
appstreamcli validate --no-net "$root/usr/share/metainfo/org.rankscope.rankscope.metainfo.xml"

# The runs, from the installed files only; a function so that it can run in a namespace where
# the source tree is hidden.
run_installed() {
    set -euo pipefail
    local root=$1 bin=$1/usr/bin share=$1/usr/share/rankscope
    local out=$root/tmp-check
    local trace=$share/demo/traces/casita-mpi-late-sender-barrier-4r
    mkdir -p "$out"
    cd "$out"
    unset RANKSCOPE_RESOURCES
    echo "=== rankscope-cli --version"
    "$bin/rankscope-cli" --version
    echo "=== rankscope-cli info (a bundled demo trace)"
    "$bin/rankscope-cli" info "$trace"
    echo "=== rankscope-cli waitstates"
    "$bin/rankscope-cli" waitstates "$trace"
    echo "=== rankscope-cli simulate --network ib-switch (a bundled spec, by name)"
    "$bin/rankscope-cli" simulate "$share/demo/traces/stencil2d-16" --network ib-switch
    echo "=== bash completion"
    # shellcheck disable=SC1091
    source "$root/usr/share/bash-completion/completions/rankscope-cli"
    COMP_WORDS=(rankscope-cli sim)
    COMP_CWORD=1
    _rankscope_cli
    [ "${COMPREPLY[*]}" = simulate ] || { echo "completing 'sim': ${COMPREPLY[*]}"; return 1; }
    COMP_WORDS=(rankscope-cli generate --pattern stencil)
    COMP_CWORD=3
    _rankscope_cli
    [ "${COMPREPLY[*]}" = "stencil2d stencil3d" ] ||
        { echo "completing 'generate --pattern stencil': ${COMPREPLY[*]}"; return 1; }
    echo "sim -> simulate; generate --pattern stencil -> ${COMPREPLY[*]}"
    echo "=== man page"
    local man=$root/usr/share/man/man1/rankscope-cli.1
    grep -q '^\.TH RANKSCOPE' "$man" ||
        { echo "rankscope-cli.1 has no .TH header"; return 1; }
    echo "$(grep -c '^\.SS' "$man") commands, $(grep -c '^\.TP' "$man") entries"
    if command -v man >/dev/null; then man -l "$man" >/dev/null 2>&1 || { echo "man -l failed"; return 1; }; fi
    echo "=== rankscope --demo --screenshot-dir (headless)"
    QT_QPA_PLATFORM=offscreen "$bin/rankscope" --demo --screenshot-dir "$out/views"
    local n
    n=$(find "$out/views" -name '*.png' | wc -l)
    [ "$n" -gt 0 ] || { echo "the demo wrote no views"; return 1; }
    echo "the demo wrote $n views"
}
export -f run_installed

# Hide the source tree (an empty tmpfs over it, in a private mount namespace) when the machine
# allows unprivileged user namespaces; otherwise the grep above is the check.
if unshare --user --map-root-user --mount true 2>/dev/null; then
    echo "=== running the installed files with $src hidden"
    SRC=$src ROOT=$root unshare --user --map-root-user --mount bash -c \
        'mount -t tmpfs none "$SRC" && [ ! -e "$SRC/resources" ] && run_installed "$ROOT"' ||
        fail "a run from the installed files"
else
    echo "=== running the installed files (no user namespaces here: the source tree stays visible)"
    bash -c 'run_installed "$0"' "$root" || fail "a run from the installed files"
fi
echo "check-install: OK ($deb)"
