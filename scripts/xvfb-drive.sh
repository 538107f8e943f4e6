#!/usr/bin/env bash
# Drives the real Rankscope window under a virtual X server, as a user at a keyboard would:
# starts `rankscope --session SESSION` on a private Xvfb display (1920x1080), waits for the
# window, presses shortcuts with xdotool (zoom in, Back, Find with a query, the next occurrence,
# the Bookmarks panel, a jump to a bookmark from the Bookmarks menu and Back), takes screenshots of the whole screen with ImageMagick's
# `import`, checks that the process is still alive, then presses Ctrl+Q and checks that it exits
# cleanly (status 0) within 20 s. No window manager runs: the window is never "active", so this
# also checks that the shortcuts work without one.
#
#   scripts/xvfb-drive.sh RANKSCOPE SESSION OUTDIR
#
# Writes OUTDIR/xvfb-1-loaded.png, -2-find.png and -3-bookmarks.png and OUTDIR/xvfb.log (the
# application's output). Skips (status 0, with a message) when Xvfb, xdotool or import is not
# installed; any other failure is status 1 with the reason.
set -euo pipefail

gui=${1:?usage: xvfb-drive.sh RANKSCOPE SESSION OUTDIR}
session=${2:?usage: xvfb-drive.sh RANKSCOPE SESSION OUTDIR}
out=${3:?usage: xvfb-drive.sh RANKSCOPE SESSION OUTDIR}

missing=()
for tool in Xvfb xdotool import; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "xvfb-drive: skipped: ${missing[*]} not installed (apt-get install xvfb xdotool" \
        "imagemagick; scripts/install-deps.sh does)"
    exit 0
fi

mkdir -p "$out"
fail() {
    echo "xvfb-drive: FAILED: $*" >&2
    [ -s "$out/xvfb.log" ] && sed 's/^/  rankscope: /' "$out/xvfb.log" >&2
    exit 1
}

# A display number no other X server holds.
display=
for n in $(seq 97 140); do
    if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then
        display=":$n"
        break
    fi
done
[ -n "$display" ] || fail "no free X display number in :97-:140"

xvfb_pid=
app_pid=
cleanup() {
    [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap cleanup EXIT

Xvfb "$display" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
export DISPLAY=$display
for _ in $(seq 50); do
    xdotool getmouselocation >/dev/null 2>&1 && break
    sleep 0.1
done
xdotool getmouselocation >/dev/null 2>&1 || fail "Xvfb did not start on $display"

# Its own settings and autosave folder, so a user's recent files and layout stay untouched and
# no earlier crash is offered back.
scratch=$(mktemp -d)
XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_RUNTIME_DIR="$scratch" \
    QT_QPA_PLATFORM=xcb "$gui" --session "$session" --size 1920x1080 >"$out/xvfb.log" 2>&1 &
app_pid=$!

alive() { kill -0 "$app_pid" 2>/dev/null; }
shot() {
    import -display "$display" -window root "$out/$1"
    echo "xvfb-drive: $out/$1"
}
# Waits until a window whose title matches $1 shows (or the application ends).
await_window() {
    for _ in $(seq 300); do
        alive || fail "rankscope ended while waiting for a window named '$1'"
        xdotool search --onlyvisible --name "$1" 2>/dev/null | head -1 && return 0
        sleep 0.2
    done
    fail "no window named '$1' within 60 s"
}
key() {
    alive || fail "rankscope ended before the keys $*"
    xdotool key --clearmodifiers "$@"
    sleep 0.4
}

# The session's trace tab is current once loaded: its name is in the title.
window=$(await_window " — Rankscope")
xdotool windowfocus --sync "$window" 2>/dev/null || true
xdotool mousemove --window "$window" 30 400 # over the rank labels: no tooltip in the shots
sleep 1
shot xvfb-1-loaded.png

key plus plus          # zoom in twice around the centre
key alt+Left           # Back: one zoom step undone
key ctrl+f             # Find: the bar over the timeline takes the keys
xdotool type --delay 30 "MPI_Allreduce"
key Return F3          # first occurrence, then the next one in time
key Escape
shot xvfb-2-find.png

key ctrl+shift+b       # the Bookmarks panel: the session's bookmarks
key alt+b              # the Bookmarks menu: Add, Panel, (Undo, Redo disabled), the bookmarks
key Down Down Return   # the first bookmark: its range becomes a step of the zoom history
sleep 0.5
shot xvfb-3-bookmarks.png
key alt+Left           # Back to where the view was before the jump

alive || fail "rankscope is not running after the keys"
key ctrl+q
for _ in $(seq 100); do
    alive || break
    sleep 0.2
done
if alive; then
    fail "rankscope still runs 20 s after Ctrl+Q"
fi
status=0
wait "$app_pid" || status=$?
app_pid=
[ "$status" -eq 0 ] || fail "rankscope exited with status $status after Ctrl+Q"
rm -rf "$scratch"
echo "xvfb-drive: keys served, screenshots taken, clean exit on Ctrl+Q"
