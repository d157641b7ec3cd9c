#!/usr/bin/env bash
# The unit tests under AddressSanitizer + UndefinedBehaviorSanitizer (clang-14; any
# report fails the test), then every fuzz target for FUZZ_SECONDS (default 30) on its
# committed corpus (scripts/fuzz.sh). Build directory build-san/, separate from build/;
# only the tool, the unit test executables and the fuzz targets are built.
# Usage: scripts/sanitize.sh   (run by scripts/test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-san
command -v clang++-14 >/dev/null || { echo "sanitize: clang++-14 missing (scripts/setup.sh)" >&2; exit 1; }
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
  -DPGSTORSIM_FUZZ=ON "${launcher[@]}" >/dev/null
unit_targets=(pgstorsim)
for d in tests/*/; do
  sub=$(basename "$d")
  ls "$d"*_test.cc 2>/dev/null | grep -qvE '_(pg|blockdev|lab|browser)_test\.cc$' &&
    unit_targets+=("test_${sub}_unit")
done
cmake --build "$build" -j "$(nproc)" --target "${unit_targets[@]}"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
(cd "$build" && ctest -L unit --output-on-failure -j "$(nproc)")
scripts/fuzz.sh "${FUZZ_SECONDS:-30}"
