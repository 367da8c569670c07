#!/usr/bin/env bash
# Builds with ThreadSanitizer (the `tsan` preset: clang, -O1 -gline-tables-only, -Werror, for
# baseline x86-64: the numeric suites below then also test the kernels picked at run time where
# the compiler could not assume AVX2 or AVX-512) and
# runs the suites that start threads: the engine's (its pool on 2 threads, the models, the
# predictions, the weights' streaming), the window's workers (ui_background_job_test: the one
# background-job shape, an owner destroyed under it; ui_threads_test: a model's load,
# its pass, Cancel, closing, exports; ui_work_safety_test: exports; ui_window_test: Load
# Weights; ui_memory_test: the budget's refusals; ui_generation_test: the generation writer,
# Stop and Play; ui_positions_test: the statistics pass, its Cancel and a head's full map;
# test_head_statistics: row blocks reduced by slot on 2 threads; ui_full_map_test: the pyramid
# built off the GUI thread; test_models_converted: the models' streaming without AMX; the monkey for a short run: everything, the comparison included) and the fuzz
# regressions.  Any report fails its test.
# The suites that start the attnviz binary through QProcess (test_cli*, ui_export_test,
# ui_compare_test, ui_model_test) are left out: under clang 14's TSan that fork fails (a CHECK
# in its ForkAfter), whatever the program does.
#
#   tools/run_tsan.sh [-j JOBS] [-- CTEST_ARGS...]
#
# Qt and OpenBLAS are not built with TSan, so the synchronisation inside them (Qt's event queue
# and mutexes, its thread pool) is invisible to it.  Our own hand-overs through Qt are declared
# to it (ui/compute/mailbox.h); tools/tsan.supp lists Qt's and GLib's internals only, each line
# with its reason.  Everything runs in the environment a fresh Debian 12 gives
# (tools/bare_env.sh): no TZ, no XDG_RUNTIME_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/bare_env.sh && bare_env_exec "$0" "$@"

jobs=${ATTNVIZ_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}
while getopts "j:h" opt; do
  case $opt in
    j) jobs=$OPTARG ;;
    *) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; [[ $opt == h ]] && exit 0; exit 2 ;;
  esac
done
shift $((OPTIND - 1))

tests='^(test_parallel|test_gemm|test_softmax|test_attention|test_models|test_shipped_models|test_head_atlas|test_head_statistics|test_attention_kernels|test_predictions|test_weight_store|test_memory_budget|test_fuzz_regressions|test_fuzz_session_regressions|ui_background_job_test|ui_threads_test|ui_work_safety_test|ui_window_test|ui_memory_test|ui_monkey_test|ui_generation_test|ui_positions_test|ui_full_map_test|test_models_converted)$'

# Only what these suites run: the other tests, the benchmarks and the fuzzers are built and run
# by the other phases, and building them here too cost CI several minutes.
targets=${tests#'^('}
targets=${targets%')$'}
targets=${targets//|/ }
targets=${targets/test_models_converted/}  # the test_models binary, in another environment
cmake --preset tsan >/dev/null
# shellcheck disable=SC2086
cmake --build --preset tsan -j "$jobs" --target $targets

export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:history_size=4:suppressions=$PWD/tools/tsan.supp"
export QT_QPA_PLATFORM=offscreen
# The monkey: a short run here (the other builds run it in full).
export ATTNVIZ_MONKEY_SECONDS=${ATTNVIZ_MONKEY_SECONDS:-60}
ctest --preset tsan -j "$jobs" -R "$tests" "$@"
