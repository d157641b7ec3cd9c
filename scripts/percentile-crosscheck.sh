#!/usr/bin/env bash
# Re-simulates the percentile cross-check points of tests/data/percentile_crosscheck.tsv
# and prints each row with the simulated transaction p95 it gets now, next to predict's,
# so the file's sim_p95_ms column can be refreshed after a simulator change.
# Usage: scripts/percentile-crosscheck.sh [path/to/pgstorsim]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-build/pgstorsim}
[ -x "$BIN" ] || { echo "percentile-crosscheck: no executable at $BIN (build first)" >&2; exit 1; }
DATA=tests/data/percentile_crosscheck.tsv
SCENARIO=results/validation/m5110e-calibrated.toml
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
printf 'overrides\tduration\tsim_p95_ms\tpredict_p95_ms\n'
grep -v -e '^#' -e '^$' "$DATA" | tail -n +2 | while IFS=$'\t' read -r overrides duration _ _ _; do
  args=()
  IFS=';' read -ra kvs <<< "$overrides"
  for kv in "${kvs[@]}"; do args+=(--set "$kv"); done
  sim=$("$BIN" simulate --scenario "$SCENARIO" "${args[@]}" --duration "$duration" --seed 1 \
    --out "$OUT/sim.json" | sed -n 's/^latency average.* p95 = \([0-9.]*\) ms.*/\1/p')
  pred=$("$BIN" predict --scenario "$SCENARIO" "${args[@]}" --set "workload.duration=$duration" \
    | sed -n 's/^latency average.* p95 = \([0-9.]*\) ms.*/\1/p')
  printf '%s\t%s\t%s\t%s\n' "$overrides" "$duration" "$sim" "$pred"
  rm -f "$OUT/sim.json"
done
