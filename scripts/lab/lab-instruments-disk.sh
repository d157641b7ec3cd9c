#!/usr/bin/env bash
# The instruments beside live PostgreSQL on one lab disk (issue 15, docs/lab.md
# "Instruments"). For every point of the lab matrix (lab-matrix.sh: PostgreSQL 15 on one
# loop device throttled to IOPS reads and IOPS writes per second; throttle x scale x
# cache x clients): the replay of the point on one loop device under the same throttle
# (`replay --scenario` of the scenario the live point is predicted with: its data
# files and after them the WAL on that device, its OS cache and write path) of a trace
# of that scenario (`trace --scenario`; a cold trace for a cold point, for a warm one a
# warm trace that starts after as many transactions as the live run's 10 s warm-up
# ran), `simulate` and `predict` of the same scenario and point (lab-predict.sh's
# overrides), and the live runs' tps (lab-matrix-measured.tsv). Writes
# results/validation/instruments/disk.tsv and disk-runs/ (conditions.env and every
# replay's results), then results/validation/instruments.md (instruments_table.py).
#
#   lab-instruments-disk.sh
#
# LAB_INSTRUMENTS_PREDICT_ONLY=1: simulate and predict again against the saved replays
# (no root, lab or loop device). Environment (defaults in brackets): PGSTORSIM_BINARY
# [build/pgstorsim], LAB_DISK_RUNS [2] replays per point, LAB_DISK_SECONDS [30, the live
# runs' length], LAB_DISK_MBPS [40]. Needs root to measure; run it under `flock` on a lock
# file where several people share the lab.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PGSTORSIM_LAB_NAME=${PGSTORSIM_LAB_NAME:-pgstorsim-lab-e2e-disk}
if [[ -z ${PGSTORSIM_LAB_STATE:-} && -d /dev/shm ]]; then
  export PGSTORSIM_LAB_STATE=/dev/shm/$PGSTORSIM_LAB_NAME
fi
# shellcheck source=lab-common.sh source-path=SCRIPTDIR
. "$here/lab-common.sh"

BIN=${PGSTORSIM_BINARY:-$root/build/pgstorsim}
RUNS=${LAB_DISK_RUNS:-2}
SECONDS_PER_RUN=${LAB_DISK_SECONDS:-30}
MBPS=${LAB_DISK_MBPS:-40}
WARMUP_S=10  # lab-matrix.sh's warm-up before a warm point's measured window.
DISK_SIZE=2G
LIVE_TSV=$root/results/validation/lab-matrix-measured.tsv
SCENARIOS=$root/results/validation/lab-matrix-scenarios
OUT_DIR=$root/results/validation/instruments
TSV=$OUT_DIR/disk.tsv
SAVED=$OUT_DIR/disk-runs
CONDITIONS="RUNS SECONDS_PER_RUN MBPS WARMUP_S DISK_SIZE"

[[ -x $BIN ]] || lab_die "no pgstorsim binary at $BIN (set PGSTORSIM_BINARY)"
command -v python3 >/dev/null || lab_die "python3 needed to read the results JSON"
[[ -f $LIVE_TSV ]] || lab_die "no live measurements at $LIVE_TSV (run lab-matrix.sh first)"

# "iops scale cache clients live_tps" per point: the mean of the live repetitions.
points() {
  python3 - "$LIVE_TSV" <<'EOF'
import csv, statistics, sys
by = {}
for r in csv.DictReader(open(sys.argv[1]), delimiter="\t"):
    by.setdefault((r["iops"], r["scale"], r["cache"], r["clients"]), []).append(float(r["tps"]))
for (iops, scale, cache, clients), tps in by.items():
    print(iops, scale, cache, clients, "%.3f" % statistics.mean(tps))
EOF
}

tag_of() { echo "i$1-s$2-$3-c$4"; }  # iops scale cache clients

# The point's overrides (lab-predict.sh's), for trace, replay, simulate and predict.
overrides() {  # scale cache clients
  echo --set "workload.scale=$1" --set "workload.cache=$2" --set "workload.clients=$3" \
    --set "workload.duration=${SECONDS_PER_RUN}s"
}

save_conditions() {
  local v
  {
    for v in $CONDITIONS; do printf '%s=%q\n' "$v" "${!v}"; done
    printf 'BINARY_BUILT=%q\n' "$(date -u -r "$BIN" +%Y-%m-%dT%H:%M:%SZ)"
    printf 'TREE=%q\n' "$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)"
    printf 'MEASURED=%q\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    printf 'LOADAVG=%q\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
  } >"$SAVED/conditions.env"
}

replay_point() {  # iops scale cache clients live_tps
  local tag scenario warmup=0 r json dev
  tag=$(tag_of "$1" "$2" "$3" "$4")
  scenario=$SCENARIOS/lab-$1-s$2.toml
  [[ $3 == warm ]] && warmup=$(python3 -c "print(round($WARMUP_S * $5))")
  # shellcheck disable=SC2046  # overrides are words.
  "$BIN" trace --scenario "$scenario" $(overrides "$2" "$3" "$4") --transactions 60000 \
    --warmup-transactions "$warmup" --out "$WORK/$tag.trace" >/dev/null
  dev=${LAB_DISKS%% *}
  for ((r = 1; r <= RUNS; r++)); do
    json=$SAVED/replay-$tag-$r.json
    # shellcheck disable=SC2046
    "$here/lab-disks.sh" exec "$BIN" replay --trace "$WORK/$tag.trace" --scenario "$scenario" \
      $(overrides "$2" "$3" "$4") --target "$dev" --allow-destroy "$dev" --workers "$4" \
      --duration "${SECONDS_PER_RUN}s" --out "$json" >"$WORK/replay.txt" 2>&1 ||
      lab_die "replay failed for $tag: $(tail -3 "$WORK/replay.txt")"
    lab_say "$tag run $r: $(grep -m1 '^tps' "$WORK/replay.txt")"
    gzip -9f "$json"
  done
  rm -f "$WORK/$tag.trace"
}

# simulate and predict of every point against the saved replays; writes TSV.
predict_rows() {
  local iops scale cache clients live tag scenario
  printf 'iops\tscale\tcache\tclients\truns\tmedian_tps\tsimulate_tps\tpredict_tps\tlive_tps\tcommits_per_flush\n' >"$TSV.tmp"
  while read -r iops scale cache clients live; do
    tag=$(tag_of "$iops" "$scale" "$cache" "$clients")
    scenario=$SCENARIOS/lab-$iops-s$scale.toml
    # shellcheck disable=SC2046
    "$BIN" simulate --scenario "$scenario" $(overrides "$scale" "$cache" "$clients") --seed 1 \
      --out "$WORK/sim.json" --force --quiet >/dev/null
    # shellcheck disable=SC2046
    "$BIN" predict --scenario "$scenario" $(overrides "$scale" "$cache" "$clients") \
      --out "$WORK/predict.json" --force >/dev/null
    python3 - "$SAVED" "$tag" "$WORK" "$live" "$iops" "$scale" "$cache" "$clients" \
      >>"$TSV.tmp" <<'EOF'
import glob, gzip, json, os, statistics, sys
saved, tag, work, live = sys.argv[1:5]
point = sys.argv[5:9]
runs = sorted(glob.glob(os.path.join(saved, "replay-%s-*.json.gz" % tag)))
if not runs:
    sys.exit("lab: error: no saved replays replay-%s-*.json.gz in %s" % (tag, saved))
replays = [json.load(gzip.open(p)) for p in runs]
tps = [r["summary"]["tps"] for r in replays]
commits = sum(r["sections"]["wal"]["commits"] for r in replays)
flushes = sum(r["sections"]["wal"]["flushes"] for r in replays)
sim = json.load(open(os.path.join(work, "sim.json")))["summary"]["tps"]
pred = json.load(open(os.path.join(work, "predict.json")))["summary"]["tps"]
print("\t".join(point + [", ".join("%.1f" % v for v in tps), "%.1f" % statistics.median(tps),
                         "%.1f" % sim, "%.1f" % pred, "%.1f" % float(live),
                         "%.2f" % (commits / flushes if flushes else 0)]))
EOF
  done < <(points)
  mv "$TSV.tmp" "$TSV"
}

teardown() {
  "$here/lab-disks.sh" down >/dev/null 2>&1 || true
  rm -rf "$WORK"
}

main() {
  lab_require_uint LAB_DISK_RUNS "$RUNS"
  lab_require_root
  lab_require_blkio
  lab_require_loop
  WORK=$(mktemp -d /var/tmp/lab-instruments-disk.XXXXXX)
  trap teardown EXIT
  trap 'exit 130' INT TERM
  mkdir -p "$SAVED"
  rm -f "$SAVED"/replay-*.json.gz
  save_conditions
  local iops scale cache clients live up=
  while read -r iops scale cache clients live; do
    if [[ $up != "$iops" ]]; then
      "$here/lab-disks.sh" down >/dev/null 2>&1 || true
      "$here/lab-disks.sh" up 1 "$DISK_SIZE" "$iops" "$MBPS" >/dev/null
      # shellcheck source=/dev/null
      . "$LAB_DISKS_ENV"
      up=$iops
    fi
    replay_point "$iops" "$scale" "$cache" "$clients" "$live"
  done < <(points)
  predict_rows
}

if [[ ${LAB_INSTRUMENTS_PREDICT_ONLY:-0} == 1 ]]; then
  [[ -f $SAVED/conditions.env ]] || lab_die "no saved replays at $SAVED (measure first)"
  # shellcheck source=/dev/null
  . "$SAVED/conditions.env"
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/lab-instruments-disk.XXXXXX")
  trap 'rm -rf "$WORK"' EXIT
  predict_rows
else
  main
fi
python3 "$here/instruments_table.py" "$OUT_DIR" >"$root/results/validation/instruments.md"
cat "$TSV"
