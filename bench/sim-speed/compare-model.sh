#!/usr/bin/env bash
# Simulator vs analytic model: runs `pgstorsim predict --sweep` and `pgstorsim simulate`
# over the sweep of tests/sim/model_agreement_test.cc (stripe x clients x scale) of one
# scenario (e.g. results/validation/m5110e-calibrated.toml) and prints both
# tps figures and their ratio. Extra arguments are passed to both (e.g. --set k=v).
# Usage: bench/sim-speed/compare-model.sh BINARY SCENARIO.toml [--set key=value]...
set -euo pipefail
BIN=${1:?usage: compare-model.sh BINARY SCENARIO.toml [--set k=v]...}
SCENARIO=${2:?usage: compare-model.sh BINARY SCENARIO.toml [--set k=v]...}
shift 2
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
STRIPES=(32k 128k 1MiB); CLIENTS=(1 10); SCALES=(200 2000)
"$BIN" predict --scenario "$SCENARIO" "$@" --sweep "array.stripe=32k,128k,1MiB" \
  --sweep "workload.clients=1,10" --sweep "workload.scale=200,2000" >"$OUT/predict.txt"
printf "%-6s %-7s %-6s %10s %10s %7s\n" stripe clients scale model_tps sim_tps sim/model
for st in "${STRIPES[@]}"; do for cl in "${CLIENTS[@]}"; do for sc in "${SCALES[@]}"; do
  "$BIN" simulate --scenario "$SCENARIO" "$@" --set "array.stripe=$st" \
    --set "workload.clients=$cl" --set "workload.scale=$sc" --out "$OUT/sim.json" --quiet >/dev/null
  model=$(awk -v s="$st" -v c="$cl" -v k="$sc" '$1==s && $2==c && $3==k {print $4}' "$OUT/predict.txt")
  sim=$("$BIN" report --format tsv "$OUT/sim.json" |
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i } NR == 2 { printf "%.1f", $col["tps"] }')
  ratio=$(python3 -c "print(round($sim/$model, 2) if '$model' else 'n/a')")
  printf "%-6s %-7s %-6s %10s %10s %7s\n" "$st" "$cl" "$sc" "${model:-n/a}" "$sim" "$ratio"
done; done; done
