#!/usr/bin/env bash
# Checks the layering that ARCHITECTURE.md draws, on the files git tracks (all sources outside git):
#  - no Qt below views/: model/, importers/ and whatif/ include no Qt header;
#  - no include from a lower layer to a higher one:
#      model/     -> model/
#      importers/ -> model/, importers/   (importers/simgrid/ also whatif/: it writes action
#                                           programs and network specs)
#      whatif/    -> model/, whatif/
#      views/     -> model/, importers/, whatif/, views/
#      app/cli/   -> model/, importers/, whatif/, app/report/, app/cli/   (and no Qt)
#      app/report/ -> model/, whatif/, app/report/   (and no Qt; the what-if JSON reads whatif results)
#      app/mpi/   -> model/, importers/, app/report/, app/mpi/   (and no Qt)
#      app/       -> anything;
#  - no source file (.cpp, .h) over 600 lines;
#  - every source file formatted as .clang-format says (clang-format --dry-run -Werror).
# Prints every offence as file:line and exits 1 when there is one.
#
#   bash scripts/check-layout.sh
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
offence() {
    echo "check-layout: $*"
    status=1
}

# Which top folders each layer may include from.
declare -A allowed=(
    [model]="model"
    [importers]="model importers"
    [importers/simgrid]="model importers whatif"
    [whatif]="model whatif"
    [views]="model importers whatif views"
    [app/cli]="model importers whatif app/report app/cli"
    [app/report]="model whatif app/report"
    [app/mpi]="model importers app/report app/mpi"
)
# The include folders there are (anything else is a system or third-party header).
layers="model importers whatif views app bench fuzz tests"

if git rev-parse --git-dir >/dev/null 2>&1; then
    mapfile -t sources < <(git ls-files '*.cpp' '*.h')
else
    mapfile -t sources < <(find $layers -name '*.cpp' -o -name '*.h' | sort)
fi

for f in "${sources[@]}"; do
    layer=${f%%/*}
    [[ $f == app/cli/* ]] && layer=app/cli
    [[ $f == app/report/* ]] && layer=app/report
    [[ $f == app/mpi/* ]] && layer=app/mpi
    [[ $f == importers/simgrid/* ]] && layer=importers/simgrid
    lines=$(wc -l <"$f")
    [ "$lines" -le 600 ] || offence "$f: $lines lines (at most 600)"
    [ -n "${allowed[$layer]+x}" ] || continue
    # Qt below views/ (and in the command line).
    if [ "$layer" != views ]; then
        while IFS=: read -r n text; do
            offence "$f:$n: Qt below views/: $text"
        done < <(grep -nE '^\s*#\s*include\s*[<"](Q[A-Za-z]|qt[a-z]*/)' "$f" || true)
    fi
    # Project includes to a layer this one may not use.
    while IFS=: read -r n text; do
        target=$(sed -E 's/^\s*#\s*include\s*"([^"]+)".*/\1/' <<<"$text")
        top=${target%%/*}
        [[ " $layers " == *" $top "* ]] || continue
        [[ $target == app/cli/* ]] && top=app/cli
        [[ $target == app/report/* ]] && top=app/report
        [[ $target == app/mpi/* ]] && top=app/mpi
        ok=0
        for a in ${allowed[$layer]}; do
            [ "$top" = "$a" ] && ok=1
        done
        [ $ok -eq 1 ] || offence "$f:$n: $layer/ may not include $target"
    done < <(grep -nE '^\s*#\s*include\s*"' "$f" || true)
done

# Formatting: one clang-format run over all files (it names each file and line that differs).
if command -v clang-format >/dev/null; then
    if ! clang-format --dry-run -Werror "${sources[@]}" 2>/tmp/check-layout-format.$$; then
        offence "files not formatted as .clang-format says (clang-format -i FILE fixes them):"
        grep -E '^[^ ].*: error:' /tmp/check-layout-format.$$ | cut -d: -f1 | sort -u | head -50
    fi
    rm -f /tmp/check-layout-format.$$
else
    offence "clang-format is not installed (scripts/install-deps.sh installs it)"
fi

[ $status -eq 0 ] && echo "check-layout: ${#sources[@]} files: layers, Qt, sizes and format as they should be"
exit $status
