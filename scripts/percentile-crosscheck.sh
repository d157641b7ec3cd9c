#!/usr/bin/env bash
# Re-simulates the percentile cross-check points of tests/data/percentile_crosscheck.tsv
# and prints each row with the simulated transaction p95 and p99 it gets now, next to
# predict's, so the file's sim_p95_ms and sim_p99_ms columns can be refreshed after a
# simulator change.
# Usage: scripts/percentile-crosscheck.sh [path/to/pgstorsim]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-build/pgstorsim}
[ -x "$BIN" ] || { echo "percentile-crosscheck: no executable at $BIN (build first)" >&2; exit 1; }
DATA=tests/data/percentile_crosscheck.tsv
SCENARIO=results/validation/m5110e-calibrated.toml
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
printf 'overrides\tduration\tsim_p95_ms\tsim_p99_ms\tpredict_p95_ms\tpredict_p99_ms\n'
# "p95 p99" of the console's transaction latency line.
tails() { sed -n 's/^latency average.* p95 = \([0-9.]*\) ms, p99 = \([0-9.]*\) ms.*/\1\t\2/p'; }
grep -v -e '^#' -e '^$' "$DATA" | tail -n +2 | while IFS=$'\t' read -r overrides duration _ _; do
  args=()
  IFS=';' read -ra kvs <<< "$overrides"
  for kv in "${kvs[@]}"; do args+=(--set "$kv"); done
  sim=$("$BIN" simulate --scenario "$SCENARIO" "${args[@]}" --duration "$duration" --seed 1 \
    --out "$OUT/sim.json" | tails)
  pred=$("$BIN" predict --scenario "$SCENARIO" "${args[@]}" --set "workload.duration=$duration" \
    | tails)
  printf '%s\t%s\t%s\t%s\n' "$overrides" "$duration" "$sim" "$pred"
  rm -f "$OUT/sim.json"
done
