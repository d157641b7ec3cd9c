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
# Environment: PGSTORSIM_BINARY [build-lab/pgstorsim];
#   LAB_PREDICT_CALIBRATE  the one point calibrated on, "IOPS SCALE CACHE CLIENTS"
#                          (e.g. "600 5 warm 1"), or "none" [none]: `pgstorsim calibrate --fit cpu_ms`
#                          on the tps of that point's measured runs (NAME-runs/ beside
#                          MEASURED_TSV, every repetition), and the fitted [calibration] is
#                          appended to every scenario before predicting. Choose a point
#                          under the caps whose time per transaction is mostly CPU, the
#                          client's own time and one WAL flush (on a loaded host, e.g.
#                          "600 5 warm 1"); cpu_ms becomes this host's non-I/O time per
#                          transaction; nothing about the disks is fitted. On a quiet
#                          host every 1-client 600-IOPS point runs at a cap and the fit
#                          has nothing to move (docs/lab.md), hence off by default.
#                          Only tps is fitted: the statement latencies leave out the
#                          client's time between statements, which the model has no term
#                          for. Without runs for the point the predictions are uncalibrated
#                          (said on stderr). The calibrated scenario is kept as
#                          OUT_TSV without .tsv + -calibration.toml.
# The scenarios' host.os_cache (lab-pg.sh writes it) gives both tools the cgroup's page
# cache.
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

# Calibrates cpu_ms on the point $CALIBRATE_POINT; prints the calibration file, or
# nothing when uncalibrated.
calibrate() {
  [[ $CALIBRATE_POINT != none ]] || return 0
  local iops scale cache clients runs=${MEASURED%-measured.tsv}-runs
  read -r iops scale cache clients <<<"$CALIBRATE_POINT"
  [[ -n $clients ]] || lab_die "LAB_PREDICT_CALIBRATE must be 'IOPS SCALE CACHE CLIENTS' or none"
  local measured=("$runs/i$iops-s$scale-$cache-c$clients"-r*.json.gz)
  if [[ ! -f ${measured[0]} ]]; then
    echo "lab: no measured runs for $runs/i$iops-s$scale-$cache-c$clients-r*.json.gz: uncalibrated" >&2
    return 0
  fi
  local tps_files=() run
  for run in "${measured[@]}"; do  # The measured tps alone, as pgbench prints it.
    local name json
    name=$(basename "$run" .json.gz)
    json="$work/$name.json"
    zcat "$run" >"$json" || lab_die "$run: cannot decompress"
    "$BIN" report --format tsv "$json" |
      awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
                  NR == 2 && $col["tps"] != "" { printf "tps = %s\n", $col["tps"]; ok = 1 }
                  END { exit !ok }' >"$work/$name.tps.txt" || lab_die "$run: no summary.tps"
    rm -f "$json"
    tps_files+=("$work/$name.tps.txt")
  done
  "$BIN" calibrate --scenario "$SCENARIOS/lab-$iops-s$scale.toml" --measured "${tps_files[@]}" \
    --set "workload.clients=$clients" --set "workload.scale=$scale" --set "workload.cache=$cache" \
    --fit cpu_ms --out "$work/calibrated.toml" --force >"$work/calibrate.txt" 2>&1 ||
    lab_die "calibrate failed on ${measured[*]}: $(tail -2 "$work/calibrate.txt")"
  echo "lab: calibrated on $CALIBRATE_POINT (${#measured[@]} runs): $(grep -m1 '^cpu_ms' "$work/calibrated.toml")" >&2
  echo "$work/calibrated.toml"
}

# The scenario of a throttle and scale, with the calibration appended when there is one.
scenario_for() {  # iops scale
  local path=$SCENARIOS/lab-$1-s$2.toml
  [[ -f $path ]] || lab_die "no scenario $path"
  [[ -n $CALIBRATION ]] || { echo "$path" && return; }
  mkdir -p "$work/scenarios"
  if [[ ! -f $work/scenarios/lab-$1-s$2.toml ]]; then
    { cat "$path" && echo && lab_calibration_section "$CALIBRATION"; } \
      >"$work/scenarios/lab-$1-s$2.toml"
  fi
  echo "$work/scenarios/lab-$1-s$2.toml"
}

# One point: predict and simulate into $work/iIOPS-sSCALE-CACHE-cCLIENTS-{predict,simulate}.json.
predict_point() {  # iops scale cache clients seconds
  local tag=i$1-s$2-$3-c$4 scenario
  scenario=$(scenario_for "$1" "$2")
  grep -q '^os_cache = ' "$scenario" ||
    lab_die "$scenario has no host.os_cache (written before 2026-11-30 17:00): measure again"
  local common=(--scenario "$scenario" --set "workload.clients=$4" --set "workload.scale=$2"
    --set "workload.cache=$3" --set "workload.duration=$5s")
  "$BIN" predict "${common[@]}" --out "$work/$tag-predict.json" --force >"$work/$tag-predict.txt" 2>&1 ||
    lab_die "predict failed for $tag: $(tail -2 "$work/$tag-predict.txt")"
  "$BIN" simulate "${common[@]}" --seed 1 \
    --out "$work/$tag-simulate.json" --force --quiet >"$work/$tag-simulate.txt" 2>&1 ||
    lab_die "simulate failed for $tag: $(tail -2 "$work/$tag-simulate.txt")"
}

start=$(date +%s)
CALIBRATE_POINT=${LAB_PREDICT_CALIBRATE:-none}
CALIBRATION=$(calibrate)
if [[ -n $CALIBRATION ]]; then  # Kept beside OUT_TSV: lab-validate.sh quotes it.
  cp "$CALIBRATION" "${OUT%.tsv}-calibration.toml"
else
  rm -f "${OUT%.tsv}-calibration.toml"
fi
while read -r iops scale cache clients seconds; do
  predict_point "$iops" "$scale" "$cache" "$clients" "$seconds"
done < <(python3 "$here/lab_table.py" points "$MEASURED")
python3 "$here/lab_table.py" join "$MEASURED" "$work" >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "lab: predictions by ${BIN#"$root"/} ($("$BIN" version 2>/dev/null | head -1 || true))" \
  "in $(($(date +%s) - start)) s: $OUT"
python3 "$here/lab_table.py" summary "$OUT"
