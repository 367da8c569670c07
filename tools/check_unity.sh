#!/usr/bin/env bash
# Finds the file-local names that two files of one unity target define alike, whatever the
# batches: every file of the target is compiled as one translation unit, syntax only.
#
#   bash tools/check_unity.sh [BUILD_DIR]   (default build/ci; configure it first)
#
# The engine and the window's libraries are compiled in unity batches (engine/CMakeLists.txt),
# where two files' anonymous namespaces are one: a second `fail` or `kPad` is an error there,
# but only when the two land in one batch, which changes as files are added.  This reports every
# such clash at once, with gcc or clang as the build directory was configured.  Exit 1 if any.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/ci}
[[ -f $build/compile_commands.json ]] || { echo "check_unity: configure $build first" >&2; exit 2; }
status=0
for dir in engine/CMakeFiles/attnviz_engine.dir ui/CMakeFiles/attnviz_ui_core.dir \
           ui/CMakeFiles/attnviz_ui.dir; do
  all=$(mktemp --suffix=.cpp)
  cat "$build/$dir"/Unity/unity_*_cxx.cxx | grep '^#include' > "$all"
  cmd=$(python3 - "$build" "$dir" "$all" <<'PY'
import json, shlex, sys
build, d, out = sys.argv[1:]
for e in json.load(open(f"{build}/compile_commands.json")):
    if f"{d}/Unity/unity_0_cxx.cxx" in e["file"]:
        args = shlex.split(e["command"])
        i = args.index("-o"); del args[i:i + 2]
        args = [a for a in args if a not in ("-MD",)]
        for flag in ("-MT", "-MF"):
            while flag in args:
                i = args.index(flag); del args[i:i + 2]
        args[args.index("-c") + 1] = out
        # The precompiled header's text instead of its binary, which may not be built yet.
        while "-include-pch" in args:
            i = args.index("-include-pch"); del args[i - 1:i + 3]
        limit = "-ferror-limit=0" if "clang" in args[0] else "-fmax-errors=0"
        print(shlex.join(args + ["-fsyntax-only", limit]))
        break
PY
)
  if [[ -z $cmd ]]; then echo "check_unity: no unity files for $dir in $build" >&2; status=2; continue; fi
  report=$(cd "$build" && eval "$cmd" 2>&1 | grep -E "(error|warning):" | sed "s|$PWD/||" | sort -u)
  rm -f "$all"
  if [[ -n $report ]]; then
    echo "== ${dir%%/*}: $(basename "$dir" .dir)"
    echo "$report"
    status=1
  fi
done
exit "$status"
