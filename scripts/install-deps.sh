#!/usr/bin/env bash
# Installs Rankscope's build and test dependencies from Debian 12's packages (only the missing
# ones, so a second run is quick). Uses sudo when not run as root.
set -euo pipefail

packages=(
    g++ cmake ninja-build pkg-config
    qt6-base-dev qt6-svg-dev libgl-dev
    libotf2-trace-dev otf2-tools
    pajeng                        # pj_dump: the tests read the Paje export back with it
    libsimgrid-dev                # smpirun: simulate --engine simgrid and its tests
    libeigen3-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev
    libdtl-dev                    # sequence alignment (diff) in trace synthesis
    xvfb xauth fonts-dejavu-core  # a display for the GUI demo; fonts for offscreen rendering
    xdotool imagemagick           # the demo drives the window by keys and screenshots it
    dpkg-dev desktop-file-utils appstream  # the .deb (dpkg-shlibdeps) and its checks
    clang libclang-rt-14-dev      # the sanitizer build and the fuzz targets (libFuzzer)
    lld                           # a fast linker for the hundred-odd test executables
    clang-format                  # the format check (scripts/check-layout.sh)
    openmpi-bin libopenmpi-dev    # rankscope-mpi and its test (built only when MPI is found)
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
