#!/usr/bin/env bash
# Predictions for a measured lab matrix (docs/lab.md): for every point of
# MEASURED_TSV (written by lab-matrix.sh), `pgstorsim predict` and `pgstorsim simulate`
# on the scenario lab-matrix.sh saved for its throttle and scale
# (SCENARIO_DIR/lab-IOPS-sSCALE.toml) with the point's overrides (clients, scale,
# cache, duration); writes OUT_TSV = the measured rows + the predicted columns.
# Needs no PostgreSQL, no lab and no root: rerun it whenever the model or the
# simulator changes (2-8 s for the 16 points here).
#
#   lab-predict.sh [MEASURED_TSV SCENARIO_DIR OUT_TSV]
#       (defaults: results/validation/lab-matrix-measured.tsv,
#        results/validation/lab-matrix-scenarios, results/validation/lab-matrix.tsv)
#
# Environment: PGSTORSIM_BINARY [build-lab/pgstorsim].
# `simulate` also gets host.ram = the scenario's RAM + 1 GiB - 16 MiB: the simulator
# keeps 1 GiB of RAM away from the OS cache (sim_config.h os_reserved_bytes), while in
# the lab's memory cgroup only the server's private memory (about 16 MiB) is.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out_dir=$root/results/validation
MEASURED=${1:-$out_dir/lab-matrix-measured.tsv}
SCENARIOS=${2:-$out_dir/lab-matrix-scenarios}
OUT=${3:-$out_dir/lab-matrix.tsv}
BIN=${PGSTORSIM_BINARY:-$root/build-lab/pgstorsim}
# shellcheck source=lab-common.sh source-path=SCRIPTDIR
. "$here/lab-common.sh"
[[ -x $BIN ]] || lab_die "no pgstorsim binary at $BIN (set PGSTORSIM_BINARY)"
[[ -f $MEASURED ]] || lab_die "no measurements at $MEASURED (run lab-matrix.sh first)"
[[ -d $SCENARIOS ]] || lab_die "no scenario directory $SCENARIOS"
command -v python3 >/dev/null || lab_die "python3 needed to read the results JSON"
work=$(mktemp -d "${TMPDIR:-/tmp}/lab-predict.XXXXXX")
trap 'rm -rf "$work"' EXIT

# One point: predict and simulate into $work/iIOPS-sSCALE-CACHE-cCLIENTS-{predict,simulate}.json.
predict_point() {  # iops scale cache clients seconds
  local tag=i$1-s$2-$3-c$4 scenario=$SCENARIOS/lab-$1-s$2.toml ram
  [[ -f $scenario ]] || lab_die "no scenario $scenario for point $tag"
  ram=$(sed -n 's/^ram = "\{0,1\}\([0-9]*\)"\{0,1\}$/\1/p' "$scenario")
  [[ -n $ram ]] || lab_die "$scenario: no numeric host.ram"
  local common=(--scenario "$scenario" --set "workload.clients=$4" --set "workload.scale=$2"
    --set "workload.cache=$3" --set "workload.duration=$5s")
  "$BIN" predict "${common[@]}" --out "$work/$tag-predict.json" >"$work/$tag-predict.txt" 2>&1 ||
    lab_die "predict failed for $tag: $(tail -2 "$work/$tag-predict.txt")"
  "$BIN" simulate "${common[@]}" --set "host.ram=$((ram + (1 << 30) - (16 << 20)))" --seed 1 \
    --out "$work/$tag-simulate.json" --quiet >"$work/$tag-simulate.txt" 2>&1 ||
    lab_die "simulate failed for $tag: $(tail -2 "$work/$tag-simulate.txt")"
}

start=$(date +%s)
while read -r iops scale cache clients seconds; do
  predict_point "$iops" "$scale" "$cache" "$clients" "$seconds"
done < <(python3 "$here/lab_table.py" points "$MEASURED")
python3 "$here/lab_table.py" join "$MEASURED" "$work" >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "lab: predictions by ${BIN#"$root"/} ($("$BIN" version 2>/dev/null | head -1 || true))" \
  "in $(($(date +%s) - start)) s: $OUT"
python3 "$here/lab_table.py" summary "$OUT"
