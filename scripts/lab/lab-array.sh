#!/usr/bin/env bash
# Stripe-size effect on an emulated array (issue 5, docs/lab.md): four throttled lab
# disks as the members of `pgstorsim replay --array raid10`, the seed's 64 KiB
# filesystem blocks and 8 KiB fragments on a 63-sector (misaligned MBR) partition, a
# warm TPC-B trace whose database does not fit the cache, replayed with a 32 KiB and a
# 1 MiB stripe (alternating, several runs, medians). WAL goes to an unthrottled file,
# the lab's stand-in for the seed's battery-backed controller cache that absorbs
# commits. `pgstorsim simulate` and `pgstorsim predict` run the matching scenario
# (same geometry, disks = the throttle, wal_on_data_volume = false). One TSV row per
# stripe; lab_table.py prints the ratios.
#
#   lab-array.sh [TSV]      (default results/validation/lab-array.tsv)
#
# Environment (defaults in brackets): PGSTORSIM_BINARY [build-lab/pgstorsim],
# LAB_ARRAY_IOPS [150], LAB_ARRAY_MBPS [40], LAB_ARRAY_SCALE [20],
# LAB_ARRAY_CLIENTS [4], LAB_ARRAY_SECONDS [15], LAB_ARRAY_RUNS [3],
# LAB_ARRAY_SHARED_BUFFERS [16MiB], LAB_ARRAY_OS_CACHE [16MiB], LAB_ARRAY_OFFSET
# [63s] (partition offset; 0 = aligned, where no 64 KiB block has two pieces on one
# member, so the result does not depend on whether such pieces are merged),
# PGSTORSIM_LAB_NAME [pgstorsim-lab-e2e-array]. Torn down on exit. Needs root.
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
TSV=${1:-$root/results/validation/lab-array.tsv}
# Trace, WAL file and results: a small tmpfs of our own (not under /dev/, where the
# replayer refuses to create files; not the host disk, whose fsyncs are slow and shared).
WORK=/var/tmp/$LAB_NAME-work
STRIPES="32KiB 1MiB"

[[ -x $BIN ]] || lab_die "no pgstorsim binary at $BIN (set PGSTORSIM_BINARY)"
lab_require_uint LAB_ARRAY_RUNS "$RUNS"
lab_require_root
lab_require_blkio
lab_require_loop
command -v python3 >/dev/null || lab_skip "python3 needed to read the results JSON"

teardown() {
  "$here/lab-disks.sh" down >/dev/null 2>&1 || true
  if mountpoint -q "$WORK" 2>/dev/null; then umount "$WORK" || true; fi
  rm -rf "$WORK"
}
trap teardown EXIT
trap 'exit 130' INT TERM

# The scenario the array is: what the simulator and the model are given.
write_scenario() {  # path
  local latency_us=$((1000000 / IOPS)) ram
  ram=$(($(lab_bytes "${SHARED%iB}") + $(lab_bytes "${OS_CACHE%iB}") + (1 << 30)))
  cat >"$1" <<EOF
# Lab array (scripts/lab/lab-array.sh): 4 loop devices throttled by cgroup v1 blkio to
# $IOPS IOPS and $MBPS MiB/s each way, as a RAID 10 replayed by pgstorsim itself (no
# controller cache); 64 KiB filesystem blocks and 8 KiB fragments as on the seed's UFS,
# partition offset $OFFSET (63s = the seed's MBR); WAL on an unthrottled file. RAM = shared_buffers + the trace's OS
# cache + the simulator's 1 GiB OS reserve (sim_config.h os_reserved_bytes).
[scenario]
name = "lab-array"
[host]
ram = "$ram"
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
type = "ssd"
read_latency = "${latency_us}us"
write_latency = "${latency_us}us"
channels = 1
transfer_rate = "${MBPS}MiB"
capacity = "$LAB_DISK_SIZE_BYTES"
[workload]
scale = $SCALE
clients = $CLIENTS
cache = "warm"
duration = "${SECONDS_PER_RUN}s"
EOF
}

replay() {  # stripe run -> prints tps
  local members allow=() dev json=$WORK/replay-$1-$2.json
  members=${LAB_DISKS// /,}
  for dev in $LAB_DISKS; do allow+=(--allow-destroy "$dev"); done
  "$here/lab-disks.sh" exec "$BIN" replay --trace "$WORK/array.trace" --array raid10 \
    --members "$members" --stripe "$1" --fs-block 64k --fragment 8k --partition-offset "$OFFSET" \
    --wal-target "$WORK/wal.img" "${allow[@]}" --workers "$CLIENTS" \
    --duration "${SECONDS_PER_RUN}s" --out "$json" >"$WORK/replay-$1-$2.txt" 2>&1 ||
    lab_die "replay failed: $(tail -3 "$WORK/replay-$1-$2.txt")"
  python3 -c 'import json, sys
print("%.1f" % json.load(open(sys.argv[1]))["summary"]["tps"])' "$json"
}

main() {
  "$here/lab-disks.sh" up 4 2G "$IOPS" "$MBPS"
  # shellcheck source=/dev/null
  . "$LAB_DISKS_ENV"
  mkdir -p "$WORK" "$(dirname "$TSV")"
  mount -t tmpfs -o size=1G,mode=700 pgstorsim-lab-array "$WORK"
  "$BIN" trace --scale "$SCALE" --transactions 50000 --clients "$CLIENTS" \
    --shared-buffers "$SHARED" --os-cache "$OS_CACHE" --cache warm \
    --out "$WORK/array.trace" | grep -E '^(records|hit ratio)'
  write_scenario "$WORK/array.toml"
  declare -A runs
  local r stripe tps
  for ((r = 1; r <= RUNS; r++)); do
    for stripe in $STRIPES; do
      tps=$(replay "$stripe" "$r")
      lab_say "run $r stripe $stripe: $tps tps"
      runs[$stripe]+="${runs[$stripe]:+ }$tps"
    done
  done
  echo -e "array\tstripe\truns\tmedian_tps\tsimulate_tps\tpredict_tps" >"$TSV"
  for stripe in $STRIPES; do
    "$BIN" simulate --scenario "$WORK/array.toml" --set "array.stripe=$stripe" --seed 1 \
      --out "$WORK/sim-$stripe.json" --quiet >/dev/null
    "$BIN" predict --scenario "$WORK/array.toml" --set "array.stripe=$stripe" \
      --out "$WORK/predict-$stripe.json" >/dev/null
    python3 - "$OFFSET" "$stripe" "${runs[$stripe]}" "$WORK/sim-$stripe.json" \
      "$WORK/predict-$stripe.json" >>"$TSV" <<'EOF'
import json, statistics, sys
offset, stripe, runs, sim, pred = sys.argv[1:]
tps = lambda p: json.load(open(p))["summary"]["tps"]
values = [float(v) for v in runs.split()]
print("raid10 x4, 64k fs blocks, offset %s\t%s\t%s\t%.1f\t%.1f\t%.1f" % (
    offset, stripe, ", ".join("%.1f" % v for v in values), statistics.median(values), tps(sim),
    tps(pred)))
EOF
  done
  cat "$TSV"
}

main
