#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` preset: clang, ASan + UBSan) if needed and runs
# each one for a fixed time on a copy of its seed corpus, so the repository is not changed.
#
#   fuzz/run_fuzzers.sh [-t SECONDS] [-j PARALLEL] [-s SEED] [-b BUILD_DIR] [-a ARTIFACT_DIR]
#                       [-k CORPUS_KEEP_DIR] [TARGET...]
#
#   -t  seconds per target (default 60)
#   -j  targets run at the same time (default 1; each fuzzer uses one core)
#   -s  libFuzzer -seed, so a run can be repeated (default 0: a new seed each run)
#   -b  build folder holding the fuzzers (default build/fuzz, configured with the `fuzz`
#       preset when missing); any folder configured with -DATTNVIZ_FUZZ=ON and clang works,
#       e.g. the sanitizer build of tools/test_all.sh (CI)
#   -a  where crash/leak/timeout inputs are kept (default BUILD_DIR/artifacts); each
#       target writes to ARTIFACT_DIR/<target>/
#   -k  keep each target's final corpus in CORPUS_KEEP_DIR/<target>/ (default: discarded)
#   TARGET  npy safetensors tokenizer options json model_config shard_index tokenizer_json
#           gguf session
#           (default: all of them)
#
# Exits 1 if any target crashes, leaks, times out (-timeout=10) or runs out of memory
# (-rss_limit_mb=2048), after printing executions, exec/s, corpus and coverage per target.
# Reproduce a finding with: BUILD_DIR/fuzz/fuzz_<target> ARTIFACT_DIR/<target>/crash-...
# then add it under fuzz/regressions/<target>/ with the fix (tests/test_fuzz_regressions;
# test_fuzz_session_regressions for the session).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir="$root/build/fuzz"

seconds=60
parallel=1
seed=0
artifacts=""
keep=""
while getopts "t:j:s:b:a:k:h" opt; do
  case $opt in
    t) seconds=$OPTARG ;;
    j) parallel=$OPTARG ;;
    s) seed=$OPTARG ;;
    b) build_dir=$(cd "$OPTARG" 2>/dev/null && pwd) || { echo "-b: no folder '$OPTARG'" >&2; exit 2; } ;;
    a) artifacts=$OPTARG ;;
    k) keep=$OPTARG ;;
    *) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; [[ $opt == h ]] && exit 0; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
all_targets=(npy safetensors tokenizer options json model_config shard_index tokenizer_json gguf session)
targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $t "* ]] || { echo "unknown fuzz target '$t' (${all_targets[*]})" >&2; exit 2; }
done
for n in "$seconds" "$parallel" "$seed"; do
  [[ $n =~ ^[0-9]+$ ]] || { echo "-t, -j and -s take whole numbers, got '$n'" >&2; exit 2; }
done
((parallel >= 1)) || parallel=1

# Configure once; build only the fuzzers (not the GUI).  Two jobs at most: the machine is shared.
if [[ ! -f $build_dir/build.ninja ]]; then
  [[ $build_dir == "$root/build/fuzz" ]] || { echo "$build_dir is not configured" >&2; exit 2; }
  (cd "$root" && cmake --preset fuzz >/dev/null)
fi
grep -q '^ATTNVIZ_FUZZ:BOOL=ON' "$build_dir/CMakeCache.txt" ||
  { echo "$build_dir was configured without -DATTNVIZ_FUZZ=ON" >&2; exit 2; }
cmake --build "$build_dir" --target fuzzers -j "${ATTNVIZ_BUILD_JOBS:-2}"

artifacts=${artifacts:-$build_dir/artifacts}
mkdir -p "$artifacts"
artifacts=$(cd "$artifacts" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/attnviz-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Sanitizer reports are fatal and come with a stack; libFuzzer turns on leak detection and
# counts an allocation above -rss_limit_mb as an out-of-memory finding.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# One target: fuzzes, then leaves its summary row in $work/<t>.row and, when it failed, the
# end of its log in $work/<t>.failure.
fuzz_one() {
  local t=$1
  local corpus="$work/corpus/$t"
  mkdir -p "$corpus" "$artifacts/$t"
  cp "$root/fuzz/corpus/$t/." "$corpus/" -R
  local seeds
  seeds=$(find "$corpus" -type f | wc -l)
  local args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
              -artifact_prefix="$artifacts/$t/")
  ((seed == 0)) || args+=(-seed="$seed")
  [[ -f $root/fuzz/dict/$t.dict ]] && args+=(-dict="$root/fuzz/dict/$t.dict")
  local log="$work/$t.log"
  echo "== fuzz_$t: ${seconds}s from $seeds seeds"
  local status=0
  "$build_dir/fuzz/fuzz_$t" "${args[@]}" "$corpus" >"$log" 2>&1 || status=$?

  # "#123456  DONE   cov: 812 ft: 3411 corp: 402/61Kb lim: 4096 exec/s: 2057 rss: 57Mb"
  local done_line
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
  field() { sed -nE "s/.* $1: ([^ ]+).*/\\1/p" <<<"$done_line"; }
  stat() { sed -nE "s/^stat::$1:[[:space:]]*([0-9]+).*/\\1/p" "$log" | tail -1; }
  local execs rate rss files kib result=ok
  execs=$(stat number_of_executed_units)
  rate=$(stat average_exec_per_sec)
  rss=$(stat peak_rss_mb)
  files=$(find "$corpus" -type f | wc -l)
  kib=$(find "$corpus" -type f -printf '%s\n' | awk '{ n += $1 } END { printf "%.0f", n / 1024 }')
  if ((status != 0)); then
    result="FAILED (exit $status)"
    {
      echo "-- fuzz_$t failed; the end of its log:"
      tail -n 60 "$log"
      echo "-- inputs kept in $artifacts/$t/:"
      ls -l "$artifacts/$t/" || true
    } >"$work/$t.failure"
  fi
  printf '%-12s %-18s %12s %9s %7s files %6s KiB %6s %7s %6s MB\n' "$t" "$result" \
    "${execs:-?}" "${rate:-?}" "$files" "$kib" "$(field cov)" "$(field ft)" "${rss:-?}" \
    >"$work/$t.row"
  echo "== fuzz_$t: $result"
  if [[ -n $keep ]]; then
    mkdir -p "$keep/$t"
    cp -R "$corpus/." "$keep/$t/"
  fi
}

# At most $parallel fuzzers at once; the summary keeps the order of the targets.
for t in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= parallel)); do wait -n || true; done
  fuzz_one "$t" &
done
wait

failed=()
for t in "${targets[@]}"; do
  if [[ -f $work/$t.failure ]]; then
    failed+=("$t")
    cat "$work/$t.failure"
  fi
done
echo
printf '%-12s %-18s %12s %9s %13s %10s %6s %7s %9s\n' target result executions exec/s corpus "" cov ft "peak rss"
for t in "${targets[@]}"; do
  cat "$work/$t.row" 2>/dev/null || printf '%-12s %s\n' "$t" "FAILED (no result)"
  [[ -f $work/$t.row ]] || failed+=("$t")
done
if ((${#failed[@]})); then
  echo "fuzzing found problems in: ${failed[*]} (inputs in $artifacts)" >&2
  exit 1
fi
