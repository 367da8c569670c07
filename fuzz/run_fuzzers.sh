#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` preset: clang, ASan + UBSan) if needed and runs
# each one for a fixed time on a copy of its seed corpus, so the repository is not changed.
#
#   fuzz/run_fuzzers.sh [-t SECONDS] [-a ARTIFACT_DIR] [-k CORPUS_KEEP_DIR] [TARGET...]
#
#   -t  seconds per target (default 60)
#   -a  where crash/leak/timeout inputs are kept (default build/fuzz/artifacts); each
#       target writes to ARTIFACT_DIR/<target>/
#   -k  keep each target's final corpus in CORPUS_KEEP_DIR/<target>/ (default: discarded)
#   TARGET  npy safetensors tokenizer options json session (default: all of them)
#
# Exits 1 if any target crashes, leaks, times out (-timeout=10) or runs out of memory
# (-rss_limit_mb=2048), after printing executions, exec/s, corpus and coverage per target.
# Reproduce a finding with: build/fuzz/fuzz/fuzz_<target> ARTIFACT_DIR/<target>/crash-...
# then add it under fuzz/regressions/<target>/ with the fix (tests/test_fuzz_regressions).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir="$root/build/fuzz"

seconds=60
artifacts="$build_dir/artifacts"
keep=""
while getopts "t:a:k:h" opt; do
  case $opt in
    t) seconds=$OPTARG ;;
    a) artifacts=$OPTARG ;;
    k) keep=$OPTARG ;;
    *) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; [[ $opt == h ]] && exit 0; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
all_targets=(npy safetensors tokenizer options json session)
targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $t "* ]] || { echo "unknown fuzz target '$t' (${all_targets[*]})" >&2; exit 2; }
done
[[ $seconds =~ ^[0-9]+$ ]] || { echo "-t needs whole seconds, got '$seconds'" >&2; exit 2; }

# Configure once; build only the fuzzers (not the GUI).  Two jobs at most: the machine is shared.
if [[ ! -f $build_dir/build.ninja ]]; then
  (cd "$root" && cmake --preset fuzz >/dev/null)
fi
cmake --build "$build_dir" --target fuzzers -j "${ATTNVIZ_BUILD_JOBS:-2}"

mkdir -p "$artifacts"
artifacts=$(cd "$artifacts" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/attnviz-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Sanitizer reports are fatal and come with a stack; libFuzzer turns on leak detection and
# counts an allocation above -rss_limit_mb as an out-of-memory finding.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=()
summary=()
for t in "${targets[@]}"; do
  corpus="$work/corpus/$t"
  mkdir -p "$corpus" "$artifacts/$t"
  cp "$root/fuzz/corpus/$t/." "$corpus/" -R
  seeds=$(find "$corpus" -type f | wc -l)
  args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$artifacts/$t/")
  [[ -f $root/fuzz/dict/$t.dict ]] && args+=(-dict="$root/fuzz/dict/$t.dict")
  log="$work/$t.log"
  echo "== fuzz_$t: ${seconds}s from $seeds seeds"
  status=0
  "$build_dir/fuzz/fuzz_$t" "${args[@]}" "$corpus" >"$log" 2>&1 || status=$?

  # "#123456  DONE   cov: 812 ft: 3411 corp: 402/61Kb lim: 4096 exec/s: 2057 rss: 57Mb"
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
  field() { sed -nE "s/.* $1: ([^ ]+).*/\\1/p" <<<"$done_line"; }
  stat() { sed -nE "s/^stat::$1:[[:space:]]*([0-9]+).*/\\1/p" "$log" | tail -1; }
  execs=$(stat number_of_executed_units)
  rate=$(stat average_exec_per_sec)
  rss=$(stat peak_rss_mb)
  files=$(find "$corpus" -type f | wc -l)
  kib=$(find "$corpus" -type f -printf '%s\n' | awk '{ n += $1 } END { printf "%.0f", n / 1024 }')
  result=ok
  if ((status != 0)); then
    result="FAILED (exit $status)"
    failed+=("$t")
    echo "-- fuzz_$t failed; the end of its log:"
    tail -n 60 "$log"
    echo "-- inputs kept in $artifacts/$t/:"
    ls -l "$artifacts/$t/" || true
  fi
  summary+=("$(printf '%-12s %-18s %12s %9s %7s files %6s KiB %6s %7s %6s MB' "$t" "$result" \
    "${execs:-?}" "${rate:-?}" "$files" "$kib" "$(field cov)" "$(field ft)" "${rss:-?}")")
  if [[ -n $keep ]]; then
    mkdir -p "$keep/$t"
    cp -R "$corpus/." "$keep/$t/"
  fi
done

echo
printf '%-12s %-18s %12s %9s %13s %10s %6s %7s %9s\n' target result executions exec/s corpus "" cov ft "peak rss"
printf '%s\n' "${summary[@]}"
if ((${#failed[@]})); then
  echo "fuzzing found problems in: ${failed[*]} (inputs in $artifacts)" >&2
  exit 1
fi
