#!/usr/bin/env bash
# Every check behind the README's test command (`bash tools/setup.sh test`, which CI runs
# through .ci/run once the packages are there):
#
#   release     the `ci` preset (gcc, -Werror): build, then the whole ctest suite
#   sanitizers  the `sanitizers` preset (clang, ASan + UBSan, and the fuzzers): build, then
#               the whole ctest suite under the sanitizers (tools/run_sanitizers.sh)
#   tsan        the `tsan` preset (clang, ThreadSanitizer, baseline x86-64): the suites that
#               start threads (the engine's on 2 threads, the window's workers, the fuzz
#               regressions), under tools/run_tsan.sh; any report fails.  Built for baseline
#               x86-64, so the engine's numeric suites among them (gemm, softmax, attention,
#               the models) also test the matrix products and the softmax picked at run time
#               where the compiler could not assume AVX2 or AVX-512: what a separate
#               `portable` build did, in 2 minutes of CI of its own
#   fuzz        every fuzz target for a short run on its seeds, from the sanitizer build, as
#               many at a time as there are CPUs (fuzz/run_fuzzers.sh)
#
# Every phase runs even when one before it failed, so one run shows every problem; the exit
# status is 1 if any failed.  A table of the phases, their result and time ends the output.
#
#   ATTNVIZ_FUZZ_SECONDS  seconds per fuzz target (default 20; 0 skips the fuzz phase)
#   ATTNVIZ_FUZZ_SEED     libFuzzer's -seed, so a CI run can be repeated (default 1)
#   ATTNVIZ_BUILD_JOBS    build, test and fuzz jobs (default: the number of CPUs)
#
# Every phase runs in the environment a fresh Debian 12 gives (tools/bare_env.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
source tools/bare_env.sh && bare_env_exec "$0" "$@"

jobs=${ATTNVIZ_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}
fuzz_seconds=${ATTNVIZ_FUZZ_SECONDS:-20}
fuzz_seed=${ATTNVIZ_FUZZ_SEED:-1}
export ATTNVIZ_BUILD_JOBS=$jobs
# Sanitizer and fuzzer reports with file:line stacks (Debian's llvm-14 has no plain
# llvm-symbolizer on PATH unless the llvm package is installed too).
if [[ -z ${ASAN_SYMBOLIZER_PATH:-} && -x /usr/lib/llvm-14/bin/llvm-symbolizer ]]; then
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
fi

release() {
  cmake --preset ci >/dev/null &&
    cmake --build --preset ci -j "$jobs" &&
    ctest --preset ci -j "$jobs"
}
sanitizers() {
  bash tools/run_sanitizers.sh -j "$jobs"
}
tsan() {
  bash tools/run_tsan.sh -j "$jobs"
}
fuzz() {
  # The sanitizer build made the fuzzers; the configure step there is a no-op.
  cmake --preset sanitizers >/dev/null &&
    bash fuzz/run_fuzzers.sh -b build/sanitizers -t "$fuzz_seconds" -j "$jobs" -s "$fuzz_seed"
}

phases=(release sanitizers tsan)
((fuzz_seconds > 0)) && phases+=(fuzz)
results=()
failed=0
for phase in "${phases[@]}"; do
  echo
  echo "======== $phase"
  start=$SECONDS
  if "$phase"; then result=ok; else result=FAILED; failed=1; fi
  results+=("$(printf '%-11s %-7s %4d min %02d s' "$phase" "$result" \
    $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)))")
done

echo
echo "======== summary ($jobs jobs; fuzz: ${fuzz_seconds}s per target, seed $fuzz_seed)"
printf '%s\n' "${results[@]}"
exit "$failed"
