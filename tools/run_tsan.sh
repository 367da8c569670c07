#!/usr/bin/env bash
# Builds with ThreadSanitizer (the `tsan` preset: clang, -O1 -gline-tables-only, -Werror) and
# runs the suites that start threads: the engine's (its pool on 2 threads, the models, the
# predictions, the weights' streaming), the window's workers (compute, model loading,
# exports, the comparison, the memory budget, the threads test, the monkey for a short run) and
# the fuzz regressions.  Any report fails its test (halt_on_error).
#
#   tools/run_tsan.sh [-j JOBS] [-- CTEST_ARGS...]
#
# Qt and OpenBLAS are not built with TSan, so the synchronisation inside them (Qt's event queue
# and mutexes, OpenBLAS's own threads) is invisible to it; tools/tsan.supp lists what that
# makes it report, each line with its reason, and nothing of our code.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=${ATTNVIZ_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}
while getopts "j:h" opt; do
  case $opt in
    j) jobs=$OPTARG ;;
    *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; [[ $opt == h ]] && exit 0; exit 2 ;;
  esac
done
shift $((OPTIND - 1))

tests='^(test_parallel|test_gemm|test_softmax|test_attention|test_models|test_shipped_models|test_head_atlas|test_predictions|test_weight_store|test_memory_budget|test_fuzz_regressions|test_fuzz_session_regressions|ui_threads_test|ui_work_safety_test|ui_model_test|ui_export_test|ui_compare_test|ui_memory_test|ui_monkey_test)$'

cmake --preset tsan >/dev/null
cmake --build --preset tsan -j "$jobs"

export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:history_size=4:suppressions=$PWD/tools/tsan.supp"
export QT_QPA_PLATFORM=offscreen
# The monkey: a short run here (the other builds run it in full).
export ATTNVIZ_MONKEY_SECONDS=${ATTNVIZ_MONKEY_SECONDS:-60}
ctest --preset tsan -j "$jobs" -R "$tests" "$@"
