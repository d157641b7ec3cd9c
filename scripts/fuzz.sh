#!/usr/bin/env bash
# Fuzzes every parser (tests/fuzz/, docs/reliability.md) with libFuzzer for SECONDS each.
# Builds the fuzz_<name> targets with clang-14 (ASan + UBSan + fuzzer coverage, any
# report fatal) into build-san/ (shared with scripts/sanitize.sh), then runs each on its
# committed corpus tests/fuzz/corpus/<name>/ (read only) plus a working corpus
# build-san/fuzz-corpus/<name>/ that takes the new inputs. Crashes, leaks and UB reports
# are saved as build-san/fuzz-crashes/<name>/crash-* and make the script fail.
# Prints one line per target: executions, execs/s, new inputs, result.
# FUZZ_MERGE=1 merges (minimised) what a run found into the committed corpus.
# Usage: scripts/fuzz.sh SECONDS [TARGET...]   (default: every target)
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
seconds=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}
shift
build=$top/build-san
command -v clang++-14 >/dev/null || { echo "fuzz: clang++-14 missing (scripts/setup.sh)" >&2; exit 1; }
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
  -DPGSTORSIM_FUZZ=ON "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)" --target fuzz_all >/dev/null
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
  for d in tests/fuzz/corpus/*/; do targets+=("$(basename "$d")"); done
fi
failed=0
for t in "${targets[@]}"; do
  work=$build/fuzz-corpus/$t crashes=$build/fuzz-crashes/$t log=$build/fuzz-$t.log
  mkdir -p "$work" "$crashes"
  set +e
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$build/fuzz_$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$crashes/" "$work" "tests/fuzz/corpus/$t" \
    >"$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  new=$(find "$work" -type f | wc -l)
  if [ "$rc" -ne 0 ] || ls "$crashes" | grep -q .; then
    failed=1
    echo "fuzz: $t: FAILED (exit $rc) after ${execs:-?} executions; see $log and $crashes" >&2
  else
    echo "fuzz: $t: ${execs:-?} executions in ${seconds} s (${rate:-?}/s), $new new inputs, no crash, leak or UB"
  fi
  if [ "${FUZZ_MERGE:-0}" = 1 ] && [ "$rc" -eq 0 ]; then
    "$build/fuzz_$t" -merge=1 "tests/fuzz/corpus/$t" "$work" >>"$log" 2>&1
  fi
done
exit $failed
