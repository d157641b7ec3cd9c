#!/usr/bin/env bash
# Stripe-size effect on an emulated array (issue 5, docs/lab.md): four throttled lab
# disks as the members of a RAID 10 replayed by `pgstorsim replay --scenario`, the seed's 64 KiB
# filesystem blocks and 8 KiB fragments on a 63-sector (misaligned MBR) partition, a
# warm TPC-B trace whose database does not fit the cache, replayed with a 32 KiB and a
# 1 MiB stripe (alternating, several runs, medians). The trace starts in steady state
# (`trace --warmup-transactions`): a warm cache that is all clean writes nothing until
# its first shared_buffers' worth of transactions dirtied it (~1100 transactions here,
# 3 s of a 1 MiB replay, 6 s of a 32 KiB one), and a 15 s replay of that start
# measured two phases in different proportions per stripe. WAL goes to an unthrottled file,
# the lab's stand-in for the seed's battery-backed controller cache that absorbs
# commits. `pgstorsim simulate` and `pgstorsim predict` run the matching scenario
# (same geometry, disks.type = "throttled" with the throttle's read/write IOPS and
# bandwidth, wal_on_data_volume = false; simulated for 120 s, so that the simulator's
# clean warm start weighs ~1 %). One TSV row per stripe; lab_table.py prints the
# ratios. late_tps: the replays' tps over the second half of each run (median of the
# runs), against median_tps a check that the replays ran in steady state.
#
#   lab-array.sh [TSV]      (default results/validation/lab-array.tsv)
#
# Saved next to TSV in ${TSV%.tsv}-runs/: conditions.env (the settings, the binary,
# when it was built and the tree), array.toml (the scenario) and every replay's
# results (replay-STRIPE-RUN.json.gz). LAB_ARRAY_PREDICT_ONLY=1 skips measuring: it
# re-runs simulate and predict (scenario re-written from conditions.env) against the
# saved replays and rewrites TSV; it needs no root, lab or loop device.
#
# Environment (defaults in brackets): PGSTORSIM_BINARY [build-lab/pgstorsim],
# LAB_ARRAY_IOPS [150], LAB_ARRAY_MBPS [40], LAB_ARRAY_SCALE [20],
# LAB_ARRAY_CLIENTS [4], LAB_ARRAY_SECONDS [15], LAB_ARRAY_RUNS [3],
# LAB_ARRAY_SHARED_BUFFERS [16MiB], LAB_ARRAY_OS_CACHE [16MiB], LAB_ARRAY_OFFSET
# [63s] (partition offset; 0 = aligned, where no 64 KiB block has two pieces on one
# member), LAB_ARRAY_WARMUP [10000] (trace warm-up transactions), LAB_ARRAY_ENGINE
# [psync] (replay --engine), LAB_ARRAY_STRIPES ["32KiB 1MiB"], LAB_ARRAY_CACHE [warm]
# (cold: a cold trace without warm-up, simulated for the replay's length, the ramp's
# start), LAB_ARRAY_DATA_WRITES [buffered] (io.data_writes; the replay takes it and
# the OS cache from the scenario), LAB_ARRAY_PREDICT_ONLY [0], PGSTORSIM_LAB_NAME
# [pgstorsim-lab-e2e-array]. Torn down on exit (also on failure or Ctrl-C). Measuring
# needs root.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PGSTORSIM_LAB_NAME=${PGSTORSIM_LAB_NAME:-pgstorsim-lab-e2e-array}
if [[ -z ${PGSTORSIM_LAB_STATE:-} && -d /dev/shm ]]; then
  export PGSTORSIM_LAB_STATE=/dev/shm/$PGSTORSIM_LAB_NAME
fi
# shellcheck source=lab-common.sh source-path=SCRIPTDIR
. "$here/lab-common.sh"

BIN=${PGSTORSIM_BINARY:-$root/build-lab/pgstorsim}
IOPS=${LAB_ARRAY_IOPS:-150}
MBPS=${LAB_ARRAY_MBPS:-40}
SCALE=${LAB_ARRAY_SCALE:-20}
CLIENTS=${LAB_ARRAY_CLIENTS:-4}
SECONDS_PER_RUN=${LAB_ARRAY_SECONDS:-15}
RUNS=${LAB_ARRAY_RUNS:-3}
SHARED=${LAB_ARRAY_SHARED_BUFFERS:-16MiB}
OS_CACHE=${LAB_ARRAY_OS_CACHE:-16MiB}
OFFSET=${LAB_ARRAY_OFFSET:-63s}
WARMUP=${LAB_ARRAY_WARMUP:-10000}
SIM_SECONDS=120
ENGINE=${LAB_ARRAY_ENGINE:-psync}
CACHE=${LAB_ARRAY_CACHE:-warm}
DATA_WRITES=${LAB_ARRAY_DATA_WRITES:-buffered}
STRIPES=${LAB_ARRAY_STRIPES:-32KiB 1MiB}
DISK_SIZE=2G
TSV=${1:-$root/results/validation/lab-array.tsv}
SAVED=${TSV%.tsv}-runs
# Trace and WAL file: a small tmpfs of our own (not under /dev/, where the replayer
# refuses to create files; not the host disk, whose fsyncs are slow and shared).
WORK=/var/tmp/$LAB_NAME-work
CONDITIONS="IOPS MBPS SCALE CLIENTS SECONDS_PER_RUN RUNS SHARED OS_CACHE OFFSET WARMUP ENGINE DISK_SIZE
CACHE DATA_WRITES STRIPES"

[[ -x $BIN ]] || lab_die "no pgstorsim binary at $BIN (set PGSTORSIM_BINARY)"
command -v python3 >/dev/null || lab_skip "python3 needed to read the results JSON"

# The scenario the array is: what the simulator and the model are given.
write_scenario() {  # path
  local ram sim_seconds=$SIM_SECONDS
  [[ $CACHE == cold ]] && sim_seconds=$SECONDS_PER_RUN  # The ramp's start, as replayed.
  ram=$(($(lab_bytes "${SHARED%iB}") + $(lab_bytes "${OS_CACHE%iB}") + (1 << 30)))
  cat >"$1" <<EOF
# Lab array (scripts/lab/lab-array.sh): 4 loop devices throttled by cgroup v1 blkio to
# $IOPS IOPS and $MBPS MiB/s each way (independent read and write caps: disks.type =
# "throttled", 30 us device latency), as a RAID 10 replayed by pgstorsim itself (no
# controller cache); 64 KiB filesystem blocks and 8 KiB fragments as on the seed's UFS,
# partition offset $OFFSET (63s = the seed's MBR); WAL on an unthrottled file. The
# page cache (host.os_cache) is the trace's OS cache; data writes io.data_writes =
# $DATA_WRITES (the replay takes it and the OS cache from this file).
[scenario]
name = "lab-array"
[host]
ram = "$ram"
os_cache = "$OS_CACHE"
[io]
data_writes = "$DATA_WRITES"
[postgres]
shared_buffers = "$SHARED"
wal_on_data_volume = false
[filesystem]
block_size = "64KiB"
fragment_size = "8KiB"
partition_offset = "$OFFSET"
[controller]
kind = "hba"
cache_size = "0"
[array]
level = "raid10"
disks = 4
stripe = "32KiB"
[disks]
type = "throttled"
read_iops = $IOPS
write_iops = $IOPS
read_bandwidth = "${MBPS}MiB"
write_bandwidth = "${MBPS}MiB"
read_latency = "30us"
write_latency = "30us"
capacity = "$(lab_bytes "$DISK_SIZE")"
[workload]
scale = $SCALE
clients = $CLIENTS
cache = "$CACHE"
duration = "${sim_seconds}s"
EOF
}

save_conditions() {
  local v
  {
    for v in $CONDITIONS; do printf '%s=%q\n' "$v" "${!v}"; done
    printf 'BINARY=%q\n' "$BIN"
    printf 'BINARY_BUILT=%q\n' "$(date -u -r "$BIN" +%Y-%m-%dT%H:%M:%SZ)"
    printf 'TREE=%q\n' "$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)"
    printf 'MEASURED=%q\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    printf 'LOADAVG=%q\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
  } >"$SAVED/conditions.env"
}

replay() {  # stripe run -> prints tps
  local members allow=() dev json=$SAVED/replay-$1-$2.json
  members=${LAB_DISKS// /,}
  for dev in $LAB_DISKS; do allow+=(--allow-destroy "$dev"); done
  # The array and filesystem geometry come from the scenario, as for simulate/predict.
  "$here/lab-disks.sh" exec "$BIN" replay --trace "$WORK/array.trace" \
    --scenario "$SAVED/array.toml" --set "array.stripe=$1" --members "$members" \
    --wal-target "$WORK/wal.img" "${allow[@]}" --workers "$CLIENTS" --engine "$ENGINE" \
    --duration "${SECONDS_PER_RUN}s" --out "$json" >"$WORK/replay-$1-$2.txt" 2>&1 ||
    lab_die "replay failed: $(tail -3 "$WORK/replay-$1-$2.txt")"
  "$BIN" report --format tsv "$json" |
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i } NR == 2 { printf "%.1f\n", $col["tps"] }'
  gzip -9f "$json"
}

# simulate and predict for every stripe against the saved replays; writes TSV.
predict_rows() {
  local stripe
  write_scenario "$SAVED/array.toml"
  printf '%s\t' array stripe runs median_tps simulate_tps predict_tps member_reads_txn >"$TSV"
  printf '%s\t' member_writes_txn >>"$TSV"
  echo late_tps >>"$TSV"
  for stripe in $STRIPES; do
    "$BIN" simulate --scenario "$SAVED/array.toml" --set "array.stripe=$stripe" --seed 1 \
      --out "$WORK/sim-$stripe.json" --quiet >/dev/null
    "$BIN" predict --scenario "$SAVED/array.toml" --set "array.stripe=$stripe" \
      --out "$WORK/predict-$stripe.json" >/dev/null
    python3 - "$OFFSET" "$stripe" "$SAVED" "$WORK/sim-$stripe.json" \
      "$WORK/predict-$stripe.json" >>"$TSV" <<'EOF'
import glob, gzip, json, os, re, statistics, sys
offset, stripe, saved, sim, pred = sys.argv[1:]
load = lambda p: json.load(gzip.open(p) if p.endswith(".gz") else open(p))
runs = sorted(glob.glob(os.path.join(saved, "replay-%s-*.json.gz" % stripe)),
              key=lambda p: int(re.search(r"-(\d+)\.json\.gz$", p).group(1)))
if not runs:
    sys.exit("lab: error: no saved replays replay-%s-*.json.gz in %s" % (stripe, saved))
replays = [load(p) for p in runs]
values = [r["summary"]["tps"] for r in replays]
def per_txn(key):  # Member ops of the array (not the WAL file) per transaction, all runs.
    ops = sum(d[key] for r in replays for d in r["sections"]["devices"] if d["role"] != "wal")
    return ops / max(1, sum(r["summary"]["transactions"] for r in replays))
def late_tps(r):  # Mean tps of the whole 1 s intervals in the second half of the run.
    whole = [p["tps"] for p in r["series"] if abs(p["t_s"] - round(p["t_s"])) < 1e-6]
    late = whole[len(whole) // 2:]
    return statistics.mean(late) if late else 0.0
print("raid10 x4, 64k fs blocks, offset %s\t%s\t%s\t%.1f\t%.1f\t%.1f\t%.2f\t%.2f\t%.1f" % (
    offset, stripe, ", ".join("%.1f" % v for v in values), statistics.median(values),
    load(sim)["summary"]["tps"], load(pred)["summary"]["tps"], per_txn("reads"),
    per_txn("writes"), statistics.median(late_tps(r) for r in replays)))
EOF
  done
  cat "$TSV"
}

predict_only() {
  [[ -f $SAVED/conditions.env ]] ||
    lab_die "no saved measurement at $SAVED (run lab-array.sh first)"
  WARMUP=0  # Saved before the warm-up existed: the trace started clean.
  grep -q '^DATA_WRITES=' "$SAVED/conditions.env" ||
    lab_die "$SAVED was replayed before io.data_writes (every data write O_DIRECT, which predict does not model on a throttled HBA): measure again"
  # shellcheck source=/dev/null
  . "$SAVED/conditions.env"
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/lab-array-predict.XXXXXX")
  trap 'rm -rf "$WORK"' EXIT
  lab_say "predictions for the replays measured $MEASURED (binary built $BINARY_BUILT, tree $TREE)"
  predict_rows
}

teardown() {
  "$here/lab-disks.sh" down >/dev/null 2>&1 || true
  if mountpoint -q "$WORK" 2>/dev/null; then umount "$WORK" || true; fi
  rm -rf "$WORK"
}

main() {
  lab_require_uint LAB_ARRAY_RUNS "$RUNS"
  lab_require_root
  lab_require_blkio
  lab_require_loop
  trap teardown EXIT
  trap 'exit 130' INT TERM
  "$here/lab-disks.sh" up 4 "$DISK_SIZE" "$IOPS" "$MBPS"
  # shellcheck source=/dev/null
  . "$LAB_DISKS_ENV"
  mkdir -p "$WORK" "$SAVED"
  rm -f "$SAVED"/replay-*.json.gz
  mount -t tmpfs -o size=1G,mode=700 pgstorsim-lab-array "$WORK"
  [[ $CACHE == cold ]] && WARMUP=0  # A cold start is the ramp itself.
  save_conditions
  # The trace's host is the scenario's, as simulate and predict read it.
  write_scenario "$SAVED/array.toml"
  "$BIN" trace --scenario "$SAVED/array.toml" --transactions 50000 \
    --warmup-transactions "$WARMUP" \
    --out "$WORK/array.trace" | grep -E '^(records|hit ratio)'
  local r stripe tps
  for ((r = 1; r <= RUNS; r++)); do
    for stripe in $STRIPES; do
      tps=$(replay "$stripe" "$r")
      lab_say "run $r stripe $stripe: $tps tps"
    done
  done
  predict_rows
}

if [[ ${LAB_ARRAY_PREDICT_ONLY:-0} == 1 ]]; then
  predict_only
else
  main
fi
